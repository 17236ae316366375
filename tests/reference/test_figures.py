"""docs/figures/: each figure is what tools/figures.py draws from the doctested functions.

matplotlib is the `figures` extra (in `dev` too).  Where CI is set, as the
gate sets it, a missing matplotlib fails the test: the figures would go
unchecked.  Elsewhere the test is skipped with the same advice.
"""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

import pytest

pytestmark = pytest.mark.reference

INSTALL = "matplotlib is missing: install the figures extra (pip install -e '.[figures]')"
NAMES = ("boundary", "false_alarms", "phi", "retry", "batcher", "quotas", "jobs")


def figures() -> ModuleType:
    """tools.figures, or a failure (under CI) or a skip (elsewhere) saying what to install."""
    if importlib.util.find_spec("matplotlib") is None:
        if "CI" in os.environ:
            pytest.fail(INSTALL)
        pytest.skip(INSTALL)
    import tools.figures

    return tools.figures


def test_every_figure_is_named_here() -> None:
    """A figure added to tools/figures.py is checked below too."""
    assert tuple(figures().FIGURES) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_checked_in_figure_is_what_the_code_draws(name: str) -> None:
    drawn = figures()
    file = drawn.path(name)
    redraw = f"`{drawn.REDRAW}` redraws it"
    assert file.is_file(), f"figure {name}: docs/figures/{name}.svg is missing; {redraw}"
    same = file.read_bytes() == drawn.render(name)  # compared apart: no diff of SVG bytes
    assert same, (
        f"figure {name}: docs/figures/{name}.svg differs from what the code draws; {redraw}"
    )
