"""Length buckets: a batch holds requests of one bucket; each bucket waits on its own."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import NOTHING, Session, expect_session, poll, sends, submit

pytestmark = pytest.mark.batch_buckets

RULE = (
    "a request's bucket is the number of `buckets` boundaries below its tokens (boundaries "
    "(4, 8): up to 4 tokens is bucket 0, 5 to 8 bucket 1, longer bucket 2); a batch holds one "
    "bucket's requests; a bucket's batch is full or has waited on its own requests alone; "
    "buckets are tried in the service order of their first requests."
)


@pytest.mark.rules(7)
def test_a_batch_holds_one_bucket(impl: Implementation) -> None:
    steps = [
        submit("a", 0, tokens=1),
        submit("b", 0, tokens=6),
        submit("c", 0, tokens=3),
        submit("d", 0, tokens=9),
        poll(5),
    ]
    want = ["queued"] * 4 + [sends((["a", "c"], 6), (["b"], 6), (["d"], 9))]
    session = Session.of(
        steps, max_batch_size=8, max_wait=5, max_queue=8, max_in_flight=3, buckets=(4, 8)
    )
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(7)
def test_a_request_on_a_boundary_belongs_below_it(impl: Implementation) -> None:
    """4 tokens with boundaries (4, 8) is bucket 0, with 1 and 3; 5 is bucket 1."""
    steps = [
        submit("a", 0, tokens=4),
        submit("b", 0, tokens=1),
        submit("c", 0, tokens=5),
        poll(5),
    ]
    want = ["queued"] * 3 + [sends((["a", "b"], 8), (["c"], 5))]
    session = Session.of(
        steps, max_batch_size=8, max_wait=5, max_queue=8, max_in_flight=3, buckets=(4, 8)
    )
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(7, 11)
def test_each_bucket_waits_on_its_own_requests(impl: Implementation) -> None:
    """Bucket 0's a arrives at 0 and bucket 1's b at 5: a goes at 10, b at 15."""
    steps = [submit("a", 0, tokens=2), submit("b", 5, tokens=6), poll(10), poll(14), poll(15)]
    want = ["queued", "queued", sends((["a"], 2)), NOTHING, sends((["b"], 6))]
    session = Session.of(
        steps, max_batch_size=8, max_wait=10, max_queue=8, max_in_flight=2, buckets=(4,)
    )
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(9, 12)
def test_a_full_bucket_goes_while_another_waits(impl: Implementation) -> None:
    """Size 2: two short ones fill their batch; the long one waits for its own deadline."""
    steps = [
        submit("long", 0, tokens=7),
        submit("a", 1, tokens=1),
        submit("b", 1, tokens=2),
        poll(1),
    ]
    want = ["queued"] * 3 + [sends((["a", "b"], 4))]
    session = Session.of(
        steps, max_batch_size=2, max_wait=10, max_queue=8, max_in_flight=2, buckets=(4,)
    )
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(12)
def test_a_bucket_above_goes_first_when_its_request_came_first(impl: Implementation) -> None:
    """One slot, no wait: the long request (bucket 1) arrived before the short one (bucket 0),
    so its batch goes first, though its bucket's number is higher."""
    steps = [submit("long", 0, tokens=20), submit("short", 0, tokens=5), poll(0)]
    want = ["queued", "queued", sends((["long"], 20))]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4, buckets=(10,))
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(12)
def test_buckets_go_in_the_service_order_of_their_first_requests(impl: Implementation) -> None:
    """One slot, both buckets ready: the bucket whose first request comes first goes first."""
    steps = [submit("long", 0, tokens=7), submit("short", 0, tokens=1, priority=1), poll(10)]
    want = ["queued", "queued", sends((["short"], 1))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=8, buckets=(4,))
    expect_session(impl, session, want, rule=RULE)
