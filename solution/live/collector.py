"""The collector: UDP heartbeats in, stamped on its own clock, stopped and hung ranks out.

Each datagram is stamped with the collector's monotonic clock the moment it
is read (never the sender's `sent_at`) and fed to a `HeartbeatMonitor`.
Every `check_every` the collector asks the monitor who is silent, and, with
the progress the heartbeats carry, who is hung; it reports each rank as it
crosses its timeout, one line each, and again when it is heard from or
progresses.  Many ranks falling silent together go through
`guard_mass_silence`: one suspected collector fault, not many deaths.  A
rank never heard since the collector started is no part of that: it is
reported as never heard, not as a fault of the collector, and not as a
rank that stopped.  A sender's incarnation (see `wire`) tells a restart
from a stall: a higher one starts the rank's progress afresh, a lower one
is a datagram of an earlier life, refused.

Nothing a sender does can crash it or mark a rank alive by mistake: a
datagram that does not parse, names another job, or a rank outside the
world is counted by reason and dropped.  Datagrams the kernel dropped
because the collector fell behind are read from the socket's own counter
(``/proc/net/udp`` on Linux), not guessed; so is the collector's own lag:
how late each check ran, the first cause of mass false alarms.
"""

from __future__ import annotations

import collections
import os
import selectors
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from solution.detector import Stopped
from solution.diagnosis import guard_mass_silence
from solution.live.metrics import Metrics
from solution.live.wire import BINARY, NUMBERS, Malformed, parse
from solution.monitor import HeartbeatMonitor

BATCH = 512  # datagrams read between two looks at the clock
BUFFER = 1 << 22  # bytes of socket receive buffer asked for: bursts wait there, not dropped


@dataclass(frozen=True)
class Event:
    # "stopped", "never heard", "hung", "heard again", "heard", "progressing", "restarted",
    # "collector fault", "recovered"
    kind: str
    rank: int | None
    at: int  # the collector's clock, ns
    detail: int = 0  # stopped: silence; hung: ns without progress; fault: ranks


@dataclass
class Stats:
    received: int = 0  # datagrams read
    accepted: int = 0  # heartbeats fed to the monitor
    rejected: collections.Counter[str] = field(default_factory=collections.Counter)
    worst_lag: int = 0  # ns: the latest a check ran after it was due
    held_back: int = 0  # the most ranks the guard held back at once, as one collector fault
    events: list[Event] = field(default_factory=list)


