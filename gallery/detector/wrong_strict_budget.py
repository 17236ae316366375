"""WRONG: expected false alarms must be strictly below the budget.

Exact arithmetic, but `<` instead of `<=`: where n * p**k equals the budget
exactly, one more miss (one more interval of detection time) is demanded.
"""

from fractions import Fraction

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, b = Fraction(miss_probability), Fraction(budget)
    if not 0 <= p < 1 or opportunities < 0 or b <= 0:
        raise ValueError("no k can meet this budget")
    k = 1
    while opportunities * p**k >= b:  # the mistake
        k += 1
    return k
