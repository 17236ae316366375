"""A heartbeat sender small enough to paste into a training loop.

    sender = Sender(("collector.local", 9999), job="train-42", rank=rank, interval=1.0)
    sender.start()
    for step in range(steps):
        train_one_step()
        sender.progress = step + 1
    sender.stop()

A daemon thread sends one datagram every `interval` seconds on the clock of
`time.monotonic` (a schedule, not a sleep after each send, so it does not
drift), carrying the latest `progress` the training loop set.  The socket
is non-blocking: a send that would block or fails is counted in `failures`,
never raised, never waited for: the training step is never held up by the
network.  Because the thread beats on its own, a training loop stuck in a
collective still beats: set `progress` from the loop, and the collector
tells hung from dead.  Each datagram carries the sender's incarnation, its
start time in nanoseconds of the wall clock unless given: a sender
restarted later takes a larger one, and the collector takes the restart
for a new life (progress from 0 again), not a hang.
"""

from __future__ import annotations

import socket
import threading
import time

from solution.live.wire import encode


class Sender:
    def __init__(
        self,
        collector: tuple[str, int],
        *,
        job: str,
        rank: int,
        interval: float,
        incarnation: int | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"interval must be > 0, got {interval}")
        self.incarnation = time.time_ns() if incarnation is None else incarnation
        encode(job, rank, 0, 0, self.incarnation)  # what the format cannot carry fails now
        self.collector, self.job, self.rank, self.interval = collector, job, rank, interval
        self.progress = 0  # set by the training loop
        self.sent = self.failures = 0
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._socket.setblocking(False)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-{rank}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()

    def send(self) -> None:
        """One heartbeat now: counted as sent, or as a failure."""
        data = encode(self.job, self.rank, time.time_ns(), self.progress, self.incarnation)
        try:
            self._socket.sendto(data, self.collector)
            self.sent += 1
        except OSError:  # the network's problem is counted, never the training loop's
            self.failures += 1

    def _beat(self) -> None:
        due = time.monotonic()
        while not self._stop.is_set():
            self.send()
            due += self.interval
            self._stop.wait(max(0.0, due - time.monotonic()))