class Collector:
    def __init__(
        self,
        *,
        job: str,
        world_size: int,
        timeout: int,
        stall_timeout: int | None = None,
        check_every: int | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        guard_window: int | None = None,
        guard_fraction: Fraction = Fraction(1, 4),
        clock: Callable[[], int] = time.monotonic_ns,
        out: Callable[[str], None] = print,
        metrics: Metrics | None = None,
        part: tuple[int, int] = (0, 1),
        sock: socket.socket | None = None,
    ) -> None:
        """Times are ns of `clock`.  `stall_timeout` None: no hung reports.

        `part` (index, count): one of `count` collectors on one port (`solution.live.group`),
        this one owning the ranks r with ``r % count == index``, read from `sock`, its own
        socket of the port's group.  Its monitor, guard and reports are over its own ranks.
        """
        self.job, self.world_size, self.timeout = job, world_size, timeout
        self._index, self._parts = part
        self._owned = owned = len(range(self._index, world_size, self._parts))
        self.stall_timeout = stall_timeout
        self.check_every = check_every or max(1, timeout // 20)
        self.guard_window, self.guard_fraction = guard_window, guard_fraction
        self._clock, self._out, self.metrics = clock, out, metrics or Metrics(None)
        if sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER)
            sock.bind((host, port))
        self.socket = sock
        self.socket.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.socket, selectors.EVENT_READ)
        self.monitor = HeartbeatMonitor(owned, timeout, clock=clock)  # by local rank: r // count
        self.start = self.monitor.start
        self.stats = Stats()
        # rank -> (incarnation, highest progress, when it was first heard)
        self._progress: dict[int, tuple[int, int, int]] = {}
        self._stopped: set[int] = set()
        self._never: set[int] = set()  # reported as never heard
        self._hung: set[int] = set()
        self._fault = False
        self._next_check = self.start + self.check_every
        self.last_check = self.start  # when the loop last checked: its lag, for the alerts
        self.metrics.track(self)
        self._buffer = bytearray(256)  # larger than any heartbeat: a longer one reads as too long
        self._view = memoryview(self._buffer)
        self._binary_prefix = BINARY + bytes([len(job) % 256]) + job.encode("ascii", "replace")
        self._binary_size = len(self._binary_prefix) + NUMBERS.size
        self._counted = self.metrics.enabled  # no call per heartbeat for metrics that are off

    def clock_now(self) -> int:
        """The collector's clock, read without the monitor's check (a scrape's reading)."""
        return self._clock()

    @property
    def heard(self) -> set[int]:
        """The ranks heard from at least once."""
        return {self._global(rank) for rank in self._progress}

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.socket.getsockname()
        return str(host), int(port)

    def poll(self, wait: float, *, check: bool = True) -> None:
        """Wait up to `wait` seconds for heartbeats (less if a check is due), read them, and
        run the check if it is due (never, with ``check=False``: a warm-up)."""
        left = (self._next_check - self._clock()) / 1e9 if check else wait
        if self._selector.select(max(0.0, min(wait, left))):
            self._read()
        now = self._clock()
        if check and now >= self._next_check:
            lag = now - self._next_check
            self.stats.worst_lag = max(self.stats.worst_lag, lag)
            self.metrics.lag(lag / 1e9)
            self._check(now)
            self.last_check = now
            self._next_check = now + self.check_every

    def run(self, seconds: float | None) -> None:
        """Poll for `seconds` (None: until interrupted)."""
        if seconds is None:
            while True:
                self.poll(1.0)
        end = self._clock() + int(seconds * 1e9)
        while self._clock() < end:
            self.poll((end - self._clock()) / 1e9)

    def drops(self) -> int | None:
        """Datagrams the kernel dropped for this socket (its receive buffer was full), from
        /proc/net/udp; None where the system does not say."""
        inode = str(os.fstat(self.socket.fileno()).st_ino)
        try:
            with open("/proc/net/udp", encoding="ascii") as table:
                for line in table:
                    columns = line.split()
                    if len(columns) > 12 and columns[9] == inode:
                        return int(columns[-1])
        except OSError:
            return None
        return None

    def close(self) -> None:
        self._selector.close()
        self.socket.close()

    def summary(self) -> list[str]:
        return summary(self.stats, self.drops())

    def _count(self, kind: str) -> int:
        return sum(e.kind == kind for e in self.stats.events)

    # --- reading ------------------------------------------------------------------------

    def _read(self) -> None:
        """Read what has arrived, up to a batch.  The progress of a heartbeat of this batch is
        dated by one clock reading for the batch; its receipt, by the monitor's own.

        Each datagram is read into one reused buffer.  A binary heartbeat of this job (its
        first bytes exactly this job's, its length exactly right) is unpacked where it lies,
        with the checks `parse` would make; anything else goes through `parse`, so every
        refusal is counted by the same reason whichever way it came."""
        receive, buffer, view = self.socket.recv_into, self._buffer, self._view
        prefix, size, unpack = self._binary_prefix, self._binary_size, NUMBERS.unpack_from
        world, stats, progress, counted = self.world_size, self.stats, self._progress, self._counted
        index, parts = self._index, self._parts
        beat, heartbeat = self.monitor.beat, self.metrics.heartbeat
        now = self._clock()
        for _ in range(BATCH):
            try:
                length = receive(buffer)
            except BlockingIOError:
                return
            stats.received += 1
            if length == size and buffer.startswith(prefix):
                rank, _, steps, life = unpack(buffer, len(prefix))
                if rank >= world or steps < 0 or life < 0:
                    self._refuse_slowly(bytes(view[:length]))
                    continue
            else:
                try:
                    heard = parse(bytes(view[:length]))
                except Malformed as refused:
                    self._refuse(refused.reason)
                    continue
                rank, steps, life = heard.rank, heard.progress, heard.incarnation
                if heard.job != self.job:
                    self._refuse("another job")
                    continue
                if rank >= world:
                    self._refuse("rank outside the world")
                    continue
            if parts > 1:  # rank r is this collector's local rank r // parts, if it owns it
                rank, mine = divmod(rank, parts)
                if mine != index:
                    self._refuse("another collector's rank (send binary to a group)")
                    continue
            seen = progress.get(rank)
            if seen is not None and life < seen[0]:
                self._refuse("an earlier incarnation")  # a stray or late datagram: not news
                continue
            beat(rank)
            stats.accepted += 1
            if counted:
                heartbeat()
            if seen is None or life > seen[0] or steps > seen[1]:
                progress[rank] = (life, steps, now)
            if seen is not None and life > seen[0]:
                self._event("restarted", rank, now, life)
                self._say(
                    now, f"rank {self._global(rank)} restarted: a new sender (incarnation {life})"
                )

    def _refuse_slowly(self, data: bytes) -> None:
        """Count a refused binary heartbeat of this job by the reason `parse` gives."""
        try:
            parse(data)
        except Malformed as refused:
            self._refuse(refused.reason)
        else:
            self._refuse("rank outside the world")

    def _refuse(self, reason: str) -> None:
        self.stats.rejected[reason] += 1
        self.metrics.rejected(reason)

    # --- checking -----------------------------------------------------------------------

    def _check(self, now: int) -> None:
        everyone = self.monitor.stopped()
        silent = {s.rank for s in everyone}
        report = [s for s in everyone if s.last_heard is not None]
        self._report_never_heard(now, [s for s in everyone if s.last_heard is None])
        fault = None
        if self.guard_window is not None:
            verdict = guard_mass_silence(
                report,
                world_size=self._owned,  # its own ranks
                start=self.start,
                window=self.guard_window,
                fraction=self.guard_fraction,
            )
            report, fault = verdict.stopped, verdict.fault
        if (fault is not None) != self._fault:
            self._fault = fault is not None
            if fault is not None:
                self._event("collector fault", None, now, len(fault.ranks))
                self.stats.held_back = max(self.stats.held_back, len(fault.ranks))
                self._say(
                    now,
                    f"{len(fault.ranks)} ranks fell silent together: suspect the "
                    "collector or the network, not the ranks",
                )
            else:
                self._event("recovered", None, now)
                self._say(now, "the mass silence is over")
        for stopped in report:
            if stopped.rank not in self._stopped:
                self._stopped.add(stopped.rank)
                self._event("stopped", stopped.rank, now, stopped.silence)
                self.metrics.stopped(stopped.silence / 1e9)
                heard = "never heard" if stopped.last_heard is None else "silent"
                self._say(
                    now,
                    f"rank {self._global(stopped.rank)} stopped: {heard} for "
                    f"{stopped.silence / 1e9:.3f} s",
                )
        for rank in sorted(self._stopped - silent):
            self._stopped.discard(rank)
            self._event("heard again", rank, now)
            self._say(now, f"rank {self._global(rank)} heard again")
        for rank in sorted(self._never - silent):
            self._never.discard(rank)
            self._event("heard", rank, now)
            self._say(now, f"rank {self._global(rank)} heard for the first time")
        self.metrics.silent(len(self._stopped))
        if self.stall_timeout is not None:
            self._check_progress(now, silent)

    def _report_never_heard(self, now: int, never: list[Stopped]) -> None:
        """Ranks not heard once since the collector started: a sender that never came up (or
        was never started), not a rank that stopped, nor a fault of the collector."""
        new = [s for s in never if s.rank not in self._never]
        for s in new:
            self._never.add(s.rank)
            self._event("never heard", s.rank, now, s.silence)
        if new:
            ranks = _ranges([self._global(s.rank) for s in new])
            self._say(now, f"never heard in {new[0].silence / 1e9:.3f} s: rank{ranks}")

    def _check_progress(self, now: int, silent: set[int]) -> None:
        assert self.stall_timeout is not None
        stuck = {
            rank: (progress, now - since)
            for rank, (_, progress, since) in self._progress.items()
            if rank not in silent and now - since > self.stall_timeout
        }
        for rank in sorted(stuck, key=lambda r: (stuck[r][0], -stuck[r][1], r)):
            if rank not in self._hung:
                self._hung.add(rank)
                progress, stalled = stuck[rank]
                self._event("hung", rank, now, stalled)
                self._say(
                    now,
                    f"rank {self._global(rank)} hung: beating, but stuck at {progress} for "
                    f"{stalled / 1e9:.3f} s",
                )
        for rank in sorted(self._hung - set(stuck)):
            self._hung.discard(rank)
            self._event("progressing", rank, now)
            self._say(now, f"rank {self._global(rank)} progressing again")

    def _global(self, rank: int) -> int:
        """The job's rank of this collector's local rank (the same, for a lone collector)."""
        return rank * self._parts + self._index

    def _event(self, kind: str, rank: int | None, at: int, detail: int = 0) -> None:
        shown = None if rank is None else self._global(rank)
        self.stats.events.append(Event(kind, shown, at, detail))

    def _say(self, now: int, text: str) -> None:
        self._out(f"+{(now - self.start) / 1e9:8.3f} s  {text}")


