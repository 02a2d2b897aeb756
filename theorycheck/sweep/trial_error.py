"""What a sweep raises when a trial fails or the executor's workers die: :class:`TrialError`,
whose message names the cell, the parameters and the seed, so that the one failing trial can
be rerun by itself (``theorycheck simulate ... --seed``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

_BROKEN_HINT = (
    "the executor's worker processes died: a crash or out-of-memory in a trial, or the "
    "workers could not import the trial function (define it at the top level of an "
    "importable module, not in an interactive session or stdin, and guard scripts with "
    "if __name__ == '__main__':); finished trials are kept in the store"
)


class TrialError(RuntimeError):
    """A trial function raised (the message names the cell, parameters and seed), or the
    executor's workers died. ``external``: the trial is code defined outside theorycheck (a
    user's task), so the CLI does not call it a bug of theorycheck's."""

    def __init__(self, message: str, *, external: bool = False) -> None:
        super().__init__(message)
        self.external = external


def trial_failed(cell: str, params: Mapping[str, Any], seed: np.random.SeedSequence, error: BaseException, *,
                 external: bool) -> TrialError:
    """The error for a trial of cell ``cell`` at ``params`` and ``seed`` that raised ``error``."""
    return TrialError(
        f"trial failed in cell {cell!r} with params {params!r}, "
        f"seed SeedSequence({seed.entropy}, spawn_key={seed.spawn_key}): "
        f"{type(error).__name__}: {error}", external=external,
    )


def workers_died(error: BaseException, *, cell: str | None = None, params: Mapping[str, Any] | None = None,
                 external: bool) -> TrialError:
    """The error for a broken executor (``error``: its ``BrokenExecutor``), naming the cell and
    parameters of a trial it was running where they are known."""
    where = "" if cell is None else f"running cell {cell!r} with params {params!r}, "
    return TrialError(f"{where}{_BROKEN_HINT} ({error})", external=external)
