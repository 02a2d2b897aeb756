"""Citations of the in-repository docs resolve: every ``docs/theory.md §n`` (or
``docs/methods.md §n``) named in a docstring, comment, doc or in the citation mapping
has a heading with that number, and every title quoted right after
``docs/architecture.md`` is text of that page. (The mapping ``docs/_citations.txt`` is what the rewrite script produces.)
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CITE = re.compile(r"docs/(theory|methods)\.md((?:[ ,;]*§\s?\d+(?:\.\d+)?(?:\s*[-–]\s*\d+)?(?: item \d+)?)+)")
SECTION = re.compile(r"§\s?(\d+)(?:\.(\d+))?(?:\s*[-–]\s*(\d+))?(?: item (\d+))?")
QUOTED = re.compile(r'docs/architecture\.md "([^"]+)"')


def _headings(name: str) -> set[str]:
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", text, re.M))


def _sections(match: str) -> list[str]:
    out = []
    for major, minor, last, item in SECTION.findall(match):
        sub = minor or item  # "§3 item 2" is subsection 3.2
        out.append(f"{major}.{sub}" if sub else major)
        if last:
            out.extend(str(n) for n in range(int(major) + 1, int(last) + 1))
    return out


def _texts() -> dict[str, str]:
    files = subprocess.run(["git", "ls-files", "--", "*.py", "*.md"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    texts = {f: (ROOT / f).read_text(encoding="utf-8") for f in files if (ROOT / f).exists()}
    mapping = (DOCS / "_citations.txt").read_text(encoding="utf-8")
    texts["docs/_citations.txt (new column)"] = "\n".join(
        line.split("|")[2] for line in mapping.splitlines() if re.match(r"\s*\d+ \|", line))
    return texts


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout to list files")
def test_every_cited_section_exists():
    headings = {name: _headings(name) for name in ("theory", "methods")}
    missing = [f"{where}: docs/{doc}.md §{sec}"
               for where, text in _texts().items()
               for doc, cited in CITE.findall(text)
               for sec in _sections(cited) if sec not in headings[doc]]
    assert not missing, f"cited sections with no heading: {missing}"


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout to list files")
def test_every_quoted_architecture_title_exists():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    missing = [f"{where}: {title!r}" for where, body in _texts().items()
               for title in QUOTED.findall(body) if title not in text]
    assert not missing, f"quoted titles not in docs/architecture.md: {missing}"


def test_section_parsing():
    assert _sections(" §3 item 2") == ["3.2"]
    assert _sections(" §1.3, §2") == ["1.3", "2"]
    assert _sections(" §1–4") == ["1", "2", "3", "4"]
    assert "7.4" in _headings("theory") and "1.4" in _headings("methods")


def test_the_script_applies_the_mapping_and_is_idempotent():
    rows = [[c.strip() for c in line.split("|")]
            for line in (DOCS / "_citations.txt").read_text(encoding="utf-8").splitlines()
            if re.match(r"\s*\d+ \|", line)]
    assert len(rows) > 40
    old = "\n".join(r[1] for r in rows) + "\n"
    new = "\n".join(r[2] for r in rows) + "\n"

    def rewrite(text: str) -> str:
        return subprocess.run(["bash", str(DOCS / "_rewrite_citations.sh"), "--filter"], input=text,
                              capture_output=True, text=True, check=True).stdout

    assert rewrite(old) == new
    assert rewrite(new) == new
    assert rewrite("THEORYCHECK_SMOKE THEORY_IDS _DESIGN = {}\n") == "THEORYCHECK_SMOKE THEORY_IDS _DESIGN = {}\n"
