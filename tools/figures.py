"""The write-up's figures, drawn by the code into docs/figures/NAME.svg.

    python -m tools.figures            # draw every figure (or: python -m tools.figures NAME ...)
    python -m tools.figures --check    # exit 1, naming each figure that differs from its file

Each figure's data comes from the functions WRITEUP.md's doctests call, with
the doctests' own arguments, so a figure shows the numbers the text states
and checks.  The bytes are reproducible: one pinned matplotlib (the `figures`
extra), the SVG backend, a fixed hash salt, no date, text kept as text in
the font matplotlib ships, and matplotlib's default style whatever a
matplotlibrc says.  tests/reference/test_figures.py redraws each figure and
compares it with its file.
"""

from __future__ import annotations

import argparse
import inspect
import io
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from math import log10
from pathlib import Path
from random import Random
from statistics import NormalDist
from typing import Any

import matplotlib
import matplotlib.style
from cycler import cycler

matplotlib.use("svg")  # set before anything draws: the bytes are the SVG backend's

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from solution import Heartbeat, Stopped, detect
from solution.diagnosis.phi import PhiAccrual
from solution.lab import Job, causes, run
from solution.lab.run import plan
from variants.batcher.simulation import RATES, SATURATED, WAITS, Load, Result, capacity, grid
from variants.jobs.backends import SqliteStore
from variants.jobs.intake import read_requests
from variants.jobs.store import Fenced, Lease, Settings
from variants.quotas.simulation import POLICIES, QUOTAS, simulate
from variants.quotas.simulation import Result as Day
from variants.retry.simulation import BUDGETS, outage, study_table

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "figures"
REDRAW = "python -m tools.figures"

# Okabe and Ito's palette: told apart with any of the common colour-vision deficiencies.
BLACK, ORANGE, SKY, GREEN, BLUE, VERMILION, PURPLE = (
    "#000000",
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
)
GREY = "#999999"

STYLE: dict[RcKeyType, Any] = {
    "svg.hashsalt": "heartbeat-kata",  # the clip paths' ids: fixed, not random per run
    "svg.fonttype": "none",  # text as text: smaller, searchable, and the same bytes each run
    # Laid out in DejaVu Sans, shipped with matplotlib: the same metrics on every machine.
    # The SVG names it, then sans-serif, for a reader's browser that lacks it.
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.titlesize": 10,
    "figure.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=[BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY]),
    "legend.frameon": False,
    "figure.dpi": 100,
}
WIDE = (7.5, 3.4)  # inches: one row of panels
TALL = (7.5, 5.6)  # inches: two rows


@contextmanager
def drawing() -> Iterator[None]:
    """Matplotlib's default style, then the project's: no matplotlibrc changes a byte."""
    with matplotlib.style.context("default"), matplotlib.rc_context(STYLE):
        yield


def svg(figure: Figure) -> bytes:
    """The figure as SVG bytes, with no date in them (the one metadata that varies)."""
    out = io.BytesIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def _default(function: Callable[..., Any], parameter: str) -> Any:
    """A keyword's default, so a figure follows the simulation's own setting."""
    return inspect.signature(function).parameters[parameter].default


# --- The boundary: WRITEUP section 4's doctest --------------------------------------------

BOUNDARY_LOG = [Heartbeat(0, 0, 3)]  # rank 0: sent at 0 by its clock, received at 3 by ours
BOUNDARY_TIMEOUT = 5
BOUNDARY_NOWS = range(3, 11)


def boundary_reports() -> dict[int, list[Stopped]]:
    """`detect` as of each tick, as section 4 asks it at 8 and at 9."""
    return {
        now: detect(BOUNDARY_LOG, world_size=1, start=0, now=now, timeout=BOUNDARY_TIMEOUT)
        for now in BOUNDARY_NOWS
    }


