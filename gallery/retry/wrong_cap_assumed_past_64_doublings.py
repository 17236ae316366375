"""WRONG: past 64 doublings the wait is taken to be the cap, whatever the cap.

A shortcut that keeps the integers small: "after 64 doublings any wait is
beyond the cap".  True of every cap below 2**64, and false of the caps the
contract allows (any int): with cap 10**80 the 200th retry waits
3 * 2**199, not the cap.  Compare the exponent with the cap's own bit
length, which is exact for every cap.
"""

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    if retry > 64:  # the mistake: the cap's own size decides, not a fixed 64
        return cap
    wait: int = min(cap, base * 2 ** (retry - 1))
    return wait
