"""misses_for_budget at the extremes, beside the plain exact search, in one run.

    python3 benchmarks/threshold.py            # the full grid
    python3 benchmarks/threshold.py --smoke    # a few rows, for CI

The plain exact search is the definition searched in Fractions (doubling,
then bisecting: O(log k) exact powers of p).  It is exact and fine for small
k, but at p = 0.99999 the answer is in the millions and each power of p has
millions of digits.  The reference estimates k from logarithms and confirms
it at k and k - 1.  Times are the best of five calls, in milliseconds; the
plain search is stopped after a few seconds.  Where both finish, their
answers are compared.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solution.threshold import misses_for_budget

WEEK = 1024 * 7 * 24 * 3600  # opportunities: 1,024 ranks at 1 Hz for a week
PLAIN_SECONDS = 3


def plain_search(p: Fraction, n: int, budget: Fraction) -> int:
    """The definition, in Fractions: double k until within budget, then bisect."""

    def over(k: int) -> bool:
        return n * p**k > budget

    high = 1
    while over(high):
        high *= 2
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if over(middle) else (low, middle)
    return high


class _TooLongError(Exception):
    pass


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _TooLongError


def best_ms(call: Callable[[], int], repeat: int, limit: float | None = None) -> tuple[float, int]:
    """Best time of `repeat` calls in ms and the answer; (inf, -1) past `limit` seconds."""
    best, answer = float("inf"), -1
    for _ in range(repeat):
        if limit:
            signal.signal(signal.SIGALRM, _stop)
            signal.setitimer(signal.ITIMER_REAL, limit)
        began = time.perf_counter()
        try:
            answer = call()
        except _TooLongError:
            return float("inf"), -1
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        best = min(best, (time.perf_counter() - began) * 1000)
    return best, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few rows, for CI")
    smoke = parser.parse_args().smoke
    probabilities = [
        ("1/100", Fraction(1, 100)),
        ("0.99", Fraction(99, 100)),
        ("0.999", Fraction(999, 1000)),
        ("0.99999", Fraction(99999, 100000)),
        ("0.99999 (float)", Fraction(0.99999)),
        ("1 - 1e-9", 1 - Fraction(1, 10**9)),
        ("1 - 1e-30", 1 - Fraction(1, 10**30)),
    ]
    sizes = [("a week", WEEK), ("10**30", 10**30)]
    if smoke:
        probabilities, sizes = probabilities[:4:3], sizes[1:]
    print("misses_for_budget, budget 1: best of 5 calls each, ms (plain search stopped after 3 s)")
    print(f"{'p':>16}  {'n':>7}  {'k':>44}  {'reference':>9}  {'plain':>9}  {'x':>7}")
    for label, p in probabilities:
        for size, n in sizes:
            reference = partial(misses_for_budget, miss_probability=p, opportunities=n, budget=1)
            ours, k = best_ms(reference, 5)
            plain, expected = best_ms(partial(plain_search, p, n, Fraction(1)), 5, PLAIN_SECONDS)
            if expected not in (-1, k):
                raise SystemExit(f"p={label}, n={size}: the reference says {k}, not {expected}")
            shown = "> 3 s" if plain == float("inf") else f"{plain:.2f}"
            ratio = (
                ""
                if plain == float("inf")
                else f"{plain / ours:,.{1 if plain < 10 * ours else 0}f}x"
            )
            print(f"{label:>16}  {size:>7}  {k:>44,}  {ours:>9.2f}  {shown:>9}  {ratio:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
