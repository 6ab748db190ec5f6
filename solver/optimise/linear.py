"""A small abstract model (boolean and integer variables, linear constraints optionally enforced
by a conjunction of literals, a linear objective) and two emitters: CP-SAT and a HiGHS MIP.

The planner builds its model once in this form, so the two engines solve *the same* model:
CP-SAT proves the optimum, HiGHS confirms it (ortools issue #5293: CP-SAT 9.15 certified a wrong
optimum on a model of this shape). Enforced constraints become native ``only_enforce_if`` in
CP-SAT and big-M rows in the MIP, with M computed from the variable bounds.
"""
from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from ortools.linear_solver import pywraplp
    from ortools.sat.python import cp_model

Term: TypeAlias = "Var | Lit | Expr | int"
"""Anything :meth:`Expr.of` turns into a linear expression."""
BoolTerm: TypeAlias = "Var | Lit"
"""A boolean variable or a literal: what enforces a constraint."""


class _Arithmetic:
    """Linear arithmetic for variables and literals: each operand becomes an :class:`Expr`."""

    def __add__(self, o: Term) -> Expr:
        return Expr.of(self) + o

    def __radd__(self, o: Term) -> Expr:
        return Expr.of(o) + Expr.of(self)

    def __sub__(self, o: Term) -> Expr:
        return Expr.of(self) - o

    def __rsub__(self, o: Term) -> Expr:
        return Expr.of(o) - Expr.of(self)

    def __neg__(self) -> Expr:
        return -Expr.of(self)

    def __mul__(self, k: int) -> Expr:
        return Expr.of(self) * k

    __rmul__ = __mul__


@dataclass(frozen=True)
class Var(_Arithmetic):
    """A decision variable: ``index`` into :attr:`LinearModel.vars`."""

    index: int
    name: str
    lb: int
    ub: int

    def Not(self) -> "Lit":  # noqa: N802 - mirrors cp_model
        return Lit(self, False)


@dataclass(frozen=True)
class Lit(_Arithmetic):
    """A boolean variable or its negation."""

    var: Var
    positive: bool = True

    def Not(self) -> "Lit":  # noqa: N802
        return Lit(self.var, not self.positive)


def lit(x: BoolTerm) -> Lit:
    return x if isinstance(x, Lit) else Lit(x, True)


