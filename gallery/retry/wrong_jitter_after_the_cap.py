"""WRONG: the jitter is added after the cap, so waits exceed it.

`min(cap, base * 2**(retry - 1)) + random(0, base)` looks like backoff with
jitter (stamina's formula adds jitter so), but the cap is the longest a
client should ever wait: draw within it, full jitter being uniform in [0, e].
"""

from random import Random

FAILS = "retry_jitter"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    return cap if retry - 1 >= cap.bit_length() else min(cap, base << (retry - 1))


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    wait = exponential_backoff(retry, base=base, cap=cap)
    return wait + rng.randint(0, base)  # the mistake: past the cap, and not uniform in [0, e]
