"""``"V,d,L,N; V,d,L,N"``: the points a bench script measures, as its command line gives them.

Shared by ``bench_gpu.py`` (``--cells``, ``--dense``), ``bench_layouts.py`` (``--size``), ``three_step_vs_limit.py``
(``--points``), ``mean_bias_first_step.py`` and ``softmax_leak.py`` (``--point``). Whole numbers, written as
integers or in exponent form (``1e6``).
"""

from __future__ import annotations

__all__ = ["parse_points"]


def _whole(text: str) -> int:
    value = float(text)
    if value != int(value) or value < 1:
        raise ValueError(text)
    return int(value)


def parse_points(text: str, option: str, allow_empty: bool = False) -> list[tuple[int, int, int, int]]:
    """``"V,d,L,N; V,d,L,N"`` -> ``[(V, d, L, N), ...]``; a ValueError naming ``option`` and the
    bad point, or an empty text unless ``allow_empty``."""
    points = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        try:
            point = tuple(_whole(f) for f in part.split(","))
        except ValueError:
            point = ()
        if len(point) != 4:
            raise ValueError(f"{option}: expected 'V,d,L,N' whole numbers >= 1 separated by ';', got {part!r}")
        points.append(point)
    if not points and not allow_empty:
        raise ValueError(f"{option}: no point given in {text!r}")
    return points
