"""Replaying a long heartbeat log: `detect` beside the floor, time and peak memory, one run.

    python3 benchmarks/replay.py            # 1M and 10M lines (250 MB of CSV in a temp folder)
    python3 benchmarks/replay.py --smoke    # 100k and 1M lines, for CI

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
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RANKS = 1024
WIDTHS = (11, 8, 8, 6, 9, 10)
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
# Run before either: at exit, the process's own peak resident memory, in KiB, on stderr.
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
    parser.add_argument("--smoke", action="store_true", help="smaller logs, for CI")
    sizes = [100_000, 1_000_000] if parser.parse_args().smoke else [1_000_000, 10_000_000]
    print(f"replay of a {RANKS}-rank log, best of 3 (1 at 10M lines), seconds and peak MiB")
    heads = ("lines", "floor s", "detect s", "ratio", "floor MiB", "detect MiB")
    print("  ".join(f"{head:>{width}}" for head, width in zip(heads, WIDTHS, strict=True)))
    with tempfile.TemporaryDirectory() as folder:
        for lines in sizes:
            log = Path(folder) / f"{lines}.csv"
            write_log(log, lines)
            repeat = 1 if lines >= 10_000_000 else 3
            floor, floor_kib = measure(FLOOR, [str(log)], repeat)
            ours, ours_kib = measure(DETECT, ["detect", str(log), "--timeout", "5000"], repeat)
            cells = (
                f"{lines:,}",
                f"{floor:.2f}",
                f"{ours:.2f}",
                f"{ours / floor:.2f}x",
                f"{floor_kib / 1024:.1f}",
                f"{ours_kib / 1024:.1f}",
            )
            print("  ".join(f"{cell:>{width}}" for cell, width in zip(cells, WIDTHS, strict=True)))
            log.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
