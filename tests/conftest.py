"""Shared test configuration.

Hypothesis: when the ``CI`` environment variable is set, hypothesis loads its built-in
deterministic ``ci`` profile (derandomize, no deadline). Locally we register a ``dev``
profile without deadlines (SymPy's first-call caching makes timings erratic).
"""

import os

# Before numpy is imported: one BLAS thread (small products; see theorycheck/cli/main.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
if not os.environ.get("CI"):
    settings.load_profile("dev")
