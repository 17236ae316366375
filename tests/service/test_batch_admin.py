"""The batch API's other half: list a store's batches, delete an ended one, redrive a
batch's dead letters; on both stores, on the test's clock, and on the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import pytest

from solution.logfile import InputError
from tests.service.conftest import Clock
from tests.service.test_cli import GOOD, jobs, write
from tests.service.test_store import batch, states
from tests.service.test_turns import made_by_the_old_version
from variants.jobs.backends import open_store
from variants.jobs.model import Failed
from variants.jobs.store import Lease, Settings, Store

pytestmark = pytest.mark.reference
MakeStore = Callable[..., Store]


def claimed(store: Store, limit: int = 1) -> Lease:
    lease = store.claim("w", limit=limit, rng=Random(0))
    assert lease is not None
    return lease


def succeed(store: Store, lease: Lease) -> None:
    store.finish(lease.id, [(r.id, {"text": "ok"}) for r in lease.requests], rng=Random(0))


def fail(store: Store, lease: Lease, error: str, *, permanent: bool = False) -> None:
    outcomes = [(r.id, Failed(error, permanent)) for r in lease.requests]
    store.finish(lease.id, list(outcomes), rng=Random(0))


def row(store: Store, custom_id: str) -> dict[str, Any]:
    """A request's row as the store keeps it, and whether a result row refers to it."""
    found = store.sql(
        "SELECT state, attempts, error, ended_at, ready_at, lease_id,"
        " (SELECT count(*) FROM results WHERE request_id = requests.id)"
        " FROM requests WHERE custom_id = ?",
        [custom_id],
    ).fetchone()
    names = ("state", "attempts", "error", "ended_at", "ready_at", "lease_id", "results")
    return dict(zip(names, found, strict=True))


def rows_of(store: Store, batch_id: str) -> dict[str, int]:
    counted = store.sql(
        "SELECT (SELECT count(*) FROM batches WHERE id = ?),"
        " (SELECT count(*) FROM requests WHERE batch_id = ?),"
        " (SELECT count(*) FROM results o JOIN requests r ON r.id = o.request_id"
        " WHERE r.batch_id = ?),"
        " (SELECT count(*) FROM leases WHERE batch_id = ?)",
        [batch_id] * 4,
    ).fetchone()
    return dict(zip(("batches", "requests", "results", "leases"), counted, strict=True))


# -- list -------------------------------------------------------------------------------


def test_list_is_newest_first_each_batch_as_its_status(make_store: MakeStore, clock: Clock) -> None:
    store = make_store()
    store.submit("old", batch(3, "o"))
    clock.now += 1
    store.submit("middle", batch(2, "m"))
    clock.now += 1
    store.submit("new", batch(1, "n"))
    succeed(store, claimed(store))  # the oldest batch's first turn: o0
    store.cancel("middle")
    listed = store.batches()
    assert [status.batch_id for status in listed] == ["new", "middle", "old"]
    assert listed == [store.status(batch_id) for batch_id in ("new", "middle", "old")]
    assert [(s.processing_status, s.counts["processing"]) for s in listed] == [
        ("in_progress", 1),
        ("ended", 0),
        ("in_progress", 2),
    ]
    assert (listed[1].counts["canceled"], listed[2].counts["succeeded"]) == (2, 1)
    assert [s.batch_id for s in store.batches(limit=2)] == ["new", "middle"]


def test_batches_submitted_at_the_same_moment_are_listed_by_id(make_store: MakeStore) -> None:
    store = make_store()
    for batch_id in ("b", "c", "a"):
        store.submit(batch_id, batch(1, batch_id))
    assert [status.batch_id for status in store.batches()] == ["c", "b", "a"]


def test_list_of_an_empty_store_is_empty(make_store: MakeStore) -> None:
    assert make_store().batches() == []


