"""Where the trigger's mean bias goes as the first value step grows (prints figures).

With the trigger in the value path (``marker_in_value=True``) the attended vector at test
is ``e_x + z_trig`` (hard attention on the informative token), so the trained value matrix
``W`` gives every label the same extra logit ``b_y = u_yᵀ W z_trig`` whatever the token:
the mean bias of docs/theory.md §7.4.  The finite-step algorithm (§3.1) has ``W = W_V² =
ηG₁ − γ'∇_{W_V}L̂(W_V¹, W_KQ¹)``; its bias splits into the first step's ``b¹ = η·Uᵀ G₁ z_trig``
(``W_V¹ = ηG₁`` exactly, §3.1) and the third step's ``b³ = b − b¹``.  For each seed and each
``η`` (``γ'`` fixed) on the same draws (:func:`theorycheck.simulate.trial_draws`) this prints

* ``acc``: the test recall accuracy of the trial (what a threshold search scores);
* ``facts`` and ``facts-b``: the fraction of the ``V`` facts recalled by ``argmax_y(T_yx +
  b_y)`` and by ``argmax_y T_yx`` (``T = U W Eᵀ``, the token's part of the logits): with
  hard attention, what the bias costs;
* ``|b|/s``, ``|b1|/s``, ``|b3|/s``: the spread (standard deviation over ``y``) of ``b``,
  ``b¹``, ``b³``, each over the mean signal ``s = mean_x(T_{Π(x),x} − mean_y T_yx)``;
* ``corr(b3, b3_ref)``: the correlation over ``y`` of ``b³`` with the third step's bias at
  the first ``η`` listed (give ``η = 1``, where ``W_V² ≈`` the limit's ``γ'G₂``): whether a
  larger first step shrinks the step-3 bias in place or turns it round;
* ``corr(b3, marg)``: its correlation with the training labels' marginal seen through the
  label embeddings, ``m_y = u_yᵀ Σ_z u_z (n_z/N − 1/V)`` (``n_z`` the count of label ``z``
  among the ``N`` training sequences): the direction in which the trigger, present in every
  sequence, carries the label frequencies into the logits.

``--limit`` adds the early-phase limit's row (``η → 0``: ``W = G₂``, reported as ``eta 0``).

``--lean`` prints instead, without the three steps (seconds a seed), how far the model after
step 1 already leans towards the training labels' marginal where the third step's gradient is
taken: ``λ = ⟨p̄ − 1/V, f − 1/V⟩ / |f − 1/V|²``, ``f`` the label frequencies and ``p̄`` the mean
over the training sequences of ``softmax(U W_V¹ (e_x + z_trig))``, the output at ``W_V¹ = ηG₁``
with step 3's attention taken hard (``x`` the informative token); and the same in the
embedding space, ``λ_U = ⟨Uᵀ(p̄ − 1/V), Uᵀ(f − 1/V)⟩ / |Uᵀ(f − 1/V)|²`` (``Uᵀ`` sums ``u_y`` with
those weights).  The step-3 gradient's trigger column, the ``d``-vector ``W z_trig`` reads,
is ``ζ²·Uᵀ(f − p̄)`` plus overlap terms, so its marginal part is ``(1 − λ_U)`` of the limit's: at
``λ_U = 1`` it is gone and beyond it is turned round.  Each ``--lean`` row also gives the
first-order predictor ``η·a·(1/d + 1/V)`` of ``λ_U`` and the parts of ``a`` that set it by seed
(:func:`marginal_overlap`); ``--lean --probe ROWS`` takes each run of a probe's rows file (a line
script's, one seed a row) at its own point and seed and prints its lean beside its outcome; a
rerun with the same ``--csv`` reads the runs already there back and computes only the new ones.

    OPENBLAS_NUM_THREADS=1 python bench/mean_bias_first_step.py --point 2048,512,64,63000 \\
        --beta 10 --zeta 0.5 --eta 1,10000,30000,100000,300000 --seeds 2 --seed 300 \\
        --limit --workers 2

bench/data/README.md says which command wrote each of its data files and when.  The reading is in
docs/theory.md §7.12.
"""

from __future__ import annotations

import argparse
import csv
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

import numpy as np

from finite_step_args import add_step_arguments, append_rows, parse_etas, points_and_etas, stored_rows
from theorycheck.algorithms.limit import run_limit
from theorycheck.algorithms.three_step import run_three_step
from theorycheck.models.attention import softmax_rows
from theorycheck.simulate import trial_draws
from theorycheck.tasks.retrieval import RetrievalParams, iter_chunks