def draw_boundary() -> Figure:
    reports = boundary_reports()
    beat = BOUNDARY_LOG[0]
    due = beat.received_at + BOUNDARY_TIMEOUT
    figure = Figure(figsize=(7.5, 3.2), layout="constrained")
    ax = figure.add_subplot()
    ax.set_title(
        f"The boundary: exactly timeout late is due, not missed (timeout {BOUNDARY_TIMEOUT})"
    )
    ax.axvspan(beat.received_at, due, color=SKY, alpha=0.2, lw=0)
    ax.text((beat.received_at + due) / 2, 2.45, "silence <= timeout: not reported", ha="center")
    _draw_clocks(ax, beat, due)
    ax.axvline(due, color=BLUE, ls="--", lw=1)
    ax.axvline(due + 1, color=VERMILION, lw=1)
    _draw_reports(ax, reports)
    ax.set_yticks([0, 1, 2], ["detect(now)", "collector's clock", "sender's clock"])
    ax.set_ylim(-1.25, 2.7)
    ax.set_xlim(-0.5, max(BOUNDARY_NOWS) + 0.5)
    ax.set_xticks(range(max(BOUNDARY_NOWS) + 1))
    ax.set_xlabel("now, on the collector's monotonic clock (ticks; a heartbeat due every tick)")
    return figure


def _draw_clocks(ax: Axes, beat: Heartbeat, due: int) -> None:
    """The heartbeat on both clocks, and the beats due after it on the collector's."""
    ax.annotate(
        "",
        xy=(beat.received_at, 1),
        xytext=(beat.sent_at, 2),
        arrowprops={"arrowstyle": "->", "color": GREY, "linestyle": "--"},
    )
    ax.plot([beat.sent_at], [2], "o", color=GREY)
    ax.text(beat.sent_at + 0.2, 2.1, f"sent_at {beat.sent_at}: never compared", color=GREY)
    ax.plot([beat.received_at], [1], "o", color=BLUE, markersize=8)
    ax.text(beat.received_at + 0.1, 0.72, f"received_at {beat.received_at}: last heard")
    slots = range(beat.received_at + 1, due + 1)
    ax.plot(slots, [1] * len(slots), "o", mfc="none", color=BLUE)
    ax.text(
        due - 0.1, 1.2, f"k = {len(slots)}: beat {len(slots)} due at {due}", color=BLUE, ha="right"
    )


def _draw_reports(ax: Axes, reports: dict[int, list[Stopped]]) -> None:
    """One mark per `now`: hollow while detect returns [], filled once it reports the rank."""
    for now, stopped in reports.items():
        colour = VERMILION if stopped else BLUE
        ax.plot([now], [0], "s", color=colour, mfc=colour if stopped else "none")
    quiet = max(now for now, stopped in reports.items() if not stopped)
    first = min(now for now, stopped in reports.items() if stopped)
    silence = quiet - BOUNDARY_LOG[0].received_at
    ax.text(
        quiet - 0.1,
        -0.3,
        f"now {quiet}: silence {silence} = timeout\n[]: due, not missed",
        ha="right",
        va="top",
        color=BLUE,
    )
    told = reports[first][0]
    ax.text(
        first + 0.1,
        -0.3,
        f"now {first}: silence {told.silence} > {BOUNDARY_TIMEOUT}\nreported",
        va="top",
        color=VERMILION,
    )


# --- False alarms against k: WRITEUP sections 6 and 7 -------------------------------------

LOSSY = Job(ranks=64, hours=2, loss=Fraction(1, 10), budget=Fraction(100))  # section 7
KS = range(2, 7)  # k = 1 would take the lab longer than all the other figures together


@dataclass(frozen=True)
class AlarmSeries:
    label: str
    interval: int  # ms between heartbeats
    delay: int  # ms of margin: the timeout is k intervals plus this
    predicted: list[float]  # n * p**k, the threshold arithmetic's bound
    measured: list[int]  # the lab's false alarms of the receive-clock timeout `>`


