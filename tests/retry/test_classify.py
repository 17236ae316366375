"""Only failures worth retrying, of operations safe to repeat, are retried."""

from __future__ import annotations

import pytest

from kata.checks import expect, expect_that
from kata.impl import Implementation
from tests.support.retrying import OK, Script, classify, failure, retries

pytestmark = pytest.mark.retry_classify

RULE = (
    "retry only a timeout, a connection reset, or a status in {408, 429, 500, 502, 503, "
    "504}, and only a method in {GET, HEAD, OPTIONS, PUT, DELETE} (case-sensitive, as HTTP "
    "methods are) or a call carrying an idempotency key: anything else is final after one "
    "attempt."
)


@pytest.mark.rules(6)
@pytest.mark.parametrize(
    ("kind", "status", "retryable"),
    [
        ("timeout", None, True),
        ("connection_reset", None, True),
        *(("status", s, True) for s in (408, 429, 500, 502, 503, 504)),
        *(("status", s, False) for s in (400, 401, 403, 404, 409, 412, 422, 501)),
    ],
)
def test_which_failures_are_retryable(
    impl: Implementation, kind: str, status: int | None, retryable: bool
) -> None:
    expect(impl, classify("is_retryable", kind, status, None), retryable, rule=RULE)


@pytest.mark.rules(7)
@pytest.mark.parametrize(
    ("method", "key", "safe"),
    [
        ("GET", None, True),
        ("HEAD", None, True),
        ("OPTIONS", None, True),
        ("PUT", None, True),
        ("DELETE", None, True),
        ("POST", None, False),
        ("PATCH", None, False),
        ("POST", "order-17", True),
        ("PATCH", "k", True),
        ("get", None, False),
        ("Delete", None, False),
        ("get", "k", True),
        ("POST", "", True),
    ],
)
def test_which_operations_are_safe_to_repeat(
    impl: Implementation, method: str, key: str | None, safe: bool
) -> None:
    expect(impl, classify("is_safe_to_repeat", method, key), safe, rule=RULE)


@pytest.mark.rules(6, 9)
@pytest.mark.parametrize("status", [400, 401, 404, 409])
def test_a_client_error_is_not_retried(impl: Implementation, status: int) -> None:
    """The request is wrong; sending it again is wrong again, and costs the server."""
    expect_that(
        impl,
        [retries(Script((failure("status", status), OK)))],
        lambda seen: len(seen.calls) == 1 and seen.gave_up == "not retryable",
        claim=f"a {status} was called once and given up as 'not retryable'",
        rule=RULE,
    )


@pytest.mark.rules(6, 8)
@pytest.mark.parametrize(
    ("kind", "status"),
    [("timeout", None), ("connection_reset", None), ("status", 503), ("status", 429)],
)
def test_a_transient_failure_of_a_get_is_retried(
    impl: Implementation, kind: str, status: int | None
) -> None:
    expect_that(
        impl,
        [retries(Script((failure(kind, status), OK)))],
        lambda seen: seen.ended == "returned" and len(seen.calls) == 2,
        claim=f"a GET that failed once ({kind}) then succeeded returned after 2 calls",
        rule=RULE,
    )


@pytest.mark.rules(7, 9)
def test_a_post_without_a_key_is_not_retried_even_after_a_timeout(impl: Implementation) -> None:
    """The timed-out POST may have been applied: a retry could charge twice."""
    expect_that(
        impl,
        [retries(Script((failure("timeout"), OK), method="POST"))],
        lambda seen: len(seen.calls) == 1 and seen.gave_up == "not safe to repeat",
        claim="a POST with no key was called once and given up as 'not safe to repeat'",
        rule=RULE,
    )


@pytest.mark.rules(7, 8)
def test_a_post_with_an_idempotency_key_is_retried(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("timeout"), OK), method="POST", key="charge-42"))],
        lambda seen: seen.ended == "returned" and len(seen.calls) == 2,
        claim="a keyed POST that timed out once returned after 2 calls",
        rule=RULE,
    )


@pytest.mark.rules(7, 8)
def test_an_empty_idempotency_key_is_still_a_key(impl: Implementation) -> None:
    """The rule is "a key (not None)": an empty string is a key the caller chose."""
    expect_that(
        impl,
        [retries(Script((failure("timeout"), OK), method="POST", key=""))],
        lambda seen: seen.ended == "returned" and len(seen.calls) == 2,
        claim="a POST with idempotency_key='' that timed out once returned after 2 calls",
        rule=RULE,
    )


@pytest.mark.rules(7, 9)
def test_a_lowercase_method_is_another_method(impl: Implementation) -> None:
    """HTTP methods are case-sensitive (RFC 9110, 9.1): "get" is not GET, so not known safe."""
    expect_that(
        impl,
        [retries(Script((failure("status", 503), OK), method="get"))],
        lambda seen: len(seen.calls) == 1 and seen.gave_up == "not safe to repeat",
        claim="method 'get' (not GET) was called once, given up as 'not safe to repeat'",
        rule=RULE,
    )
