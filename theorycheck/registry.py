"""One declarative registry of the tasks and algorithms theorycheck can simulate.

A **task** declares once (docs/architecture.md): its name, its variables with their kind
(``integer`` or ``real``) and valid range, the resource thresholds are measured in,
defaults, validation, cost model, and its trial ``trial(params, seed) -> bool | dict``
(``seed`` a :class:`numpy.random.SeedSequence` derived by the package; a dict carries
``"success"`` and diagnostics). An **algorithm** declares its name, the task it trains
on, the models it supports (one runner each, ``"module:function"``, imported on first
use) and whether it is dense; its options are the keyword arguments of its runner.
Installed packages add tasks through the entry-point group ``theorycheck.tasks``.

Built-in entries declare themselves in one module each: ``TASK = Task(...)`` in a module
of :mod:`theorycheck.tasks`, ``ALGORITHM = Algorithm(...)`` in a module of
:mod:`theorycheck.algorithms`, found with :mod:`pkgutil` on first use (as
:mod:`theorycheck.catalogue` finds ``bounds``). Adding one is adding one module; other
code registers with :func:`register_task` / :func:`register_algorithm`.

The declarations themselves are in :mod:`theorycheck.declarations` (re-exported here).
Pure and cheap to import: the standard library only.

>>> get_task("retrieval").resource, get_algorithm("limit").models
('N', ('attention', 'mlp'))
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from theorycheck.declarations import KINDS, Algorithm, Task, Variable

__all__ = [
    "Variable", "Task", "Algorithm", "KINDS",
    "register_task", "register_algorithm", "unregister_task", "unregister_algorithm",
    "get_task", "get_algorithm", "task_names", "algorithm_names", "tasks", "algorithms",
    "integer_variables", "variable_names", "choices", "models", "source", "ENTRY_POINT_GROUP", "LazyNames",
]

# ------------------------------------------------------------------------------ registry
_TASKS: dict[str, Task] = {}
_ALGORITHMS: dict[str, Algorithm] = {}
_DISCOVERED: list[bool] = []
_SOURCES: dict[int, str] = {}  # id(entry) -> where it was declared
ENTRY_POINT_GROUP = "theorycheck.tasks"
"""Installed packages declare tasks here: ``[project.entry-points."theorycheck.tasks"]``
``my-task = "my_package.tasks:TASK"``."""
_LOCK = threading.RLock()
_PACKAGES = (("theorycheck.tasks", "TASK", _TASKS), ("theorycheck.algorithms", "ALGORITHM", _ALGORITHMS))


def _add(table: dict, entry: Task | Algorithm, replace: bool) -> None:
    old = table.get(entry.name)
    if old is not None and old is not entry and not replace:
        kind = "task" if isinstance(entry, Task) else "algorithm"
        raise ValueError(f"a {kind} called {entry.name!r} is already registered; choose another name "
                         f"(or pass replace=True)")
    table[entry.name] = entry


def _discover() -> None:
    """Import every module of the built-in packages once and register its declaration."""
    with _LOCK:
        if _DISCOVERED:
            return
        _DISCOVERED.append(True)
        for package, attribute, table in _PACKAGES:
            pkg = importlib.import_module(package)
            for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
                entry = getattr(importlib.import_module(f"{package}.{info.name}"), attribute, None)
                if entry is not None:
                    _add(table, entry, replace=False)
                    _SOURCES[id(entry)] = f"{package}.{info.name}"
        from importlib.metadata import entry_points

        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            entry = ep.load()
            if not isinstance(entry, Task):
                raise ValueError(f"entry point {ep.name} = {ep.value} (group {ENTRY_POINT_GROUP}) is a "
                                 f"{type(entry).__name__}, not a theorycheck.Task; fix or uninstall its package")
            _add(_TASKS, entry, replace=False)
            _SOURCES[id(entry)] = f"entry point {ep.value}"


def _forget_discovery() -> None:
    """Clear the registry; the next look-up discovers the packages again (for tests)."""
    with _LOCK:
        _TASKS.clear()
        _ALGORITHMS.clear()
        _DISCOVERED.clear()
        _SOURCES.clear()


def register_task(task: Task, *, replace: bool = False) -> Task:
    """Make ``task`` available by name (to ``check``, the CLI and the design)."""
    if not isinstance(task, Task):
        raise ValueError(f"register_task expects a theorycheck Task, got {type(task).__name__}")
    _discover()
    _add(_TASKS, task, replace)
    return task


def register_algorithm(algorithm: Algorithm, *, replace: bool = False) -> Algorithm:
    """Make ``algorithm`` available by name (to ``simulate``, the CLI and the trials)."""
    if not isinstance(algorithm, Algorithm):
        raise ValueError(f"register_algorithm expects a theorycheck Algorithm, got {type(algorithm).__name__}")
    _discover()
    _add(_ALGORITHMS, algorithm, replace)
    return algorithm


def unregister_task(name: str) -> None:
    _discover()
    _TASKS.pop(name, None)


def unregister_algorithm(name: str) -> None:
    _discover()
    _ALGORITHMS.pop(name, None)


def source(entry: Task | Algorithm) -> str:
    """Where a registered entry was declared: its module, an entry point, or ``registered``."""
    _discover()
    return _SOURCES.get(id(entry), "registered")


def tasks() -> dict[str, Task]:
    """Every registered task by name (sorted)."""
    _discover()
    return dict(sorted(_TASKS.items()))


def algorithms(task: str | None = None) -> dict[str, Algorithm]:
    """Every registered algorithm by name (sorted), those of ``task`` if given."""
    _discover()
    return {k: a for k, a in sorted(_ALGORITHMS.items()) if task is None or a.task == task}


def task_names() -> tuple[str, ...]:
    return tuple(tasks())


def algorithm_names(task: str | None = None) -> tuple[str, ...]:
    return tuple(algorithms(task))


def get_task(task: str | Task) -> Task:
    """The task called ``task`` (a :class:`Task` is returned as is); ValueError listing
    the registered ones otherwise."""
    if isinstance(task, Task):
        return task
    known = tasks()
    if isinstance(task, str) and task in known:
        return known[task]
    raise ValueError(f"unknown task {task!r}; choose one of {', '.join(known)}, or name a Task in a file "
                     f"or module as path/to/file.py:NAME or package.module:NAME")


def get_algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``; ValueError listing the registered ones otherwise."""
    known = algorithms()
    if isinstance(name, str) and name in known:
        return known[name]
    raise ValueError(f"unknown algorithm {name!r}; valid algorithms: {', '.join(known)}")


