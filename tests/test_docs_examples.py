"""Every docs example marked ``<!-- test -->`` runs as written.

A block is a fenced ```` ```python ```` block directly preceded by the comment
``<!-- test -->``. The blocks of one document run in order, in one namespace (a later
block may use what an earlier one defined), from the repository root — as a reader who
copies them would run them. Their own ``assert`` statements state what they claim.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"<!-- test -->[ \t]*\n```python\n(.*?)\n```", re.S)


def marked_blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


def test_every_doc_has_a_tested_example():
    names = {p.name for p in DOCS}
    assert {"checking_a_bound.md", "property_tests.md", "notebooks.md", "README_SECTION.md"} <= names
    for path in DOCS:
        assert marked_blocks(path), f"{path.name} has no python block marked <!-- test -->"


def test_block_extraction_sees_only_marked_blocks():
    text = "<!-- test -->\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n<!-- test -->\n```python\nz = 3\n```\n"
    assert BLOCK.findall(text) == ["x = 1", "z = 3"]


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_doc_examples_run(path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    for i, source in enumerate(marked_blocks(path)):
        code = compile(source, f"{path.name}[block {i}]", "exec")
        exec(code, namespace)  # noqa: S102 - running the documentation is the point
