"""The abstract model's emitters: a CP-SAT model, and a MIP (HiGHS or SCIP through OR-Tools'
``pywraplp``), so that the two engines solve *the same* model (:mod:`solver.encoding.linear`):
CP-SAT proves the optimum, HiGHS confirms it (ortools issue #5293: CP-SAT 9.15 certified a wrong
optimum on a model of this shape). Enforced constraints become native ``only_enforce_if`` in
CP-SAT and big-M rows in the MIP, with M computed from the variable bounds.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.encoding.linear import Expr, LinearModel, Lit

if TYPE_CHECKING:
    from ortools.linear_solver import pywraplp
    from ortools.sat.python import cp_model


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

