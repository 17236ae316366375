"""WRONG: the backoff computed with a float power, 2.0 ** (retry - 1).

It works for the first retries, then 2.0 ** 1024 overflows (OverflowError)
where the answer is simply the cap; and floats stop being exact long before
that.  Cap the exponent and stay in integers.
"""

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    return int(min(cap, base * 2.0 ** (retry - 1)))  # the mistake: a float power
