"""WRONG: "get" taken for GET, though HTTP methods are case-sensitive.

RFC 9110 (section 9.1): the method token is case-sensitive, and the standard
ones are all upper case.  "get" is some other method, whose safety nobody
promised; treating it as GET retries an operation that may not be safe to
repeat.  Compare the method as it is.
"""

FAILS = "retry_classify"

IDEMPOTENT_METHODS = {"GET", "HEAD", "OPTIONS", "PUT", "DELETE"}


def is_safe_to_repeat(method: str, idempotency_key: str | None) -> bool:
    return method.upper() in IDEMPOTENT_METHODS or idempotency_key is not None  # the mistake
