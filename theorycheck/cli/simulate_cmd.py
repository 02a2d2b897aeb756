"""``theorycheck simulate``: run trials of one task cell and print their outcomes.

Examples::

    theorycheck simulate                                   # a small retrieval example
    theorycheck simulate --V 256 --d 64 --L 16 --N 20000 --seeds 4 --json
    theorycheck simulate --embeddings orthogonal --V 64 --d 66 --L 64 --N 3000
    theorycheck simulate --algorithm one-step --no-marker-in-value
    theorycheck simulate --task linear-am --V 256 --d 128 --method hebbian
    theorycheck simulate --algorithm gd --steps 300 --optimizer adam --lr 0.05
    theorycheck simulate --algorithm three-step --beta 4 --set eta=1e5   # any algorithm option
    theorycheck simulate --task MY-TASK --set n=100 --set p=0.2   # any registered task
    theorycheck simulate --task my_task.py:TASK --set n=100        # a Task in a file

Task, algorithm, model and embedding names come from :mod:`theorycheck.registry`.

Trials use seeds ``S, S+1, …, S+K-1`` (``--seed S --seeds K``).  ``--json`` prints one
object: ``task``, ``params`` (echo), ``algorithm``, ``options``, ``seeds`` and per-seed
lists ``accuracy``, ``selection_accuracy`` (``null`` where undefined), ``success``,
``trigger_coef``, ``seconds``, plus ``outcomes`` (every :class:`Outcome` as a dict).
Another registered task runs its own trial on its defaults updated by ``--set``; its
``--json`` holds ``task``, ``params``, ``seeds``, ``success`` and the trials' ``results``.
Exit 0 after the trials ran (whatever their success), 2 on bad input.
"""

from __future__ import annotations

import math

from theorycheck.cli.rows_file import append_row, check_rows_file, row_columns
from theorycheck.registry import LazyNames


def dumps(*args, **kwargs) -> str:
    """:func:`theorycheck.jsonable.dumps`, imported on first use (numpy stays out of ``--help``)."""
    from theorycheck.jsonable import dumps as _dumps

    return _dumps(*args, **kwargs)


DEFAULTS = {"V": 128, "d": 64, "L": 16, "N": 20000}  # runs in about a second
MAX_SEEDS = 100_000  # trials one `simulate` command runs (each is printed)


def _registry(function: str, *args) -> LazyNames:
    """argparse ``choices`` read from :mod:`theorycheck.registry` when first needed (parsing
    that option, or formatting its help), so that building the parser discovers nothing."""
    from theorycheck import registry

    return LazyNames(getattr(registry, function), *args)


