"""WRONG: no jitter: every client waits exactly the exponential backoff.

Clients that failed together wait the same time and retry together, and
collide again: the backoff spreads retries out in time only if each client
draws its own point in the window.
"""

from random import Random

FAILS = "retry_jitter"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    return cap if retry - 1 >= cap.bit_length() else min(cap, base << (retry - 1))


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    return exponential_backoff(retry, base=base, cap=cap)  # the mistake: no randomness


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    return exponential_backoff(retry, base=base, cap=cap)  # the mistake: no randomness
