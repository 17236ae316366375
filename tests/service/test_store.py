"""The store's behaviour, the same on SQLite and PostgreSQL, on the test's clock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from random import Random

import pytest

from solution.logfile import InputError
from tests.service.conftest import Clock
from variants.jobs.backends import open_store
from variants.jobs.intake import Submitted, read_requests
from variants.jobs.model import Failed
from variants.jobs.store import Fenced, Settings, Store

pytestmark = pytest.mark.reference
MakeStore = Callable[..., Store]


def batch(count: int, prefix: str = "r") -> list[Submitted]:
    return [Submitted(f"{prefix}{n}", {"prompt": "a b c"}, 3) for n in range(count)]


def states(store: Store, batch_id: str = "b") -> dict[str, str]:
    return {line["custom_id"]: line["result"]["type"] for line in store.results(batch_id)}


def test_a_batch_starts_with_every_request_processing(make_store: MakeStore) -> None:
    status = make_store().submit("b", batch(5))
    assert (status.processing_status, status.counts["processing"]) == ("in_progress", 5)
    assert sum(status.counts.values()) == 5


def test_resubmitting_the_same_batch_is_the_same_batch(make_store: MakeStore) -> None:
    """An idempotent submit: a client that lost the answer may send it again."""
    store = make_store()
    first = store.submit("b", batch(3))
    assert store.submit("b", batch(3)) == first
    assert store.status("b").counts["processing"] == 3


def test_the_same_batch_id_with_other_content_is_refused(make_store: MakeStore) -> None:
    store = make_store()
    store.submit("b", batch(3))
    with pytest.raises(InputError, match="exists with other content"):
        store.submit("b", batch(4))
    assert store.status("b").counts["processing"] == 3


def test_an_unknown_batch_is_named(make_store: MakeStore) -> None:
    with pytest.raises(InputError, match="no batch 'nope'"):
        make_store().status("nope")


def test_a_claim_takes_the_requests_ready_longest_and_counts_the_attempt(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store()
    store.submit("b", batch(5))
    lease = store.claim("w", limit=3, rng=Random(0))
    assert lease is not None
    assert [(r.custom_id, r.attempt) for r in lease.requests] == [("r0", 1), ("r1", 1), ("r2", 1)]
    again = store.claim("w", limit=10, rng=Random(0))
    assert again is not None
    assert again.id > lease.id
    assert [r.custom_id for r in again.requests] == ["r3", "r4"]
    assert store.claim("w", limit=10, rng=Random(0)) is None


def test_a_lease_exactly_lease_ms_silent_still_holds(make_store: MakeStore, clock: Clock) -> None:
    """The detector's boundary: expired when silent *more than* the lease."""
    store = make_store(lease_ms=100)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    clock.now += 100
    assert store.expire(rng=Random(0)) == []
    store.finish(lease.id, [(lease.requests[0].id, {"text": "ok"})], rng=Random(0))
    assert states(store) == {"r0": "succeeded"}


