"""The registry of tasks and algorithms (theorycheck.registry).

A toy task and a toy algorithm are each written as ONE module into a temporary folder
that is put on the search path of the built-in packages (``theorycheck.tasks``,
``theorycheck.algorithms``): discovery finds them with no other edit, and ``theorycheck
simulate``, ``theorycheck check`` and the CLI choices see them. Every test leaves the
registry as it found it (the fixture forgets what was discovered).
"""

from __future__ import annotations

import importlib
import json
import math
import re
import sys
import textwrap

import numpy as np
import pytest

from theorycheck import registry
from theorycheck.cli.main import main
from theorycheck.registry import Algorithm, Task, Variable

TOY_ALGORITHM = '''
"""A toy algorithm: reads every label off the hidden permutation (an oracle)."""
import numpy as np

from theorycheck.registry import Algorithm


class OracleFit:
    diagnostics = {}

    def __init__(self, perm):
        self.perm = perm

    def predict(self, batch):
        rows = np.arange(len(batch))
        return self.perm[batch.tokens[rows, batch.pos]], batch.pos


def run_oracle(params, emb, train_seed, *, noise=0.0):
    return OracleFit(emb.perm)


ALGORITHM = Algorithm("oracle", runners={"attention": "theorycheck.algorithms.toy_oracle:run_oracle"})
'''

TOY_TASK = '''
"""A toy task with a planted threshold law n* = 3 k (a logistic transition in log n)."""
import math

import numpy as np

from theorycheck.registry import Task, Variable


def planted_trial(params, seed):
    rng = np.random.default_rng(seed)
    p = 1.0 / (1.0 + math.exp(-6.0 * math.log(params["n"] / (3.0 * params["k"]))))
    return {"success": bool(rng.random() < p)}


TASK = Task(
    "toy-planted", planted_trial,
    variables=[Variable("n", "integer", 1), Variable("k", "integer", 1, 10**4)],
    resource="n", defaults={"k": 16},
)
'''


@pytest.fixture
def toy_modules(tmp_path, monkeypatch):
    """The toy modules on the packages' search paths; the registry rediscovered around the test."""
    import theorycheck.algorithms
    import theorycheck.tasks

    for pkg, sub, text in ((theorycheck.algorithms, "algorithms", TOY_ALGORITHM),
                           (theorycheck.tasks, "tasks", TOY_TASK)):
        folder = tmp_path / sub
        folder.mkdir()
        (folder / ("toy_oracle.py" if sub == "algorithms" else "toy_planted.py")).write_text(textwrap.dedent(text))
        monkeypatch.setattr(pkg, "__path__", [*pkg.__path__, str(folder)])
    importlib.invalidate_caches()
    registry._forget_discovery()
    yield
    for name in ("theorycheck.algorithms.toy_oracle", "theorycheck.tasks.toy_planted"):
        sys.modules.pop(name, None)
    registry._forget_discovery()


@pytest.fixture
def clean_registry():
    registry._forget_discovery()
    yield
    registry._forget_discovery()


# ------------------------------------------------------------------------ declarations
def test_variables_coerce_to_their_kind_and_check_their_range():
    n = Variable("n", "integer", 2, 100)
    assert n.coerce(7.6) == 8 and isinstance(n.coerce(7.6), int)
    assert n.check(3.0) == 3
    with pytest.raises(ValueError, match=r"n must be an integer in \[2, 100\], got 101"):
        n.check(101)
    p = Variable("p", "real", high=1)
    assert p.check(0.25) == 0.25 and isinstance(p.coerce(1), float)
    for bad in (0, 1.5, math.nan, True, "x"):
        with pytest.raises(ValueError, match=r"p must be a real number in \(0, 1\]"):
            p.check(bad)
    with pytest.raises(ValueError, match="kind must be 'integer' or 'real'"):
        Variable("x", "complex")


def test_task_declaration_is_checked():
    trial = lambda params, seed: True  # noqa: E731 (never run)
    with pytest.raises(ValueError, match="resource 'q' is not one of its variables"):
        Task("t", trial, [Variable("n")], resource="q")
    with pytest.raises(ValueError, match="declared twice"):
        Task("t", trial, [Variable("n"), Variable("n")], resource="n")
    task = Task("t", trial, {"n": Variable("n", "integer")}, resource="n", settings=[Variable("r")])
    assert task.coerce({"n": 2.6, "r": 3, "other": 1.5}) == {"n": 3, "r": 3.0, "other": 1.5}
    assert task.kind("n") == "integer" and task.kind("r") == "real" and task.kind("other") is None
    short = Task("t", trial, {"n": ("integer", 2, 4096), "p": ("real", 0, 1), "beta": "real"}, resource="p")
    assert short.variables["n"] == Variable("n", "integer", 2, 4096) and short.variables["beta"].kind == "real"
    assert short.variables["p"].range_text == "a real number in (0, 1]"
    with pytest.raises(ValueError, match="must be a Variable, 'integer' / 'real', or"):
        Task("t", trial, {"n": 3}, resource="n")


