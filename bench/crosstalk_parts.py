"""Hard attention's read-out at infinite ``N`` in parts: the signal, the cross-talk, the trigger's bias (prints figures)

With ``G₂`` at its expectation (``population_wall.readout_limit``; hard attention stores fact ``x_y``
with weight ``c_y``) and ``w̃`` the centred label embeddings, a query whose attended token is ``x`` (fact
``x → y*``) gives label ``y`` the logit

    u_yᵀ G₂ (e_x + [miv]·z_trig) = Σ_{y'} (u_yᵀ w̃_{y'}) c_{y'} e_{x_{y'}}ᵀ (e_x + [miv]·z_trig).

For a competitor ``y ≠ y*`` the key's part has three kinds of term: ``y' = y*`` (``u_yᵀ w̃_{y*}`` of size
``1/√d`` times ``e_xᵀ e_x ≈ 1``), variance ``1/d``; ``y' = y`` (``u_yᵀ w̃_y ≈ 1`` times ``e_{x_y}ᵀ e_x`` of
size ``1/√d``), variance ``1/d``; the ``V − 2`` others, ``1/d²`` each. The trigger's part ``b_y = u_yᵀ G₂
z_trig`` (the same for every query) has the ``y' = y`` term, ``ζ²/d``, and ``V − 1`` others, ``ζ²/d²`` each
(its ``ζ²`` part, ``Σ_{y'} w̃_{y'} c_{y'}``, cancels through the centred labels when the ``c`` are equal):

    var_c = (V + 2d − 2)/d²,    var_b = ζ²(V + d − 1)/d².

docs/theory.md §7.2's size ``√V/d`` keeps the ``V/d²`` parts only, and with it the wall moves as
``sqrt(1 + ζ²)``; near the walls ``d/V`` is not small (0.15 at 2048's 301, 0.50 at its ``ζ = 3`` wall). At a
fixed signal-to-noise ratio ``K_V`` (the signal stays near 1) the wall solves

    d² = K_V²((1 + ζ²)V + (2 + ζ²)d),    K_V² = d_ref²/(V + 2 d_ref),

``d_ref`` the wall without the trigger in the value; ``sqrt(1 + ζ²)·d_ref`` is its ``d ≪ V`` limit.
Docs: docs/theory.md §7.12, "Why ζ = 2 missed: the cross-talk's 1/d terms".

Example: ``python bench/crosstalk_parts.py --point 2048,697,16,2000000 --zeta 2 --d 697 --seeds 4 --seed 13680
--d-ref 301.2`` (15 s on 2 cores; ``d`` of ``--point`` is replaced by the grid's).
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread in each of the count path's threads

import numpy as np  # noqa: E402

from leak_wall import read_grid
from points import parse_points
from population_wall import readout_limit
from readout_parts import attended_parts, crosstalk_variances, label_rows, parts_accuracy
from softmax_leak import add_trial_options, append_line
from theorycheck.tasks.retrieval import RetrievalParams


def wall_root(k2: float, V: int, s: float) -> float:
    """The wall at a fixed signal-to-noise ratio ``K``: the positive root of ``d² = K²(sV + (s + 1)d)``, with
    ``s = 1 + ζ²`` when the trigger is in the value and 1 when it is out (the module docstring)."""
    a = k2 * (s + 1.0)
    return (a + math.sqrt(a * a + 4.0 * k2 * s * V)) / 2.0


def implied_k2(d: float, V: int, s: float = 1.0) -> float:
    """``K² = d²/(sV + (s + 1)d)``: the ratio a wall ``d`` implies, :func:`wall_root` inverted."""
    return d**2 / (s * V + (s + 1.0) * d)


def wall_with_trigger(d_ref: float, V: int, zeta: float) -> float:
    """The wall with the trigger in the value at ``zeta``: :func:`wall_root` at ``s = 1 + ζ²`` with ``K²`` fixed by
    ``d_ref``, the wall without it (:func:`implied_k2` at ``s = 1``)."""
    return wall_root(implied_k2(d_ref, V), V, 1.0 + zeta**2)


def logit_parts(params: RetrievalParams, seed: int) -> dict[str, float]:
    """One seed's read-out at infinite ``N`` (hard attention; ``g``, ``α`` from its fit at ``params.N``) in
    parts, over the queries whose informative position is attended: ``var_c``, each query's variance of
    the key's part over its competitors (averaged); ``var_b``, the trigger's bias's variance over labels
    (0 with the trigger out of the value); ``b_spread``, :func:`bias_spread`; ``signal``, the target's key part
    above its competitors' mean; ``accuracy`` (every query)."""
    limit, test = readout_limit(params, math.inf, seed)
    parts = attended_parts(limit, test)
    C, b, selected = parts.C, parts.b, parts.selected
    accuracy = parts_accuracy(C, b, selected, test.labels)
    rows = np.flatnonzero(selected)
    target = C[rows, test.labels[rows]]
    others = (C[rows].sum(axis=1) - target) / (params.V - 1)
    var_c = ((C[rows] ** 2).sum(axis=1) - target**2) / (params.V - 1) - others**2
    return {"var_c": float(var_c.mean()), "var_b": float(b.var()), "b_spread": bias_spread(limit),
            "signal": float(np.mean(target - others)), "accuracy": accuracy}


