"""Linear associative memory: the control task with a known law (docs/theory.md §5).

``V`` facts ``x → Π(x)`` with random embeddings ``e_x, u_y`` i.i.d. ``N(0, I_d/d)`` and a
``d×d`` memory ``W``; recall of fact ``x`` is ``argmax_y u_yᵀ W e_x``.

* ``method="hebbian"``: the one-step outer-product memory ``W = Σ_x u_{Π(x)} e_xᵀ``.
  Exact recall needs ``d² ≳ C·V·ln V`` (docs/theory.md §5.5 ``hebbian``; ``C ≈ 10`` measured, docs/theory.md §7.2).
* ``method="gd"``: ``steps`` of full-batch gradient descent (or Adam) from ``W = 0`` on
  the cross-entropy ``(1/V) Σ_x −log softmax_y(u_yᵀ W e_x)_{Π(x)}``, gradient
  ``(1/V) Σ_x Σ_y (p_x − e_{Π(x)})_y u_y e_xᵀ``.  Nichani, Lee, Bietti (ICLR 2025):
  the trained memory stores the facts once ``d² ≳ V·ln V`` (their fit ``≈ 1.3·V·ln V``).

Rows: ``E[x] = e_x``, ``U[y] = u_y``; the logits of all facts are ``E Wᵀ Uᵀ`` (``V×V``).

**Nested in ``d``.**  A seed's embeddings are the first ``d`` of its coordinates
``Z_E, Z_U`` (i.i.d. ``N(0, 1)``, drawn coordinate by coordinate from their own streams),
scaled by ``1/√d``, and its facts ``Π`` do not depend on ``d``: the same seed at ``d' > d``
adds coordinates and keeps the others (``Task(nested=("d",))``, per-seed thresholds in
``d``).  For the Hebbian memory the logits grow by low-rank updates (:func:`hebbian_scan`).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from theorycheck.outcome import Outcome
from theorycheck.optim import Adam
from theorycheck.registry import Task, Variable
from theorycheck.seeding import child_seed, seed_record, seed_sequence
from theorycheck.tasks.linear_am_scan import linear_am_scan
from theorycheck.validate import check_choice, check_fraction, check_int

__all__ = ["LinearAMParams", "LinearAMMemory", "make_memory", "train_memory", "simulate_linear_am",
           "linear_am_params", "linear_am_trial", "linear_am_cost", "TASK"]

METHODS = ("hebbian", "gd")
OPTIMIZERS = ("gd", "adam")


@dataclass(frozen=True)
class LinearAMParams:
    """``V`` facts, dimension ``d``, ``method`` ``"hebbian"`` | ``"gd"``; for ``gd``:
    ``steps``, learning rate ``lr`` (default ``V`` for plain GD — the loss is a mean over
    facts, so ``lr = V`` gives each fact a step of 1 —, 0.1 for Adam) and ``optimizer``
    ``"gd"`` | ``"adam"``; ``target`` ``τ``: success iff recall accuracy ``>= τ``."""

    V: int
    d: int
    method: str = "hebbian"
    steps: int = 500
    lr: float | None = None
    target: float = 0.99
    optimizer: str = "gd"

    def __post_init__(self) -> None:
        put = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 (frozen)
        put("V", check_int("V", self.V, 2, " (at least 2 facts)"))
        put("d", check_int("d", self.d, 1))
        check_choice("method", self.method, METHODS)
        check_choice("optimizer", self.optimizer, OPTIMIZERS)
        put("steps", check_int("steps", self.steps, 1))
        if self.lr is None:
            put("lr", 0.1 if self.optimizer == "adam" else float(self.V))
        elif isinstance(self.lr, bool) or not isinstance(self.lr, (int, float)) or not (
            math.isfinite(self.lr) and self.lr > 0
        ):
            raise ValueError(f"lr must be a positive finite number, got {self.lr!r}")
        put("lr", float(self.lr))
        put("target", check_fraction("target (tau)", self.target))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class LinearAMMemory:
    """Embeddings (rows), permutation and the trained memory ``W`` (``d×d``)."""

    E: np.ndarray
    U: np.ndarray
    perm: np.ndarray
    W: np.ndarray

    def recall(self) -> np.ndarray:
        """``argmax_y u_yᵀ W e_x`` for every fact ``x``."""
        return (self.E @ self.W.T @ self.U.T).argmax(axis=1)

    def accuracy(self) -> float:
        return float(np.mean(self.recall() == self.perm))


def draw_coordinates(V: int, d: int, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(Z_E, Z_U, Π)``: a seed's first ``d`` embedding coordinates (``V×d`` each,
    i.i.d. ``N(0, 1)``) and its facts.  Coordinate ``k`` of every embedding is the ``k``-th
    block of ``V`` draws of its own stream (children 0 and 1 of ``seed``), ``Π`` comes
    from child 2: a seed's data at ``d`` are the first ``d`` columns of its data at any
    ``d' > d`` (nested in ``d``)."""
    ss = seed_sequence(seed)
    ze, zu = (np.random.default_rng(child_seed(ss, i)).standard_normal((d, V)).T for i in (0, 1))
    return ze, zu, np.random.default_rng(child_seed(ss, 2)).permutation(V)


