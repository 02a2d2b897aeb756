"""Argument helpers shared by the sub-commands that run sweeps (check, compare-embeddings)."""

from __future__ import annotations

import argparse
import datetime as _dt
import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["add_run_options", "check_parallel", "parse_assignments", "plain_text", "prepare_out", "default_out",
           "run_budget"]


def plain_text(docstring: str) -> str:
    """A docstring's reStructuredText made plain for ``--help``: ``:mod:`x``` and ````x````
    become ``x``."""
    return re.sub(r"``([^`]+)``", r"\1", re.sub(r":\w+:`~?([^`]+)`", r"\1", docstring))


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Budget, parallelism, output and seeding options."""
    p.add_argument("--budget", default="quick", help="quick (<= 5 min), standard (<= 30 min), paper (every variable inside the regime, <= 30 min) or full")
    p.add_argument("--max-cost", default=None, metavar="COST",
                   help="replace the budget's cap on one trial's predicted cost (token visits of the CPU "
                   "count path, ~16 ns each; quick 6e7, standard and paper 3e8, full 2e9), which the design "
                   "keeps to and search ceilings are set from: on a GPU, e.g. 1e12, or inf (docs/gpu.md)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="simulator setting, e.g. algorithm=limit, embeddings=orthogonal, marker_in_value=false")
    p.add_argument("--base", action="append", default=[], metavar="VAR=VALUE",
                   help="base point of the sweep, e.g. --base V=256 --base d=64")
    p.add_argument("--vary", default=None, metavar="VARS", help="comma-separated variables to vary (default: all)")
    p.add_argument("--cells", default=None, metavar="CELLS",
                   help="measure these cells instead of the designed lines: 'V=2048,d=512,L=64; V=4096,d=1024,L=16' "
                   "(one cell: its threshold alone, no exponent)")
    p.add_argument("--thresholds", default="bernoulli", metavar="METHOD",
                   help="how each cell's threshold is measured: bernoulli (adaptive trials, binomial GLM; "
                   "default) or per-seed (quantile of per-seed critical values, distribution-free CI; "
                   "tasks with nested data only, slower)")
    p.add_argument("--workers", type=int, default=None, metavar="K",
                   help="K local worker processes (with --dask-local: K dask workers)")
    par = p.add_mutually_exclusive_group()
    par.add_argument("--scheduler", default=None, metavar="ADDRESS", help="a dask.distributed scheduler address")
    par.add_argument("--dask-local", action="store_true",
                     help="start a dask LocalCluster on this machine (one worker per CPU, or --workers K)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="output directory (default ./theorycheck-out/<id>-<timestamp>); "
                        "run again with the same --out to resume an interrupted sweep")
    p.add_argument("--force-new", action="store_true", help="discard an existing store in --out")
    p.add_argument("--seed", type=int, default=2026, help="entropy of every trial seed (default 2026)")
    p.add_argument("--tolerance", type=float, default=None, help="equivalence margin on exponents")
    p.add_argument("--q", type=float, default=0.5, help="success probability defining the threshold")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")


def run_budget(args: argparse.Namespace):
    """The :class:`~theorycheck.check.budget.Budget` of ``--budget``, with ``--max-cost`` in
    place of its trial-cost cap when given (ValueError naming the option otherwise)."""
    import dataclasses

    from theorycheck.check.budget import get_budget

    budget = get_budget(args.budget)
    if args.max_cost is None:
        return budget
    try:
        cap = float(args.max_cost)
    except ValueError:
        cap = math.nan
    if not cap > 0:
        raise ValueError(f"--max-cost must be a positive number of token visits (or inf), got {args.max_cost!r}; "
                         f"the {budget.name} budget's own cap is {budget.max_cost:g}")
    return dataclasses.replace(budget, max_cost=cap)


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_assignments(items: list[str], what: str, numeric: bool = False, *,
                      repeated: Callable[[str], str] | None = None) -> dict[str, Any]:
    """``["a=1", "b=x"]`` -> ``{"a": 1, "b": "x"}``; ValueError says the expected form.
    A name given twice is refused, with ``repeated(name)`` as the message when given."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key.strip() or not val.strip():
            raise ValueError(f"{what} expects KEY=VALUE, got {item!r}")
        v = _value(val)
        if numeric and (isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0):
            raise ValueError(f"{what} {key}= must be a positive number, got {val!r}")
        if key.strip() in out:
            if repeated is not None:
                raise ValueError(repeated(key.strip()))
            raise ValueError(f"{what} gives {key.strip()} twice ({item!r} after "
                             f"{key.strip()}={out[key.strip()]!r}); give each name once")
        out[key.strip()] = v
    return out


def parse_cells(text: str | None) -> list[dict[str, Any]] | None:
    """``"V=2048,d=512; V=4096,d=1024"`` -> ``[{"V": 2048, "d": 512}, {"V": 4096, "d": 1024}]``; one
    cell (``"V=2048,d=512"``) is a check of that cell's threshold alone."""
    if text is None:
        return None
    groups = [g for g in text.split(";") if g.strip()]
    if not groups:
        raise ValueError(f"--cells expects cells separated by ';', each VAR=VALUE,VAR=VALUE, got {text!r}")
    cells = []
    for g in groups:
        items = [a for a in g.split(",") if a.strip()]
        cells.append(parse_assignments(
            items, "--cells", numeric=True,
            repeated=lambda name, g=g: (f"--cells: the cell {g.strip()!r} gives {name} more than once; "
                                        "separate cells with ';', as in 'L=64; L=128'")))
    return cells


def check_parallel(args: argparse.Namespace, trial: Any = None) -> None:
    """``--workers``, ``--scheduler`` and ``--dask-local`` checked (a scheduler must answer),
    and ``trial`` can be sent to worker processes when they are asked for, before the output
    directory exists (:func:`theorycheck.sweep.executors.check_executor_arguments`,
    :func:`theorycheck.sweep.cells.check_shippable`)."""
    from theorycheck.sweep.cells import check_shippable  # not at import: theorycheck.sweep pulls numpy
    from theorycheck.sweep.executors import check_executor_arguments

    workers = check_executor_arguments(args.workers, args.scheduler, args.dask_local, cli=True)
    if trial is not None and (args.scheduler or args.dask_local or (workers or 1) > 1):
        check_shippable(trial)


def default_out(ident: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("theorycheck-out") / f"{ident}-{stamp}"


def prepare_out(path: Path) -> Path:
    """Create the output directory, prove it is writable and lock it for this run
    (:mod:`theorycheck.sweep.lock`), before any work."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise ValueError(
            f"cannot write to output directory {str(path)!r} ({exc.strerror or exc}); "
            "choose another with --out DIR"
        ) from None
    if not os.access(path, os.W_OK):
        raise ValueError(f"output directory {str(path)!r} is not writable; choose another with --out DIR")
    from theorycheck.sweep.lock import lock_out  # not at import: theorycheck.sweep pulls numpy

    lock_out(path)  # one run per --out: ValueError (exit 2) while another live run holds it
    return path
