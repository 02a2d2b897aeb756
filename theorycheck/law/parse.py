"""Safe parsing of law strings such as ``"N >= C3*L*V*(V+d)*log(V)/d**2"``.

SymPy's own ``sympify`` evaluates arbitrary Python and turns ``N``, ``E``, ``S``,
``O``, ``I``, ``Q``, ``beta``, ``gamma`` into its own objects (docs/methods.md
§1.4, pitfalls 1-2). Here a string is first checked against a small grammar on its
Python syntax tree, then handed to :func:`sympy.parsing.sympy_parser.parse_expr` with a
``local_dict`` that maps *every* name in it to :func:`theorycheck.symbols.symbol` (the
one positive symbol per name) or to one of the accepted functions.

Accepted grammar
----------------
* numbers (integers and decimals; decimals become exact rationals, ``0.5 -> 1/2``);
* names (Python identifiers not starting with ``_``); ``pi`` is the number pi and ``E``
  is Euler's number e = 2.718... (as in SymPy and in textbook forms such as
  ``log(E*n/k)``) -- with one exception: ``E`` standing alone as one side of a law
  (``E >= C1/d + C2/T``, an error as the resource) is the variable ``E``, since a law's
  resource cannot be a number; a law that uses ``E`` both ways is refused. Lower-case
  ``e`` is an ordinary name (a variable, or with ``fit`` an unknown symbol);
* ``+ - * / **`` (and ``^`` as a synonym of ``**``), unary ``-``/``+``, parentheses;
* calls of ``log`` (natural; ``log(x, b)`` is base ``b``), ``ln``, ``exp``, ``sqrt``,
  ``Max``, ``Min`` (also spelled ``max``/``min``);
* at most one comparison ``>=``, ``>``, ``<=`` or ``<`` (a law); none for an expression.

Everything else -- attributes, subscripts, keyword arguments, lambdas, unknown
functions, ``==``, chained comparisons, power towers, numeric exponents larger than
:data:`MAX_EXPONENT` -- is refused with a :class:`ValueError` that names the offending
piece and lists what is accepted.
"""

from __future__ import annotations

import ast
import math
import re
from fractions import Fraction

import sympy as sp
from sympy.parsing.sympy_parser import (
    parse_expr,
    rationalize,
    standard_transformations,
)

from theorycheck.symbols import symbol

__all__ = ["parse_law_text", "parse_expression_text", "FUNCTIONS", "NUMBERS", "MAX_EXPONENT", "MAX_LENGTH"]

#: Names that are numbers, not variables (docs/fit.md "E and pi").
NUMBERS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}

#: Functions a law string may call, by the names it may use.
FUNCTIONS: dict[str, object] = {
    "log": sp.log,
    "ln": sp.log,
    "exp": sp.exp,
    "sqrt": sp.sqrt,
    "Max": sp.Max,
    "Min": sp.Min,
    "max": sp.Max,
    "min": sp.Min,
}
_ARITY = {"log": (1, 2), "ln": (1, 1), "exp": (1, 1), "sqrt": (1, 1)}
#: Largest absolute value of a purely numeric exponent (guards against 10**10**10).
MAX_EXPONENT = 1000
#: Longest accepted law string.
MAX_LENGTH = 2000

_ACCEPTED = (
    "accepted: numbers, variable names, + - * / ** ^, parentheses, one comparison "
    "(>=, >, <=, <) and the functions log, ln, exp, sqrt, Max, Min"
)
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_COMPARE = {ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Lt: "<"}
_RELATIONALS = {ast.GtE: sp.Ge, ast.Gt: sp.Gt, ast.LtE: sp.Le, ast.Lt: sp.Lt}
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_GLOBALS: dict[str, object] = {}
exec("from sympy import Integer, Float, Rational, Symbol", _GLOBALS)  # noqa: S102 - fixed import line


#: Largest number a law may spell out (float64 overflows near 1.8e308).
MAX_LOG10 = 300
#: Deepest expression tree accepted (real laws nest < 20 levels; SymPy recurses per level).
MAX_DEPTH = 100


def _refuse(text: str, what: str) -> ValueError:
    return ValueError(f"cannot parse law {text!r}: {what}; {_ACCEPTED}")


