"""The exhaustive search: dominance pruning never changes the optimum; plans replay."""
from __future__ import annotations

import pytest

from tiers import exhaustive_within_budget

from solver import load_puzzle, puzzle_files, replay, returns
from solver.optimise.search import exhaustive

# puzzles whose exhaustive search (twice: with and without pruning) takes seconds, not minutes
SLOW = {"market-day-2e", "enzyme-workshop-2e", "grey-rush-2e", "receptor-bonus-1e", "long-game-1e", "long-game-2p-2e"}
SMALL = [p for p in puzzle_files() if p.stem not in SLOW
         and (lambda z: z.rounds * z.flasks <= 6)(load_puzzle(p))]   # larger ones: minutes of search


@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
def test_pruning_keeps_the_optimum(path):
    puzzle = load_puzzle(path)
    pruned, plan, _ = exhaustive_within_budget(puzzle, prune=True)
    full, _, _ = exhaustive_within_budget(puzzle, prune=False)
    assert pruned == full
    _, final = replay(puzzle, plan)
    assert returns(final) == pruned


@pytest.mark.parametrize("budget", [1, 50])
def test_a_node_budget_stops_the_search_the_same_way_every_time(budget):
    puzzle = load_puzzle(next(p for p in puzzle_files() if p.stem == "rulebook-protein-hormone-2e"))
    full = exhaustive(puzzle)
    assert full[2].complete and full[2].nodes > budget
    first, second = exhaustive(puzzle, max_nodes=budget), exhaustive(puzzle, max_nodes=budget)
    assert not first[2].complete and first[2].nodes == budget + 1
    assert (first[0], first[1], first[2].nodes) == (second[0], second[1], second[2].nodes)
    assert exhaustive(puzzle, max_nodes=full[2].nodes)[2].complete
