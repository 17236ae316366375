"""WRONG: the exponent capped, then the power taken in floats: `int(base * 2.0 ** shift)`.

Capping the exponent first avoids the overflow, but not the rounding: a
float holds 53 bits, so a base of 2**60 + 1 doubled comes out 2**61, not
2**61 + 2.  The contract's waits are exact ints at any size: shift the int,
`base << shift`, or multiply by `2 ** shift`.
"""

FAILS = "retry_backoff"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError("need retry >= 1 and 1 <= base <= cap")
    shift = min(retry - 1, cap.bit_length())
    return min(cap, int(base * 2.0**shift))  # the mistake: a float power
