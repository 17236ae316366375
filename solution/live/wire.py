"""The heartbeat datagram, version 1: what a sender puts on the wire, and its parser.

One UDP datagram per heartbeat, ASCII, fields separated by single spaces:

    HB1 <job> <rank> <sent_at> <progress>

* ``HB1``: the format and its version; another version is refused by name.
* ``job``: 1 to 64 of ``A-Z a-z 0-9 . _ -``: a collector serves one job and
  refuses the heartbeats of any other (a stray sender, a job restarted).
* ``rank``: a decimal integer (canonical: no leading zeros, no -0, as every
  number here), 0 to 2**31 - 1 (the collector checks it
  against its world size).
* ``sent_at``: the sender's clock, a decimal integer (nanoseconds, by
  convention); logged, never compared: silence is measured on the
  collector's clock.
* ``progress``: a decimal integer >= 0, steps or collectives completed.

At most 128 bytes.  `parse` returns a `Datagram` or raises `Malformed`, with
a short reason the collector counts by.  Nothing else can come out of it,
whatever the bytes.
"""

from __future__ import annotations

import re
from typing import NamedTuple

VERSION = b"HB1"
MAX_BYTES = 128
_JOB = re.compile(rb"[A-Za-z0-9._-]{1,64}\Z")
_NUMBER = re.compile(rb"(0|-?[1-9][0-9]{0,18})\Z")  # canonical: no leading zero, no -0
_HEARTBEAT = re.compile(
    rb"HB1 ([A-Za-z0-9._-]{1,64}) (0|[1-9][0-9]{0,9}) (0|-?[1-9][0-9]{0,18}) (0|[1-9][0-9]{0,18})\Z"
)


class Malformed(ValueError):  # noqa: N818 (a verdict on a datagram, counted by reason)
    """A datagram that is not a version-1 heartbeat; its reason is short, for counting."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Datagram(NamedTuple):
    job: str
    rank: int
    sent_at: int
    progress: int


def encode(job: str, rank: int, sent_at: int, progress: int) -> bytes:
    """The datagram for one heartbeat; ValueError for fields the format cannot carry."""
    data = b"%s %s %d %d %d" % (VERSION, job.encode("ascii"), rank, sent_at, progress)
    parse(data)  # the sender never puts on the wire what a collector would refuse
    return data


def parse(data: bytes) -> Datagram:
    match = _HEARTBEAT.match(data)  # the usual case, in one pass of C
    if match is None or len(data) > MAX_BYTES:
        raise Malformed(_reason(data))
    job, rank, sent_at, progress = match.groups()
    numbers = int(rank), int(sent_at), int(progress)
    if numbers[0] >= 2**31 or not -(2**63) <= numbers[1] < 2**63 or numbers[2] >= 2**63:
        raise Malformed(_reason(data))
    return Datagram(job.decode("ascii"), *numbers)


def _reason(data: bytes) -> str:
    """Why a datagram is not a heartbeat: the first field that says so."""
    if len(data) > MAX_BYTES:
        return "too long"
    fields = data.split(b" ")
    if not fields[0].startswith(b"HB"):
        return "not a heartbeat"
    if fields[0] != VERSION:
        return "unknown version"
    if len(fields) != 5:
        return "wrong number of fields"
    if not _JOB.match(fields[1]):
        return "bad job"
    for name, text, low, high in (
        ("rank", fields[2], 0, 2**31),
        ("sent_at", fields[3], -(2**63), 2**63),
        ("progress", fields[4], 0, 2**63),
    ):
        if not _NUMBER.match(text) or not low <= int(text) < high:
            return f"bad {name}"
    return "not a heartbeat"  # unreachable for a datagram the pattern refused; kept safe
