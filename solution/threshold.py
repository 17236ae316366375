"""From a false-positive budget to a timeout, in exact arithmetic, fast at any size.

Model: each heartbeat slot of each rank is an *opportunity*; a heartbeat is
lost or later than the delay margin with probability p, independently.  A
healthy rank is falsely reported when k consecutive heartbeats miss, so over
n opportunities the expected number of false alarms is at most ``n * p**k``
(a union bound over where the run of misses starts).  The invariant
`misses_for_budget` keeps:

    k = min { k >= 1 : n * p**k <= budget }

exactly: at p = 1/8, n = 8**7, budget = 1 the float formula
``ceil(log(budget / n) / log(p))`` gives 8 where the answer is 7.  And fast:
at p = 0.99999 the answer is in the millions, where exact powers of p take
seconds.  So k is estimated from logarithms and confirmed at k and k - 1,
each comparison exact where an exact tie is possible and, where none is,
decided by logarithms whose error is bounded (`decimal` is correctly
rounded), with more digits until the bound decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal, localcontext
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
    if p == 0 or opportunities <= allowed:
        return 1
    question = _Budget(
        p.numerator, p.denominator, opportunities * allowed.denominator, allowed.numerator
    )
    k = question.estimate()
    while k > 1 and question.within(k - 1):
        k -= 1
    while not question.within(k):
        k += 1
    return k


@dataclass(frozen=True)
class _Budget:
    """Whether ``n * p**k <= budget`` for p = a/b and budget = c/d, as ``nd * a**k <= c * b**k``."""

    a: int  # 0 < a < b, in lowest terms
    b: int
    nd: int  # n * d, with n > c/d
    c: int

    def within(self, k: int) -> bool:
        a, b, nd, c = self.a, self.b, self.nd, self.c
        # A tie needs b**k to divide n*d (gcd(a, b) = 1), so b**k <= n*d: where that
        # may hold, the exact powers are small; elsewhere logs decide, as no tie exists.
        if k * (b.bit_length() - 1) < nd.bit_length() or k * b.bit_length() <= 4096:
            return bool(nd * a**k <= c * b**k)  # int ** int is typed Any: it may be a float
        digits = 40
        while True:
            excess, error = self._log_excess(k, digits)
            if abs(excess) > error:
                return excess < 0
            digits *= 2

    def _log_excess(self, k: int, digits: int) -> tuple[Decimal, Decimal]:
        """ln(n*d) - ln(c) + k*(ln a - ln b), and a bound on its error, to `digits` digits."""
        with localcontext() as context:
            context.prec = digits
            logs = [Decimal(x).ln() for x in (self.nd, self.c, self.a, self.b)]
            excess = logs[0] - logs[1] + k * (logs[2] - logs[3])
            scale = abs(logs[0]) + abs(logs[1]) + k * (abs(logs[2]) + abs(logs[3])) + 1
            return excess, 4 * scale * Decimal(10) ** (1 - digits)

    def estimate(self) -> int:
        """k within a step of the answer: ln(n / budget) / -ln(p), to enough digits."""
        digits = 40
        while True:
            with localcontext() as context:
                context.prec = digits
                log_a, log_b = Decimal(self.a).ln(), Decimal(self.b).ln()
                drop = log_b - log_a  # -ln(p) > 0, less exact the closer p is to 1
                error = 4 * (log_b + log_a + 1) * Decimal(10) ** (1 - digits)
                if drop > error:
                    k = (Decimal(self.nd).ln() - Decimal(self.c).ln()) / drop
                    if k * error / (drop - error) < Decimal("0.25"):  # off by under a step
                        return max(1, int(k.to_integral_value(rounding=ROUND_CEILING)))
            digits *= 2


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
