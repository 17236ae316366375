"""Heartbeat timelines drawn in text, one row per rank.

Column c covers the collector's times ``[begin + c*step, begin + (c+1)*step)``
and shows ``|`` if a heartbeat of that rank was received then, ``.`` if not;
`legend` says so in one line, for a reader who has not read this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solution.detector import Heartbeat

HEARD, SILENT = "|", "."  # a column in which a heartbeat was received, and one without


def legend(column: str) -> str:
    """What a row's characters mean, in one line; `column` is a column's span ("0.25 s")."""
    heard = f"{HEARD} a heartbeat received in that column's {column}"
    return f"Legend: {heard}, {SILENT} none received."


def timeline(
    heartbeats: Iterable[Heartbeat],
    ranks: Sequence[int],
    *,
    begin: int,
    end: int,
    step: int,
    labels: dict[int, str] | None = None,
) -> list[str]:
    """Rows ``rank NN  ||.|..  label`` for `ranks`, covering [begin, end)."""
    columns = -(-(end - begin) // step)
    rows = {rank: [SILENT] * columns for rank in ranks}
    for beat in heartbeats:
        if beat.rank in rows and begin <= beat.received_at < end:
            rows[beat.rank][(beat.received_at - begin) // step] = HEARD
    labels = labels or {}
    return [
        f"rank {rank:>2}  {''.join(rows[rank])}  {labels.get(rank, '')}".rstrip() for rank in ranks
    ]
