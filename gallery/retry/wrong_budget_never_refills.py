"""WRONG: successes never give tokens back, so once throttled, retries stop for good.

The budget is meant to stop retries while failures outrun successes, and to
let them back as the dependency recovers: each success earns token_ratio.
"""

from fractions import Fraction

FAILS = "retry_budget"


class RetryBudget:
    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        if max_tokens <= 0 or not 0 < Fraction(token_ratio) <= 1:
            raise ValueError("need max_tokens > 0 and 0 < token_ratio <= 1")
        self.max_tokens, self.token_ratio = max_tokens, Fraction(token_ratio)
        self.tokens = Fraction(max_tokens)

    def record(self, *, success: bool) -> None:
        if not success:  # the mistake: a success earns nothing
            self.tokens = max(Fraction(0), self.tokens - 1)

    def allows_retry(self) -> bool:
        return self.tokens > Fraction(self.max_tokens, 2)
