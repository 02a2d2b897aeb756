"""Bad input found by a battery of hostile cases:
each is refused with exit 2 and one line on stderr, before any trial runs.

Run in-process through :func:`theorycheck.cli.main.main`: a case that reached the sweep
would run trials and take seconds, so the suite's speed is itself a check that the refusal
comes first.
"""

import pytest

from theorycheck.cli.main import main

LAW_400_FACTORS = "N >= " + "*".join(["V"] * 400)

CASES = {
    "exponent overflows float64": ["check", "--law", "N >= V**1e400"],
    "coefficient overflows float64": ["check", "--law", "N >= 1e400*V"],
    "quotient overflows float64": ["check", "--law", "N >= 1e300/1e-300*V"],
    "integer tower (minutes of SymPy)": ["check", "--law", "N >= ((3**1000)**1000)**1000*V"],
    "400 nested products (RecursionError)": ["check", "--law", LAW_400_FACTORS],
    "base point overflows the law": ["check", "--base", "V=1e300"],
    "empty law": ["check", "--law", ""],
    "blank law": ["check", "--law", "   "],
    "vary names nothing": ["check", "--vary", ","],
    "negative tolerance": ["check", "--tolerance", "-1"],
    "negative setting of a task variable": ["check", "--set", "zeta=-1"],
    "negative setting of an algorithm option": ["check", "--set", "beta=-1"],
    "word for an integer option": ["check", "--set", "algorithm=gd", "--set", "steps=abc"],
    "word for a task default": ["check", "vural2026.readout_wall", "--set", "target=abc"],
    "huge zeta": ["simulate", "--zeta", "1e308"],
    "tiny zeta": ["simulate", "--zeta", "1e-308"],
    "75 GiB of embeddings": ["simulate", "--V", "100000", "--d", "100000"],
    "a billion seeds": ["simulate", "--seeds", "1000000000"],
    "bad value of an algorithm option": ["simulate", "--algorithm", "three-step", "--set", "eta=-1"],
    "option the algorithm lacks": ["simulate", "--set", "eta=1"],
    "option given twice": ["simulate", "--algorithm", "three-step", "--beta", "3", "--set", "beta=4"],
    "task parameter through --set": ["simulate", "--set", "V=64"],
    "--set with linear-am": ["simulate", "--task", "linear-am", "--set", "eta=1"],
}


@pytest.mark.parametrize("argv", list(CASES.values()), ids=list(CASES))
def test_bad_input_exits_2_with_one_line(argv, capsys, tmp_path):
    rc = main([*argv, "--out", str(tmp_path / "out")] if argv[0] == "check" else argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("theorycheck: error: "), err
    assert not (tmp_path / "out").exists()  # refused before the output directory was made