def alarm_series(job: Job, cause_name: str, seed: int = 1) -> AlarmSeries:
    """The lab's run of `cause_name` with the timeout set to k intervals plus the margin."""
    cause = next(c for c in causes(job) if c.name == cause_name)
    threshold = plan(job, cause)
    predicted = [float(threshold.opportunities * threshold.miss_probability**k) for k in KS]
    interval, delay = threshold.interval, threshold.delay
    measured = [run(job, cause, seed=seed, timeout=k * interval + delay).measured for k in KS]
    p = float(threshold.miss_probability)
    label = f"{cause_name}, p = {p:g} ({job.ranks} ranks, {job.hours} h)"
    return AlarmSeries(label, interval, delay, predicted, measured)


def draw_false_alarms() -> Figure:
    lossy, bursty = alarm_series(LOSSY, "independent loss"), alarm_series(Job(), "bursty loss")
    figure = Figure(figsize=WIDE, layout="constrained")
    ax = figure.add_subplot()
    ax.set_title("False alarms in the run against k: the arithmetic's bound and the lab's count")
    for series, colour, left in ((lossy, BLUE, True), (bursty, VERMILION, False)):
        ax.plot(KS, series.predicted, "--", color=colour, label=f"{series.label}: n * p**k")
        _draw_measured(ax, series, colour, left=left)
    ax.set_yscale("log")
    ax.set_ylim(ZERO * 0.6, 2e5)
    ax.set_xticks(list(KS))
    ax.set_xlim(min(KS) - 0.4, max(KS) + 0.4)
    timeout = f"k x {lossy.interval} ms + {lossy.delay} ms"
    if (bursty.interval, bursty.delay) != (lossy.interval, lossy.delay):
        timeout += f"; bursty: k x {bursty.interval} ms + {bursty.delay} ms"
    ax.set_xlabel(f"k: misses in a row before a report (timeout {timeout})")
    ax.set_ylabel("false alarms over the run (log)")
    ax.legend(loc="upper right", fontsize=8)
    return figure


ZERO = 0.03  # where a count of 0, which a log axis cannot show, is marked


def _draw_measured(ax: Axes, series: AlarmSeries, colour: str, *, left: bool) -> None:
    """The lab's counts joined by a line; a 0 marked apart, on the axis floor."""
    counted = [(k, m) for k, m in zip(KS, series.measured, strict=True) if m]
    ax.plot(*zip(*counted, strict=True), "o-", color=colour, label=f"{series.label}: measured")
    zeros = [k for k, m in zip(KS, series.measured, strict=True) if not m]
    ax.plot(zeros, [ZERO] * len(zeros), "v", color=colour)
    offset, align = ((-7, -10), "right") if left else ((6, 5), "left")
    for k, m in zip(KS, series.measured, strict=True):
        ax.annotate(
            f"{m:,}",
            (k, m or ZERO),
            textcoords="offset points",
            xytext=offset,
            ha=align,
            color=colour,
            fontsize=8,
        )


# --- Phi through a pause: WRITEUP section 9 and solution/diagnosis ------------------------

ARRIVALS = NormalDist(mu=1000, sigma=100)  # section 9's doctest: a beat a second, 100 ms std
PHI_THRESHOLD = 8.0
INTERVAL_MS = 1_000
BEATS = 20
SILENCES = range(0, 5_001)  # ms after the last heartbeat, every one: the crossing exactly
PHI_TOP = 12.0
PHI_SAMPLE = 1_300  # section 9's doctest: phi after 1.3 s of silence


def normal_phi(silence: int) -> float:
    """Section 9's phi: -log10 of the chance a heartbeat is still this late."""
    return -log10(1 - ARRIVALS.cdf(silence))


