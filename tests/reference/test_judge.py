"""The judge apart from the judged: modules written on a bad day, and one written to fool it.

Each row of the table is a module a candidate might hand in: one that hangs,
prints without end, exits, crashes, hogs memory, forks, writes files, or
patches the harness.  Run as a candidate runs the kata, each must end with
the exit status and the message the row states, within its time, with the
run's memory (the judge's and the judged process's, the larger) under
`MEMORY_MB`: the module's code runs in a process of its own, so nothing it
does reaches the verdict.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kata.exercises import ROOT
from tests.support.cli_runs import ctrl_c_as_at_a_terminal

pytestmark = pytest.mark.reference

USAGE_ERROR, TESTS_FAILED, OK, INTERRUPTED = 4, 1, 0, 2
MEMORY_MB = 400  # the largest process of a run, at most
# A correct detect to wrap: the module's own misbehaviour is the only thing wrong.
RIGHT = "from solution import Heartbeat, Stopped\nfrom solution import detect as right\n"


@dataclass(frozen=True)
class Case:
    name: str
    module: str
    tests: tuple[str, ...]  # the test paths (or -m markers) this case runs
    status: int
    says: tuple[str, ...]  # in the output, each
    seconds: float  # the run ends within this
    limit: float = 1.0  # --time-limit, seconds per call
    never_says: tuple[str, ...] = ("Traceback", "INTERNALERROR")


BOUNDARY = ("tests/detector/test_boundary.py",)
CASES = [
    Case(
        "hangs_and_swallows_the_interrupt",
        RIGHT + "def detect(*a, **k):\n    while True:\n        try:\n            pass\n"
        "        except BaseException:\n            pass\n",
        ("tests/detector",),
        TESTS_FAILED,
        ("no answer within 0.5 s", "TIME LIMIT", "NOT ASKED", "hung 5 times"),
        seconds=60,
        limit=0.5,
    ),
    Case(
        "loops_at_import",
        "print('loading...')\nwhile True:\n    pass\n",
        BOUNDARY,
        USAGE_ERROR,
        ("did not finish importing within 0.5 s", "loading...", "NOT LOADED"),
        seconds=20,
        limit=0.5,
    ),
    Case(
        "prints_100_kb_a_call",
        RIGHT + "def detect(*a, **k):\n    print('x' * 100_000)\n    return right(*a, **k)\n",
        ("tests/detector/test_oracle.py",),
        TESTS_FAILED,
        ("what your module printed during this test", "bytes left out", "OUTPUT"),
        seconds=60,
    ),
    Case(
        "os_exit_in_detect",
        RIGHT + "import os\ndef detect(*a, **k):\n    os._exit(0)\n",
        BOUNDARY,
        TESTS_FAILED,
        ("exited with status 0 during this call", "EXITED"),
        seconds=30,
    ),
    Case(
        "sys_exit_at_import",
        "import sys\nsys.exit(0)\n",
        BOUNDARY,
        USAGE_ERROR,
        ("exited (sys.exit(0)) while it was imported",),
        seconds=20,
    ),
    Case(
        "keyboard_interrupt_at_import",
        "raise KeyboardInterrupt\n",
        BOUNDARY,
        USAGE_ERROR,
        ("cannot import", "KeyboardInterrupt"),
        seconds=20,
    ),
    Case(
        "keyboard_interrupt_in_detect",
        RIGHT + "def detect(*a, **k):\n    raise KeyboardInterrupt\n",
        BOUNDARY,
        TESTS_FAILED,
        ("raised KeyboardInterrupt", "FAILED        boundary"),
        seconds=30,
    ),
    Case(
        "sys_exit_in_detect",
        RIGHT + "import sys\ndef detect(*a, **k):\n    sys.exit(0)\n",
        BOUNDARY,
        TESTS_FAILED,
        ("called sys.exit(0) during this call",),
        seconds=30,
    ),
    Case(
        "patches_the_harness",
        "import kata.outcomes\n"
        "kata.outcomes.Returned.__eq__ = lambda self, other: True\n"
        + RIGHT
        + "def detect(beats, *, world_size, start, now, timeout):\n"
        "    return [s for s in right(beats, world_size=world_size, start=start, now=now,\n"
        "            timeout=max(0, timeout - 1))]\n",
        ("tests/detector",),
        TESTS_FAILED,
        ("VOID", "changed the judge's code", "0 points passed: the run is void"),
        seconds=60,
    ),
    Case(
        "returns_a_number_of_100001_digits",
        RIGHT + "def detect(*a, **k):\n    return [Stopped(0, None, 10**100_000)]\n",
        BOUNDARY,
        TESTS_FAILED,
        ("(100,001 digits)",),
        seconds=30,
        never_says=("Traceback", "INTERNALERROR", "Exceeds the limit"),
    ),
    Case(
        "allocates_ten_gigabytes",
        RIGHT + "def detect(*a, **k):\n    hog = bytearray(10**10)\n    return right(*a, **k)\n",
        BOUNDARY,
        TESTS_FAILED,
        ("raised MemoryError", "may use 2 GiB"),
        seconds=30,
    ),
    Case(
        "writes_a_file_in_the_working_folder",
        RIGHT + "def detect(*a, **k):\n    with open('scratch.txt', 'a') as f:\n"
        "        f.write('x')\n    return right(*a, **k)\n",
        BOUNDARY,
        OK,
        ("passed",),
        seconds=30,
    ),
]


def run(case: Case, folder: Path) -> tuple[subprocess.CompletedProcess[str], float, int, Any]:
    """The kata on the case's module, timed, with the peak memory of its processes (KB)."""
    module = folder / f"{case.name}.py"
    module.write_text(textwrap.dedent(case.module))
    card = folder / f"{case.name}.json"
    kata = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-q"]
    kata += ["-p", "no:cacheprovider", "--hypothesis-profile", "examples", "--rubric"]
    kata += [f"--impl={module}", f"--rubric-json={card}", f"--time-limit={case.limit}"]
    # A wrapper reports the largest resident size among the run's processes.
    wrapper = (
        "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
        "print('PEAK', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
        "sys.exit(done.returncode)"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *kata, *case.tests],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=case.seconds * 3,
    )
    seconds = time.monotonic() - started
    peak = int(done.stderr.rsplit("PEAK", 1)[1].split()[0])
    document = json.loads(card.read_text()) if card.exists() else None
    return done, seconds, peak, document


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every case, two at a time (one per core)."""
    folder = tmp_path_factory.mktemp("hostile")
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda case: run(case, folder), CASES)
        return {case.name: result for case, result in zip(CASES, done, strict=True)}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_hostile_module_ends_in_its_verdict(runs: dict[str, Any], case: Case) -> None:
    done, seconds, peak_kb, _ = runs[case.name]
    output = done.stdout + done.stderr
    assert done.returncode == case.status, output[-3000:]
    for words in case.says:
        assert words in output, f"{case.name}: no {words!r} in:\n{output[-3000:]}"
    for words in case.never_says:
        assert words not in output, f"{case.name}: {words!r} in:\n{output[-3000:]}"
    assert seconds < case.seconds, f"{case.name} took {seconds:.1f} s"
    assert peak_kb < MEMORY_MB * 1024, f"{case.name}: a process reached {peak_kb / 1024:.0f} MB"


def test_a_module_that_hangs_still_gets_its_scorecard(runs: dict[str, Any]) -> None:
    _, _, _, card = runs["hangs_and_swallows_the_interrupt"]
    tested = {p: s for p, s in card["points"].items() if s["result"] != "scored in the interview"}
    assert tested
    assert all(score["result"] == "failed" for score in tested.values()), tested
    kinds = {limit["kind"]: limit["count"] for limit in card["limits"]}
    assert kinds["time limit"] == 5, kinds
    assert kinds["not asked"] > 50, kinds


def test_a_module_that_patches_the_harness_passes_nothing(runs: dict[str, Any]) -> None:
    """Its `>=`-free timeout - 1 detector answers wrongly; the patched equality is its own."""
    _, _, _, card = runs["patches_the_harness"]
    assert card["void"].startswith("the module changed the judge's code")
    assert not any(score["result"] == "passed" for score in card["points"].values())


def test_a_module_that_forks_leaves_no_process_behind(tmp_path: Path) -> None:
    """Every call forks a process that would sleep for ten minutes; none outlives the run."""
    pids = tmp_path / "pids"
    module = RIGHT + textwrap.dedent(
        f"""
        import os, time
        def detect(*a, **k):
            if os.fork() == 0:
                with open({str(pids)!r}, "a") as f:
                    f.write(f"{{os.getpid()}}\\n")
                time.sleep(600)
                os._exit(0)
            return right(*a, **k)
        """
    )
    case = Case("forks", module, BOUNDARY, OK, ("passed",), seconds=60)
    done, _, _, _ = run(case, tmp_path)
    assert done.returncode == OK, done.stdout[-3000:]
    time.sleep(0.5)  # the kernel reaps what the judge killed
    forked = [int(line) for line in pids.read_text().split()]
    assert forked, "the module never forked"
    alive = [pid for pid in forked if _alive(pid)]
    assert not alive, f"still running after the run: {alive}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text()


def test_a_file_the_module_writes_lands_in_its_scratch_folder(runs: dict[str, Any]) -> None:
    assert not (ROOT / "scratch.txt").exists()
    done, _, _, _ = runs["writes_a_file_in_the_working_folder"]
    assert done.returncode == OK


def test_ctrl_c_stops_the_run_with_a_scorecard_and_no_process_left(tmp_path: Path) -> None:
    """SIGINT to the run (as Ctrl-C sends it): exit 2, the card says so, the judged process ends."""
    module = tmp_path / "slow.py"
    asking = tmp_path / "asking"  # written once the tests are calling: collection is over
    module.write_text(
        RIGHT
        + "import itertools, time\ncalls = itertools.count(1)\n"
        + "def detect(*a, **k):\n    time.sleep(0.05)\n"
        + f"    if next(calls) == 20:\n        open({str(asking)!r}, 'w').close()\n"
        + "    return right(*a, **k)\n"
    )
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-q"]
    command += ["-p", "no:cacheprovider", "--rubric", f"--impl={module}", "tests/detector"]
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    judged = _judged_children(run.pid, seconds=30)
    # Signalled while the tests run, however long a busy machine takes to collect them.
    deadline = time.monotonic() + 120
    while not asking.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert asking.exists(), "the run never called detect twenty times"
    run.send_signal(signal.SIGINT)
    output, _ = run.communicate(timeout=60)
    assert run.returncode == INTERRUPTED, output[-3000:]
    assert "INTERRUPTED   the run was stopped after" in output, output[-3000:]
    assert "==== rubric scorecard" in output
    time.sleep(0.5)
    assert not [pid for pid in judged if _alive(pid)], judged


def _judged_children(parent: int, *, seconds: float) -> list[int]:
    """The judged processes the run started, once there is one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["pgrep", "-P", str(parent), "-f", "kata.process.judged"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        if found:
            return [int(pid) for pid in found]
        time.sleep(0.1)
    raise AssertionError("the run never started a judged process")


def test_a_scorecard_onto_a_folder_fails_before_the_run(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-q"]
    command += ["--impl=starters/detector.py", f"--rubric-json={tmp_path}"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == USAGE_ERROR
    assert "that is a folder, not a file" in done.stderr
    assert "passed" not in done.stdout
