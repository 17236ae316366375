"""Each exercise's plan, declared once: its steps, their hints, the interview's minutes.

A plan is ``kata/steps/<exercise>.toml``, read by this module and by
nothing else: the command line's ``step`` and ``hint``, the stepwise check
and RUBRIC.md's step tables all come from it (a test holds RUBRIC.md's copy
to it).  Invariants, checked when a plan is read:

* every rubric point of the exercise belongs to exactly one step, in the
  steps' order; a step's tests are its points' tests;
* every numbered rule of the contract is taught by at least one step;
* each step has a ladder of three hints: a question, the area, the answer
  (RUBRIC.md's "Hints, and what they cost" says what each rung caps);
* each step says, in one line each, what a strong, an adequate and a weak
  answer sound like (the interview card shows them: `kata.card`);
* the clarifying questions' minutes and the steps' add up to the session's;
* an exercise offered as a rung of another session's follow-up ladder names
  the steps that rung asks for, and their minutes add up to the rung's.
"""

from __future__ import annotations

import textwrap
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kata.exercises import EXERCISES, Exercise

HERE = Path(__file__).resolve().parent / "steps"
RUNGS = ("a question", "the area", "the answer")  # a hint ladder, in order
CAPS = ("strong", "adequate", "weak")  # what each rung caps its point at
# A grade's line is read aloud during a session, beside the candidate: one line, short.
GRADE_LINE = 160


class PlanError(ValueError):
    """A plan that breaks its invariants: the file, and what is wrong."""


@dataclass(frozen=True)
class Step:
    number: int  # 1, 2, ...
    name: str
    title: str
    minutes: int
    writes: tuple[str, ...]  # the names this step writes ("detect", "HeartbeatMonitor")
    rules: tuple[int, ...]  # the contract's rules it teaches
    points: tuple[str, ...]  # the rubric points it earns
    task: str  # what to do, in a few lines
    hints: tuple[str, ...]  # the ladder: RUNGS, in order
    checklist: tuple[str, ...] = ()  # an interview step's self-check: what a strong answer says
    # What a strong, an adequate and a weak answer sound like (CAPS, in order), a line each.
    grades: tuple[str, ...] = ()

    @property
    def interview(self) -> bool:
        """Scored from the conversation, not by tests."""
        return not self.writes


@dataclass(frozen=True)
class Rung:
    """The exercise as a rung of another session's follow-up ladder: only some of its steps,
    at the pace of the whole session, so a rung's minutes are its steps' minutes."""

    minutes: int
    steps: tuple[str, ...]  # the steps' names, in the plan's order


@dataclass(frozen=True)
class Plan:
    exercise: Exercise
    question: str  # the opening question, as the interviewer asks it
    minutes: int  # the whole session
    clarify_minutes: int  # before any code: the questions a strong candidate asks first
    clarifying: tuple[str, ...]
    steps: tuple[Step, ...]
    # The follow-up ladder: (what the interviewer asks, the answer expected), in order.
    followups: tuple[tuple[str, str], ...] = ()
    rung: Rung | None = None  # when the exercise can close another session

    def begins(self, step: Step) -> int:
        """The minute of the session at which `step` begins, as planned."""
        return self.clarify_minutes + sum(s.minutes for s in self.steps[: step.number - 1])

    def rung_steps(self) -> tuple[Step, ...]:
        """The steps a follow-up rung asks for (none when the exercise is no rung)."""
        return tuple(self.named(name) for name in self.rung.steps) if self.rung else ()

    def step_of(self, point: str) -> Step:
        return next(step for step in self.steps if point in step.points)

    def named(self, name: str) -> Step:
        """The step called `name`, or numbered `name`."""
        for step in self.steps:
            if name in (step.name, str(step.number)):
                return step
        known = ", ".join(f"{s.number} {s.name}" for s in self.steps)
        raise KeyError(f"{self.exercise.name} has no step {name!r}: its steps are {known}")


@cache
def plan(exercise: str) -> Plan:
    """The plan of `exercise`, checked (PlanError saying what is wrong)."""
    path = HERE / f"{exercise}.toml"
    where = f"kata/steps/{exercise}.toml"
    data = tomllib.loads(path.read_text())
    steps = tuple(_step(number, raw, where) for number, raw in enumerate(data["step"], 1))
    clarify = data["clarify"]
    found = Plan(
        EXERCISES[exercise],
        " ".join(str(data["question"]).split()),
        int(data["minutes"]),
        int(clarify["minutes"]),
        tuple(str(q) for q in clarify["questions"]),
        steps,
        tuple(
            (str(f["ask"]), " ".join(str(f["answer"]).split())) for f in data.get("followup", [])
        ),
        _rung(data.get("rung"), where),
    )
    _check(found, where)
    return found


def _rung(raw: object, where: object) -> Rung | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list):
        raise PlanError(f"{where}: [rung] has minutes and steps, a list of the steps' names")
    return Rung(int(raw["minutes"]), tuple(str(name) for name in raw["steps"]))


