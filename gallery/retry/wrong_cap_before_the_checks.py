"""WRONG: a huge retry answered with the cap before its arguments are checked.

Past the retry where the doubling reaches the cap, the answer is the cap;
taking that shortcut first skips the checks, so `exponential_backoff(10**12,
base=0, cap=10)` returns 10 instead of refusing a base of 0.  Validate
first, on every path.
"""

from random import Random

FAILS = "retry_validation"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry > 64:  # the mistake: the shortcut comes before the checks
        return cap
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    return min(cap, base << (retry - 1))


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    wait: int = rng.randint(0, exponential_backoff(retry, base=base, cap=cap))
    return wait


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    wait = exponential_backoff(retry, base=base, cap=cap)
    return wait // 2 + rng.randint(0, wait - wait // 2)
