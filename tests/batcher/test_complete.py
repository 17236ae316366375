"""Completion: each result to its own caller; a failure fails its batch, not the batcher."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import (
    Session,
    Step,
    complete,
    expect_session,
    failed,
    poll,
    result,
    results,
    sends,
    submit,
)

pytestmark = pytest.mark.batch_complete

RULE = (
    "complete(batch.id, outcome) returns one Ending per request of the batch: outcome is one "
    "result per request, in the order batch.requests lists them (an exception among them fails "
    "that request alone), or an exception that fails them all; a wrong number of results fails "
    "them all with a ValueError; the batcher goes on after any failure; completing a batch not "
    "in flight is a ValueError."
)


# Requests of different lengths: a batcher may list them in any order, for instance longest
# first, and the results must follow its own listing.
THREE = [submit("a", 0, tokens=1), submit("b", 0, tokens=9), submit("c", 0, tokens=4), poll(0)]
SENT = ["queued", "queued", "queued", sends((["a", "b", "c"], 27))]


def _session(*steps: Step) -> Session:
    return Session.of([*THREE, *steps], max_batch_size=3, max_wait=0, max_queue=4)


@pytest.mark.rules(8, 13)
def test_each_result_goes_to_its_own_request(impl: Implementation) -> None:
    """Requests of different lengths (a batcher may list them in any order): each result
    is matched to the request listed at its position."""
    expect_session(impl, _session(complete(1, 1)), [*SENT, results("a", "b", "c")], rule=RULE)


@pytest.mark.rules(13)
def test_a_failed_batch_fails_each_of_its_requests(impl: Implementation) -> None:
    want = [*SENT, tuple(failed(r, "the batch's error") for r in "abc")]
    expect_session(impl, _session(complete(1, 1, "fails")), want, rule=RULE)


@pytest.mark.rules(13)
def test_an_error_among_the_results_fails_that_request_alone(impl: Implementation) -> None:
    want = [*SENT, (result("a"), failed("b", "its own error"), result("c"))]
    expect_session(impl, _session(complete(1, 1, ("errors", ("b",)))), want, rule=RULE)


@pytest.mark.rules(13)
@pytest.mark.parametrize("how", ["too few", "too many"])
def test_a_wrong_number_of_results_fails_them_all(impl: Implementation, how: str) -> None:
    """Matching them up anyway would hand some caller another's result, or none."""
    want = [*SENT, tuple(failed(r, "a ValueError") for r in "abc")]
    expect_session(impl, _session(complete(1, 1, how)), want, rule=RULE)


@pytest.mark.rules(13)
def test_the_batcher_goes_on_after_a_failed_batch(impl: Implementation) -> None:
    steps = [complete(1, 1, "fails"), submit("d", 2), poll(2), complete(2, 3)]
    want = [
        *SENT,
        tuple(failed(r, "the batch's error") for r in "abc"),
        "queued",
        sends((["d"], 1)),
        results("d"),
    ]
    expect_session(impl, _session(*steps), want, rule=RULE)


@pytest.mark.rules(13)
def test_a_batch_completes_once(impl: Implementation) -> None:
    want = [*SENT, results("a", "b", "c"), "ValueError"]
    expect_session(impl, _session(complete(1, 1), complete(1, 2)), want, rule=RULE)


@pytest.mark.rules(5)
def test_an_id_is_free_again_once_its_request_has_ended(impl: Implementation) -> None:
    """a completed: a new request may reuse the id."""
    steps = [complete(1, 1), submit("a", 2), poll(2), complete(2, 2)]
    want = [*SENT, results("a", "b", "c"), "queued", sends((["a"], 1)), results("a")]
    expect_session(impl, _session(*steps), want, rule=RULE)
