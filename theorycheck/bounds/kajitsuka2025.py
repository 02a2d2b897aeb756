"""Kajitsuka and Sato (ICLR 2025), "On the Optimal Memorization Capacity of
Transformers", arXiv:2409.17677 -- docs/theory.md §5 (seed 004).

"Transformers can memorize labels with Õ(sqrt(N)) parameters in a next-token
prediction setting for N input sequences of length n, which is proved to be optimal up
to logarithmic factors"; in the sequence-to-sequence setting "Õ(sqrt(nN)) parameters
are not only sufficient, but also necessary at least for Transformers with hardmax".

Encoding: the resource is the parameter count ``P``. **Here ``N`` is the number of
memorised sequences**, not the training-set size of the retrieval task, and ``n`` is
their length. Polylog factors are unknown and omitted, so compare with Θ̃ only.
These are expressivity (construction) bounds, not learning results.
"""

from __future__ import annotations

from theorycheck.catalogue import Bound
from theorycheck.law import Law, Regime

CITATION = """@inproceedings{kajitsuka2025optimal,
  title     = {On the Optimal Memorization Capacity of Transformers},
  author    = {Kajitsuka, Tokio and Sato, Issei},
  booktitle = {International Conference on Learning Representations (ICLR)},
  year      = {2025},
  eprint    = {2409.17677},
  archivePrefix = {arXiv}
}"""

_CRITERION = "exact memorisation of all N labelled sequences (construction)"

BOUNDS = [
    Bound(
        id="kajitsuka2025",
        law=Law.parse("P >= C*sqrt(N)"),
        kind="scaling",
        directions={"P": "helps", "N": "hurts"},
        regime=Regime({"N": 1}, "N -> oo (number of sequences)"),
        provenance="prior",
        citation=CITATION,
        task=None,  # no memorisation simulator here: use `theorycheck fit` on your own data
        criterion=_CRITERION,
        settings={"setting": "next-token"},
        description="next-token memorisation of N sequences needs and suffices with ~sqrt(N) parameters (up to logs)",
        notes="N counts sequences here. Optimal up to log factors; no simulator in theorycheck (task=None).",
    ),
    Bound(
        id="kajitsuka2025.seq2seq",
        law=Law.parse("P >= C*sqrt(n*N)"),
        kind="scaling",
        directions={"P": "helps", "N": "hurts", "n": "hurts"},
        regime=Regime({"N": 1, "n": "1/2"}, "N = t sequences of length n = t^(1/2)"),
        provenance="prior",
        citation=CITATION,
        task=None,  # no memorisation simulator here: use `theorycheck fit` on your own data
        criterion=_CRITERION,
        settings={"setting": "sequence-to-sequence", "attention": "hardmax"},
        description="sequence-to-sequence memorisation: Theta~(sqrt(n N)) parameters (hardmax)",
        notes="Necessity shown for hardmax attention; N counts sequences, n is their length.",
    ),
]
