"""Shared test configuration.

Hypothesis: when the ``CI`` environment variable is set, hypothesis loads its built-in
deterministic ``ci`` profile (derandomize, no deadline). Locally we register a ``dev``
profile without deadlines (SymPy's first-call caching makes timings erratic).
"""

import importlib
import os
from pathlib import Path

# Before numpy is imported: one BLAS thread (small products; see theorycheck/cli/main.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
if not os.environ.get("CI"):
    settings.load_profile("dev")


@pytest.fixture
def bench_script(monkeypatch):
    """``bench_script(name)``: the module of ``bench/<name>.py``, with bench/ on ``sys.path`` for the
    test (so a script's own ``from command_list import ...`` resolves)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench"))
    return importlib.import_module


@pytest.fixture
def bench_usage_error(bench_script, capsys):
    """``bench_usage_error(name, argv)``: runs ``bench/<name>.py``'s ``main(argv)``, checks it stopped as a
    usage error (exit 2, nothing on stdout, no traceback) and returns the last line it wrote on stderr."""
    def run(name, argv):
        with pytest.raises(SystemExit) as stop:
            bench_script(name).main(argv)
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and out == "" and "Traceback" not in err
        return err.strip().splitlines()[-1]
    return run
