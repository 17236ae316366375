"""WRONG: equal jitter adds a draw from [0, e // 2], not from [0, e - e // 2].

Equal jitter is `e // 2` plus a uniform integer in `[0, e - e // 2]`, so it
spans the upper half of the window, `e` included (rule 2).  Drawing the
second half as `[0, e // 2]` is the same for an even e, but for an odd e it
stops a tick short: at e = 1 every wait is 0 and never 1, and at e = 5 the
waits run 2 to 4, never 5.  The window is the contract's only if both of
its ends can be drawn.
"""

from random import Random

from variants.retry import exponential_backoff

FAILS = "retry_jitter"


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    e = exponential_backoff(retry, base=base, cap=cap)
    return rng.randint(0, e)


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    e = exponential_backoff(retry, base=base, cap=cap)
    half = e // 2
    return half + rng.randint(0, half)  # the mistake: the upper half is e - half, not half
