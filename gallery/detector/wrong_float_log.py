"""WRONG: k from the closed form in floats, ceil(log(budget / n) / log(p)).

Right on paper, wrong at exact boundaries: for p = 1/8, n = 8**7, budget = 1,
log(1 / 8**7) / log(1/8) comes out as 7.000000000000001 and ceil gives 8.
"""

from fractions import Fraction
from math import ceil, log

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, n, b = float(miss_probability), opportunities, float(budget)
    if not 0 <= p < 1 or n < 0 or b <= 0:
        raise ValueError("no k can meet this budget")
    if p == 0 or n <= b:
        return 1
    return max(1, ceil(log(b / n) / log(p)))  # the mistake: floats at a boundary
