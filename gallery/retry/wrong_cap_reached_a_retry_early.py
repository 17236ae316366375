"""WRONG: the shortcut to the cap taken one retry early, when base 1 meets a cap off a power of two.

To avoid building a huge power, the wait is the cap once `retry - 1` reaches
the cap's bit length; but 2**(bits - 1) can still be below the cap (cap 10:
4 bits, 2**3 = 8), so retry 4 waits 10 instead of 8.  Compare the power
itself with the cap, or stop doubling when the cap is reached.
"""

from random import Random

from variants.retry import is_retryable, is_safe_to_repeat  # noqa: F401 (the rest, right)

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError(f"bad backoff: retry={retry} base={base} cap={cap}")
    if retry - 1 >= (cap // base).bit_length() - 1:  # the mistake: one doubling short
        return cap
    return min(cap, base << (retry - 1))


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    wait: int = rng.randint(0, exponential_backoff(retry, base=base, cap=cap))
    return wait
