"""report.md (tables, Reproduce command) and the figures (labelled collapse, tolerance band, ticks)."""

import json
import shlex
import warnings
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from theorycheck.check import plan
from theorycheck.cli.check_cmd import resolve_common
from theorycheck.cli.main import build_parser
from theorycheck.report.markdown import report_markdown, reproduce_command
from theorycheck.report.plots import readable_log_axis, tolerance_band
from theorycheck.report.writer import write_report


def _result(target="vural2026.one_step", entropy=11, **kw):
    tgt, design = plan(target, budget="quick", **kw)
    return {"target": tgt.to_dict(), "design": {**design.to_dict(), "q": 0.5, "entropy": entropy},
            "cells": [], "verdict": {"verdict": "consistent", "tolerance": 0.25}, "run": {}, "environment": {}}


@pytest.mark.parametrize(("target", "kw"), [
    ("vural2026.one_step", {}),
    ("N >= C*L*V*log(V)", {"task": "retrieval", "settings": {"algorithm": "one-step"},
                           "base": {"V": 32, "d": 64, "L": 4}, "vary": ("L", "V")}),
])
def test_reproduce_command_plans_the_same_sweep(target, kw):
    result = _result(target, **kw)
    cmd = reproduce_command(result)
    argv = shlex.split(cmd)
    assert argv[:2] == ["theorycheck", "check"] and "--seed" in argv and argv[argv.index("--seed") + 1] == "11"
    args = build_parser().parse_args(argv[1:])
    again = resolve_common(args)
    tgt, design = plan(args.target or args.law, **again)
    assert design.to_dict() == {k: v for k, v in result["design"].items() if k not in ("q", "entropy")}
    assert tgt.to_dict()["law"] == result["target"]["law"]


def test_max_cost_lifts_the_search_ceiling_and_is_reproduced():
    # (16384, 2048, 64) costs ~5e9 token visits by the CPU model at the law's predicted
    # threshold, above 16x the quick budget's cap (9.6e8): its search may not go above its
    # start. --max-cost inf (a GPU's run) lets it double up to the 4096x overshoot limit,
    # is recorded in the design, and the Reproduce line carries it and plans the same sweep.
    from theorycheck.check.ceilings import MAX_OVERSHOOT, search_ceiling

    cells = ["--cells", "V=16384,d=2048,L=64; V=16384,d=2048,L=128"]
    for extra, factor in (([], 1.0), (["--max-cost", "inf"], MAX_OVERSHOOT)):
        args = build_parser().parse_args(["check", "vural2026.headline", *extra, *cells])
        tgt, design = plan("vural2026.headline", **resolve_common(args))
        assert search_ceiling(design, design.cells[0], design.starts[0]) == design.starts[0] * factor
    assert design.budget.name == "quick" and design.to_dict()["max_cost"] == float("inf")
    result = {"target": tgt.to_dict(), "design": {**design.to_dict(), "q": 0.5, "entropy": 3}, "verdict": {}}
    argv = shlex.split(reproduce_command(result))
    assert argv[argv.index("--max-cost") + 1] == "inf"
    _, again = plan("vural2026.headline", **resolve_common(build_parser().parse_args(argv[1:])))
    assert again.to_dict() == design.to_dict()
    assert "max_cost" not in _result("vural2026.one_step")["design"]  # a named budget as it is


def test_max_cost_widens_a_design_that_the_cap_held_narrow():
    # the designed lines stop widening where a trial would cost more than the cap (design rule
    # iv): the headline's quick L line is 64..362 under the quick cap (L = 512 at twice its
    # predicted N, 1.8e5, costs 1.2e8 token visits > 6e7) and 64..512, the budget's 8x, without it
    def varied(*extra):
        args = build_parser().parse_args(["check", "vural2026.headline", *extra])
        return plan("vural2026.headline", **resolve_common(args))[1].varied

    assert varied() == {"L": [64.0, 128.0, 362.0]}
    assert varied("--max-cost", "inf") == {"L": [64.0, 181.0, 512.0]}


STEP_TASK = """
import theorycheck

def trial(params, seed):
    return {"success": params["n"] > 3 * params["d"]}

TASK = theorycheck.Task("step", trial, resource="n", defaults={"n": 10, "d": 4},
                        variables=[theorycheck.Variable("n", "integer", 2, 10**6),
                                   theorycheck.Variable("d", "integer", 1, 10**4)])
"""