def accrual_phis(pause: int) -> list[float]:
    """`PhiAccrual` for a rank that beat every second, then fell silent: phi each ms after."""
    now = [0]
    detector = PhiAccrual(clock=lambda: now[0], acceptable_heartbeat_pause=pause)
    for beat in range(BEATS):
        now[0] = beat * INTERVAL_MS
        detector.heartbeat()
    last = now[0]
    phis = []
    for silence in SILENCES:
        now[0] = last + silence
        phis.append(detector.phi())
    return phis


def crossing(phis: Sequence[float]) -> int:
    """The first silence at which phi reaches the threshold: the rank is then suspected."""
    return next(s for s, phi in zip(SILENCES, phis, strict=True) if phi >= PHI_THRESHOLD)


def draw_phi() -> Figure:
    figure = Figure(figsize=WIDE, layout="constrained")
    ax = figure.add_subplot()
    ax.set_title("Phi rising through a pause, after a heartbeat every second")
    shown = [s for s in SILENCES if s % 20 == 0]  # a point every 20 ms draws a smooth curve
    _draw_normal(ax, shown)
    for pause, colour, style in ((0, BLUE, "--"), (3_000, VERMILION, "-")):
        _draw_accrual(ax, shown, pause, colour, style)
    ax.axhline(PHI_THRESHOLD, color=GREY, lw=1, ls=":")
    ax.text(3_000, PHI_THRESHOLD + 0.3, "threshold 8: suspected", ha="center", color=GREY)
    ax.set_ylim(0, PHI_TOP)
    ax.set_xlim(0, max(SILENCES))
    ax.set_xlabel("silence since the last heartbeat (ms)")
    ax.set_ylabel("phi = -log10 P(still this late)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.58, 0.98), fontsize=8)
    return figure


def _draw_normal(ax: Axes, shown: list[int]) -> None:
    """Section 9's curve, and its two doctested points: phi at 1.3 s, and where it reaches 8."""
    exact = [s for s in shown if 1 - ARRIVALS.cdf(s) > 10**-PHI_TOP]  # before 1 - cdf rounds to 0
    label = "normal, mean 1 s, std 100 ms (section 9, exact)"
    ax.plot(exact, [normal_phi(s) for s in exact], color=BLACK, label=label)
    at = round(ARRIVALS.inv_cdf(1 - 10**-PHI_THRESHOLD))
    ax.plot([PHI_SAMPLE, at], [normal_phi(PHI_SAMPLE), PHI_THRESHOLD], "o", color=BLACK)
    text = f"{normal_phi(PHI_SAMPLE):.2f} at {PHI_SAMPLE:,} ms"
    ax.annotate(
        text, (PHI_SAMPLE, normal_phi(PHI_SAMPLE)), xytext=(8, -4), textcoords="offset points"
    )
    ax.annotate(f"{at:,} ms", (at, PHI_THRESHOLD), xytext=(-44, 6), textcoords="offset points")


def _draw_accrual(ax: Axes, shown: list[int], pause: int, colour: str, style: str) -> None:
    """PhiAccrual's curve for one acceptable pause, and the silence at which it suspects."""
    phis = accrual_phis(pause)
    label = f"PhiAccrual, {pause / 1000:g} s acceptable pause (Akka's logistic)"
    ax.plot(shown, [min(phis[s], PHI_TOP + 1) for s in shown], style, color=colour, label=label)
    suspected = crossing(phis)
    ax.plot([suspected], [PHI_THRESHOLD], "o", color=colour)
    ax.annotate(
        f"{suspected:,} ms",
        (suspected, PHI_THRESHOLD),
        xytext=(6, -12),
        textcoords="offset points",
        color=colour,
    )


# --- Retries: WRITEUP section 12 ----------------------------------------------------------

STUDY_SIZES = [10, 50, 100]  # section 12's doctest: study_table([10, 50, 100], seeds=20)
STUDY_SEEDS = 20
OUTAGE_SEED = 1
LOAD_TICKS = 100  # the outage's attempts summed over this many ticks: a readable line
STYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)))