def bias_spread(limit) -> float:
    """The relative standard deviation of ``var_b`` over the direction of ``z_trig`` (0 with the trigger out of
    the value path). ``b = U G₂ z_trig`` reads one direction: ``var_b = zᵀ A z``, ``A = M_cᵀ M_c / V`` (``M_c`` the
    rows ``u_yᵀ G₂`` centred over the labels), and for ``z`` uniform on the sphere of radius ``ζ``
    ``Var(zᵀAz)/E(zᵀAz)² = 2(d·tr(A²)/tr(A)² − 1)/(d + 2)`` (free of ``A``'s scale, so ``1/V`` is dropped): the
    spread between seeds that ``var_c``, an average over every query's key, does not have."""
    if not limit.params.marker_in_value:
        return 0.0
    M = label_rows(limit)
    M -= M.mean(axis=0)
    A = M.T @ M
    d = A.shape[0]
    return math.sqrt(2.0 * (d * np.sum(A * A) / np.trace(A) ** 2 - 1.0) / (d + 2))


def add_point_options(p: argparse.ArgumentParser) -> None:
    """``--point V,d,L,N`` and ``--d``, the grid of ``d`` that replaces the point's (this script's and
    ``bias_modes.py``'s)."""
    p.add_argument("--point", required=True, metavar="V,d,L,N", help="d is replaced by the grid's")
    p.add_argument("--d", required=True, help="the d to read, comma-separated, increasing")


def read_point(args) -> tuple[int, int, int, list[int]]:
    """``(V, L, N, ds)`` from :func:`add_point_options`' options (a ValueError naming a bad one)."""
    [(V, _, L, N)] = parse_points(args.point, "--point")
    return V, L, N, read_grid(args.d, least=1)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_point_options(p)
    p.add_argument("--marker-in-value", choices=("true", "false"), default="true",
                   help="whether the trigger is in the value path (docs/theory.md §1)")
    p.add_argument("--d-ref", type=float, default=None, help="the wall without the trigger in the value, for the "
                   "model's wall at --point's V and --zeta")
    add_trial_options(p)
    args = p.parse_args(argv)
    try:  # every input checked before any trial: a one-line usage error, exit 2
        V, L, N, ds = read_point(args)
        if args.zeta < 0 or args.seeds < 1 or (args.d_ref is not None and not args.d_ref > 0):
            raise ValueError(f"need --zeta >= 0, --seeds >= 1 and --d-ref > 0; got {args.zeta}, {args.seeds}, "
                             f"{args.d_ref}")
        cells = [RetrievalParams(V=V, d=d, L=L, N=N, zeta=args.zeta, marker_in_value=args.marker_in_value == "true")
                 for d in ds]
    except ValueError as err:
        p.error(str(err))
    seeds = range(args.seed, args.seed + args.seeds)
    print(f"{'V':>5} {'d':>5} {'seed':>6}  var_c·d² (formula)  var_b·d² (formula)  b spread  signal  accuracy  "
          f"(zeta {args.zeta}, trigger in value {args.marker_in_value})")
    for params in cells:
        zeta = args.zeta if params.marker_in_value else 0.0
        want_c, want_b = crosstalk_variances(params.V, params.d, zeta)
        for seed in seeds:
            got = logit_parts(params, seed)
            d2 = params.d**2
            print(f"{params.V:>5} {params.d:>5} {seed:>6}  {got['var_c'] * d2:>8.1f} ({want_c * d2:>7.1f})  "
                  f"{got['var_b'] * d2:>8.1f} ({want_b * d2:>7.1f})  {got['b_spread']:>8.4f}  {got['signal']:.4f}  "
                  f"{got['accuracy']:.4f}")
            append_line(args.json, {"V": params.V, "d": params.d, "L": params.L, "N": params.N, "zeta": args.zeta,
                                    "marker_in_value": params.marker_in_value, "seed": seed, **got})
    if args.d_ref is not None:
        print(f"wall with the trigger at zeta {args.zeta} from d_ref {args.d_ref}: "
              f"{wall_with_trigger(args.d_ref, V, args.zeta):.1f} (sqrt(1 + zeta²)·d_ref "
              f"{args.d_ref * math.sqrt(1 + args.zeta**2):.1f})")


if __name__ == "__main__":
    main()
