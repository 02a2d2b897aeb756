"""bench/command_list.py: a line script's ``--run`` resumed on its rows file skips the
commands whose trials the file holds (by their point and seeds), and only those."""

from __future__ import annotations

import argparse
import sys

import pytest


def _cmd(L, N, seed, seeds=1):
    return ["theorycheck", "simulate", "--V", "2048", "--d", "512", "--L", str(L), "--N", str(N),
            "--seeds", str(seeds), "--seed", str(seed), "--rows", "rows.csv"]


def test_pending_skips_exactly_the_recorded_trials(tmp_path, bench_script):
    cl = bench_script("command_list")
    rows = tmp_path / "rows.csv"
    rows.write_text("V,d,L,N,beta,successes,trials,seeds\r\n"
                    "2048,512,64,30000,4.0,1,1,10500\r\n"        # one seed, CRLF as csv writes it
                    "2048,512,128,35000,4.0,3,4,10501-10504\r\n")  # a range of seeds
    done = cl.recorded(str(rows))
    assert done == {(2048, 512, 64, 30000, 10500)} | {(2048, 512, 128, 35000, s) for s in range(10501, 10505)}
    commands = [_cmd(64, 30000, 10500),            # recorded: skipped
                _cmd(64, 30000, 10505),            # another seed at the same point: runs
                _cmd(64, 31000, 10500),            # the same seed at another N: runs
                _cmd(128, 35000, 10502, seeds=3),  # 10502-10504, all recorded: skipped
                _cmd(128, 35000, 10503, seeds=3)]  # 10505 is not: runs
    assert cl.pending(commands, done) == [commands[1], commands[2], commands[4]]


def test_rows_without_seeds_skip_nothing(tmp_path, bench_script):
    cl = bench_script("command_list")
    rows = tmp_path / "old.csv"
    rows.write_text("V,d,L,N,successes,trials\n2048,512,64,30000,1,1\n")  # written before seeds were kept
    assert cl.recorded(str(rows)) == set() and cl.recorded(str(tmp_path / "none.csv")) == set()
    assert cl.pending([_cmd(64, 30000, 10500)], cl.recorded(str(rows))) == [_cmd(64, 30000, 10500)]


def test_a_second_run_on_one_rows_file_stops_before_running_anything(tmp_path, capsys, bench_script):
    """Two ``--run`` invocations on one rows file would each run the pending commands; the
    second finds the rows file's lock taken and returns 2 with one line, running nothing."""
    cl = bench_script("command_list")
    if not cl.rows_lock(str(tmp_path / "rows.csv")).enforced:
        pytest.skip("no fcntl: the lock is not enforced here")
    marker = tmp_path / "ran"
    command = [sys.executable, "-c", f"open({str(marker)!r}, 'w')", "--V", "8", "--d", "8", "--L", "4",
               "--N", "16", "--seed", "1"]
    args = argparse.Namespace(run=True, workers=1, rows=str(tmp_path / "rows.csv"))
    with cl.rows_lock(args.rows):
        assert cl.print_or_run([command], args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "rows file" in err and "another --rows file" in err, err
    assert not marker.exists()
    assert cl.print_or_run([command], args) == 0 and marker.exists()  # released: it runs


def test_a_rows_file_that_repeats_its_header_stops_the_run_in_one_line(tmp_path, capsys, bench_script):
    """Before 2026-12-02 two runs appending to a new rows file at once could both write its
    header; resuming on such a file returns 2 with one line naming the line to delete, and
    runs nothing (it used to stop on "'seeds' is not a seed")."""
    cl = bench_script("command_list")
    rows = tmp_path / "rows.csv"
    header = "V,d,L,N,beta,successes,trials,seeds\n"
    rows.write_text(header + header + "2048,512,64,30000,4.0,1,1,10500\n")
    marker = tmp_path / "ran"
    command = [sys.executable, "-c", f"open({str(marker)!r}, 'w')", "--V", "8", "--d", "8", "--L", "4",
               "--N", "16", "--seed", "1"]
    args = argparse.Namespace(run=True, workers=1, rows=str(rows))
    assert cl.print_or_run([command], args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "line 2 repeats the header" in err and "delete that line" in err, err
    assert not marker.exists()
