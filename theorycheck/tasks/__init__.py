"""Tasks of theorycheck: the token-retrieval task (docs/theory.md §1), the linear
associative memory control (docs/theory.md §5, ``linear-am``) and hard attention's read-out
at infinite ``N``, whose threshold is a wall in ``d`` (docs/theory.md §1, ``readout-wall``)."""

from theorycheck.tasks.retrieval import (
    Batch,
    Embeddings,
    RetrievalParams,
    iter_chunks,
    keys_values,
    make_embeddings,
    sample_batch,
    test_batch,
)

__all__ = [
    "Batch",
    "Embeddings",
    "RetrievalParams",
    "iter_chunks",
    "keys_values",
    "make_embeddings",
    "sample_batch",
    "test_batch",
]