def outage_load(budget: str) -> tuple[list[int], list[float]]:
    """Attempts per tick, averaged over each `LOAD_TICKS`, of section 12's outage run."""
    per_bucket = outage(budget, seed=OUTAGE_SEED).calls_per_bucket
    bucket = _default(outage, "bucket")
    step = LOAD_TICKS // bucket
    starts = range(0, len(per_bucket), step)
    return [i * bucket for i in starts], [
        sum(per_bucket[i : i + step]) / LOAD_TICKS for i in starts
    ]


def draw_retry() -> Figure:
    figure = Figure(figsize=TALL, layout="constrained")
    panels = figure.add_gridspec(2, 2, height_ratios=[1.1, 1])
    _draw_outage(figure.add_subplot(panels[0, :]))
    calls, done = figure.add_subplot(panels[1, 0]), figure.add_subplot(panels[1, 1])
    _draw_study(calls, done, study_table(STUDY_SIZES, seeds=STUDY_SEEDS))
    return figure


def _draw_outage(ax: Axes) -> None:
    begin, end = _default(outage, "down")
    capacity = _default(outage, "capacity") / _default(outage, "bucket")
    ax.axvspan(begin, end, color=GREY, alpha=0.2, lw=0)
    ax.text((begin + end) / 2, 3.3, "the server fails every call", ha="center", color=BLACK)
    for budget, style in zip(BUDGETS, STYLES, strict=False):
        ticks, load = outage_load(budget)
        wide = budget == BUDGETS[0]  # drawn first and wide: the budgets' lines lie on it
        ax.plot(ticks, load, linestyle=style, linewidth=3 if wide else 1.5, label=budget)
    ax.axhline(capacity, color=BLACK, lw=1, ls=":")
    ax.text(end + 300, capacity + 0.08, f"capacity once up: {capacity:g} a tick", color=BLACK)
    offered = _default(outage, "processes") / _default(outage, "period")
    ax.set_title(f"An outage: the load retries offer ({offered:g} request a tick, full jitter)")
    ax.set_xlabel("ticks")
    ax.set_ylabel(f"attempts a tick\n(mean of {LOAD_TICKS} ticks)")
    ax.set_ylim(0, 3.6)
    ax.legend(loc="upper right", fontsize=8)


def _draw_study(
    calls: Axes, done: Axes, table: dict[str, list[tuple[int, Fraction, Fraction]]]
) -> None:
    for (schedule, rows), style in zip(table.items(), STYLES, strict=True):
        sizes = [n for n, _, _ in rows]
        calls.plot(sizes, [float(c) for _, c, _ in rows], marker="o", ls=style, label=schedule)
        done.plot(sizes, [float(ms) for _, _, ms in rows], marker="o", ls=style, label=schedule)
    calls.set_title("Work: writes, conflicts included")
    calls.set_ylabel(f"writes (mean of {STUDY_SEEDS} runs)")
    done.set_title("Completion: the last client's write")
    done.set_ylabel(f"ms (mean of {STUDY_SEEDS} runs, log)")
    done.set_yscale("log")
    for ax in (calls, done):
        ax.set_xlabel("clients updating one row")
        ax.set_xticks(STUDY_SIZES)
    calls.legend(fontsize=7)


# --- The batcher: WRITEUP section 13 ------------------------------------------------------

BATCH_SIZE = 16  # of the grid's sizes, one that batching absorbs at both loads


