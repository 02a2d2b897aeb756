"""Every docs example marked ``<!-- test -->`` runs as written, as a reader would run it.

A marked block is a fenced code block directly preceded by one of the comments

* ``<!-- test -->`` before a ```` ```python ```` block: the blocks of one document run in
  order, in one namespace (a later block may use what an earlier one defined), as one
  script; their own ``assert`` statements state what they claim;
* ``<!-- test: pytest -->`` before a ```` ```python ```` block: a complete test file; it is
  saved as ``test_doc_<stem>_<i>.py`` and run with ``python -m pytest`` (a user's suite);
* ``<!-- file: NAME -->`` before any block: a file the reader saves as ``NAME`` first.

Each document runs in a fresh Python process whose working directory is a temporary
folder **outside** the repository: the repository's ``tests/conftest.py`` (which turns off
hypothesis deadlines and picks a matplotlib backend) and its pytest configuration do not
apply, exactly as for a user. The package is found through ``PYTHONPATH`` (the checkout
under test, as an installed package would be); the repository's ``notebooks/`` folder is
copied next to the blocks, since docs/notebooks.md reads a notebook from a checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"<!-- test -->[ \t]*\n```python\n(.*?)\n```", re.S)
MARKED = re.compile(r"<!-- (test|test: pytest|file: ([\w./-]+)) -->[ \t]*\n```(\w*)\n(.*?)\n```", re.S)
RUNNER = """\
import json, sys
namespace = {"__name__": "__main__"}
for label, source in json.load(open(sys.argv[1], encoding="utf-8")):
    exec(compile(source, label, "exec"), namespace)
"""


def marked_blocks(path: Path) -> list[str]:
    """The ``<!-- test -->`` python blocks of ``path``, in order."""
    return BLOCK.findall(path.read_text(encoding="utf-8"))


def doc_items(text: str) -> list[tuple[str, str, str]]:
    """``(kind, name, source)`` of every marked block, in order: kind ``"test"``,
    ``"pytest"`` or ``"file"`` (``name`` is the file name of a ``file`` block)."""
    items = []
    for marker, name, language, source in MARKED.findall(text):
        if marker.startswith("file:"):
            items.append(("file", name, source + "\n"))
        elif language == "python":
            items.append(("pytest" if marker == "test: pytest" else "test", "", source))
    return items


def subprocess_env() -> dict[str, str]:
    """The caller's environment, with this checkout first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def outside_repository(folder: Path) -> Path:
    folder = folder.resolve()
    assert ROOT not in (folder, *folder.parents), f"{folder} lies inside the repository"
    return folder


def run_doc(path: Path, folder: Path, timeout: float = 600) -> list[subprocess.CompletedProcess]:
    """Save the doc's files, run its test blocks as one script and each pytest block with
    pytest, all from ``folder``; the completed processes, in that order."""
    folder = outside_repository(folder)
    items = doc_items(path.read_text(encoding="utf-8"))
    scripts = []
    for i, (kind, name, source) in enumerate(items):
        if kind == "file":
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(source, encoding="utf-8")
        elif kind == "test":
            scripts.append((f"{path.name}[block {i}]", source))
    commands = []
    if scripts:
        (folder / "doc_blocks.json").write_text(json.dumps(scripts), encoding="utf-8")
        (folder / "run_doc_blocks.py").write_text(RUNNER, encoding="utf-8")
        commands.append([sys.executable, "run_doc_blocks.py", "doc_blocks.json"])
    for i, (kind, _, source) in enumerate(items):
        if kind == "pytest":
            name = f"test_doc_{path.stem}_{i}.py"
            (folder / name).write_text(source + "\n", encoding="utf-8")
            commands.append([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name])
    return [subprocess.run(c, cwd=folder, env=subprocess_env(), capture_output=True, text=True,
                           timeout=timeout) for c in commands]


def test_every_doc_has_a_tested_example():
    names = {p.name for p in DOCS}
    assert {"checking_a_bound.md", "property_tests.md", "notebooks.md", "README_SECTION.md",
            "your_own_task.md"} <= names
    for path in DOCS:
        kinds = {kind for kind, _, _ in doc_items(path.read_text(encoding="utf-8"))}
        assert kinds & {"test", "pytest"}, f"{path.name} has no python block marked <!-- test -->"


def test_block_extraction_sees_only_marked_blocks():
    text = "<!-- test -->\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n<!-- test -->\n```python\nz = 3\n```\n"
    assert BLOCK.findall(text) == ["x = 1", "z = 3"]
    text += ("<!-- file: pkg/a.py -->\n```python\nA = 1\n```\n<!-- test: pytest -->\n```python\n"
             "def test_a(): pass\n```\n<!-- file: data.csv -->\n```\nx\n1\n```\n")
    assert doc_items(text) == [("test", "", "x = 1"), ("test", "", "z = 3"), ("file", "pkg/a.py", "A = 1\n"),
                               ("pytest", "", "def test_a(): pass"), ("file", "data.csv", "x\n1\n")]


def test_a_failing_block_fails_the_run(tmp_path):
    """The harness is not vacuous: a false assert in a block, or a failing pytest block, fails."""
    doc = tmp_path / "doc" / "bad.md"
    doc.parent.mkdir()
    doc.write_text("<!-- test -->\n```python\nassert 1 + 1 == 3\n```\n"
                   "<!-- test: pytest -->\n```python\ndef test_false():\n    assert False\n```\n")
    (tmp_path / "run").mkdir()
    script, suite = run_doc(doc, tmp_path / "run")
    assert script.returncode != 0 and "AssertionError" in script.stderr
    assert suite.returncode == 1 and "1 failed" in suite.stdout


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_doc_examples_run_outside_the_repository(path, tmp_path):
    if (ROOT / "notebooks").is_dir():
        shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    for done in run_doc(path, tmp_path):
        assert done.returncode == 0, f"{path.name}: {done.args[1:]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
