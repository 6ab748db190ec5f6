"""Small linear-term helpers the families share: negation, a term read as a boolean, a conjunction
of mixed terms, and counting paths (:func:`count_path`).
"""
from __future__ import annotations

from collections.abc import Iterable

from solver.encoding.linear import Expr, LinearModel, Lit, Term, Var, lit, total
from solver.optimise.model.plan_model import constant_value


def negation(lm: LinearModel, term: Term) -> Lit | Expr:
    """1 - e for a 0/1 expression (a literal when possible)."""
    e = Expr.of(term)
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms)).Not()
    return 1 - e


def as_bool(lm: LinearModel, name: str, term: Term) -> Var | Expr:
    """A 0/1 expression as a variable (or a constant / the variable itself)."""
    e = Expr.of(term)
    if not e.terms:
        return e
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms))
    b = lm.bool(name)
    lm.eq(b, e)
    return b


def and_mixed(lm: LinearModel, name: str, parts: Iterable[Term]) -> Var | Expr:
    """AND of 0/1 items: variables, literals, constants or 0/1 expressions."""
    lits: list[Lit] = []
    for n, p in enumerate(parts):
        if isinstance(p, Var):
            lits.append(lit(p))
            continue
        if isinstance(p, Lit):
            lits.append(p)
            continue
        e = Expr.of(p)
        if not e.terms:
            if e.const == 0:
                return Expr()
            continue
        if len(e.terms) == 1 and e.const == 1 and next(iter(e.terms.values())) == -1:
            lits.append(next(iter(e.terms)).Not())
        else:
            b = as_bool(lm, f"{name}#{n}", e)
            assert isinstance(b, Var), "e has terms, so its boolean is a variable"
            lits.append(lit(b))
    if not lits:
        return lm.const(1)
    return lm.and_(name, lits)


def count_path(lm: LinearModel, name: str, items: list[tuple[str, Term]], cap: int) -> dict[str, list[Expr]]:
    """How many earlier items are 1, for 0/1 items in order: ``arcs[key][k]`` is 1 when the item
    is 1 and exactly ``k`` earlier items are (``k < cap``) or at least ``cap`` are (``k = cap``).

    Encoded as one path through the states (items seen, count so far, saturated at ``cap``), the
    count's own dynamic programme: each state is 0/1, each item moves the path up one count or
    leaves it, and the arcs that move it sum to the item. A reified prefix sum (``count >= k``)
    says the same of integers, but its LP relaxation lets a fractional item sit at every
    position at once; here the LP can only mix whole paths, one per way the items can be.
    Measured on the deck suite: the row positions and discards this way (``Options.row_paths``)
    prove the 16-placement suite faster (docs/dev/planner.md)."""
    state: list[Expr] = [lm.const(1)] + [lm.const(0)] * cap
    arcs_of: dict[str, list[Expr]] = {}
    for n, (key, item) in enumerate(items):
        on, fixed = Expr.of(item), constant_value(item)
        if fixed == 0:
            arcs_of[key] = [lm.const(0)] * (cap + 1)
            continue
        arcs = []
        for k in range(cap + 1):
            if constant_value(state[k]) == 0:
                arcs.append(lm.const(0))
            elif fixed == 1:
                arcs.append(state[k])     # the item is 1: the path moves up from wherever it is
            else:
                arc = lm.bool(f"{name}[{key},{k}]")
                lm.le(arc, state[k])
                arcs.append(Expr.of(arc))
        if fixed != 1:
            lm.eq(total(arcs), on)
        arcs_of[key] = arcs
        after = []
        for k in range(cap + 1):
            stays = state[k] if k == cap else state[k] - arcs[k]
            e = stays + (arcs[k - 1] if k else 0)
            if len(e.terms) > 1 or (e.terms and e.const):   # a state of its own: short rows
                v = lm.bool(f"{name}_state[{n + 1},{k}]")
                lm.eq(v, e)
                e = Expr.of(v)
            after.append(e)
        state = after
    return arcs_of