def draw_batcher() -> Figure:
    figure = Figure(figsize=WIDE, layout="constrained")
    panels = figure.add_gridspec(1, 2, width_ratios=[1.4, 1])
    latency, served = figure.add_subplot(panels[0, 0]), figure.add_subplot(panels[0, 1])
    for rate, colour in zip(RATES, (BLUE, VERMILION), strict=True):
        _draw_waits(latency, grid(Load(rate=rate)), rate, colour)
    latency.set_title(f"Waiting buys GPU time with latency (max batch {BATCH_SIZE})")
    waits = ", ".join(str(w) for w in WAITS)
    latency.set_xlabel(f"GPU busy (% of the run); max wait {waits} ticks, right to left")
    latency.set_ylabel("latency (ticks): p50 solid, p99 dashed")
    latency.legend(fontsize=8, loc="upper right")
    _draw_capacity(served, capacity())
    return figure


def _draw_waits(ax: Axes, table: dict[tuple[int, int], Result], rate: float, colour: str) -> None:
    runs = {wait: result for (size, wait), result in table.items() if size == BATCH_SIZE}
    busy = [100 * r.gpu_share for r in runs.values()]
    ax.plot(
        busy, [r.p50 for r in runs.values()], "o-", color=colour, label=f"{rate} requests a tick"
    )
    ax.plot(busy, [r.p99 for r in runs.values()], "o--", color=colour, mfc="none")
    ends = [(min(runs), (0, -13)), (max(runs), (6, 3))]  # the first wait and the last only
    for wait, offset in ends:
        x, y = 100 * runs[wait].gpu_share, runs[wait].p50
        ax.annotate(
            f"wait {wait}",
            (x, y),
            xytext=offset,
            textcoords="offset points",
            fontsize=8,
            color=colour,
        )


def _draw_capacity(ax: Axes, runs: dict[int, Result]) -> None:
    places = range(len(runs))
    ax.bar(places, [r.throughput for r in runs.values()], color=GREEN)
    for place, result in zip(places, runs.values(), strict=True):
        ax.text(
            place,
            result.throughput + 4,
            f"{result.padding_share:.0%}\npadding",
            ha="center",
            fontsize=7,
        )
    ax.set_xticks(list(places), [str(size) for size in runs])
    ax.set_ylim(0, 1.3 * max(r.throughput for r in runs.values()))
    ax.set_title("Size buys throughput;\npadding eats it")
    ax.set_xlabel(f"max batch size ({SATURATED.rate:g} requests a tick)")
    ax.set_ylabel("requests a 1,000 ticks")


# --- GPU quotas: WRITEUP section 15 -------------------------------------------------------

TENANT_COLOURS = dict(zip((name for name, _ in QUOTAS), (BLUE, ORANGE, GREEN), strict=True))
WAIT_FLOOR = 1  # s: the log axis starts here; a p99 of 0 is written, not drawn


def draw_quotas() -> Figure:
    results = [simulate(policy) for policy in POLICIES]
    figure = Figure(figsize=(7.5, 3.6), layout="constrained")
    busy = figure.add_subplot(1, 2, 1)
    waits = figure.add_subplot(1, 2, 2, sharey=busy)
    waits.tick_params(labelleft=False)
    names = [r.policy for r in results]
    places = range(len(results))
    busy.barh(places, [100 * float(r.utilization) for r in results], color=SKY)
    for place, result in zip(places, results, strict=True):
        text = f"{float(result.utilization):.1%}, {float(result.lost_gpu_hours):.1f} GPU-h lost"
        busy.text(2, place, text, va="center", fontsize=8)
    busy.set_yticks(list(places), names)
    busy.invert_yaxis()
    busy.set_xlim(0, 100)
    busy.set_xlabel("GPUs busy (% of the day)")
    busy.set_title("Utilization, and work lost to preemption")
    _draw_waits_by_tenant(waits, results)
    return figure


