"""Running the kata in a fresh pytest process, as a candidate would, for tests of the harness."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kata.exercises import ROOT


def run_kata(
    *args: str, env: dict[str, str] | None = None, profile: str = "gallery"
) -> subprocess.CompletedProcess[str]:
    """``python -m pytest`` in kata mode, with `args` added (``--impl`` among them).

    The profile keeps it quick and deterministic: ``gallery`` (fewer examples, no
    shrinking) or ``examples`` (example tests only, no generated examples).
    """
    # -c: the project's configuration, named; otherwise pytest, which reads a path
    # given after an option it does not know yet (--impl /tmp/x.py) as a test path,
    # may look for its configuration beside that path instead.
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-q"]
    command += ["-p", "no:cacheprovider", "--hypothesis-profile", profile, *args]
    # Compiled modules are written and reused: the gallery starts some 300 of these runs,
    # and each would otherwise compile (and rewrite the asserts of) the whole harness again,
    # half of its time, where PYTHONDONTWRITEBYTECODE is set.
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**inherited, **(env or {})},
    )


def run_kata_command(
    folder: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m kata ARGS`` run in `folder`, as a candidate would (a check or a mock with
    the gallery's hypothesis profile: fewer examples, the same verdicts on these modules)."""
    if args[:1] in (("check",), ("mock",)):
        args = (*args, *(() if "--" in args else ("--",)), "--hypothesis-profile", "gallery")
    return subprocess.run(
        [sys.executable, "-m", "kata", *args],
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=_kata_environment(env),
        timeout=300,
    )


def start_kata_command(folder: Path, *args: str, stdout: int) -> subprocess.Popen[str]:
    """``python -m kata ARGS`` started in `folder` as `run_kata_command` runs it, writing
    to `stdout` (a file descriptor), its standard error piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "kata", *args],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=_kata_environment(),
    )


def _kata_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment for ``python -m kata``, compiled modules written, the
    project importable, and `env` on top."""
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**inherited, "PYTHONPATH": str(ROOT), **(env or {})}
