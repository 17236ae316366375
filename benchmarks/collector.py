"""What one collector costs per heartbeat, beside the floor: a bare `socket.recv` loop.

    python3 benchmarks/collector.py            # 200 rounds of 256 datagrams
    python3 benchmarks/collector.py --smoke    # small, for CI

Both sides read the same datagrams from the same kind of UDP socket on
localhost, one core, in the same run: each round, 256 heartbeats (of a
1,024-rank job) are sent into the socket untimed, then drained timed,
either by a loop that only reads them (the floor) or by the collector
(read, parse, check the job and rank, stamp, feed the monitor, track
progress), without and with its Prometheus metrics, and with the binary
datagrams of version 2; beside them the Python floor, the least any
Python collector of binary heartbeats does (read into a reused buffer,
unpack, stamp the receipt); and a group of 1 and of 2 collector processes
on one port (`solution.live.group`), each draining its share of the
round at the same moment.  Printed: microseconds per datagram (the median
round), the ratio to the floor, and the heartbeats a second one collector
sustains: at one heartbeat a second per rank, the largest job it can
serve.  Then the share of the format in that cost: `parse` of one text
datagram beside `parse` of the same heartbeat in binary, each with every
check and the same record built, like for like.
"""

from __future__ import annotations

import argparse
import multiprocessing
import socket
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solution.live.collector import Collector
from solution.live.group import group_sockets
from solution.live.metrics import Metrics
from solution.live.wire import NUMBERS, encode, parse

BATCH, RANKS = 256, 1_024
Reader = tuple[tuple[str, int], Callable[[], object], list[bytes]]  # address, drain, datagrams


def floor_drain(receiver: socket.socket) -> int:
    read = 0
    while True:
        try:
            receiver.recv(256)
        except BlockingIOError:
            return read
        read += 1


def python_floor(job: str) -> tuple[socket.socket, Callable[[], int]]:
    """The least any Python collector of binary heartbeats does: read each into a reused
    buffer, unpack it, stamp its rank's receipt on the clock.  No checks, no monitor."""
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.setblocking(False)
    buffer, receipts = bytearray(256), [0] * RANKS
    receive, unpack, clock, offset = (
        receiver.recv_into,
        NUMBERS.unpack_from,
        time.monotonic_ns,
        4 + len(job),
    )

    def drain() -> int:
        read = 0
        while True:
            try:
                receive(buffer)
            except BlockingIOError:
                return read
            receipts[unpack(buffer, offset)[0]] = clock()
            read += 1

    return receiver, drain


def group_us(processes: int, rounds: int) -> float:
    """Microseconds per datagram, the median round, of `processes` collectors on one port.

    Each round, BATCH binary heartbeats per process are sent into the group untimed (the
    kernel steers rank r to collector r % processes); then every collector, each in a
    process of its own, drains its share at the same moment, and the round lasts as long
    as the slowest."""
    context = multiprocessing.get_context("fork")
    sockets = group_sockets("127.0.0.1", 0, processes, "bench")
    port = sockets[0].getsockname()[1]
    pipes = [context.Pipe() for _ in range(processes)]
    children = [
        context.Process(target=_group_member, args=(sockets[i], i, processes, pipes[i][1]))
        for i in range(processes)
    ]
    for child in children:
        child.start()
    datagrams = [encode("bench", rank, 1, 1, binary=True) for rank in range(BATCH * processes)]
    spent: list[int] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        for _ in range(rounds):
            for data in datagrams:
                sender.sendto(data, ("127.0.0.1", port))
            for parent, _ in pipes:
                parent.send(BATCH)
            spent.append(max(int(parent.recv()) for parent, _ in pipes))
    for parent, _ in pipes:
        parent.send(0)
    for child in children:
        child.join()
    for each in sockets:
        each.close()
    return statistics.median(spent) / (BATCH * processes) / 1_000


