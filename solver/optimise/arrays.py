"""The abstract model (:mod:`.linear`) as the plain arrays a MIP solver takes (issue #70): what
HiGHS compiled to WebAssembly (the ``highs`` npm package) solves in the reader's browser.

The rows are those of :func:`solver.optimise.linear.to_mip`, the MIP OR-Tools hands to native HiGHS to confirm an
optimum: an enforced constraint becomes a big-M row, M computed from the variable bounds. Kept
apart from :mod:`.linear` so that the records' code fingerprint (``generator/proofs/fingerprint.py``),
which covers the modules that compute a record, does not move with the browser's needs.
"""
from __future__ import annotations

from solver.encoding.linear import Expr, LinearModel
def mip_rows(m: LinearModel) -> list[tuple[dict[int, int], float | None, float | None]]:
    """The MIP's rows as (coefficients by variable index, lower, upper) (None: unbounded), the
    same big-M rows :func:`solver.optimise.linear.to_mip` writes: one per bounded side of a constraint."""
    rows: list[tuple[dict[int, int], float | None, float | None]] = []
    for c in m.constraints:
        lo_e, hi_e = c.expr.bounds()
        off = Expr()
        for x in c.enforce:
            off = off + (Expr.of(1) - Expr.of(x))
        if c.lo is not None:
            big = max(0, c.lo - lo_e)
            if not (big == 0 and c.enforce):
                row = c.expr + off * big    # e + M*off >= bound
                rows.append(({v.index: k for v, k in row.terms.items()}, c.lo - row.const, None))
        if c.hi is not None:
            big = max(0, hi_e - c.hi)
            if not (big == 0 and c.enforce):
                row = c.expr - off * big    # e - M*off <= bound
                rows.append(({v.index: k for v, k in row.terms.items()}, None, c.hi - row.const))
    return rows


def to_arrays(m: LinearModel) -> dict[str, object]:
    """The MIP of :func:`to_mip` as plain arrays (JSON-ready): what the ``highs`` npm package's
    ``createModel`` takes (``numCols``, ``numRows``, bounds, ``colCost``, ``offset``, a CSR
    ``matrix``, ``integrality``; maximised: ``sense`` -1). No names: the browser reads columns by
    index, so no name has to survive an LP reader."""
    rows = mip_rows(m)
    starts, indices, values = [0], [], []
    for coefs, _lo, _hi in rows:
        for index in sorted(coefs):
            indices.append(index)
            values.append(coefs[index])
        starts.append(len(indices))
    cost = [0] * len(m.vars)
    for v, k in m.objective.terms.items():
        cost[v.index] = k
    return {
        "numCols": len(m.vars), "numRows": len(rows), "sense": -1, "offset": m.objective.const,
        "colCost": cost, "colLower": [v.lb for v in m.vars], "colUpper": [v.ub for v in m.vars],
        "rowLower": [lo for _c, lo, _hi in rows], "rowUpper": [hi for _c, _lo, hi in rows],
        "matrix": {"format": "csr", "numRows": len(rows), "numCols": len(m.vars),
                   "starts": starts, "indices": indices, "values": values},
        "integrality": [1] * len(m.vars),
    }
