"""Replaying a long heartbeat log: `detect` beside the floor and DuckDB, time and peak memory.

    python3 benchmarks/replay.py            # 1M and 10M lines (250 MB of CSV in a temp folder)
    python3 benchmarks/replay.py --smoke    # 1k and 10k lines, once each, for CI

The floor is the least any replay must do, written as well as it can be: a
plain ``csv.reader`` loop, in a function, that parses the three integers of
each line and keeps each rank's maximum.
``python -m solution detect`` does that and checks every line (ranks in
range, times that parse, the error's line number kept), then reports.  Both
run as processes on the same file, best of three; each process reports its
own peak resident memory as it exits (``VmHWM`` of /proc/self/status: the
high-water mark of its own address space since exec, which ``getrusage``
is not: that counts the parent's memory at fork).  The log is a
1,024-rank job beating once a second, in milliseconds.

Then, on the same logs, what a user with a week-long log reaches for:
DuckDB, bare (``read_csv`` with its own detection, then ``GROUP BY rank``
keeping each rank's maximum: no line checked, no report), beside
``detect --engine duckdb``, which checks what the default engine checks
(and prints the same report), and the default engine's time beside both.
Without DuckDB installed (``pip install -e '.[duckdb]'``), that table is
left out.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RANKS = 1024
WIDTHS = (11, 8, 8, 6, 9, 10)
DUCK_WIDTHS = (11, 8, 8, 13, 13, 10, 10)
# Inside a function, as `detect`'s loop is: its names are locals, not global lookups.
FLOOR = """
import csv, sys
def floor(path):
    latest = {}
    get = latest.get
    with open(path, newline="") as lines:
        rows = csv.reader(lines)
        next(rows)
        for rank, sent, received in rows:
            r, _, t = int(rank), int(sent), int(received)
            if t > get(r, -1):
                latest[r] = t
    return latest
floor(sys.argv[1])
"""
DETECT = """
import runpy, sys
sys.argv = ["python -m solution", *sys.argv[1:]]
runpy.run_module("solution", run_name="__main__")
"""
# DuckDB as a user types it: the file's types detected, each rank's latest receipt.
DUCKDB = """
import duckdb, sys
query = "SELECT rank, max(received_at) FROM read_csv(?) GROUP BY rank"
duckdb.execute(query, [sys.argv[1]]).fetchall()
"""
# Run before each: at exit, the process's own peak resident memory, in KiB, on stderr.
PEAK = """
import atexit, sys
def peak():
    status = open("/proc/self/status").read()
    print(status.split("VmHWM:")[1].split()[0], file=sys.stderr)
atexit.register(peak)
"""


def write_log(path: Path, lines: int) -> None:
    """A healthy 1,024-rank job at 1 Hz: `lines` heartbeats, in receive order."""
    with path.open("w") as out:
        out.write("rank,sent_at,received_at\n")
        chunk = []
        for i in range(lines):
            rank, tick = i % RANKS, (i // RANKS) * 1000 + i % RANKS
            chunk.append(f"{rank},{1_764_400_000_000 + tick},{tick + 7}\n")
            if len(chunk) == 100_000:
                out.writelines(chunk)
                chunk = []
        out.writelines(chunk)


def measure(code: str, arguments: list[str], repeat: int) -> tuple[float, int]:
    """Best wall time of `repeat` runs of `code`, and the largest peak RSS (KiB) it reported."""
    best, peak = float("inf"), 0
    for _ in range(repeat):
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PEAK + code, *arguments],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        best = min(best, time.perf_counter() - began)
        if done.returncode != 0:
            raise SystemExit(f"{arguments} failed: {done.stderr}")
        peak = max(peak, int(done.stderr.split()[-1]))
    return best, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny logs, once each, for CI")
    smoke = parser.parse_args().smoke
    sizes = [1_000, 10_000] if smoke else [1_000_000, 10_000_000]
    duck = importlib.util.find_spec("duckdb") is not None
    times = "once each" if smoke else "best of 3 (1 at 10M lines)"
    print(f"replay of a {RANKS}-rank log, {times}, seconds and peak MiB")
    heads = ("lines", "floor s", "detect s", "ratio", "floor MiB", "detect MiB")
    print(_row(heads, WIDTHS))
    beside = []
    with tempfile.TemporaryDirectory() as folder:
        for lines in sizes:
            log = Path(folder) / f"{lines}.csv"
            write_log(log, lines)  # once: every command below reads this file
            repeat = 1 if smoke or lines >= 10_000_000 else 3
            detect = ["detect", str(log), "--timeout", "5000"]
            floor, floor_kib = measure(FLOOR, [str(log)], repeat)
            ours, ours_kib = measure(DETECT, detect, repeat)
            cells = (
                f"{lines:,}",
                f"{floor:.2f}",
                f"{ours:.2f}",
                f"{ours / floor:.2f}x",
                f"{floor_kib / 1024:.1f}",
                f"{ours_kib / 1024:.1f}",
            )
            print(_row(cells, WIDTHS), flush=True)
            if duck:
                bare, bare_kib = measure(DUCKDB, [str(log)], repeat)
                engine, engine_kib = measure(DETECT, [*detect, "--engine", "duckdb"], repeat)
                beside.append(
                    (
                        f"{lines:,}",
                        f"{bare:.2f}",
                        f"{engine:.2f}",
                        f"{engine / bare:.2f}x",
                        f"{ours / bare:.2f}x",
                        f"{bare_kib / 1024:.1f}",
                        f"{engine_kib / 1024:.1f}",
                    )
                )
            log.unlink()
    if not duck:
        print("DuckDB is not installed (pip install -e '.[duckdb]'): no DuckDB figures")
        return 0
    print(f"beside DuckDB, the same logs, {times}, seconds and peak MiB")
    duck_heads = ("lines", "duckdb s", "engine s", "engine/duckdb", "python/duckdb")
    print(_row((*duck_heads, "duckdb MiB", "engine MiB"), DUCK_WIDTHS))
    for duck_cells in beside:
        print(_row(duck_cells, DUCK_WIDTHS))
    return 0


def _row(cells: tuple[str, ...], widths: tuple[int, ...]) -> str:
    return "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True))


if __name__ == "__main__":
    sys.exit(main())
