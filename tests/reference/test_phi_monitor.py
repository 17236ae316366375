"""PhiMonitor: phi accrual for a job, asking only the ranks that could be suspicious."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.cost import growth, work
from solution.diagnosis import PhiAccrual
from solution.diagnosis.phi_monitor import PhiMonitor

pytestmark = pytest.mark.reference

RANKS = 4
steps = st.lists(
    st.tuples(st.sampled_from(["beat", "check"]), st.integers(0, RANKS - 1), st.integers(0, 2_500)),
    max_size=40,
)


@given(steps, st.sampled_from([0.2, 1.0, 8.0]), st.sampled_from([0, 500, 3_000]))
def test_it_suspects_exactly_the_ranks_whose_detector_is_not_available(
    script: list[tuple[str, int, int]], threshold: float, pause: int
) -> None:
    """Beside one plain detector per rank on the same clock, after any beats and silences."""
    clock = [0]
    settings = {"threshold": threshold, "acceptable_heartbeat_pause": pause}
    monitor = PhiMonitor(RANKS, clock=lambda: clock[0], **settings)
    plain = [PhiAccrual(clock=lambda: clock[0], **settings) for _ in range(RANKS)]  # type: ignore[arg-type]
    beaten: set[int] = set()
    for kind, rank, wait in script:
        clock[0] += wait
        if kind == "beat":
            monitor.beat(rank)
            plain[rank].heartbeat()
            beaten.add(rank)
        else:
            expected = sorted(r for r in beaten if not plain[r].is_available())
            assert monitor.suspected() == expected


def test_a_check_of_a_healthy_job_costs_the_same_at_eight_times_the_ranks() -> None:
    """Every rank beaten at 0, the check at 1 s: no rank's time has come, none is asked."""

    def per_check(size: int) -> float:
        clock = [0]
        monitor = PhiMonitor(size, clock=lambda: clock[0])
        for rank in range(size):
            monitor.beat(rank)
        clock[0] = 1_000
        return work(lambda: [monitor.suspected() for _ in range(20)]) / 20

    small, large, grew = growth(per_check, 200)
    assert grew <= 1.5, (small, large)


def test_a_rank_out_of_the_world_is_refused() -> None:
    monitor = PhiMonitor(2, clock=lambda: 0)
    with pytest.raises(ValueError, match="outside"):
        monitor.beat(2)
