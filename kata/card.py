"""The interview card: one exercise's session on a page, written from its plan.

A card is what an interviewer runs a session from: the minutes, the opening
question, the clarifying questions, then each step with its minutes, what it
asks for, what a strong, an adequate and a weak answer sound like, and its
hint ladder with what each rung costs; last, the command that scores the
code.  RUBRIC.md carries each card at the top of its exercise's section
(``tools/rubric_steps.py`` writes it, ``tests/reference/test_plans.py`` holds
it to the plan); ``python -m kata card EXERCISE`` prints the same card in a
terminal.  Nothing on a card is written by hand: it all comes from
``kata/steps/<exercise>.toml``.
"""

from __future__ import annotations

import re
import textwrap

from kata.plan import CAPS, RUNGS, Plan, Step


def anchor(exercise: str) -> str:
    """The anchor of the card's heading in RUBRIC.md, for links to it."""
    return f"interview-card-{exercise}"


def card(found: Plan) -> str:
    """The card of `found`, in Markdown."""
    name = found.exercise.name
    lines = [
        f"### Interview card: {name}",
        "",
        f"{found.exercise.title[0].upper()}{found.exercise.title[1:]}: {found.minutes} minutes. "
        f"`python -m kata card {name}` prints this card; `python -m kata mock {name}` "
        "rehearses the session.",
        "",
        f"> {found.question}",
        "",
        f"**0-{found.clarify_minutes} min, clarifying questions**, before any code "
        "(credit for each one asked):",
        "",
        *(f"- {question}" for question in found.clarifying),
        "",
        "**The steps.** Note each hint given: a rung caps the step's points, "
        + ", ".join(f"{n + 1} ({rung}) at {CAPS[n]}" for n, rung in enumerate(RUNGS))
        + ".",
        "",
        *(line for step in found.steps for line in _step(found, step)),
        "",
        *_rung(found),
        _scoring(found),
    ]
    return "\n".join(lines)


def _step(found: Plan, step: Step) -> list[str]:
    """A step in five lines: what it asks for, the three grades, the hint ladder."""
    begins = found.begins(step)
    points = f"{'point' if len(step.points) == 1 else 'points'} {_names(step.points)}"
    if step.interview:
        asks = (
            f"Spoken, {points}; what a strong answer covers: "
            f"`python -m kata interview {found.exercise.name} --reveal`."
        )
    else:
        titles = found.exercise.rules()
        rules = ", ".join(f"{rule} ({titles[rule]})" for rule in step.rules)
        asks = f"Writes {_written(step.writes)}: rules {rules}; {points}."
    strong, adequate, weak = step.grades
    hints = " ".join(f'{rung}. "{_one_line(hint)}"' for rung, hint in enumerate(step.hints, 1))
    return [
        f"- **{begins}-{begins + step.minutes} min, step {step.number}: {_sentence(step.title)}** "
        f"{asks}",
        f"  - Strong: {strong}",
        f"  - Adequate: {adequate}",
        f"  - Weak: {weak}",
        f"  - Hints: {hints}",
    ]


def _rung(found: Plan) -> list[str]:
    """How the exercise closes another session, when it can: the steps, the minutes, the rules."""
    steps = found.rung_steps()
    if not steps or found.rung is None:
        return []
    rules = sorted({rule for step in steps for rule in step.rules})
    asked = ", ".join(f"{step.number} ({step.name})" for step in steps)
    return [
        f"**As a rung of another session's follow-up ladder**: steps {asked} only, "
        f"{found.rung.minutes} minutes"
        + (f", rules {', '.join(map(str, rules))}" if rules else "")
        + "; the rest is a session of its own.",
        "",
    ]


def _scoring(found: Plan) -> str:
    spoken = [str(step.number) for step in found.steps if step.interview]
    yours = (
        f" Step {', '.join(spoken)} is spoken: score it from the conversation."
        if len(spoken) == 1
        else f" Steps {', '.join(spoken)} are spoken: score them from the conversation."
        if spoken
        else ""
    )
    return (
        "**Score the code**: `python -m kata check FILE --all` "
        "(or `python -m pytest --impl FILE --rubric`); cap each step's points by the hints "
        f"given.{yours}"
    )


def _sentence(title: str) -> str:
    return title if title.endswith(("?", ".")) else f"{title}."


def _written(names: tuple[str, ...]) -> str:
    """The names a step writes, a class's methods after it once: `Queue`'s `claim`, `fail`."""
    classes: dict[str, list[str]] = {}
    for name in names:
        owner, _, method = name.rpartition(".")
        classes.setdefault(owner, []).append(method)
    return "; ".join(
        f"`{owner}`'s {_names(tuple(methods))}" if owner else _names(tuple(methods))
        for owner, methods in classes.items()
    )


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def terminal(markdown: str, width: int = 88) -> str:
    """A card for a terminal: no heading or bold marks, each line wrapped under its indent."""
    shown = []
    for line in markdown.splitlines():
        line = line.removeprefix("### ").replace("**", "")
        indent = re.match(r" *(?:[-*>] )?", line)
        hang = " " * (indent.end() if indent else 0)
        shown.append(
            textwrap.fill(line, width, subsequent_indent=hang, break_on_hyphens=False)
            if line
            else ""
        )
    return "\n".join(shown).strip("\n") + "\n"
