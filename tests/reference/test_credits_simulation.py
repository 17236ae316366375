"""The credit scheduler's simulation: priority starves, fair share divides by weight."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction

import pytest

from tests.support.cli_runs import python_m
from variants.credits.simulation import ACCOUNTS, contend

pytestmark = pytest.mark.reference


def test_by_priority_the_priority_account_takes_every_gpu() -> None:
    shares = {s.account: s for s in contend(fair=False, ticks=5_000)}
    assert shares["research"].share == 1
    assert shares["prod"].jobs == shares["batch"].jobs == 0
    assert shares["prod"].longest_wait == 5_000  # waiting still, since the first tick


def test_fair_share_divides_the_gpus_by_weight() -> None:
    """Weights 1, 2, 1: a quarter, a half, a quarter, within a percent over 20,000 ticks."""
    total = sum(weight for _, weight, _ in ACCOUNTS)
    for share in contend(fair=True):
        assert abs(share.share - Fraction(share.weight, total)) < Fraction(1, 100), share


def test_a_run_is_reproducible_from_its_seed_and_another_seed_differs() -> None:
    assert contend(fair=True, seed=3, ticks=2_000) == contend(fair=True, seed=3, ticks=2_000)
    assert contend(fair=True, seed=3, ticks=2_000) != contend(fair=True, seed=4, ticks=2_000)


def test_the_command_prints_text_and_json() -> None:
    def command(*flags: str) -> subprocess.CompletedProcess[str]:
        return python_m("variants", "credits", *flags)

    text = command()
    assert text.returncode == 0, text.stderr
    assert "by fair share:" in text.stdout
    report = json.loads(command("--json").stdout)
    assert set(report) == {"priority", "fair share"}
    bad = command("--seed", "one")
    assert bad.returncode == 2
    assert "'one' is not an integer" in bad.stderr
