"""The command line: what a user types, and the one line a mistake gets (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_runs import run
from variants.cli import main

pytestmark = pytest.mark.reference


def jobs(store: str, *argv: str) -> tuple[int, str, str]:
    verb, *rest = argv
    result = run(main, ["jobs", verb, "--store", store, *rest])
    return result.status, result.stdout, result.stderr


def write(path: Path, *lines: str) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


GOOD = [
    '{"custom_id": "a", "params": {"prompt": "hello there"}}',
    '{"custom_id": "b", "params": {"tokens": 9}}',
]


def test_submit_then_status_then_results(store_url: str, tmp_path: Path) -> None:
    status, out, _ = jobs(store_url, "submit", "b1", write(tmp_path / "in.jsonl", *GOOD))
    assert status == 0
    assert json.loads(out)["counts"]["processing"] == 2
    status, out, _ = jobs(store_url, "status", "b1")
    assert status == 0
    assert json.loads(out)["processing_status"] == "in_progress"
    assert jobs(store_url, "results", "b1") == (0, "", "")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("not json", "in.jsonl:2: not JSON"),
        (
            '{"custom_id": "a", "params": {"prompt": "x"}}',
            "in.jsonl:2: duplicate custom_id 'a' (first on line 1)",
        ),
        ('{"custom_id": "b"}', "in.jsonl:2: expected an object with exactly custom_id and params"),
        ('{"custom_id": "b c", "params": {}}', "in.jsonl:2: custom_id 'b c'"),
        (
            '{"custom_id": "b", "params": {"tokens": 0}}',
            "in.jsonl:2: params.tokens must be an integer from 1 to 2,147,483,647, got 0",
        ),
        (
            '{"custom_id": "b", "params": {"tokens": 3000000000}}',
            "in.jsonl:2: params.tokens must be an integer from 1 to 2,147,483,647",
        ),
        (
            '{"custom_id": "b", "params": {"x": NaN}}',
            "in.jsonl:2: not JSON (NaN is not a JSON number)",
        ),
        (
            '{"custom_id": "b", "custom_id": "c", "params": {}}',
            "in.jsonl:2: not JSON (the key 'custom_id' twice in one object)",
        ),
        ('{"custom_id": "b", "params": {}}', "in.jsonl:2: params needs a prompt"),
        ("", "in.jsonl:2: empty line"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_stored(
    store_url: str, tmp_path: Path, line: str, says: str
) -> None:
    status, out, err = jobs(
        store_url, "submit", "b1", write(tmp_path / "in.jsonl", GOOD[0], line, GOOD[1])
    )
    assert (status, out) == (2, "")
    assert says in err, err
    assert err.count("\n") == 1, err
    if store_url.startswith("postgresql"):
        status, _, err = jobs(store_url, "status", "b1")
        assert (status, err.strip()) == (
            2,
            "python -m variants: error: no batch 'b1' in this store",
        )
    else:
        assert not Path(store_url.removeprefix("sqlite:")).exists(), (
            "a store was made for a refused batch"
        )


def test_resubmitting_with_other_content_is_an_error(store_url: str, tmp_path: Path) -> None:
    assert jobs(store_url, "submit", "b1", write(tmp_path / "a.jsonl", *GOOD))[0] == 0
    status, _, err = jobs(store_url, "submit", "b1", write(tmp_path / "b.jsonl", GOOD[0]))
    assert (status, "exists with other content" in err) == (2, True)


@pytest.mark.parametrize("verb", ["status", "results", "cancel"])
def test_an_unknown_batch_is_named(store_url: str, tmp_path: Path, verb: str) -> None:
    jobs(store_url, "submit", "b1", write(tmp_path / "a.jsonl", *GOOD))
    assert jobs(store_url, verb, "nope") == (
        2,
        "",
        "python -m variants: error: no batch 'nope' in this store\n",
    )


def test_a_store_that_is_not_one_is_named(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not a database at all\n" * 100)
    cases = {
        f"sqlite:{text}": "not a job store",
        f"sqlite:{tmp_path}": "a directory, not a job store",
        f"sqlite:{tmp_path / 'missing.db'}": "no such job store",
        "mysql://localhost/x": "a store is sqlite:PATH or postgresql://",
        "sqlite://x.db": "a store is sqlite:PATH or postgresql://",
        "postgresql://nobody@/x?host=/nonexistent": "cannot connect",
    }
    for store, says in cases.items():
        status, out, err = jobs(store, "status", "b1")
        assert (status, out) == (2, ""), store
        assert says in err, (store, err)
        assert err.count("\n") == 1, (store, err)


def test_cancel_prints_the_counts(store_url: str, tmp_path: Path) -> None:
    jobs(store_url, "submit", "b1", write(tmp_path / "a.jsonl", *GOOD))
    status, out, _ = jobs(store_url, "cancel", "b1")
    assert status == 0
    assert json.loads(out)["counts"]["canceled"] == 2
    lines = [json.loads(line) for line in jobs(store_url, "results", "b1")[1].splitlines()]
    assert [(x["custom_id"], x["result"]["type"]) for x in lines] == [
        ("a", "canceled"),
        ("b", "canceled"),
    ]


def test_a_byte_that_is_not_utf8_is_named_by_its_line(store_url: str, tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (GOOD[0] + "\n").encode() + b'{"custom_id": "\xff"}\n')
    status, out, err = jobs(store_url, "submit", "b1", str(path))
    assert (status, out) == (2, "")
    assert err.endswith("in.jsonl:2: not UTF-8 (byte 16)\n"), err


def test_a_bad_batch_id_is_refused_before_a_store_is_made(tmp_path: Path) -> None:
    store = tmp_path / "new.db"
    status, _, err = jobs(f"sqlite:{store}", "submit", "bad id", write(tmp_path / "a.jsonl", *GOOD))
    assert status == 2
    assert "batch id 'bad id'" in err
    assert not store.exists()


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--failure-rate", "1/0"], "is not a fraction"),
        (["--failure-rate", "2"], "must be between 0 and 1"),
        (["--time-scale", "-1"], "must be a finite number >= 0"),
        (["--time-scale", "nan"], "must be a finite number >= 0"),
        (["--lease-ms", "99999999999999999999"], "must be between 1 and 1,000,000,000,000"),
    ],
)
def test_a_worker_refuses_a_bad_flag_before_it_claims(
    tmp_path: Path, flags: list[str], says: str
) -> None:
    status, _, err = jobs(f"sqlite:{tmp_path / 'x.db'}", "worker", *flags)
    assert status == 2
    assert says in err, err
    assert not (tmp_path / "x.db").exists()


def test_a_password_is_never_printed(tmp_path: Path) -> None:
    status, _, err = jobs("postgresql://me:secret@/x?host=/nonexistent", "status", "b1")
    assert status == 2
    assert "secret" not in err
    assert "postgresql://me:***@" in err


def test_a_schema_that_does_not_exist_is_not_a_job_store(postgres: str) -> None:
    status, _, err = jobs(f"{postgres}&options=-csearch_path%3Dnowhere", "status", "b1")
    assert status == 2
    assert "not a job store" in err, err
