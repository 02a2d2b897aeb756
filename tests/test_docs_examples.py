"""Every docs example marked ``<!-- test -->`` (in README.md and docs/*.md) runs as written,
as a reader would run it.

A marked block is a fenced code block directly preceded by one of the comments

* ``<!-- test -->`` before a ```` ```python ```` block: the blocks of one document run in
  order, in one namespace (a later block may use what an earlier one defined), as one
  script; their own ``assert`` statements state what they claim;
* ``<!-- test: pytest -->`` before a ```` ```python ```` block: a complete test file; it is
  saved as ``test_doc_<stem>_<i>.py`` and run with ``python -m pytest`` (a user's suite);
* ``<!-- file: NAME -->`` before any block: a file the reader saves as ``NAME`` first.

Everything runs in fresh Python processes, each document in its own temporary folder
**outside** the repository (its working directory, first on ``sys.path``): the repository's
``tests/conftest.py`` (which turns off hypothesis deadlines and picks a matplotlib backend)
and its pytest configuration do not apply, exactly as for a user, and hypothesis picks its
profile from the environment as it would for a user (its default profile, with a 200 ms
deadline, unless a CI service's variables select its ``ci`` profile). The script blocks of
all documents share one process (one import of the package), each document in its own
namespace; each pytest block runs in its own. The package is found through ``PYTHONPATH``
(the checkout under test, as an installed package would be); the repository's
``notebooks/`` folder is copied next to the blocks, since docs/notebooks.md reads a notebook
from a checkout.
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
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"<!-- test -->[ \t]*\n```python\n(.*?)\n```", re.S)
MARKED = re.compile(r"<!-- (test|test: pytest|file: ([\w./-]+)) -->[ \t]*\n```(\w*)\n(.*?)\n```", re.S)
RUNNER = """\
import json, os, sys, traceback
results = {}
for doc in json.load(open(sys.argv[1], encoding="utf-8")):
    os.chdir(doc["folder"])
    sys.path.insert(0, doc["folder"])
    namespace = {"__name__": "__main__"}
    try:
        for label, source in doc["blocks"]:
            exec(compile(source, label, "exec"), namespace)
        results[doc["name"]] = None
    except BaseException:
        results[doc["name"]] = traceback.format_exc()
    sys.path.remove(doc["folder"])
json.dump(results, open(sys.argv[2], "w", encoding="utf-8"))
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


def prepare(path: Path, folder: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """Save the doc's files (and each pytest block as ``test_doc_<stem>_<i>.py``) in
    ``folder``, which must lie outside the repository; its script blocks ``(label, source)``
    and the names of its pytest files."""
    folder = folder.resolve()
    assert ROOT not in (folder, *folder.parents), f"{folder} lies inside the repository"
    if (ROOT / "notebooks").is_dir() and not (folder / "notebooks").exists():
        shutil.copytree(ROOT / "notebooks", folder / "notebooks")
    scripts, suites = [], []
    for i, (kind, name, source) in enumerate(doc_items(path.read_text(encoding="utf-8"))):
        if kind == "file":
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(source, encoding="utf-8")
        elif kind == "test":
            scripts.append((f"{path.name}[block {i}]", source))
        else:
            suites.append(f"test_doc_{path.stem}_{i}.py")
            (folder / suites[-1]).write_text(source + "\n", encoding="utf-8")
    return scripts, suites


def run_scripts(docs: dict[str, tuple[Path, list[tuple[str, str]]]], workdir: Path) -> dict[str, str | None]:
    """Run the script blocks of several docs in one fresh interpreter (one import of the
    package for all), each doc in its own folder and namespace; doc name -> None when its
    blocks ran, else the traceback."""
    jobs = [{"name": name, "folder": str(folder), "blocks": blocks} for name, (folder, blocks) in docs.items()]
    (workdir / "doc_blocks.json").write_text(json.dumps(jobs), encoding="utf-8")
    (workdir / "run_doc_blocks.py").write_text(RUNNER, encoding="utf-8")
    done = subprocess.run([sys.executable, "run_doc_blocks.py", "doc_blocks.json", str(workdir / "results.json")], cwd=workdir,
                          env=subprocess_env(), capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"the docs' blocks crashed the interpreter:\n{done.stderr[-3000:]}"
    return json.loads((workdir / "results.json").read_text(encoding="utf-8"))


def run_suite(name: str, folder: Path) -> subprocess.CompletedProcess:
    """``python -m pytest name`` in ``folder``: a user's suite, no repository configuration."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name], cwd=folder,
                          env=subprocess_env(), capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def script_results(tmp_path_factory) -> dict[str, str | None]:
    """Every doc's script blocks, run once for the module (see :func:`run_scripts`)."""
    root = tmp_path_factory.mktemp("docs")
    docs = {}
    for path in DOCS:
        (root / path.stem).mkdir()
        docs[path.name] = (root / path.stem, prepare(path, root / path.stem)[0])
    return run_scripts(docs, root)


def test_every_doc_has_a_tested_example():
    names = {p.name for p in DOCS}
    assert {"README.md", "checking_a_bound.md", "property_tests.md", "notebooks.md",
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
    blocks, suites = prepare(doc, tmp_path / "run")
    results = run_scripts({"bad.md": (tmp_path / "run", blocks), "good.md": (tmp_path / "run", [("x", "y = 1")])},
                          tmp_path)
    assert "AssertionError" in results["bad.md"] and results["good.md"] is None
    done = run_suite(suites[0], tmp_path / "run")
    assert done.returncode == 1 and "1 failed" in done.stdout


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_doc_examples_run_outside_the_repository(path, script_results, tmp_path):
    assert script_results[path.name] is None, f"{path.name}:\n{script_results[path.name]}"
    for name in prepare(path, tmp_path)[1]:
        done = run_suite(name, tmp_path)
        assert done.returncode == 0, f"{path.name}: pytest {name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"
