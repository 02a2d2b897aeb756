"""The result of one simulation trial (docs/theory.md §4).

>>> o = Outcome(params={"V": 4}, algorithm="limit", seed=0, options={}, accuracy=1.0,
...             selection_accuracy=float("nan"), success=True, trigger_coef=None,
...             selection_margin=None, seconds=0.1, extras={"beta": float("inf")})
>>> o.to_dict()["selection_accuracy"] is None, o.to_dict()["extras"]["beta"]
(True, 'inf')
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from theorycheck.jsonable import jsonable

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """One trial: recall ``accuracy`` over the ``V·contexts`` test sequences,
    ``selection_accuracy`` (fraction whose informative position got the largest
    attention weight; ``NaN`` where there is no attention), ``success`` (``accuracy >=
    target``), trigger coefficient and selection margin (``None`` where undefined), wall
    time ``seconds`` of the whole trial, and algorithm diagnostics in ``extras``.

    ``seed`` is :func:`~theorycheck.simulate.seed_record` of the seed the trial was given:
    the int itself, or for a ``SeedSequence`` the dict ``{"entropy": ..., "spawn_key":
    [...]}`` (``entropy`` an int, or a list of ints for ``SeedSequence([a, b, ...])``).
    """

    params: dict
    algorithm: str
    seed: int | dict
    options: dict
    accuracy: float
    selection_accuracy: float
    success: bool
    trigger_coef: float | None
    selection_margin: float | None
    seconds: float
    extras: dict

    def to_dict(self) -> dict:
        """Strict-JSON-able dict (see :func:`jsonable`)."""
        return {f.name: jsonable(getattr(self, f.name)) for f in fields(self)}
