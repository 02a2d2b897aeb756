"""``theorycheck tasks``: list the tasks ``check --task`` and ``simulate --task`` know.

Built-in tasks, and those of installed packages (entry-point group ``theorycheck.tasks``),
with their resource and variables (kind and valid range). ``--json`` prints a list of
objects. A task of your own needs no registration: ``check --task path/to/file.py:NAME``.
"""

from __future__ import annotations

import argparse
import json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the registered tasks and their variables",
                       description="List the tasks theorycheck can simulate: built-in ones and those "
                       "installed packages declare (entry-point group theorycheck.tasks).")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=run)


def describe(task) -> dict:
    """A task's declaration as JSON-able data (and where it was declared)."""
    from theorycheck.registry import source

    def var(v):
        return {"name": v.name, "kind": v.kind, "low": v.low, "high": None if v.high == float("inf") else v.high,
                "range": v.range_text, "description": v.description}

    return {"name": task.name, "source": source(task), "resource": task.resource, "description": task.description,
            "variables": [var(v) for v in task.variables.values()],
            "settings": [var(v) for v in task.settings.values()],
            "choices": {k: list(v) for k, v in task.choices.items()},
            "defaults": dict(task.defaults), "nested": list(task.nested)}


def run(args: argparse.Namespace) -> int:
    from theorycheck.registry import tasks

    found = [describe(t) for t in tasks().values()]
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    for t in found:
        print(f"{t['name']}: {t['description']}")
        print(f"  from {t['source']}; resource: {t['resource']}")
        for v in t["variables"]:
            print(f"  {v['name']:<8} {v['range']:<28} {v['description']}")
    return 0
