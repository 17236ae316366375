"""WRONG: failures keep taking tokens below zero.

During a long outage the debt grows without bound, and after recovery it
takes ten successes per missing token before retries are allowed again:
the budget that was meant to shed load now refuses help long after it is
needed.  Tokens stay in [0, max_tokens].
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
            self.tokens = min(Fraction(self.max_tokens), self.tokens + self.token_ratio)
        else:
            self.tokens -= 1  # the mistake: no floor at 0

    def allows_retry(self) -> bool:
        return self.tokens > Fraction(self.max_tokens, 2)
