"""Giorlandino, Goldt, Maillard (2026), sharp capacity of linear associative memories,
arXiv:2605.10795 -- docs/theory.md §5.

"The decoupled model can store up to ``p_c log p_c / d**2 = 1/2`` associations"
(docs/theory.md §5.5, [V]): with ``p = V`` facts the optimal linear memory succeeds iff
``V log V <= d**2 / 2`` asymptotically. Encoded as ``V*log(V) <= C*d**2`` with the
sharp constant ``C = 1/2`` as reference value, solved for ``d``:
``d >= sqrt(V log V / C)``. A sharp (two-sided) statement, hence kind ``scaling``.
"""

from __future__ import annotations

from theorycheck.catalogue import Bound
from theorycheck.law import Law, Regime

CITATION = """@misc{giorlandino2026sharp,
  author        = {Giorlandino and Goldt, Sebastian and Maillard, Antoine},
  title         = {Sharp capacity of linear associative memories},
  year          = {2026},
  eprint        = {2605.10795},
  archivePrefix = {arXiv},
  note          = {title and first author's given name not verified; see arXiv:2605.10795}
}"""

BOUNDS = [
    Bound(
        id="giorlandino2026.sharp",
        law=Law.parse("V*log(V) <= C*d**2", resource="d"),
        kind="scaling",
        directions={"d": "helps", "V": "hurts"},
        regime=Regime({"V": 1}, "V -> oo"),
        provenance="prior",
        citation=CITATION,
        task="linear-am",
        criterion="exact storage of all p = V associations by the optimal (decoupled) linear memory",
        settings={"method": "gd"},
        constants={"C": 0.5},
        description="sharp capacity of the linear associative memory: p log p / d^2 = 1/2",
        notes="The constant is for the optimal memory; gradient descent on cross-entropy is only a proxy "
              "for it, and the Hebbian memory needs d^2 ~ 10 V log V (hebbian).",
    ),
]
