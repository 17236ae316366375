"""What the planner's choices buy, in a seeded, deterministic study of one model on one GPU.

The setting: a 1.3B-parameter GPT-like model, 24 layers of hidden size
2,048 with 16 attention heads of 128 (12 * 24 * 2,048**2, about 1.21B, in
the layers; the rest, about 0.1B, the embeddings), trained with mixed
precision and Adam on a GPU of 80 GB (80 * 10**9 bytes): 20.8 GB of it are
the states, 16 bytes a parameter, whatever the batch.  The sequence lengths
are long-tailed: log-normal around a median of 512 tokens (sigma 1.0: a
mean of 512 * e**0.5, about 844, before the cap), capped at 8,192, drawn
from `random.Random(seed)`.

Three questions, each a pure function of its arguments:

* `packings`: padding efficiency and micro-batches per optimizer step for
  random order (the lengths shuffled, then packed greedily in that order,
  unsorted), length buckets (each bucket packed in arrival order), sorted
  windows of several sizes and a global sort (one window of every
  sequence).  Only the windows and the global sort are the contract's
  `plan_batches`; random order and buckets are the study's own, for
  comparison.
* `recomputation`: the largest micro-batch that fits at a few sequence
  lengths with none, selective and full recomputation, and the compute each
  costs beyond a training step, in exact fractions of the standard count:
  a layer's forward pass is 24*b*s*h**2 + 4*b*s**2*h FLOPs, a training
  step three forward passes; full recomputation runs the forward pass once
  more (+1/3), selective only the attention-score matmuls, 4*b*s**2*h
  (+ s / (18*h + 3*s)).  The logits layer is left out of both.
* `effective_batch`: what the optimizer sees when the lengths shift:
  steps of a target of tokens hold fewer sequences of longer lengths and
  the same tokens, where steps of a fixed number of sequences would have
  grown with them.

`PAPER` quotes the published anchors of Korthikanti et al.; they are the
paper's measurements on its models, not computed here.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from random import Random
from typing import NamedTuple

from variants.memory.core import (
    MicroBatch,
    Plan,
    Shape,
    activation_bytes,
    largest_batch,
    peak_bytes,
    plan_batches,
)

SHAPE = Shape(layers=24, hidden=2_048, heads=16, parameters=1_300_000_000)
MEMORY = 80 * 10**9  # bytes: an 80 GB GPU
TOKENS_PER_STEP = 2**20  # about a million tokens an optimizer step
RECOMPUTE = "selective"  # the packing's mode: memory-efficient attention keeps as much
SEQUENCES = 20_000
MEDIAN, SIGMA, CAP = 512, 1.0, 8_192
WINDOWS = (64, 512, 4_096)
BUCKETS = (4, 16)
SEQ_LENS = (2_048, 8_192)
MODES = ("none", "selective", "full")

PAPER = (
    "activation memory 5x smaller (sequence parallelism with selective recomputation)",
    "over 90% of the execution-time overhead of recomputation removed",
    "a 530B-parameter GPT-3-style model on 2,240 A100s: 54.2% model FLOPs utilization, "
    "against 42.1% with full recomputation",
)


def lengths(
    count: int = SEQUENCES,
    *,
    seed: int = 1,
    median: int = MEDIAN,
    sigma: float = SIGMA,
    cap: int = CAP,
) -> list[int]:
    """`count` sequence lengths, log-normal around `median`, at least 1 and at most `cap`."""
    rng = Random(seed)
    mu = math.log(median)
    return [min(cap, max(1, round(rng.lognormvariate(mu, sigma)))) for _ in range(count)]


# --- (a) packing: random order, buckets, windows, a global sort ---------------------------


class Packing(NamedTuple):
    name: str
    micro_batches: int
    steps: int
    real_tokens: int
    padded_tokens: int

    @property
    def efficiency(self) -> Fraction:
        """Real tokens over padded ones: the share of the compute spent on the data."""
        return Fraction(self.real_tokens, self.padded_tokens)

    @property
    def per_step(self) -> Fraction:
        """Micro-batches per optimizer step: forward and backward passes the step waits for."""
        return Fraction(self.micro_batches, self.steps)


def random_order(
    given: Sequence[int],
    shape: Shape = SHAPE,
    *,
    memory: int = MEMORY,
    recompute: str = RECOMPUTE,
    tokens_per_step: int = TOKENS_PER_STEP,
    seed: int = 1,
) -> Plan:
    """The lengths shuffled, then packed greedily in that order, never sorted (not the
    contract: `plan_batches` with window 1 would make micro-batches of one sequence)."""
    order = list(range(len(given)))
    Random(seed).shuffle(order)
    batches = _greedy(order, given, shape, memory, recompute)
    return _plan(batches, given, tokens_per_step)


def bucketed(
    given: Sequence[int],
    buckets: int,
    shape: Shape = SHAPE,
    *,
    memory: int = MEMORY,
    recompute: str = RECOMPUTE,
    tokens_per_step: int = TOKENS_PER_STEP,
) -> Plan:
    """`buckets` length buckets of about equal counts (their edges the lengths' quantiles),
    each packing its sequences greedily in arrival order; a micro-batch goes when the next
    sequence of its bucket would not fit, and the open ones go at the end, bucket by bucket."""
    ranked = sorted(given)
    edges = [ranked[i * len(ranked) // buckets] for i in range(1, buckets)]
    open_: list[list[int]] = [[] for _ in range(buckets)]
    longest = [0] * buckets
    batches: list[MicroBatch] = []
    for position, length in enumerate(given):
        bucket = bisect_right(edges, length)
        members, padded = open_[bucket], max(longest[bucket], length)
        if members and _peak(shape, padded, len(members) + 1, recompute) > memory:
            batches.append(_batch(members, longest[bucket], shape, recompute))
            members, padded = [], length
            open_[bucket] = members
        if not members:  # a sequence that joins one fits alone: the peak grows with both
            _fits_alone(position, length, shape, memory, recompute)
        members.append(position)
        longest[bucket] = padded
    batches += [
        _batch(members, longest[b], shape, recompute) for b, members in enumerate(open_) if members
    ]
    return _plan(batches, given, tokens_per_step)


def packings(
    given: Sequence[int],
    shape: Shape = SHAPE,
    *,
    memory: int = MEMORY,
    recompute: str = RECOMPUTE,
    tokens_per_step: int = TOKENS_PER_STEP,
    windows: Sequence[int] = WINDOWS,
    buckets: Sequence[int] = BUCKETS,
    seed: int = 1,
) -> list[Packing]:
    """Each way of packing the same lengths, on the same model, GPU and target of tokens."""
    found = [
        (
            "random order",
            random_order(
                given,
                shape,
                memory=memory,
                recompute=recompute,
                tokens_per_step=tokens_per_step,
                seed=seed,
            ),
        )
    ]
    found += [
        (
            f"{k} buckets",
            bucketed(
                given, k, shape, memory=memory, recompute=recompute, tokens_per_step=tokens_per_step
            ),
        )
        for k in buckets
    ]
    found += [
        (
            "global sort" if w is None else f"window {w:,}",
            plan_batches(
                given,
                shape,
                memory=memory,
                recompute=recompute,
                window=max(1, len(given)) if w is None else w,
                tokens_per_step=tokens_per_step,
            ),
        )
        for w in [*windows, None]
    ]
    return [summarize(name, plan) for name, plan in found]


def _greedy(
    order: Sequence[int], given: Sequence[int], shape: Shape, memory: int, recompute: str
) -> list[MicroBatch]:
    """Sequences in `order`, each joining the open micro-batch if it still fits padded to
    the longest so far (kept as it grows, never rescanned)."""
    batches: list[MicroBatch] = []
    members: list[int] = []
    longest = 0
    for position in order:
        length = given[position]
        padded = max(longest, length)
        if members and _peak(shape, padded, len(members) + 1, recompute) > memory:
            batches.append(_batch(members, longest, shape, recompute))
            members, padded = [], length
        if not members:
            _fits_alone(position, length, shape, memory, recompute)
        members.append(position)
        longest = padded
    if members:
        batches.append(_batch(members, longest, shape, recompute))
    return batches


def _fits_alone(position: int, length: int, shape: Shape, memory: int, recompute: str) -> None:
    alone = _peak(shape, length, 1, recompute)
    if alone > memory:
        raise ValueError(
            f"sequence {position} ({length} tokens) does not fit alone: it needs "
            f"{alone:,} bytes, the memory is {memory:,}"
        )


def _peak(shape: Shape, seq_len: int, batch: int, recompute: str) -> int:
    return peak_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)


def _batch(members: list[int], longest: int, shape: Shape, recompute: str) -> MicroBatch:
    return MicroBatch(tuple(members), longest, _peak(shape, longest, len(members), recompute))


def _plan(batches: list[MicroBatch], given: Sequence[int], tokens_per_step: int) -> Plan:
    """The contract's rule 8 and 9 for micro-batches made some other way."""
    steps: list[tuple[MicroBatch, ...]] = []
    step: list[MicroBatch] = []
    tokens = 0
    for batch in batches:
        step.append(batch)
        tokens += sum(given[p] for p in batch.sequences)
        if tokens >= tokens_per_step:
            steps.append(tuple(step))
            step, tokens = [], 0
    if step:
        steps.append(tuple(step))
    padded = sum(b.padded_length * len(b.sequences) for b in batches)
    return Plan(tuple(steps), sum(given), padded)


def summarize(name: str, plan: Plan) -> Packing:
    """A plan's micro-batches, steps and tokens, under `name`."""
    batches = sum(len(step) for step in plan.steps)
    return Packing(name, batches, len(plan.steps), plan.real_tokens, plan.padded_tokens)


# --- (b) recomputation: what fits, and what it costs --------------------------------------


class Recompute(NamedTuple):
    seq_len: int
    recompute: str
    per_sequence: int  # activation bytes of one sequence, all layers
    largest: int  # the largest micro-batch that fits: largest_batch
    overhead: Fraction  # extra FLOPs over a training step's (forward + backward)

    @property
    def tokens(self) -> int:
        """Tokens a micro-batch of the largest size holds."""
        return self.largest * self.seq_len


def forward_flops(shape: Shape, *, seq_len: int, batch: int) -> int:
    """A forward pass through every layer: 24*b*s*h**2 + 4*b*s**2*h a layer (the logits
    layer left out)."""
    s, b, h = seq_len, batch, shape.hidden
    return shape.layers * (24 * b * s * h * h + 4 * b * s * s * h)


def recompute_flops(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    """What recomputation runs again in the backward pass: nothing, the attention-score
    matmuls (Q K^T and the scores times V, 4*b*s**2*h a layer), or the whole forward pass."""
    s, b, h = seq_len, batch, shape.hidden
    extra = {
        "none": 0,
        "selective": shape.layers * 4 * b * s * s * h,
        "full": forward_flops(shape, seq_len=s, batch=b),
    }
    if recompute not in extra:
        raise ValueError(f"recompute must be one of {', '.join(MODES)}, not {recompute!r}")
    return extra[recompute]


def overhead(shape: Shape, *, seq_len: int, recompute: str) -> Fraction:
    """Extra compute over a training step (three forward passes), exact: 0, s/(18h + 3s), 1/3."""
    step = 3 * forward_flops(shape, seq_len=seq_len, batch=1)
    extra = recompute_flops(shape, seq_len=seq_len, batch=1, recompute=recompute)
    return Fraction(extra, step)


def recomputation(
    shape: Shape = SHAPE, *, memory: int = MEMORY, seq_lens: Sequence[int] = SEQ_LENS
) -> list[Recompute]:
    """At each sequence length, each mode: what one sequence keeps, how many fit, the cost."""
    return [
        Recompute(
            s,
            mode,
            activation_bytes(shape, seq_len=s, batch=1, recompute=mode),
            largest_batch(shape, seq_len=s, memory=memory, recompute=mode),
            overhead(shape, seq_len=s, recompute=mode),
        )
        for s in seq_lens
        for mode in MODES
    ]


# --- (c) the effective batch: tokens per step when the lengths shift ----------------------


class StepSizes(NamedTuple):
    name: str
    steps: int  # full steps: the last, partial, left out (unless it is the only one)
    sequences: tuple[int, int, Fraction]  # per step: least, most, mean
    tokens: tuple[int, int, Fraction]


def effective_batch(
    given: Sequence[int],
    shape: Shape = SHAPE,
    *,
    memory: int = MEMORY,
    recompute: str = RECOMPUTE,
    window: int = WINDOWS[-1],
    tokens_per_step: int = TOKENS_PER_STEP,
    scale: int = 2,
) -> list[StepSizes]:
    """Steps of `tokens_per_step` real tokens, on the lengths as given and `scale` times as
    long; beside them, steps of a fixed number of sequences (the first plan's mean, rounded
    down) over the same micro-batches' sequences, in order."""
    longer = [scale * length for length in given]
    found: list[StepSizes] = []
    fixed = 0
    for label, lengths_ in (("as drawn", given), (f"x{scale} longer", longer)):
        plan = plan_batches(
            lengths_,
            shape,
            memory=memory,
            recompute=recompute,
            window=window,
            tokens_per_step=tokens_per_step,
        )
        full = plan.steps[:-1] if len(plan.steps) > 1 else plan.steps
        counts = [sum(len(b.sequences) for b in step) for step in full]
        tokens = [sum(lengths_[p] for b in step for p in b.sequences) for step in full]
        fixed = fixed or sum(counts) // len(counts)
        found.append(_sizes(f"{tokens_per_step:,} tokens, {label}", counts, tokens))
        order = [p for step in plan.steps for b in step for p in b.sequences]
        chunks = [order[i : i + fixed] for i in range(0, len(order) - fixed + 1, fixed)]
        found.append(
            _sizes(
                f"{fixed:,} sequence{'s' if fixed > 1 else ''}, {label}",
                [len(chunk) for chunk in chunks],
                [sum(lengths_[p] for p in chunk) for chunk in chunks],
            )
        )
    return found


def _sizes(name: str, counts: list[int], tokens: list[int]) -> StepSizes:
    return StepSizes(
        name,
        len(counts),
        (min(counts), max(counts), Fraction(sum(counts), len(counts))),
        (min(tokens), max(tokens), Fraction(sum(tokens), len(tokens))),
    )


__all__ = [
    "BUCKETS",
    "MEMORY",
    "MODES",
    "PAPER",
    "SEQUENCES",
    "SEQ_LENS",
    "SHAPE",
    "TOKENS_PER_STEP",
    "WINDOWS",
    "Packing",
    "Recompute",
    "StepSizes",
    "bucketed",
    "effective_batch",
    "forward_flops",
    "lengths",
    "overhead",
    "packings",
    "random_order",
    "recomputation",
    "recompute_flops",
    "summarize",
]
