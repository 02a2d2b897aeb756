"""``theorycheck simulate``: output shape and exit codes."""

import json

import pytest

from theorycheck.cli.main import main


def _run(capsys, *argv):
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape_per_seed(capsys):
    code, out, err = _run(capsys, "--V", "32", "--d", "32", "--L", "4", "--N", "2000",
                          "--seeds", "3", "--seed", "5", "--json", "--no-marker-in-value")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["params"]["V"] == 32 and report["params"]["marker_in_value"] is False
    assert report["seeds"] == [5, 6, 7]
    for key in ("accuracy", "selection_accuracy", "success", "seconds", "trigger_coef", "outcomes"):
        assert len(report[key]) == 3, key
    assert all(isinstance(s, bool) for s in report["success"])
    assert [o["seed"] for o in report["outcomes"]] == [5, 6, 7]
    assert report["accuracy"] == [o["accuracy"] for o in report["outcomes"]]


def test_backend_option_gives_the_numpy_statistics(capsys):
    # --backend reaches the limit algorithm; the strict array-API namespace (test extra)
    # computes the same products in another library, so the accuracies agree to float64
    # rounding (docs: theorycheck/backend.py); here exactly, no score is tied.
    pytest.importorskip("array_api_strict")
    args = ("--V", "64", "--d", "32", "--L", "8", "--N", "3000", "--seeds", "2", "--json")
    reports = {}
    for name in ("numpy", "array_api_strict"):
        code, out, _ = _run(capsys, *args, "--backend", name)
        assert code == 0
        reports[name] = json.loads(out)
    assert reports["array_api_strict"]["options"] == {"backend": "array_api_strict"}
    assert reports["array_api_strict"]["accuracy"] == pytest.approx(reports["numpy"]["accuracy"], rel=1e-12)
    code, _, err = _run(capsys, "--V", "16", "--d", "16", "--L", "4", "--N", "100", "--backend", "jax")
    assert code == 2 and "unknown backend 'jax'" in err and err.count("\n") == 1


def test_default_runs_a_small_example(capsys):
    code, out, _ = _run(capsys)
    assert code == 0 and "seed 0: accuracy=" in out and "success" in out


def test_options_reach_the_algorithm(capsys):
    code, out, _ = _run(capsys, "--V", "16", "--d", "18", "--L", "4", "--N", "500", "--embeddings",
                        "orthogonal", "--beta", "5", "--algorithm", "limit", "--json")
    report = json.loads(out)
    assert code == 0 and report["options"] == {"beta": 5.0}
    assert report["outcomes"][0]["extras"]["diagnostics"]["beta"] == 5.0


def test_one_step_reports_null_selection(capsys):
    code, out, _ = _run(capsys, "--V", "16", "--d", "16", "--L", "4", "--N", "500",
                        "--algorithm", "one-step", "--json")
    assert code == 0 and json.loads(out)["selection_accuracy"] == [None]


def test_linear_am(capsys):
    code, out, _ = _run(capsys, "--task", "linear-am", "--V", "64", "--d", "128", "--json")
    report = json.loads(out)
    assert code == 0 and report["task"] == "linear-am" and report["params"]["method"] == "hebbian"
    # d = 2·d*: at V = 64 the median d* is 63 (check hebbian), and 300 of 300 seeds
    # succeed at d = 128 (299 of 300 at d = 96; 159 at d = 64, where this test sat before)
    assert report["success"] == [True]


@pytest.mark.parametrize(
    "argv, message",
    [(["--V", "1"], "V must be an integer >= 2, got 1"),
     (["--embeddings", "orthogonal", "--V", "10", "--d", "5"], "d >= V + 2"),
     (["--model", "mlp"], "needs the MLP width m"),
     (["--target", "0"], "target (tau) must be a number in (0, 1]"),
     (["--seeds", "0"], "--seeds must be an integer >= 1"),
     (["--algorithm", "one-step", "--beta", "2"], "algorithm one-step (model attention) has no option(s) ['beta']"),
     (["--beta", "-1"], "beta must be a positive number"),
     # options linear-am does not read were silently ignored
     (["--task", "linear-am", "--L", "4", "--N", "100"], "--L, --N do not apply to task linear-am"),
     (["--task", "linear-am", "--beta", "2"], "--beta does not apply to task linear-am")],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("theorycheck: error: ") and message in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--algorithm", "sgd"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_gradient_flags_reach_gd_and_are_refused_elsewhere(capsys):
    code, out, _ = _run(capsys, "--V", "16", "--d", "16", "--L", "4", "--N", "300", "--algorithm",
                        "gd", "--steps", "3", "--optimizer", "adam", "--lr", "0.05", "--json")
    assert code == 0 and json.loads(out)["options"] == {"steps": 3, "lr": 0.05, "optimizer": "adam"}
    code, out, err = _run(capsys, "--steps", "3")
    assert code == 2 and "algorithm limit (model attention) has no option(s) ['steps']" in err
