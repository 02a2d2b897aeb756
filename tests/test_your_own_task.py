"""docs/your_own_task.md runs verbatim in a folder outside the repository.

The document marks what a reader does: ``<!-- file: NAME -->`` before a block the reader
saves as ``NAME``; ``<!-- run: exit N -->`` before a shell command the reader types (and the
exit code it ends with); ``<!-- output -->`` before what that command printed. The slow test
saves the files in a temporary folder outside the repository, runs every command there with
``bash`` (``theorycheck`` and ``python`` are this interpreter), and compares each output
with the document's: the same lines with the same words, numbers equal up to 5% (or 0.02),
which leaves room for floating-point differences between machines and none for a
different verdict, exponent or ranking. The fast tests check the document's structure, its
entry-point section (``theorycheck tasks`` with the task declared by an installed
distribution) and its table of exit-2 mistakes. The Python block of the document runs in
tests/test_docs_examples.py.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "your_own_task.md"
MARKED = re.compile(r"<!-- (file: ([\w./-]+)|run: exit (\d+)|output) -->[ \t]*\n```(\w*)\n(.*?)\n```", re.S)
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def doc_steps(text: str) -> list[tuple]:
    """``("file", name, text)``, ``("run", command, exit_code, expected_output)`` in order."""
    steps: list[tuple] = []
    for marker, name, code, _, body in MARKED.findall(text):
        if marker.startswith("file:"):
            steps.append(("file", name, body + "\n"))
        elif marker.startswith("run:"):
            steps.append(("run", body, int(code), None))
        else:
            assert steps and steps[-1][0] == "run" and steps[-1][3] is None, "an output block must follow a run block"
            steps[-1] = (*steps[-1][:3], body)
    return steps


def same_output(expected: str, actual: str) -> str | None:
    """None when ``actual`` matches ``expected`` (see the module docstring); else why not."""
    want, got = expected.strip().splitlines(), actual.strip().splitlines()
    if len(want) != len(got):
        return f"{len(got)} lines printed, the doc shows {len(want)}"
    for w, g in zip(want, got):
        if " ".join(NUMBER.sub("#", w).split()) != " ".join(NUMBER.sub("#", g).split()):
            return f"line differs:\n  doc: {w}\n  got: {g}"
        for a, b in zip(NUMBER.findall(w), NUMBER.findall(g)):
            if not math.isclose(float(a), float(b), rel_tol=0.05, abs_tol=0.02):
                return f"number {b} where the doc shows {a}:\n  doc: {w}\n  got: {g}"
    return None


def user_folder(tmp: Path) -> tuple[Path, dict[str, str]]:
    """An empty folder outside the repository, and an environment where ``theorycheck`` and
    ``python`` are this interpreter with this checkout of the package."""
    tmp = tmp.resolve()
    assert ROOT not in tmp.parents, f"{tmp} lies inside the repository"
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for name, target in (("python", f'"{sys.executable}"'), ("theorycheck", f'"{sys.executable}" -m theorycheck.cli.main')):
        (bin_dir / name).write_text(f'#!/bin/sh\nexec {target} "$@"\n')
        (bin_dir / name).chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    work = tmp / "work"
    work.mkdir()
    return work, env


def save_files(work: Path) -> None:
    for step in doc_steps(DOC.read_text(encoding="utf-8")):
        if step[0] == "file":
            (work / step[1]).write_text(step[2], encoding="utf-8")


def test_the_doc_declares_files_commands_and_outputs():
    steps = doc_steps(DOC.read_text(encoding="utf-8"))
    assert [s[1] for s in steps if s[0] == "file"] == ["detect.py", "exact.py"]
    runs = [s for s in steps if s[0] == "run"]
    assert [r[2] for r in runs] == [0, 0, 1, 0]  # true law, exact thresholds, wrong law, fit
    assert all(r[3] for r in runs), "every command is followed by what it printed"
    assert "--task detect.py:TASK" in runs[0][1] and "fit run-true/thresholds.csv" in runs[3][1]


def test_output_comparison_catches_a_changed_verdict_or_number():
    doc = "verdict: consistent   law: x\n  d  0.2193  [0.2042, 0.2344]  0.25  consistent"
    assert same_output(doc, doc.replace("  0.2193", " 0.2201")) is None  # spacing, and 0.4% off
    assert "line differs" in same_output(doc, doc.replace("verdict: consistent", "verdict: refuted"))
    assert "number 0.3" in same_output(doc, doc.replace("0.2193", "0.3"))
    assert "lines printed" in same_output(doc, doc + "\nextra")


def test_the_entry_point_section_lists_the_task(tmp_path):
    """An installed distribution declaring ``signal-detection = "detect:TASK"`` in the group
    ``theorycheck.tasks`` (a .dist-info folder on the path, which is what ``pip install``
    leaves) is listed by ``theorycheck tasks`` exactly as the document shows."""
    work, env = user_folder(tmp_path)
    site = tmp_path / "site"
    (site / "signal_detection-0.1.dist-info").mkdir(parents=True)
    save_files(site)
    (site / "signal_detection-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: signal-detection\nVersion: 0.1\n")
    (site / "signal_detection-0.1.dist-info" / "entry_points.txt").write_text(
        '[theorycheck.tasks]\nsignal-detection = detect:TASK\n')
    env["PYTHONPATH"] += os.pathsep + str(site)
    text = DOC.read_text(encoding="utf-8")
    assert 'signal-detection = "detect:TASK"' in text and '[project.entry-points."theorycheck.tasks"]' in text
    shown = text.split("$ theorycheck tasks\n...\n", 1)[1].split("\n$ ", 1)[0].splitlines()
    done = subprocess.run(["theorycheck", "tasks"], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.splitlines()
    start = listed.index(shown[0])
    assert listed[start:start + len(shown)] == shown


MISTAKES = """
import contextlib, io, json, sys
from theorycheck.cli.main import main
law = "eps >= C*d**(1/4)/sqrt(n)"
cases = {"task": ["--task", "detect.py:NOPE"], "law": ["--law", "eps >= C*dd**(1/4)/sqrt(n)"],
         "base": ["--base", "d=20000"], "vary": ["--vary", "zzz"]}