def _draw_waits_by_tenant(ax: Axes, results: list[Day]) -> None:
    height = 0.8 / len(TENANT_COLOURS)
    for offset, (tenant, colour) in enumerate(TENANT_COLOURS.items()):
        for place, result in enumerate(results):
            wait = result.tenant(tenant).wait_p99
            y = place - 0.4 + height * (offset + 0.5)
            ax.barh(
                y,
                max(wait, WAIT_FLOOR) - WAIT_FLOOR,
                left=WAIT_FLOOR,
                height=height,
                color=colour,
                label=tenant if place == 0 else None,
            )
            ax.text(max(wait, WAIT_FLOOR) * 1.15, y, f"{wait:,} s", va="center", fontsize=6)
    ax.set_xscale("log")
    ax.set_xlim(WAIT_FLOOR, 10**7)
    ax.set_xlabel("p99 wait to start (s, log)")
    ax.set_title("Each tenant's p99 wait")
    ax.legend(fontsize=7, loc="lower right")


# --- The job service: WRITEUP section 17's doctest ----------------------------------------

LEASE_MS = 30_000
STILL_LIVE, EXPIRED, REDONE = 30_000, 30_001, 40_000  # the doctest's clock readings


@dataclass(frozen=True)
class JobsStory:
    """What section 17's doctest does, as the store answered it."""

    first: tuple[str, ...]  # gpu-a's claim at 0, then silence
    expired_at_live: list[int]  # expire() exactly lease_ms after: nothing
    expired_after: list[int]  # one ms later: gpu-a's requests
    second: tuple[tuple[str, int], ...]  # gpu-b's claim: (custom_id, attempt)
    refused: str  # gpu-a's late write, fenced
    attempts: dict[str, int]  # per request, in the results


def jobs_story() -> JobsStory:
    """Section 17's calls, with its arguments, on a store in memory and a clock in our hands."""
    now = [0]
    store = SqliteStore(
        ":memory:", Settings(lease_ms=LEASE_MS, max_attempts=3), clock=lambda: now[0]
    )
    try:
        # The doctest's three lines, byte for byte.
        lines = [
            json.dumps({"custom_id": f"q{n}", "params": {"prompt": "tell me a story"}})
            for n in range(3)
        ]
        store.submit("b1", read_requests(lines, source="b1.jsonl"))
        slow = _leased(store.claim("gpu-a", limit=2, rng=Random(1)))
        now[0] = STILL_LIVE
        live = store.expire(rng=Random(1))
        now[0] = EXPIRED
        expired = store.expire(rng=Random(1))
        now[0] = REDONE
        fast = _leased(store.claim("gpu-b", limit=3, rng=Random(1)))
        store.finish(fast.id, [(r.id, {"text": "once"}) for r in fast.requests], rng=Random(1))
        try:
            store.finish(slow.id, [(slow.requests[0].id, {"text": "late"})], rng=Random(1))
            refused = "written"
        except Fenced as fenced:
            refused = str(fenced)
        attempts = {line["custom_id"]: line["attempts"] for line in store.results("b1")}
    finally:
        store.close()
    return JobsStory(
        tuple(r.custom_id for r in slow.requests),
        live,
        expired,
        tuple((r.custom_id, r.attempt) for r in fast.requests),
        refused,
        attempts,
    )


def _leased(lease: Lease | None) -> Lease:
    if lease is None:
        raise RuntimeError("section 17's claim found nothing ready: the figure's story moved")
    return lease


def draw_jobs() -> Figure:
    story = jobs_story()
    rows = {custom_id: place for place, custom_id in enumerate(sorted(story.attempts))}
    late_row = len(rows)
    figure = Figure(figsize=(7.5, 3.0), layout="constrained")
    ax = figure.add_subplot()
    ax.set_title("The job service: a worker stops renewing, its lease expires, another redoes it")
    _draw_requests(ax, story, rows)
    _draw_expiry(ax, story, late_row)
    ax.set_yticks([*rows.values(), late_row], [*rows, "gpu-a's late write"])
    ax.set_ylim(late_row + 0.6, -0.6)
    ax.set_xlim(0, 70)
    ax.set_xlabel(f"the store's clock (s); a lease lasts {LEASE_MS // 1000} s unless renewed")
    return figure


