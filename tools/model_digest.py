"""The planner's model of every puzzle as a digest, to show that a restructuring of
``solver.optimise.planner.build_model`` emits the same model.

The digest is taken over a canonical form of the abstract model (:class:`solver.encoding.linear.LinearModel`,
which ``to_cpsat`` and ``to_mip`` translate one to one): every variable by name with its bounds,
every constraint with its terms by variable name, its bounds and its enforcement literals, as a
multiset (the order the code emits them in is not the model), and the objective. Two builds with
the same digest give CP-SAT the same model up to the order of its rows.

    python tools/model_digest.py write FILE             # every shipped and deck-suite puzzle
    python tools/model_digest.py check FILE             # exit 1 naming each puzzle whose model changed
    python tools/model_digest.py write --shipped FILE   # the shipped puzzles only (data/puzzles)

``tests/golden/model-digests.json`` holds the shipped puzzles' digests (``tests/test_model_digest.py``
compares them); after an intended model change, rewrite it with
``python tools/model_digest.py write --shipped tests/golden/model-digests.json``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

# run as a script, Python puts tools/ first on the path: the checkout's own solver must come before
# any other on the path (the shared virtualenv's editable install points at another checkout)
ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from solver.encoding.linear import canonical_form as canonical  # noqa: E402 - after the path above
from solver.optimise.planner import build_model, unsupported_reason  # noqa: E402
from solver.io.puzzle import load_puzzle, puzzle_files  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "model-digests.json"
"""The committed digests of the shipped puzzles' models (``--shipped``)."""


def digest(path: Path) -> str | None:
    """The digest of the model of the puzzle at ``path``, or None when the planner does not model it."""
    puzzle = load_puzzle(path)
    if unsupported_reason(puzzle) is not None:
        return None
    return hashlib.sha256(canonical(build_model(puzzle).lm).encode()).hexdigest()


def digests(shipped_only: bool = False) -> dict[str, str]:
    """Each modelled puzzle's digest by file stem: the shipped puzzles, then (unless
    ``shipped_only``) the deck suite's."""
    from solver.benchmarks import deck_suite     # the suite's files are benchmark inputs
    paths = [*puzzle_files(), *([] if shipped_only else deck_suite.suite_files())]
    return {path.stem: d for path in paths if (d := digest(path)) is not None}


def changes(before: dict[str, str], now: dict[str, str]) -> list[str]:
    """One line per puzzle whose model differs (or is modelled on one side only)."""
    return [f"{k}: model changed ({before.get(k, 'absent')[:12]} -> {now.get(k, 'absent')[:12]})"
            for k in sorted(before.keys() | now.keys()) if before.get(k) != now.get(k)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python tools/model_digest.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["write", "check"])
    parser.add_argument("file", type=Path)
    parser.add_argument("--shipped", action="store_true",
                        help="the shipped puzzles only (data/puzzles), not the deck suite")
    args = parser.parse_args(argv)
    if args.action == "write":
        now = digests(args.shipped)
        args.file.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{len(now)} models written to {args.file}")
        return 0
    try:
        before = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"{args.file}: cannot read the digests ({exc}); write them with "
              f"'python tools/model_digest.py write{' --shipped' if args.shipped else ''} {args.file}'", file=sys.stderr)
        return 2
    if not isinstance(before, dict) or not all(isinstance(v, str) for v in before.values()):
        print(f"{args.file}: expected an object of puzzle id -> digest", file=sys.stderr)
        return 2
    if args.shipped:   # a file of every puzzle checked against the shipped ones only
        shipped = {path.stem for path in puzzle_files()}
        before = {k: v for k, v in before.items() if k in shipped}
    now = digests(args.shipped)
    changed = changes(before, now)
    for line in changed:
        print(line)
    print(f"{len(now)} models, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