def training_frequencies(params: RetrievalParams, emb, train_seed,
                         tokens: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """``(f, t)``: ``f_y = n_y/N`` over the training labels and ``t_x`` the share of token
    ``x`` among the ``N·L`` training positions (the same data every algorithm reads,
    :func:`theorycheck.tasks.retrieval.iter_chunks`); ``t`` is ``None`` with ``tokens=False``
    (the labels alone, without a pass over the ``N·L`` tokens)."""
    labels, counts = np.zeros(params.V), np.zeros(params.V) if tokens else None
    for batch in iter_chunks(params, emb, train_seed, params.N, 65536):
        labels += np.bincount(batch.labels, minlength=params.V)
        if tokens:
            counts += np.bincount(batch.tokens.ravel(), minlength=params.V)
    return labels / params.N, counts / (params.N * params.L) if tokens else None


def marginal_overlap(emb, freq: np.ndarray, token_freq: np.ndarray, L: int) -> tuple[float, float]:
    """``(a, ē·z_trig)``: the first-order predictor of the lean, ``λ_U ≈ η·a·(1/d + 1/V)``.

    To first order in ``η``, ``p̄ − 1/V ≈ (η/V)·C U G₁(e_f + z_trig)`` (``C`` the centring,
    ``e_f = Σ_x f_{Π(x)} e_x`` the informative tokens' mean), and ``G₁(e_f + z_trig) =
    (1/N) Σ_n w_{y_n} ō_nᵀ(e_f + z_trig)`` carries the labels' marginal ``w̄ = Uᵀ(f − 1/V)``
    with the weight ``a = ō̄ᵀ(e_f + z_trig)``, ``ō̄ = ē + z_trig/L`` the mean attended vector
    at uniform attention (``ē = Σ_x t_x e_x``, the training tokens' mean).  For random label
    embeddings of variance ``1/d``, ``UᵀU ≈ (V/d)·I`` but ``w̄ = Uᵀ(f − 1/V)`` leans towards
    its large eigendirections: ``|CUw̄|²/|w̄|² ≈ E[(UᵀU)²]/E[UᵀU] = (V/d)(1 + d/V)``, so
    ``λ_U ≈ η·a·(1/d + 1/V)``.  The terms of ``a``: the trigger's own ``ζ²/L``, the mean
    token's overlap with the trigger ``ē·z_trig`` (about ``±ζ/√(V d)``, its sign set by the
    seed's embeddings), and ``ē·e_f ≈ 1/V`` (docs/theory.md §7.12)."""
    mean_token = token_freq @ emb.E
    overlap = (mean_token + emb.z_trig / L) @ (freq[emb.perm] @ emb.E + emb.z_trig)
    return float(overlap), float(mean_token @ emb.z_trig)


def first_step_lean(emb, G1: np.ndarray, freq: np.ndarray, eta: float) -> tuple[float, float]:
    """``(λ, λ_U)`` of ``--lean``: ``p̄ = Σ_x f_{Π(x)} softmax(η U G₁ (e_x + z_trig))`` (the
    label of a sequence is that of its informative token, so token ``x`` is informative in
    a fraction ``f_{Π(x)}`` of them)."""
    p = softmax_rows(eta * (emb.E + emb.z_trig) @ (emb.U @ G1).T)  # [x, y]
    centred = freq - 1.0 / len(freq)
    lean = freq[emb.perm] @ p - 1.0 / len(freq)
    embedded, lean_embedded = emb.U.T @ centred, emb.U.T @ lean
    return (float(lean @ centred / (centred @ centred)),
            float(lean_embedded @ embedded / (embedded @ embedded)))


def bias_figures(emb, w: np.ndarray, w1: np.ndarray) -> dict:
    """The figures above for one value matrix ``w`` (``d×d``, logits ``U w o``) whose first
    step is ``w1``; ``b3`` is returned for the correlations."""
    T = emb.U @ w @ emb.E.T                      # T[y, x] = u_yᵀ W e_x
    b = emb.U @ (w @ emb.z_trig)
    b1 = emb.U @ (w1 @ emb.z_trig)
    facts = np.arange(len(emb.perm))
    signal = float(np.mean(T[emb.perm, facts] - T.mean(axis=0)))
    return {
        "facts": float(np.mean(np.argmax(T + b[:, None], axis=0) == emb.perm)),
        "facts_unbiased": float(np.mean(np.argmax(T, axis=0) == emb.perm)),
        "bias_spread": float(np.std(b) / signal),
        "bias_spread_step1": float(np.std(b1) / signal),
        "bias_spread_step3": float(np.std(b - b1) / signal),
    }, b - b1


class SeedJob(NamedTuple):
    """One seed's work: the point, ``β``, the first steps ``η``, ``γ'``, ``ζ``, whether to add
    the limit's row (three-step figures only) and the seed."""
    point: tuple[int, int, int, int]
    beta: float
    etas: list[float]
    gamma_prime: float | None
    zeta: float
    with_limit: bool
    seed: int


def one_seed(job: SeedJob) -> list[dict]:
    """Every ``η`` (and the limit) on one seed's draws."""
    (V, d, L, N), beta, etas, gamma_prime, zeta, with_limit, seed = job
    params = RetrievalParams(V=V, d=d, L=L, N=N, zeta=zeta, marker_in_value=True)
    emb, train_seed, test = trial_draws(params, seed)
    limit = run_limit(params, emb, train_seed, beta=beta)
    marginal = emb.U @ (emb.U.T @ (training_frequencies(params, emb, train_seed, tokens=False)[0] - 1.0 / V))
    base = {"V": V, "d": d, "L": L, "N": N, "zeta": zeta, "beta": beta, "gamma_prime": gamma_prime, "seed": seed}
    runs = []  # (η, γ', the fit, its W, its first step W_V¹)
    for eta in etas:
        fit = run_three_step(params, emb, train_seed, eta=eta, beta=beta, gamma_prime=gamma_prime)
        runs.append((eta, gamma_prime, fit, np.asarray(fit.w_v), eta * limit.G1))
    if with_limit:  # the limit's W is G₂, with no first step in it
        runs.append((0.0, float("inf"), limit, limit.G2, np.zeros_like(limit.G1)))
    rows, reference = [], None
    for eta, step3, fit, w, w1 in runs:
        figures, b3 = bias_figures(emb, w, w1)
        reference = b3 if reference is None else reference
        rows.append({**base, "eta": eta, "gamma_prime": step3,
                     "accuracy": float(np.mean(fit.predict(test)[0] == test.labels)),
                     **figures, "corr_step3_ref": float(np.corrcoef(b3, reference)[0, 1]),
                     "corr_step3_marginal": float(np.corrcoef(b3, marginal)[0, 1])})
    return rows


def lean_of_seed(job: SeedJob) -> list[dict]:
    """``λ`` at every ``η`` on one seed's draws (``--lean``), with the first-order predictor
    ``η·a·(1/d + 1/V)`` of ``λ_U`` and the parts of ``a`` (:func:`marginal_overlap`)."""
    (V, d, L, N), beta, etas, _, zeta, _, seed = job
    params = RetrievalParams(V=V, d=d, L=L, N=N, zeta=zeta, marker_in_value=True)
    emb, train_seed, _ = trial_draws(params, seed)
    G1 = run_limit(params, emb, train_seed, beta=beta).G1
    freq, token_freq = training_frequencies(params, emb, train_seed)
    overlap, mean_token_trigger = marginal_overlap(emb, freq, token_freq, L)
    return [{"V": V, "d": d, "L": L, "N": N, "zeta": zeta, "seed": seed, "eta": eta,
             **dict(zip(("lean", "lean_embedded"), first_step_lean(emb, G1, freq, eta))),
             "lean_embedded_predicted": eta * overlap * (1.0 / d + 1.0 / V), "overlap": overlap,
             "mean_token_trigger": mean_token_trigger} for eta in etas]


LEAN_KEY = ("V", "d", "L", "N", "zeta", "seed", "eta")  # where a ``--lean`` row belongs; a rerun skips those stored


def lean_key(job: SeedJob, eta: float) -> tuple:
    return (*job.point, job.zeta, job.seed, eta)


def probe_jobs(path: str, etas: list[float]) -> tuple[list[SeedJob], list[dict]]:
    """``--probe``: one ``--lean`` job per run of a probe's rows (a line script's rows file,
    one seed per row, trigger in the value path), each at its own ``(V, d, L, N)``, ``β``,
    ``ζ`` and seed, and the run's outcome (``successes``, ``trials``) for its rows."""
    try:
        with open(path, newline="") as fh:
            runs = list(csv.DictReader(fh))
        jobs = [SeedJob((int(r["V"]), int(r["d"]), int(r["L"]), int(r["N"])), float(r["beta"]), etas, None,
                        float(r["zeta"]), False, int(r["seeds"])) for r in runs]
        outcomes = [{"successes": int(r["successes"]), "trials": int(r["trials"])} for r in runs]
    except (OSError, KeyError, TypeError, ValueError) as err:
        raise ValueError(f"--probe: cannot read one run per row (V, d, L, N, beta, zeta, seeds, successes, "
                         f"trials) from {path!r}: {err}; give a line script's rows file") from None
    if not runs or any(r.get("marker_in_value", "true").lower() != "true" for r in runs):
        raise ValueError(f"--probe: {path!r} has no runs, or runs with the trigger out of the value path "
                         "(marker_in_value false), where there is no mean bias to lean against")
    return jobs, outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--point", help="'V,d,L,N'")
    where.add_argument("--probe", metavar="ROWS", help="with --lean: the lean of every run in a probe's rows file, "
                       "at its own point and seed, beside its outcome")
    ap.add_argument("--limit", action="store_true", help="add the early-phase limit's row (eta 0)")
    ap.add_argument("--lean", action="store_true",
                    help="print only the first step's lean towards the label marginal (no three steps)")
    add_step_arguments(ap, beta=10.0, zeta=0.5, eta="1,10000,30000,100000,300000", seeds=2, seed=300,
                       eta_help="comma-separated first value steps; the first is the reference (default from 1)")
    args = ap.parse_args(argv)
    if args.probe is not None:
        if not args.lean:
            ap.error("--probe measures the lean of a probe's runs: add --lean")
        try:
            jobs, outcomes = probe_jobs(args.probe, parse_etas(args.eta))
        except ValueError as err:
            ap.error(str(err))
    else:
        points, etas = points_and_etas(ap, args, "--point")
        if len(points) != 1:
            ap.error(f"--point takes one 'V,d,L,N', got {len(points)}; run the script once per point")
        jobs = [SeedJob(points[0], args.beta, etas, args.gamma_prime, args.zeta, args.limit, args.seed + k)
                for k in range(args.seeds)]
        outcomes = [{}] * len(jobs)
    try:
        stored = stored_rows(args.csv, LEAN_KEY) if args.lean else {}
    except ValueError as err:
        ap.error(f"--csv: {err}")
    todo = [k for k, job in enumerate(jobs) if not all(lean_key(job, eta) in stored for eta in job.etas)]
    with ProcessPoolExecutor(args.workers) as pool:
        computed = dict(zip(todo, pool.map(lean_of_seed if args.lean else one_seed, [jobs[k] for k in todo])))
    new = [{**row, **outcomes[k]} for k in todo for row in computed[k]]
    rows = [{**row, **outcomes[k]} for k, job in enumerate(jobs)
            for row in (computed[k] if k in computed else [stored[lean_key(job, eta)] for eta in job.etas])]
    if args.lean:
        print("N        seed   eta       lean     lean_U   predicted  a          e_bar.z_trig  outcome")
        print("\n".join(f"{r['N']:<8} {r['seed']:<6} {r['eta']:<9g} {r['lean']:<8.4f} {r['lean_embedded']:<8.4f} "
                        f"{r['lean_embedded_predicted']:<10.4f} {r['overlap']:<+10.3e} {r['mean_token_trigger']:<+13.3e}"
                        + (f" {r['successes']}/{r['trials']}" if "trials" in r else "") for r in rows))
        if len(todo) < len(jobs):
            print(f"{len(jobs) - len(todo)} of {len(jobs)} seeds read from {args.csv} (computed before); "
                  f"{len(todo)} computed now")
        append_rows(args.csv, new)
        return 0
    print("seed   eta       acc      facts    facts-b  |b|/s    |b1|/s   |b3|/s   corr(b3, b3_ref)  corr(b3, marg)")
    for r in rows:
        print(f"{r['seed']:<6} {r['eta']:<9g} {r['accuracy']:<8.4f} {r['facts']:<8.4f} "
              f"{r['facts_unbiased']:<8.4f} {r['bias_spread']:<8.4f} {r['bias_spread_step1']:<8.4f} "
              f"{r['bias_spread_step3']:<8.4f} {r['corr_step3_ref']:<+17.3f} {r['corr_step3_marginal']:+.3f}")
    append_rows(args.csv, new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
