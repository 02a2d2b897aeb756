"""Code version stamped on every stored trial.

``code_version()`` is ``"<package version>+<12 hex digits>"``, the digits being a SHA-256
over the relative path and bytes of every ``*.py`` file of the ``theorycheck`` package,
except the parts that cannot change what a trial returns:

* ``cli/``, ``report/``: presentation;
* ``sweep/``: this engine (seeds are stored explicitly in each trial's key);
* ``threshold/``, ``compare/``, ``bounds/`` (the catalogue's laws and design hints): they
  decide *which* trials to ask for and what to make of the answers, never the answer of a
  given trial.

Everything else (tasks, algorithms, models, simulate, laws, ...) is included, and a new
subpackage is included by default: a stale cache is worse than a recomputation. A store
written under another code version is refused (``ForeignStoreError``) rather than mixed.

A trial that lives outside ``theorycheck`` (a user's task, ``--task file.py:NAME``) adds
its own digest (:func:`trial_code_version`): the bytes of the file that defines it and of
every module loaded from that file's folder (the helpers it imports; a function with no
file, typed in a notebook or a REPL, by its source text or bytecode). Editing the trial or
a helper it imports therefore starts a new store instead of reusing old answers, while a
new script saved beside it does not. Code elsewhere (an installed package of one's own) is
not covered: pass ``code_version=`` to :func:`theorycheck.sweep.run_sweep`, or start a
fresh store.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
from pathlib import Path

import theorycheck

NON_SIMULATION_PARTS: frozenset[str] = frozenset({"cli", "report", "sweep", "threshold", "compare", "bounds"})


def source_digest(package_dir: Path, exclude: frozenset[str] = NON_SIMULATION_PARTS) -> str:
    """SHA-256 hex digest of the ``*.py`` sources under ``package_dir``.

    A file is skipped when the first component of its path relative to ``package_dir``
    (a subpackage directory, or a module's stem) is in ``exclude``. Paths are sorted and
    hashed with their content, so renames and edits both change the digest.
    """
    package_dir = Path(package_dir)
    if not package_dir.is_dir():
        raise ValueError(f"package_dir must be a directory, got {str(package_dir)!r}")
    digest = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        rel = path.relative_to(package_dir)
        if "__pycache__" in rel.parts:
            continue
        head = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        if head in exclude:
            continue
        digest.update(rel.as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def code_version() -> str:
    """``"<theorycheck.__version__>+<first 12 hex of source_digest>"`` (see module doc)."""
    package_dir = Path(theorycheck.__file__).resolve().parent
    return f"{theorycheck.__version__}+{source_digest(package_dir)[:12]}"


def _functions(trial, depth: int = 0):
    """The functions and classes behind ``trial``: a function itself, a partial's function,
    or an object's class, what it wraps (``__wrapped__``) and the callables it holds (a
    wrapper such as ``CriticalTrial``)."""
    if isinstance(trial, functools.partial):
        yield from _functions(trial.func, depth)
    elif inspect.isfunction(trial) or inspect.ismethod(trial):
        yield inspect.unwrap(getattr(trial, "__func__", trial))
    elif callable(trial):
        yield type(trial)
        wrapped = getattr(trial, "__wrapped__", None)  # e.g. task_sources.FileTrial
        if wrapped is not None and depth < 2:
            yield from _functions(wrapped, depth + 1)
        if depth < 2:
            for value in getattr(trial, "__dict__", {}).values():
                if callable(value):
                    yield from _functions(value, depth + 1)


def _source_file(obj) -> Path | None:
    """The file that defines ``obj``: its module's, or (a module loaded from a path and not
    kept in ``sys.modules``) the one its code names, when that file exists."""
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    if not path:
        try:
            path = inspect.getsourcefile(obj)
        except TypeError:
            path = None
    return Path(path).resolve() if path and Path(path).is_file() else None


def _without_file(func) -> bytes:
    """A function with no file: its source text when Python can find it, else its bytecode."""
    try:
        return inspect.getsource(func).encode()
    except (OSError, TypeError):
        code = getattr(func, "__code__", None)
        return b"" if code is None else code.co_code + repr(code.co_names).encode()


def _outside(trial) -> tuple[set[Path], list[bytes]]:
    """The files outside the package that define ``trial``, with the modules loaded from
    their folders, and the texts of those parts that have no file."""
    package_dir = Path(theorycheck.__file__).resolve().parent
    files, loose = set(), []
    for obj in _functions(trial):
        path = _source_file(obj)
        if path is None:
            loose.append(_without_file(obj))
        elif package_dir not in path.parents:
            files.add(path)
    for folder in {f.parent for f in files}:  # the helpers the trial's file imports
        for module in list(sys.modules.values()):
            name = getattr(module, "__file__", None)
            # a relative __file__ names no file that was loaded (torch._classes has
            # "_classes.py"): resolved against the working folder it would point into it
            path = Path(name).resolve() if name and name.endswith(".py") and Path(name).is_absolute() else None
            if path is not None and folder in path.parents and not {"site-packages", "dist-packages"} & set(path.parts):
                files.add(path)
    return files, loose


def defined_outside_package(trial) -> bool:
    """Whether some of ``trial``'s code lives outside ``theorycheck`` (a user's task)."""
    files, loose = _outside(trial)
    return bool(files or loose)


def trial_code_version(trial) -> str:
    """:func:`code_version`, plus ``+trial.<12 hex>`` when ``trial`` (or what it wraps) is
    defined outside ``theorycheck``: a SHA-256 of its files and of the modules loaded from
    their folders (module docstring)."""
    files, loose = _outside(trial)
    base = code_version()
    if not files and not loose:
        return base
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda f: (f.name, f.as_posix())):
        # names, not places: a project folder that moves keeps its store
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for text in loose:
        digest.update(text + b"\0")
    return f"{base}+trial.{digest.hexdigest()[:12]}"
