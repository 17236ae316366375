"""WRONG: the power formed before the cap is applied: base * 2**(retry - 1).

Exact, in integers, but at retry 10**12 the power has a trillion bits: the
call runs out of memory (or time) to return what it knew from the start,
the cap.  Compare the exponent with the cap's bit length first.
"""

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    power: int = base * 2 ** (retry - 1)  # the mistake: the whole power is built
    return min(cap, power)
