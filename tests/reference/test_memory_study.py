"""The memory exercise's study and command line: what `python -m variants memory` claims."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from kata.exercises import ROOT
from variants.memory import Shape, largest_batch, plan_batches
from variants.memory.study import lengths, overhead, random_order

pytestmark = pytest.mark.reference

SHAPE = Shape(layers=24, hidden=2048, heads=16, parameters=1_300_000_000)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "variants", "memory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_lengths_are_seeded_so_every_figure_is_repeatable() -> None:
    assert lengths(500, seed=3) == lengths(500, seed=3)
    assert lengths(500, seed=3) != lengths(500, seed=4)


def test_sorting_within_windows_pads_less_than_random_order() -> None:
    """The study's headline, on a small draw: order is what padding costs."""
    drawn = lengths(2000, seed=1)
    memory = 80 * 10**9
    sorted_plan = plan_batches(
        drawn, SHAPE, memory=memory, recompute="selective", window=512, tokens_per_step=2**20
    )
    shuffled = random_order(
        drawn, SHAPE, memory=memory, recompute="selective", tokens_per_step=2**20, seed=1
    )
    efficiency = Fraction(sorted_plan.real_tokens, sorted_plan.padded_tokens)
    assert efficiency > Fraction(shuffled.real_tokens, shuffled.padded_tokens) * 2


def test_full_recomputation_adds_a_third_and_buys_the_largest_micro_batch() -> None:
    assert overhead(SHAPE, seq_len=2048, recompute="full") == Fraction(1, 3)
    assert overhead(SHAPE, seq_len=2048, recompute="none") == 0
    sizes = [
        largest_batch(SHAPE, seq_len=2048, memory=80 * 10**9, recompute=r)
        for r in ("none", "selective", "full")
    ]
    assert sizes == sorted(sizes)
    assert sizes[0] < sizes[-1]


def test_the_command_prints_the_three_tables() -> None:
    result = run("--sequences", "2000")
    assert result.returncode == 0, result.stderr
    for heading in ("(a) ", "(b) ", "(c) "):
        assert heading in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--memory-gb", "10"), "the states alone need 20.8 GB"),
        (("--sequences", "-3"), "--sequences: must be between 1 and 200,000"),
        (("--seq", "5"), "unrecognized arguments"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
