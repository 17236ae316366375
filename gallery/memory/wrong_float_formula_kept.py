"""WRONG: the activations in the paper's float form, the float returned as it is.

s*b*h*(34 + 5*a*s/h) is the same number on paper, but `/` makes it a float:
the count comes back as 2.0e9 rather than an int, rounded to 53 bits, so
past 2**53 bytes it is no longer the count, and two micro-batches that need
different memory can compare equal.  Rule 1 asks for exact integers at any
size: multiply first, 34*s*b*h + 5*a*s*s*b, and never divide.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from variants.memory import MicroBatch, Plan, Shape

FAILS = "memory_model"

BYTES_PER_PARAMETER = 16  # fp16 weights 2 + fp16 gradients 2 + fp32 master, momentum, variance 12
RECOMPUTE = ("none", "selective", "full")


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> Any:
    _check_shape(shape)
    _at_least(1, seq_len=seq_len)
    _at_least(0, batch=batch)
    s, b, h, a = seq_len, batch, shape.hidden, shape.heads
    per_layer = {
        "none": s * b * h * (34 + 5 * a * s / h),  # the mistake: a float, kept
        "selective": 34 * s * b * h,
        "full": 2 * s * b * h,
    }
    if recompute not in per_layer:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE)}, not {recompute!r}")
    return shape.layers * per_layer[recompute]


def peak_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> Any:
    activations = activation_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)
    return BYTES_PER_PARAMETER * shape.parameters + activations


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    _at_least(0, memory=memory)
    states = peak_bytes(shape, seq_len=seq_len, batch=0, recompute=recompute)
    each = activation_bytes(shape, seq_len=seq_len, batch=1, recompute=recompute)
    if memory < states:
        return 0
    return int((memory - states) // each)


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
    for begin in range(0, len(given), window):
        order = sorted(range(begin, min(begin + window, len(given))), key=given.__getitem__)
        batches += _packed(order, given, shape, memory, recompute)
    padded = sum(b.padded_length * len(b.sequences) for b in batches)
    return Plan(_steps(batches, given, tokens_per_step), sum(given), padded)


def _packed(
    order: list[int], lengths: list[int], shape: Shape, memory: int, recompute: str
) -> list[MicroBatch]:
    packed: list[MicroBatch] = []
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
        current = [position]
    if current:
        packed.append(_closed(current, lengths, shape, recompute))
    return packed


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
