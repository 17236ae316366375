"""The quota scheduler's records: a tenant, a job, what one call of `schedule` decided."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

STATES = ("queued", "running", "finished", "cancelled")


class Tenant(NamedTuple):
    name: str
    quota: int  # GPUs guaranteed
    borrowing_limit: int | None = None  # GPUs it may borrow beyond its quota; None: any idle


class Job(NamedTuple):
    id: Hashable
    tenant: str
    gpus: int  # all or nothing: a training job is a gang
    priority: int = 0  # higher first within its tenant; lower is preempted first
    preemptible: bool = True  # False: never preempted, so never on borrowed GPUs
    checkpoint_every: int | None = None  # ticks between checkpoints; None: none


class Decision(NamedTuple):
    started: list[Hashable]  # in the order started
    preempted: list[Hashable]  # in any order
