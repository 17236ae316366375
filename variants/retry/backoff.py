"""How long to wait before a retry: capped exponential backoff, with or without jitter.

Time is integer ticks; randomness comes from an injected `random.Random`, so
a seeded generator replays the same waits.  The invariants, for retry r >= 1
(the r-th retry, after r failed attempts) and e = ``exponential_backoff(r)``:

    exponential_backoff(r) == min(cap, base * 2**(r - 1))
    0       <= full_jitter(r)                   <= e
    e // 2  <= equal_jitter(r)                  <= e
    base    <= decorrelated_jitter(previous)    <= min(cap, 3 * previous)

Every bound is exact for any r: the exponent is capped before the power is
formed, so retry 10,000 (or 10**12) costs what retry 30 does, with no float
to overflow and no million-bit integer to build.
"""

from __future__ import annotations

from random import Random


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    """``min(cap, base * 2**(retry - 1))``, exactly, for any retry >= 1."""
    _check(retry=retry, base=base, cap=cap)
    doublings = retry - 1
    if doublings >= cap.bit_length():  # base * 2**doublings >= 2**bit_length > cap
        return cap
    return min(cap, base << doublings)


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    """A uniform integer in ``[0, exponential_backoff(retry)]``: spread over the whole wait."""
    return rng.randint(0, exponential_backoff(retry, base=base, cap=cap))


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    """Half the exponential wait, plus a uniform integer over the other half."""
    wait = exponential_backoff(retry, base=base, cap=cap)
    return wait // 2 + rng.randint(0, wait - wait // 2)


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    """``min(cap, uniform integer in [base, 3 * previous])``; the first retry passes ``base``.

    Each wait grows from the previous one, not from the retry number, so it
    never leaves ``[base, cap]``.
    """
    _check(retry=1, base=base, cap=cap)
    if previous < base:
        raise ValueError(f"previous wait {previous} is below base {base}")
    return min(cap, rng.randint(base, 3 * previous))


def _check(*, retry: int, base: int, cap: int) -> None:
    if retry < 1:
        raise ValueError(f"retry must be >= 1 (the first retry is 1), got {retry}")
    if base < 1:
        raise ValueError(f"base must be >= 1 tick, got {base}")
    if cap < base:
        raise ValueError(f"cap {cap} is below base {base}")
