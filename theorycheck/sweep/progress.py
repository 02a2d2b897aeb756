"""Progress of a sweep: a one-liner redrawn on a terminal, a log line every ~10 s otherwise.

The engine calls ``progress.update(state)`` after every finished trial and every
finished cell, and ``progress.close()`` once at the end (also on error or Ctrl-C).
Any object with these two methods will do; :class:`NullProgress` (the library default)
ignores them, :class:`TerminalProgress` (what the CLI uses) draws

    sweep: 3/10 cells done | 240 trials (120 computed, 120 reused) | 1m05s elapsed | ~2m30s left

refreshed in place with ``\\r`` on stderr when stderr is a TTY. When it is not (a log
file, a pipe, a batch job) the same line is written as a plain log line every
``log_interval`` seconds (default 10), the first after ``log_interval`` seconds, and a
last one at the end if any was written (so a run shorter than that logs nothing).
``quiet=True`` silences both. Until a few trials have been computed and ~5% of the
expected trials are done, the time left reads "estimating, time left unknown", never
"~0s left"; while no cell has finished but every search declares its trial budget, it
reads "at most ~4m10s left" (every search spending its whole budget). No tqdm dependency (the emcee null-progress pattern, docs/architecture.md).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from typing import Protocol, TextIO


@dataclass(frozen=True)
class SweepState:
    """Counts the engine reports. ``computed`` trials ran now; ``reused`` came from the
    store; ``trials_in_done_cells`` (computed + reused) belong to cells already finished."""

    cells_total: int
    cells_done: int
    computed: int
    reused: int
    running: int
    trials_in_done_cells: int
    elapsed: float
    #: the most trials the sweep can take in all (finished cells' trials plus every other
    #: search's ``max_trials``), or None when a search declares no such budget
    trials_cap: int | None = None

    @property
    def trials_done(self) -> int:
        return self.computed + self.reused


class ProgressReporter(Protocol):
    def update(self, state: SweepState) -> None: ...

    def close(self) -> None: ...


class NullProgress:
    """Reports nothing (library default)."""

    def update(self, state: SweepState) -> None:
        pass

    def close(self) -> None:
        pass


#: The time left is an estimate only once this many trials were computed ...
MIN_COMPUTED_FOR_ETA = 5
#: ... and this fraction of the expected trials is done.
MIN_FRACTION_FOR_ETA = 0.05


def estimate_seconds_left(state: SweepState) -> float | None:
    """Rough time left, or None while it cannot be estimated ("estimating").

    Searches are adaptive, so the total trial count is unknown; it is extrapolated from
    the finished cells: expected = trials_in_done_cells / cells_done * cells_total.
    The remaining trials are assumed to run at the wall-clock rate seen so far,
    computed / elapsed (reused trials cost nothing and are left out of the rate).
    None before any cell finished, before :data:`MIN_COMPUTED_FOR_ETA` trials were
    computed or :data:`MIN_FRACTION_FOR_ETA` of the expected trials are done, and when
    the extrapolation is already exceeded while cells are still running (it would say
    "~0s left" with work outstanding).
    """
    if state.cells_done >= state.cells_total:
        return 0.0
    if state.cells_done == 0 or state.computed < max(MIN_COMPUTED_FOR_ETA, 1) or state.elapsed <= 0:
        return None
    expected_total = state.trials_in_done_cells / state.cells_done * state.cells_total
    remaining = expected_total - state.trials_done
    if remaining <= 0 or state.trials_done < MIN_FRACTION_FOR_ETA * expected_total:
        return None
    return remaining * state.elapsed / state.computed


def most_seconds_left(state: SweepState) -> float | None:
    """The time left if every unfinished search spent its whole trial budget
    (``trials_cap``), at the rate of :func:`estimate_seconds_left`; None without a cap or
    before :data:`MIN_COMPUTED_FOR_ETA` trials were computed. Searches usually stop
    earlier, at their CI target: it is an upper bound, shown while no cell has finished."""
    if state.trials_cap is None or state.computed < max(MIN_COMPUTED_FOR_ETA, 1) or state.elapsed <= 0:
        return None
    return max(state.trials_cap - state.trials_done, 0) * state.elapsed / state.computed


def format_duration(seconds: float) -> str:
    """``5s``, ``1m05s``, ``2h03m`` (whole seconds, rounded)."""
    total = round(max(seconds, 0.0))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def format_progress(state: SweepState) -> str:
    """The one-line summary shown by :class:`TerminalProgress` (pure function)."""
    left, most = estimate_seconds_left(state), most_seconds_left(state)
    if left is not None:
        left_text = f"~{format_duration(left if most is None else min(left, most))} left"
    elif most is not None and most > 0:
        left_text = f"at most ~{format_duration(most)} left"
    else:
        left_text = "estimating, time left unknown"
    running = f", {state.running} running" if state.running else ""
    return (
        f"sweep: {state.cells_done}/{state.cells_total} cells done | "
        f"{state.trials_done} trials ({state.computed} computed, {state.reused} reused{running}) | "
        f"{format_duration(state.elapsed)} elapsed | {left_text}"
    )


class TerminalProgress:
    """One line on ``stream`` (default stderr), redrawn at most every ``min_interval`` s on
    a terminal; off a terminal a log line every ``log_interval`` s (module docstring)."""

    def __init__(
        self, stream: TextIO | None = None, *, quiet: bool = False, min_interval: float = 0.2,
        log_interval: float = 10.0,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        tty = bool(isatty is not None and isatty())
        self.enabled = (not quiet) and tty
        self.logging = (not quiet) and not tty and math.isfinite(log_interval)
        self.log_interval = float(log_interval)
        self._started = time.monotonic()
        self._last_log = self._started
        self._logged = False
        self.min_interval = float(min_interval)
        self._last_draw = float("-inf")
        self._last_len = 0
        self._last_state: SweepState | None = None
        self._drawn_state: SweepState | None = None

    def update(self, state: SweepState) -> None:
        self._last_state = state
        if self.logging:
            now = time.monotonic()
            if now - self._last_log >= self.log_interval:
                self._last_log = now
                self._log(state)
            return
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last_draw < self.min_interval and state.cells_done < state.cells_total:
            return
        self._last_draw = now
        self._draw(state)

    def _draw(self, state: SweepState) -> None:
        line = format_progress(state)
        pad = " " * max(self._last_len - len(line), 0)
        self.stream.write("\r" + line + pad)
        self.stream.flush()
        self._last_len = len(line)
        self._drawn_state = state

    def _log(self, state: SweepState) -> None:
        self.stream.write(format_progress(state) + "\n")
        self.stream.flush()
        self._logged = True
        self._drawn_state = state

    def close(self) -> None:
        if self.logging:
            if self._logged and self._last_state is not None and self._last_state != self._drawn_state:
                self._log(self._last_state)
            return
        if not self.enabled:
            return
        if self._last_state is not None and self._last_state != self._drawn_state:
            self._draw(self._last_state)  # the last update may have been throttled
        if self._drawn_state is not None:
            self.stream.write("\n")
            self.stream.flush()


def as_progress(progress: object) -> ProgressReporter:
    """The reporter a sweep uses: ``None``/``False`` -> :class:`NullProgress`, ``True`` ->
    :class:`TerminalProgress` on stderr, else ``progress`` itself if it has ``update`` and
    ``close`` (ValueError otherwise, before any trial)."""
    if progress is None or progress is False:
        return NullProgress()
    if progress is True:
        return TerminalProgress()
    if not (callable(getattr(progress, "update", None)) and callable(getattr(progress, "close", None))):
        raise ValueError(f"progress must be True, False, None or an object with update(state) and close(), "
                         f"e.g. theorycheck.sweep.TerminalProgress(); got {progress!r}")
    return progress
