"""Heartbeat timelines drawn in text, one row per rank.

Column c covers the collector's times ``[begin + c*step, begin + (c+1)*step)``
and shows ``|`` if a heartbeat of that rank was received then, ``.`` if not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solution.detector import Heartbeat


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
    rows = {rank: ["."] * columns for rank in ranks}
    for beat in heartbeats:
        if beat.rank in rows and begin <= beat.received_at < end:
            rows[beat.rank][(beat.received_at - begin) // step] = "|"
    labels = labels or {}
    return [
        f"rank {rank:>2}  {''.join(rows[rank])}  {labels.get(rank, '')}".rstrip() for rank in ranks
    ]
