"""A stand-in for one rank of a training job: a training loop, and a heartbeat thread.

    python -m solution.live.worker --port 9999 --job demo --rank 3 --interval 0.2

The loop takes a step every half interval and publishes its progress; the
`Sender` thread beats every interval.  SIGUSR1 makes the loop hang (as in a
collective whose peer never arrives) while the thread keeps beating: hung,
not dead.  SIGSTOP freezes both, SIGKILL ends both: dead, to the collector.
"""

from __future__ import annotations

import argparse
import signal
import threading

from solution.live.sender import Sender


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--job", required=True)
    parser.add_argument("--rank", type=int, required=True)
    parser.add_argument("--interval", type=float, required=True, help="seconds between heartbeats")
    args = parser.parse_args()
    hung, done = threading.Event(), threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: hung.set())
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    sender = Sender((args.host, args.port), job=args.job, rank=args.rank, interval=args.interval)
    sender.start()
    step = 0
    while not done.wait(args.interval / 2):
        if not hung.is_set():  # a hung loop takes no more steps; the thread beats on
            step += 1
            sender.progress = step
    sender.stop()


if __name__ == "__main__":
    main()
