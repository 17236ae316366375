"""WRONG: the definition searched one k at a time, but in floats.

`n * p**k > budget` in floats loses what a float cannot hold: 2**67 + 1
opportunities become 2**67, (1/2)**3000 underflows to 0, and 2**3000
opportunities do not fit a float at all.  Keep p and the budget as
Fractions and n as an int.
"""

from fractions import Fraction

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, allowed = Fraction(miss_probability), Fraction(budget)
    if not 0 <= p < 1 or opportunities < 0 or allowed <= 0:
        raise ValueError("no k can meet this budget")
    k = 1
    while float(opportunities) * float(p) ** k > float(allowed):  # the mistake: floats
        k += 1
    return k
