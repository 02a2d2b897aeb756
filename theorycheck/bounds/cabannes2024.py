"""Cabannes, Dohmatob, Bietti (ICLR 2024), "Scaling Laws for Associative Memories",
arXiv:2310.02984 -- docs/theory.md §5.

With Zipf(alpha) inputs and a memory that stores the top ``~ d`` items (threshold
weighting), the population error after ``T`` samples is
``E ≍ d**(-(alpha - 1)) + T**(-1 + 1/alpha)`` (docs/theory.md §5.5; recalled from the
paper, consistent with the reference lines in the authors' code).

Encoding: an error law is a two-sided scaling statement, not a success threshold.
It is stored as the condition ``E >= C1*d**(1 - alpha) + C2*T**(1/alpha - 1)`` on the
**reachable error** ``E`` (kind ``scaling``): an error level ``E`` is reachable with
``(d, T)`` when ``E`` is at least the right-hand side, up to constants. ``solve_for("d")``
then gives the ``d`` needed for a target error. ``alpha`` is a parameter of the data,
fixed to 2 in the catalogue entry; :func:`error_law` builds it for another ``alpha``.
"""

from __future__ import annotations

from fractions import Fraction

from theorycheck.catalogue import Bound
from theorycheck.law import Law, Regime

CITATION = """@inproceedings{cabannes2024scaling,
  title     = {Scaling Laws for Associative Memories},
  author    = {Cabannes, Vivien and Dohmatob, Elvis and Bietti, Alberto},
  booktitle = {International Conference on Learning Representations (ICLR)},
  year      = {2024},
  eprint    = {2310.02984},
  archivePrefix = {arXiv}
}"""


def error_law(alpha: Fraction | int | str = 2) -> Law:
    """``E >= C1*d**(1 - alpha) + C2*T**(1/alpha - 1)`` for a Zipf exponent ``alpha > 1``."""
    a = Fraction(alpha)
    if a <= 1:
        raise ValueError(f"the Zipf exponent alpha must be > 1, got {alpha}")
    return Law.parse(f"E >= C1*d**({1 - a}) + C2*T**({1 / a - 1})")


BOUNDS = [
    Bound(
        id="cabannes2024",
        law=error_law(2),
        kind="scaling",
        directions={"E": "helps", "d": "helps", "T": "helps"},
        regime=Regime({"d": 1, "T": 3}, "dimension-limited: d^(1-alpha) >> T^(1/alpha-1); d = t, T = t^3"),
        provenance="prior",
        citation=CITATION,
        task=None,  # no Zipf associative-memory simulator here: use `theorycheck fit` on your own data
        criterion="population error sum_x p(x) 1[f_hat(x) != f*(x)] (their metric; no threshold)",
        settings={"alpha": 2, "weighting": "threshold"},
        description="Zipf(alpha) inputs, store top ~d items: error ~ d^-(alpha-1) + T^(-1+1/alpha); alpha = 2",
        notes="Exponents recalled from the paper ([M]); the code draws 5 d^(1-alpha), 0.5 T^(-1+1/alpha) and "
              "3.5/d as reference lines, so no reference constants are claimed. No simulator in theorycheck (task=None).",
    ),
]
