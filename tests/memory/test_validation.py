"""Bad input raises ValueError wherever it is; the lengths are any iterable, read once, kept."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from kata.outcomes import Question
from tests.support.remembering import (
    Call,
    Dims,
    Memory,
    Planned,
    bytes_question,
    largest_question,
    plan_call,
    plan_question,
)
from tests.support.strategies import calls_with_a_bad_length

pytestmark = pytest.mark.memory_validation

ONCE = (
    "lengths is any iterable (a list, a tuple, an iterator, a generator), read once and never "
    "modified; an empty one plans nothing: no steps, 0 tokens."
)
SHAPE = Dims(layers=2, hidden=4, heads=3, parameters=10)
FUNCTIONS = ("activation_bytes", "peak_bytes", "largest_batch", "plan_batches")


def asked(name: str, shape: Dims = SHAPE, **changed: Any) -> Question:
    """`name` asked a valid question with `changed` arguments."""
    if name in ("activation_bytes", "peak_bytes"):
        kwargs = {"seq_len": 3, "batch": 2, "recompute": "none", **changed}
        return bytes_question(name, shape, **kwargs)
    if name == "largest_batch":
        kwargs = {"seq_len": 3, "memory": 10_000, "recompute": "none", **changed}
        return largest_question(shape, **kwargs)
    kwargs = {"lengths": [3, 2, 3], "memory": 10_000, "recompute": "none", **changed}
    return plan_question(plan_call(shape=shape, **kwargs))


BAD_SHAPES = {
    "no layers": Dims(0, 4, 3, 10),
    "a hidden size of 0": Dims(2, 0, 3, 10),
    "no heads": Dims(2, 4, 0, 10),
    "negative layers": Dims(-2, 4, 3, 10),
    "negative parameters": Dims(2, 4, 3, -1),
    "a bool of layers": Dims(True, 4, 3, 10),
    "a float hidden size": Dims(2, 4.0, 3, 10),
    "heads as a str": Dims(2, 4, "3", 10),
    "a float of parameters": Dims(2, 4, 3, 1e12),
    "a bool of parameters": Dims(2, 4, 3, False),
}


@pytest.mark.rules(10)
@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("problem", BAD_SHAPES)
def test_a_shape_that_cannot_be_is_refused_by_every_function(
    memory: Memory, name: str, problem: str
) -> None:
    """Every function takes the shape, so every one checks it, even where a field is not used
    (activation_bytes has no use for the parameters, and still refuses -1 of them)."""
    memory.refuses(asked(name, BAD_SHAPES[problem]), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize(
    ("recompute", "problem"),
    [
        ("None", "an unknown mode"),
        ("NONE", "a mode in capitals"),
        ("flash", "a mode the contract does not name"),
        ("", "an empty mode"),
        (None, "None, not a str"),
        (0, "an int, not a str"),
    ],
)
def test_an_unknown_recompute_is_refused_by_every_function(
    memory: Memory, name: str, recompute: Any, problem: str
) -> None:
    """Three modes, spelled exactly: anything else is a mistake to report, never a default."""
    memory.refuses(asked(name, recompute=recompute), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize("name", ["activation_bytes", "peak_bytes", "largest_batch"])
@pytest.mark.parametrize(
    ("seq_len", "problem"),
    [
        (0, "a sequence of no tokens"),
        (-1, "a negative length"),
        (True, "a bool, not an int"),
        (3.0, "a float, not an int"),
        ("3", "a str, not an int"),
        (None, "None, not an int"),
    ],
)
def test_a_sequence_length_below_one_or_not_an_int_is_refused(
    memory: Memory, name: str, seq_len: Any, problem: str
) -> None:
    """A sequence has at least one token, counted in an int: True is not 1, 3.0 not 3."""
    memory.refuses(asked(name, seq_len=seq_len), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize("name", ["activation_bytes", "peak_bytes"])
@pytest.mark.parametrize(
    ("batch", "problem"),
    [(-1, "a negative batch"), (True, "a bool, not an int"), (2.0, "a float, not an int")],
)
def test_a_negative_batch_or_not_an_int_is_refused(
    memory: Memory, name: str, batch: Any, problem: str
) -> None:
    """A batch of 0 is the states alone; below it, or not an int, is refused."""
    memory.refuses(asked(name, batch=batch), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize("name", ["largest_batch", "plan_batches"])
@pytest.mark.parametrize(
    ("budget", "problem"),
    [
        (-1, "a negative memory"),
        (True, "a bool, not an int"),
        (10_000.0, "a float, not an int"),
        ("10000", "a str, not an int"),
    ],
)
def test_a_negative_memory_or_not_an_int_is_refused(
    memory: Memory, name: str, budget: Any, problem: str
) -> None:
    """A memory of 0 holds nothing (an answer of 0); a negative one, or not an int, is refused."""
    memory.refuses(asked(name, memory=budget), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize(
    ("changed", "problem"),
    [
        ({"window": 0}, "a window of no sequences"),
        ({"window": -1}, "a negative window"),
        ({"window": True}, "a bool window"),
        ({"window": 2.0}, "a float window"),
        ({"tokens_per_step": 0}, "a step of no tokens"),
        ({"tokens_per_step": -5}, "a negative target"),
        ({"tokens_per_step": True}, "a bool target"),
        ({"tokens_per_step": 8.0}, "a float target"),
    ],
)
def test_a_window_or_a_target_below_one_or_not_an_int_is_refused(
    memory: Memory, changed: dict[str, Any], problem: str
) -> None:
    """A window holds a sequence at least, a step a token at least, each counted in an int."""
    memory.refuses(asked("plan_batches", **changed), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize(
    ("lengths", "problem"),
    [
        ([0, 3, 2], "a sequence of no tokens, first"),
        ([3, -1, 2], "a negative length, in the middle"),
        ([3, 2, True], "a bool, last"),
        ([3, 2.0, 2], "a float length"),
        (["3", 2], "a str length"),
        ([3, None], "None for a length"),
        ([2] * 40 + [0], "a length of 0 after forty good ones, in another window"),
        ([3, 25, 0], "a length of 0 after a sequence too long"),
    ],
)
def test_a_length_below_one_or_not_an_int_is_refused_wherever_it_is(
    memory: Memory, lengths: list[Any], problem: str
) -> None:
    """A bad length is refused wherever it is: first, last, after forty good ones, after a
    sequence too long (a ValueError either way); never dropped or planned."""
    memory.refuses(asked("plan_batches", lengths=lengths, window=4), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize(
    ("changed", "problem"),
    [
        ({"shape": Dims(0, 4, 3, 10)}, "no layers"),
        ({"memory": -1}, "a negative memory"),
        ({"window": 0}, "a window of no sequences"),
        ({"tokens_per_step": 0}, "a step of no tokens"),
        ({"recompute": "flash"}, "an unknown mode"),
    ],
)
def test_bad_parameters_are_refused_even_with_no_sequence(
    memory: Memory, changed: dict[str, Any], problem: str
) -> None:
    """No sequence to plan is no reason to accept parameters that cannot be."""
    memory.refuses(asked("plan_batches", lengths=[], **changed), f"{problem}, with no sequence")


@pytest.mark.rules(10)
@pytest.mark.parametrize("form", ["tuple", "iterator", "generator"])
def test_any_iterable_is_read_once(memory: Memory, form: str) -> None:
    """An iterator read a second time gives nothing: the lengths as a tuple, an iterator or a
    generator must plan as the list does (whatever that plan is: this is not a test of it)."""
    question = plan_call([5, 3, 8, 2, 4, 6], memory=205, window=3)
    memory.holds(
        [plan_question(question), plan_question(question, form=form)],
        lambda listed, other: listed == other,
        claim=f"the lengths as a {form} must plan as the list does",
        rule=ONCE,
    )


@pytest.mark.rules(10)
def test_the_callers_list_is_not_modified(memory: Memory) -> None:
    """Sorting the caller's list in place (or popping from it) would change what it holds."""
    question = plan_call([5, 3, 8, 2, 4, 6], memory=205, window=3)
    memory.answer(plan_question(question, keeps_input=True), rule=ONCE)


@pytest.mark.rules(9, 10)
@pytest.mark.parametrize("form", ["list", "iterator"])
def test_no_sequence_plans_nothing(memory: Memory, form: str) -> None:
    """No steps, 0 real and 0 padded tokens: not a step with nothing in it."""
    memory.plan(plan_call([]), Planned((), 0, 0), rule=ONCE, form=form)


@pytest.mark.rules(10)
@given(calls_with_a_bad_length)
def test_a_bad_length_anywhere_is_refused(memory: Memory, case: tuple[Call, int]) -> None:
    """A bad value (0, negative, a bool, a float, a str, None) at a random position of a
    plannable input."""
    question, position = case
    memory.refuses(plan_question(question), f"lengths[{position}] = {question.lengths[position]!r}")
