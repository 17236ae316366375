"""WRONG: a float probability read as the decimal it prints as, not its exact binary value.

`Fraction(str(0.1))` is 1/10, but the float 0.1 is 0.1000000000000000055...:
the contract takes a float at its exact value (`Fraction(0.1)`), so a caller
who wants exactly 1/10 passes `Fraction(1, 10)`.  Reading floats through
their text changes the answer wherever n * p**k lands on the budget.
"""

from fractions import Fraction

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p = Fraction(str(miss_probability))  # the mistake: the decimal, not the float's value
    allowed = Fraction(str(budget))
    if not 0 <= p < 1 or opportunities < 0 or allowed <= 0:
        raise ValueError("no k can meet this budget")
    k = 1
    while opportunities * p**k > allowed:
        k += 1
    return k
