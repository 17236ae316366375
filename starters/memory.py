"""Training batches kata: pack sequences of any length into micro-batches that fit the GPU.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start memory   # my_memory.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_memory.py --rubric).

Each function is scored on its own; leave one unwritten and its tests are
reported as not attempted.  Standard library only.  The full contract, with
the memory model's source, is variants/memory/README.md.

Everything is an integer: bytes, tokens, counts.  Every function raises
ValueError for a value that is not an int (a bool is not one) or is out of
range, and for an unknown `recompute`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

BYTES_PER_PARAMETER = 16  # mixed-precision Adam: fp16 weights and gradients, fp32 master, m, v


class Shape(NamedTuple):
    """The model as memory sees it."""

    layers: int  # transformer layers, L >= 1
    hidden: int  # hidden size, h >= 1
    heads: int  # attention heads, a >= 1
    parameters: int  # >= 0


class MicroBatch(NamedTuple):
    sequences: tuple[int, ...]  # input positions, in the order they joined
    padded_length: int  # the longest of them: every sequence is padded to it
    bytes: int  # peak_bytes at this padded length and size


class Plan(NamedTuple):
    steps: tuple[tuple[MicroBatch, ...], ...]  # optimizer steps, each its micro-batches
    real_tokens: int  # the sum of the lengths
    padded_tokens: int  # the sum of padded_length * len(sequences)


def activation_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    """Bytes of activations kept for the backward pass, all layers, exactly.

    Per layer, for s = seq_len, b = batch, h = hidden, a = heads (Korthikanti et
    al. 2023, 16-bit, no parallelism):
        "none":      34*s*b*h + 5*a*s*s*b
        "selective": 34*s*b*h        (the attention's s x s tensors recomputed)
        "full":      2*s*b*h         (only the layer's input kept)
    seq_len >= 1, batch >= 0.
    """
    raise NotImplementedError("activation_bytes")


def peak_bytes(shape: Shape, *, seq_len: int, batch: int, recompute: str) -> int:
    """16 bytes per parameter, resident whatever the batch, plus the activations."""
    raise NotImplementedError("peak_bytes")


def largest_batch(shape: Shape, *, seq_len: int, memory: int, recompute: str) -> int:
    """The largest b >= 0 with peak_bytes(b) <= memory (exactly `memory` fits; 0 if not
    even one sequence fits), computed, never by trying each b in turn."""
    raise NotImplementedError("largest_batch")


def plan_batches(
    lengths: Iterable[int],
    shape: Shape,
    *,
    memory: int,
    recompute: str,
    window: int,
    tokens_per_step: int,
) -> Plan:
    """Micro-batches that fit `memory`, grouped into optimizer steps.

    - Cut lengths, in input order, into consecutive windows of `window`
      sequences; a micro-batch holds one window's sequences, windows in order.
    - Within a window take sequences by length, shortest first, ties by position.
    - Greedily: a sequence joins the open micro-batch if, with it, the
      micro-batch's peak (padded to its longest) is at most `memory`; else the
      micro-batch closes and the sequence opens the next.  A window's last
      micro-batch closes with the window.
    - A sequence that does not fit alone raises ValueError naming its position
      and length; nothing is planned.
    - Steps take micro-batches in order until their real tokens reach
      tokens_per_step; the last step may hold fewer.
    - lengths is any iterable, read once, never modified; each length >= 1.
    O(n log n).
    """
    raise NotImplementedError("plan_batches")
