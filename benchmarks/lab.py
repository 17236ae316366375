"""How fast the false-alarm lab simulates: heartbeats per second, every detector on them.

    python3 benchmarks/lab.py            # 1,024 ranks for one hour, and the day it projects
    python3 benchmarks/lab.py --day      # 1,024 ranks for a whole day (about a minute)
    python3 benchmarks/lab.py --smoke    # small, for CI

One cause at a time (the base, independent loss), six detectors on each
rank's trace: two timeouts, the sender clock's, phi accrual, and both
guarded.  Printed: simulated heartbeats, seconds, heartbeats per second,
and the process's peak resident memory (``ru_maxrss``: this process ran
nothing before the simulation but its imports).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solution.lab import Job, causes, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small, for CI")
    parser.add_argument("--day", action="store_true", help="a whole day of 1,024 ranks")
    args = parser.parse_args()
    job = Job(ranks=32 if args.smoke else 1_024, hours=24 if args.day else 1)
    began = time.perf_counter()
    outcome = run(job, causes(job)[0], seed=1)
    seconds = time.perf_counter() - began
    rate = outcome.heartbeats / seconds
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    heads = f"{'ranks':>6} {'hours':>6} {'heartbeats':>13} {'seconds':>8} {'heartbeats/s':>13}"
    print(f"{heads} {'peak MiB':>9}")
    print(
        f"{job.ranks:>6,} {job.hours:>6} {outcome.heartbeats:>13,} {seconds:>8.1f} {rate:>13,.0f}"
        f" {peak_mib:>9.1f}"
    )
    if not args.day and not args.smoke:
        day = 1_024 * 86_400 / rate
        print(f"a day of 1,024 ranks at this rate: {day:.0f} s")


if __name__ == "__main__":
    main()
