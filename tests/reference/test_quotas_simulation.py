"""The quota scheduler's day: what borrowing, reclaim and the guard each buy, and cost."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.cli_runs import python_m
from variants.quotas.simulation import POLICIES, simulate

pytestmark = pytest.mark.reference

HOURS = 6 * 3_600  # a quarter of the day: the same story, a quarter of the time


def test_borrowing_fills_what_hard_quotas_leave_idle() -> None:
    hard, borrowing = (simulate(p, ticks=HOURS) for p in POLICIES[:2])
    assert borrowing.utilization > hard.utilization
    assert borrowing.tenant("batch").wait_p50 < hard.tenant("batch").wait_p50


def test_reclaim_gives_the_guaranteed_tenant_its_wait_back_for_preemptions() -> None:
    """Without reclaim, research waits for the borrowers to end; with it, it does not."""
    no_reclaim, reclaim = simulate(POLICIES[1]), simulate(POLICIES[3])
    assert reclaim.tenant("research").wait_p99 < no_reclaim.tenant("research").wait_p99
    assert reclaim.preemptions > no_reclaim.preemptions


def test_the_guard_wastes_no_start() -> None:
    guarded, unguarded = simulate(POLICIES[2], ticks=HOURS), simulate(POLICIES[3], ticks=HOURS)
    assert sum(t.early for t in guarded.tenants) == 0
    assert sum(t.early for t in unguarded.tenants) > 0


def test_a_day_is_reproducible_from_its_seed_and_another_seed_differs() -> None:
    policy = POLICIES[2]
    assert simulate(policy, seed=3, ticks=HOURS) == simulate(policy, seed=3, ticks=HOURS)
    assert simulate(policy, seed=3, ticks=HOURS) != simulate(policy, seed=4, ticks=HOURS)


def test_the_command_prints_text_and_json() -> None:
    def command(*flags: str) -> subprocess.CompletedProcess[str]:
        return python_m("variants", "quotas", *flags)

    text = command()
    assert text.returncode == 0, text.stderr
    assert "borrowing + reclaim" in text.stdout
    report = json.loads(command("--json").stdout)
    assert set(report) == {policy.name for policy in POLICIES}
    bad = command("--seed", "one")
    assert bad.returncode == 2
    assert "'one' is not an integer" in bad.stderr
