"""Loading the implementation under test: the reference, or a candidate's module.

``--impl path/to/file.py`` or ``--impl dotted.module`` (or the environment
variable KATA_IMPL) chooses it; by default the reference, which is the
detector (`solution`) and each variant's package together.  A module may
provide any subset of the kata's names; tests of a name it lacks are skipped
as "not attempted".
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ENVIRONMENT_VARIABLE = "KATA_IMPL"
REFERENCE = "reference"
REFERENCE_MODULES = ("solution", "variants.sweep")
# Every public name a kata exercise asks for, by exercise.
CONTRACT = {
    "detector": ("detect", "misses_for_budget", "HeartbeatMonitor"),
    "sweep": (
        "intervals_from_events",
        "idle_windows",
        "underused_windows",
        "utilization",
        "overlapping_jobs",
        "peak_concurrency",
    ),
}
CONTRACT_NAMES = tuple(name for names in CONTRACT.values() for name in names)


class LoadError(Exception):
    """The implementation under test cannot be used at all."""


@dataclass(frozen=True)
class Implementation:
    """The names under test, and where they came from."""

    source: str
    names: Mapping[str, Any]

    @property
    def is_reference(self) -> bool:
        return self.source == REFERENCE

    def provides(self, name: str) -> bool:
        return callable(self.names.get(name))

    def require(self, name: str) -> Any:
        """The named function or class, or skip the test as not attempted."""
        if not self.provides(name):
            pytest.skip(f"not attempted: {self.source} provides no {name}")
        return self.names[name]

    def type_named(self, name: str, reference_module: str) -> Any:
        """The module's own NamedTuple `name` if it defines one, else the reference's."""
        own = self.names.get(name)
        return own if own is not None else getattr(importlib.import_module(reference_module), name)

    def heartbeat_type(self) -> Any:
        return self.type_named("Heartbeat", "solution")


def load(source: str | None) -> Implementation:
    """Import `source` (a .py path or a dotted name; None for the reference)."""
    if source in (None, "", REFERENCE):
        merged: dict[str, Any] = {}
        for module_name in REFERENCE_MODULES:
            merged |= vars(importlib.import_module(module_name))
        return Implementation(REFERENCE, merged)
    assert source is not None
    try:
        module = _import(source)
    except LoadError:
        raise
    except Exception as error:  # whatever the candidate's module raises on import
        raise LoadError(f"cannot import {source}: {type(error).__name__}: {error}") from error
    if not any(callable(getattr(module, name, None)) for name in CONTRACT_NAMES):
        raise LoadError(
            f"{source} provides none of the names the kata tests: {', '.join(CONTRACT_NAMES)}"
        )
    return Implementation(source, vars(module))


def _import(source: str) -> ModuleType:
    if source.endswith(".py") or "/" in source or "\\" in source:
        path = Path(source).resolve()
        if not path.is_file():
            raise LoadError(f"no such file: {source}")
        # Let the module import its neighbours, as it would when run from its folder.
        sys.path.insert(0, str(path.parent))
        spec = importlib.util.spec_from_file_location(f"kata_impl_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise LoadError(f"cannot load {source} as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(source)
