"""Safe parsing of law strings and construction of a Law (theorycheck.law.parse/solve/core)."""

from __future__ import annotations

import math

import pytest
import sympy as sp

from theorycheck.law import Law
from theorycheck.law.parse import parse_expression_text, parse_law_text
from theorycheck.symbols import N, V, d, symbol


def test_clashing_names_become_canonical_positive_symbols():
    # E is Euler's number since the userlaw branch (docs/fit.md), so it is not among the names.
    rel = parse_law_text("N >= S*O*I*Q*beta*gamma*V")
    names = {s.name for s in rel.free_symbols}
    assert names == {"N", "S", "O", "I", "Q", "beta", "gamma", "V"}
    for s in rel.free_symbols:
        assert s is symbol(s.name) and s.is_positive
    assert rel.lhs is N


def test_decimals_become_exact_rationals_and_caret_is_power():
    rel = parse_law_text("N >= 0.5*V^(3/2)*log(V)")
    assert rel.rhs == sp.Rational(1, 2) * V ** sp.Rational(3, 2) * sp.log(V)


def test_accepted_functions_and_pi():
    expr = parse_expression_text("sqrt(V)*exp(1/d)*ln(V)*Max(V, d)*min(V, d) + log(V, 2) + pi")
    assert expr.has(sp.Max) and expr.has(sp.Min) and expr.has(sp.pi)
    assert expr.free_symbols == {V, d}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("N >= __import__('os').system('ls')", "not an accepted function"),
        ("N >= V.real", "attribute"),
        ("N >= (lambda x: x)(V)", "not an accepted function"),
        ("N >= sin(V)", "'sin' is not an accepted function"),
        ("N == V", "comparison Eq is not allowed"),
        ("N >= V >= d", "chained comparisons"),
        ("N >= V**10**10", "power tower"),
        ("N >= V**2000", "exponent 2000 exceeds"),
        ("N >= V[0]", "subscript"),
        ("N >= log", "without an argument"),
        ("N >= log(V, base=2)", "keyword arguments"),
        ("N >= 'abc'", "is not a number"),
        ("N >= V +", "syntax error"),
        ("N >= V & d", "operator BitAnd"),
        ("N >= exp(V, d)", "exp takes 1..1 arguments"),
        ("N >= _x", "name '_x' is not allowed"),
        ("V*log(V)", "needs one comparison"),
        ("2 >= 1", "does not involve any variable"),
        ("", "empty law string"),
    ],
)
def test_bad_strings_are_refused_with_a_message(text, fragment):
    with pytest.raises(ValueError) as info:
        parse_law_text(text)
    message = str(info.value)
    assert fragment in message
    if text:
        assert "accepted:" in message or "comparison" in message


def test_law_string_too_long_is_refused():
    with pytest.raises(ValueError, match="at most"):
        Law.parse("N >= " + "+".join(["V"] * 1000))


def test_non_string_is_refused():
    with pytest.raises(ValueError, match="string or a SymPy relational"):
        parse_law_text(42)  # type: ignore[arg-type]


def test_resource_defaults_to_lone_lhs_symbol():
    law = Law.parse("d**2 >= C1*V*log(V)")
    assert law.resource == "d" and law.sense == ">="
    assert sp.simplify(law.threshold - sp.sqrt(symbol("C1") * V * sp.log(V))) == 0


def test_resource_needed_when_lhs_has_several_variables():
    with pytest.raises(ValueError, match="pass resource="):
        Law.parse("N*d**2 >= C*L*V**2")
    assert Law.parse("N*d**2 >= C*L*V**2", resource="N").threshold == symbol("C") * symbol("L") * V**2 / d**2


def test_resource_must_be_a_variable():
    with pytest.raises(ValueError, match="resource 'C' is not a variable"):
        Law.parse("N >= C*V", resource="C")
    with pytest.raises(ValueError, match="resource 'm' is not a variable"):
        Law.parse("N >= C*V", resource="m")


def test_explicit_constants_override_the_naming_rule():
    law = Law.parse("N >= a*V*log(V)", constants=["a"])
    assert law.constants == ("a",) and law.variables == ("V",)
    with pytest.raises(ValueError, match="do not appear"):
        Law.parse("N >= a*V", constants=["b"])


def test_sympy_relational_with_plain_symbols_is_canonicalised():
    n, v = sp.symbols("N V")  # no assumptions
    law = Law(sp.Ge(n, 3 * v**2))
    assert law.threshold == 3 * V**2 and law.resource == "N"


def test_non_relational_and_bad_functions_are_refused():
    with pytest.raises(ValueError, match="relational"):
        Law(sp.Eq(N, V))
    with pytest.raises(ValueError, match="function sin"):
        Law(sp.Ge(N, sp.sin(V)))
    with pytest.raises(ValueError, match="evaluated to"):
        Law(sp.true)


def test_unsolvable_resource_says_so():
    with pytest.raises(ValueError, match="cannot solve"):
        Law.parse("N >= C3*L*V*(V + d)*log(V)/d**2").solve_for("V")


def test_non_positive_threshold_is_refused():
    with pytest.raises(ValueError, match="not positive"):
        Law.parse("N >= -V")


def test_ln_is_the_natural_log():
    # guards: ln parsed as another base (log10 gives 200 instead of 100*ln(100) = 460.5)
    law = Law.parse("N >= C*V*ln(V)")
    assert law.threshold == Law.parse("N >= C*V*log(V)").threshold
    # rel 1e-12: float evaluation of the SymPy expression vs math.log (rounding only, ~1e-16)
    assert law.evaluate({"V": 100.0}, {"C": 1}) == pytest.approx(100 * math.log(100), rel=1e-12)