def _numeric_value(node: ast.AST) -> Fraction | None:
    """Exact value of a numeric subtree built from literals with + - * /, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return Fraction(node.value) if isinstance(node.value, int) or math.isfinite(node.value) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _numeric_value(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = _numeric_value(node.left), _numeric_value(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Div):
            return None if right == 0 else left / right
        return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}[type(node.op)]
    return None


def _log10_size(node: ast.AST) -> float | None:
    """``log10 |value|`` of a purely numeric subtree (literals with ``+ - * / **``), computed
    without evaluating it (exact for products, quotients and powers; sums are bounded by
    twice their larger term); None if the subtree has a name or a call.
    ``((3**1000)**1000)**1000`` is refused from this bound before SymPy builds the integer."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        value = abs(node.value)
        if value == 0:
            return -math.inf
        return math.inf if value == math.inf else math.log10(value)  # log10 takes ints of any size
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _log10_size(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _log10_size(node.left), _log10_size(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return max(left, right) + math.log10(2)
        if isinstance(node.op, ast.Mult):
            return left + right
        if isinstance(node.op, ast.Div):
            return left - right  # |a/b|: 1e300/1e-300 is as large as 1e600
        exponent = _numeric_value(node.right)
        if exponent is None:  # the exponent is itself a power: bound it by its size
            return math.inf if right > 3 else max(left, 0.0) * 10.0 ** right
        return max(left * float(exponent), 0.0)
    return None


def _depth(tree: ast.AST) -> int:
    """Nesting depth of ``tree`` (iteratively: deep trees must not overflow the stack)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _contains_power(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) for n in ast.walk(node)
    )


class _Checker(ast.NodeVisitor):
    """Walk a parsed string and refuse any node outside the grammar; collect the names."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.names: set[str] = set()

    def generic_visit(self, node: ast.AST) -> None:
        raise _refuse(self.text, f"{type(node).__name__.lower()} ({ast.unparse(node)!r}) is not allowed")

    def visit_Expression(self, node: ast.Expression) -> None:
        self.visit(node.body)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise _refuse(self.text, f"literal {node.value!r} is not a number")
        size = _log10_size(node)
        if size is not None and size > MAX_LOG10:
            raise _refuse(self.text, f"number {ast.unparse(node)[:40]} exceeds 1e{MAX_LOG10} (float64 overflows "
                                     "there); write it as a free constant C and give its value separately")

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FUNCTIONS:
            raise _refuse(self.text, f"function {node.id!r} used without an argument")
        if not _NAME.match(node.id):
            raise _refuse(self.text, f"name {node.id!r} is not allowed (use letters, digits, '_')")
        self.names.add(node.id)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise _refuse(self.text, f"operator {type(node.op).__name__} is not allowed")
        self.visit(node.operand)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) not in _BINOPS:
            raise _refuse(self.text, f"operator {type(node.op).__name__} ({ast.unparse(node)!r}) is not allowed")
        size = _log10_size(node)
        if size is not None and size > MAX_LOG10:
            raise _refuse(self.text, f"the number {ast.unparse(node)[:60]!r} exceeds 1e{MAX_LOG10} (float64 "
                                     "overflows there); use a free constant C instead")
        if isinstance(node.op, ast.Pow):
            if _contains_power(node.right):
                raise _refuse(self.text, f"power tower {ast.unparse(node)!r} is not allowed")
            value = _numeric_value(node.right)
            if value is not None and abs(value) > MAX_EXPONENT:
                raise _refuse(self.text, f"exponent {value} exceeds {MAX_EXPONENT} in absolute value")
        self.visit(node.left)
        self.visit(node.right)

    def visit_Call(self, node: ast.Call) -> None:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise _refuse(self.text, f"call {ast.unparse(node.func)!r} is not an accepted function")
        if node.keywords:
            raise _refuse(self.text, f"keyword arguments in {ast.unparse(node)!r} are not allowed")
        low, high = _ARITY.get(node.func.id, (1, 64))
        if not low <= len(node.args) <= high:
            raise _refuse(self.text, f"{node.func.id} takes {low}..{high} arguments, got {len(node.args)}")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise _refuse(self.text, "starred arguments are not allowed")
            self.visit(arg)

    def visit_Compare(self, node: ast.Compare) -> None:
        raise _refuse(self.text, "a comparison is only allowed once, at the top level")


def _source(text: str) -> str:
    """The text as Python source: ``^`` is a power (as in SymPy's ``convert_xor``)."""
    return text.strip().replace("^", "**")


def _check(text: str) -> ast.Expression:
    if not isinstance(text, str):
        raise ValueError(f"a law must be given as a string or a SymPy relational, got {type(text).__name__}")
    if not text.strip():
        raise ValueError(f"cannot parse an empty law string; {_ACCEPTED}")
    if len(text) > MAX_LENGTH:
        raise ValueError(f"law string has {len(text)} characters; at most {MAX_LENGTH} are accepted")
    try:
        tree = ast.parse(_source(text), mode="eval")
    except (SyntaxError, RecursionError, MemoryError) as exc:
        raise _refuse(text, f"syntax error ({getattr(exc, 'msg', type(exc).__name__)})") from None
    depth = _depth(tree)
    if depth > MAX_DEPTH:
        raise _refuse(text, f"the expression nests {depth} levels deep (at most {MAX_DEPTH}); group repeated "
                            "factors as powers, e.g. V**400 instead of V*V*...*V")
    return tree


def _to_sympy(source: str, names: set[str], text: str) -> sp.Basic:
    local: dict[str, object] = {name: symbol(name) for name in names}
    local.update(FUNCTIONS)
    for name, number in NUMBERS.items():
        if name in names:
            local[name] = number
    transformations = standard_transformations + (rationalize,)
    try:
        return parse_expr(source.strip(), local_dict=local, global_dict=dict(_GLOBALS), transformations=transformations)
    except (TypeError, ValueError, ZeroDivisionError, SyntaxError) as exc:
        raise _refuse(text, f"SymPy could not build it ({exc})") from None


def parse_expression_text(text: str) -> sp.Expr:
    """Parse a comparison-free expression string (e.g. ``"L*V"``) into a SymPy expression."""
    tree = _check(text)
    if isinstance(tree.body, ast.Compare):
        raise _refuse(text, "an expression was expected, not a comparison")
    checker = _Checker(text)
    checker.visit(tree)
    expr = _to_sympy(_source(text), checker.names, text)
    if not isinstance(expr, sp.Expr):
        raise _refuse(text, "it is not an expression")
    return expr


def parse_law_text(text: str) -> sp.core.relational.Relational:
    """Parse ``"lhs OP rhs"`` (OP one of ``>= > <= <``) into a SymPy relational.

    >>> parse_law_text("N >= C3*L*V**2*log(V)/d**2")
    N >= C3*L*V**2*log(V)/d**2
    """
    tree = _check(text)
    body = tree.body
    if not isinstance(body, ast.Compare):
        raise _refuse(text, "a law needs one comparison such as 'N >= C*V*log(V)'")
    if len(body.ops) != 1:
        raise _refuse(text, "chained comparisons are not allowed")
    if type(body.ops[0]) not in _COMPARE:
        raise _refuse(text, f"comparison {type(body.ops[0]).__name__} is not allowed (use >=, >, <= or <)")
    checker = _Checker(text)
    checker.visit(body.left)
    checker.visit(body.comparators[0])
    lone = [isinstance(node, ast.Name) and node.id == "E" for node in (body.left, body.comparators[0])]
    if any(lone) and sum(isinstance(n, ast.Name) and n.id == "E" for n in ast.walk(body)) > 1:
        raise _refuse(text, "'E' is both a variable (alone on one side) and Euler's number (inside an "
                            "expression); rename the variable, e.g. 'err'")
    sides = []
    for node, alone in zip((body.left, body.comparators[0]), lone):
        if alone:
            sides.append(symbol("E"))
            continue
        side = _to_sympy(ast.unparse(node), checker.names, text)
        if not isinstance(side, sp.Expr):
            raise _refuse(text, f"{ast.unparse(node)!r} is not an expression")
        sides.append(side)
    if not (sides[0].free_symbols or sides[1].free_symbols):
        raise _refuse(text, "the comparison does not involve any variable")
    relation = _RELATIONALS[type(body.ops[0])]
    return relation(sides[0], sides[1], evaluate=False)