out = {}
for key, extra in cases.items():
    args = ["check", "--law", law, "--task", "detect.py:TASK", "--out", "mistake", "--quiet", *extra]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(args)
    out[key] = [code, err.getvalue()]
print(json.dumps(out))
"""


def test_the_table_of_mistakes_exits_2_with_the_shown_messages(tmp_path):
    work, env = user_folder(tmp_path)
    save_files(work)
    done = subprocess.run([sys.executable, "-c", MISTAKES], cwd=work, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Mistakes the command catches", 1)[1]
    for key, shown in (("task", "must name a theorycheck.Task, found nothing"),
                       ("law", "depends on ['dd'], which the signal-detection task cannot set"),
                       ("base", "d must be an integer in [1, 10000], got 20000"),
                       ("vary", "cannot vary ['zzz']: the signal-detection task's variables are n, d")):
        code, err = found[key]
        assert shown in table and code == 2 and shown in err and len(err.strip().splitlines()) == 1, (key, err)
    assert not (work / "mistake" / "trials.sqlite").exists()  # nothing ran


@pytest.mark.slow
def test_the_doc_runs_verbatim_outside_the_repository(tmp_path):
    """Every command of the document, in order, in an empty folder: exit codes, outputs and
    report files as shown (about 20 s of CPU: two standard-budget checks and a resume)."""
    work, env = user_folder(tmp_path)
    for step in doc_steps(DOC.read_text(encoding="utf-8")):
        if step[0] == "file":
            (work / step[1]).write_text(step[2], encoding="utf-8")
            continue
        _, command, exit_code, expected = step
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == exit_code, f"{command}\nexit {done.returncode}\n{done.stdout}\n{done.stderr[-3000:]}"
        problem = same_output(expected, done.stdout)
        assert problem is None, f"{command}: {problem}"
    for run in ("run-true", "run-wrong"):
        assert {"verdict.json", "report.md", "thresholds.csv", "trials.sqlite"} <= {p.name for p in (work / run).iterdir()}
    # the prose's claim: a finer tolerance on the same store re-runs nothing and is inconclusive
    text = DOC.read_text(encoding="utf-8")
    assert "`--tolerance 0.1`" in text and "`verdict: inconclusive` and exits 3" in text
    before = (work / "run-true" / "trials.sqlite").stat().st_size
    done = subprocess.run(["bash", "-c", 'theorycheck check --law "eps >= C*d**(1/4)/sqrt(n)" --task detect.py:TASK '
                           "--budget standard --out run-true --quiet --tolerance 0.1"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 3 and done.stdout.startswith("verdict: inconclusive"), done.stdout + done.stderr
    assert "d 45..91: CI [-0.138, +0.021]" in done.stdout
    assert (work / "run-true" / "trials.sqlite").stat().st_size == before
