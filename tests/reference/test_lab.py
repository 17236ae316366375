"""The false-alarm lab: its detectors are the real ones, and its findings hold on every seed.

The lab works per suspicion, not per tick, to simulate a day of a large job
in seconds; the first tests hold it to the detectors themselves, tick by
tick, on small traces: `detect`, `PhiAccrual`, `guard_mass_silence`.  The
others check its findings with fixed seeds and stated tolerances.
"""

from __future__ import annotations

import json
import math
import subprocess
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.exercises import ROOT
from solution.detector import Heartbeat, detect
from solution.diagnosis import PhiAccrual
from solution.lab import Job, Outcome, causes, run
from solution.lab import detectors as lab
from solution.lab.scenarios import DEAD
from solution.lab.trace import Trace
from tests.reference.lab_checks import assert_the_guard_holds
from tests.support.cli_runs import python_m

pytestmark = pytest.mark.reference

END = 400
receipts = st.lists(st.integers(0, END - 1), max_size=14).map(sorted)


def _ticks(suspicions: list[lab.Suspicion]) -> set[int]:
    return {t for _, start, end in suspicions for t in range(start, end)}


@given(receipts, st.integers(0, 60), st.booleans())
def test_the_labs_timeout_suspects_exactly_when_detect_reports(
    heard: list[int], limit: int, strict: bool
) -> None:
    """At every tick, the rank is suspected iff detect (or its >= twin) reports it."""
    suspected = _ticks(lab.timeout(Trace(0, heard, heard, None, None), limit, END, strict=strict))
    for now in range(END):
        beats = [Heartbeat(0, t, t) for t in heard if t <= now]
        if strict:
            reported = bool(detect(beats, world_size=1, start=0, now=now, timeout=limit))
        else:
            last = max((b.received_at for b in beats), default=0)
            reported = now - last >= limit
        assert (now in suspected) == reported, (now, heard, limit)


@given(receipts, st.integers(1, 20), st.integers(0, 2_000), st.integers(10, 200))
def test_the_labs_phi_suspects_exactly_when_phi_accrual_does(
    heard: list[int], window: int, pause: int, first: int
) -> None:
    """PhiAccrual fed the same heartbeats, asked at every tick: unavailable iff suspected."""
    heard = sorted(set(heard))
    settings = {
        "max_sample_size": window,
        "min_std_deviation": 5,
        "first_heartbeat_estimate": first,
    }
    trace = Trace(0, heard, heard, None, None)
    suspected = _ticks(
        lab.phi_accrual(trace, END, window=window, floor=5, pause=pause, first=first)
    )
    clock = [0]
    detector = PhiAccrual(clock=lambda: clock[0], acceptable_heartbeat_pause=pause, **settings)
    beats = set(heard)
    for now in range(END):
        clock[0] = now
        if now in beats:
            detector.heartbeat()
        assert (now in suspected) == (not detector.is_available()), (now, heard)


@given(
    st.lists(st.lists(st.integers(0, 120), max_size=4).map(sorted), min_size=4, max_size=4),
    st.integers(5, 25),
)
def test_the_labs_guard_reports_what_the_guard_and_its_hold_say(
    heard_by_rank: list[list[int]], limit: int
) -> None:
    """Four ranks, the guard read at every tick.  A rank is reported iff it is suspected,
    not in the guard's fault, and for one window has been suspected and out of any fault."""
    assert_the_guard_holds(heard_by_rank, limit, tick=1)


