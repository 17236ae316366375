"""``python -m variants memory``: what packing and recomputation buy a training job, as tables.

Seeded and deterministic: the same flags print the same figures.
"""

from __future__ import annotations

import argparse
import textwrap
from fractions import Fraction
from typing import Any

from solution.logfile import InputError
from solution.unix import bounded, integer
from variants.memory.core import BYTES_PER_PARAMETER, largest_batch
from variants.memory.study import (
    CAP,
    MEDIAN,
    PAPER,
    RECOMPUTE,
    SEQUENCES,
    SHAPE,
    SIGMA,
    TOKENS_PER_STEP,
    WINDOWS,
    Packing,
    Recompute,
    StepSizes,
    effective_batch,
    lengths,
    packings,
    recomputation,
)

MAX_SEQUENCES = 200_000  # about twenty seconds; more is a typo
GB = 10**9


def add_parser(commands: Any) -> None:
    """Register the ``memory`` subcommand."""
    command = commands.add_parser(
        "memory",
        help="training batches that fit: packing, recomputation, tokens per step",
        description="A seeded study of a 1.3B-parameter model (24 layers, hidden 2,048, "
        "16 heads) on one GPU: padding and micro-batches per step for random order, length "
        "buckets, sorted windows and a global sort; the largest micro-batch with none, "
        "selective and full recomputation, and its extra compute; the tokens and sequences "
        "an optimizer step holds when the lengths double.",
        allow_abbrev=False,
    )
    command.add_argument(
        "--sequences",
        type=bounded(1, MAX_SEQUENCES),
        default=SEQUENCES,
        help=f"sequences drawn ({SEQUENCES:,}; at most {MAX_SEQUENCES:,})",
    )
    command.add_argument("--seed", type=integer, default=1, help="the lengths' seed (1)")
    command.add_argument(
        "--memory-gb",
        type=bounded(1, 1_000_000),
        default=80,
        help="the GPU's memory, in GB of 10**9 bytes (80)",
    )
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    memory, states = args.memory_gb * GB, BYTES_PER_PARAMETER * SHAPE.parameters
    if memory <= states:
        raise InputError(
            f"--memory-gb {args.memory_gb}: the states alone need {states / GB:.1f} GB "
            f"({BYTES_PER_PARAMETER} bytes a parameter)"
        )
    drawn = lengths(args.sequences, seed=args.seed)
    try:  # a sequence that fits no micro-batch on this GPU is refused by name
        packed = packings(drawn, memory=memory, seed=args.seed)
    except ValueError as error:
        raise InputError(f"--memory-gb {args.memory_gb}: {error}") from None
    try:
        shifted = effective_batch(drawn, memory=memory)
    except ValueError as error:
        raise InputError(f"--memory-gb {args.memory_gb}, the lengths doubled: {error}") from None
    lines = [
        *_setting(drawn, memory, args.seed),
        "",
        *_packing_text(packed),
        "",
        *_recompute_text(recomputation(memory=memory)),
        "",
        *_shift_text(shifted),
    ]
    print("\n".join(lines))
    return 0


def _setting(drawn: list[int], memory: int, seed: int) -> list[str]:
    states = BYTES_PER_PARAMETER * SHAPE.parameters
    budget = largest_batch(SHAPE, seq_len=1, memory=memory, recompute=RECOMPUTE)
    return [
        f"A {SHAPE.parameters / GB:.1f}B-parameter model ({SHAPE.layers} layers, hidden "
        f"{SHAPE.hidden:,}, {SHAPE.heads} heads) on one GPU of {memory // GB:,} GB:",
        f"{states / GB:.1f} GB of states ({BYTES_PER_PARAMETER} bytes a parameter), "
        f"{max(0, memory - states) / GB:.1f} GB left for activations.",
        f"{len(drawn):,} sequences, log-normal lengths (median {MEDIAN}, sigma {SIGMA}, at "
        f"most {CAP:,}; seed {seed}):",
        f"mean {sum(drawn) / len(drawn):,.1f} tokens, longest {max(drawn):,}. Steps of "
        f"{TOKENS_PER_STEP:,} real tokens; {RECOMPUTE} recomputation,",
        f"so a micro-batch holds at most {budget:,} padded tokens.",
    ]


def _packing_text(packed: list[Packing]) -> list[str]:
    lines = [
        "(a) The same sequences packed each way: the share of the padded tokens that are real,",
        "and the micro-batches (forward and backward passes) an optimizer step waits for.",
        f"  {'order':<14} {'efficiency':>10} {'micro-batches':>14} {'per step':>9}",
    ]
    lines += [
        f"  {p.name:<14} {float(p.efficiency):>10.1%} {p.micro_batches:>14,} "
        f"{float(p.per_step):>9.1f}"
        for p in packed
    ]
    return lines


def _recompute_text(rows: list[Recompute]) -> list[str]:
    lines = [
        "(b) Recomputation: the largest micro-batch that fits, and the compute it adds to a",
        "training step (forward 24bsh^2 + 4bs^2h a layer; a step is three forward passes).",
        f"  {'seq_len':>7}  {'recompute':<9} {'GB a seq':>9} {'largest':>8} {'tokens':>8}"
        f"  {'extra compute'}",
    ]
    for row in rows:
        seq_len = f"{row.seq_len:,}" if row.recompute == "none" else ""
        lines.append(
            f"  {seq_len:>7}  {row.recompute:<9} {row.per_sequence / GB:>9.2f} "
            f"{row.largest:>8,} {row.tokens:>8,}  {_fraction(row.overhead)}"
        )
    lines.append(
        "  The paper's anchors (Korthikanti et al., MLSys 2023; its models, not computed):"
    )
    lines += [f"    {line}" for anchor in PAPER for line in textwrap.wrap(anchor, 84)]
    return lines


def _shift_text(rows: list[StepSizes]) -> list[str]:
    lines = [
        f"(c) The effective batch when the lengths double (window {WINDOWS[-1]:,}): per full "
        "step, the least to",
        "the most and the mean of its sequences and of its real tokens.",
        f"  {'a step of':<30} {'steps':>5} {'sequences':>17} {'mean':>7} {'tokens':>21} "
        f"{'mean':>10}",
    ]
    for row in rows:
        (s_low, s_high, s_mean), (t_low, t_high, t_mean) = row.sequences, row.tokens
        lines.append(
            f"  {row.name:<30} {row.steps:>5} {_range(s_low, s_high):>17} "
            f"{float(s_mean):>7,.1f} {_range(t_low, t_high):>21} {float(t_mean):>10,.0f}"
        )
    return lines


def _range(low: int, high: int) -> str:
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def _fraction(value: Fraction) -> str:
    return "0" if value == 0 else f"{value} ({float(value):.1%})"
