"""RIGHT, written unlike the reference: packed by capacity, the largest micro-batch at each length.

Within a window sorted shortest first, the sequence that would join is the
longest of the micro-batch with it, so that micro-batch fits exactly when
its count is at most largest_batch at the sequence's length: the greedy is
a comparison of two integers, and a capacity of 0 is a sequence that does
not fit alone.  The lengths are read once, a window at a time (islice over
one iterator), each window checked before it is sorted; nothing is returned
until every window is planned, so an error anywhere still plans nothing.
Steps are cut afterwards from the running total of each micro-batch's real
tokens.  The suite compares what a caller sees, so all of this must pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice, pairwise
from typing import Any

from variants.memory import MicroBatch, Plan, Shape

FAILS = None

BYTES_PER_PARAMETER = 16
KEPT = {  # bytes a layer keeps for one token: (per hidden unit, per head and token of the sequence)
    "none": (34, 5),
    "selective": (34, 0),
    "full": (2, 0),
}
LEAST = {"layers": 1, "hidden": 1, "heads": 1, "parameters": 0}


def _ints(**values: tuple[Any, int]) -> None:
    """Each value (value, least) an int (never a bool) at least `least`."""
    for name, (value, least) in values.items():
        if type(value) is not int or value < least:
            raise ValueError(f"{name} must be an int >= {least}, got {value!r}")


def _kept(recompute: object) -> tuple[int, int]:
    if not isinstance(recompute, str) or recompute not in KEPT:
        raise ValueError(f"unknown recompute {recompute!r}: none, selective or full")
    return KEPT[recompute]


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    _ints(**{field: (getattr(shape, field), least) for field, least in LEAST.items()})
    _ints(seq_len=(seq_len, 1), batch=(batch, 0))
    per_hidden, per_head = _kept(recompute)
    tokens = seq_len * batch
    per_layer = tokens * (per_hidden * shape.hidden + per_head * shape.heads * seq_len)
    return shape.layers * per_layer


def peak_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    kept = activation_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)
    return kept + BYTES_PER_PARAMETER * shape.parameters


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    each = activation_bytes(shape, seq_len=seq_len, batch=1, recompute=recompute)
    _ints(memory=(memory, 0))
    free = memory - BYTES_PER_PARAMETER * shape.parameters
    return free // each if free > 0 else 0


def plan_batches(
    lengths: Iterable[int],
    shape: Shape,
    *,
    memory: int,
    recompute: str,
    window: int,
    tokens_per_step: int,
) -> Plan:
    _ints(memory=(memory, 0), window=(window, 1), tokens_per_step=(tokens_per_step, 1))
    activation_bytes(shape, seq_len=1, batch=0, recompute=recompute)
    capacity: dict[int, int] = {}  # length -> the largest micro-batch at that length

    def fits(length: int) -> int:
        if length not in capacity:
            capacity[length] = largest_batch(
                shape, seq_len=length, memory=memory, recompute=recompute
            )
        return capacity[length]

    numbered = enumerate(lengths)
    batches: list[tuple[MicroBatch, int]] = []  # each micro-batch, with its real tokens
    while chunk := list(islice(numbered, window)):
        for position, length in chunk:
            _ints(**{f"length at {position}": (length, 1)})
        members: list[int] = []
        top = real = 0
        for length, position in sorted((length, position) for position, length in chunk):
            if fits(length) == 0:
                raise ValueError(
                    f"sequence at position {position} ({length} tokens) does not fit in "
                    f"{memory} bytes even alone"
                )
            if members and len(members) + 1 > fits(length):
                batches.append(_micro(members, top, real, shape, recompute))
                members, real = [], 0
            members.append(position)
            top = length
            real += length
        if members:
            batches.append(_micro(members, top, real, shape, recompute))

    ends = [0]  # where each step begins in `batches`
    total = 0
    for index, (_, tokens) in enumerate(batches, start=1):
        total += tokens
        if total >= tokens_per_step:
            ends.append(index)
            total = 0
    if ends[-1] < len(batches):
        ends.append(len(batches))
    steps = tuple(tuple(batch for batch, _ in batches[a:b]) for a, b in pairwise(ends))
    return Plan(
        steps,
        sum(tokens for _, tokens in batches),
        sum(batch.padded_length * len(batch.sequences) for batch, _ in batches),
    )


def _micro(
    members: list[int], top: int, real: int, shape: Shape, recompute: str
) -> tuple[MicroBatch, int]:
    size = peak_bytes(shape, seq_len=top, batch=len(members), recompute=recompute)
    return MicroBatch(tuple(members), top, size), real
