"""WRONG: the shortcut "a budget covering every opportunity needs k = 1" is taken before the checks.

If n <= budget, even n * p**1 <= budget for any valid p, so k = 1 at once:
a fine shortcut, but placed first it answers questions no k can meet: p = 1
or p > 1 with few opportunities, a budget of 0 with none, a negative count
of opportunities.  Validate first; shortcut after.
"""

from fractions import Fraction

FAILS = "validation"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, b = Fraction(miss_probability), Fraction(budget)
    if opportunities <= b:
        return 1  # the mistake: returns before the arguments are checked
    if not 0 <= p < 1 or opportunities < 0 or b <= 0:
        raise ValueError("no k can meet this budget")
    k = 1
    while opportunities * p**k > b:
        k += 1
    return k
