"""The batcher's queue: each bucket's requests in service order, read a batch at a time.

Service order is: requests queued `ageing` ticks or more first, then higher
priority, then first come.  Arrivals never go back in time, so within one
priority level first come is also oldest first, and the aged requests of a
level are a prefix of it.  Each bucket therefore keeps one FIFO per level
(a dict, in insertion order), and its service order is read lazily: the
aged prefix of each level, highest level first, then the rest of each
level, highest first.  Reading the first k costs O(k + levels), never a
sort of the queue.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator
from typing import NamedTuple

from variants.batcher.records import Request


class Queued(NamedTuple):
    request: Request
    arrival: int
    order: int  # submission order
    bucket: int


class ServiceQueue:
    def __init__(self, ageing: int | None) -> None:
        self.ageing = ageing
        self.by_id: dict[Hashable, Queued] = {}  # in submission order, so oldest first
        self._lines: dict[int, dict[int, dict[Hashable, Queued]]] = {}  # bucket, level, FIFO

    def __len__(self) -> int:
        return len(self.by_id)

    def add(self, queued: Queued) -> None:
        self.by_id[queued.request.id] = queued
        levels = self._lines.setdefault(queued.bucket, {})
        levels.setdefault(queued.request.priority, {})[queued.request.id] = queued

    def remove(self, request_id: Hashable) -> Queued:
        queued = self.by_id.pop(request_id)
        levels = self._lines[queued.bucket]
        line = levels[queued.request.priority]
        del line[request_id]
        if not line:
            del levels[queued.request.priority]
            if not levels:
                del self._lines[queued.bucket]
        return queued

    def oldest(self, bucket: int | None = None) -> Queued | None:
        """The longest-waiting request, of one bucket or of all."""
        if bucket is None:
            return next(iter(self.by_id.values()), None)
        heads = (next(iter(line.values())) for line in self._lines[bucket].values())
        return min(heads, key=lambda q: q.order)

    def buckets(self, now: int) -> list[int]:
        """The non-empty buckets, in the service order of their first requests."""
        if len(self._lines) <= 1:
            return list(self._lines)
        firsts = {bucket: next(self.in_service_order(bucket, now)) for bucket in self._lines}
        return sorted(firsts, key=lambda bucket: self.key(firsts[bucket], now))

    def key(self, queued: Queued, now: int) -> tuple[bool, int, int]:
        """Sorts as service order: aged first, then higher priority, then first come."""
        return (not self._aged(queued, now), -queued.request.priority, queued.order)

    def in_service_order(self, bucket: int, now: int) -> Iterator[Queued]:
        levels = [self._lines[bucket][p] for p in sorted(self._lines[bucket], reverse=True)]
        aged = [0] * len(levels)
        for i, line in enumerate(levels):
            for queued in line.values():
                if not self._aged(queued, now):
                    break
                aged[i] += 1
                yield queued
        for line, skip in zip(levels, aged, strict=True):
            yield from itertools.islice(line.values(), skip, None)

    def _aged(self, queued: Queued, now: int) -> bool:
        return self.ageing is not None and now - queued.arrival >= self.ageing