def test_builtins_are_discovered(clean_registry):
    assert set(registry.task_names()) == {"retrieval", "linear-am", "readout-wall"}
    assert set(registry.algorithm_names("retrieval")) == {"limit", "one-step", "three-step", "gd"}
    assert registry.integer_variables() >= {"N", "d", "L", "V", "m", "contexts", "steps"}
    assert "zeta" not in registry.integer_variables()
    assert set(registry.variable_names()) == {"N", "d", "L", "V", "m", "zeta", "s"}
    assert registry.get_task("retrieval").nested == ("N",)
    dense = {a: registry.get_algorithm(a).is_dense("attention") for a in registry.algorithm_names()}
    assert dense == {"limit": False, "one-step": False, "three-step": True, "gd": True}
    assert not registry.get_algorithm("limit").is_dense("mlp")  # token tables (limit_mlp)
    assert registry.get_algorithm("three-step").is_dense("mlp")
    assert "beta" in registry.get_algorithm("limit").options()
    with pytest.raises(ValueError, match="unknown task 'nope'; choose one of linear-am, readout-wall, retrieval"):
        registry.get_task("nope")
    with pytest.raises(ValueError, match="'one-step' supports model.s. attention, got model='mlp'"):
        registry.get_algorithm("one-step").runner("mlp")


def test_symbols_variables_read_the_registry(clean_registry):
    from theorycheck import symbols

    assert set(symbols.VARIABLES) == set(registry.variable_names())


def test_a_name_cannot_be_registered_twice(clean_registry):
    other = Algorithm("limit", runners={"attention": "theorycheck.algorithms.limit:run_limit"})
    with pytest.raises(ValueError, match="already registered"):
        registry.register_algorithm(other)


# --------------------------------------------------------------- one module, no other edit
def test_a_new_algorithm_module_reaches_simulate_and_its_choices(toy_modules, capsys):
    assert "oracle" in registry.algorithm_names("retrieval")
    code = main(["simulate", "--algorithm", "oracle", "--V", "16", "--d", "8", "--L", "4", "--N", "10",
                 "--seeds", "2", "--json"])
    out, _ = capsys.readouterr()
    report = json.loads(out)
    assert code == 0 and report["algorithm"] == "oracle"
    assert report["accuracy"] == [1.0, 1.0] and report["success"] == [True, True]
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "oracle" in capsys.readouterr().out


