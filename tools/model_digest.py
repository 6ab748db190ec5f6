"""The planner's model of every puzzle as a digest, to show that a restructuring of
``solver.planner.build_model`` emits the same model.

The digest is taken over a canonical form of the abstract model (:class:`solver.linear.LinearModel`,
which ``to_cpsat`` and ``to_mip`` translate one to one): every variable by name with its bounds,
every constraint with its terms by variable name, its bounds and its enforcement literals, as a
multiset (the order the code emits them in is not the model), and the objective. Two builds with
the same digest give CP-SAT the same model up to the order of its rows.

    python tools/model_digest.py write FILE    # digests of every shipped and deck-suite puzzle
    python tools/model_digest.py check FILE    # exit 1 naming each puzzle whose model changed
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from solver import deck_suite
from solver.linear import Expr, LinearModel, Var
from solver.planner import build_model, unsupported_reason
from solver.puzzle import load_puzzle, puzzle_files


def _expr(e: Expr, names: dict[Var, str]) -> str:
    return " ".join(sorted(f"{c}*{names[v]}" for v, c in e.terms.items())) + f" +{e.const}"


def canonical(lm: LinearModel) -> str:
    """The model as text independent of the order it was built in (a name given to several
    variables is told apart by its rank among them, so only their relative order matters)."""
    seen: Counter[str] = Counter()
    name = {}
    for v in lm.vars:
        seen[v.name] += 1
        name[v] = v.name if seen[v.name] == 1 else f"{v.name}#{seen[v.name]}"
    variables = sorted(f"{name[v]} [{v.lb},{v.ub}]" for v in lm.vars)
    rows = sorted(f"{c.lo} <= {_expr(c.expr, name)} <= {c.hi} if "
                  + ",".join(sorted(("" if x.positive else "~") + name[x.var] for x in c.enforce))
                  for c in lm.constraints)
    return "\n".join(["vars:", *variables, "rows:", *rows, "max: " + _expr(lm.objective, name)])


def digests() -> dict[str, str]:
    """Each modelled puzzle's digest (shipped puzzles, then the deck suite's)."""
    out = {}
    for path in [*puzzle_files(), *deck_suite.suite_files()]:
        puzzle = load_puzzle(path)
        if unsupported_reason(puzzle) is None:
            out[path.stem] = hashlib.sha256(canonical(build_model(puzzle).lm).encode()).hexdigest()
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("write", "check"):
        print("usage: python tools/model_digest.py write|check FILE", file=sys.stderr)
        return 2
    path = Path(argv[1])
    now = digests()
    if argv[0] == "write":
        path.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{len(now)} models written to {path}")
        return 0
    before = json.loads(path.read_text(encoding="utf-8"))
    changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    for k in changed:
        print(f"{k}: model changed ({before.get(k, 'absent')[:12]} -> {now.get(k, 'absent')[:12]})")
    print(f"{len(now)} models, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
