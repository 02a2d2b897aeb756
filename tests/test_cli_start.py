"""Fast start: the CLI parser, ``--help`` and bad-input errors import no heavy library.

Checked on ``sys.modules`` of a fresh interpreter, which does not depend on the machine
or its load (the CPU seconds themselves are measured by ``bench/bench_cli_start.py``).
Also the root package's lazy entry points (``check``, ``simulate``, ``Law``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import theorycheck

HEAVY = ("numpy", "sympy", "scipy", "statsmodels", "matplotlib", "pandas", "dask")
ROOT = str(Path(theorycheck.__file__).resolve().parents[1])


def _fresh(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a new interpreter that imports theorycheck from this tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


_REPORT = ("import json, sys; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
           f"set({HEAVY!r}))))")


def _heavy_after(code: str) -> list[str]:
    proc = _fresh(code + "\n" + _REPORT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_importing_the_cli_loads_no_heavy_library():
    assert _heavy_after("import theorycheck.cli.main") == []


def test_building_the_parser_loads_no_heavy_library():
    # --help builds the whole parser: every sub-command's add_parser runs.
    assert _heavy_after("from theorycheck.cli.main import build_parser; build_parser().format_help()") == []


def test_import_theorycheck_loads_no_heavy_library():
    assert _heavy_after("import theorycheck") == []


@pytest.mark.parametrize(("argv", "allowed"), [
    (["check", "--budget", "nope"], []),
    (["check", "--q", "1.5"], []),
    (["compare-embeddings", "--vary", "L"], []),
    (["simulate", "--seeds", "0"], ["numpy"]),  # the task's validators live beside numpy code
])
def test_bad_input_exits_2_before_heavy_imports(argv, allowed):
    code = ("import contextlib, io, sys\nfrom theorycheck.cli.main import main\n"
            "with contextlib.redirect_stderr(io.StringIO()) as err:\n"
            f"    rc = main({argv!r})\n"
            "assert rc == 2, (rc, err.getvalue())\n"
            "assert err.getvalue().startswith('theorycheck: error: '), err.getvalue()")
    assert set(_heavy_after(code)) <= set(allowed)


def test_bounds_list_needs_sympy_but_not_the_statistics():
    heavy = _heavy_after("import contextlib, io\nfrom theorycheck.cli.main import main\n"
                         "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['bounds', 'list']) == 0")
    assert set(heavy) <= {"numpy", "sympy"}  # laws are parsed (and validated) when the catalogue loads
    assert "sympy" in heavy


def test_root_exports_resolve_lazily():
    from theorycheck.law.core import Law

    assert theorycheck.Law is Law
    assert {"check", "simulate", "Law", "Task"} <= set(dir(theorycheck))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        theorycheck.nope  # noqa: B018


def test_task_and_algorithm_come_from_the_registry():
    registry = pytest.importorskip("theorycheck.registry", reason="the registry lands on another branch")
    assert theorycheck.Task is registry.Task
    assert theorycheck.Algorithm is registry.Algorithm
    assert theorycheck.Variable is registry.Variable


@pytest.mark.parametrize("first", ["import theorycheck.simulate", "import theorycheck"])
def test_simulate_is_the_function_whatever_was_imported_first(first):
    code = (f"{first}\nfrom theorycheck import simulate\nfrom theorycheck.simulate import simulate as fn\n"
            "from theorycheck.tasks.retrieval import RetrievalParams\n"
            "p = RetrievalParams(V=32, d=16, L=4, N=400)\n"
            "print(simulate(p, 'limit', 3).accuracy == fn(p, 'limit', 3).accuracy)")
    proc = _fresh(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


@pytest.mark.parametrize("first", ["import theorycheck.check.runner", "import theorycheck"])
def test_check_is_the_function_whatever_was_imported_first(first):
    # A bad target fails before any work, with the runner's own message.
    code = (f"{first}\nfrom theorycheck import check\nfrom theorycheck.check.runner import check as fn\n"
            "msgs = []\nfor f in (check, fn):\n    try:\n        f('no_such.bound')\n"
            "    except ValueError as exc:\n        msgs.append(str(exc))\n"
            "print(len(msgs) == 2 and msgs[0] == msgs[1])")
    proc = _fresh(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"
