"""The checks every kata test makes, and the failure they raise.

Three kinds of check, each on `Question`s asked of the implementation:

- `expect`: the answer is exactly this (usually the oracle's);
- `expect_value_error`: the question is impossible, so ValueError;
- `expect_that`: a property relating several answers holds (metamorphic tests).

Each check has a judge: a function saying whether any outcomes to its
questions would pass it.  A passed check is recorded as evidence
(`kata.evidence`); a failed one raises `KataFailure`, which carries
the questions, what the candidate answered and the judge, so the harness can
ask the same questions of every known mistake in the gallery and name the
ones that answer alike, and behave alike everywhere else.  The text is for
the candidate: the call, the expected answer, theirs, and the rule.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from kata import evidence
from kata.evidence import Judge
from kata.impl import Implementation
from kata.outcomes import (
    Outcome,
    Question,
    Raised,
    Returned,
    ask,
    ask_all,
    brief,
    shorten,
)


class KataFailure(AssertionError):  # noqa: N818 (a failed check, like pytest's Failed)
    """A check failed: what was asked, what came back, and how to judge other answers."""

    def __init__(
        self,
        text: str,
        *,
        impl: Implementation,
        questions: Sequence[Question],
        outcomes: Sequence[Outcome],
        judge: Judge,
        symptom: str = "",
    ) -> None:
        super().__init__(text)
        self.text, self.impl, self.symptom, self.judge = text, impl, symptom, judge
        self.questions, self.outcomes = tuple(questions), tuple(outcomes)


def returns(want: Any) -> Judge:
    """The judge of `expect`: exactly this answer."""
    return lambda outcomes: outcomes[0] == Returned(want)


def answered(outcomes: Sequence[Outcome]) -> bool:
    """The judge of `answer`: any answer at all."""
    return isinstance(outcomes[0], Returned)


def refused(outcomes: Sequence[Outcome]) -> bool:
    """The judge of `expect_value_error`."""
    return isinstance(outcomes[0], Raised) and outcomes[0].is_value_error


def holding(holds: Callable[..., bool]) -> Judge:
    """The judge of `expect_that`: every question answered, and the property holds."""

    def judge(outcomes: Sequence[Outcome]) -> bool:
        if not all(isinstance(o, Returned) for o in outcomes):
            return False
        try:
            return bool(holds(*[o.value for o in outcomes if isinstance(o, Returned)]))
        except Exception:  # another module's answers may not even fit the property
            return False

    return judge


def settled(
    impl: Implementation,
    questions: Sequence[Question],
    outcomes: Sequence[Outcome],
    judge: Judge,
) -> bool:
    """Whether the outcomes pass; a pass is recorded as evidence."""
    if judge(outcomes):
        evidence.passed(impl.exercise.name, questions, outcomes, judge)
        return True
    return False


def expect(
    impl: Implementation,
    question: Question,
    want: Any,
    *,
    rule: str,
    symptom: Callable[[Any, Any], str] | None = None,
) -> Any:
    """Fail unless `impl` answers `question` with `want` (in the question's normal form)."""
    return _judged(impl, question, ask(question, impl), want, rule=rule, symptom=symptom)


def expect_each(
    impl: Implementation,
    cases: Iterable[tuple[Question, Any]],
    *,
    rule: str,
    symptom: Callable[[Any, Any], str] | None = None,
) -> None:
    """`expect` for many questions, sent in batches: fail at the first wrong answer.

    `cases` is read as the questions are sent, so a failure early on costs little.
    """
    pending: deque[tuple[Question, Any]] = deque()

    def questions() -> Iterator[Question]:
        for case in cases:
            pending.append(case)
            yield case[0]

    for outcome in ask_all(questions(), impl):
        question, want = pending.popleft()
        _judged(impl, question, outcome, want, rule=rule, symptom=symptom)


def _judged(
    impl: Implementation,
    question: Question,
    outcome: Outcome,
    want: Any,
    *,
    rule: str,
    symptom: Callable[[Any, Any], str] | None,
) -> Any:
    judge = returns(want)
    if settled(impl, [question], [outcome], judge):
        return want
    described = ""
    if symptom and isinstance(outcome, Returned):
        with contextlib.suppress(Exception):  # a value it cannot describe (10**100000)
            described = shorten(symptom(want, outcome.value))
    raise KataFailure(
        f"{question}\n  expected: {shown(question, want)}\n       got: {indent(str(outcome))}\n"
        f"  Rule: {rule}",
        impl=impl,
        questions=[question],
        outcomes=[outcome],
        judge=judge,
        symptom=described,
    )


def shown(question: Question, value: Any) -> str:
    """`value` as the question shows answers, shortened; never an error."""
    try:
        return shorten(question.show(value))
    except Exception:
        return brief(value)


def answer(impl: Implementation, question: Question, *, rule: str = "") -> Any:
    """The answer to a valid question; fail if it is not an answer at all."""
    outcome = ask(question, impl)
    if settled(impl, [question], [outcome], answered) and isinstance(outcome, Returned):
        return outcome.value
    raise KataFailure(
        f"{question}\n  expected an answer: this input is valid\n"
        f"       got: {indent(str(outcome))}" + (f"\n  Rule: {rule}" if rule else ""),
        impl=impl,
        questions=[question],
        outcomes=[outcome],
        judge=answered,
    )


def expect_value_error(impl: Implementation, question: Question, problem: str) -> None:
    """Fail unless asking `question` raises ValueError: `problem` makes it impossible."""
    outcome = ask(question, impl)
    if settled(impl, [question], [outcome], refused):
        return
    raise KataFailure(
        f"{question}\n  expected: ValueError, for {problem}\n       got: {indent(str(outcome))}\n"
        "  Rule: bad input raises ValueError naming the problem, on every path; nothing is "
        "silently dropped or guessed.",
        impl=impl,
        questions=[question],
        outcomes=[outcome],
        judge=refused,
    )


def expect_that(
    impl: Implementation,
    questions: Sequence[Question],
    holds: Callable[..., bool],
    *,
    claim: str,
    rule: str,
) -> list[Any]:
    """Fail unless every question is answered and ``holds(*answers)``; return the answers."""
    outcomes = list(ask_all(questions, impl))
    judge = holding(holds)
    if settled(impl, questions, outcomes, judge):
        return [o.value for o in outcomes if isinstance(o, Returned)]
    answered_all = all(isinstance(o, Returned) for o in outcomes)
    headline = (
        f"Property broken: {claim}"
        if answered_all
        else "Property not checked: a valid question was not answered"
    )
    lines = [headline]
    for question, outcome in zip(questions, outcomes, strict=True):
        lines += [f"  {question}", f"    -> {indent(str(outcome), 7)}"]
    lines.append(f"  Rule: {rule}")
    raise KataFailure(
        "\n".join(lines), impl=impl, questions=questions, outcomes=outcomes, judge=judge
    )


def indent(text: str, by: int = 2) -> str:
    """Continuation lines of a multi-line outcome, indented under its first line."""
    return text.replace("\n", "\n" + " " * by)
