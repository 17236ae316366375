"""The retry simulations: the published ordering of schedules, and the load arithmetic."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from kata.exercises import ROOT
from variants.retry.simulation import (
    BUDGETS,
    contention,
    contention_table,
    outage,
    study,
    study_table,
)

pytestmark = pytest.mark.reference


@pytest.mark.parametrize("first_seed", [1, 1_001])
def test_no_jitter_does_the_most_work_and_takes_the_longest(first_seed: int) -> None:
    table = contention_table([10, 25, 50, 100], seeds=20, first_seed=first_seed)
    for column in range(4):
        calls = {schedule: rows[column][1] for schedule, rows in table.items()}
        times = {schedule: rows[column][2] for schedule, rows in table.items()}
        assert max(calls, key=calls.__getitem__) == "no jitter", calls
        assert max(times, key=times.__getitem__) == "no jitter", times


@pytest.mark.parametrize("first_seed", [1, 1_001])
def test_full_jitter_does_less_work_than_equal_jitter(first_seed: int) -> None:
    table = contention_table([10, 25, 50, 100], seeds=20, first_seed=first_seed)
    for full, equal in zip(table["full jitter"], table["equal jitter"], strict=True):
        assert full[1] < equal[1], (full, equal)


def test_a_run_is_reproducible_from_its_seed_and_another_seed_differs() -> None:
    assert contention(30, "full jitter", seed=5) == contention(30, "full jitter", seed=5)
    assert contention(30, "full jitter", seed=5) != contention(30, "full jitter", seed=6)
    assert outage("3 attempts", seed=5) == outage("3 attempts", seed=5)
    assert outage("3 attempts", seed=5) != outage("3 attempts", seed=6)
    assert study(30, "full jitter", seed=5) == study(30, "full jitter", seed=5)
    assert study(30, "full jitter", seed=5) != study(30, "full jitter", seed=6)


@pytest.mark.parametrize("first_seed", [1, 1_001])
def test_the_study_reproduces_the_posts_conclusions(first_seed: int) -> None:
    """In the study's setup, on two sets of seeds, N = 50 and 100: no jitter is the clear loser
    (the longest by far, and more work than any jittered schedule); backoff without jitter
    saves little work over no backoff at all; equal jitter does more work than full jitter and
    takes longer; full jitter does less work than decorrelated, which finishes sooner."""
    table = study_table([50, 100], seeds=20, first_seed=first_seed)
    for column in range(2):
        calls = {schedule: rows[column][1] for schedule, rows in table.items()}
        time = {schedule: rows[column][2] for schedule, rows in table.items()}
        jittered = ("full jitter", "equal jitter", "decorrelated jitter")
        assert max(time, key=time.__getitem__) == "no jitter", time
        assert all(calls["no jitter"] > calls[s] for s in jittered), calls
        assert calls["no jitter"] > calls["no backoff"] * Fraction(7, 10), calls
        assert calls["equal jitter"] > calls["full jitter"], calls
        assert time["equal jitter"] > time["full jitter"], time
        assert calls["decorrelated jitter"] > calls["full jitter"], calls
        assert time["decorrelated jitter"] < time["full jitter"], time


def test_outage_load_matches_the_arithmetic() -> None:
    """Up to 3 attempts at f = 1: 1 + 1 + 1 = 3x; a 10% budget: 1.1x plus its reserve."""
    runs = {budget: outage(budget, seed=1) for budget in BUDGETS}
    assert runs["no retries"].amplification == 1
    assert Fraction(29, 10) <= runs["3 attempts"].amplification <= 3
    reserve = Fraction(10 * 10, runs["3 attempts, 10% budget"].offered)  # 10 processes x 10
    assert runs["3 attempts, 10% budget"].amplification <= Fraction(11, 10) + reserve
    assert runs["3 attempts, token bucket"].amplification <= Fraction(105, 100)


def test_retries_without_a_budget_overload_the_server_after_it_recovers() -> None:
    runs = {budget: outage(budget, seed=1) for budget in BUDGETS}
    assert runs["3 attempts"].drain > 0
    assert runs["3 attempts, token bucket"].drain == 0
    assert runs["no retries"].drain == 0


def test_the_command_prints_the_simulations_and_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "variants", "retry", "--seeds", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "The AWS Architecture Blog's experiment, in its own setup" in done.stdout
    assert "This project's model: every client starts at tick 0" in done.stdout
    assert "3 attempts, token bucket" in done.stdout
    as_json = subprocess.run(
        [sys.executable, "-m", "variants", "retry", "--seeds", "3", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    report = json.loads(as_json.stdout)
    assert set(report) == {"study", "contention", "outage"}
    bad = subprocess.run(
        [sys.executable, "-m", "variants", "retry", "--seeds", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (bad.returncode, "--seeds: must be between 1 and 1,000" in bad.stderr) == (2, True)
    huge = subprocess.run(
        [sys.executable, "-m", "variants", "retry", "--seeds", "10" + "0" * 30],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert huge.returncode == 2, huge.stderr
    assert "--seeds: must be between 1 and 1,000" in huge.stderr
