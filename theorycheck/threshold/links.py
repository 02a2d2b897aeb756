"""The links ``F`` of the binomial GLM ``P(success | t) = F(eta)`` (docs/thresholds.md).

Each supported name maps to its statsmodels link class (:data:`LINKS`), its quantile
``eta_q = F^-1(q)`` and its slope ``dP/deta`` at ``P = q``:

==========  ==========================  ======================  =====================
link        ``F(eta)``                  ``F^-1(q)``             ``dP/deta`` at ``q``
==========  ==========================  ======================  =====================
probit      ``Phi(eta)``                ``Phi^-1(q)``           ``phi(Phi^-1(q))``
logit       ``1 / (1 + e^-eta)``        ``log(q / (1-q))``      ``q (1-q)``
cloglog     ``1 - exp(-e^eta)``         ``log(-log(1-q))``      ``-(1-q) log(1-q)``
loglog      ``exp(-e^-eta)``            ``-log(-log q)``        ``-q log q``
==========  ==========================  ======================  =====================

The slopes put fits with different links on one scale (``ProbitFit.probit_slope`` in
:mod:`theorycheck.threshold.glm`).
"""

from __future__ import annotations

import math

import statsmodels.api as sm
from scipy.stats import norm

__all__ = ["LINKS", "link_quantile", "link_slope_at"]


#: statsmodels link of each supported name (``P = F(eta)``).
LINKS = {
    "probit": sm.families.links.Probit,
    "logit": sm.families.links.Logit,
    "cloglog": sm.families.links.CLogLog,
    "loglog": sm.families.links.LogLog,
}


#: ``F^-1(q)`` of each link: the linear predictor at which ``P = q``.
_LINK_QUANTILE = {
    "probit": lambda q: float(norm.ppf(q)),
    "logit": lambda q: math.log(q / (1.0 - q)),
    "cloglog": lambda q: math.log(-math.log1p(-q)),
    "loglog": lambda q: -math.log(-math.log(q)),
}


def link_quantile(link: str, q: float) -> float:
    """``eta_q = F^-1(q)`` for ``link``."""
    return _LINK_QUANTILE[link](q)


def link_slope_at(link: str, q: float) -> float:
    """``dP/deta`` at ``P = q``: probit ``phi(z_q)``, logit ``q(1-q)``, cloglog
    ``-(1-q) log(1-q)``, loglog ``-q log q``."""
    if link == "probit":
        return float(norm.pdf(norm.ppf(q)))
    if link == "logit":
        return q * (1.0 - q)
    if link == "cloglog":
        return -(1.0 - q) * math.log1p(-q)
    return -q * math.log(q)