def summary(stats: Stats, drops: int | None) -> list[str]:
    """What a collector (or a group's, merged) read, refused, and reported."""
    rejected = ", ".join(f"{n:,} {reason}" for reason, n in sorted(stats.rejected.items()))
    kinds = collections.Counter(event.kind for event in stats.events)
    return [
        f"{stats.received:,} datagrams read, {stats.accepted:,} heartbeats accepted"
        + (f"; refused: {rejected}" if rejected else ""),
        "dropped by the kernel, the collector too slow: "
        + ("unknown on this system" if drops is None else f"{drops:,}"),
        f"the longest a check ran late: {stats.worst_lag / 1e6:.1f} ms",
        f"reports: {kinds['stopped']} stopped, {kinds['never heard']} never "
        f"heard, {kinds['hung']} hung, {kinds['restarted']} restarted, "
        f"{kinds['collector fault']} collector faults"
        + (
            f" (up to {stats.held_back:,} ranks silent at once held back as one fault, "
            "not reported stopped)"
            if stats.held_back
            else ""
        ),
    ]


def _ranges(ranks: list[int]) -> str:
    """ " 3", or "s 0-3, 7": sorted ranks, runs shortened."""
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank == runs[-1][1] + 1:
            runs[-1][1] = rank
        else:
            runs.append([rank, rank])
    shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
    return ("s " if len(ranks) > 1 else " ") + shown
