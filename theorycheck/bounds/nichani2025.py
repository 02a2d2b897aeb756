"""Nichani, Lee, Bietti (ICLR 2025), "Understanding Factual Recall in Transformers via
Associative Memories", arXiv:2412.06538 -- docs/theory.md §5 (prior results, controls).

* ``linear_am``: a trained linear associative memory (``d x d`` matrix, random
  embeddings) stores ``V`` facts when ``d**2 >~ V log V``; their code's fit at 99%
  accuracy is ``d**2 ~ 1.3 V log V`` (docs/theory.md §5.5, [C]).
* ``mlp_am``: an MLP memory of width ``m`` stores ``V`` facts when ``m d >~ V log V``
  (storage linear in the parameter count, up to logs; exact form from memory, [M]).
"""

from __future__ import annotations

from theorycheck.catalogue import Bound
from theorycheck.law import Law, Regime

CITATION = """@inproceedings{nichani2025factual,
  title     = {Understanding Factual Recall in Transformers via Associative Memories},
  author    = {Nichani, Eshaan and Lee, Jason D. and Bietti, Alberto},
  booktitle = {International Conference on Learning Representations (ICLR)},
  year      = {2025},
  eprint    = {2412.06538},
  archivePrefix = {arXiv}
}"""

BOUNDS = [
    Bound(
        id="nichani2025.linear_am",
        law=Law.parse("d**2 >= C*V*log(V)", resource="d"),
        kind="upper",
        directions={"d": "helps", "V": "hurts"},
        regime=Regime({"V": 1}, "V -> oo"),
        provenance="prior",
        citation=CITATION,
        task="linear-am",
        criterion="recall accuracy >= 0.99 over the V stored facts (their criterion)",
        settings={"method": "gd"},
        constants={"C": 1.3},
        description="trained linear associative memory stores V facts when d^2 >~ V log V",
        notes="C ~ 1.3 is the fit at 99% accuracy in the authors' code (Adam, lr 1000); "
              "the theorem holds up to polylog factors.",
    ),
    Bound(
        id="nichani2025.mlp_am",
        law=Law.parse("m*d >= C*V*log(V)", resource="m"),
        kind="upper",
        directions={"m": "helps", "d": "helps", "V": "hurts"},
        regime=Regime({"V": 1, "d": "1/2"}, "V = t, d = t^(1/2)"),
        provenance="prior",
        citation=CITATION,
        task=None,  # no MLP-memory simulator here: use `theorycheck fit` on your own data
        criterion="recall accuracy >= 0.99 over the V stored facts (their criterion)",
        description="MLP associative memory of width m stores V facts when m d >~ V log V",
        notes="No simulator for the MLP memory in theorycheck (task=None); the log power is not verified.",
    ),
]
