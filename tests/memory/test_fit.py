"""The largest micro-batch that fits: exactly the memory fits; 0 when nothing does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.remembering import Dims, Memory
from tests.support.strategies import Fit, large_fits, small_fits

pytestmark = pytest.mark.memory_fit

FIT = (
    "largest_batch is the largest b >= 0 with peak_bytes(b) <= memory: a micro-batch that needs "
    "exactly the memory fits; 0 when not even one sequence fits; computed (the peak is linear "
    "in b: (memory - states) // one sequence's activations), in integers."
)
# Full recomputation, one layer of one unit, 10 parameters: 160 + 2*s*b bytes.
TINY = Dims(layers=1, hidden=1, heads=1, parameters=10)
SMALL = Dims(layers=2, hidden=4, heads=3, parameters=10)
BIG = Dims(layers=95, hidden=65536, heads=100, parameters=10**12 + 1)
GPT_1_3B = Dims(layers=24, hidden=2048, heads=16, parameters=1_300_000_000)


@pytest.mark.rules(3)
def test_a_micro_batch_that_needs_exactly_the_memory_fits(memory: Memory) -> None:
    """Sequences of 5: 160 + 10*b bytes. Four need 200: with 200 they fit, with 199 three."""
    memory.largest(TINY, seq_len=5, memory=200, recompute="full", want=4, rule=FIT)
    memory.largest(TINY, seq_len=5, memory=199, recompute="full", want=3, rule=FIT)


@pytest.mark.rules(3)
def test_no_sequence_fits_and_the_answer_is_zero_never_negative(memory: Memory) -> None:
    """One sequence needs 170: 169 holds none, 160 holds the states and none, and 100 not even
    the states: 0 each time, never a negative batch."""
    memory.largest(TINY, seq_len=5, memory=170, recompute="full", want=1, rule=FIT)
    for budget in (169, 160, 100, 0):
        memory.largest(TINY, seq_len=5, memory=budget, recompute="full", want=0, rule=FIT)


@pytest.mark.rules(3)
def test_with_no_recomputation_the_boundary_is_exact(memory: Memory) -> None:
    """Two layers, h=4, a=3, s=3: 1,086 bytes a sequence and 160 of states; three need
    3,418 exactly."""
    memory.largest(SMALL, seq_len=3, memory=3418, recompute="none", want=3, rule=FIT)
    memory.largest(SMALL, seq_len=3, memory=3417, recompute="none", want=2, rule=FIT)


@pytest.mark.rules(3)
def test_recomputation_buys_a_larger_micro_batch(memory: Memory) -> None:
    """10,000 bytes, 9,840 after the states: 9 sequences of 1,086 with none, 12 of 816
    selective, 205 of 48 full (205 * 48 is 9,840: exactly the memory)."""
    for recompute, want in (("none", 9), ("selective", 12), ("full", 205)):
        memory.largest(SMALL, seq_len=3, memory=10_000, recompute=recompute, want=want, rule=FIT)


@pytest.mark.rules(3)
def test_a_1_3b_model_on_an_80_gb_gpu(memory: Memory) -> None:
    """59.2e9 bytes left after 20.8e9 of states: 5 sequences of 2,048 tokens with none
    (11,475,615,744 bytes each), 17 selective (3,422,552,064), 294 full (201,326,592)."""
    for recompute, want in (("none", 5), ("selective", 17), ("full", 294)):
        memory.largest(
            GPT_1_3B, seq_len=2048, memory=80 * 10**9, recompute=recompute, want=want, rule=FIT
        )


@pytest.mark.rules(3)
def test_the_boundary_is_exact_where_floats_are_not(memory: Memory) -> None:
    """One sequence of 999,999 tokens needs 47,711,586,068,366,220 bytes, the states
    16,000,000,000,016: five need 238,573,930,341,831,116. One byte less holds four, though
    (memory - states) / one, in floats, is 5.0."""
    exactly = 238_573_930_341_831_116
    memory.largest(BIG, seq_len=999_999, memory=exactly, recompute="none", want=5, rule=FIT)
    memory.largest(BIG, seq_len=999_999, memory=exactly - 1, recompute="none", want=4, rule=FIT)


@pytest.mark.rules(3)
def test_every_memory_byte_by_byte(memory: Memory) -> None:
    """Sequences of 5 tokens, every memory from 0 to 999 bytes, in each mode: every
    boundary met, exactly and one byte either side."""
    cases = (
        (TINY, 5, budget, recompute)
        for recompute in ("none", "selective", "full")
        for budget in range(1000)
    )
    memory.largest_each(cases, rule=FIT)


@pytest.mark.rules(3)
@given(st.one_of(small_fits, large_fits))
def test_the_answer_fits_and_one_more_does_not(memory: Memory, fit: Fit) -> None:
    """The memory is built to hold `batch` sequences and less than one more (often exactly
    `batch`), or less than the states: the answer is `batch`, or 0; small shapes, and shapes
    whose bytes are in the 10**20s, where only integers are exact."""
    memory.largest(
        fit.shape,
        seq_len=fit.seq_len,
        memory=fit.memory,
        recompute=fit.recompute,
        want=fit.batch,
        rule=FIT,
    )