def _group_member(sock: socket.socket, index: int, processes: int, pipe: Connection) -> None:
    member = Collector(
        job="bench",
        world_size=BATCH * processes,
        timeout=10**12,
        out=lambda line: None,
        part=(index, processes),
        sock=sock,
    )
    while share := pipe.recv():
        began, goal = time.perf_counter_ns(), member.stats.received + share
        while member.stats.received < goal:
            member._read()
        pipe.send(time.perf_counter_ns() - began)


def parse_us(data: bytes) -> float:
    """Microseconds per `parse(data)`, best of five runs of 20,000."""
    return min(timeit.repeat(lambda: parse(data), number=20_000, repeat=5)) / 20_000 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small, for CI")
    rounds = 10 if parser.parse_args().smoke else 200
    try:
        metrics = Metrics(0)
    except RuntimeError:  # the optional extra is not installed
        metrics = None
    silent = lambda line: None  # noqa: E731 (a sink for the collector's lines)
    plain = Collector(job="bench", world_size=RANKS, timeout=10**12, out=silent)
    with_metrics = (
        Collector(job="bench", world_size=RANKS, timeout=10**12, out=silent, metrics=metrics)
        if metrics is not None
        else None
    )
    binary = Collector(job="bench", world_size=RANKS, timeout=10**12, out=silent)
    bare = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    bare.bind(("127.0.0.1", 0))
    bare.setblocking(False)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sent_at = 1_764_400_000_000_000_000
    text = [encode("bench", rank % RANKS, sent_at, rank) for rank in range(BATCH)]
    packed = [encode("bench", rank % RANKS, sent_at, rank, binary=True) for rank in range(BATCH)]
    least, least_drain = python_floor("bench")
    readers: dict[str, Reader] = {
        "floor (recv only)": (bare.getsockname(), lambda: floor_drain(bare), text),
        "python floor, binary": (least.getsockname(), least_drain, packed),
        "collector": (plain.address, plain._read, text),
    }
    if with_metrics is not None:
        readers["collector + metrics"] = (with_metrics.address, with_metrics._read, text)
    readers["collector, binary"] = (binary.address, binary._read, packed)
    spent: dict[str, list[int]] = {name: [] for name in readers}
    for _ in range(rounds):  # alternate, so drift in the machine falls on every reader alike
        for name, (address, drain, datagrams) in readers.items():
            for data in datagrams:
                sender.sendto(data, address)
            began = time.perf_counter_ns()
            drain()
            spent[name].append(time.perf_counter_ns() - began)
    per = {name: statistics.median(times) / BATCH / 1_000 for name, times in spent.items()}
    floor = per["floor (recv only)"]
    print(f"{'reader':<22} {'us/datagram':>12} {'x floor':>8} {'heartbeats/s':>13}")
    for name, us in per.items():
        print(f"{name:<22} {us:>12.2f} {us / floor:>7.2f}x {1e6 / us:>13,.0f}")
    alone, pair = group_us(1, rounds), group_us(2, rounds)
    print(
        f"a group on one port, binary: 1 process {alone:.2f} us/datagram ({1e6 / alone:,.0f}/s),"
        f" 2 processes {pair:.2f} ({1e6 / pair:,.0f}/s): {alone / pair:.2f}x"
    )
    text_us, binary_us = (parse_us(data[7]) for data in (text, packed))
    print(
        f"of which parse(): {text_us:.2f} us a text datagram, {binary_us:.2f} us the same "
        f"heartbeat in binary ({text_us / binary_us:.2f}x), the same checks and record"
    )
    for each in (plain, binary):
        if each.stats.accepted != rounds * BATCH:
            raise SystemExit(f"a collector accepted {each.stats.accepted}, not {rounds * BATCH}")
    least.close()
    for made in (plain, with_metrics, binary):
        if made is not None:
            made.close()
    if metrics is not None:
        metrics.close()


if __name__ == "__main__":
    main()
