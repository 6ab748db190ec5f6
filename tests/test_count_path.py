"""The counting path of the card row (solver.optimise.planner.count_path): on every 0/1
assignment of its items, its arcs say how many earlier items are 1, saturated at the cap, and the
path exists (the model stays feasible); constant items are taken as they are."""
from __future__ import annotations

import itertools

import pytest

from solver.encoding.linear import LinearModel
from solver.optimise.linear import to_cpsat
from solver.optimise.planner import count_path

ITEMS = ["a", "one", "b", "zero", "c", "d"]
"""Four free items and two constants (1 and 0) between them."""
FREE = [k for k in ITEMS if k not in ("one", "zero")]


def _solve_fixed(values: dict[str, int], cap: int) -> dict[str, list[int]]:
    from ortools.sat.python import cp_model
    lm = LinearModel()
    item = {k: lm.bool(f"item[{k}]") for k in FREE}
    terms = [(k, item[k] if k in item else lm.const(int(k == "one"))) for k in ITEMS]
    arcs = count_path(lm, "path", terms, cap)
    for k, v in values.items():
        lm.eq(item[k], v)
    cp, xs = to_cpsat(lm)
    solver = cp_model.CpSolver()
    assert solver.solve(cp) == cp_model.OPTIMAL, f"no path for {values}, cap {cap}"
    return {k: [e.const + sum(c * solver.value(xs[v.index]) for v, c in e.terms.items()) for e in arcs[k]]
            for k in ITEMS}


def _expected(values: dict[str, int], cap: int) -> dict[str, list[int]]:
    full = {**values, "one": 1, "zero": 0}
    out, seen = {}, 0
    for k in ITEMS:
        out[k] = [int(full[k] == 1 and min(seen, cap) == n) for n in range(cap + 1)]
        seen += full[k]
    return out


@pytest.mark.parametrize("cap", [1, 2, 4])
def test_arcs_count_the_earlier_items_on_every_assignment(cap):
    for bits in itertools.product((0, 1), repeat=len(FREE)):
        values = dict(zip(FREE, bits))
        assert _solve_fixed(values, cap) == _expected(values, cap), (values, cap)
