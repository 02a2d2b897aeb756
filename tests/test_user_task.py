"""A user's own task, declared in a file outside the package, checked end to end.

The task: connectivity of the Erdos-Renyi graph G(n, p). Its threshold is classical
(Erdos & Renyi 1959): P(connected) -> exp(-e^{-c}) at p = (log n + c)/n, so the
success probability 1/2 sits at p* = (log n + 0.37)/n, i.e. the law ``p >= C*log(n)/n``.
The resource ``p`` is REAL (searched in log space inside (0, 1]); ``n`` is an INTEGER
variable (the trial insists on receiving an int).
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sweep_script import kill_when_stored

from theorycheck import registry
from theorycheck.cli.main import main

ER_TASK = '''
"""Connectivity of the Erdos-Renyi graph G(n, p)."""
import os
import time

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import theorycheck


def connected(params, seed):
    time.sleep(float(os.environ.get("ER_TASK_SLEEP", "0")))  # lets a test interrupt a run
    n, p = params["n"], params["p"]
    if not isinstance(n, int):
        raise TypeError(f"n must arrive as an int, got {n!r}")
    rng = np.random.default_rng(seed)
    i, j = np.triu_indices(n, 1)
    keep = rng.random(i.size) < p
    graph = coo_matrix((np.ones(int(keep.sum())), (i[keep], j[keep])), shape=(n, n))
    return {"success": bool(connected_components(graph, directed=False)[0] == 1)}


TASK = theorycheck.Task(
    "er-connectivity", connected,
    variables=[theorycheck.Variable("n", "integer", 2, 4096, "number of vertices"),
               theorycheck.Variable("p", "real", high=1.0, description="edge probability")],
    resource="p", defaults={"n": 64},
)



def disconnected(params, seed):
    return {"success": not connected(params, seed)["success"]}


SPLIT_TASK = theorycheck.Task(  # success falls with p: its law is a capacity, 'p <= ...'
    "er-disconnected", disconnected,
    variables=[theorycheck.Variable("n", "integer", 2, 4096, "number of vertices"),
               theorycheck.Variable("p", "real", high=1.0, description="edge probability")],
    resource="p", defaults={"n": 64},
)

def broken(params, seed):
    raise RuntimeError("my own bug")


BROKEN_TASK = theorycheck.Task(
    "er-broken", broken,
    variables=[theorycheck.Variable("n", "integer", 2, 4096), theorycheck.Variable("p", "real", high=1.0)],
    resource="p", defaults={"n": 64},
)

LAMBDA_TASK = theorycheck.Task(
    "er-lambda", lambda params, seed: connected(params, seed),
    variables=[theorycheck.Variable("n", "integer", 2), theorycheck.Variable("p", "real", high=1.0)],
    resource="p", defaults={"n": 64},
)
'''

TRUE_LAW = "p >= C*log(n)/n"


@pytest.fixture(scope="module")
def task_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("user") / "er_task.py"
    path.write_text(textwrap.dedent(ER_TASK))
    return path


def _check(capsys, task_file, out, law=TRUE_LAW, *extra):
    code = main(["check", "--law", law, "--task", f"{task_file}:TASK", "--seed", "11", "--out", str(out),
                 "--quiet", "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def serial_run(task_file, tmp_path_factory):
    """One serial check of the true law (shared by the tests below; read-only)."""
    out = tmp_path_factory.mktemp("serial")
    code = main(["check", "--law", TRUE_LAW, "--task", f"{task_file}:TASK", "--seed", "11", "--out", str(out),
                 "--quiet"])
    return code, out


def _rows(out):
    with open(out / "thresholds.csv") as f:
        return list(csv.DictReader(f))


def test_file_task_true_law_is_consistent_with_a_report(serial_run):
    code, out = serial_run
    verdict = json.loads((out / "verdict.json").read_text())["verdict"]
    assert code == 0 and verdict["verdict"] == "consistent"
    assert (out / "report.md").exists()
    rows = _rows(out)
    assert len(rows) >= 3
    for row in rows:
        n, p = float(row["n"]), float(row["threshold"])
        assert n == int(n)  # the integer variable is designed and recorded as an integer
        # the measured real threshold sits near the classical p* = (log n + 0.37)/n: the
        # finite-n correction is small at n >= 16; 25% covers it and the CI (~3%)
        assert 0.75 < p / ((math.log(n) + 0.37) / n) < 1.25, row


def test_two_workers_give_identical_results(serial_run, task_file, tmp_path, capsys):
    _, serial_out = serial_run
    code, _ = _check(capsys, task_file, tmp_path / "w2", TRUE_LAW, "--workers", "2")
    assert code == 0
    assert _rows(tmp_path / "w2") == _rows(serial_out)
    a = json.loads((serial_out / "verdict.json").read_text())
    b = json.loads((tmp_path / "w2" / "verdict.json").read_text())
    assert a["verdict"] == b["verdict"] and a["cells"] == b["cells"]


def test_a_wrong_law_is_refuted(task_file, tmp_path, capsys):
    # p ~ 1/n^2 predicts exponent -2; the data give about -0.76 (log(n)/n locally).
    code, verdict = _check(capsys, task_file, tmp_path / "wrong", "p >= C/n**2")
    assert code == 1 and verdict["verdict"] == "refuted"


def test_a_lambda_trial_with_workers_is_refused_before_any_work(task_file, tmp_path, capsys):
    code = main(["check", "--law", TRUE_LAW, "--task", f"{task_file}:LAMBDA_TASK", "--out", str(tmp_path / "x"),
                 "--quiet", "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot be sent to worker processes" in err and "top level" in err
    assert not (tmp_path / "x").exists()  # refused before the output directory exists: no store, no lock


def test_simulate_runs_a_file_task(task_file, capsys):
    code = main(["simulate", "--task", f"{task_file}:TASK", "--set", "n=40", "--set", "p=0.5", "--seeds", "2",
                 "--json"])
    report = json.loads(capsys.readouterr().out)
    # p = 0.5 is ten times the threshold (log 40)/40 ~ 0.09: connected
    assert code == 0 and report["params"] == {"n": 40, "p": 0.5} and report["success"] == [True, True]


def test_simulate_rows_of_a_file_task_name_their_seeds(task_file, tmp_path, capsys):
    rows = tmp_path / "rows.csv"
    assert main(["simulate", "--task", f"{task_file}:TASK", "--set", "n=40", "--set", "p=0.5", "--seeds", "3",
                 "--seed", "7", "--rows", str(rows)]) == 0
    assert rows.read_text().splitlines() == ["n,p,successes,trials,seeds", "40,0.5,3,3,7-9"]


@pytest.mark.parametrize(("extra", "message"), [
    # the resource p has no default: this was a KeyError in the trial, exit 4 ("a bug")
    ([], "task er-connectivity has no default for p; give --set p=VALUE"),
    (["--set", "p=0.5", "--set", "q=1"], "task er-connectivity has no parameter(s) ['q']"),
    (["--set", "p=0.5", "--V", "5"], "--V does not apply to task er-connectivity; give its parameters with --set"),
])
def test_simulate_refuses_what_a_file_task_cannot_run(task_file, capsys, extra, message):
    code = main(["simulate", "--task", f"{task_file}:TASK", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_check_refuses_a_setting_a_file_task_does_not_declare(task_file, tmp_path, capsys):
    code = main(["check", "--law", TRUE_LAW, "--task", f"{task_file}:TASK", "--set", "pp=0.5",
                 "--out", str(tmp_path / "o"), "--quiet"])
    assert code == 2 and "has no parameter(s) ['pp']" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_bad_task_specs_exit_2(task_file, tmp_path, capsys):
    for spec, message in ((f"{task_file}:NOPE", "must name a theorycheck.Task"),
                          (str(tmp_path / "missing.py") + ":TASK", "does not exist"),
                          ("no_such_module_xyz:TASK", "cannot import module"),
                          ("no-such-task", "unknown task 'no-such-task'")):
        code = main(["check", "--law", TRUE_LAW, "--task", spec, "--out", str(tmp_path / "y"), "--quiet"])
        assert code == 2 and message in capsys.readouterr().err, spec


def test_module_task_and_the_python_api(task_file, monkeypatch):
    """``package.module:NAME`` imports the module; ``check(law, task=Task)`` needs no registry."""
    from theorycheck.check import plan
    from theorycheck.task_sources import load_task

    monkeypatch.syspath_prepend(str(task_file.parent))
    task = load_task("er_task:TASK")
    try:
        assert task.name == "er-connectivity" and task.kind("p") == "real"
        assert "er-connectivity" not in registry.task_names()
        tgt, design = plan(TRUE_LAW, task=task, base={"n": 32}, ranges={"n": (16, 128)})
        assert design.varied["n"][0] >= 16 and design.varied["n"][-1] <= 128
        assert all(isinstance(s, float) and 0 < s < 1 for s in design.starts)  # real resource, not rounded
    finally:
        sys.modules.pop("er_task", None)


def test_entry_point_tasks_are_listed(task_file, tmp_path, monkeypatch, capsys):
    """A package declaring ``[theorycheck.tasks] er = er_task:TASK`` appears in ``theorycheck tasks``."""
    dist = tmp_path / "er_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: er-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[theorycheck.tasks]\ner = er_task:TASK\n")
    (tmp_path / "er_task.py").write_text(textwrap.dedent(ER_TASK))
    monkeypatch.syspath_prepend(str(tmp_path))
    registry._forget_discovery()
    try:
        assert main(["tasks", "--json"]) == 0
        listed = {t["name"]: t for t in json.loads(capsys.readouterr().out)}
        assert {"retrieval", "linear-am", "er-connectivity"} <= set(listed)
        assert listed["er-connectivity"]["source"] == "entry point er_task:TASK"
        assert [v["kind"] for v in listed["er-connectivity"]["variables"]] == ["integer", "real"]
        assert registry.get_task("er-connectivity").resource == "p"
    finally:
        sys.modules.pop("er_task", None)
        registry._forget_discovery()


def _cli(task_file, out):
    """``theorycheck check`` on the file task in a subprocess (trials slowed to 20 ms)."""
    cmd = [sys.executable, "-c", "import sys; from theorycheck.cli.main import main; sys.exit(main())",
           "check", "--law", TRUE_LAW, "--task", f"{task_file}:TASK", "--seed", "11", "--quiet", "--json",
           "--out", str(out)]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "ER_TASK_SLEEP": "0.02"}
    with open(out.parent / f"{out.name}.log", "a") as log:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)




@pytest.mark.slow
def test_file_task_resumes_after_sigkill(serial_run, task_file, tmp_path):
    """Kill the run once a third of its trials are stored; the rerun reuses them all and
    ends with the verdict and thresholds of the uninterrupted serial run."""
    _, ref_out = serial_run
    reference = json.loads((ref_out / "verdict.json").read_text())
    total = reference["run"]["trials"]
    out = tmp_path / "killed"
    proc = _cli(task_file, out)
    stored = kill_when_stored(proc, out, total // 3, timeout=240)
    assert 0 < stored < total
    assert _cli(task_file, out).wait(timeout=600) == 0, (tmp_path / "killed.log").read_text()
    data = json.loads((out / "verdict.json").read_text())
    assert data["run"]["reused"] == stored and data["run"]["computed"] == total - stored
    assert data["verdict"] == reference["verdict"] and data["cells"] == reference["cells"]


def test_editing_the_task_file_refuses_the_old_store(tmp_path, capsys):
    # the store's code version covers a file task and the modules it loads from its folder: rerunning after a fix
    # must not hand back the old trials (it did: "876 trials reused, 0 computed")
    (tmp_path / "er_task.py").write_text(textwrap.dedent(ER_TASK))
    argv = ["check", "--law", TRUE_LAW, "--task", f"{tmp_path / 'er_task.py'}:TASK", "--cells", "n=16; n=32",
            "--out", str(tmp_path / "o"), "--quiet"]
    assert main(argv) in (0, 1, 3)
    capsys.readouterr()
    assert main(argv) in (0, 1, 3)  # nothing changed: resumed
    assert "0 computed" in capsys.readouterr().err
    (tmp_path / "notes.py").write_text("print('a script beside the task, not imported')\n")
    assert main(argv) in (0, 1, 3)  # not the trial's code: still resumed
    assert "0 computed" in capsys.readouterr().err
    with open(tmp_path / "er_task.py", "a") as f:
        f.write("# fixed\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "simulation code changed" in err and "--force-new" in err and err.count("\n") == 1


def test_a_law_is_solved_for_the_resource_the_task_measures(task_file):
    from theorycheck.check import plan

    for text in ("n*p >= C*log(n)", "C*log(n) <= n*p"):  # textbook forms: the task measures p
        tgt, design = plan(text, task=f"{task_file}:TASK")
        assert (tgt.law.resource, tgt.law.sense, design.resource, design.increasing) == ("p", ">=", "p", True)
    tgt, design = plan("n*p <= C*log(n)", task=f"{task_file}:SPLIT_TASK")
    assert (tgt.law.sense, design.increasing) == ("<=", False)
    with pytest.raises(ValueError, match="does not contain p, the resource task 'er-connectivity' measures"):
        plan("n*q >= C*log(n)", task=f"{task_file}:TASK")
    with pytest.raises(ValueError, match="success falls with p; use the Bernoulli search"):
        plan("p <= C*log(n)/n", task=f"{task_file}:SPLIT_TASK", thresholds="per-seed")


def test_a_capacity_law_is_searched_from_above(task_file, tmp_path, capsys):
    # success falls with p: the searches must look for the crossing from above (they assumed
    # success rises, and the run ended in exit 2 after all its trials). 'disconnected' is the
    # complement of 'connected' on the same seeds, so both cross 1/2 at the same p: each
    # cell's threshold must fall inside the other task's CI, widened by its own half-width
    # (two independent-looking searches of the same transition).
    cells = "n=32; n=128"
    code, up = _check(capsys, task_file, tmp_path / "up", TRUE_LAW, "--cells", cells)
    code_down = main(["check", "--law", "p <= C*log(n)/n", "--task", f"{task_file}:SPLIT_TASK", "--seed", "11",
                      "--out", str(tmp_path / "down"), "--quiet", "--json", "--cells", cells])
    down = json.loads(capsys.readouterr().out)
    assert code_down != 2 and down["verdict"] in ("consistent", "inconclusive")
    for a, b in zip(up["cells"], down["cells"], strict=True):
        ta, tb = a["threshold"], b["threshold"]
        assert tb["increasing"] is False and ta["increasing"] is True
        half = (tb["ci"][1] - tb["ci"][0]) / 2
        assert ta["ci"][0] - half <= tb["estimate"] <= ta["ci"][1] + half, (ta, tb)


def test_an_error_in_the_user_s_trial_is_not_called_a_bug_of_theorycheck(task_file, tmp_path, capsys):
    # it said "internal error ... (a bug: please report ...)" for the user's own RuntimeError
    code = main(["check", "--law", TRUE_LAW, "--task", f"{task_file}:BROKEN_TASK", "--out", str(tmp_path / "b"),
                 "--quiet"])
    err = capsys.readouterr().err
    assert code == 4 and err.count("\n") == 1
    assert err.startswith("theorycheck: error in the task's own trial: trial failed in cell 'cell00:")
    assert "RuntimeError: my own bug; fix the trial" in err and "a bug: please report" not in err


def test_measure_dataset_runs_a_task_on_any_executor(task_file):
    """The same Task, cells and entropy give the same thresholds serially and on 2 processes."""
    from theorycheck.sweep import make_executor
    from theorycheck.task_sources import load_task
    from theorycheck.testing import measure_dataset

    task = load_task(f"{task_file}:TASK")
    kw = dict(start=lambda c: math.log(c["n"]) / c["n"], entropy=3, max_trials=40, rel_width=0.3)
    cells = [{"n": 16.0}, {"n": 64.0}]
    serial = measure_dataset(task, cells, **kw)
    with make_executor(workers=2) as pool:
        parallel = measure_dataset(task, cells, executor=pool, **kw)
    assert serial.to_dict() == parallel.to_dict()
    assert list(serial.cell_values("n")) == [16, 64]


def test_module_spec_next_to_the_working_folder_is_found_without_sys_path(tmp_path, monkeypatch):
    # The console script does not put the working folder on sys.path (python -m does):
    # `--task toy:TASK` run beside toy.py must still find it, as the file toy.py.
    from theorycheck.task_sources import FileTrial, load_task

    (tmp_path / "toy_beside.py").write_text(
        "import theorycheck\n"
        "def trial(params, seed):\n    return params['m'] > params['n']\n"
        "TASK = theorycheck.Task(name='toy-beside', trial=trial,\n"
        "                        variables={'n': ('integer', 1, 100), 'm': ('integer', 1, 10**6)}, resource='m')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    task = load_task("toy_beside:TASK")
    assert task.name == "toy-beside" and isinstance(task.trial, FileTrial)
    with pytest.raises(ValueError, match="cannot import module 'no_such_module'"):
        load_task("no_such_module:TASK")


def test_a_textbook_law_with_an_assumption_is_checked_on_a_user_task():
    # m* = 2 k log(n/k) planted (tests/examples/sparse_toy.py, probit width 0.1): the law in
    # textbook form needs k < n to be positive; with --assume the design stays there and
    # the verdict is consistent, with C's CI around the planted 2.
    from theorycheck.check import check
    from theorycheck.task_sources import load_task

    task = load_task(str(Path(__file__).parent / "examples" / "sparse_toy.py") + ":TASK")
    with pytest.raises(ValueError, match="assume='k < n'"):
        check("m >= C*k*log(n/k)", task=task, base={"k": 8, "n": 4096})
    with pytest.raises(ValueError, match="'kk'"):
        check("m >= C*kk*log(n/k)", task=task, base={"k": 8, "n": 4096}, assume="k < n")
    result = check("m >= C*k*log(n/k)", task=task, base={"k": 8, "n": 4096}, assume="k < n", entropy=3)
    assert result.status == "consistent"
    # the fitted constant: its CI half-width here is ~1% (width 0.1 in log m, ~700 trials),
    # so a 5% band around the planted 2 is ~5 standard errors (one seed, not a coverage claim)
    assert abs(result.verdict.constants["C"].estimate / 2.0 - 1) < 0.05
    assert all(c["params"]["k"] < c["params"]["n"] for c in result.to_dict()["cells"])
