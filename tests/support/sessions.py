"""Sessions of calls on a stateful contract, and their transcripts: shared by its exercises.

A session is a list of steps, each a call on one object (a batcher, a
scheduler).  Asked of an implementation, it gives a `Transcript`, one
observation per step in a normal form; errors the contract names are
observations too.  A step that raises anything else, or answers out of
shape, ends the transcript there, with a note saying where.  A failure
shows the session up to its first difference with the expected transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kata.checks import KataFailure, returns, settled
from kata.impl import Implementation, Module
from kata.outcomes import Outcome, Question, Returned, ShapeError, ask, where_raised

Observation = Any


@dataclass(frozen=True)
class Transcript:
    """One observation per step; it stops at a step that raised something unexpected."""

    observations: tuple[Observation, ...]
    notes: tuple[str, ...] = field(default=(), compare=False)  # where the unexpected arose

    def through_first_difference(self, want: Transcript) -> Transcript:
        """The steps up to the first whose observation is not `want`'s, that one included."""
        for i, (got, wanted) in enumerate(zip(self.observations, want.observations, strict=False)):
            if got != wanted:
                return Transcript(self.observations[: i + 1])
        return self


def play(
    impl: Module,
    steps: Iterable[Any],
    do: Callable[[Any], Observation],
    errors: dict[str, type[BaseException]],
) -> Transcript:
    """Each step done in turn; the errors named in `errors` observed by their name."""
    observations: list[Observation] = []
    kinds = tuple(errors.values())
    for step in steps:
        try:
            observations.append(do(step))
        except kinds as error:
            observations.append(next(n for n, e in errors.items() if isinstance(error, e)))
        except ShapeError as error:
            problem, *shown = error.args
            observations.append(f"not the contract's answer: {problem}")
            return Transcript(tuple(observations), tuple(f"got {s}" for s in shown[:1]))
        except Exception as error:
            observations.append(f"raised {type(error).__name__}")
            where = where_raised(error.__traceback__, impl.file)
            return Transcript(tuple(observations), (f"{type(error).__name__}: {error}\n{where}",))
    return Transcript(tuple(observations))


@dataclass(frozen=True)
class Shown:
    """How a session reads: its first line, a line per step, a line per observation."""

    header: str
    calls: Sequence[str]
    observed: Callable[[Observation], str]

    def transcript(self, transcript: Transcript) -> str:
        lines = [self.observed(o) for o in transcript.observations]
        return "\n".join(f"{i:>3}. {line}" for i, line in enumerate(lines, 1)) + "".join(
            f"\n       {note}" for note in transcript.notes
        )

    def difference(self, want: Transcript, outcome: Outcome) -> str:
        """The steps up to the first that differs, with both observations there."""
        lines = [self.header]
        if not isinstance(outcome, Returned):
            lines += [f"{i:>3}. {call}" for i, call in enumerate(self.calls, 1)]
            return "\n".join(
                [
                    *lines,
                    f"  expected the transcript:\n{self.transcript(want)}",
                    f"  got: {outcome}",
                ]
            )
        got: Transcript = outcome.value
        for i, call in enumerate(self.calls):
            if i >= len(got.observations) or i >= len(want.observations):
                break
            expected, actual = (
                self.observed(want.observations[i]),
                self.observed(got.observations[i]),
            )
            lines.append(f"{i + 1:>3}. {call}")
            if got.observations[i] == want.observations[i]:
                lines.append(f"       -> {actual}")
                continue
            lines += [f"       expected: {expected}", f"            got: {actual}"]
            lines += [f"       {note}" for note in got.notes]
            if i + 1 < len(self.calls):
                lines.append(f"  ({len(self.calls) - i - 1} more steps not shown)")
            break
        return "\n".join(lines)


def expect_transcript(
    impl: Implementation,
    question: Question,
    shown: Shown,
    want: Sequence[Observation],
    *,
    rule: str,
) -> None:
    """Fail unless the question's transcript is `want`; show the steps to the first difference."""
    outcome = ask(question, impl)
    wanted = Transcript(tuple(want))
    judge = returns(wanted)
    if settled(impl, [question], [outcome], judge):
        return
    raise KataFailure(
        shown.difference(wanted, outcome) + f"\n  Rule: {rule}",
        impl=impl,
        questions=[question],
        outcomes=[outcome],
        judge=judge,
    )
