"""WRONG: k counted from 0.

When the budget already covers every opportunity (n <= budget), this returns
0: a timeout of zero intervals reports every rank at once.  k is at least 1.
"""

from fractions import Fraction

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, b = Fraction(miss_probability), Fraction(budget)
    if not 0 <= p < 1 or opportunities < 0 or b <= 0:
        raise ValueError("no k can meet this budget")
    k = 0  # the mistake
    while opportunities * p**k > b:
        k += 1
    return k
