"""From a false-positive budget to a timeout, in exact arithmetic.

Model: each heartbeat slot of each rank is an *opportunity*; a heartbeat is
lost or later than the delay margin with probability p, independently.  A
healthy rank is falsely reported when k consecutive heartbeats miss, so over
n opportunities the expected number of false alarms is at most ``n * p**k``
(a union bound over where the run of misses starts).  The invariant
`misses_for_budget` keeps:

    k = min { k >= 1 : n * p**k <= budget }

Everything is a `Fraction`: at an exact boundary (p = 1/8, n = 8**7,
budget = 1) the float formula ``ceil(log(budget / n) / log(p))`` gives 8
where the answer is 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    """Return the smallest k >= 1 with ``opportunities * miss_probability**k <= budget``.

    A float is taken at its exact binary value (``Fraction(0.01)`` is not 1/100;
    pass ``Fraction(1, 100)`` for exactly one percent).

    Raises ValueError unless 0 <= miss_probability < 1, opportunities >= 0 and
    budget > 0: with p >= 1 or budget <= 0 no k exists.
    """
    p, allowed = Fraction(miss_probability), Fraction(budget)
    if not 0 <= p < 1:
        raise ValueError(f"miss_probability must be in [0, 1), got {miss_probability}")
    if opportunities < 0:
        raise ValueError(f"opportunities must be >= 0, got {opportunities}")
    if allowed <= 0:
        raise ValueError(f"budget must be > 0, got {budget}")

    def over_budget(k: int) -> bool:
        return opportunities * p**k > allowed

    # Expected false alarms fall as k grows, so search: double until within
    # budget, then bisect.  O(log k) exact powers instead of k multiplications.
    high = 1
    while over_budget(high):
        high *= 2
    low = high // 2  # over budget, or 0 when high == 1
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if over_budget(middle) else (low, middle)
    return high


@dataclass(frozen=True)
class Threshold:
    """A timeout chosen for a false-alarm budget, with the arithmetic behind it.

    Times are in any one unit (ticks, ms, s): `interval` between heartbeats,
    `horizon` over which at most `budget` false alarms are expected, and
    `delay`, the margin a heartbeat may be late and still not count as missed.
    """

    interval: int
    miss_probability: Fraction
    ranks: int
    horizon: int
    budget: Fraction
    delay: int = 0

    def __post_init__(self) -> None:
        if self.interval <= 0 or self.horizon < 0 or self.ranks < 0 or self.delay < 0:
            raise ValueError("interval must be > 0; horizon, ranks and delay >= 0")

    @property
    def opportunities(self) -> int:
        """Heartbeat slots over the horizon: ranks x horizon / interval, rounded up."""
        return ceil(Fraction(self.ranks * self.horizon, self.interval))

    @property
    def k(self) -> int:
        """Consecutive misses needed before a rank is reported."""
        return misses_for_budget(
            miss_probability=self.miss_probability,
            opportunities=self.opportunities,
            budget=self.budget,
        )

    @property
    def timeout(self) -> int:
        """Report a rank once silent for more than this: k intervals plus the delay margin."""
        return self.k * self.interval + self.delay

    @property
    def expected_false_alarms(self) -> Fraction:
        """The bound n * p**k on false alarms over the horizon (<= budget)."""
        return self.opportunities * self.miss_probability**self.k

    @property
    def detection_time(self) -> tuple[int, int]:
        """Shortest and longest time from a death to its report.

        A rank dies between two heartbeats; it is reported `timeout` after the
        last one it sent, so between (k-1) and k intervals after it died, plus delay.
        """
        return (self.k - 1) * self.interval + self.delay, self.timeout