class _TaskChoices(LazyNames):
    """The registered task names; a ``module:NAME`` / ``file.py:NAME`` spec passes too."""

    def __init__(self) -> None:
        from theorycheck.registry import task_names

        super().__init__(task_names)

    def __contains__(self, value: object) -> bool:
        return (isinstance(value, str) and ":" in value) or super().__contains__(value)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="run simulation trials of the retrieval task or the linear associative memory",
        description="Run K seeded trials of one cell (docs/theory.md §1-4) and report recall "
        "accuracy, selection accuracy and success (accuracy >= tau).",
    )
    p.add_argument("--task", choices=_TaskChoices(), default="retrieval", metavar="TASK",
                   help="one of %(choices)s (default retrieval), or package.module:NAME or "
                   "path/to/file.py:NAME naming a theorycheck.Task")
    p.add_argument("--V", type=int, default=None, help=f"vocabulary size / number of facts; default {DEFAULTS['V']}")
    p.add_argument("--d", type=int, default=None, help=f"embedding dimension; default {DEFAULTS['d']}")
    p.add_argument("--L", type=int, default=None, help=f"sequence length (retrieval); default {DEFAULTS['L']}")
    p.add_argument("--N", type=int, default=None, help=f"training sequences (retrieval); default {DEFAULTS['N']}")
    p.add_argument("--model", choices=_registry("models", "retrieval"), default="attention", metavar="MODEL",
                   help="one of %(choices)s (default attention)")
    p.add_argument("--m", type=int, default=None, help="MLP width (needed with --model mlp)")
    p.add_argument("--center-features", action="store_true", help="MLP: subtract the features' mean")
    p.add_argument("--embeddings", choices=_registry("choices", "retrieval", "embeddings"), default="random",
                   metavar="KIND", help="one of %(choices)s (default random)")
    p.add_argument("--zeta", type=float, default=1.0, help="trigger norm (default 1)")
    p.add_argument("--no-marker-in-value", dest="marker_in_value", action="store_false",
                   help="values v_i = e_{x_i} (the trigger only marks keys)")
    p.add_argument("--algorithm", choices=_registry("algorithm_names", "retrieval"), default="limit",
                   metavar="NAME", help="retrieval algorithm, one of %(choices)s (default limit)")
    p.add_argument("--beta", type=float, default=None,
                   help="limit: scale-free inverse temperature of step-2 attention (default inf, "
                   "hard); three-step: trigger logit advantage")
    p.add_argument("--threads", type=int, default=None, help="limit (attention model) and one-step: worker threads")
    p.add_argument("--backend", default=None, metavar="NAME",
                   help="limit (both models), three-step and gd: array backend of the training "
                   "passes and the prediction, numpy (default), torch or cupy (optional extras; torch "
                   "uses CUDA when it sees a GPU, and on a CPU numpy is faster)")
    p.add_argument("--seeds", type=int, default=1, help="number of trials K (default 1)")
    p.add_argument("--seed", type=int, default=0, help="first seed S (default 0)")
    p.add_argument("--target", type=float, default=0.99, help="tau: success iff accuracy >= tau")
    p.add_argument("--contexts", type=int, default=1, help="test contexts per token (default 1)")
    p.add_argument("--method", choices=_registry("choices", "linear-am", "method"), default="hebbian",
                   metavar="METHOD", help="linear-am memory, one of %(choices)s (default hebbian)")
    p.add_argument("--optimizer", choices=_registry("choices", "linear-am", "optimizer"), default=None,
                   metavar="NAME", help="gradient descent flavour, one of %(choices)s "
                   "(linear-am --method gd, or --algorithm gd)")
    p.add_argument("--steps", type=int, default=None, help="gradient steps (linear-am gd, --algorithm gd)")
    p.add_argument("--lr", type=float, default=None, help="learning rate (linear-am gd, --algorithm gd)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="retrieval: an option of the algorithm without its own flag (e.g. "
                   "three-step's eta, gamma_prime); another task (not linear-am): a parameter (its "
                   "declared variables and settings; the rest from its defaults)")
    p.add_argument("--rows", metavar="FILE",
                   help="also append the run as one binomial row (its parameters and settings, successes, "
                   "trials, seeds) to this CSV, which theorycheck fit reads, alone or beside checks' outputs")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


#: the options that only the built-in tasks read (``None`` unless given), and which of them
#: linear-am reads too: another task given one would silently ignore it
_BUILT_IN_ONLY = ("V", "d", "L", "N", "m", "beta", "threads", "backend", "steps", "lr", "optimizer")
_LINEAR_AM_READS = ("V", "d", "steps", "lr", "optimizer")


def _refuse_unread(args, task: str, reads: tuple[str, ...] = ()) -> None:
    """ValueError naming the options given that ``task`` does not read."""
    unread = [f"--{k}" for k in _BUILT_IN_ONLY if k not in reads and getattr(args, k) is not None]
    if unread:
        hint = "give its parameters with --set KEY=VALUE" if not reads else "see theorycheck simulate --help"
        raise ValueError(f"{', '.join(unread)} {'does' if len(unread) == 1 else 'do'} not apply to task "
                         f"{task}; {hint}")


def _trials(args) -> tuple[dict, str, dict, object]:
    """Validate everything, then return (params echo, algorithm, options, runner)."""
    from theorycheck.validate import check_int

    if args.task == "linear-am":
        _refuse_unread(args, "linear-am", _LINEAR_AM_READS)
    for key, value in DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    check_int("--seeds", args.seeds, 1)
    if args.seeds > MAX_SEEDS:
        raise ValueError(f"--seeds {args.seeds} is more trials than one command runs (at most {MAX_SEEDS}); "
                         "for large studies use theorycheck check, or a script over theorycheck.simulate")
    check_int("--seed", args.seed, 0)
    if args.task == "linear-am":
        from theorycheck.tasks.linear_am import LinearAMParams, simulate_linear_am

        extra = {k: v for k, v in (("steps", args.steps), ("lr", args.lr),
                                   ("optimizer", args.optimizer)) if v is not None}
        params = LinearAMParams(V=args.V, d=args.d, method=args.method, target=args.target, **extra)
        return params.to_dict(), args.method, {}, lambda s: simulate_linear_am(params, s)

    from theorycheck.cli.options import parse_assignments
    from theorycheck.registry import get_algorithm
    from theorycheck.simulate import simulate
    from theorycheck.tasks.retrieval import RetrievalParams

    params = RetrievalParams(
        V=args.V, d=args.d, L=args.L, N=args.N, embeddings=args.embeddings, zeta=args.zeta,
        marker_in_value=args.marker_in_value, model=args.model, m=args.m,
        center_features=args.center_features, contexts=args.contexts, target=args.target,
    )
    given = {"beta": args.beta, "threads": args.threads, "steps": args.steps, "lr": args.lr,
             "optimizer": args.optimizer, "backend": args.backend}
    options = {k: v for k, v in given.items() if v is not None}
    for key, value in parse_assignments(args.settings, "--set").items():  # e.g. three-step's eta
        if key in options:
            raise ValueError(f"--set {key}={value!r} and --{key} {options[key]!r} both give {key}; give it once")
        if key in RetrievalParams.__dataclass_fields__:
            raise ValueError(f"--set {key}={value!r}: {key} is a task parameter with its own option (see "
                             "theorycheck simulate --help); --set takes algorithm options without one, e.g. eta")
        options[key] = value
    options = get_algorithm(args.algorithm).check_options(params.model, options)
    return params.to_dict(), args.algorithm, options, lambda s: simulate(params, args.algorithm, s, **options)


def _run_declared(args) -> int:
    """Any other registered task: ``trial(params, seed)`` on its defaults updated by ``--set``."""
    from theorycheck.cli.options import parse_assignments
    from theorycheck.registry import get_task
    from theorycheck.simulate import seed_sequence
    from theorycheck.task_sources import resolve_task
    from theorycheck.validate import check_int

    check_int("--seeds", args.seeds, 1)
    if args.seeds > MAX_SEEDS:
        raise ValueError(f"--seeds {args.seeds} is more trials than one command runs (at most {MAX_SEEDS}); "
                         "for large studies use theorycheck check, or a script over theorycheck.simulate")
    check_int("--seed", args.seed, 0)
    task = get_task(resolve_task(args.task))
    _refuse_unread(args, task.name)
    params = {**task.defaults, **parse_assignments(args.settings, "--set")}
    missing = [v for v in task.variables if params.get(v) is None]  # settings may be optional
    if missing:
        raise ValueError(f"task {task.name} has no default for {', '.join(missing)}; give "
                         + " ".join(f"--set {v}=VALUE" for v in missing))
    params = task.check_params(params)
    if args.rows:
        check_rows_file(args.rows, row_columns(params))
    seeds = list(range(args.seed, args.seed + args.seeds))
    results = []
    for s in seeds:
        out = task.trial(dict(params), seed_sequence(s))
        results.append(dict(out) if isinstance(out, dict) else {"success": bool(out)})
    if args.rows:
        append_row(args.rows, params, sum(bool(r["success"]) for r in results), seeds)
    if args.json:
        print(dumps({"task": task.name, "params": params, "seeds": seeds,
                     "success": [bool(r["success"]) for r in results], "results": results}, indent=None))
        return 0
    print(f"{task.name} [{', '.join(f'{k}={v}' for k, v in params.items())}]")
    for s, r in zip(seeds, results):
        extra = "  ".join(f"{k}={v}" for k, v in r.items() if k != "success")
        print(f"seed {s}: success={'yes' if r['success'] else 'no'}  {extra}".rstrip())
    print(f"success {sum(bool(r['success']) for r in results)}/{len(results)}")
    return 0


def _row_settings(task: str, params: dict, algorithm: str, options: dict) -> dict:
    """What a ``--rows`` row records of a built-in run: the task's parameters, the algorithm
    (retrieval; linear-am's ``method`` is a parameter) and the options that can change an
    outcome (not ``threads``)."""
    extra = {} if task == "linear-am" else {"algorithm": algorithm}
    return {**params, **extra, **{k: v for k, v in options.items() if k != "threads"}}


def run(args) -> int:
    if args.task not in ("retrieval", "linear-am"):  # the built-ins print their full Outcome
        return _run_declared(args)
    if args.settings and args.task == "linear-am":
        raise ValueError("--set applies to the retrieval algorithms' options and to other tasks, got --set "
                         "with --task linear-am; use its own options (see --help)")
    params, algorithm, options, trial = _trials(args)
    settings = _row_settings(args.task, params, algorithm, options)
    if args.rows:
        check_rows_file(args.rows, row_columns(settings))
    seeds = list(range(args.seed, args.seed + args.seeds))
    outcomes = [trial(s) for s in seeds]
    if args.rows:
        append_row(args.rows, settings, sum(bool(o.success) for o in outcomes), seeds)
    if args.json:
        report = {
            "task": args.task,
            "params": params,
            "algorithm": algorithm,
            "options": options,
            "seeds": seeds,
            "accuracy": [o.accuracy for o in outcomes],
            "selection_accuracy": [o.selection_accuracy for o in outcomes],
            "success": [o.success for o in outcomes],
            "trigger_coef": [o.trigger_coef for o in outcomes],
            "seconds": [o.seconds for o in outcomes],
            "outcomes": [o.to_dict() for o in outcomes],
        }
        print(dumps(report, indent=None, sort_keys=False))
        return 0
    cell = ", ".join(f"{k}={v}" for k, v in params.items() if v is not None)
    print(f"{args.task} [{cell}] algorithm={algorithm} {options or ''}".rstrip())
    for s, o in zip(seeds, outcomes):
        sel = "n/a" if math.isnan(o.selection_accuracy) else f"{o.selection_accuracy:.4f}"
        trig = "" if o.trigger_coef is None else f"  trigger_coef={o.trigger_coef:.3g}"
        print(f"seed {s}: accuracy={o.accuracy:.4f} selection={sel} "
              f"success={'yes' if o.success else 'no'}{trig}  ({o.seconds:.2f} s)")
    wins = sum(o.success for o in outcomes)
    print(f"success {wins}/{len(outcomes)} at tau={args.target}")
    return 0
