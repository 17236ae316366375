"""The lab's results as text (tables and a chart), Markdown (for WRITEUP.md) and JSON."""

from __future__ import annotations

import math
from typing import Any

from solution.lab.run import DETECTORS, Outcome
from solution.lab.scenarios import DEAD, Job

BAR = 30


def header(job: Job, seed: int) -> str:
    low, high = job.delay
    return (
        f"{job.ranks} ranks for {job.hours} h, heartbeats every {job.interval} ms, "
        f"{float(job.loss):.0%} lost, {low}-{high} ms of delay, a {job.margin} ms margin, "
        f"a budget of {job.budget} false alarm over the run; seed {seed}"
    )


def headline(outcomes: list[Outcome]) -> list[list[str]]:
    """Per cause: the arithmetic's promise for the receive-clock timeout, and what happened,
    with `>` and (the last column) with `>=`."""
    head = [
        *("cause", "p", "k", "timeout", "predicted", "measured", "measured / predicted"),
        "measured with >=",
    ]
    return [head] + [
        [
            o.cause.name,
            f"{float(o.miss_probability):.4f}",
            str(o.k),
            f"{o.timeout:,} ms",
            f"{o.predicted:.2f}",
            f"{o.measured:,}",
            _ratio(o),
            f"{o.inclusive:,}",
        ]
        for o in outcomes
    ]


def _ratio(outcome: Outcome) -> str:
    if outcome.measured <= outcome.predicted:
        return "within the bound"
    return f"{outcome.measured / outcome.predicted:,.0f}x"


def chart(outcomes: list[Outcome]) -> list[str]:
    """Measured false alarms per cause, on a log scale, the prediction marked |."""
    top = max(max(o.measured, o.predicted) for o in outcomes)
    scale = BAR / math.log10(10 * top) if top > 0 else 0

    def at(value: float) -> int:
        return 0 if value <= 0 else max(0, round(math.log10(10 * value) * scale))

    lines = []
    for o in outcomes:
        bar = list("#" * at(o.measured) + " " * (BAR - at(o.measured)))
        mark = min(BAR - 1, at(o.predicted))
        bar[mark] = "|"
        lines.append(f"  {o.cause.name:<18} {''.join(bar)} {o.measured:,}")
    return [*lines, "  (log scale, from 0.1; | marks the prediction, n * p**k)"]


def qualities(outcome: Outcome) -> list[list[str]]:
    head = ["detector", "mistakes", "per rank-hour", "lasting", "accuracy", "detects a death in"]
    return [head] + [
        [
            q.detector,
            f"{q.mistakes:,}",
            f"{q.mistake_rate:.3f}",
            _lasting(q.mistake_duration) if q.mistakes else "-",
            f"{q.accuracy:.6f}",
            "never" if q.detection is None else f"{q.detection / 1000:.1f} s",
        ]
        for q in outcome.qualities
    ]


def _lasting(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 50 else f"{ms / 1000:.1f} s"


def table(rows: list[list[str]], *, markdown: bool = False) -> list[str]:
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join("---" for _ in rows[0]) + " |"]
        return out + ["| " + " | ".join(row) + " |" for row in rows[1:]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def text(job: Job, outcomes: list[Outcome], seed: int) -> str:
    lines = [
        "The false-alarm lab: " + header(job, seed) + ".",
        "",
        "What the threshold arithmetic promises for the receive-clock timeout (at most "
        "n * p**k false alarms), and what it measured, with > and (the last column) with >=:",
        "",
        *table(headline(outcomes)),
        "",
        *chart(outcomes),
    ]
    for o in outcomes:
        lines += ["", f"{o.cause.name}: {o.cause.what}.", *table(qualities(o))]
        lines.append(_notes(o, job))
    return "\n".join(lines)


def _notes(outcome: Outcome, job: Job) -> str:
    hung = outcome.hung_detection
    found = "never" if hung is None else f"{hung / 1000:.1f} s after it hung"
    note = (
        f"  the hung rank 1: no liveness detector ever reports it; diagnose's stall rule "
        f"({job.stall_timeout / 1000:g} s without progress) does, {found}"
    )
    if outcome.cause.cascade and outcome.first_reported is not None:
        verdict = "the dead rank" if outcome.first_reported == DEAD else "not the dead rank"
        note += f"; of rank {DEAD} and the ranks blocked behind it, the longest silent is "
        note += f"rank {outcome.first_reported}: {verdict}"
    return note


def markdown(outcomes: list[Outcome]) -> str:
    """The headline table, its chart, and each detector's mistakes and detection time, as
    WRITEUP.md shows them."""
    lines = [*table(headline(outcomes), markdown=True), "", "```text", *chart(outcomes), "```", ""]
    rows = [["cause", *DETECTORS]]
    rows += [[o.cause.name, *(f"{q.mistakes:,}" for q in o.qualities)] for o in outcomes]
    base = outcomes[0]
    rows.append(
        [
            f"detects a death in ({base.cause.name})",
            *(
                "never" if q.detection is None else f"{q.detection / 1000:.1f} s"
                for q in base.qualities
            ),
        ]
    )
    lines += table(rows, markdown=True)
    return "\n".join(lines)


def as_json(job: Job, outcomes: list[Outcome], seed: int) -> dict[str, Any]:
    return {
        "job": header(job, seed),
        "causes": [
            {
                "cause": o.cause.name,
                "miss_probability": float(o.miss_probability),
                "k": o.k,
                "timeout": o.timeout,
                "predicted": o.predicted,
                "measured": o.measured,
                "measured_inclusive": o.inclusive,
                "heartbeats": o.heartbeats,
                "hung_detected_after": o.hung_detection,
                "detectors": [
                    {
                        "detector": q.detector,
                        "mistakes": q.mistakes,
                        "mistake_rate": q.mistake_rate,
                        "mistake_duration": q.mistake_duration,
                        "accuracy": q.accuracy,
                        "detection": q.detection,
                        "faults": q.faults,
                    }
                    for q in o.qualities
                ],
            }
            for o in outcomes
        ],
    }
