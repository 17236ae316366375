"""Running the kata in a fresh pytest process, as a candidate would, for tests of the harness."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_kata(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m pytest tests`` on the kata's tests only, with `args` added.

    The gallery's hypothesis profile keeps it quick and its verdicts fixed;
    ``-m "not reference"`` keeps out the tests of this project's own tools
    (which include the tests that call this).
    """
    command = [sys.executable, "-m", "pytest", "tests", "-m", "not reference", "-q"]
    command += ["-p", "no:cacheprovider", "--hypothesis-profile", "gallery", *args]
    return subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )
