"""The implementation under test: where its code runs, and how the tests reach it.

``--impl path/to/file.py`` or ``--impl dotted.module`` (or the environment
variable KATA_IMPL) chooses it; by default the reference.  A module attempts
every exercise whose names it provides (any of them); the other exercises'
tests are not collected.  Within an exercise, tests of a name the module
lacks are skipped as *not attempted*.

Two views of one module, on two sides of a process boundary:

- `Module` is the module itself, in the process that imported it: its
  names, its record types.  A question's `ask` gets a `Module` (in the judged
  process, `kata.process.judged`; or here, for the gallery's known mistakes,
  which are trusted code).
- `Implementation` is what the tests hold: which names the module provides,
  and an `Asker` that puts questions to it and returns plain outcomes.  The
  judged module's asker is a `kata.process.judge.Judge`, another process; a
  trusted module's is `InProcess`.

A candidate's NotImplementedError becomes `NotImplementedYet`, which is not an
`Exception`, so no property test retries or shrinks it.  A name that has
answered no call yet (returned, or raised anything else) is *unwritten*: the
test that reached it is not attempted.  A name that answers some calls and
raises NotImplementedError on others has failed those.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from kata.exercises import EXERCISES, Exercise

if TYPE_CHECKING:
    from kata.outcomes import Outcome, Question

ENVIRONMENT_VARIABLE = "KATA_IMPL"
REFERENCE = "reference"


class LoadError(Exception):
    """The implementation under test cannot be used at all."""


class NotImplementedYet(BaseException):
    """A candidate's NotImplementedError, lifted past every `except Exception`.

    Hypothesis catches Exceptions to shrink them; this it lets through, so a
    stub ends its test on the first call.  Its one argument names the function.
    """

    @property
    def name(self) -> str:
        return str(self.args[0]) if self.args else "a function"


class NotAttempted(BaseException):
    """A question needs a name the module does not provide: its test is skipped."""


@dataclass(frozen=True)
class Handle:
    """An object kept where the module runs, between the questions of one test."""

    number: int
    what: str


# --- the module itself, where it runs ---------------------------------------------------


@dataclass(frozen=True)
class Module:
    """One exercise's names as a module provides them, in the process that imported it."""

    exercise: Exercise
    source: str
    namespace: Mapping[str, Any]
    file: str | None = None  # the module's file, to point at the line that raised
    _guarded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    _kept: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    # The functions that have answered a call: returned, or raised anything but
    # NotImplementedError.  What is not here and raises it is not written yet.
    answered: set[str] = field(default_factory=set, compare=False, repr=False)

    @property
    def is_reference(self) -> bool:
        return self.source == REFERENCE

    def provides(self, name: str) -> bool:
        return callable(self.namespace.get(name))

    def require(self, name: str) -> Any:
        """The named function or class (NotAttempted if the module lacks it)."""
        if not self.provides(name):
            raise NotAttempted(f"not attempted: {self.source} provides no {name}")
        if name not in self._guarded:
            self._guarded[name] = guarded(self.namespace[name], self.answered)
        return self._guarded[name]

    def keep(self, thing: Any, what: str) -> Handle:
        """Keep `thing` (a monitor, a scheduler) for later questions of this test."""
        number = len(self._kept) + 1
        self._kept[number] = thing
        return Handle(number, what)

    def kept(self, handle: Handle) -> Any:
        """What `keep` kept; if it is gone (the process was started again), say so."""
        if handle.number not in self._kept:
            raise LookupError(f"{handle.what} is gone: the module's process was started again")
        return self._kept[handle.number]

    def forget(self) -> None:
        """A new test begins: nothing kept for the last one survives."""
        self._kept.clear()

    def type_named(self, name: str) -> Any:
        """The module's own record type `name` if it has one, else the reference's."""
        own = self.namespace.get(name)
        if own is not None:
            return own
        return getattr(importlib.import_module(self.exercise.reference), name)

    def record(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """A record of type `name`, as the module would receive it.

        A point is earned by the module's own code, never by the reference's: a
        record type borrowed from the reference is built without the reference's
        own checks (its ``__post_init__``), so a module that validates nothing
        itself is seen to validate nothing.
        """
        kind = self.type_named(name)
        borrowed = _in_reference(str(getattr(kind, "__module__", "")), self.exercise)
        name = str(self.namespace.get("__name__"))
        mine = self.is_reference or _in_reference(name, self.exercise)
        if mine or not borrowed or not hasattr(kind, "__post_init__"):
            return kind(*args, **kwargs)
        return unchecked(kind, *args, **kwargs)


def _in_reference(module_name: str, exercise: Exercise) -> bool:
    return module_name == exercise.reference or module_name.startswith(exercise.reference + ".")


def unchecked(kind: Any, *args: Any, **kwargs: Any) -> Any:
    """A dataclass instance with these fields, its ``__post_init__`` not run."""
    bound = inspect.signature(kind).bind(*args, **kwargs)
    bound.apply_defaults()
    made = object.__new__(kind)
    for each in dataclasses.fields(kind):
        object.__setattr__(made, each.name, bound.arguments[each.name])
    return made


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


def modules_of(source: str, module: ModuleType | None) -> dict[str, Module]:
    """The exercises `module` attempts (it provides any of their names), each as a Module."""
    if module is None:  # the reference: every exercise, each its own package
        return {
            name: Module(
                e, REFERENCE, vars(ref := importlib.import_module(e.reference)), ref.__file__
            )
            for name, e in EXERCISES.items()
        }
    return {
        name: Module(exercise, source, vars(module), getattr(module, "__file__", None))
        for name, exercise in EXERCISES.items()
        if any(callable(getattr(module, n, None)) for n in exercise.names)
        and all(_has(module, mark) for mark in exercise.marks)
    }


def _has(module: ModuleType, path: str) -> bool:
    """Whether `module` has the attribute `path` ("Scheduler.usage"), without calling it."""
    found: Any = module
    for part in path.split("."):
        found = getattr(found, part, None)
        if found is None:
            return False
    return True


def guarded(thing: Any, answered: set[str]) -> Any:
    """`thing` with NotImplementedError turned into NotImplementedYet, and each function
    that answers a call (returns, or raises anything else) added to `answered`.

    A class gets a subclass whose own methods are wrapped, so instances still
    pass isinstance checks and behave as the candidate wrote them.
    """
    if inspect.isclass(thing):
        wrapped = {
            name: _lift(member, answered)
            for name in dir(thing)
            if inspect.isfunction(member := inspect.getattr_static(thing, name))
            and (name == "__init__" or not name.startswith("__"))
        }
        return type(thing.__name__, (thing,), {**wrapped, "__qualname__": thing.__qualname__})
    return _lift(thing, answered)


def _lift(function: Callable[..., Any], answered: set[str]) -> Callable[..., Any]:
    qualname = str(getattr(function, "__qualname__", "a function"))

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            result = function(*args, **kwargs)
        except NotImplementedError:
            raise NotImplementedYet(qualname) from None
        except BaseException:
            answered.add(qualname)
            raise
        answered.add(qualname)
        return result

    return call


# --- the implementation as the tests hold it --------------------------------------------


class Asker(Protocol):
    """Puts questions to a module, wherever it runs, and returns what came back."""

    def answers(self, exercise: Exercise, questions: Iterable[Question]) -> Iterator[Outcome]:
        """One outcome per question, in order, asked as they are read."""
        ...

    def written(self, exercise: Exercise, function: str) -> bool:
        """Whether `function` ("detect", "Scheduler.submit") has answered a call so far."""
        ...


@dataclass(frozen=True, eq=False)
class Implementation:
    """An exercise's implementation as the tests see it: the names it provides, and an asker."""

    exercise: Exercise
    source: str
    provided: frozenset[str]
    file: str | None
    asker: Asker

    @property
    def is_reference(self) -> bool:
        return self.source == REFERENCE

    def provides(self, name: str) -> bool:
        return name in self.provided

    def needs(self, *names: str) -> None:
        """Skip the test as not attempted unless the module provides every one of `names`."""
        import pytest  # the tests' side only: the judged process never imports pytest

        for name in names:
            if not self.provides(name):
                pytest.skip(f"not attempted: {self.source} provides no {name}")

    def answers(self, questions: Iterable[Question]) -> Iterator[Outcome]:
        return self.asker.answers(self.exercise, questions)

    def written(self, function: str) -> bool:
        """Whether `function` has answered a call so far: not a stub raising
        NotImplementedError on every call."""
        return self.asker.written(self.exercise, function)


@dataclass(frozen=True)
class InProcess:
    """Asks a module loaded in this process (trusted code: the gallery, the write-up)."""

    module: Module
    seconds: float

    def answers(self, exercise: Exercise, questions: Iterable[Question]) -> Iterator[Outcome]:
        from kata.outcomes import settle_here

        for question in questions:
            yield settle_here(question, self.module, self.seconds)

    def written(self, exercise: Exercise, function: str) -> bool:
        return function in self.module.answered


def here(module: Module, *, seconds: float = 10.0) -> Implementation:
    """`module` as an Implementation asked in this process."""
    provided = frozenset(n for n in module.exercise.names if module.provides(n))
    return Implementation(
        module.exercise, module.source, provided, module.file, InProcess(module, seconds)
    )


def load_here(source: str) -> dict[str, Implementation]:
    """Trusted code (the reference, a gallery module) loaded in this process, by exercise."""
    module = None if source in ("", REFERENCE) else import_source(source)
    return {name: here(m) for name, m in modules_of(source, module).items()}


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