def test_reproduce_command_names_a_file_task_as_given_and_its_assumptions(tmp_path):
    # it used to write the task's name ('step'), which `check --task` cannot find, and
    # to drop --assume, which decides which cells are designed
    from theorycheck.task_sources import load_task

    path = tmp_path / "step_task.py"
    path.write_text(STEP_TASK)
    result = _result("n >= C*d", task=load_task(f"{path}:TASK"), assume=("d >= 2",))
    argv = shlex.split(reproduce_command(result))
    assert argv[argv.index("--task") + 1] == f"{path}:TASK" and argv[argv.index("--assume") + 1] == "d >= 2"
    args = build_parser().parse_args(argv[1:])
    tgt, design = plan(args.law, **resolve_common(args))
    assert design.to_dict() == {k: v for k, v in result["design"].items() if k not in ("q", "entropy")}
    assert tgt.to_dict()["assume"] == ["d >= 2"] and tgt.task.source == f"{path}:TASK"
    assert "- assumed to hold where: `d >= 2`" in report_markdown({**result, "cells": [], "verdict": _verdict_dict()},
                                                                   {})


def test_a_task_file_given_by_a_relative_path_is_reproduced_from_anywhere(tmp_path, monkeypatch):
    # `--task ../graph.py:TASK` was copied as given, so the Reproduce line worked only from
    # the folder the run started in
    from theorycheck.task_sources import load_task

    (tmp_path / "step_task.py").write_text(STEP_TASK)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert load_task("../step_task.py:TASK").source == f"{tmp_path.resolve() / 'step_task.py'}:TASK"


def _verdict_dict():
    return {
        "verdict": "consistent", "headline": "consistent within ±0.25; but `N >= C*V*log(V)` fits decisively "
        "better (ΔBIC = 41)", "reason": "every tested exponent is within tolerance", "law": "N >= C*V",
        "resource": "N", "tolerance": 0.25, "level": 0.95, "q": 0.5, "up_to": "constants", "width": 0.2,
        "exponents": {"V": {"estimate": 1.1, "ci": [1.0, 1.2], "predicted": 1.0, "status": "consistent",
                            "window": "all", "values": [64, 128, 256, 512], "cells": 4, "thin": False}},
        "constant": {"C": {"estimate": 3.0, "ci": [2.5, 3.5], "log_se": 0.1}},
        "ratio_spread": {"min": 0.8, "max": 1.2, "gsd": 1.1},
        "collapse": {"statistic": 3.0, "df": 2, "p_value": 0.22, "description": "quasi-likelihood F"},
        "alternatives": [{"name": "times log(V)", "law": "N >= C*V*log(V)", "delta_bic": 41.0,
                          "delta_aic": 41.0, "decisive": True}],
        "lower_bound": {"bound": "N >= V", "violated": False, "cell_violations": [], "exponent_violations": [],
                        "notes": []},
    }


def _cells():
    out = []
    for v, est in ((64, 200.0), (128, 420.0), (256, 800.0), (512, None)):
        th = {"estimate": est, "ci": None if est is None else [0.9 * est, 1.1 * est],
              "points": [[100.0, 0, 8], [1000.0, 8 if est else 0, 8]], "resource": "N",
              "censored": None if est else "above", "censored_beyond": None if est else 1000.0}
        out.append({"params": {"V": float(v)}, "threshold": th, "predicted": 3.0 * v})
    return out


def _full_result():
    result = _result("N >= C*V*d", task="retrieval", settings={"algorithm": "one-step"},
                     base={"V": 64, "d": 64, "L": 4}, vary=("V",))
    result["verdict"] = _verdict_dict()
    result["cells"] = _cells()
    result["design"]["varied"] = {"V": [64.0, 128.0, 256.0, 512.0]}
    return result


