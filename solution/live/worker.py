"""A stand-in for one rank of a training job: a training loop, and a heartbeat thread.

    python -m solution.live.worker --port 9999 --job demo --rank 3 --interval 0.2

The loop takes a step every half interval and publishes its progress; the
`Sender` thread beats every interval.  SIGUSR1 makes the loop hang (as in a
collective whose peer never arrives) while the thread keeps beating: hung,
not dead.  SIGSTOP freezes both, SIGKILL ends both: dead, to the collector.

A worker never outlives the demo that started it, however the demo ends (a
SIGKILL included): on Linux the kernel kills it when its parent dies
(``PR_SET_PDEATHSIG``: a frozen worker too), and everywhere it ends when
the pipe from its parent (``--lifeline``, the read end) reaches its end,
which it does when the parent's last copy of the write end closes.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from solution.live.sender import Sender


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--job", required=True)
    parser.add_argument("--rank", type=int, required=True)
    parser.add_argument("--interval", type=float, required=True, help="seconds between heartbeats")
    parser.add_argument("--parent", type=int, help="the pid of the process that started it")
    parser.add_argument("--lifeline", type=int, help="a pipe's read end: its end is the parent's")
    args = parser.parse_args()
    end_with_parent(args.parent, args.lifeline)
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


def end_with_parent(parent: int | None, lifeline: int | None) -> None:
    """Arrange to end when the parent does, and end now if it already has."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed with the parent
    if parent is not None and os.getppid() != parent:  # it died before the line above ran
        os._exit(0)
    if lifeline is not None:

        def watch() -> None:
            while os.read(lifeline, 64):  # nothing is ever written: only the end matters
                pass
            os._exit(0)

        threading.Thread(target=watch, name="lifeline", daemon=True).start()


if __name__ == "__main__":
    main()
