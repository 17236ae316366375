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
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kata import evidence
from kata.evidence import Judge
from kata.impl import Implementation
from kata.outcomes import (
    Outcome,
    Question,
    Raised,
    Returned,
    Unanswered,
    ask,
    ask_all,
    brief,
    settle_each,
    shorten,
    with_shown,
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


@dataclass(frozen=True)
class Returns:
    """The judge of `expect`: exactly this answer.

    Where the answer is a sequence of steps that says where it first parts from the
    one wanted (a session's transcript: ``through_first_difference``), a mistake is
    witnessed by the steps up to there: what follows is the state it left, which two
    ways of making the same mistake need not share."""

    want: Any

    def __call__(self, outcomes: Sequence[Outcome]) -> bool:
        return outcomes[0] == Returned(self.want)

    def witness(self, outcomes: Sequence[Outcome]) -> Sequence[Outcome]:
        """What of `outcomes` a known mistake must answer alike to be this failure's."""
        first = outcomes[0] if len(outcomes) == 1 else None
        cut = getattr(self.want, "through_first_difference", None)
        if (
            cut is None
            or not isinstance(first, Returned)
            or type(first.value) is not type(self.want)
        ):
            return outcomes
        return (Returned(first.value.through_first_difference(self.want)),)


def returns(want: Any) -> Judge:
    """The judge of `expect`: exactly this answer."""
    return Returns(want)


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


BUNDLE_SIZE = 2048  # questions sent in one message, at most
BUNDLE_SECONDS = 0.25  # of the module's CPU time, after which a bundle asks no more


def expect_each(
    impl: Implementation,
    cases: Iterable[tuple[Question, Any]],
    *,
    rule: str,
    symptom: Callable[[Any, Any], str] | None = None,
) -> None:
    """`expect` for many questions: fail at the first wrong answer.

    The questions go in bundles, many to a message, and come back as outcomes
    compared here, each exactly as `expect` compares it: the module never sees
    an expected answer.  The first question a bundle does not pass (or does not
    reach: a hang, an exit) is asked again on its own, so every failure, limit
    and mistake is met, reported and named as it is for a question asked alone.
    `cases` is read as the bundles are sent, so a failure early on costs little.
    """
    waiting, carried = iter(cases), list[tuple[Question, Any]]()
    while bundle := carried + list(itertools.islice(waiting, BUNDLE_SIZE - len(carried))):
        outcomes, passed = _bundled(impl, bundle), 0
        for (question, want), outcome in zip(bundle, outcomes, strict=False):
            if outcome != Returned(want):
                break
            evidence.passed(impl.exercise.name, [question], [outcome], returns(want))
            passed += 1
        if 0 < passed == len(outcomes):  # all it settled passed: the rest go in the next
            carried = bundle[passed:]
            continue
        question, want = bundle[passed]
        _judged(impl, question, ask(question, impl), want, rule=rule, symptom=symptom)
        carried = bundle[passed + 1 :]


def _bundled(impl: Implementation, bundle: list[tuple[Question, Any]]) -> list[Outcome]:
    """The outcomes of the bundle's first questions, as many as it settled (maybe none)."""
    first = bundle[0][0]
    question = Question(
        f"{len(bundle)} questions, the first: {first}",
        partial(settle_each, tuple(q.ask for q, _ in bundle), BUNDLE_SECONDS),
        bundle=True,
    )
    try:
        outcome = ask(question, impl)
    except Unanswered:
        return []
    if not isinstance(outcome, Returned) or not isinstance(outcome.value, tuple):
        return []
    return [with_shown(q, o) for (q, _), o in zip(bundle, outcome.value, strict=False)]


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
