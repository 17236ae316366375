"""Evidence for naming a mistake: every check of the run, and what the candidate did there.

A known mistake (a gallery module) is named as the cause of a failure when it
behaves as the candidate's module does where that mistake shows, not when the
two modules are alike in every incidental choice (ids, error wording, the
order of checks):

- its witness: on the failing call it gives the very answer the candidate gave
  (values compared in the contract's normal form, exceptions by kind, never by
  message wording);
- its controls: wherever it answers rightly and the candidate fails,
  something else must account for the failure.  No mistake that gave the
  same witness may answer as the candidate did there: the two part, and the
  candidate went the other's way.  A failure of its own rubric point that no
  other known mistake answers alike counts against it: a module that reports
  every rank gives the `>=` mistake's answer at the boundary, and fails the
  boundary's other checks where `>=` answers rightly, so it is not `>=`.
  Where it fails too, in another way, the two agree (the same mistake may be
  an exception in one module and a wrong value in another);
- more for than against: it answers alike more of the run's failures than it
  fails checks of its own point that the candidate passed, and than its own
  point's failures that it leaves unexplained.  Passed checks count against
  it only where they call what the failure calls: a candidate may make a
  mistake in a narrower scope than the gallery's module does (reading the
  input twice in one function of three, a bool refused everywhere but in
  `now`), and still be told it, with a word that elsewhere its code gets it
  right; a mistake whose home tests of the same function the candidate
  passes more often than it fails alike matched the witness by coincidence.

Failures of other points are no evidence against a mistake where it answers
rightly, nor in a property test's random cases (they mix what two mistakes
do): a hurried candidate makes two, and the second explains them.  Several
mistakes can be named in one run, each for the failures it accounts for; of
several that account for the same failure, the one that accounts for most of
the run's failures is named, then the one the candidate's passed checks
contradict least.  Nothing is guessed from symptoms: a name needs a failure answered
alike, and a wrong name is worse than none.

Each check records its questions, the candidate's outcomes and a `judge`
that says whether any other outcomes would pass it; passing checks are
recorded up to `KEPT_PER_TEST` per test (the first ones, where example tests
put their cases), failures always.  A cost point's checks (seconds to
replay, and written against a whole answer whose other mistakes are the
gallery's business) are evidence only for that point's mistakes.  The run's
naming is made again at its end, with every check in hand, so a failure early
in the run is named with the evidence of the tests after it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kata.exercises import POINTS
from kata.outcomes import Outcome, Question

if TYPE_CHECKING:  # the gallery is the judge's, never imported where the module runs
    from kata.catalogue import Mistake

KEPT_PER_TEST = 24  # passing checks recorded per test
# How a known mistake stands with a failure other than its witness (`Ledger._controlled`).
CONSISTENT, PARTED, UNEXPLAINED = "consistent", "parted", "unexplained"

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
    example: bool = True  # an example test's check, not a property test's random case


@dataclass(frozen=True)
class Naming:
    """What the evidence says of one failure: the mistakes that account for it."""

    named: tuple[Mistake, ...] = ()
    # Those made in a narrower scope than the gallery's: checks of their point that the
    # candidate passed, they fail.
    in_part: frozenset[str] = frozenset()


@dataclass
class Ledger:
    """The run's checks, by exercise, and the gallery's answers to them (asked once each)."""

    checks: dict[str, list[Check]] = field(default_factory=dict)
    test: str = ""
    point: str = ""
    example: bool = True
    kept_in_test: int = 0
    _answers: dict[tuple[str, int], tuple[Outcome, ...] | None] = field(default_factory=dict)
    _witnesses: dict[int, list[Mistake]] = field(default_factory=dict)

    def begin(self, test: str, point: str, *, example: bool = True) -> None:
        self.test, self.point, self.example, self.kept_in_test = test, point, example, 0

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
            exercise,
            self.test,
            self.point,
            tuple(questions),
            tuple(outcomes),
            judge,
            False,
            self.example,
        )
        self.checks.setdefault(exercise, []).append(check)
        return check

    def name(self, failure: Check) -> Naming:
        """The mistakes the evidence so far names for `failure`: none, or those that account
        for it best (several only where the run cannot tell them apart)."""
        witnessed = self._witnessed(failure)
        checks = self.checks.get(failure.exercise, [])
        failures = [c for c in checks if not c.passed]
        passed = [c for c in checks if c.passed]
        # Of each mistake that accounts for this failure: (-for, -for whole answers, against,
        # narrower): the most failures answered alike, then the most answered whole.
        fit = {}
        for mistake in witnessed:
            control = [
                self._controlled(mistake, o, witnessed) for o in failures if o is not failure
            ]
            alike = sum(self._alike(mistake, other) for other in failures)
            # Its point's checks that the candidate passed and it fails: against it where they
            # ask what the failure asks (the same function), else a sign only that the
            # candidate made it in a narrower scope (in one function of several).
            contradicted = [
                c for c in passed if c.point == mistake.point and self._contradicts(mistake, c)
            ]
            against = sum(bool(_called(c) & _called(failure)) for c in contradicted)
            narrower = len(contradicted) > against
            # Its own point's failures that it answers rightly and no other mistake explains:
            # the candidate went wrong there too, in a way this mistake does not account for.
            against += control.count(UNEXPLAINED)
            _trace(failure, mistake, control, alike, against)
            exact = sum(self._alike(mistake, other, exactly=True) for other in failures)
            if PARTED not in control and alike > against:
                fit[mistake.id] = (-alike, -exact, against, narrower)
        # Of several, the best explanation of the candidate's module: the one that accounts
        # for most of the run's failures, then the one its passed checks contradict least.
        best = min(fit.values(), default=None)
        named = tuple(m for m in witnessed if fit.get(m.id, ()) == best)
        return Naming(named, frozenset(m.id for m in named if fit[m.id][2] or fit[m.id][3]))

    def _contradicts(self, mistake: Mistake, check: Check) -> bool:
        """Whether `mistake` fails a check the candidate passed."""
        if not self._evidence_for(mistake, check):
            return False
        answers = self._answers_of(mistake, check)
        return answers is not None and answers != check.outcomes and not check.judge(answers)

    def _alike(self, mistake: Mistake, check: Check, *, exactly: bool = False) -> bool:
        """Whether `mistake` answers `check` as the candidate did: the whole answer, or
        (unless `exactly`) a failure's witness, which may be less than the whole answer: a
        session's steps up to the first that fails, not the state the mistake left after it
        (`Returns.witness`)."""
        if not self._evidence_for(mistake, check):
            return False
        answers = self._answers_of(mistake, check)
        if answers is None or answers == check.outcomes:
            return answers is not None
        witness = getattr(check.judge, "witness", None)
        if exactly or witness is None or check.passed:
            return False
        return bool(witness(answers) == witness(check.outcomes))

    def forget_namings(self) -> None:
        """Name again from the evidence as it stands (the answers replayed are kept)."""
        self._witnesses.clear()

    def _witnessed(self, failure: Check) -> list[Mistake]:
        """The mistakes that give the candidate's answer on `failure`: its witness."""
        if id(failure) not in self._witnesses:
            from kata import catalogue

            known = catalogue.mistakes(failure.exercise)
            # Those that give the whole answer, if any; else those that give its witness.
            exact = [m for m in known if self._alike(m, failure, exactly=True)]
            self._witnesses[id(failure)] = exact or [m for m in known if self._alike(m, failure)]
        return self._witnesses[id(failure)]

    def _controlled(self, mistake: Mistake, other: Check, neighbours: list[Mistake]) -> str:
        """How `mistake` stands with another failure of the run: CONSISTENT, PARTED or
        UNEXPLAINED.

        Where it fails the check too, in another way, the two agree that it fails (the
        same mistake may show as an exception in one module and a wrong value in another).
        Where it answers rightly, the failure must be another mistake's doing.  If a
        mistake that gave the same witness answers there as the candidate did, the two
        part, and the candidate went the other's way (PARTED: never this name).  A failure
        of its own point that no other known mistake answers alike is UNEXPLAINED: evidence
        against it, weighed with the rest."""
        if not self._evidence_for(mistake, other):
            return CONSISTENT
        answers = self._answers_of(mistake, other)
        if answers is None or answers == other.outcomes or not other.judge(answers):
            return CONSISTENT  # alike, or both fail it: the mistake shown another way
        if any(m is not mistake and self._alike(m, other) for m in neighbours):
            return PARTED
        if other.point != mistake.point or any(m is not mistake for m in self._witnessed(other)):
            return CONSISTENT  # another mistake's doing
        return UNEXPLAINED

    def _evidence_for(self, mistake: Mistake, check: Check) -> bool:
        """A cost point's checks speak only of that point's mistakes."""
        costly = _costly(check.questions) or (
            check.point in POINTS and POINTS[check.point][1].costly
        )
        return not costly or mistake.point == check.point

    def _answers_of(self, mistake: Mistake, check: Check) -> tuple[Outcome, ...] | None:
        from kata import catalogue

        key = (mistake.id, id(check))
        if key not in self._answers:
            self._answers[key] = catalogue.replay(mistake, check.questions)
        return self._answers[key]


def _trace(failure: Check, mistake: Mistake, control: list[str], alike: int, against: int) -> None:
    """With KATA_NAMING_TRACE set, why each witnessed mistake is named or not (to stderr):
    for those who grow the gallery, never for a candidate."""
    if os.environ.get("KATA_NAMING_TRACE"):
        print(
            f"[naming] {failure.test}: {mistake.id} alike {alike}, against {against},"
            f" parted {control.count(PARTED)}",
            file=sys.stderr,
        )


def _called(check: Check) -> frozenset[str]:
    """The functions (or classes) a check's questions call: the first name each calls."""
    return frozenset(m.group(1) for q in check.questions if (m := _CALL.search(q.text)))


_CALL = re.compile(r"([A-Za-z_]\w*)\(")


def _costly(questions: Sequence[Question]) -> bool:
    return any(question.costly for question in questions)


LEDGER = Ledger()  # the run's: checks record into it, the plugin names from it


def passed(
    exercise: str, questions: Sequence[Question], outcomes: Sequence[Outcome], judge: Judge
) -> None:
    """A check the candidate passed, into the run's ledger."""
    LEDGER.passed(exercise, questions, outcomes, judge)
