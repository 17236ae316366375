"""A model stand-in: deterministic, seeded, and charged as a GPU is.

A batch costs a fixed overhead plus its padded tokens (its size times its
longest request: a batch is padded to its longest member), so batching by
length bucket saves time.  A batch over the token budget fails as out of
memory, all of it.  Each request fails on its own with probability
`failure_rate`, decided by a hash of (seed, custom_id, attempt), so a run is
repeatable whatever the scheduling; a request with ``"poison": true`` fails
every attempt, as a request that crashes the model does.  No weights, no GPU.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

PRICE_PER_GPU_HOUR = 2.0  # dollars, an on-demand GPU's order of magnitude: what the cost is in


class Work(NamedTuple):
    custom_id: str
    params: dict[str, Any]
    tokens: int
    attempt: int  # 1 for the first


class Failed(NamedTuple):
    error: str
    permanent: bool  # retrying cannot help: a dead letter at once


class Ran(NamedTuple):
    outcomes: list[dict[str, Any] | Failed]  # one per request, in order
    busy_ms: int  # how long the GPU was busy


@dataclass(frozen=True)
class Model:
    seed: int = 0
    failure_rate: Fraction = Fraction(0)
    token_budget: int = 16_384  # padded tokens a batch may hold
    overhead_us: int = 20_000  # per batch: the launch, the weights read once
    us_per_token: int = 20  # per padded token

    def busy_ms(self, padded_tokens: int) -> int:
        return (self.overhead_us + self.us_per_token * padded_tokens) // 1000

    def run(self, batch: Sequence[Work]) -> Ran:
        """The outcome of each request of `batch`, and the GPU time it took."""
        padded = len(batch) * max(work.tokens for work in batch)
        if padded > self.token_budget:
            oom = Failed(f"out of memory: {padded} padded tokens > {self.token_budget}", False)
            return Ran([oom] * len(batch), self.busy_ms(0))
        return Ran([self._one(work) for work in batch], self.busy_ms(padded))

    def _one(self, work: Work) -> dict[str, Any] | Failed:
        if work.params.get("poison") is True:
            return Failed("model error: the input crashed the model", False)
        if self._draw(work) < self.failure_rate:
            return Failed(f"model error: transient failure (attempt {work.attempt})", False)
        return {"text": f"completion of {work.custom_id}", "tokens": work.tokens}

    def _draw(self, work: Work) -> Fraction:
        key = f"{self.seed}/{work.custom_id}/{work.attempt}".encode()
        return Fraction(int.from_bytes(hashlib.sha256(key).digest()[:8]), 2**64)
