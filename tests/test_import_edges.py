"""Package edges: ``theorycheck.models`` and ``theorycheck.algorithms`` form no cycle.

The algorithms build on the models; the data both stream (``TrainingPasses``) live with
the task's data in ``theorycheck.tasks``. Read statically (ast), so nothing is imported.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "theorycheck"


def _imports(package: str) -> set[tuple[str, str]]:
    """``(file, imported module)`` for every theorycheck import in ``package``."""
    found = set()
    for path in sorted((ROOT / package).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found |= {(path.name, n) for n in names if n.startswith("theorycheck.")}
    return found


def test_models_do_not_import_algorithms():
    assert not {(f, m) for f, m in _imports("models") if m.startswith("theorycheck.algorithms")}


def test_tasks_import_neither_models_nor_algorithms():
    bad = {(f, m) for f, m in _imports("tasks")
           if m.startswith(("theorycheck.algorithms", "theorycheck.models"))}
    assert not bad


def test_algorithms_do_import_models_so_the_check_above_is_live():
    assert any(m.startswith("theorycheck.models") for _, m in _imports("algorithms"))