def _draw_requests(ax: Axes, story: JobsStory, rows: dict[str, int]) -> None:
    """Each request's row: gpu-a's lease, the queue, and gpu-b's result."""
    for custom_id, row in rows.items():
        held = custom_id in story.first
        if held:
            _span(ax, row, 0, EXPIRED, VERMILION, "gpu-a's lease, never renewed")
        _span(ax, row, EXPIRED if held else 0, REDONE, GREY, "queued again" if held else "queued")
    for custom_id, attempt in story.second:
        ax.plot([REDONE / 1000], [rows[custom_id]], "o", color=GREEN)
        attempts = story.attempts[custom_id]
        text = f"gpu-b, attempt {attempt}: a result, {attempts} attempt{'s' * (attempts > 1)}"
        ax.text(REDONE / 1000 + 0.8, rows[custom_id], text, va="center", fontsize=8)


def _draw_expiry(ax: Axes, story: JobsStory, row: int) -> None:
    """The boundary of the lease (the two expire() calls) and gpu-a's write, refused."""
    ax.axvline(EXPIRED / 1000, color=VERMILION, lw=1, ls="--")
    text = (
        f"expire() at {STILL_LIVE:,} ms: {story.expired_at_live}, still live\n"
        f"at {EXPIRED:,} ms: {story.expired_after} ({', '.join(story.first)})"
    )
    ax.text(EXPIRED / 1000 - 0.4, row, text, ha="right", va="center", fontsize=8)
    ax.plot([REDONE / 1000], [row], "x", color=VERMILION, markersize=8)
    ax.text(REDONE / 1000 + 0.8, row, f"refused: {story.refused}", va="center", fontsize=8)


def _span(ax: Axes, row: int, begin: int, end: int, colour: str, label: str) -> None:
    """A request's state from `begin` to `end` ms, as a labelled bar."""
    ax.barh(row, (end - begin) / 1000, left=begin / 1000, height=0.55, color=colour, alpha=0.35)
    ax.text(begin / 1000 + 0.4, row, label, va="center", fontsize=8)


# --- Drawing and checking -----------------------------------------------------------------

FIGURES: dict[str, Callable[[], Figure]] = {
    "boundary": draw_boundary,
    "false_alarms": draw_false_alarms,
    "phi": draw_phi,
    "retry": draw_retry,
    "batcher": draw_batcher,
    "quotas": draw_quotas,
    "jobs": draw_jobs,
}


def path(name: str) -> Path:
    return FOLDER / f"{name}.svg"


def render(name: str) -> bytes:
    """Figure `name`, drawn now, as the bytes its file must hold."""
    with drawing():
        return svg(FIGURES[name]())


def problem(name: str) -> str | None:
    """What is wrong with figure `name`'s file, if anything, and how to mend it."""
    shown = path(name).relative_to(ROOT)
    if not path(name).is_file():
        return f"{shown} is missing: run {REDRAW}"
    if path(name).read_bytes() != render(name):
        return f"{shown} differs from what the code draws: run {REDRAW}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=REDRAW, description=__doc__.splitlines()[0], allow_abbrev=False
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"figures (all by default): {', '.join(FIGURES)}"
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a file differs; write nothing"
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in FIGURES]
    if unknown:
        parser.error(f"no figure {', '.join(unknown)}; the figures: {', '.join(FIGURES)}")
    names = args.names or list(FIGURES)
    return check(names) if args.check else draw(names)


def check(names: Sequence[str]) -> int:
    stale = 0
    for name in names:  # one line a figure, as it is drawn: the slowest take seconds
        found = problem(name)
        print(found or f"current {path(name).relative_to(ROOT)}", flush=True)
        stale += found is not None
    return 1 if stale else 0


def draw(names: Sequence[str]) -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in names:
        path(name).write_bytes(render(name))
        print(f"drew {path(name).relative_to(ROOT)} ({path(name).stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
