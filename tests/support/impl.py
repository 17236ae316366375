"""Loading the implementation under test: the reference, or a candidate's module.

``--impl path/to/file.py`` or ``--impl dotted.module`` (or the environment
variable KATA_IMPL) chooses it; by default the reference.  A module attempts
every exercise whose names it provides (any of them); the other exercises'
tests are not collected.  Within an exercise, tests of a name the module
lacks are skipped as *not attempted*.

What the tests get is guarded: a candidate's NotImplementedError becomes
`NotImplementedYet`, which is not an `Exception`, so no property test retries
or shrinks it: an untouched starter fails every test at once.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.exercises import EXERCISES, Exercise

ENVIRONMENT_VARIABLE = "KATA_IMPL"
REFERENCE = "reference"


class LoadError(Exception):
    """The implementation under test cannot be used at all."""


class NotImplementedYet(BaseException):
    """A candidate's NotImplementedError, lifted past every `except Exception`.

    Hypothesis catches Exceptions to shrink them; this it lets through, so a
    stub fails its test on the first call.
    """


@dataclass(frozen=True)
class Implementation:
    """One exercise's names as a module provides them, and where they came from."""

    exercise: Exercise
    source: str
    namespace: Mapping[str, Any]
    file: str | None = None  # the module's file, to point at the line that raised
    _guarded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_reference(self) -> bool:
        return self.source == REFERENCE

    def provides(self, name: str) -> bool:
        return callable(self.namespace.get(name))

    def require(self, name: str) -> Any:
        """The named function or class, or skip the test as not attempted."""
        if not self.provides(name):
            pytest.skip(f"not attempted: {self.source} provides no {name}")
        if name not in self._guarded:
            self._guarded[name] = guarded(self.namespace[name])
        return self._guarded[name]

    def type_named(self, name: str) -> Any:
        """The module's own record type `name` if it defines one, else the reference's."""
        own = self.namespace.get(name)
        if own is not None:
            return own
        return getattr(importlib.import_module(self.exercise.reference), name)


@dataclass(frozen=True)
class Kata:
    """What one run tests: the attempted exercises' implementations, and the rest.

    In kata mode (an implementation named, ``--impl reference`` included) only
    the exercises' tests run; otherwise the project's own tests run too.
    """

    source: str
    attempted: dict[str, Implementation]
    not_attempted: tuple[Exercise, ...]
    kata_mode: bool


def load(source: str | None) -> Kata:
    """Import `source` (a .py path or a dotted name; None for the reference)."""
    if source in (None, "", REFERENCE):
        every = {name: reference(exercise) for name, exercise in EXERCISES.items()}
        return Kata(REFERENCE, every, (), kata_mode=source == REFERENCE)
    assert source is not None
    module = import_source(source)
    attempted = {
        name: Implementation(exercise, source, vars(module), getattr(module, "__file__", None))
        for name, exercise in EXERCISES.items()
        if any(callable(getattr(module, n, None)) for n in exercise.names)
    }
    if not attempted:
        names = ", ".join(n for exercise in EXERCISES.values() for n in exercise.names)
        raise LoadError(f"{source} provides none of the names the kata tests: {names}")
    missing = tuple(e for name, e in EXERCISES.items() if name not in attempted)
    return Kata(source, attempted, missing, kata_mode=True)


def reference(exercise: Exercise) -> Implementation:
    module = importlib.import_module(exercise.reference)
    return Implementation(exercise, REFERENCE, vars(module), getattr(module, "__file__", None))


def import_source(source: str, *, name: str | None = None) -> ModuleType:
    """Import a .py file or a dotted module; LoadError saying why if it cannot be."""
    try:
        return _import(source, name)
    except LoadError:
        raise
    except Exception as error:  # whatever the candidate's module raises on import
        raise LoadError(f"cannot import {source}: {type(error).__name__}: {error}") from error


def _import(source: str, name: str | None) -> ModuleType:
    if not (source.endswith(".py") or "/" in source or "\\" in source):
        return importlib.import_module(source)
    path = Path(source).resolve()
    if not path.is_file():
        raise LoadError(f"no such file: {source}")
    # Let the module import its neighbours, as it would when run from its folder.
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(name or f"kata_impl_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise LoadError(f"cannot load {source} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def guarded(thing: Any) -> Any:
    """`thing` with NotImplementedError turned into NotImplementedYet.

    A class gets a subclass whose own methods are wrapped, so instances still
    pass isinstance checks and behave as the candidate wrote them.
    """
    if inspect.isclass(thing):
        wrapped = {
            name: _lift(member)
            for name in dir(thing)
            if inspect.isfunction(member := inspect.getattr_static(thing, name))
            and (name == "__init__" or not name.startswith("__"))
        }
        return type(thing.__name__, (thing,), {**wrapped, "__qualname__": thing.__qualname__})
    return _lift(thing)


def _lift(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except NotImplementedError as error:
            name = str(error) or getattr(function, "__qualname__", "a function")
            raise NotImplementedYet(name) from None

    return call
