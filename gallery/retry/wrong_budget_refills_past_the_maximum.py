"""WRONG: a success adds token_ratio to the budget without a ceiling.

A quiet hour of successes banks tokens far past max_tokens, and the next
outage then retries at full multiplication for as long as that bank lasts:
the budget no longer limits the burst it exists to limit.  Tokens never
rise above max_tokens.
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
        if success:
            self.tokens += self.token_ratio  # the mistake: no min(max_tokens, ...)
        else:
            self.tokens = max(Fraction(0), self.tokens - 1)

    def allows_retry(self) -> bool:
        return self.tokens > Fraction(self.max_tokens, 2)
