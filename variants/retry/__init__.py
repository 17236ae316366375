"""Retries: backoff with jitter, what is safe to retry, a retry budget, idempotency keys.

The contract a candidate implements is the names below; see
`variants/retry/README.md`.
"""

from variants.retry.backoff import (
    decorrelated_jitter,
    equal_jitter,
    exponential_backoff,
    full_jitter,
)
from variants.retry.budget import RetryBudget
from variants.retry.idempotency import IdempotencyStore, InProgress
from variants.retry.policy import (
    IDEMPOTENT_METHODS,
    RETRYABLE_STATUSES,
    Attempt,
    Failure,
    Policy,
    call_with_retries,
    is_retryable,
    is_safe_to_repeat,
)

__all__ = [
    "IDEMPOTENT_METHODS",
    "RETRYABLE_STATUSES",
    "Attempt",
    "Failure",
    "IdempotencyStore",
    "InProgress",
    "Policy",
    "RetryBudget",
    "call_with_retries",
    "decorrelated_jitter",
    "equal_jitter",
    "exponential_backoff",
    "full_jitter",
    "is_retryable",
    "is_safe_to_repeat",
]