def test_list_applies_a_closed_window_first(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(window_ms=1_000)
    store.submit("b", batch(2))
    clock.now += 1_001
    [status] = store.batches()
    assert (status.processing_status, status.counts["expired"]) == ("ended", 2)


# -- delete -----------------------------------------------------------------------------


def test_delete_is_refused_while_the_batch_runs(make_store: MakeStore) -> None:
    store = make_store()
    store.submit("b", batch(2))
    lease = claimed(store)
    with pytest.raises(InputError, match=r"^batch 'b' is in progress: cancel it, or wait until"):
        store.delete("b")
    store.cancel("b")
    with pytest.raises(InputError, match=r"^batch 'b' is canceling: wait until it ends$"):
        store.delete("b")
    assert rows_of(store, "b") == {"batches": 1, "requests": 2, "results": 0, "leases": 1}
    succeed(store, lease)  # what was leased finishes: the batch has ended
    assert store.delete("b").deleted == {"requests": 2, "results": 1, "leases": 1}


def test_delete_removes_all_of_a_batch_and_the_id_is_free_again(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(lease_ms=100, max_attempts=1)
    store.submit("b", batch(3))
    store.submit("other", batch(2, "x"))
    succeed(store, claimed(store, limit=2))  # b: r0 and r1
    claimed(store, limit=2)  # other's turn: its rows must outlive b's delete
    claimed(store)  # b: r2, whose lease expires: a dead letter
    clock.now += 101
    store.expire(rng=Random(0))
    assert store.status("b").processing_status == "ended"
    other = rows_of(store, "other")

    deleted = store.delete("b")
    assert (deleted.batch_id, deleted.deleted) == ("b", {"requests": 3, "results": 2, "leases": 2})
    assert rows_of(store, "b") == {"batches": 0, "requests": 0, "results": 0, "leases": 0}
    assert rows_of(store, "other") == other
    with pytest.raises(InputError, match="no batch 'b' in this store"):
        store.status("b")

    clock.now += 1
    again = store.submit("b", batch(1, "again"))  # other content: a new batch, not the old
    assert (again.processing_status, again.counts["processing"], again.created_at) == (
        "in_progress",
        1,
        clock.now,
    )
    assert states(store) == {}
    assert [r.custom_id for r in claimed(store, limit=5).requests] == ["again0"]


def test_delete_of_an_unknown_batch_is_named(make_store: MakeStore) -> None:
    with pytest.raises(InputError, match=r"^no batch 'nope' in this store$"):
        make_store().delete("nope")


def test_a_batch_past_its_window_may_be_deleted(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(window_ms=1_000)
    store.submit("b", batch(2))
    clock.now += 1_001
    assert store.delete("b").deleted == {"requests": 2, "results": 0, "leases": 0}


# -- redrive ----------------------------------------------------------------------------


def dead_letters(store: Store, clock: Clock) -> Lease:
    """Batch b: r0 succeeded; r1 dead after its 2 attempts; r2 dead at once, too long (a
    permanent failure); r3 leased, its lease live.  The lease of r3 is returned."""
    store.submit("b", batch(4))
    succeed(store, claimed(store))
    fail(store, claimed(store), "boom 1")  # r1, back in the queue after its jitter
    fail(store, claimed(store), "longer than the token budget", permanent=True)
    held = claimed(store)
    clock.now += 1_000  # past r1's backoff, inside r3's lease
    fail(store, claimed(store), "boom 2")
    assert states(store) == {"r0": "succeeded", "r1": "errored", "r2": "errored"}
    return held


def test_redrive_sends_back_the_dead_letters_only(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(max_attempts=2, base_ms=10, cap_ms=10)
    held = dead_letters(store, clock)
    before = {custom_id: row(store, custom_id) for custom_id in ("r0", "r2", "r3")}
    counters = store.counters()
    clock.now += 5

    status = store.redrive("b")
    assert (status.processing_status, status.counts) == (
        "in_progress",
        {"processing": 2, "succeeded": 1, "errored": 1, "canceled": 0, "expired": 0},
    )
    assert row(store, "r1") == {
        "state": "queued",
        "attempts": 0,
        "error": "boom 2",  # kept until a new attempt ends
        "ended_at": None,
        "ready_at": clock.now,
        "lease_id": None,
        "results": 0,
    }
    assert {custom_id: row(store, custom_id) for custom_id in before} == before
    assert store.counters() == counters
    succeed(store, held)  # the leased one was not touched: its lease still holds it


def test_redriven_requests_run_again_to_the_end(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(max_attempts=2, base_ms=10, cap_ms=10)
    succeed(store, dead_letters(store, clock))
    assert store.status("b").processing_status == "ended"
    store.redrive("b")
    lease = claimed(store, limit=5)
    assert [(r.custom_id, r.attempt) for r in lease.requests] == [("r1", 1)]
    fail(store, lease, "boom again")  # its attempts start again from none
    assert row(store, "r1")["error"] == "boom again"
    clock.now += 1_000
    lease = claimed(store, limit=5)
    assert [(r.custom_id, r.attempt) for r in lease.requests] == [("r1", 2)]
    succeed(store, lease)
    assert store.status("b").processing_status == "ended"
    [r1] = [line for line in store.results("b") if line["custom_id"] == "r1"]
    assert r1 == {
        "custom_id": "r1",
        "result": {"type": "succeeded", "output": {"text": "ok"}},
        "attempts": 2,
    }
    assert store.redrive("b").counts["errored"] == 1  # the permanent one: nothing to redrive


def test_a_cancel_after_a_redrive_cancels_what_it_sent_back(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store(max_attempts=2, base_ms=10, cap_ms=10)
    held = dead_letters(store, clock)
    store.redrive("b")
    assert store.cancel("b").processing_status == "canceling"  # r3 still runs
    succeed(store, held)
    assert states(store) == {
        "r0": "succeeded",
        "r1": "canceled",
        "r2": "errored",
        "r3": "succeeded",
    }


@pytest.mark.parametrize(("close", "says"), [("cancel", "was canceled"), ("window", "has expired")])
def test_redrive_is_refused_once_the_batchs_window_is_over(
    make_store: MakeStore, clock: Clock, close: str, says: str
) -> None:
    store = make_store(max_attempts=1, window_ms=10_000)
    store.submit("b", batch(2))
    fail(store, claimed(store), "boom")
    if close == "cancel":
        store.cancel("b")
    else:
        clock.now += 10_001
    with pytest.raises(InputError, match=rf"^batch 'b' {says}: its window is over$"):
        store.redrive("b")
    assert row(store, "r0")["state"] == "errored"


def test_redrive_of_an_unknown_batch_is_named(make_store: MakeStore) -> None:
    with pytest.raises(InputError, match=r"^no batch 'nope' in this store$"):
        make_store().redrive("nope")


def test_a_store_made_before_redrive_opens_and_lists(store_url: str, clock: Clock) -> None:
    """Its requests gain the permanent flag, unset: its dead letters count as redrivable."""
    made_by_the_old_version(store_url)
    store: Store
    with open_store(store_url, Settings(), clock=clock) as store:
        [status] = store.batches()
        assert (status.batch_id, status.counts["processing"]) == ("old", 3)
        flags = store.sql("SELECT permanent FROM requests").fetchall()
        assert [flag for (flag,) in flags] == [0, 0, 0]


# -- the command line -------------------------------------------------------------------


def test_list_delete_and_redrive_on_the_command_line(store_url: str, tmp_path: Path) -> None:
    requests = write(tmp_path / "in.jsonl", *GOOD)
    for batch_id in ("b1", "b2"):
        assert jobs(store_url, "submit", batch_id, requests)[0] == 0
    status, out, _ = jobs(store_url, "list")
    assert status == 0
    listed = [json.loads(line) for line in out.splitlines()]
    assert {line["batch_id"] for line in listed} == {"b1", "b2"}
    assert [line["created_at"] for line in listed] == sorted(
        (line["created_at"] for line in listed), reverse=True
    )
    assert jobs(store_url, "list", "--limit", "1")[1].count("\n") == 1

    assert jobs(store_url, "delete", "b1") == (
        2,
        "",
        "python -m variants: error: batch 'b1' is in progress: cancel it, or wait until it ends\n",
    )
    assert jobs(store_url, "cancel", "b1")[0] == 0
    assert jobs(store_url, "redrive", "b1") == (
        2,
        "",
        "python -m variants: error: batch 'b1' was canceled: its window is over\n",
    )
    assert jobs(store_url, "delete", "b1") == (
        0,
        '{"batch_id": "b1", "deleted": {"requests": 2, "results": 0, "leases": 0}}\n',
        "",
    )
    status, out, _ = jobs(store_url, "redrive", "b2")
    assert (status, json.loads(out)["processing_status"]) == (0, "in_progress")
    assert [json.loads(line)["batch_id"] for line in jobs(store_url, "list")[1].splitlines()] == [
        "b2"
    ]
    assert jobs(store_url, "cancel", "b2")[0] == 0
    assert jobs(store_url, "delete", "b2")[0] == 0
    assert jobs(store_url, "list") == (0, "", "")  # a store with no batch left


@pytest.mark.parametrize("verb", ["delete", "redrive"])
def test_delete_and_redrive_name_an_unknown_batch(
    store_url: str, tmp_path: Path, verb: str
) -> None:
    jobs(store_url, "submit", "b1", write(tmp_path / "a.jsonl", *GOOD))
    assert jobs(store_url, verb, "nope") == (
        2,
        "",
        "python -m variants: error: no batch 'nope' in this store\n",
    )


@pytest.mark.parametrize("limit", ["0", "1001", "ten"])
def test_list_refuses_a_bad_limit(tmp_path: Path, limit: str) -> None:
    status, out, err = jobs(f"sqlite:{tmp_path / 'x.db'}", "list", "--limit", limit)
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert "--limit" in err, err