JOB = Job()


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Outcome]:
    return {cause.name: run(JOB, cause, seed=1) for cause in causes(JOB)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_independent_misses_keep_the_arithmetics_promise(seed: int) -> None:
    """10% loss and a budget of 100 over 2 h of 64 ranks: n * p**k is 46 false alarms; the
    measured count stays within three standard deviations (Poisson) of at most that."""
    job = Job(ranks=64, hours=2, loss=Fraction(1, 10), budget=Fraction(100))
    outcome = run(job, causes(job)[0], seed=seed)
    assert outcome.predicted == pytest.approx(46.08)
    assert outcome.measured <= outcome.predicted + 3 * math.sqrt(outcome.predicted)
    assert outcome.measured > 0  # the count is a real measurement, not an empty one


def test_every_correlated_cause_breaks_the_promise(outcomes: dict[str, Outcome]) -> None:
    for cause in causes(JOB):
        outcome = outcomes[cause.name]
        if cause.independent:
            assert outcome.measured <= outcome.predicted + 3 * math.sqrt(outcome.predicted) + 1
        else:
            assert outcome.measured > 10 * outcome.predicted, cause.name


def test_the_guard_turns_a_collector_stall_into_faults_not_deaths(
    outcomes: dict[str, Outcome],
) -> None:
    stall = outcomes["collector stall"]
    plain, guarded = stall.quality("timeout >"), stall.quality("timeout > + guard")
    assert plain.mistakes >= 2 * (JOB.ranks - 1)  # two stalls: every live rank, twice
    assert guarded.mistakes <= plain.mistakes // 50
    assert guarded.faults == 2


def test_the_guard_never_hides_the_death(outcomes: dict[str, Outcome]) -> None:
    for outcome in outcomes.values():
        for detector in ("timeout > + guard", "phi + guard"):
            assert outcome.quality(detector).detection is not None, (outcome.cause.name, detector)


def test_a_hung_rank_is_invisible_to_liveness_and_seen_by_its_progress(
    outcomes: dict[str, Outcome],
) -> None:
    independent = outcomes["independent loss"]
    assert independent.hung_detection is not None
    assert JOB.stall_timeout < independent.hung_detection <= JOB.stall_timeout + 2 * JOB.interval
    assert independent.quality("timeout >").mistakes == 0  # the hung rank kept beating


def test_in_a_cascade_the_dead_rank_is_the_longest_silent(outcomes: dict[str, Outcome]) -> None:
    assert outcomes["cascade"].first_reported == DEAD


def test_trusting_sender_clocks_is_wrong_for_hours(outcomes: dict[str, Outcome]) -> None:
    clocks = outcomes["sender clocks"]
    assert clocks.quality("timeout >").mistakes == 0
    sent_at = clocks.quality("sent_at")
    assert sent_at.mistakes == 2
    assert sent_at.mistake_duration > 20 * 60_000


def test_a_run_is_reproducible_from_its_seed() -> None:
    bursty = causes(JOB)[2]
    assert run(JOB, bursty, seed=5) == run(JOB, bursty, seed=5)
    assert run(JOB, bursty, seed=5) != run(JOB, bursty, seed=6)


def test_the_command_prints_text_json_and_markdown() -> None:
    def lab_command(*flags: str) -> subprocess.CompletedProcess[str]:
        return python_m("solution", "lab", "--cause", "collector stall", *flags)

    text = lab_command()
    assert text.returncode == 0, text.stderr
    assert "collector stall" in text.stdout
    assert "measured / predicted" in text.stdout
    report = json.loads(lab_command("--json").stdout)
    assert [c["cause"] for c in report["causes"]] == ["collector stall"]
    assert lab_command("--markdown").stdout.startswith("| cause |")
    bad = lab_command("--ranks", "8")
    assert bad.returncode == 2
    assert "must be between 16" in bad.stderr


def test_the_writeups_tables_are_the_commands_output() -> None:
    """WRITEUP.md's section 7 shows `python -m solution lab --markdown`, word for word."""
    text = (ROOT / "WRITEUP.md").read_text(encoding="utf-8")
    begin, end = (
        "<!-- python -m solution lab --markdown -->\n",
        "\n<!-- end of the lab's output -->",
    )
    shown = text[text.index(begin) + len(begin) : text.index(end)]
    done = python_m("solution", "lab", "--markdown")
    assert shown == done.stdout.rstrip("\n"), "regenerate it: python -m solution lab --markdown"
