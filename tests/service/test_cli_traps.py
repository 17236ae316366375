"""The command line's traps: a batch too big, a resubmission that differs, a store
mistyped, full or read-only.  Each is one line and a non-zero status, with nothing
half-written; a read-only store can still be read.

The full disk and the read-only disk are real: a small tmpfs, and a read-only bind
mount, made in a mount namespace of the test's own (``unshare``), so no root is needed
where user namespaces are allowed; elsewhere those two tests are skipped, saying why.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kata.exercises import ROOT
from tests.service.test_cli import GOOD, jobs, write
from variants.jobs.intake import FILE_LIMIT, LINE_LIMIT, REQUESTS_LIMIT

pytestmark = pytest.mark.reference


def test_a_line_over_the_limit_is_refused_before_it_is_read_whole(
    store_url: str, tmp_path: Path
) -> None:
    """A pipe that never ends its first line: refused at the limit, not read to the end."""
    fifo = tmp_path / "endless.jsonl"
    os.mkfifo(fifo)

    def endless() -> None:
        try:
            with open(fifo, "wb") as pipe:
                pipe.write(b'{"custom_id": "a", "params": {"prompt": "')
                while True:
                    pipe.write(b"word " * 4096)
        except BrokenPipeError:  # the reader refused it and closed the pipe
            pass

    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    status, out, err = jobs(store_url, "submit", "b1", str(fifo))
    assert (status, out) == (2, "")
    assert err.endswith(f"endless.jsonl:1: a line over {LINE_LIMIT:,} bytes\n"), err
    writer.join(timeout=10)


def test_a_line_exactly_at_the_limit_is_accepted(store_url: str, tmp_path: Path) -> None:
    head = '{"custom_id": "a", "params": {"tokens": 7, "prompt": "'
    line = head + "x" * (LINE_LIMIT - len(head) - 3) + '"}}'
    assert len(line) == LINE_LIMIT
    status, _, err = jobs(store_url, "submit", "b1", write(tmp_path / "in.jsonl", line))
    assert status == 0, err


def test_a_batch_of_too_many_requests_is_refused_at_the_first_over(
    store_url: str, tmp_path: Path
) -> None:
    lines = [json.dumps({"custom_id": f"r{n}", "params": {"tokens": 1}}) for n in range(1 << 17)]
    status, _, err = jobs(store_url, "submit", "b1", write(tmp_path / "in.jsonl", *lines))
    assert status == 2
    assert err.endswith(f"in.jsonl:{REQUESTS_LIMIT + 1}: more than {REQUESTS_LIMIT:,} requests\n")


def test_a_file_over_the_limit_is_refused_by_its_size(store_url: str, tmp_path: Path) -> None:
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as file:
        file.truncate(FILE_LIMIT + 1)  # sparse: nothing is written, nothing read
    status, _, err = jobs(store_url, "submit", "b1", str(huge))
    assert status == 2
    assert err.endswith(f"huge.jsonl: {FILE_LIMIT + 1:,} bytes, over a batch's {FILE_LIMIT:,}\n")


def test_a_resubmission_with_another_window_is_refused(store_url: str, tmp_path: Path) -> None:
    """The same batch is the same content and the same window; another window is not
    silently ignored (the batch would expire when its user does not expect)."""
    batch = write(tmp_path / "a.jsonl", *GOOD)
    assert jobs(store_url, "submit", "b1", batch, "--window-ms", "60000")[0] == 0
    assert jobs(store_url, "submit", "b1", batch, "--window-ms", "60000")[0] == 0
    status, _, err = jobs(store_url, "submit", "b1", batch)
    assert status == 2
    assert "batch 'b1' exists with a window of 60000 ms, not 86400000 (--window-ms)" in err


def test_a_worker_refuses_a_store_that_is_not_there(tmp_path: Path) -> None:
    """A typo in --store must not make a new, empty store for the worker to wait on."""
    status, _, err = jobs(f"sqlite:{tmp_path / 'tpyo.db'}", "worker", "--until-idle")
    assert status == 2
    assert err.endswith("tpyo.db: no such job store\n"), err
    assert not (tmp_path / "tpyo.db").exists()


def _namespaced(script: str) -> subprocess.CompletedProcess[str]:
    """`script` (sh) in a mount namespace of its own, as its root; skip where not allowed."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare(1) here to mount a small or read-only disk")
    probe = subprocess.run(
        [unshare, "--map-root-user", "--mount", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip("user and mount namespaces are not allowed here")
    return subprocess.run(
        [unshare, "--map-root-user", "--mount", "sh", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def _command(*argv: str) -> str:
    return shlex.join([sys.executable, "-m", "variants", "jobs", *argv])


def test_a_full_disk_is_one_line_and_nothing_half_written(tmp_path: Path) -> None:
    disk = tmp_path / "small"
    disk.mkdir()
    lines = [
        json.dumps({"custom_id": f"r{n}", "params": {"prompt": "w " * 200}}) for n in range(3000)
    ]
    batch = write(tmp_path / "big.jsonl", *lines)
    store = f"sqlite:{disk / 'jobs.db'}"
    script = (
        f"mount -t tmpfs -o size=256k tmpfs {shlex.quote(str(disk))} || exit 99\n"
        f'{_command("submit", "--store", store, "big", batch)}; echo "submit $?" >&2\n'
        f'{_command("status", "--store", store, "big")}; echo "status $?" >&2\n'
    )
    done = _namespaced(script)
    assert done.returncode != 99, done.stderr
    errors = done.stderr.splitlines()
    assert errors == [
        f"python -m variants: error: {disk / 'jobs.db'}: database or disk is full;"
        " nothing was written",
        "submit 1",
        "python -m variants: error: no batch 'big' in this store",
        "status 2",
    ], done.stderr


def test_a_read_only_store_can_be_read_and_refuses_writes(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    store = f"sqlite:{folder / 'jobs.db'}"
    assert jobs(store, "submit", "b1", write(tmp_path / "a.jsonl", *GOOD))[0] == 0
    path = shlex.quote(str(folder))
    script = (
        f"mount --bind {path} {path} && mount -o remount,bind,ro {path} || exit 99\n"
        f'{_command("status", "--store", store, "b1")}; echo "status $?"\n'
        f'{_command("list", "--store", store)}; echo "list $?"\n'
        f'{_command("results", "--store", store, "b1")}; echo "results $?"\n'
        f'{_command("cancel", "--store", store, "b1")}; echo "cancel $?"\n'
        f'{_command("delete", "--store", store, "b1")}; echo "delete $?"\n'
        f'{_command("redrive", "--store", store, "b1")}; echo "redrive $?"\n'
        f'{_command("worker", "--store", store)}; echo "worker $?"\n'
    )
    done = _namespaced(script)
    assert done.returncode != 99, done.stderr
    out = done.stdout.splitlines()
    assert json.loads(out[0])["counts"]["processing"] == 2
    assert json.loads(out[2]) == json.loads(out[0])  # list: the one batch, as status has it
    assert out[1:2] + out[3:] == [
        "status 0",
        "list 0",
        "results 0",
        "cancel 1",
        "delete 1",
        "redrive 1",
        "worker 2",
    ], done.stdout
    refused = (
        f"python -m variants: error: {folder / 'jobs.db'}: attempt to write a readonly"
        " database; nothing was written"
    )
    assert done.stderr.splitlines() == [
        *[refused] * 3,  # cancel, delete, redrive
        f"python -m variants: error: {store}: read-only, and a worker writes",
    ]
