"""The kata's version, as every scorecard records it.

Run from a clone, it is the clone's ``pyproject.toml``: an editable install's
metadata is written once, at install time, and would lag behind a version
raised since.  Installed from the wheel (`tools/build_wheel.py`), there is no
``pyproject.toml`` beside the package, and the installed metadata says it.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "heartbeat-kata"
UNKNOWN = "unknown"
# The clone's root: this file is kata/version.py.
CLONE = Path(__file__).resolve().parents[1]


def version(clone: Path = CLONE) -> str:
    """The clone's version if `clone` holds this project's pyproject.toml, else the
    installed distribution's; "unknown" if neither says."""
    try:
        project = tomllib.loads((clone / "pyproject.toml").read_text())["project"]
        if project["name"] == DISTRIBUTION:
            return str(project["version"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        pass  # not a clone: the installed wheel's metadata
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN
