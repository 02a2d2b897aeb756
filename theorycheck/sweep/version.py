"""Code version stamped on every stored trial.

``code_version()`` is ``"<package version>+<12 hex digits>"``, the digits being a SHA-256
over the relative path and bytes of every ``*.py`` file of the ``theorycheck`` package,
except the parts that cannot change what a trial returns:

* ``cli/``, ``report/``: presentation;
* ``sweep/``: this engine (seeds are stored explicitly in each trial's key);
* ``threshold/``, ``compare/``: they decide *which* trials to ask for and what to make
  of the answers, never the answer of a given trial.

Everything else (tasks, algorithms, models, simulate, laws, ...) is included, and a new
subpackage is included by default: a stale cache is worse than a recomputation. A store
written under another code version is refused (``ForeignStoreError``) rather than mixed.

A trial function that lives outside ``theorycheck`` is not covered; pass your own
``code_version=`` string to :func:`theorycheck.sweep.run_sweep` in that case.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import theorycheck

NON_SIMULATION_PARTS: frozenset[str] = frozenset({"cli", "report", "sweep", "threshold", "compare"})


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
