"""WRONG: full jitter drawn as a rounded float, so the ends come half as often.

`round(rng.random() * e)` stays within [0, e], but 0 and e each collect only
half an interval of the floats, every other integer a whole one: at e = 2
the waits go 0, 1, 2 a quarter, a half and a quarter of the time.  Clients
bunch in the middle of the window jitter was meant to spread them across.
Draw the integer itself: `rng.randint(0, e)`.
"""

from random import Random

from variants.retry import exponential_backoff

FAILS = "retry_jitter"


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    e = exponential_backoff(retry, base=base, cap=cap)
    return round(rng.random() * e)  # the mistake


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    e = exponential_backoff(retry, base=base, cap=cap)
    return e // 2 + round(rng.random() * (e - e // 2))  # the same mistake
