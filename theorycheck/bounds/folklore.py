"""Folklore controls: the one-step (Hebbian) outer-product associative memory.

``W = sum_x u_{Pi x} e_x^T`` with random ``N(0, I/d)`` embeddings recalls ``x -> Pi x``
as ``argmax_y u_y^T W e_x``. The read-out noise has standard deviation
``~ sqrt(V)/d`` against a signal ``~ 1``; a union bound over ``V**2`` pairs gives exact
recall when ``d**2 >~ C V log V`` (docs/theory.md §7.2, [D]); ``C ~ 10`` measured
(docs/theory.md §5). This is the ``storage`` term of vural2026 as a stand-alone control.
"""

from __future__ import annotations

from theorycheck.catalogue import Bound, Expected
from theorycheck.law import Law, Regime

CITATION = """@article{kohonen1972correlation,
  title   = {Correlation Matrix Memories},
  author  = {Kohonen, Teuvo},
  journal = {IEEE Transactions on Computers},
  volume  = {C-21},
  number  = {4},
  pages   = {353--359},
  year    = {1972},
  note    = {classical outer-product memory; the d^2 >~ V log V exact-recall condition is derived in theorycheck (docs/theory.md section 5)}
}"""

BOUNDS = [
    Bound(
        id="hebbian",
        law=Law.parse("d**2 >= C*V*log(V)", resource="d"),
        kind="upper",
        directions={"d": "helps", "V": "hurts"},
        regime=Regime({"V": 1}, "V -> oo"),
        provenance="derived",
        citation=CITATION,
        task="linear-am",
        criterion="exact recall of all V facts (tau = 1, docs/theory.md §4): the derivation is a union bound "
                  "over all pairs; at tau = 0.99 the tolerated errors grow with V and flatten the law",
        settings={"method": "hebbian", "target": 1.0},
        base={"V": 128},
        ranges={"V": (16, 2048)},
        vary=("V",),
        expected=Expected("consistent", "quick", 2026,
                          "2026-11-26 (embeddings nested in d): V-exponent 0.503, CI [0.482, 0.524]; "
                          "observed minus predicted -0.095, 90% CI [-0.112, -0.077] within ±0.25; "
                          "C ~ 10.5; ~5 s CPU"),
        constants={"C": 10.0},
        description="one-step outer-product (Hebbian) memory: exact recall needs d^2 >~ C V log V",
        notes="C ~ 10 measured: at (V, d) = (256, 128) accuracy ~ 0.996-1.00, (512, 128) ~ 0.94. That C is the "
              "Gaussian maximum's: d^2 = K q^2 (V + 2d), q the quantile of the best of V - 1 rival scores over the "
              "fact's own at a recall of 2^(-1/V) per fact, gives K 0.89..0.92 at V 64..512 (docs/theory.md §7.12, "
              "'Where the constant comes from'; python bench/extreme_value_walls.py); K < 1 is the correct label's "
              "share of the memory's read W e_x, which the rivals' spread sees: with it, nothing fitted, the walls "
              "at 64, 181, 512 are 1.017, 0.996, 1.001 of the form's ('Where the shortfall comes from'; python "
              "bench/memory_read_walls.py).",
    ),
]
