"""WRONG: a float ratio read as the decimal it prints as, so 0.1 becomes exactly 1/10.

`Fraction(str(0.1))` is 1/10, but the float the caller passed is
3602879701896397 / 36028797018963968, a little more.  Two budgets given the
same ratio, one as `0.1` and one as `Fraction(0.1)`, then disagree; the
contract takes a float at its exact binary value: `Fraction(ratio)`.
"""

from fractions import Fraction

FAILS = "retry_budget"


class RetryBudget:
    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        if max_tokens <= 0 or not 0 < token_ratio <= 1:
            raise ValueError("need max_tokens > 0 and 0 < token_ratio <= 1")
        self.max_tokens = max_tokens
        self.token_ratio = Fraction(str(token_ratio))  # the mistake
        self.tokens = Fraction(max_tokens)

    def record(self, *, success: bool) -> None:
        if success:
            self.tokens = min(Fraction(self.max_tokens), self.tokens + self.token_ratio)
        else:
            self.tokens = max(Fraction(0), self.tokens - 1)

    def allows_retry(self) -> bool:
        return self.tokens > Fraction(self.max_tokens, 2)