def train_memory(E: np.ndarray, U: np.ndarray, perm: np.ndarray, params: LinearAMParams) -> tuple[np.ndarray, list[float]]:
    """``(W, losses)``: the Hebbian memory (no losses), or ``steps`` of GD/Adam."""
    if params.method == "hebbian":
        return U[perm].T @ E, []
    V, d = E.shape
    W = np.zeros((d, d))
    adam = Adam([W.shape])
    rows = np.arange(V)
    losses = []
    for _ in range(params.steps):
        logits = E @ W.T @ U.T  # [x, y]
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        losses.append(float(-np.mean(np.log(p[rows, perm]))))
        p[rows, perm] -= 1.0
        grad = U.T @ p.T @ E / V
        if params.optimizer == "adam":
            W -= adam.step([grad], params.lr)[0]
        else:
            W -= params.lr * grad
    return W, losses


def make_memory(params: LinearAMParams, seed) -> tuple[LinearAMMemory, list[float]]:
    """Draw the facts and embeddings of ``seed`` (:func:`draw_coordinates`, scaled by
    ``1/√d``) and build the memory."""
    ze, zu, perm = draw_coordinates(params.V, params.d, seed)
    E, U = ze / math.sqrt(params.d), zu / math.sqrt(params.d)
    W, losses = train_memory(E, U, perm, params)
    return LinearAMMemory(E=E, U=U, perm=perm, W=W), losses


def simulate_linear_am(params: LinearAMParams, seed=0) -> Outcome:
    """One trial of the linear associative memory: recall accuracy over the ``V`` facts."""
    if not isinstance(params, LinearAMParams):
        raise ValueError(f"params must be a LinearAMParams, got {type(params).__name__}")
    ss = seed_sequence(seed)
    start = time.perf_counter()
    memory, losses = make_memory(params, ss)
    accuracy = memory.accuracy()
    extras = {"final_loss": losses[-1]} if losses else {}
    return Outcome(
        params={"task": "linear-am", **params.to_dict()},
        algorithm=params.method,
        seed=seed_record(seed),
        options={},
        accuracy=accuracy,
        selection_accuracy=math.nan,
        success=bool(accuracy >= params.target),
        trigger_coef=None,
        selection_margin=None,
        seconds=time.perf_counter() - start,
        extras=extras,
    )


# --------------------------------------------------------------------- task declaration
def linear_am_params(params: Mapping[str, Any]) -> LinearAMParams:
    """A flat settings dict as :class:`LinearAMParams` (integers rounded by their declared kind)."""
    settings = TASK.coerce(params)
    fields = set(LinearAMParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(f"linear-am task has no parameter(s) {unknown}; known: {sorted(fields)}")
    return LinearAMParams(**settings)


def linear_am_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One linear associative memory trial (the control task of docs/theory.md §5)."""
    out = simulate_linear_am(linear_am_params(params), seed=seed)
    return {"success": bool(out.success), "accuracy": float(out.accuracy)}  # no wall-clock time


def linear_am_cost(p: Mapping[str, Any]) -> float:
    """BLAS work of the memory and its read-out, (V d^2 + V^2 d) per pass, in token-visit units."""
    passes = 1 + (3 * p.get("steps", 500) if p.get("method") == "gd" else 0)
    return 0.02 * passes * float(p["V"] * p["d"] ** 2 + p["V"] ** 2 * p["d"])


TASK = Task(
    name="linear-am",
    trial=linear_am_trial,
    variables=(
        Variable("V", "integer", 2, description="number of facts"),
        Variable("d", "integer", 1, description="embedding dimension"),
    ),
    resource="d",
    defaults={"V": 256, "d": 64},
    validate=linear_am_params,
    cost=linear_am_cost,
    description="linear associative memory, the control task with a known law (docs/theory.md §5)",
    settings=(Variable("steps", "integer", 1, description="gradient steps (method='gd')"),),
    choices={"method": METHODS, "optimizer": OPTIMIZERS},
    nested=("d",),
    scan=linear_am_scan,
)
