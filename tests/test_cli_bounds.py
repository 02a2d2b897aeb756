"""``theorycheck bounds list|show`` (theorycheck/cli/bounds_cmd.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from theorycheck import catalogue
from theorycheck.cli.main import main


def test_list_json_has_every_bound(capsys):
    assert main(["bounds", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [b.id for b in catalogue.all_bounds()]
    for row in rows:
        assert {"id", "kind", "provenance", "law", "description"} <= set(row)


def test_list_text_is_a_table(capsys):
    assert main(["bounds", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "KIND", "PROVENANCE", "TASK", "LAW"]
    assert any(line.startswith("vural2026.gradient_noise ") and "derived" in line for line in lines)
    assert len(lines) == len(catalogue.all_bounds()) + 1


def test_show_json_gradient_noise_exponents(capsys):
    assert main(["bounds", "show", "vural2026.gradient_noise", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["exponents"] == {"d": -2, "L": 1, "V": 2}
    assert info["log_powers"] == {"d": 0, "L": 0, "V": 1}
    for key in ("id", "law", "latex", "kind", "provenance", "variables", "exponents", "note", "citation"):
        assert key in info
    assert info["variables"] == ["L", "V", "d"] and info["provenance"] == "derived"
    assert "dominant term" in info["note"]


def test_show_json_fractional_exponents_are_numbers(capsys):
    assert main(["bounds", "show", "vural2026.storage", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["exponents"] == {"V": 0.5} and info["exponents_exact"] == {"V": "1/2"}
    assert info["resource"] == "d"


def test_show_text(capsys):
    assert main(["bounds", "show", "vural2026.lower"]) == 0
    out = capsys.readouterr().out
    assert "vural2026.lower  [lower, derived]" in out
    assert "exponents:   L: 1, V: 2, d: -2" in out
    assert "@inproceedings{vural2026recall" in out


def test_show_text_says_whether_the_regime_can_be_judged(capsys):
    # constraints a check reads at every cell, or none (a limit in words), which leaves them not judged
    assert main(["bounds", "show", "vural2026.headline"]) == 0
    assert "; constraints V >> d" in capsys.readouterr().out
    assert main(["bounds", "show", "hebbian"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("regime:"))
    assert lines[at:at + 2] == ["regime:      V -> oo", "             ray V: 1; no constraints (a check leaves its "
                                "cells not judged)"]


def test_show_json_has_the_structured_fields(capsys):
    assert main(["bounds", "show", "vural2026.one_step", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["task"] == "retrieval" and "simulation" not in info
    assert info["settings"] == {"algorithm": "one-step", "embeddings": "random"}
    assert info["base"] == {"V": 128, "d": 181, "L": 16}
    assert info["ranges"] == {"d": [128, 512], "V": [45, 256], "L": [2, 128]}
    assert info["vary"] == ["d", "L", "V"] and info["lower"] == "vural2026.lower"
    assert "expected" in info


def test_show_a_bound_without_simulator(capsys):
    assert main(["bounds", "show", "kajitsuka2025", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["task"] is None and info["expected"] is None and info["base"] == {} and info["vary"] is None
    assert main(["bounds", "show", "kajitsuka2025"]) == 0
    out = capsys.readouterr().out
    assert "task:        none (no simulator in this package: usable with `theorycheck fit" in out
    assert "settings:    setting: next-token" in out and "lower:       -" in out
    assert main(["bounds", "list"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("kajitsuka2025 "))
    assert row.split()[:4] == ["kajitsuka2025", "scaling", "prior", "-"]


def test_check_refuses_a_bound_without_simulator_exit_2(capsys):
    assert main(["check", "nichani2025.mlp_am"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nichani2025.mlp_am has no simulator in this package" in err[0]


def test_unknown_id_is_one_line_exit_2(capsys):
    assert main(["bounds", "show", "vural2026.gradient"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("theorycheck: error: unknown bound 'vural2026.gradient'")
    assert "did you mean vural2026.gradient_noise" in lines[0]


@pytest.mark.parametrize("argv", [["bounds"], ["bounds", "show"], ["bounds", "frobnicate"], ["bounds", "list", "--yaml"]])
def test_bad_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error:" in err[0] and "Traceback" not in err[0]


def test_console_script_end_to_end():
    result = subprocess.run(
        [sys.executable, "-m", "theorycheck.cli.main", "bounds", "show", "vural2026.gradient_noise", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["exponents"] == {"d": -2, "L": 1, "V": 2}
    bad = subprocess.run(
        [sys.executable, "-m", "theorycheck.cli.main", "bounds", "show", "nope"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