def variable_names() -> tuple[str, ...]:
    """Names of the variables of every registered task (first declaration order)."""
    return tuple(dict.fromkeys(v for t in tasks().values() for v in t.variables))


def integer_variables() -> frozenset[str]:
    """Names declared ``integer`` (as a variable or a setting) by some registered task."""
    return frozenset(v.name for t in tasks().values()
                     for v in (*t.variables.values(), *t.settings.values()) if v.kind == "integer")


def choices(task: str, setting: str) -> tuple[str, ...]:
    """The allowed values of a categorical ``setting`` of ``task`` (for CLI choices)."""
    return get_task(task).choices.get(setting, ())


def models(task: str = "retrieval") -> tuple[str, ...]:
    """Every model some algorithm of ``task`` supports (for CLI choices)."""
    return tuple(dict.fromkeys(m for a in algorithms(task).values() for m in a.models))



class LazyNames(Sequence):
    """The names ``function(*args)`` returns, looked up on each use, so that holding the
    object (a module constant, argparse ``choices``) discovers nothing until it is read.

    >>> "retrieval" in LazyNames(task_names)
    True
    """

    def __init__(self, function: Callable[..., Iterable[str]], *args: Any) -> None:
        self._function, self._args = function, args

    def _names(self) -> tuple[str, ...]:
        return tuple(self._function(*self._args))

    def __getitem__(self, index):
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, value: object) -> bool:
        return value in self._names()

    def __iter__(self):
        return iter(self._names())

    def __repr__(self) -> str:
        return repr(self._names())
