"""The heartbeat datagram, in two versions: what a sender puts on the wire, and its parser.

One UDP datagram per heartbeat, the sender's choice of two layouts that
carry the same fields; a collector reads both.  Version 1 is text, ASCII,
fields separated by single spaces, which anyone can type or read in tcpdump:

    HB1 <job> <rank> <sent_at> <progress> [<incarnation>]

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
* ``incarnation``, optional: a decimal integer >= 0 naming the sender's
  life (0 when left out).  A restarted sender takes a larger one (`Sender`
  takes its start time), as SWIM's and Serf's members do: its progress
  starts again from 0 without looking stuck, and a stray or late datagram
  of an earlier life (a lower incarnation) is refused, never taken for
  the rank's news.

At most 128 bytes; one trailing newline is allowed (``echo`` adds one).
Version 2 is binary, for a collector at its floor: the three bytes
``HB\x02``, the job's length in one byte, the job (as above), then the rank
(unsigned 32 bits), ``sent_at``, ``progress`` and ``incarnation`` (signed
64 each; progress and incarnation >= 0), big-endian: 4 + len(job) + 28
bytes exactly.  Both versions hold the same checks; a text ``HB2`` is still
an unknown version.

`parse` returns a `Datagram` or raises `Malformed`, with a short reason the
collector counts by.  Nothing else can come out of it, whatever the bytes.
"""

from __future__ import annotations

import re
import struct
from typing import NamedTuple

VERSION = b"HB1"
BINARY = b"HB\x02"
MAX_BYTES = 128
NUMBERS = struct.Struct("!Iqqq")  # rank, sent_at, progress, incarnation: after the job
_JOB = re.compile(rb"[A-Za-z0-9._-]{1,64}\Z")
_NUMBER = re.compile(rb"(0|-?[1-9][0-9]{0,18})\Z")  # canonical: no leading zero, no -0
_HEARTBEAT = re.compile(
    rb"HB1 ([A-Za-z0-9._-]{1,64}) (0|[1-9][0-9]{0,9}) (0|-?[1-9][0-9]{0,18}) (0|[1-9][0-9]{0,18})"
    rb"(?: (0|[1-9][0-9]{0,18}))?\n?\Z"
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
    incarnation: int = 0


def encode(
    job: str, rank: int, sent_at: int, progress: int, incarnation: int = 0, *, binary: bool = False
) -> bytes:
    """The datagram for one heartbeat; ValueError for fields the format cannot carry."""
    name = job.encode("ascii")
    if binary:
        try:
            numbers = NUMBERS.pack(rank, sent_at, progress, incarnation)
        except struct.error as error:
            raise Malformed(f"cannot carry the numbers: {error}") from None
        data = BINARY + bytes([len(name) % 256]) + name + numbers
    else:
        data = b"%s %s %d %d %d" % (VERSION, name, rank, sent_at, progress)
        data += b" %d" % incarnation if incarnation else b""
    parse(data)  # the sender never puts on the wire what a collector would refuse
    return data


def parse(data: bytes) -> Datagram:
    if data[:3] == BINARY:
        return _parse_binary(data)
    match = _HEARTBEAT.match(data)  # the usual case, in one pass of C
    if match is None or len(data) > MAX_BYTES:
        raise Malformed(_reason(data))
    job, rank, sent_at, progress, incarnation = match.groups()
    numbers = int(rank), int(sent_at), int(progress), int(incarnation or 0)
    if numbers[0] >= 2**31 or not -(2**63) <= numbers[1] < 2**63 or max(numbers[2:]) >= 2**63:
        raise Malformed(_reason(data))
    return Datagram(job.decode("ascii"), *numbers)


def _parse_binary(data: bytes) -> Datagram:
    size = data[3] if len(data) > 3 else 0
    if len(data) != 4 + size + NUMBERS.size:
        raise Malformed("wrong length")
    job = data[4 : 4 + size]
    if not _JOB.match(job):
        raise Malformed("bad job")
    rank, sent_at, progress, incarnation = NUMBERS.unpack_from(data, 4 + size)
    if rank >= 2**31:
        raise Malformed("bad rank")
    if progress < 0:
        raise Malformed("bad progress")
    if incarnation < 0:
        raise Malformed("bad incarnation")
    return Datagram(job.decode("ascii"), rank, sent_at, progress, incarnation)


def _reason(data: bytes) -> str:
    """Why a datagram is not a heartbeat: the first field that says so."""
    if len(data) > MAX_BYTES:
        return "too long"
    fields = data.removesuffix(b"\n").split(b" ")
    if not fields[0].startswith(b"HB"):
        return "not a heartbeat"
    if fields[0] != VERSION:
        return "unknown version"
    if len(fields) not in (5, 6):
        return "wrong number of fields"
    if not _JOB.match(fields[1]):
        return "bad job"
    for name, text, low, high in (
        ("rank", fields[2], 0, 2**31),
        ("sent_at", fields[3], -(2**63), 2**63),
        ("progress", fields[4], 0, 2**63),
        ("incarnation", fields[5] if len(fields) == 6 else b"0", 0, 2**63),
    ):
        if not _NUMBER.match(text) or not low <= int(text) < high:
            return f"bad {name}"
    return "not a heartbeat"  # unreachable for a datagram the pattern refused; kept safe
