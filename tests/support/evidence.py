"""Evidence for naming a mistake: every check of the run, and what the candidate did there.

A known mistake (a gallery module) is named as the cause of a failure only
when it behaves as the candidate's module does wherever the run looked:

- on the failing call it gives the very answer the candidate gave;
- every check the candidate passed, it passes too (a mistake that breaks
  something the candidate got right is not the candidate's mistake);
- on every other failure of the run, it gives the candidate's answer or the
  contract's (where it answers rightly, another mistake of the candidate's
  explains that failure);
- on every failure of its own rubric point it gives the candidate's answer:
  a candidate who made the mistake fails its point's tests as it does, and a
  mistake that explains one of several failures there is a coincidence.

A mistake that gives the same answer on the failing call but not the rest
is reported as a near miss, with the call where it parts from the candidate.
Each check records its questions, the candidate's outcomes and a `judge`
that says whether any other outcomes would pass it; passing checks are
recorded up to `KEPT_PER_TEST` per test (the first ones, where example
tests put their cases), failures always.  A timed cost check takes seconds
to replay: its failures are matched against the mistakes of its own point
only, and it is no evidence elsewhere.  The run's naming is made again at
its end, with every check in hand, so a failure early in the run is named
with the evidence of the tests after it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tests.support.outcomes import Outcome, Question

if TYPE_CHECKING:  # the gallery is the judge's, never imported where the module runs
    from tests.support.catalogue import Mistake

KEPT_PER_TEST = 24  # passing checks recorded per test

Judge = Callable[[Sequence[Outcome]], bool]  # would these outcomes pass the check?


@dataclass(frozen=True, eq=False)
class Check:
    exercise: str
    test: str
    point: str
    questions: tuple[Question, ...]
    outcomes: tuple[Outcome, ...]  # the candidate's
    judge: Judge
    passed: bool


@dataclass(frozen=True)
class Naming:
    """What the evidence says of one failure."""

    named: tuple[Mistake, ...] = ()  # answer alike here, consistent everywhere
    near: tuple[tuple[Mistake, str], ...] = ()  # answer alike here, part ways there (why)


@dataclass
class Ledger:
    """The run's checks, by exercise, and the gallery's answers to them (asked once each)."""

    checks: dict[str, list[Check]] = field(default_factory=dict)
    test: str = ""
    point: str = ""
    kept_in_test: int = 0
    _answers: dict[tuple[str, int], tuple[Outcome, ...] | None] = field(default_factory=dict)

    def begin(self, test: str, point: str) -> None:
        self.test, self.point, self.kept_in_test = test, point, 0

    def passed(
        self,
        exercise: str,
        questions: Sequence[Question],
        outcomes: Sequence[Outcome],
        judge: Judge,
    ) -> None:
        """A check the candidate passed (the first KEPT_PER_TEST of each test are kept)."""
        if not self.test or self.kept_in_test >= KEPT_PER_TEST or _costly(questions):
            return
        self.kept_in_test += 1
        check = Check(
            exercise, self.test, self.point, tuple(questions), tuple(outcomes), judge, True
        )
        self.checks.setdefault(exercise, []).append(check)

    def failed(
        self,
        exercise: str,
        questions: Sequence[Question],
        outcomes: Sequence[Outcome],
        judge: Judge,
    ) -> Check:
        """The failure a test ends with."""
        check = Check(
            exercise, self.test, self.point, tuple(questions), tuple(outcomes), judge, False
        )
        self.checks.setdefault(exercise, []).append(check)
        return check

    def name(self, failure: Check) -> Naming:
        """The mistakes the evidence so far names for `failure`, and the near misses."""
        from tests.support import catalogue

        named, near = [], []
        for mistake in catalogue.mistakes(failure.exercise):
            if _costly(failure.questions) and mistake.point != failure.point:
                continue  # seconds a replay: only the mistakes of its own point
            if self._answers_of(mistake, failure) != failure.outcomes:
                continue
            parting = self._parting(mistake, failure)
            if parting is None:
                named.append(mistake)
            else:
                near.append((mistake, parting))
        return Naming(tuple(named), tuple(near))

    def _parting(self, mistake: Mistake, failure: Check) -> str | None:
        """Where `mistake` parts from the candidate in the run's other checks, if anywhere."""
        for check in self.checks.get(failure.exercise, []):
            if check is failure or _costly(check.questions):
                continue
            answers = self._answers_of(mistake, check)
            if answers is None or answers == check.outcomes:
                continue  # it does not provide the names asked, or it answers alike
            if check.passed and not check.judge(answers):
                return f"on {_short(check)}, which your module passes, it answers {_first(answers)}"
            if not check.passed and (check.point == mistake.point or not check.judge(answers)):
                return (
                    f"on {_short(check)} it answers {_first(answers)}, yours "
                    f"{_first(check.outcomes)}"
                )
        return None

    def _answers_of(self, mistake: Mistake, check: Check) -> tuple[Outcome, ...] | None:
        from tests.support import catalogue

        key = (mistake.id, id(check))
        if key not in self._answers:
            self._answers[key] = catalogue.replay(mistake, check.questions)
        return self._answers[key]


def _costly(questions: Sequence[Question]) -> bool:
    return any(question.costly for question in questions)


def _short(check: Check) -> str:
    text = str(check.questions[0]).splitlines()[0]
    return text if len(text) <= 160 else text[:150] + " ..."


def _first(outcomes: Sequence[Outcome]) -> str:
    text = str(outcomes[0]).splitlines()[0]
    return text if len(text) <= 120 else text[:110] + " ..."


LEDGER = Ledger()  # the run's: checks record into it, the plugin names from it


def passed(
    exercise: str, questions: Sequence[Question], outcomes: Sequence[Outcome], judge: Judge
) -> None:
    """A check the candidate passed, into the run's ledger."""
    LEDGER.passed(exercise, questions, outcomes, judge)