class Expr:
    """A linear expression ``sum(coef * var) + const`` (dict-based, immutable by convention)."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: dict[Var, int] | None = None, const: int = 0):
        self.terms: dict[Var, int] = terms or {}
        self.const = const

    @staticmethod
    def of(x: object) -> "Expr":
        if isinstance(x, Expr):
            return x
        if isinstance(x, Var):
            return Expr({x: 1})
        if isinstance(x, Lit):
            return Expr({x.var: 1}) if x.positive else Expr({x.var: -1}, 1)
        if isinstance(x, int):
            return Expr({}, x)
        raise TypeError(f"not a linear term: {x!r}")

    def __add__(self, other: Term) -> Expr:
        o = Expr.of(other)
        terms = dict(self.terms)
        for v, c in o.terms.items():
            terms[v] = terms.get(v, 0) + c
        return Expr({v: c for v, c in terms.items() if c}, self.const + o.const)

    __radd__ = __add__

    def __neg__(self) -> Expr:
        return Expr({v: -c for v, c in self.terms.items()}, -self.const)

    def __sub__(self, other: Term) -> Expr:
        return self + (-Expr.of(other))

    def __rsub__(self, other: Term) -> Expr:
        return Expr.of(other) + (-self)

    def __mul__(self, k: int) -> Expr:
        if not isinstance(k, int):
            raise TypeError("only integer coefficients")
        return Expr({v: c * k for v, c in self.terms.items() if c * k}, self.const * k)

    __rmul__ = __mul__

    def bounds(self) -> tuple[int, int]:
        lo = hi = self.const
        for v, c in self.terms.items():
            lo += c * (v.lb if c > 0 else v.ub)
            hi += c * (v.ub if c > 0 else v.lb)
        return lo, hi

    def value(self, values: list[int]) -> int:
        return self.const + sum(c * values[v.index] for v, c in self.terms.items())


def total(items: Iterable[Term]) -> Expr:
    """``sum`` for expressions, variables and literals."""
    out = Expr()
    for it in items:
        out = out + Expr.of(it)
    return out


@dataclass
class Constraint:
    """``lo <= expr <= hi`` (None: unbounded), active when every literal of ``enforce`` holds."""

    expr: Expr
    lo: int | None
    hi: int | None
    enforce: tuple[Lit, ...] = ()
    block: str = ""
    """The rule section the constraint encodes (for reports and debugging)."""


@dataclass
class LinearModel:
    """Variables, constraints, objective (maximised), hints."""

    vars: list[Var] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    objective: Expr = field(default_factory=Expr)
    block: str = ""
    """The section currently being encoded: set with :meth:`section`."""
    hints: dict[Var, int] = field(default_factory=dict)

    def section(self, section_id: str) -> None:
        self.block = section_id

    def bool(self, name: str) -> Var:
        return self.int(name, 0, 1)

    # ``int`` names the method below inside this class, so annotations here say ``builtins.int``
    def int(self, name: str, lb: builtins.int, ub: builtins.int) -> Var:
        if ub < lb:
            raise ValueError(f"{name}: empty domain [{lb}, {ub}]")
        v = Var(len(self.vars), name, lb, ub)
        self.vars.append(v)
        return v

    def const(self, value: builtins.int) -> Expr:
        return Expr({}, value)

    def add(self, expr: Term, lo: builtins.int | None = None, hi: builtins.int | None = None,
            enforce: Iterable[BoolTerm] = ()) -> None:
        e = Expr.of(expr)
        lits = tuple(lit(x) for x in enforce)
        elo, ehi = e.bounds()
        if not lits and (lo is None or elo >= lo) and (hi is None or ehi <= hi):
            return  # always true: nothing to add
        self.constraints.append(Constraint(e, lo, hi, lits, self.block))

    def eq(self, a: Term, b: Term, enforce: Iterable[BoolTerm] = ()) -> None:
        e = Expr.of(a) - Expr.of(b)
        self.add(Expr(e.terms), -e.const, -e.const, enforce)

    def le(self, a: Term, b: Term, enforce: Iterable[BoolTerm] = ()) -> None:
        e = Expr.of(a) - Expr.of(b)
        self.add(Expr(e.terms), None, -e.const, enforce)

    def ge(self, a: Term, b: Term, enforce: Iterable[BoolTerm] = ()) -> None:
        self.le(b, a, enforce)

    # ---- boolean helpers (all linear)
    def and_(self, name: str, literals: Iterable[BoolTerm]) -> Var | Expr:
        """A boolean equal to the conjunction of ``literals`` (a constant when it is fixed)."""
        lits = [lit(x) for x in literals]
        if not lits:
            return self.const(1)
        if len(lits) == 1 and lits[0].positive:
            return lits[0].var
        b = self.bool(name)
        for x in lits:
            self.le(b, x)
        self.ge(b, total(lits) - (len(lits) - 1))
        return b

    def reify_ge(self, name: str, expr: Term, k: builtins.int) -> Var | Expr:
        """A boolean ``b <=> expr >= k`` (a constant when the bounds decide it)."""
        e = Expr.of(expr)
        lo, hi = e.bounds()
        if lo >= k:
            return self.const(1)
        if hi < k:
            return self.const(0)
        b = self.bool(name)
        self.ge(e, k, enforce=[b])
        self.le(e, k - 1, enforce=[b.Not()])
        return b

    def maximize(self, expr: Term) -> None:
        self.objective = Expr.of(expr)


# --------------------------------------------------------------------------- CP-SAT

def to_cpsat(m: LinearModel) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its variables (same order as ``m.vars``)."""
    from ortools.sat.python import cp_model
    cp = cp_model.CpModel()
    xs = [cp.new_bool_var(v.name) if (v.lb, v.ub) == (0, 1) else cp.new_int_var(v.lb, v.ub, v.name) for v in m.vars]

    def expr(e: Expr) -> cp_model.LinearExprT:
        return sum(c * xs[v.index] for v, c in e.terms.items()) + e.const

    def literal(x: Lit) -> cp_model.LiteralT:
        return xs[x.var.index] if x.positive else xs[x.var.index].Not()

    for c in m.constraints:
        lo = c.lo if c.lo is not None else cp_model.INT32_MIN * 4
        hi = c.hi if c.hi is not None else cp_model.INT32_MAX * 4
        ct = cp.add_linear_constraint(expr(c.expr), lo, hi)
        if c.enforce:
            ct.only_enforce_if([literal(x) for x in c.enforce])
    cp.maximize(expr(m.objective))
    for v, val in m.hints.items():
        cp.add_hint(xs[v.index], val)
    return cp, xs


