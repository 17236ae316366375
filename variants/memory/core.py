"""Training batches that fit: the memory a micro-batch costs, and a plan that never exceeds it.

Invariants (the contract, `variants/memory/README.md`):

* every count is an exact integer: bytes from Korthikanti et al.'s per-layer
  activations (no parallelism, 16-bit) plus 16 bytes per parameter of
  mixed-precision Adam state;
* every micro-batch of a plan holds sequences of one window, is padded to
  its longest sequence, and its peak bytes are at most the memory given;
* sequences are taken by (length, position) within a window and packed
  greedily; micro-batches are grouped into optimizer steps of at least
  `tokens_per_step` real tokens (the last may hold fewer).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

BYTES_PER_PARAMETER = 16  # fp16 weights 2 + fp16 gradients 2 + fp32 master, momentum, variance 12
RECOMPUTE = ("none", "selective", "full")


class Shape(NamedTuple):
    """The model as memory sees it."""

    layers: int
    hidden: int
    heads: int
    parameters: int


class MicroBatch(NamedTuple):
    sequences: tuple[int, ...]  # input positions, in the order they joined
    padded_length: int  # the longest of them: every sequence is padded to it
    bytes: int  # peak_bytes at this padded length and size


class Plan(NamedTuple):
    steps: tuple[tuple[MicroBatch, ...], ...]  # optimizer steps, each its micro-batches
    real_tokens: int
    padded_tokens: int


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    """Bytes of activations kept for the backward pass, all layers, for `batch` sequences of
    `seq_len` tokens: 34sbh + 5as²b per layer with no recomputation, 34sbh selective, 2sbh full."""
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
    """The states (16 bytes a parameter), plus one micro-batch's activations."""
    activations = activation_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)
    return BYTES_PER_PARAMETER * shape.parameters + activations


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    """The largest b >= 0 with peak_bytes(b) <= memory: the peak is linear in b, so divide."""
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
    """Micro-batches packed greedily within sorted windows, grouped into optimizer steps."""
    _at_least(0, memory=memory)
    _at_least(1, window=window, tokens_per_step=tokens_per_step)
    peak_bytes(shape, seq_len=1, batch=1, recompute=recompute)  # the shape and mode checked
    given = list(lengths)  # read once; the caller's iterable is never touched again
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
    """One window's sequences, shortest first, each joining the open micro-batch if it fits."""
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
    steps, step, tokens = [], list[MicroBatch](), 0
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


__all__ = [
    "BYTES_PER_PARAMETER",
    "RECOMPUTE",
    "MicroBatch",
    "Plan",
    "Shape",
    "activation_bytes",
    "largest_batch",
    "peak_bytes",
    "plan_batches",
]
