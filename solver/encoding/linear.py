"""A small abstract model (boolean and integer variables, linear constraints optionally enforced
by a conjunction of literals, a linear objective), solver-neutral: the rules' encodings beside the
engine and the planner's model are written against it; the emitters to CP-SAT and to a MIP are
:mod:`solver.optimise.linear`'s.

The planner builds its model once in this form, so the two engines solve *the same* model:
CP-SAT proves the optimum, HiGHS confirms it (ortools issue #5293: CP-SAT 9.15 certified a wrong
optimum on a model of this shape). Enforced constraints become native ``only_enforce_if`` in
CP-SAT and big-M rows in the MIP, with M computed from the variable bounds.
"""
from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeAlias

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

    @property
    def is_bool(self) -> bool:
        return self.lb >= 0 and self.ub <= 1

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


class BuildBudgetSpent(Exception):
    """A model's building took more steps than its :class:`BuildBudget` allows."""

    def __init__(self, budget: "BuildBudget"):
        self.budget = budget
        super().__init__(f"the model's building reached {budget.spent} steps, its budget is {budget.limit}")


@dataclass
class BuildBudget:
    """A deterministic bound on building a model: one step per variable and constraint made, and
    what a builder charges for work that makes none (:meth:`LinearModel.charge`). The same puzzle
    spends the same steps on every machine, so a bound in CP-SAT's deterministic work (``--work-limit``)
    can cover the model's building too and stay reproducible."""

    limit: int
    """Steps allowed."""
    spent: int = 0
    """Steps taken so far."""

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.limit:
            raise BuildBudgetSpent(self)


_BUDGET: ContextVar[BuildBudget | None] = ContextVar("cellula_build_budget", default=None)


@contextmanager
def build_budget(limit: int | None) -> Iterator[BuildBudget | None]:
    """Every :class:`LinearModel` made inside the block spends from one budget of ``limit`` steps
    (None: no bound); :class:`BuildBudgetSpent` once it is spent."""
    budget = None if limit is None else BuildBudget(limit)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


@dataclass
class LinearModel:
    """Variables, constraints, objective (maximised), hints."""

    vars: list[Var] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    objective: Expr = field(default_factory=Expr)
    block: str = ""
    """The section currently being encoded: set with :meth:`section`."""
    hints: dict[Var, int] = field(default_factory=dict)
    budget: BuildBudget | None = field(default_factory=_BUDGET.get, repr=False, compare=False)
    """The building's bound, from :func:`build_budget` (None: none)."""

    def charge(self, steps: builtins.int) -> None:
        """Count ``steps`` of building work that makes no variable or constraint (a large product
        computed before its variables) against the budget."""
        if self.budget is not None:
            self.budget.spend(steps)

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
        if self.budget is not None:
            self.budget.spend(1)
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
        if self.budget is not None:
            self.budget.spend(1)

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
