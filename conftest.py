"""The project's own run of the suite: its longest files first.

With ``pytest -n auto --dist loadfile`` each file goes whole to the next free
worker, in the order collected.  The page's test in headless Chromium (minutes,
one file) and the gallery's scorecards are most of the suite's time: started
last, one worker would run them alone at the end while the other waits.  Started
first, the other worker runs everything else beside them.  The order of the
tests within a file is unchanged, and no verdict depends on the order.
"""

from __future__ import annotations

import pytest

LONGEST = ("tests/web/test_site.py", "tests/reference/test_gallery.py")


def _rank(item: pytest.Item) -> int:
    path = item.path.as_posix()
    return next((i for i, name in enumerate(LONGEST) if path.endswith(name)), len(LONGEST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: each file's own order is kept
