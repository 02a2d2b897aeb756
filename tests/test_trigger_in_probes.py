"""bench/trigger_in_probes.py: the one table of the trigger-in finite-step probes (docs/theory.md §7.12)
is the published rows' own numbers, and it leaves no probe out."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
START, END = "<!-- trigger-in probes table: python bench/trigger_in_probes.py --markdown -->", "<!-- end of table -->"


@pytest.fixture(scope="module")
def script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("trigger_in_probes", BENCH / "trigger_in_probes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rows(script):
    return script.table()


def test_the_docs_table_is_the_scripts_output(script, rows):
    """docs/theory.md prints the table between two markers; it must be what the script computes from
    the rows files now (a probe rerun or a file edited without the table changes fails here)."""
    text = (ROOT / "docs" / "theory.md").read_text(encoding="utf-8")
    assert text.count(START) == 1 and text.count(END) >= 1, "the table's markers in docs/theory.md"
    published = text.split(START, 1)[1].split(END, 1)[0].strip().splitlines()
    assert published == script.markdown(rows)


def test_every_probe_file_is_in_the_table(script):
    """Each trigger-in probe's rows in bench/data (``three_step_eta*_trigger_in_L*_probe_*.csv`` at
    ``V = 4096``) has its row: a new probe cannot be published beside the table and missed by it."""
    on_disk = {p.name for p in (BENCH / "data").glob("three_step_eta*_beta10_zeta05_trigger_in_L*_probe_4096*.csv")}
    assert on_disk == {p.rows for p in script.PROBES}


def test_the_rows_match_the_numbers_quoted_across_the_docs(rows):
    """Spot checks against figures docs/theory.md quotes in its text (each from ``theorycheck fit`` on the
    probe's rows when it was published; 3 significant figures): the cell's GLM where the cell has a
    transition of its own, the shared-width probit where it is a bare bracket (L = 64 at eta/gamma' = 30)."""
    by = {(r.probe.V, r.probe.d, r.probe.L, r.probe.eta): r for r in rows}
    for key, estimate, low, high in (((4096, 1024, 64, 3e5), 7.75e4, 7.56e4, 7.95e4),
                                     ((4096, 1024, 128, 1e6), 1.71e5, 1.57e5, 1.93e5),
                                     ((4096, 1024, 256, 1.6e6), 1.97e5, 1.88e5, 2.32e5)):
        r = by[key]
        assert (float(f"{r.estimate:.3g}"), float(f"{r.ci[0]:.3g}"), float(f"{r.ci[1]:.3g}")) == (estimate, low, high)


def test_each_ratio_is_the_probes_threshold_over_the_limits_at_its_own_cell(rows):
    """The ratio column divides by the limit's threshold at the probe's own ``(V, d, L)``, and the limit
    there is the one docs/theory.md quotes (1.50e5, 1.51e5, 1.53e5 at L 64, 128, 256)."""
    limits = {r.probe.L: r.limit for r in rows if (r.probe.V, r.probe.d) == (4096, 1024)}
    assert {L: float(f"{x:.3g}") for L, x in limits.items()} == {64: 1.5e5, 128: 1.51e5, 256: 1.53e5}
    for r in rows:
        est, lo, hi = r.ratio
        assert lo <= est <= hi and est == pytest.approx(r.estimate / r.limit, rel=1e-12)


def test_a_leans_file_with_a_run_twice_is_refused(script, monkeypatch, tmp_path):
    """Each probe's leans are its runs' one for one: ``--lean --probe --csv`` appends, so a second
    pass over an existing file doubles rows (it happened, 2026-12-03) and would bias the mean lean.
    The table refuses such a file, naming it."""
    probe = script.PROBES[-1]
    text = (BENCH / "data" / probe.leans).read_text(encoding="utf-8").splitlines()
    (tmp_path / probe.leans).write_text("\n".join(text + text[1:3]) + "\n", encoding="utf-8")
    for name in {n for p in script.PROBES for n in (p.rows, p.leans)} | {n for v in script.LIMITS.values() for n in v}:
        if name != probe.leans:
            (tmp_path / name).write_text((BENCH / "data" / name).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(script, "DATA", tmp_path)
    with pytest.raises(ValueError, match=probe.leans):
        script.table()
