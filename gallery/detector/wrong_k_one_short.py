"""WRONG: k one short: the misses a healthy rank may have, not the ones that convict it.

The loop stops at the last k still over budget and returns it: a timeout one
interval too short, with expected false alarms n * p**k above the budget.
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
    while opportunities * p ** (k + 1) > b:  # the mistake: looks one step ahead
        k += 1
    return k
