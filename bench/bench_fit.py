"""How long does ``theorycheck fit`` take on the documented fits of ``bench/data``? (prints figures,
asserts nothing)

    python bench/bench_fit.py                    # every fit of bench/fit_stability.py, once each
    python bench/bench_fit.py --only _512_       # those whose CSV name contains this

Each fit runs in this process (``theorycheck.cli.main.main([... "--json"])``, output discarded),
after one untimed fit that pays for the imports; the figure is its wall time. Run it alone:
another job on the cores moves every figure.

Measured 2026-12-06 (one thread, the machine otherwise idle): **86.2 s** for the 126 fits (0.68 s a
fit) at ca709f7, **44.5 s** (0.35 s a fit) after a28ac42, with the same output to the last byte.
A law fit evaluates one law at the same cells thousands of times (each L-BFGS-B run asks for
the likelihood's gradient hundreds of times); each call validated the cells again, checked the
law's assumptions again and went through ``scipy.stats``' argument handling for a normal
log-density, and every cell's threshold ran one Fisher exact test per pair of its points. Now
the cells are validated once (:meth:`theorycheck.law.Law.at_values`), the log-density is
written as ``scipy.stats`` computes it (``theorycheck.threshold.likelihood.log_phi``), and the
Fisher tests take one call of the hypergeometric tail
(``theorycheck.threshold.isotonic.monotonicity_violation``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fit_stability import DATA, FITS  # noqa: E402

from theorycheck.cli.main import main as cli  # noqa: E402


def run(name: str, rest: str) -> float:
    """Wall seconds of one documented fit, its output discarded."""
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli(["fit", os.path.join(DATA, name), *shlex.split(rest), "--json"])
    if code not in (0, 1, 3):
        raise SystemExit(f"theorycheck fit {name} {rest} failed (exit {code})")
    return time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="run the fits whose CSV name contains this")
    args = ap.parse_args(argv)
    chosen = [(name, rest) for name, _, rest in FITS if args.only in name]
    if not chosen:
        ap.error(f"--only {args.only!r} matches none of the {len(FITS)} documented fits")
    run(*chosen[0])  # imports, lambdified laws' first builds elsewhere: not the fits' own time
    total = 0.0
    for name, rest in chosen:
        seconds = run(name, rest)
        total += seconds
        print(f"{seconds:7.2f} s  {name} {rest}", flush=True)
    print(f"{total:.1f} s for {len(chosen)} fits ({total / len(chosen):.2f} s a fit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
