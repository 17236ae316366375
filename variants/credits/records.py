"""The credit scheduler's records: its configuration, a job, an account's balance."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import NamedTuple

STATES = ("queued", "reserved", "running", "finished", "failed", "cancelled")
ENDED = frozenset({"finished", "failed", "cancelled"})


@dataclass(frozen=True)
class Config:
    """A plain record: the scheduler checks it (slots >= 1), whoever built it."""

    slots: int  # jobs running at once, over every account (the GPUs)
    fair: bool = False  # weighted fair share across accounts, instead of priority


class Job(NamedTuple):
    id: Hashable
    account: str
    cost: int  # credits it may use: held from its start until it ends
    priority: int = 0  # higher first, within its account (and across them, unless fair)


class Balance(NamedTuple):
    available: int  # free to reserve or to start a job with
    reserved: int  # held: for reservations, and for the jobs running
    spent: int  # used by jobs that ended
    deposited: int  # everything ever deposited: = available + reserved + spent
