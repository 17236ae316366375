"""RIGHT, written unlike the reference: one formula and a table of coefficients, its own records.

Per layer the activations are s*b*(c*h + k*a*s), with (c, k) = (34, 5) with
no recomputation, (34, 0) selective and (2, 0) full: one integer formula
and a dict of its coefficients.  The largest micro-batch is the room left by
the states, clamped at zero, floor-divided by one sequence's activations.
The plan reads the lengths once into a list, checking each as it comes;
each window is sorted as (length, position) pairs; the open micro-batch is
its members and a running maximum (no heap, no rescan), fed to the steps
as it closes, in the same pass.  Its own NamedTuples, with the contract's
fields.  The suite compares what a caller sees, so all of this must pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

FAILS = None

STATE_BYTES = 16  # a parameter: fp16 weight and gradient, fp32 master weight, momentum, variance
COEFFICIENTS = {"none": (34, 5), "selective": (34, 0), "full": (2, 0)}  # (c, k) per layer


class Shape(NamedTuple):
    layers: int
    hidden: int
    heads: int
    parameters: int


class MicroBatch(NamedTuple):
    sequences: tuple[int, ...]
    padded_length: int
    bytes: int


class Plan(NamedTuple):
    steps: tuple[tuple[MicroBatch, ...], ...]
    real_tokens: int
    padded_tokens: int


def _whole(value: object, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is not an int: {value!r}")
    if value < least:
        raise ValueError(f"{name} is {value}, below {least}")
    return value


def _one_sequence(shape: Shape, seq_len: int, recompute: str) -> int:
    """The activations of one sequence of seq_len tokens, every layer; checks all it reads."""
    layers = _whole(shape.layers, "layers", 1)
    hidden = _whole(shape.hidden, "hidden", 1)
    heads = _whole(shape.heads, "heads", 1)
    _whole(shape.parameters, "parameters", 0)
    s = _whole(seq_len, "seq_len", 1)
    try:
        c, k = COEFFICIENTS[recompute]
    except (KeyError, TypeError):
        raise ValueError(f"recompute is one of {sorted(COEFFICIENTS)}, not {recompute!r}") from None
    return layers * s * (c * hidden + k * heads * s)


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    one = _one_sequence(shape, seq_len, recompute)
    return _whole(batch, "batch", 0) * one


def peak_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    activations = activation_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)
    return STATE_BYTES * shape.parameters + activations


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    one = _one_sequence(shape, seq_len, recompute)
    room = _whole(memory, "memory", 0) - STATE_BYTES * shape.parameters
    return max(room, 0) // one


def _closed(members: list[int], longest: int, shape: Shape, recompute: str) -> MicroBatch:
    size = peak_bytes(shape, seq_len=longest, batch=len(members), recompute=recompute)
    return MicroBatch(tuple(members), longest, size)


def _packed(
    window: list[tuple[int, int]], shape: Shape, memory: int, recompute: str
) -> Iterator[MicroBatch]:
    """One window's (length, position) pairs, sorted, packed greedily."""
    states = STATE_BYTES * shape.parameters
    members: list[int] = []
    longest = 0
    for length, position in window:
        padded = max(longest, length)
        if states + (len(members) + 1) * _one_sequence(shape, padded, recompute) <= memory:
            members.append(position)
            longest = padded
            continue
        if states + _one_sequence(shape, length, recompute) > memory:
            raise ValueError(f"the sequence at position {position}, {length} tokens, fits nowhere")
        yield _closed(members, longest, shape, recompute)
        members, longest = [position], length
    if members:
        yield _closed(members, longest, shape, recompute)


def plan_batches(
    lengths: Iterable[int],
    shape: Shape,
    *,
    memory: int,
    recompute: str,
    window: int,
    tokens_per_step: int,
) -> Plan:
    _whole(memory, "memory", 0)
    _whole(window, "window", 1)
    _whole(tokens_per_step, "tokens_per_step", 1)
    _one_sequence(shape, 1, recompute)
    given = [_whole(n, f"length at position {i}", 1) for i, n in enumerate(lengths)]

    steps: list[tuple[MicroBatch, ...]] = []
    step: list[MicroBatch] = []
    real = padded = in_step = 0
    for begin in range(0, len(given), window):
        pairs = sorted((given[i], i) for i in range(begin, min(begin + window, len(given))))
        for micro in _packed(pairs, shape, memory, recompute):
            tokens = sum(given[i] for i in micro.sequences)
            real += tokens
            padded += micro.padded_length * len(micro.sequences)
            step.append(micro)
            in_step += tokens
            if in_step >= tokens_per_step:
                steps.append(tuple(step))
                step, in_step = [], 0
    if step:
        steps.append(tuple(step))
    return Plan(tuple(steps), real, padded)