def test_report_markdown_has_tables_not_dicts_and_a_reproduce_section():
    md = report_markdown(_full_result(), {})
    assert "{" not in md.split("## Reproduce")[0].replace("$$", "")  # no raw dicts above Reproduce (latex aside)
    assert "| constant C (95% CI) | 3 [2.5, 3.5] |" in md
    assert "| observed / predicted threshold | 0.8 .. 1.2 (geometric sd 1.1) |" in md
    assert "| `N >= C*V*log(V)` | times log(V) | 41 | 41 | yes |" in md
    assert "| bound | `N >= V` |" in md
    assert "| V | 1 | 1.1 [1, 1.2] | consistent | 4 | all windows of 64..512 |" in md
    assert "| V=512 | censored, N* > 1000 | - |" in md
    assert "**Verdict: CONSISTENT.** consistent within ±0.25; but `N >= C*V*log(V)` fits decisively" in md
    assert "## Reproduce\n\n```sh\ntheorycheck check --law 'N >= C*V*d' --task retrieval --budget quick" in md


def test_the_criterion_line_says_the_target_this_run_used():
    """The entry's criterion is its words ("accuracy >= 0.99"); a check run at another target says so beside them,
    whether the target is a setting (``retrieval``) or in the base point (``readout-wall``, whose default it is)."""
    def line(target, **kw):
        text = report_markdown(_result(target, **kw), {})
        return next(r for r in text.splitlines() if r.startswith("- success criterion:"))

    assert line("vural2026.one_step").endswith("over seeds")  # no target given: the entry's words alone
    assert line("vural2026.one_step", settings={"target": 0.98}).endswith("(this run: target = 0.98)")
    assert line("vural2026.readout_wall", settings={"target": 0.9},
                cells=[{"V": 1024, "s": 1.0}]).endswith("(this run: target = 0.9)")


def test_collapse_plot_band_and_labels(tmp_path):
    result = _full_result()
    cells = [c for c in result["cells"] if c["threshold"]["estimate"] is not None]
    band = tolerance_band(result, cells)
    # V = 64, 128, 256 around their geometric centre 128: the ends may move by
    # (2)^0.25, the centre not at all
    np.testing.assert_allclose(band, [2**0.25, 1.0, 2**0.25])
    written = write_report(result, tmp_path)
    assert (tmp_path / "collapse.png").stat().st_size > 10_000
    assert json.loads(Path(written["verdict.json"]).read_text())["verdict"]["alternatives"][0]["decisive"]


def test_a_report_without_thresholds_writes_its_plots_without_warnings(tmp_path):
    # a sweep where no cell reaches q (every threshold censored, e.g. width that cannot buy
    # success) still gets its plots, and matplotlib has no legend entries to complain about
    result = _full_result()
    for cell in result["cells"]:
        cell["threshold"] = {**cell["threshold"], "estimate": None}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_report(result, tmp_path)
    assert (tmp_path / "thresholds_V.png").stat().st_size > 1_000


@pytest.mark.parametrize(("lo", "hi"), [(64, 91), (300, 9e4), (1e2, 1e9)])
def test_log_ticks_do_not_overlap(lo, hi):
    fig = Figure(figsize=(5.4, 4.0), layout="constrained")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([lo, hi], [lo, hi])
    ax.set_xscale("log")
    ax.set_yscale("log")
    readable_log_axis(ax.xaxis, [lo, hi])
    readable_log_axis(ax.yaxis, [lo, hi])
    canvas.draw()
    renderer = canvas.get_renderer()
    for axis in (ax.xaxis, ax.yaxis):
        boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels()
                 if t.get_visible() and t.get_text() and axis.get_view_interval()[0] <= t.get_position()[
                     0 if axis is ax.xaxis else 1] <= axis.get_view_interval()[1]]
        assert len(boxes) >= 2, [t.get_text() for t in axis.get_ticklabels()]
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_the_cells_table_adds_the_shared_width_thresholds_only_where_the_exponents_used_them():
    cell = {"params": {"L": 32.0}, "predicted": 3078.0, "in_regime": True,
            "threshold": {"estimate": 7098.0, "ci": [0.0, None], "points": [[7098.0, 3, 6]]}}
    plain = report_markdown({**_result(), "cells": [{**cell, "shared_width": None}]}, {})
    assert "shared-width threshold" not in plain
    joint = report_markdown({**_result(), "cells": [{**cell, "shared_width": {"threshold": 6830.0, "ci": [6347.0, 7350.0]}}]}, {})
    row = next(line for line in joint.splitlines() if line.startswith("| L=32"))
    assert row.rstrip(" |").endswith("6830 [6347, 7350]"), row
    # the cell's own model-free bracket is open above: printed as the terminal prints it
    # (it read "[0, -]" in report.md before)
    assert "| 7098 | [0, inf] |" in row, row
