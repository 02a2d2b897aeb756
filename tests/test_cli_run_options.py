"""Parallelism options of the sweeping commands: --dask-local takes a worker count."""

from __future__ import annotations

import pytest

from theorycheck.cli.main import build_parser
from theorycheck.sweep import make_executor


def _parse(*argv):
    return build_parser().parse_args(["check", *argv])


def test_dask_local_accepts_a_worker_count():
    args = _parse("--dask-local", "--workers", "3")
    assert (args.dask_local, args.workers, args.scheduler) == (True, 3, None)


def test_scheduler_and_dask_local_stay_exclusive(capsys):
    with pytest.raises(SystemExit) as info:
        _parse("--dask-local", "--scheduler", "tcp://127.0.0.1:1")
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_workers_with_a_scheduler_is_refused_before_any_work():
    args = _parse("--scheduler", "tcp://127.0.0.1:1", "--workers", "2")
    with pytest.raises(ValueError, match="the cluster decides the number of workers: drop workers"):
        with make_executor(args.workers, args.scheduler, args.dask_local):
            pytest.fail("no executor for contradictory options")


@pytest.mark.dask
def test_dask_local_starts_the_asked_number_of_workers():
    pytest.importorskip("distributed")
    args = _parse("--dask-local", "--workers", "2")
    with make_executor(args.workers, args.scheduler, args.dask_local) as executor:
        info = executor._client.scheduler_info()  # the ClientExecutor's client
        assert len(info["workers"]) == 2
