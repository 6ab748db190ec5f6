"""The exhaustive search: dominance pruning never changes the optimum; plans replay."""
from __future__ import annotations

import pytest

from solver import load_puzzle, puzzle_files, replay, returns
from solver.search import exhaustive

SMALL = [p for p in puzzle_files() if p.stem not in {"market-day-2e"}]


@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
def test_pruning_keeps_the_optimum(path):
    puzzle = load_puzzle(path)
    pruned, plan, _ = exhaustive(puzzle, prune=True)
    full, _, _ = exhaustive(puzzle, prune=False)
    assert pruned == full
    _, final = replay(puzzle, plan)
    assert returns(final) == pruned
