"""Counting optimal plans and marking only moves agree with a plain enumeration of every plan."""
from __future__ import annotations

import pytest

from solver import load_puzzle, puzzle_files
from solver.engine import apply_legal, initial_state, is_terminal, legal_actions, returns
from solver.explain import line_facts, optimal_plans
from solver.search import canonical, exhaustive


def _all_plans(state, prefix=()):
    """Every complete plan from ``state`` with its final Health (plain enumeration, no memo)."""
    if is_terminal(state):
        yield prefix, returns(state)
        return
    for action in legal_actions(state):
        yield from _all_plans(apply_legal(state, action), prefix + (action,))


def _tiny():
    """Shipped puzzles small enough to enumerate every plan (at most 3 flask placements)."""
    out = []
    for path in puzzle_files():
        puzzle = load_puzzle(path)
        if puzzle.rounds * puzzle.flasks <= 3:
            out.append(path)
    return out[:3]


TINY = _tiny()


@pytest.mark.parametrize("path", TINY, ids=[p.stem for p in TINY])
def test_optimum_and_count_match_enumeration(path):
    puzzle = load_puzzle(path)
    plans = list(_all_plans(initial_state(puzzle)))
    best = max(v for _, v in plans)
    result = optimal_plans(puzzle)
    assert result.best == best == exhaustive(puzzle)[0]
    # canonical states merge identical spots, so the count is at most the raw sequence count
    assert 1 <= result.count <= sum(1 for _, v in plans if v == best)


@pytest.mark.parametrize("path", TINY, ids=[p.stem for p in TINY])
def test_only_move_marks_match_enumeration(path):
    puzzle = load_puzzle(path)
    _, plan, _ = exhaustive(puzzle)
    facts = line_facts(puzzle, plan)
    best = optimal_plans(puzzle).best
    assert facts.plans.best == best and facts.plans.count == optimal_plans(puzzle).count
    state = initial_state(puzzle)
    for action, mark, choices in zip(plan, facts.only, facts.branching):
        keeping = {canonical(apply_legal(state, a)) for a in legal_actions(state)
                   if max((v for _, v in _all_plans(apply_legal(state, a))), default=None) == best}
        assert mark == (len(keeping) == 1)
        assert choices == len({canonical(apply_legal(state, a)) for a in legal_actions(state)})
        state = apply_legal(state, action)


def test_budget_exhausted_reports_not_computed():
    puzzle = load_puzzle(TINY[0])
    assert optimal_plans(puzzle, max_states=1).count is None
    assert line_facts(puzzle, exhaustive(puzzle)[1], max_states=1) is None
