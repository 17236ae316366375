"""WRONG: tokens kept as floats, so ten successes of 0.1 do not make 1.

0.1 is not exact in binary: after two failures and ten successes a budget
of 4 holds 2.9999999999999996 tokens, not 3, and the moment retries resume
drifts.  Keep tokens as a Fraction.
"""

from fractions import Fraction

FAILS = "retry_budget"


class RetryBudget:
    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        if max_tokens <= 0 or not 0 < token_ratio <= 1:
            raise ValueError("need max_tokens > 0 and 0 < token_ratio <= 1")
        self.max_tokens, self.token_ratio = max_tokens, float(token_ratio)  # the mistake
        self.tokens = float(max_tokens)

    def record(self, *, success: bool) -> None:
        if success:
            self.tokens = min(float(self.max_tokens), self.tokens + self.token_ratio)
        else:
            self.tokens = max(0.0, self.tokens - 1)

    def allows_retry(self) -> bool:
        return self.tokens > self.max_tokens / 2
