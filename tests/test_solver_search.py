"""The exhaustive search: dominance pruning never changes the optimum; plans replay."""
from __future__ import annotations

import pytest

from solver import load_puzzle, puzzle_files, replay, returns
from solver.search import exhaustive

# puzzles whose exhaustive search (twice: with and without pruning) takes seconds, not minutes
SLOW = {"market-day-2e", "enzyme-workshop-2e", "grey-rush-2e", "receptor-bonus-1e", "long-game-1e", "long-game-2p-2e"}
SMALL = [p for p in puzzle_files() if p.stem not in SLOW
         and (lambda z: z.rounds * z.flasks <= 6)(load_puzzle(p))]   # larger ones: minutes of search


@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
def test_pruning_keeps_the_optimum(path):
    puzzle = load_puzzle(path)
    pruned, plan, _ = exhaustive(puzzle, prune=True)
    full, _, _ = exhaustive(puzzle, prune=False)
    assert pruned == full
    _, final = replay(puzzle, plan)
    assert returns(final) == pruned
