"""WRONG: an empty idempotency key taken for no key at all.

`if idempotency_key:` is false for "" as for None.  The contract says a key,
meaning one given (not None): the server compares the key it is sent, and an
empty one is still the caller's.  Test `is not None`.
"""

FAILS = "retry_classify"

IDEMPOTENT_METHODS = {"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}


def is_safe_to_repeat(method: str, idempotency_key: str | None) -> bool:
    return method in IDEMPOTENT_METHODS or bool(idempotency_key)  # the mistake: "" is no key
