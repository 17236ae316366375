"""WRONG: decorrelated jitter refuses only a previous wait below 1, not below base.

`previous` is the wait before, itself at least `base`: a previous below base
is a caller's bug (a wait from another policy, a unit mixed up), and the
draw `randint(base, 3 * previous)` is then over an empty or inverted range.
Refuse `previous < base` (rule 5), as every other bad argument is refused.
"""

from random import Random

FAILS = "retry_validation"


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    if base < 1 or cap < base or previous < 1:  # the mistake: 1, not base
        raise ValueError("need 1 <= base <= cap and previous >= 1")
    return min(cap, rng.randint(base, max(base, 3 * previous)))
