"""The rows published under bench/data/, read one way by every test that checks them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "bench" / "data"


def jsonl(name: str) -> list[dict]:
    """The JSON lines of ``bench/data/name``, one dict per line."""
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def csv_rows(name: str) -> list[dict]:
    """The rows of the CSV file ``bench/data/name``, every column a float."""
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
