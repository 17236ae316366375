"""Several collector processes on one port, past one core: the kernel hands each its ranks.

The sockets of a ``SO_REUSEPORT`` group share one UDP port; a classic BPF
program attached to the group (``SO_ATTACH_REUSEPORT_CBPF``) picks, for
each datagram, the socket at index ``rank % count``, reading the rank where
a binary heartbeat of this job carries it (version 2, `wire`).  So collector
i owns the ranks r with ``r % count == i``, whichever port or host a sender
writes from and however often it restarts, and watches them with a monitor,
a guard and reports of its own: a stall of one process is one collector
fault for its ranks, as a leaf of the tree in WRITEUP section 8 is.  A
datagram that is not a binary heartbeat of this job's length goes to
collector 0, which refuses those of ranks it does not own by name (a text
heartbeat cannot be steered: send binary to a group).  The parent prints
each collector's lines as they come and, at the end, one summary of all.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import socket
import struct
from collections import Counter
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from solution.live.collector import BUFFER, Collector, Stats
from solution.live.wire import BINARY

SO_ATTACH_REUSEPORT_CBPF = 51  # Linux's <asm-generic/socket.h>; the socket module lacks it
_BPF = struct.Struct("=HBBI")  # struct sock_filter: code, jt, jf, k


def steering(job: str, count: int) -> bytes:
    """The BPF program: ``rank % count`` for a binary heartbeat of `job`'s length, else 0.

    It runs on the UDP payload; a load past its end returns 0 (collector 0)."""
    magic = int.from_bytes(BINARY + bytes([len(job)]))
    code = [
        (0x20, 0, 0, 0),  # A = the first 4 bytes: b"HB\x02" and the job's length
        (0x15, 0, 3, magic),  # not a binary heartbeat of this length: to the last line
        (0x20, 0, 0, 4 + len(job)),  # A = the rank (big-endian, as the wire has it)
        (0x94, 0, 0, count),  # A = A % count
        (0x16, 0, 0, 0),  # return A: the index of the socket in the group
        (0x06, 0, 0, 0),  # return 0
    ]
    return b"".join(_BPF.pack(*instruction) for instruction in code)


def group_sockets(host: str, port: int, count: int, job: str) -> list[socket.socket]:
    """`count` UDP sockets bound to one port (0: one the kernel picks), in index order,
    with the steering program attached; OSError if the system has no such thing."""
    sockets: list[socket.socket] = []
    for _ in range(count):
        each = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        each.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        each.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER)
        each.bind((host, port))
        port = each.getsockname()[1]  # the rest join the first one's port
        sockets.append(each)
    program = ctypes.create_string_buffer(steering(job, count))
    fprog = struct.pack("@HP", len(program.raw) // _BPF.size, ctypes.addressof(program))
    sockets[0].setsockopt(socket.SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, fprog)
    return sockets


def merged(every: list[Stats]) -> Stats:
    """One summary of many collectors: counts added, the worst lag and hold-back kept."""
    total = Stats()
    total.rejected = Counter()
    for stats in every:
        total.received += stats.received
        total.accepted += stats.accepted
        total.rejected.update(stats.rejected)
        total.worst_lag = max(total.worst_lag, stats.worst_lag)
        total.held_back = max(total.held_back, stats.held_back)
        total.events.extend(stats.events)
    return total


def run_group(
    settings: dict[str, Any],
    *,
    count: int,
    host: str,
    port: int,
    seconds: float | None,
    out: Callable[[str], None] = print,
) -> tuple[Stats, int | None]:
    """Run `count` collectors of `settings` (Collector's arguments) on one port until
    `seconds` pass; their lines go to `out` as they come.  Their merged stats, and the
    datagrams the kernel dropped (None: unknown)."""
    sockets = group_sockets(host, port, count, str(settings["job"]))
    out(f"listening on {host}:{sockets[0].getsockname()[1]} with {count} collector processes")
    context = multiprocessing.get_context("fork")  # each child keeps its socket of the group
    ends = [context.Pipe(duplex=False) for _ in range(count)]
    children = [
        context.Process(target=_child, args=(settings, i, count, sockets[i], seconds, ends[i][1]))
        for i in range(count)
    ]
    for child in children:
        child.start()
    stats: list[Stats] = []
    drops: list[int | None] = []
    waiting = [reader for reader, _ in ends]
    try:
        while waiting:  # each child's lines as they come, then its summary
            for reader in wait(waiting):
                assert isinstance(reader, Connection)
                kind, value = reader.recv()
                if kind == "line":
                    out(value)
                else:
                    stats.append(value[0])
                    drops.append(value[1])
                    waiting.remove(reader)
    finally:
        for child in children:
            child.join()
        for each in sockets:
            each.close()
    total = None if None in drops else sum(d for d in drops if d is not None)
    return merged(stats), total


def _child(
    settings: dict[str, Any],
    index: int,
    count: int,
    sock: socket.socket,
    seconds: float | None,
    lines: Connection,
) -> None:
    collector = Collector(
        **settings, part=(index, count), sock=sock, out=lambda text: lines.send(("line", text))
    )
    try:
        collector.run(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        lines.send(("summary", (collector.stats, collector.drops())))
