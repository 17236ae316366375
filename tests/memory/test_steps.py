"""Gradient accumulation: micro-batches grouped into steps of the target tokens; tokens exact."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from tests.support.remembering import (
    BIG,
    Call,
    Memory,
    Planned,
    peak_oracle,
    plan_call,
    plan_of,
    plan_question,
    steps_problems,
    token_problems,
)
from tests.support.strategies import nonempty_plan_calls, plan_calls

pytestmark = pytest.mark.memory_steps

STEPS = (
    "micro-batches, in order, are grouped into optimizer steps: a step takes micro-batches until "
    "its real tokens (the sum of its sequences' lengths, padding excluded) reach "
    "tokens_per_step, and closes there; the last step may hold fewer; each micro-batch is in "
    "exactly one step, and no step is empty."
)
TOKENS = (
    "real_tokens is the sum of the lengths; padded_tokens the sum over micro-batches of "
    "padded_length * len(sequences); both exact integers."
)
# plan_call: the tiny model (160 + 2*s*b bytes) with 200 bytes unless said: a micro-batch
# fits when its padded length times its size is at most 20.  Sequences of 11 to 19 tokens
# fit alone and never in pairs (two padded to 11 are 22 tokens): each is a micro-batch of its
# own, and with windows of one they come in input order, however the packing is written.
APART = [13, 15, 12, 16, 14]
ONE_BY_ONE = [((p,), length) for p, length in enumerate(APART)]


@pytest.mark.rules(8)
def test_a_step_closes_when_its_real_tokens_reach_the_target(memory: Memory) -> None:
    """13 + 15 reach 28 exactly: a step; 12 + 16 again; the 14 left is the last step, short."""
    question = plan_call(APART, window=1, tokens_per_step=28)
    batches = ONE_BY_ONE
    want = plan_of(question, batches[:2], batches[2:4], batches[4:], real=70, padded=70)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8)
def test_one_token_short_and_the_step_takes_the_next_micro_batch(memory: Memory) -> None:
    """Target 29: 13 + 15 = 28 is short, 13 + 15 + 12 = 40 reaches it; then 16 + 14 = 30."""
    question = plan_call(APART, window=1, tokens_per_step=29)
    batches = ONE_BY_ONE
    want = plan_of(question, batches[:3], batches[3:], real=70, padded=70)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8)
def test_the_next_step_counts_from_zero(memory: Memory) -> None:
    """Target 20: 13 + 15 = 28 closes a step 8 over; the next counts from 0, so 12 alone does
    not close it (carrying the 8 over would), and 12 + 16 = 28 does; the 14 is left."""
    question = plan_call(APART, window=1, tokens_per_step=20)
    batches = ONE_BY_ONE
    want = plan_of(question, batches[:2], batches[2:4], batches[4:], real=70, padded=70)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8)
def test_no_empty_step_after_the_last_reaches_the_target(memory: Memory) -> None:
    """14 + 14 reach 28 with the last micro-batch: one step, and nothing after it."""
    question = plan_call([14, 14], window=1, tokens_per_step=28)
    want = plan_of(question, [((0,), 14), ((1,), 14)], real=28, padded=28)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8)
def test_a_target_of_one_token_makes_a_step_of_every_micro_batch(memory: Memory) -> None:
    """Every micro-batch has at least one real token: each reaches a target of 1 alone."""
    question = plan_call(APART, window=1, tokens_per_step=1)
    want = plan_of(question, *([b] for b in ONE_BY_ONE), real=70, padded=70)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8, 9)
def test_steps_count_real_tokens_not_padded_ones(memory: Memory) -> None:
    """Windows of 2: [1, 9] padded to 9 (18 tokens, 10 real), [2, 8] padded to 8 (16, 10
    real). Target 12: the first micro-batch's 10 real tokens do not reach it (its 18 padded
    would); both make one step of 20."""
    question = plan_call([1, 9, 2, 8], window=2, tokens_per_step=12)
    want = plan_of(question, [((0, 1), 9), ((2, 3), 8)], real=20, padded=34)
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8)
def test_a_micro_batch_over_the_target_is_a_step_of_its_own(memory: Memory) -> None:
    """205 bytes: 2, 3, 4 and 5 padded to 5 (20 tokens, 200 bytes), then 6 and 8 (16 tokens,
    192 bytes). Target 1: each micro-batch reaches it alone. Target 10**9: one step holds
    them all."""
    one = plan_call([5, 3, 8, 2, 4, 6], memory=205, tokens_per_step=1)
    want = plan_of(one, [((3, 1, 4, 0), 5)], [((5, 2), 8)], real=28, padded=36)
    memory.plan(one, want, rule=STEPS)
    everything = one._replace(tokens_per_step=10**9)
    want = plan_of(everything, [((3, 1, 4, 0), 5), ((5, 2), 8)], real=28, padded=36)
    memory.plan(everything, want, rule=STEPS)


@pytest.mark.rules(9)
def test_tokens_count_the_padding_exactly(memory: Memory) -> None:
    """The micro-batches above, in one step: 28 real tokens, padded to 5 * 4 + 8 * 2 = 36, a
    padding efficiency of 7/9."""
    question = plan_call([5, 3, 8, 2, 4, 6], memory=205)
    want = plan_of(question, [((3, 1, 4, 0), 5), ((5, 2), 8)], real=28, padded=36)
    plan = memory.plan(question, want, rule=TOKENS)
    assert Fraction(plan.real_tokens, plan.padded_tokens) == Fraction(7, 9)


@pytest.mark.rules(8, 9)
def test_a_million_tokens_a_sequence(memory: Memory) -> None:
    """Three sequences of about a million tokens fit the memory (a million bytes more than
    they need), a fourth does not; target two million: each micro-batch its own step.
    3,999,999 real tokens, 4,000,000 padded."""
    three = peak_oracle(BIG, 10**6, 3, "none")
    question = plan_call(
        [10**6, 10**6, 10**6 - 1, 10**6],
        memory=three + 10**6,
        shape=BIG,
        recompute="none",
        tokens_per_step=2 * 10**6,
    )
    want = plan_of(
        question, [((2, 0, 1), 10**6)], [((3,), 10**6)], real=4 * 10**6 - 1, padded=4 * 10**6
    )
    memory.plan(question, want, rule=STEPS)


@pytest.mark.rules(8, 9)
@given(plan_calls)
def test_steps_match_the_simulation(memory: Memory, question: Call) -> None:
    """Any plannable input against the plain simulation, steps and tokens included."""
    memory.plan(question, rule=f"{STEPS} {TOKENS}")


@pytest.mark.rules(8, 9)
@given(nonempty_plan_calls)
def test_every_step_but_the_last_reaches_the_target_and_stops_there(
    memory: Memory, question: Call
) -> None:
    """And the tokens are the plan's sums: padding never makes fewer."""

    def holds(plan: Planned) -> bool:
        problems = steps_problems(question, plan) + token_problems(question, plan)
        return bool(plan.steps) and not problems and plan.padded_tokens >= plan.real_tokens

    memory.holds(
        [plan_question(question)],
        holds,
        claim=f"every step but the last must reach {question.tokens_per_step} real tokens with "
        "its last micro-batch and not before, no step empty; real_tokens the sum of the "
        "lengths, padded_tokens the sum of padded_length * len(sequences)",
        rule=f"{STEPS} {TOKENS}",
    )
