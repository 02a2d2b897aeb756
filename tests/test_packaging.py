"""The install lines of the README cover what the notebooks import.

README: ``pip install ".[notebooks]"`` before opening the notebooks. Every module a
notebook imports must then be there: the standard library, theorycheck itself, a core
dependency or the ``notebooks`` extra, or something those require (e.g. IPython comes
with ipykernel). Read from the notebooks' source and the installed packages' metadata.
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirement_names(requirements: list[str]) -> set[str]:
    """Names of unconditional requirements (those without an ``extra == ...`` marker)."""
    return {_norm(_NAME.match(r).group()) for r in requirements if "extra ==" not in r}


def _closure(names: set[str]) -> set[str]:
    """``names`` and everything they require, as far as the installed metadata says."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            todo.extend(_requirement_names(metadata.requires(name) or []))
        except metadata.PackageNotFoundError:
            pass
    return seen


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_readme_installs_the_notebooks_extra():
    assert 'pip install ".[notebooks]"' in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_imports_are_installed_by_the_notebooks_extra(notebook):
    project = _project()
    declared = _requirement_names(project["dependencies"] + project["optional-dependencies"]["notebooks"])
    available = _closure(declared)
    distributions = metadata.packages_distributions()
    missing = []
    for module in sorted(_imported_modules(notebook)):
        if module in sys.stdlib_module_names or module in ("theorycheck", "bounds"):
            continue
        dists = {_norm(d) for d in distributions.get(module, [module])}
        if not dists & available:
            missing.append(f"{module} (from {sorted(dists)})")
    assert not missing, f"{notebook.name} imports {missing}, which pip install '.[notebooks]' does not install"
