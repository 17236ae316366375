"""Phi accrual (Hayashibara et al., 2004), as Akka computes it.

A fixed timeout asks "has it been silent for T?"; phi asks "how unlikely is
a silence this long, given the intervals seen so far?":

    phi(t) = -log10(1 - F(t)),   F the normal CDF of the recent inter-arrival times

with mean ``m + acceptable_heartbeat_pause`` and standard deviation
``max(s, min_std_deviation)`` (m and s over the last `max_sample_size`
intervals), and F Akka's logistic approximation,
``F(y) = 1 / (1 + exp(-y * (1.5976 + 0.070566 * y**2)))``, so that

    phi = log10(1 + exp(z)),   z = y * (1.5976 + 0.070566 * y**2),  y = (t - mean) / std.

A process is available while phi < threshold.  The history starts with two
made-up intervals, ``first_heartbeat_estimate`` -/+ a quarter of it (Akka's
bootstrap: one heartbeat and then silence still becomes suspicious), and an
interval is recorded only if the process was available when it ended (the
first interval after a suspicion would skew the statistics).

Exact where exactness is possible: intervals, their sums and the mean and
variance are integers and Fractions.  The square root, the exponential and
the logarithm are floats by nature; `phi` is computed in a form that never
overflows (Akka's literal ``exp`` overflows a Python float when the silence
is far below the mean) and agrees with the formula to 1e-12 relative error.
Defaults are Akka cluster's, in milliseconds: threshold 8, 1,000 samples,
100 ms minimum deviation, 3 s acceptable pause, 1 s first estimate.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from fractions import Fraction

LN10 = math.log(10)


class PhiAccrual:
    """The suspicion that one monitored process has failed, from its heartbeats.

    Time is the injected `clock` (integer ticks, milliseconds for the defaults),
    read once per call; a reading earlier than the one before raises ValueError.
    """

    def __init__(
        self,
        *,
        clock: Callable[[], int] = lambda: time.monotonic_ns() // 1_000_000,
        threshold: float = 8.0,
        max_sample_size: int = 1_000,
        min_std_deviation: int = 100,
        acceptable_heartbeat_pause: int = 3_000,
        first_heartbeat_estimate: int = 1_000,
    ) -> None:
        if not threshold > 0 or max_sample_size < 1 or min_std_deviation <= 0:
            raise ValueError("need threshold > 0, max_sample_size >= 1, min_std_deviation > 0")
        if acceptable_heartbeat_pause < 0 or first_heartbeat_estimate <= 0:
            raise ValueError("need acceptable_heartbeat_pause >= 0, first_heartbeat_estimate > 0")
        self.threshold, self.max_sample_size = threshold, max_sample_size
        self.min_std_deviation = min_std_deviation
        self.acceptable_heartbeat_pause = acceptable_heartbeat_pause
        self.first_heartbeat_estimate = first_heartbeat_estimate
        self._clock = clock
        self._latest: int | None = None
        self._last_beat: int | None = None
        self._intervals: deque[int] = deque()
        self._reach = reach(threshold)  # phi >= threshold needs y >= this, at least
        self._sum = self._squares = 0

    def heartbeat(self) -> None:
        """Record a heartbeat received now."""
        now = self._read()
        if self._last_beat is None:
            quarter = self.first_heartbeat_estimate // 4
            self._record(self.first_heartbeat_estimate - quarter)
            self._record(self.first_heartbeat_estimate + quarter)
        elif self._normal(now, now - self._last_beat):  # available then: a normal interval
            self._record(now - self._last_beat)
        self._last_beat = now

    def phi(self) -> float:
        """The suspicion level now: 0.0 before the first heartbeat."""
        return self._phi(self._read())

    def is_available(self) -> bool:
        """True while phi is below the threshold."""
        return self._phi(self._read()) < self.threshold

    @property
    def last_heartbeat(self) -> int | None:
        """The clock's reading at the latest heartbeat; None before the first."""
        return self._last_beat

    def suspicious_from(self) -> float | None:
        """A time before which phi stays below the threshold, as long as no heartbeat comes
        (None before the first): the last heartbeat plus the silence at which phi could
        first reach it, less a margin.  Phi only grows with the silence."""
        if self._last_beat is None:
            return None
        if self._reach <= 0:  # a threshold below log10(2): suspicious below the mean
            return float(self._last_beat)
        mean, variance = self.mean_and_variance()
        std = max(math.sqrt(variance), self.min_std_deviation)
        mean_silence = float(mean) + self.acceptable_heartbeat_pause
        return self._last_beat + mean_silence + self._reach * std - 2

    def mean_and_variance(self) -> tuple[Fraction, Fraction]:
        """The history's mean and variance, exactly (the population variance, as Akka)."""
        count = len(self._intervals)
        mean = Fraction(self._sum, count)
        return mean, Fraction(self._squares, count) - mean * mean

    def _normal(self, now: int, interval: int) -> bool:
        """phi < threshold at `now`, an `interval` after the last heartbeat: decided exactly
        near the threshold; far below it, where almost every interval is, a bound suffices."""
        mean = self._sum / len(self._intervals) + self.acceptable_heartbeat_pause
        # reach is 0 for a threshold below log10(2), whose crossing lies below the mean:
        # no bound then, only the exact check.
        if self._reach > 0 and interval < mean + self._reach * self.min_std_deviation - 2:
            return True
        return self._phi(now) < self.threshold

    def _phi(self, now: int) -> float:
        if self._last_beat is None:
            return 0.0
        mean, variance = self.mean_and_variance()
        std = max(math.sqrt(variance), self.min_std_deviation)
        return phi_of(now - self._last_beat, mean + self.acceptable_heartbeat_pause, std)

    def _record(self, interval: int) -> None:
        if len(self._intervals) == self.max_sample_size:
            oldest = self._intervals.popleft()
            self._sum -= oldest
            self._squares -= oldest * oldest
        self._intervals.append(interval)
        self._sum += interval
        self._squares += interval * interval

    def _read(self) -> int:
        now = self._clock()
        if self._latest is not None and now < self._latest:
            raise ValueError(f"the clock went back from {self._latest} to {now}")
        self._latest = now
        return now


def reach(threshold: float) -> float:
    """A lower bound on the y at which phi reaches `threshold`: z(y) = ln(10**threshold - 1)."""
    target = math.log(10**threshold - 1) if threshold < 300 else threshold * LN10
    low, high = 0.0, 1.0
    while high * (1.5976 + 0.070566 * high * high) < target:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if middle * (1.5976 + 0.070566 * middle * middle) < target:
            low = middle
        else:
            high = middle
    return low * (1 - 1e-9)


def phi_of(silence: int, mean: Fraction | float, std: float) -> float:
    """``-log10(1 - F(silence))`` for Akka's logistic F, as ``log10(1 + exp(z))``: no overflow."""
    y = float((silence - Fraction(mean)) / Fraction(std))
    z = y * (1.5976 + 0.070566 * y * y)
    if z > 0:  # log10(1 + e**z) = (z + log1p(e**-z)) / ln 10
        return (z + math.log1p(math.exp(-z))) / LN10
    return math.log1p(math.exp(z)) / LN10
