"""WRONG: a miss probability of 0 refused: `0 < p < 1` where the contract says `0 <= p < 1`.

A link that never loses a heartbeat is a real input (a loopback, a test
cluster): with p = 0 one miss in a row already meets any budget, k = 1.
Refusing it makes the caller special-case a perfect network.
"""

from fractions import Fraction

FAILS = "threshold"


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    p, allowed = Fraction(miss_probability), Fraction(budget)
    if not 0 < p < 1 or opportunities < 0 or allowed <= 0:  # the mistake: 0 refused
        raise ValueError("no k can meet this budget")
    k = 1
    while opportunities * p**k > allowed:
        k += 1
    return k
