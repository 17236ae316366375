"""The batcher's records: its configuration, what goes in, what comes out, and its refusals."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple


class QueueFull(Exception):  # noqa: N818 (backpressure, as Ray Serve's BackPressureError)
    """The queue holds `max_queue` requests: this one is refused; try later."""


class Closed(Exception):  # noqa: N818 (a state, like a closed file)
    """The batcher is shutting down: it takes no new requests."""


@dataclass(frozen=True)
class Config:
    max_batch_size: int  # requests in a batch, at most
    max_wait: int  # ticks a request may wait for its batch to fill
    max_queue: int  # requests queued, at most
    max_in_flight: int = 1  # batches sent and not completed, at most
    token_budget: int | None = None  # padded tokens in a batch (size x longest), at most
    ageing: int | None = None  # a request queued this long is served before any other
    buckets: tuple[int, ...] = ()  # length boundaries: a batch holds one bucket's requests

    def __post_init__(self) -> None:
        sizes = {
            "max_batch_size": self.max_batch_size,
            "max_queue": self.max_queue,
            "max_in_flight": self.max_in_flight,
            "token_budget": self.token_budget,
        }
        for name, value in sizes.items():
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")
        for name, value in {"max_wait": self.max_wait, "ageing": self.ageing}.items():
            if value is not None and value < 0:
                raise ValueError(f"{name} must be at least 0, got {value}")
        if list(self.buckets) != sorted(set(self.buckets)) or any(b < 1 for b in self.buckets):
            raise ValueError(f"buckets must be increasing token counts >= 1, got {self.buckets}")


class Request(NamedTuple):
    id: Hashable
    tokens: int = 1  # its length
    priority: int = 0  # higher is served first
    timeout: int | None = None  # ticks it may stay queued; queued longer, it ends "timed out"


class Batch(NamedTuple):
    id: int  # unique among the batcher's batches
    requests: tuple[Hashable, ...]  # their results come back in this order
    padded_tokens: int  # len(requests) x the longest


class Ending(NamedTuple):
    id: Hashable
    kind: str  # "result", "error", "cancelled" or "timed out"
    value: Any = None  # the result, or the exception


class Decision(NamedTuple):
    batches: list[Batch]  # send these now, in this order
    ended: list[Ending]  # these ended while queued (timed out)
