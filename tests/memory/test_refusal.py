"""A sequence too long for any micro-batch is refused, by its position and its length."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.remembering import BIG, Call, Dims, Memory, batches_of, peak_oracle, plan_call
from tests.support.strategies import calls_with_one_too_long

pytestmark = pytest.mark.memory_refusal

TOO_LONG = (
    "a sequence that does not fit alone (its peak at batch 1 is more than the memory) raises "
    "ValueError naming its position in the input and its length; nothing is planned. One that "
    "needs exactly the memory alone fits."
)
# plan_call: the tiny model with 200 bytes unless said, 160 + 2*s bytes for one sequence: a
# sequence of 20 fits alone, one of 21 does not.


@pytest.mark.rules(7)
def test_a_sequence_that_needs_exactly_the_memory_alone_is_planned(memory: Memory) -> None:
    """20 tokens alone need 160 + 40 = 200 bytes: exactly the memory, so it fits, alone (the
    1 with it would make 20 * 2 tokens)."""
    question = plan_call([20, 1])
    memory.packs(question, batches_of(question, ((1,), 1), ((0,), 20)), rule=TOO_LONG)


@pytest.mark.rules(7)
def test_one_token_more_is_refused_by_position_and_length(memory: Memory) -> None:
    """21 tokens alone need 202 bytes: sequence 1 (21 tokens) is refused. (Windows of one:
    it is alone in its window, however the packing is written.)"""
    memory.refuses_by_name(plan_call([3, 21], window=1), rule=TOO_LONG)


@pytest.mark.rules(7)
def test_one_byte_less_refuses_what_fitted_exactly(memory: Memory) -> None:
    """199 bytes: 20 tokens alone need 200."""
    memory.refuses_by_name(plan_call([3, 20], memory=199, window=1), rule=TOO_LONG)


@pytest.mark.rules(4, 7)
def test_its_position_is_in_the_input_not_in_its_window(memory: Memory) -> None:
    """Windows of 4: the 23 alone in the third is sequence 8 of the input, the first of its
    window: the message names 8, and 23."""
    memory.refuses_by_name(plan_call([3, 5, 4, 6, 2, 1, 5, 4, 23], window=4), rule=TOO_LONG)


@pytest.mark.rules(6, 7)
def test_a_sequence_too_long_is_refused_when_it_would_join_a_micro_batch(memory: Memory) -> None:
    """Windows of 4: the 23 is sequence 7, the last of its window sorted (1, 2, 5, 23): it
    does not fit with the open micro-batch, nor alone. Closing the open micro-batch and
    opening one with it, unchecked, would plan a micro-batch over the memory."""
    memory.refuses_by_name(plan_call([3, 5, 4, 6, 2, 1, 5, 23, 4], window=4), rule=TOO_LONG)


@pytest.mark.rules(7)
def test_nothing_is_planned_though_the_windows_before_fit(memory: Memory) -> None:
    """Three windows of four 2s plan well; the 30 alone in the fourth does not fit."""
    memory.refuses_by_name(plan_call([2] * 12 + [30], window=4), rule=TOO_LONG)


@pytest.mark.rules(6, 7)
def test_the_attention_scores_can_make_a_sequence_too_long(memory: Memory) -> None:
    """One layer of one unit, no parameters, 200 bytes, windows of one: a 4 alone needs
    4 * (34 + 20) = 216 with none, too long; selective, 34 * 4 = 136, and it is planned."""
    shape = Dims(layers=1, hidden=1, heads=1, parameters=0)
    none = plan_call([2, 4], window=1, shape=shape, recompute="none")
    memory.refuses_by_name(none, rule=TOO_LONG)
    selective = none._replace(recompute="selective")
    memory.packs(selective, batches_of(selective, ((0,), 2), ((1,), 4)), rule=TOO_LONG)


@pytest.mark.rules(7)
def test_one_token_too_many_is_refused_at_any_size(memory: Memory) -> None:
    """A million and one tokens alone need one byte more than the memory (a float rounds
    that byte away); a million fit, with billions of bytes to spare."""
    memory_for_one = peak_oracle(BIG, 10**6 + 1, 1, "none") - 1
    question = plan_call(
        [10**6, 10**6 + 1], memory=memory_for_one, window=1, shape=BIG, recompute="none"
    )
    memory.refuses_by_name(question, rule=TOO_LONG)


@pytest.mark.rules(7)
@given(calls_with_one_too_long)
def test_a_sequence_too_long_anywhere_is_refused_by_name(
    memory: Memory, case: tuple[Call, int]
) -> None:
    """A sequence that fits no micro-batch, inserted at a random position of a plannable input
    (at least the shortest length that does not fit alone)."""
    question, _ = case
    memory.refuses_by_name(question, rule=TOO_LONG)
