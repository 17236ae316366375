"""The known mistakes: the gallery's wrong answers, used as evidence.

Each ``gallery/<exercise>/wrong_<name>.py`` makes one classic mistake.  Its
stable id is ``<exercise>/<name>``; its title and explanation are its
docstring (``WRONG: <title>`` then the why); its home point is its ``FAILS``.

When a check fails, the same questions are asked of every known mistake of
the exercise; the mistakes whose outcomes equal the candidate's are named.
Nothing is guessed from symptoms: a mistake is named only if it gives the
very answer the candidate gave.  The gallery is trusted code: it is asked in
this process, never in the judged module's, so nothing the candidate's module
does can change what a known mistake answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import pytest

from kata.exercises import EXERCISES, Exercise
from kata.impl import (
    Implementation,
    LoadError,
    Module,
    NotImplementedYet,
    here,
    import_source,
)
from kata.outcomes import Outcome, Question, ask

REPLAY_SECONDS = 5.0  # CPU seconds for a known mistake's answer to one question, when replayed


@dataclass(frozen=True)
class Mistake:
    id: str
    title: str
    explanation: str
    point: str  # the rubric point it belongs to (its FAILS)
    impl: Implementation

    def describe(self) -> str:
        return f"{self.id}: {self.title}" + (f" {self.explanation}" if self.explanation else "")


@cache
def mistakes(exercise_name: str) -> tuple[Mistake, ...]:
    """Every known mistake of the exercise, in file-name order."""
    exercise = EXERCISES[exercise_name]
    return tuple(
        _mistake(exercise, path.stem) for path in sorted(exercise.gallery.glob("wrong_*.py"))
    )


def _mistake(exercise: Exercise, stem: str) -> Mistake:
    path = exercise.gallery / f"{stem}.py"
    try:
        module = import_source(str(path), name=f"kata_mistake_{exercise.name}_{stem}")
    except LoadError as error:
        raise RuntimeError(f"the gallery's {path} does not load: {error}") from None
    doc = (module.__doc__ or "").strip()
    headline, _, rest = doc.partition("\n")
    title = re.sub(r"^WRONG(?: \([^)]*\))?: ", "", headline).strip()
    explanation = " ".join(rest.split("\n\n")[0].split()) if rest else ""
    impl = here(
        Module(exercise, f"gallery/{exercise.name}/{stem}.py", vars(module), module.__file__),
        seconds=REPLAY_SECONDS,
    )
    return Mistake(
        f"{exercise.name}/{stem.removeprefix('wrong_')}",
        title,
        explanation,
        str(getattr(module, "FAILS", "")),
        impl,
    )


def matching(
    exercise_name: str, questions: Sequence[Question], outcomes: Sequence[Outcome]
) -> list[Mistake]:
    """The known mistakes that answer `questions` exactly as the candidate did."""
    return [m for m in mistakes(exercise_name) if replay(m, questions) == tuple(outcomes)]


def replay(mistake: Mistake, questions: Sequence[Question]) -> tuple[Outcome, ...] | None:
    """What `mistake` answers to `questions`; None if it lacks a name they need."""
    try:
        return tuple(ask(q, mistake.impl) for q in questions)
    except (NotImplementedYet, pytest.skip.Exception):
        return None


def by_id(mistake_id: str) -> Mistake:
    exercise_name = mistake_id.split("/")[0]
    return next(m for m in mistakes(exercise_name) if m.id == mistake_id)