def test_without_the_module_the_algorithm_is_refused(clean_registry, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--algorithm", "oracle"])
    assert exc.value.code == 2 and "invalid choice: 'oracle'" in capsys.readouterr().err


def test_a_new_task_module_reaches_simulate_and_check(toy_modules, tmp_path, capsys):
    assert "toy-planted" in registry.task_names()
    code = main(["simulate", "--task", "toy-planted", "--set", "n=480", "--seeds", "3", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["params"] == {"k": 16, "n": 480} and len(report["success"]) == 3
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "toy-planted" in capsys.readouterr().out

    # The planted law n* = 3 k: "n >= C*k" must come out consistent and "n >= C*k**2"
    # refuted. Seeded (--seed 7); the planted transition is sharp (slope 6 in log n), so
    # the fitted exponent of k lies far from 2 and close to 1 (tolerance: the comparator's).
    verdicts = {}
    for law in ("n >= C*k", "n >= C*k**2"):
        out = tmp_path / law.replace("*", "").replace(" ", "")
        code = main(["check", "--law", law, "--task", "toy-planted", "--base", "k=16", "--seed", "7",
                     "--out", str(out), "--quiet", "--json"])
        verdicts[law] = (code, json.loads(capsys.readouterr().out)["verdict"])
        assert (out / "report.md").exists() and (out / "verdict.json").exists()
    assert verdicts == {"n >= C*k": (0, "consistent"), "n >= C*k**2": (1, "refuted")}


def test_the_toy_trial_is_reproducible(toy_modules):
    trial = registry.get_task("toy-planted").trial
    runs = [[trial({"n": 48, "k": 16}, np.random.SeedSequence(5, spawn_key=(i,)))["success"] for i in range(20)]
            for _ in range(2)]
    assert runs[0] == runs[1] and 0 < sum(runs[0]) < 20  # at the threshold: some of each


def test_a_trial_may_return_a_bare_bool():
    from theorycheck.sweep.trial import execute_trial

    result, _ = execute_trial(_bool_trial, {"n": 3}, 1, (0,))
    assert result == {"success": True}
    with pytest.raises(TypeError, match="bool or a dict"):
        execute_trial(_none_trial, {"n": 3}, 1, (0,))


def _bool_trial(params, seed):
    return np.bool_(params["n"] > 2)


def _none_trial(params, seed):
    return None


def test_an_algorithm_may_declare_its_trial_work(clean_registry):
    # The MLP limit declares its own cost model (theorycheck.algorithms.limit_mlp.trial_work);
    # the retrieval task's cost uses it in place of the N*L term and adds the V^2 d products.
    from theorycheck.algorithms.limit_mlp import trial_work

    p = {"algorithm": "limit", "model": "mlp", "V": 1024, "d": 256, "L": 8, "m": 4096, "N": 60000}
    cost = registry.get_task("retrieval").trial_cost(p)
    assert cost == pytest.approx(trial_work(p) + 1024**2 * 256 / 80)
    assert registry.get_algorithm("limit").trial_work("attention", p) is None
    # Dense algorithms declare theirs too (passes over the data in the token layout), and
    # one that declares none is charged its N*L*w numbers (w = m for the MLP).
    from theorycheck.algorithms import gd, three_step

    three = registry.get_task("retrieval").trial_cost({**p, "algorithm": "three-step"})
    assert three == pytest.approx(three_step.trial_work(p) + 1024**2 * 256 / 80)
    steps = {**p, "algorithm": "gd", "steps": 60}
    assert gd.trial_work({**p, "algorithm": "gd", "options": {"steps": 60}}) == gd.trial_work(steps)
    assert gd.trial_work(steps) > 10 * three_step.trial_work(p)  # 61 passes against 2 and one without logits
    registry.register_algorithm(Algorithm(name="plain-dense", runners={"mlp": "m:f"}, dense=True))
    plain = registry.get_task("retrieval").trial_cost({**p, "algorithm": "plain-dense"})
    assert plain == pytest.approx(60000 * 8 * 4096 + 1024**2 * 256 / 80)
    with pytest.raises(ValueError, match=r"algorithm x: work of model 'mlp' must be a function or "
                                         r"'module:function', got 3"):
        Algorithm(name="x", runners={"mlp": "m:f"}, work={"mlp": 3})


def _detects(params, seed):
    return {"success": True}


@pytest.mark.parametrize(("defaults", "message"), [
    # these were accepted when the Task was built and surfaced later as design errors
    ({"n": 1, "d": 64}, "task t: defaults['n']: n must be an integer in [2, 100000], got 1"),
    ({"n": 64, "dd": 64}, "task t: defaults name 'dd', which is no declared variable, setting or choice"),
])
def test_a_task_refuses_defaults_it_cannot_run(defaults, message):
    from theorycheck import Task, Variable

    variables = [Variable("n", "integer", 2, 10**5), Variable("d", "integer", 1, 10**4), Variable("eps", "real")]
    with pytest.raises(ValueError, match=re.escape(message)):
        Task("t", _detects, variables=variables, resource="eps", defaults=defaults)


def test_check_loads_a_task_named_by_a_file_spec_from_python(tmp_path):
    # check(task="path/file.py:NAME") was refused ("unknown task") while the CLI loads it
    from theorycheck.check import plan

    (tmp_path / "t.py").write_text("import theorycheck\n\ndef trial(p, s):\n    return {'success': p['n'] > 3 * p['d']}\n\n"
                                   "TASK = theorycheck.Task('step', trial, resource='n', defaults={'n': 10, 'd': 4},\n"
                                   "    variables=[theorycheck.Variable('n', 'integer', 2, 10**6),\n"
                                   "               theorycheck.Variable('d', 'integer', 1, 10**4)])\n")
    tgt, _ = plan("n >= 3*C*d", task=f"{tmp_path / 't.py'}:TASK")
    assert tgt.task.name == "step" and tgt.task.source == f"{tmp_path / 't.py'}:TASK"


def test_variable_module_examples_hold():
    import doctest

    import theorycheck.variables as variables_module

    result = doctest.testmod(variables_module)
    assert result.attempted >= 3 and result.failed == 0
    assert registry.Variable is variables_module.Variable  # one class, re-exported
