"""A retry budget shared by every call to one dependency: gRPC's retry throttling.

Tokens start at `max_tokens`.  Each attempt that fails in a way worth
retrying takes one token (never below 0); each success gives back
`token_ratio` (never above `max_tokens`).  Retries are allowed only while
the tokens are above half of `max_tokens`: when failures outrun successes,
the clients stop multiplying the load on a dependency that is already down,
and a trickle of successes earns the right to retry back.  Exact: tokens are
a `Fraction`, and a float ratio counts at its exact binary value.
"""

from __future__ import annotations

import threading
from fractions import Fraction


class RetryBudget:
    """gRPC-style retry throttling (maxTokens, tokenRatio); safe to share between threads."""

    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        ratio = Fraction(token_ratio)
        if max_tokens <= 0:
            raise ValueError(f"max_tokens must be > 0, got {max_tokens}")
        if not 0 < ratio <= 1:
            raise ValueError(f"token_ratio must be in (0, 1], got {token_ratio}")
        self.max_tokens, self.token_ratio = max_tokens, ratio
        self._tokens = Fraction(max_tokens)
        self._lock = threading.Lock()

    @property
    def tokens(self) -> Fraction:
        return self._tokens

    def record(self, *, success: bool) -> None:
        """One attempt's outcome: a success earns `token_ratio`, a failure costs one token."""
        with self._lock:
            if success:
                self._tokens = min(Fraction(self.max_tokens), self._tokens + self.token_ratio)
            else:
                self._tokens = max(Fraction(0), self._tokens - 1)

    def allows_retry(self) -> bool:
        """Whether a retry may be made now: tokens above half of max_tokens."""
        return self._tokens > Fraction(self.max_tokens, 2)
