"""Windows kept in order, sorted within, packed greedily, and no micro-batch over the memory."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.remembering import (
    BIG,
    Batch,
    Call,
    Dims,
    Memory,
    batches_of,
    batches_question,
    packing_problems,
    peak_oracle,
    plan_call,
)
from tests.support.strategies import nonempty_plan_calls, plan_calls

pytestmark = pytest.mark.memory_packing

WINDOWS = (
    "plan_batches cuts the lengths, in input order, into consecutive windows of `window` "
    "sequences; a micro-batch holds sequences of one window, and a window's micro-batches come "
    "before the next window's."
)
SORTED = "Within its window, sequences are taken by length, shortest first, ties by position."
GREEDY = (
    "In that order, a sequence joins the open micro-batch if the micro-batch with it still fits: "
    "its bytes, the peak at its padded length (its longest sequence) and its size, at most the "
    "memory (exactly the memory fits); else the micro-batch closes and the sequence opens the "
    "next; a window's last micro-batch closes with the window; `sequences` lists positions in "
    "the order they joined."
)
PACKING = f"{WINDOWS} {SORTED} {GREEDY}"


# plan_call: the tiny model (160 + 2*s*b bytes) with 200 bytes unless said: a micro-batch
# fits when its padded length times its size is at most 20.
@pytest.mark.rules(5, 6)
def test_shortest_first_packed_until_the_next_does_not_fit(memory: Memory) -> None:
    """Sorted: 2 (position 3), 3 (1), 4 (4), 5 (0), 6 (5), 8 (2). Padded to 5, the first four
    need 5 * 4 = 20 tokens, 200 bytes: exactly the memory, so they fit; the 6 would make 6 * 5
    = 30: it opens the next, which the 8 joins (8 * 2 = 16, 192 bytes)."""
    question = plan_call([5, 3, 8, 2, 4, 6])
    want = batches_of(question, ((3, 1, 4, 0), 5), ((5, 2), 8))
    assert [b.bytes for b in want] == [200, 192]
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(6)
def test_one_byte_less_and_the_fourth_does_not_fit(memory: Memory) -> None:
    """With 199 bytes, 5 * 4 = 20 tokens (200 bytes) is over: the 5 opens the second
    micro-batch; the 6 joins it (6 * 2 = 12), the 8 does not (8 * 3 = 24)."""
    question = plan_call([5, 3, 8, 2, 4, 6], memory=199)
    want = batches_of(question, ((3, 1, 4), 4), ((0, 5), 6), ((2,), 8))
    assert [b.bytes for b in want] == [184, 184, 176]
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(4, 5)
def test_sorted_within_windows_not_globally(memory: Memory) -> None:
    """Windows of 3: [6, 2, 5] sorted 2, 5, 6 (6 * 3 = 18 tokens: one micro-batch), then
    [1, 3, 4] (4 * 3 = 12). A global sort would pack 1, 2, 3, 4 together."""
    question = plan_call([6, 2, 5, 1, 3, 4], window=3)
    want = batches_of(question, ((1, 2, 0), 6), ((3, 4, 5), 4))
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(4, 6)
def test_a_windows_end_closes_its_last_micro_batch(memory: Memory) -> None:
    """Windows of 2: [2, 3] then [1, 1]. All four would fit in one (3 * 4 = 12 tokens), but a
    micro-batch holds sequences of one window."""
    question = plan_call([2, 3, 1, 1], window=2)
    want = batches_of(question, ((0, 1), 3), ((2, 3), 1))
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(4)
def test_windows_keep_their_order_whatever_their_lengths(memory: Memory) -> None:
    """The long window first: its micro-batch comes first, though its sequences are longer."""
    question = plan_call([9, 9, 1, 1], window=2)
    want = batches_of(question, ((0, 1), 9), ((2, 3), 1))
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(5, 6)
def test_ties_are_taken_by_position(memory: Memory) -> None:
    """2, 2, 4, 4, 4 at positions 1, 3, 0, 2, 4: all five fit (4 * 5 = 20 tokens), listed in
    the order they joined."""
    question = plan_call([4, 2, 4, 2, 4])
    want = batches_of(question, ((1, 3, 0, 2, 4), 4))
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(4, 6)
def test_a_window_of_one_is_a_micro_batch_a_sequence(memory: Memory) -> None:
    """Windows of one sequence: nothing to sort or pack, each closes with its window, in input
    order."""
    question = plan_call([3, 1, 2], window=1)
    want = batches_of(question, ((0,), 3), ((1,), 1), ((2,), 2))
    memory.packs(question, want, rule=PACKING)


@pytest.mark.rules(6)
def test_the_attention_scores_decide_what_fits(memory: Memory) -> None:
    """One layer of one unit, no parameters: s*b*(34 + 5*s) bytes with none, 34*s*b
    selective. Sorted 2, 2, 4, 4, with 500 bytes: with none the two 2s take 176, a 4 with
    them 648 (over), the two 4s 432; selective, three take 408, all four 544 (over)."""
    shape = Dims(layers=1, hidden=1, heads=1, parameters=0)
    none = plan_call([4, 2, 2, 4], memory=500, shape=shape, recompute="none")
    want = batches_of(none, ((1, 2), 2), ((0, 3), 4))
    assert [b.bytes for b in want] == [176, 432]
    memory.packs(none, want, rule=PACKING)
    selective = none._replace(recompute="selective")
    want = batches_of(selective, ((1, 2, 0), 4), ((3,), 4))
    assert [b.bytes for b in want] == [408, 136]
    memory.packs(selective, want, rule=PACKING)


@pytest.mark.rules(6)
def test_the_memory_is_exact_where_floats_are_not(memory: Memory) -> None:
    """Sequences of a million tokens, 95 layers, h=65,536, 10**12 + 1 parameters: three need
    143,151,043,840,000,016 bytes, exactly the memory (a float is 16 bytes short). Sorted
    999,999 (position 2), then the millions by position: three fit, the fourth does not; with
    one byte less, two."""
    exactly = peak_oracle(BIG, 10**6, 3, "none")
    assert exactly == 143_151_043_840_000_016
    lengths = [10**6, 10**6, 10**6 - 1, 10**6]
    question = plan_call(lengths, memory=exactly, shape=BIG, recompute="none")
    want = batches_of(question, ((2, 0, 1), 10**6), ((3,), 10**6))
    memory.packs(question, want, rule=PACKING)
    less = question._replace(memory=exactly - 1)
    want = batches_of(less, ((2, 0), 10**6), ((1, 3), 10**6))
    memory.packs(less, want, rule=PACKING)


@pytest.mark.rules(4, 5, 6)
def test_every_memory_and_window_byte_by_byte(memory: Memory) -> None:
    """The six sequences of the first test with every memory from the longest alone (176
    bytes) to all six padded to it (256), and every window from 1 to 6."""
    calls = (
        plan_call([5, 3, 8, 2, 4, 6], memory=budget, window=window)
        for window in range(1, 7)
        for budget in range(176, 257)
    )
    memory.packs_each(calls, rule=PACKING)


@pytest.mark.rules(4, 5, 6)
@given(plan_calls)
def test_packings_match_the_simulation(memory: Memory, question: Call) -> None:
    """Any plannable input against the plain simulation: windows, sort, greedy joins, bytes."""
    memory.packs(question, rule=PACKING)


@pytest.mark.rules(4, 5, 6)
@given(nonempty_plan_calls)
def test_every_micro_batch_fits_and_every_sequence_is_in_one(
    memory: Memory, question: Call
) -> None:
    """Whatever the packing: each position in exactly one micro-batch, of one window, windows
    in order; padded to its longest; its bytes the peak at its shape, at most the memory; its
    sequences in the order they joined; closed only when the next did not fit."""
    memory.holds(
        [batches_question(question)],
        lambda plan: not packing_problems(question, plan),
        claim="every micro-batch holds sequences of one window, padded to its longest, its "
        "bytes the peak at that shape and at most the memory, every position in exactly one",
        rule=PACKING,
    )


@pytest.mark.rules(6)
@given(plan_calls, st.integers(0, 10**4))
def test_more_memory_never_needs_more_micro_batches(
    memory: Memory, question: Call, more: int
) -> None:
    """Greedy packing of a sorted window is optimal: more room never needs more."""
    roomier = question._replace(memory=question.memory + more)

    def fewer(tight: tuple[Batch, ...], roomy: tuple[Batch, ...]) -> bool:
        return len(roomy) <= len(tight)

    memory.holds(
        [batches_question(question), batches_question(roomier)],
        fewer,
        claim=f"{more} bytes more memory must need no more micro-batches",
        rule=PACKING,
    )


@pytest.mark.rules(4, 5)
@given(plan_calls, st.integers(0, 10))
def test_a_window_of_all_the_sequences_is_a_global_sort(
    memory: Memory, question: Call, extra: int
) -> None:
    """A window as long as the input, or longer, holds everything: the same micro-batches."""
    whole = question._replace(window=len(question.lengths) + 1)
    longer = question._replace(window=len(question.lengths) + 1 + extra)
    memory.holds(
        [batches_question(whole), batches_question(longer)],
        lambda a, b: a == b,
        claim="windows of every sequence or more must pack alike: a global sort",
        rule=PACKING,
    )