def _step(number: int, raw: dict[str, object], where: object) -> Step:
    def strings(key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        assert isinstance(value, list)
        return tuple(str(v).strip() for v in value)

    rules = raw.get("rules", [])
    if not isinstance(rules, list):
        raise PlanError(f"{where}: step {number}: rules is a list of rule numbers")
    return Step(
        number=number,
        name=str(raw["name"]),
        title=str(raw["title"]),
        minutes=int(str(raw["minutes"])),
        writes=strings("writes"),
        rules=tuple(int(r) for r in rules),
        points=strings("points"),
        task=str(raw["task"]).strip(),
        hints=strings("hints"),
        checklist=strings("checklist"),
        grades=tuple(str(raw.get(grade, "")).strip() for grade in CAPS),
    )


def _check(found: Plan, where: object) -> None:
    exercise, steps = found.exercise, found.steps
    declared = [p.name for p in exercise.points]
    listed = [point for step in steps for point in step.points]
    if sorted(listed) != sorted(declared):
        missing, extra = set(declared) - set(listed), set(listed) - set(declared)
        raise PlanError(f"{where}: points missing {sorted(missing)}, unknown {sorted(extra)}")
    if len(set(listed)) != len(listed):
        raise PlanError(f"{where}: a point belongs to more than one step")
    rules = set(exercise.rules())
    taught = {rule for step in steps for rule in step.rules}
    if taught != rules:
        raise PlanError(
            f"{where}: rules untaught {sorted(rules - taught)}, unknown {sorted(taught - rules)}"
        )
    by_name = {point.name: point for point in exercise.points}
    for step in steps:
        if len(step.hints) != len(RUNGS):
            raise PlanError(f"{where}: step {step.name}: {len(RUNGS)} hints: {', '.join(RUNGS)}")
        unknown = (
            set(step.writes)
            - set(exercise.names)
            - {n for n in step.writes if n.split(".")[0] in exercise.names}
        )
        if unknown:
            raise PlanError(f"{where}: step {step.name} writes unknown names {sorted(unknown)}")
        spoken = {by_name[p].scored_by == "interview" for p in step.points}
        if (spoken == {True} and step.writes) or (spoken == {False} and not step.writes):
            raise PlanError(
                f"{where}: step {step.name}: a step writes code (its points are tested) "
                "or is spoken (its points are scored in the interview), not both"
            )
        if len(spoken) > 1:
            raise PlanError(f"{where}: step {step.name} mixes tested and spoken points")
        if step.interview and not step.checklist:
            raise PlanError(f"{where}: step {step.name}: a spoken step needs its checklist")
        _check_grades(step, where)
    used = found.clarify_minutes + sum(step.minutes for step in steps)
    if used != found.minutes:
        raise PlanError(
            f"{where}: clarifying and the steps take {used} minutes; the session is {found.minutes}"
        )
    _check_rung(found, where)


def _check_grades(step: Step, where: object) -> None:
    """A line each for strong, adequate and weak: what the interviewer listens for."""
    said = dict(zip(CAPS, step.grades, strict=False))
    for grade in CAPS:
        line = said.get(grade, "")
        if not line:
            raise PlanError(f"{where}: step {step.name}: say in one line what {grade} sounds like")
        if "\n" in line or len(line) > GRADE_LINE:
            raise PlanError(
                f"{where}: step {step.name}: {grade} is one line of at most {GRADE_LINE} "
                f"characters, read during the session (it has {len(line)})"
            )


def _check_rung(found: Plan, where: object) -> None:
    """A rung asks for named steps, in order, and takes the minutes they take in a session."""
    if found.rung is None:
        return
    names = [step.name for step in found.steps]
    unknown = [name for name in found.rung.steps if name not in names]
    if unknown or not found.rung.steps:
        raise PlanError(f"{where}: [rung] names no step or unknown steps {unknown}: {names}")
    positions = [names.index(name) for name in found.rung.steps]
    if positions != sorted(set(positions)):
        raise PlanError(f"{where}: [rung] names its steps once each, in the plan's order")
    needed = sum(step.minutes for step in found.rung_steps())
    if needed != found.rung.minutes:
        raise PlanError(
            f"{where}: [rung] is {found.rung.minutes} minutes, but its steps "
            f"({', '.join(found.rung.steps)}) take {needed}: ask for fewer steps, or give it "
            "their minutes"
        )


def markdown(found: Plan) -> str:
    """The plan as RUBRIC.md shows it: the session's minutes, each step's points and hints."""
    name = found.exercise.name
    lines = [
        f"The session, a step at a time ({found.minutes} minutes; the candidate's "
        f"`python -m kata step {name} N` shows a step, `python -m kata hint` its hints):",
        "",
        "| minutes | step | writes | points | hints: a question / the area / the answer |",
        "| --- | --- | --- | --- | --- |",
        f"| 0-{found.clarify_minutes} | clarifying questions | | | |",
    ]
    begun = found.clarify_minutes
    for step in found.steps:
        writes = ", ".join(f"`{n}`" for n in step.writes) or "(spoken)"
        points = ", ".join(f"`{p}`" for p in step.points)
        hints = " / ".join(f'"{_cell(h)}"' for h in step.hints)
        lines.append(
            f"| {begun}-{begun + step.minutes} | {step.number}. {_cell(step.title)} | {writes} "
            f"| {points} | {hints} |"
        )
        begun += step.minutes
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def ladder(found: Plan) -> str:
    """The follow-up ladder as RUBRIC.md shows it: one numbered rung each."""
    return "\n".join(
        textwrap.fill(
            f"{number}. **{ask}** {answer}", 78, subsequent_indent="   ", break_on_hyphens=False
        )
        for number, (ask, answer) in enumerate(found.followups, 1)
    )
