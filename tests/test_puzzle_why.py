"""The "why it is optimal" facts and the computed level (issue #19, items 3-4)."""
from __future__ import annotations

import pytest

from generator import puzzle_why
from solver import load_puzzle, solve
from solver.explain import line_facts, optimal_plans
from solver.puzzle import PUZZLES_DIR


@pytest.mark.parametrize("why, optimum, greedy, expected", [
    ({"plans": 8, "branching": [2, 3]}, 7, 7, 1),
    ({"plans": 8, "branching": [2, 3]}, 7, 5, 2),
    ({"plans": 8, "branching": [2, 3]}, 7, 3, 3),
    ({"plans": 8, "branching": [2, 3]}, 7, None, 3),
    ({"plans": 1, "branching": [2, 3]}, 7, 7, 2),
    ({"plans": 3, "branching": [4, 5]}, 7, 7, 2),
    ({"plans": None, "branching": None, "over_budget": True}, 7, 2, 5),
])
def test_grade_formula(why, optimum, greedy, expected):
    assert puzzle_why.difficulty(optimum, greedy, why).grade == expected


@pytest.mark.parametrize("pid", ["rulebook-protein-hormone-2e", "steroid-no-lipids-2e", "rule-row-refresh-1e"])
def test_line_facts_agree_with_the_search(pid):
    puzzle = load_puzzle(PUZZLES_DIR / f"{pid}.yaml")
    solution = solve(puzzle, engine="exhaustive")
    facts = line_facts(puzzle, list(solution.plan))
    counted = optimal_plans(puzzle)
    assert len(facts.only) == len(facts.branching) == len(solution.plan)
    assert all(b >= 1 for b in facts.branching)
    if counted.count == 1:
        assert all(facts.only)
    if facts.deviation is not None:
        from solver import replay, score
        _, final = replay(puzzle, list(facts.deviation.plan))
        assert score(final).total == facts.deviation.health == counted.best - facts.deviation.loss
        assert facts.deviation.loss >= 1
        assert list(facts.deviation.plan[:facts.deviation.step - 1]) == list(solution.plan[:facts.deviation.step - 1])


def test_over_budget_is_said_not_guessed():
    puzzle = load_puzzle(PUZZLES_DIR / "rulebook-protein-hormone-2e.yaml")
    old = puzzle_why.MAX_STATES
    puzzle_why.MAX_STATES = 10
    try:
        plan = [a.to_dict() for a in solve(puzzle, engine="exhaustive").plan]
        record = puzzle_why.compute_why(puzzle, plan)
    finally:
        puzzle_why.MAX_STATES = old
    assert record["over_budget"] and record["plans"] is None and record["only"] is None
    for lang in ("it", "en"):
        view = puzzle_why.why_view(record, {"bound": None}, lang)
        assert "10" in view["plans"] and view["runner"] is None
