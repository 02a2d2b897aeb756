"""``theorycheck check`` / ``compare-embeddings``: bad input exits 2 with one line, before any work."""

import pytest

from theorycheck.cli.main import main


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check", "vural2026.nope"], "unknown bound"),
        (["check", "--budget", "huge"], "unknown budget 'huge'"),
        (["check", "--max-cost", "lots"], "--max-cost must be a positive number of token visits (or inf), got 'lots'"),
        (["check", "--max-cost", "0"], "the quick budget's own cap is 6e+07"),
        (["check", "--max-cost", "nan"], "--max-cost must be a positive number"),
        (["compare-embeddings", "--max-cost", "-1"], "--max-cost must be a positive number"),
        (["check", "--law", "N >= C*T*log(V)"], "cannot set"),
        (["check", "--law", "N >= C*(V"], "law"),
        (["check", "vural2026.one_step", "--law", "N >= V"], "not both"),
        (["check", "--task", "linear-am"], "--task applies to --law"),
        (["check", "--base", "V=-3"], "positive number"),
        (["check", "--set", "algorithm"], "KEY=VALUE"),
        (["check", "--set", "algorithm=magic"], "magic"),
        # an algorithm's option values are checked before the design (a bad one used to
        # stop the first trial: exit 4, "a bug"), by the rules the algorithm declares
        (["check", "--set", "algorithm=gd", "--set", "steps=abc"],
         "algorithm gd: steps must be an integer >= 1, got 'abc'"),
        (["check", "--set", "algorithm=gd", "--set", "steps=-3"], "steps must be an integer >= 1, got -3"),
        (["check", "--set", "algorithm=gd", "--set", "lr=abc"], "lr must be a positive finite number"),
        (["check", "--set", "algorithm=gd", "--set", "optimizer=sgd"], "optimizer must be one of 'gd', 'adam'"),
        (["check", "--set", "beta=-1"], "algorithm limit: beta must be a positive number or inf"),
        (["check", "--set", "threads=0"], "threads must be an integer >= 1, got 0"),
        (["check", "--set", "backend=jax"], "unknown backend 'jax'"),
        (["check", "--set", "algorithm=three-step", "--set", "layout=sparse"], "layout must be one of"),
        (["check", "--cells", "V=1024,q=3"], "cell 0 names ['q'], not variables of task"),
        # a name given twice used to be last-one-wins: ',' typed for ';' lost a cell silently
        (["check", "--cells", "L=64,L=128"], "the cell 'L=64,L=128' gives L more than once; separate cells with ';'"),
        (["check", "--cells", "L=64,L=128,d=256; L=256"], "gives L more than once"),
        (["check", "--set", "zeta=1", "--set", "zeta=2"], "--set gives zeta twice"),
        (["check", "--base", "V=1024", "--base", "V=2048"], "--base gives V twice"),
        (["check", "--q", "1.5"], "--q"),
        (["check", "--workers", "0"], "--workers must be an integer >= 1, got 0"),
        (["check", "--workers", "-3"], "--workers must be an integer >= 1, got -3"),
        (["compare-embeddings", "--workers", "0"], "--workers must be an integer >= 1, got 0"),
        (["compare-embeddings", "--V", "2"], "V must be an integer >= 4"),
        (["compare-embeddings", "--vary", "d"], "fixed by the ablation"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, fragment, capsys, tmp_path):
    code = main([*argv, "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # refused before the output directory (and its lock) exists


def test_unwritable_output_directory_exits_2(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code = main(["check", "--out", str(blocker / "sub"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write to output directory" in err


def test_unreachable_scheduler_exits_2_before_any_trial(capsys, tmp_path):
    code = main(["check", "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot reach dask scheduler" in err
    assert not (tmp_path / "o").exists()  # refused before the output directory exists: no work started


def test_argparse_errors_are_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", "--workers", "two"])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "where"), [
    (["check", "--lawx", "1"], "theorycheck check: error: unrecognized arguments: --lawx (see 'theorycheck check --help')"),
    (["tasks", "--x"], "theorycheck tasks: error: unrecognized arguments: --x (see 'theorycheck tasks --help')"),
    (["--x"], "theorycheck: error: unrecognized arguments: --x (see 'theorycheck --help')"),
])
def test_an_unknown_option_points_to_its_sub_command_help(argv, where, capsys):
    # argparse reported these from the top-level parser, pointing to 'theorycheck --help',
    # which does not list a sub-command's options
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and capsys.readouterr().err.strip() == where
