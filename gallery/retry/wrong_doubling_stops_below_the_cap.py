"""WRONG: the doubling stops while it is still below the cap, so the wait never reaches it.

"Double, but never past the cap" written as `while wait * 2 < cap`: a
doubling that lands exactly on the cap is not made (base 125, cap 1000: the
fourth retry waits 500, not 1000), nor one that would pass it, so the wait
stays at the last power below the cap (640 for base 10, cap 1000) for ever.
The wait is min(cap, base * 2**(retry - 1)): it reaches the cap.
"""

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    wait, doublings = base, 0
    while doublings < retry - 1 and wait * 2 < cap:  # the mistake: stops short of the cap
        wait, doublings = wait * 2, doublings + 1
    return wait
