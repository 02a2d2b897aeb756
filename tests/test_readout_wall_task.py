"""The readout-wall task: hard attention's read-out at infinite ``N`` as a task with resource ``d``
(theorycheck/tasks/readout_wall.py), the trial of ``theorycheck check vural2026.readout_wall``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorycheck import catalogue
from theorycheck.algorithms import population_readout as readout
from theorycheck.check import check, plan
from theorycheck.check.runner import cell_searches
from theorycheck.cli.main import main
from theorycheck.registry import get_task
from theorycheck.tasks.readout_wall import TASK, readout_params
from theorycheck.tasks.retrieval import RetrievalParams


def test_s_names_the_trigger_share():
    """``s = 1`` is the trigger out of the value path (``ζ = 1/2``); ``s > 1`` puts it in with ``ζ² = s − 1``;
    step 1's sample is ``n_per_fact·V`` sequences."""
    out = readout_params({"V": 512, "d": 160, "s": 1})
    assert (out.marker_in_value, out.zeta, out.N, out.L, out.target) == (False, 0.5, 250 * 512, 16, 0.99)
    inside = readout_params({"V": 512, "d": 160, "s": 5.0, "n_per_fact": 100, "L": 32})
    assert (inside.marker_in_value, inside.zeta, inside.N, inside.L) == (True, 2.0, 51200, 32)


@pytest.mark.parametrize("params, words", [
    ({"s": 1.1}, "must be 1 (the trigger out) or at least 1.25"),
    ({"s": 0.5}, "or at least 1.25 (zeta >= 1/2), got 0.5"),
    ({"beta": 10}, "has no parameter(s) ['beta']"),
])
def test_bad_settings_are_named(params, words):
    with pytest.raises(ValueError) as err:
        TASK.check_params({"V": 256, "d": 64, **params})
    assert words in str(err.value)


def test_the_trial_is_the_librarys_read_out():
    """The task's trial scores the same read-out as :func:`population_readout.population_accuracy` on the
    :class:`RetrievalParams` it maps to (same seed, same draws), and succeeds exactly when that reaches 0.99."""
    seed = np.random.SeedSequence(13766)
    got = TASK.trial({"V": 256, "d": 96, "s": 2.0}, seed)
    rp = RetrievalParams(V=256, d=96, L=16, N=250 * 256, zeta=1.0, marker_in_value=True)
    want = readout.population_accuracy(rp, np.random.SeedSequence(13766))
    assert got == {"success": want >= 0.99, "accuracy": want}


def test_recall_comes_with_d():
    """The wall at ``V = 256``, ``s = 1`` is near ``d = 100`` (the law with ``C = 4.4``: 103): far below it
    no seed recalls 99% of the facts, far above it every seed does (four seeds each; the seeds' walls scatter
    by ~4%, so 0.5x and 2x the wall leave no room for chance)."""
    below = [TASK.trial({"V": 256, "d": 52, "s": 1.0}, np.random.SeedSequence(s)) for s in range(4)]
    above = [TASK.trial({"V": 256, "d": 206, "s": 1.0}, np.random.SeedSequence(s)) for s in range(4)]
    assert not any(r["success"] for r in below) and all(r["success"] for r in above)
    assert max(r["accuracy"] for r in below) < min(r["accuracy"] for r in above)


def test_the_catalogue_law_is_checked_on_this_task(bench_script):
    """``vural2026.readout_wall`` names the task; every designed cell lies in the design's ranges, moves ``V``
    and ``s`` and searches ``d``, starting at the law's wall with its reference ``C``."""
    bound = catalogue.get("vural2026.readout_wall")
    assert get_task(bound.task) is TASK
    for budget in ("quick", "paper"):
        tgt, design = plan("vural2026.readout_wall", budget=budget)
        assert design.resource == "d" and tgt.task is TASK and set(design.varied) == {"V", "s"}
        for cell, start in zip(design.cells, design.starts):
            assert 512 <= cell["V"] <= 4096 and 1.0 <= cell["s"] <= 8.0
            V, s, C = cell["V"], cell["s"], bound.constants["C"]
            assert start == pytest.approx(math.ceil(_wall(bench_script, C, V, s)), abs=1.0)


def _wall(bench_script, C: float, V: float, s: float) -> float:
    """The law's wall, the root of ``d² = C log V (sV + (s + 1) d)`` (``crosstalk_parts.wall_root``)."""
    return bench_script("crosstalk_parts").wall_root(C * math.log(V), V, s)


def test_a_set_default_reaches_every_trial():
    """``--set target=0.9`` runs the trials at 0.9. The task's defaults (``target``, ``L``, ...) are in the base
    point, and a cell's values override the settings, so before 2026-12-07 a default in the base silently undid the
    setting (every trial ran at 0.99). A check without the setting keeps its cells, and so its seeds, as before."""
    def trials(settings, **kw):
        _, design = plan("vural2026.readout_wall", settings=settings, cells=[{"V": 1024, "s": 1.0}], **kw)
        return list(cell_searches(design, 0.5).items())

    [(key, spec)] = trials({"target": 0.9, "L": 32})
    assert (spec.params["target"], spec.params["L"]) == (0.9, 32)
    [(key, spec)] = trials({})
    assert key == "cell00:L=16,V=1024,contexts=1,n_per_fact=250,s=1,target=0.99" and spec.params["target"] == 0.99
    with pytest.raises(ValueError, match="settings and base disagree"):
        trials({"target": 0.9}, base={"target": 0.95})
    with pytest.raises(ValueError, match=r"target must be a real number in \(0, 1\], got 'abc'"):
        trials({"target": "abc"})


def test_a_bad_trigger_share_is_refused_before_any_work(capsys, tmp_path):
    code = main(["check", "vural2026.readout_wall", "--base", "s=1.1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "s (the trigger's share" in err[0] and "got 1.1" in err[0]
    assert not (tmp_path / "out").exists()


def test_check_measures_the_walls_of_the_law(bench_script):
    """End to end: ``check`` on this task finds each cell's wall by the Bernoulli search in ``d`` and fits the law.
    At ``V = 256`` (seeded) the walls were 112.8 and 270.4 at ``s`` 1 and 5, 5.3% and 2.2% above the catalogue's
    law (``C = 4.40``, fitted at ``V`` 512..4096, where the ``C`` each wall implies falls with ``V``: docs/theory.md
    §7.12), so 10% bounds the law's own drift, not noise (each CI is ±2-3%). The ``s`` exponent is within 0.05 of
    the law's local one (measured −0.020 here, −0.009 on the paper check's ``V = 1024`` line): 0.05 is twice the
    largest residual measured, and a wall blind to ``s`` (the catalogue's ``storage``) misses it by 0.56."""
    result = check("vural2026.readout_wall", cells=[{"V": 256, "s": 1.0}, {"V": 256, "s": 5.0}], entropy=5)
    C = catalogue.get("vural2026.readout_wall").constants["C"]
    for cell in result.cells:
        V, s = cell["params"]["V"], cell["params"]["s"]
        assert cell["threshold"]["estimate"] == pytest.approx(_wall(bench_script, C, V, s), rel=0.10)
    s_exponent = result.to_dict()["verdict"]["exponents"]["s"]
    assert abs(s_exponent["estimate"] - s_exponent["predicted"]) < 0.05
