"""Loading the implementation under test: the reference, or a candidate's module.

``--impl path/to/file.py`` or ``--impl dotted.module`` (or the environment
variable KATA_IMPL) chooses it.  A module may provide any subset of the
contract; tests of a name it lacks are skipped as "not attempted".
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ENVIRONMENT_VARIABLE = "KATA_IMPL"
REFERENCE = "solution"
# Every public name a kata exercise asks for; variants add theirs.
CONTRACT_NAMES = ("detect", "misses_for_budget", "HeartbeatMonitor")


class LoadError(Exception):
    """The implementation under test cannot be used at all."""


@dataclass(frozen=True)
class Implementation:
    """The module under test, and where it came from."""

    source: str
    module: ModuleType

    @property
    def is_reference(self) -> bool:
        return self.source == REFERENCE

    def provides(self, name: str) -> bool:
        return callable(getattr(self.module, name, None))

    def require(self, name: str) -> Any:
        """The named function or class, or skip the test as not attempted."""
        if not self.provides(name):
            pytest.skip(f"not attempted: {self.source} provides no {name}")
        return getattr(self.module, name)

    def heartbeat_type(self) -> Any:
        """The module's own Heartbeat if it defines one, else the reference's."""
        from solution import Heartbeat

        return getattr(self.module, "Heartbeat", Heartbeat)


def load(source: str | None) -> Implementation:
    """Import `source` (a .py path or a dotted name; None for the reference)."""
    source = source or REFERENCE
    try:
        module = _import(source)
    except LoadError:
        raise
    except Exception as error:  # whatever the candidate's module raises on import
        raise LoadError(f"cannot import {source}: {type(error).__name__}: {error}") from error
    found = [name for name in CONTRACT_NAMES if callable(getattr(module, name, None))]
    if not found:
        raise LoadError(
            f"{source} provides none of the names the kata tests: {', '.join(CONTRACT_NAMES)}"
        )
    return Implementation(source, module)


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