# --------------------------------------------------------------------------- HiGHS (MIP)

def to_mip(m: LinearModel, backend: str = "HIGHS") -> tuple[pywraplp.Solver, list[pywraplp.Variable]]:
    """The MIP (pywraplp) and its variables; enforced rows become big-M rows."""
    from ortools.linear_solver import pywraplp
    solver = pywraplp.Solver.CreateSolver(backend)
    if solver is None:
        raise RuntimeError(f"MIP backend {backend} is not available in this ortools build")
    xs = [solver.IntVar(v.lb, v.ub, v.name) for v in m.vars]
    inf = solver.infinity()
    for n, c in enumerate(m.constraints):
        lo_e, hi_e = c.expr.bounds()
        # slack: sum over enforcement literals of (1 - literal)
        off = Expr()
        for x in c.enforce:
            off = off + (Expr.of(1) - Expr.of(x))
        for side in ("lo", "hi"):
            bound = getattr(c, side)
            if bound is None:
                continue
            e = c.expr
            if side == "lo":
                big = max(0, bound - lo_e)
                if big == 0 and c.enforce:
                    continue
                row = e + off * big   # e + M*off >= bound
                ct = solver.Constraint(bound - row.const, inf, f"c{n}{side}")
            else:
                big = max(0, hi_e - bound)
                if big == 0 and c.enforce:
                    continue
                row = e - off * big   # e - M*off <= bound
                ct = solver.Constraint(-inf, bound - row.const, f"c{n}{side}")
            for v, coef in row.terms.items():
                ct.SetCoefficient(xs[v.index], coef)
    obj = solver.Objective()
    for v, coef in m.objective.terms.items():
        obj.SetCoefficient(xs[v.index], coef)
    obj.SetOffset(m.objective.const)
    obj.SetMaximization()
    return solver, xs


def _canonical_expr(e: Expr, names: dict[Var, str]) -> str:
    return " ".join(sorted(f"{c}*{names[v]}" for v, c in e.terms.items())) + f" +{e.const}"


def canonical_form(lm: LinearModel) -> str:
    """The model as text independent of the order it was built in: every variable by name with its
    bounds, every constraint (terms by variable name, bounds, enforcement literals) as a sorted
    multiset, and the objective. A name given to several variables is told apart by its rank among
    them, so only their relative order matters. Two builds with the same text give CP-SAT and HiGHS
    the same model up to the order of its rows (tools/model_digest.py, the records' keys)."""
    seen: Counter[str] = Counter()
    name = {}
    for v in lm.vars:
        seen[v.name] += 1
        name[v] = v.name if seen[v.name] == 1 else f"{v.name}#{seen[v.name]}"
    variables = sorted(f"{name[v]} [{v.lb},{v.ub}]" for v in lm.vars)
    rows = sorted(f"{c.lo} <= {_canonical_expr(c.expr, name)} <= {c.hi} if "
                  + ",".join(sorted(("" if x.positive else "~") + name[x.var] for x in c.enforce))
                  for c in lm.constraints)
    return "\n".join(["vars:", *variables, "rows:", *rows, "max: " + _canonical_expr(lm.objective, name)])
