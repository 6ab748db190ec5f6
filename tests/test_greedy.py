"""The greedy policy (solver/optimise/greedy.py): legal, deterministic, never above the optimum, and
choosing by Health, then stock growth, then the engine's action order."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver import apply, greedy_plan, initial_state, is_terminal, legal_actions, load_puzzle, puzzle_files, replay, score
from solver.optimise.greedy import greedy_key

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = puzzle_files()


@pytest.fixture(scope="module", params=FILES, ids=[p.stem for p in FILES])
def puzzle(request):
    return load_puzzle(request.param)


def test_the_plan_is_legal_and_ends_the_game_when_complete(puzzle):
    plan, complete = greedy_plan(puzzle)
    steps, final = replay(puzzle, plan)  # raises IllegalActionError on an illegal step
    assert len(steps) == len(plan)
    assert is_terminal(final) == complete
    if not complete:
        assert not legal_actions(final)


def test_it_never_beats_the_optimum(puzzle):
    golden = GOLDEN / f"{puzzle.id}.json"
    if not golden.exists():
        pytest.skip("no golden optimum for this puzzle")
    plan, complete = greedy_plan(puzzle)
    if complete:
        _, final = replay(puzzle, plan)
        assert score(final).total <= json.loads(golden.read_text(encoding="utf-8"))["health"]


def test_it_is_deterministic(puzzle):
    assert greedy_plan(puzzle) == greedy_plan(puzzle)


def test_each_choice_is_the_best_by_health_then_stock_then_action_order(puzzle):
    plan, _ = greedy_plan(puzzle)
    state = initial_state(puzzle)
    for action in plan:
        options = legal_actions(state)
        gains = {a: (apply(state, a).health - state.health,
                     sum(apply(state, a).stock.as_tuple()) - sum(state.stock.as_tuple())) for a in options}
        best = max(gains.values())
        assert gains[action] == best
        assert action.key() == min(a.key() for a in options if gains[a] == best)
        assert greedy_key(state, action) == min(greedy_key(state, a) for a in options)
        state = apply(state, action)
