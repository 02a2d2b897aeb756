"""Laws: threshold conditions over positive symbols, their exponents and relations.

>>> from theorycheck.law import Law, Regime, relation
>>> law = Law.parse("N >= C3*L*V*(V+d)*log(V)/d**2")
>>> regime = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "V >> d", ("V >> d",))
>>> {k: str(v) for k, v in law.exponents(regime).items()}
{'L': '1', 'V': '2', 'd': '-2'}

Modules: :mod:`.parse` (safe strings), :mod:`.solve` (resource and sense),
:mod:`.core` (:class:`Law`), :mod:`.exponents` (monomials, leading terms along rays),
:mod:`.regime` (:class:`Regime`), :mod:`.relations` (Θ, Θ̃, O), :mod:`.evaluation`, :mod:`.numeric` (float64, log space)
and :mod:`.precise` (certified mpmath).
"""

from theorycheck.law.core import Law
from theorycheck.law.precise import PrecisionLost
from theorycheck.law.regime import Regime
from theorycheck.law.relations import KINDS, Relation, relation

__all__ = ["Law", "Regime", "Relation", "relation", "KINDS", "PrecisionLost"]
