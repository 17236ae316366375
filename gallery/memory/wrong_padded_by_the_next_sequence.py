"""WRONG: a full micro-batch's padding counted at the length of the one that did not fit.

The micro-batch is padded to its own longest member; the sequence that did
not fit opens the next one.  Counting the closed micro-batch's padding at the
newcomer's length (the loop's current length at the moment it closes) makes
`padded_tokens` too large, and the padding efficiency too low, by exactly
the sequences that were sorted next to each other (rule 9).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from variants.memory import MicroBatch, Plan, Shape

FAILS = "memory_steps"

BYTES_PER_PARAMETER = 16  # fp16 weights 2 + fp16 gradients 2 + fp32 master, momentum, variance 12
RECOMPUTE = ("none", "selective", "full")


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    _check_shape(shape)
    _at_least(1, seq_len=seq_len)
    _at_least(0, batch=batch)
    s, b, h, a = seq_len, batch, shape.hidden, shape.heads
    per_layer = {
        "none": 34 * s * b * h + 5 * a * s * s * b,
        "selective": 34 * s * b * h,
        "full": 2 * s * b * h,
    }
    if recompute not in per_layer:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE)}, not {recompute!r}")
    return shape.layers * per_layer[recompute]


def peak_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    activations = activation_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)
    return BYTES_PER_PARAMETER * shape.parameters + activations


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    _at_least(0, memory=memory)
    states = peak_bytes(shape, seq_len=seq_len, batch=0, recompute=recompute)
    each = activation_bytes(shape, seq_len=seq_len, batch=1, recompute=recompute)
    if memory < states:
        return 0
    return (memory - states) // each


def plan_batches(
    lengths: Iterable[int],
    shape: Shape,
    *,
    memory: int,
    recompute: str,
    window: int,
    tokens_per_step: int,
) -> Plan:
    _at_least(0, memory=memory)
    _at_least(1, window=window, tokens_per_step=tokens_per_step)
    peak_bytes(shape, seq_len=1, batch=1, recompute=recompute)  # the shape and mode checked
    given = list(lengths)
    for position, length in enumerate(given):
        _at_least(1, **{f"lengths[{position}]": length})
    batches: list[MicroBatch] = []
    padded = 0
    for begin in range(0, len(given), window):
        order = sorted(range(begin, min(begin + window, len(given))), key=given.__getitem__)
        packed, counted = _packed(order, given, shape, memory, recompute)
        batches += packed
        padded += counted
    return Plan(_steps(batches, given, tokens_per_step), sum(given), padded)


def _packed(
    order: list[int], lengths: list[int], shape: Shape, memory: int, recompute: str
) -> tuple[list[MicroBatch], int]:
    packed: list[MicroBatch] = []
    padded = 0
    current: list[int] = []
    for position in order:
        length = lengths[position]
        needed = peak_bytes(shape, seq_len=length, batch=len(current) + 1, recompute=recompute)
        if needed <= memory:
            current.append(position)
            continue
        alone = peak_bytes(shape, seq_len=length, batch=1, recompute=recompute)
        if alone > memory:
            raise ValueError(
                f"sequence {position} ({length} tokens) does not fit alone: it needs "
                f"{alone:,} bytes, the memory is {memory:,}"
            )
        packed.append(_closed(current, lengths, shape, recompute))
        padded += length * len(current)  # the mistake: the newcomer's length
        current = [position]
    if current:
        packed.append(_closed(current, lengths, shape, recompute))
        padded += lengths[current[-1]] * len(current)
    return packed, padded


def _closed(members: list[int], lengths: list[int], shape: Shape, recompute: str) -> MicroBatch:
    longest = lengths[members[-1]]  # shortest first: the last to join is the longest
    size = peak_bytes(shape, seq_len=longest, batch=len(members), recompute=recompute)
    return MicroBatch(tuple(members), longest, size)


def _steps(
    batches: list[MicroBatch], lengths: list[int], tokens_per_step: int
) -> tuple[tuple[MicroBatch, ...], ...]:
    steps: list[tuple[MicroBatch, ...]] = []
    step: list[MicroBatch] = []
    tokens = 0
    for batch in batches:
        step.append(batch)
        tokens += sum(lengths[p] for p in batch.sequences)
        if tokens >= tokens_per_step:
            steps.append(tuple(step))
            step, tokens = [], 0
    if step:
        steps.append(tuple(step))
    return tuple(steps)


def _check_shape(shape: Shape) -> None:
    _at_least(1, layers=shape.layers, hidden=shape.hidden, heads=shape.heads)
    _at_least(0, parameters=shape.parameters)


def _at_least(least: int, **values: Any) -> None:
    for name, value in values.items():
        if type(value) is not int:
            raise ValueError(f"{name} must be an int, not {value!r}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, not {value}")