def test_a_lease_one_ms_late_is_fenced_before_expiry_has_run(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(lease_ms=100)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    clock.now += 101
    with pytest.raises(Fenced):
        store.finish(lease.id, [(lease.requests[0].id, {"text": "late"})], rng=Random(0))
    with pytest.raises(Fenced):
        store.renew(lease.id)
    assert store.expire(rng=Random(0)) == [lease.requests[0].id]


def test_renewing_keeps_a_lease_live(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(lease_ms=100)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    for _ in range(5):
        clock.now += 100
        store.renew(lease.id)
    assert store.expire(rng=Random(0)) == []


def test_a_worker_whose_lease_was_claimed_again_cannot_write(
    make_store: MakeStore, clock: Clock
) -> None:
    """Fencing by lease generation: the slow worker's result is refused, the new one kept."""
    slow, fast = (make_store(lease_ms=100, base_ms=1, cap_ms=1) for _ in range(2))
    slow.submit("b", batch(1))
    old = slow.claim("slow", limit=1, rng=Random(0))
    clock.now += 200
    fast.expire(rng=Random(0))
    clock.now += 10  # past the backoff
    new = fast.claim("fast", limit=1, rng=Random(0))
    assert old is not None
    assert new is not None
    assert new.id > old.id
    fast.finish(new.id, [(new.requests[0].id, {"text": "new"})], rng=Random(0))
    with pytest.raises(Fenced):
        slow.finish(old.id, [(old.requests[0].id, {"text": "old"})], rng=Random(0))
    [line] = slow.results("b")
    assert line["result"] == {"type": "succeeded", "output": {"text": "new"}}
    assert line["attempts"] == 2


def test_a_finish_is_all_or_nothing(make_store: MakeStore) -> None:
    """One request the lease does not hold refuses the whole write."""
    store = make_store()
    store.submit("b", batch(2))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    mine = lease.requests[0].id
    with pytest.raises(Fenced):
        store.finish(lease.id, [(mine, {"text": "ok"}), (mine + 1, {"text": "no"})], rng=Random(0))
    assert states(store) == {}
    store.finish(lease.id, [(mine, {"text": "ok"})], rng=Random(0))
    with pytest.raises(Fenced):  # once: a result is never written twice
        store.finish(lease.id, [(mine, {"text": "twice"})], rng=Random(0))


def test_failures_are_retried_after_a_backoff_then_dead_lettered(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(max_attempts=3, base_ms=10, cap_ms=40)
    store.submit("b", batch(1))
    for attempt in (1, 2, 3):
        lease = store.claim("w", limit=1, rng=Random(0))
        assert lease is not None
        assert lease.requests[0].attempt == attempt
        store.finish(
            lease.id, [(lease.requests[0].id, Failed(f"boom {attempt}", False))], rng=Random(0)
        )
        clock.now += 1_000  # past any backoff
    assert store.claim("w", limit=1, rng=Random(0)) is None
    [line] = store.results("b")
    assert line == {
        "custom_id": "r0",
        "result": {"type": "errored", "error": "boom 3"},
        "attempts": 3,
    }
    assert store.counters() == {"leases_expired": 0, "retries": 2, "dead_letters": 1}


def test_a_retried_request_waits_out_its_jitter(make_store: MakeStore, clock: Clock) -> None:
    """Full jitter: ready at now + randint(0, min(cap, base * 2**(attempts - 1))), not before."""
    store = make_store(base_ms=1_000, cap_ms=1_000)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.finish(lease.id, [(lease.requests[0].id, Failed("boom", False))], rng=Random(7))
    delay = Random(7).randint(0, 1_000)
    clock.now += delay - 1
    assert store.claim("w", limit=1, rng=Random(0)) is None
    clock.now += 1
    assert store.claim("w", limit=1, rng=Random(0)) is not None


def test_a_permanent_failure_is_dead_lettered_at_once(make_store: MakeStore) -> None:
    store = make_store(max_attempts=5)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.finish(lease.id, [(lease.requests[0].id, Failed("too long", True))], rng=Random(0))
    assert store.status("b").counts["errored"] == 1


def test_a_release_gives_the_attempt_back(make_store: MakeStore) -> None:
    """A spot notice: the requests are ready again at once, the attempt not counted."""
    store = make_store()
    store.submit("b", batch(2))
    lease = store.claim("w", limit=2, rng=Random(0))
    assert lease is not None
    store.release(lease.id)
    again = store.claim("w", limit=2, rng=Random(0))
    assert again is not None
    assert [r.attempt for r in again.requests] == [1, 1]
    with pytest.raises(Fenced):
        store.renew(lease.id)


def test_cancel_ends_the_waiting_and_lets_the_leased_finish(make_store: MakeStore) -> None:
    store = make_store()
    store.submit("b", batch(3))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    status = store.cancel("b")
    assert status.processing_status == "canceling"
    assert status.counts == {
        "processing": 1,
        "succeeded": 0,
        "errored": 0,
        "canceled": 2,
        "expired": 0,
    }
    store.finish(lease.id, [(lease.requests[0].id, {"text": "done"})], rng=Random(0))
    assert store.status("b").processing_status == "ended"
    assert states(store) == {"r0": "succeeded", "r1": "canceled", "r2": "canceled"}


def test_a_canceled_batchs_failed_request_is_canceled_not_retried(make_store: MakeStore) -> None:
    store = make_store()
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.cancel("b")
    store.finish(lease.id, [(lease.requests[0].id, Failed("boom", False))], rng=Random(0))
    assert states(store) == {"r0": "canceled"}


def test_requests_still_waiting_when_the_window_closes_expire(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(window_ms=1_000)
    store.submit("b", batch(2))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    clock.now += 1_001
    assert store.claim("w", limit=1, rng=Random(0)) is None
    assert store.status("b").counts["expired"] == 1


def test_results_name_each_request_with_its_attempts_and_error(make_store: MakeStore) -> None:
    store = make_store()
    store.submit("b", read_requests(['{"custom_id": "x", "params": {"tokens": 2}}'], source="f"))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.finish(lease.id, [(lease.requests[0].id, {"text": "hi"})], rng=Random(0))
    assert list(store.results("b")) == [
        {"custom_id": "x", "result": {"type": "succeeded", "output": {"text": "hi"}}, "attempts": 1}
    ]


def test_concurrent_claims_never_take_the_same_request(store_url: str) -> None:
    """Four connections claiming at once, on threads: each request leased once.

    On PostgreSQL this is SKIP LOCKED's work (without it two claims read the same
    rows and the second overwrites the first's lease); on SQLite, BEGIN IMMEDIATE's.
    """
    with open_store(store_url, Settings()) as store:
        store.submit("b", batch(2_000))
    claimed: list[list[int]] = [[] for _ in range(4)]

    def claim_all(mine: list[int]) -> None:
        with open_store(store_url, Settings()) as store:
            while lease := store.claim("w", limit=7, rng=Random(0)):
                mine.extend(request.id for request in lease.requests)

    threads = [threading.Thread(target=claim_all, args=(mine,)) for mine in claimed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [request for mine in claimed for request in mine]
    assert len(every) == len(set(every)) == 2_000, "a request was leased twice at once"


def test_an_expiry_draws_each_delay_in_claim_order(make_store: MakeStore, clock: Clock) -> None:
    """The lease exercise's order: leases as claimed, each one's requests as it took them;
    so that a seeded run is the same run on either store."""
    store = make_store(lease_ms=10, base_ms=1_000, cap_ms=1_000)
    store.submit("b", batch(3))
    first = store.claim("w", limit=2, rng=Random(0))
    second = store.claim("w", limit=1, rng=Random(0))
    assert first is not None
    assert second is not None
    clock.now += 11
    store.expire(rng=Random(3))
    draws = Random(3)
    expected = {
        r.custom_id: clock.now + draws.randint(0, 1_000) for r in first.requests + second.requests
    }
    ready = dict(store.sql("SELECT custom_id, ready_at FROM requests").fetchall())
    assert ready == expected


@pytest.mark.parametrize(("close", "ended"), [("cancel", "canceled"), ("window", "expired")])
def test_a_spot_notice_never_sends_a_closed_batchs_requests_back(
    make_store: MakeStore, clock: Clock, close: str, ended: str
) -> None:
    """Released after its batch was canceled, or passed its window: the requests end, as
    the ones waiting did, and are never claimed again."""
    store = make_store(window_ms=1_000)
    store.submit("b", batch(3))
    lease = store.claim("w", limit=3, rng=Random(0))
    assert lease is not None
    if close == "cancel":
        store.cancel("b")
    else:
        clock.now += 1_001
        store.expire(rng=Random(0))
    store.release(lease.id)
    assert store.claim("w", limit=3, rng=Random(0)) is None
    assert states(store) == dict.fromkeys(["r0", "r1", "r2"], ended)
    assert {line["attempts"] for line in store.results("b")} == {0}


def test_the_window_closes_on_time_with_no_worker_running(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(window_ms=1_000)
    store.submit("b", batch(2))
    clock.now += 1_001
    status = store.status("b")
    assert (status.processing_status, status.counts["expired"]) == ("ended", 2)


def test_the_same_batch_sent_at_once_by_many_clients_is_one_batch(store_url: str) -> None:
    """Four clients that each lost the answer send again, all at the same moment."""
    answers: list[object] = []

    def send() -> None:
        with open_store(store_url, Settings()) as store:
            try:
                answers.append(store.submit("b", batch(50)).counts["processing"])
            except Exception as error:  # the failure this test is about: reported, not raised
                answers.append(repr(error))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [50] * 4


def test_many_connections_creating_one_sqlite_store_at_once_all_open_it(tmp_path: Path) -> None:
    """SQLite refuses at once ("database is locked"), without waiting, a connection that
    could deadlock: two creating the store at the same moment. Opening tries again."""
    errors: list[str] = []
    for trial in range(20):
        url = f"sqlite:{tmp_path / f'jobs{trial}.db'}"

        def open_it(url: str = url) -> None:
            try:
                with open_store(url, Settings()):
                    pass
            except InputError as error:
                errors.append(str(error))

        threads = [threading.Thread(target=open_it) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []


def test_a_worker_restarted_under_its_name_is_not_charged_for_its_downtime(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store()
    store.record_work("gpu-0", busy_ms=0, done=0, starting=True)
    clock.now += 100
    store.record_work("gpu-0", busy_ms=50, done=1)
    clock.now += 10_000  # down
    store.record_work("gpu-0", busy_ms=0, done=0, starting=True)
    clock.now += 100
    store.record_work("gpu-0", busy_ms=50, done=1)
    snapshot = store.snapshot()
    assert (snapshot["alive_ms"], snapshot["busy_ms"], snapshot["done"]) == (200, 100, 2)
