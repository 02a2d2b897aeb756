"""The canonical scaling variables, declared once, every one positive.

SymPy's parser turns ``N``, ``E``, ``S``, ``O``, ``I``, ``Q``, ``beta``, ``gamma``
into its own objects (``N`` is ``evalf``), and a string round-trip makes fresh
symbols without assumptions (``sympify("d**2") != d**2`` when ``d`` is positive).
Every law in theorycheck is therefore built from the symbols below, or from
:func:`symbol`, which returns the same positive symbol for a name every time.

Variables of the token-retrieval task (docs/theory.md §1-2):

=======  ==========================================================
``N``    number of training sequences (sample size)
``d``    embedding dimension
``L``    sequence length
``V``    vocabulary size = number of token-label facts
``m``    MLP width (attention-MLP model)
``zeta`` norm of the trigger embedding ``z_trig``
=======  ==========================================================
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy as sp

from theorycheck.registry import LazyNames, variable_names

__all__ = ["N", "d", "L", "V", "m", "zeta", "symbol", "VARIABLES", "is_constant_name"]

_REGISTRY: dict[str, sp.Symbol] = {}


def symbol(name: str) -> sp.Symbol:
    """Return the positive symbol called ``name`` (the same object on every call).

    >>> symbol("d") is symbol("d")
    True
    """
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(
            f"invalid symbol name {name!r}: use a Python identifier such as 'd', 'C3' or 'zeta'"
        )
    sym = _REGISTRY.get(name)
    if sym is None:
        sym = sp.Symbol(name, positive=True)
        _REGISTRY[name] = sym
    return sym


N = symbol("N")
d = symbol("d")
L = symbol("L")
V = symbol("V")
m = symbol("m")
zeta = symbol("zeta")


#: Names of the variables of every registered task (:func:`theorycheck.registry.variable_names`),
#: looked up when read.
VARIABLES: Sequence[str] = LazyNames(variable_names)

_CONSTANT = re.compile(r"^(C\w*|c\d*|K\d*|A|B)$")


def is_constant_name(name: str) -> bool:
    """Default rule for free constants: ``C``, ``C0``..``C9``, ``C_x``, ``c1``, ``K1``, ``A``, ``B``.

    Free constants are fitted by the comparator; everything else is a variable.
    """
    return bool(_CONSTANT.match(name))
