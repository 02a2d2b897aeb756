"""Where a user's task comes from: ``package.module:NAME``, ``path/to/file.py:NAME``, or an
installed package's entry point (group ``theorycheck.tasks``).

A task loaded from a file keeps working in worker processes (process pools, dask): its
trial is shipped as a :class:`FileTrial`, which names the file and the function and loads
the file again in the worker, since a module loaded from a path cannot be imported there
by name. A trial that cannot be pickled at all (a lambda, a function defined inside
another function) is refused before any work (:func:`theorycheck.sweep.cells.check_shippable`).

>>> load_task("theorycheck.tasks.linear_am:TASK").name
'linear-am'
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from theorycheck.registry import Task

__all__ = ["load_task", "resolve_task", "FileTrial", "load_file"]

_FILES: dict[str, Any] = {}


def load_file(path: str | Path):
    """The module defined by the Python file ``path`` (loaded once per process; its folder
    goes on ``sys.path`` so that it can import its neighbours)."""
    resolved = Path(path).expanduser().resolve()
    key = str(resolved)
    if key in _FILES:
        return _FILES[key]
    if not resolved.is_file():
        raise ValueError(f"task file {str(path)!r} does not exist; give path/to/file.py:NAME")
    name = "theorycheck_user_" + resolved.stem + "_" + hashlib.sha256(key.encode()).hexdigest()[:10]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {str(path)!r} as Python; give path/to/file.py:NAME")
    module = importlib.util.module_from_spec(spec)
    if str(resolved.parent) not in sys.path:
        sys.path.append(str(resolved.parent))
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    _FILES[key] = module
    return module


class FileTrial:
    """``trial(params, seed)`` of the function ``name`` in the Python file ``path``,
    picklable by (path, name): a worker process loads the file itself."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = str(path), str(name)
        # what describe_trial names the sweep by: the file and the function
        self.__module__ = f"file:{self.path}"
        self.__qualname__ = self.name

    def __call__(self, params: dict, seed) -> Any:
        return getattr(load_file(self.path), self.name)(params, seed)

    @property
    def __wrapped__(self) -> Any:
        """The function itself (what the store's code version hashes, sweep/version.py)."""
        return getattr(load_file(self.path), self.name)

    def __reduce__(self):
        return (FileTrial, (self.path, self.name))

    def __repr__(self) -> str:
        return f"FileTrial({self.path!r}, {self.name!r})"


def load_task(spec: str) -> Task:
    """The :class:`Task` named by ``"package.module:NAME"`` or ``"path/to/file.py:NAME"``."""
    where, sep, attr = str(spec).rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise ValueError(f"a task must be a registered name, package.module:NAME or path/to/file.py:NAME, "
                         f"got {spec!r}")
    from_file = where.endswith(".py") or "/" in where or "\\" in where
    if from_file:
        module = load_file(where)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            # a console script does not put the working folder on sys.path the way
            # `python -m` does: `--task detect:TASK` next to detect.py means that file
            local = Path(*where.split(".")).with_suffix(".py")
            if local.is_file():
                return load_task(f"{local}:{attr}")
            raise ValueError(f"cannot import module {where!r} of task {spec!r} ({exc}); check the name "
                             "or give path/to/file.py:NAME") from None
    task = getattr(module, attr, None)
    if not isinstance(task, Task):
        found = "nothing" if task is None else type(task).__name__
        raise ValueError(f"{spec!r} must name a theorycheck.Task, found {found}; define "
                         f"{attr} = theorycheck.Task(...) in {where}")
    trial = task.trial
    if from_file and getattr(trial, "__module__", None) == module.__name__ and "<" not in trial.__qualname__:
        task = dataclasses.replace(task, trial=FileTrial(str(Path(where).expanduser().resolve()),
                                                         trial.__qualname__))
    # a file as an absolute path: a report's Reproduce line then works from any folder
    source = f"{Path(where).expanduser().resolve()}:{attr}" if from_file else str(spec)
    return dataclasses.replace(task, source=source)


def resolve_task(task: str | Task | None) -> str | Task | None:
    """A registered name stays a name; ``module:NAME`` / ``file.py:NAME`` is loaded."""
    if isinstance(task, str) and ":" in task:
        return load_task(task)
    return task

