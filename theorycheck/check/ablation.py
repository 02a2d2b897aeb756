"""The paper's ablation: the same sweep with ``random`` and ``orthogonal`` embeddings.

With random embeddings the threshold grows with the sequence length ``L`` (the
multiplicative law, ``vural2026.one_step``/``gradient_noise``); with orthogonal embeddings
(``d >= V + 2``) the ``L`` dependence disappears while ``L <= V`` (``vural2026.orthogonal``,
docs/theory.md §5-6). Both arms use the same ``V``, the same ``d = V + 2`` (so that orthogonal
embeddings exist), the same algorithm and settings, and vary ``L`` only, over the same
range: up to ``V/4`` (the random arm's regime ``L << V``, ratio 4 in theorycheck.check.regime).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ablation_jobs", "RANDOM_TARGET", "ORTHOGONAL_TARGET"]

RANDOM_TARGET = "vural2026.gradient_noise"
#: Simulator settings of both arms: the three-step early-phase limit with the trigger out
#: of the value path (no mean-bias term) and zeta = 0.5. With zeta = 1 and d ~ V the random
#: arm's L-dependence is weak at these sizes (random embeddings with d ~ V are nearly
#: orthogonal; notebooks/03), and the one-step read-out is not L-free even with orthogonal
#: embeddings (its label co-occurrence noise grows with L), so it is no test of the claim.
ABLATION_SETTINGS = {"algorithm": "limit", "zeta": 0.5, "marker_in_value": False}
ORTHOGONAL_TARGET = "vural2026.orthogonal"


def ablation_jobs(*, V: int = 128, algorithm: str = "limit", budget: str = "quick",
                  settings: Mapping[str, Any] | None = None,
                  random_target: str = RANDOM_TARGET) -> list[tuple[str, str, dict[str, Any]]]:
    """The two checks of the ablation as ``(name, target, check kwargs)``."""
    if isinstance(V, bool) or not isinstance(V, int) or V < 4:
        raise ValueError(f"V must be an integer >= 4 for the ablation, got {V!r}")
    base = {"V": V, "d": V + 2, "L": max(2, V // 4)}
    common = {**ABLATION_SETTINGS, "algorithm": algorithm, **dict(settings or {})}
    jobs = []
    for name, target, emb in (("random", random_target, "random"), ("orthogonal", ORTHOGONAL_TARGET, "orthogonal")):
        jobs.append((name, target, {
            "budget": budget, "settings": {**common, "embeddings": emb},
            "base": base, "vary": ("L",), "ranges": {"L": (2, max(2, V // 4))},
        }))
    return jobs
