"""Counting optimal plans and marking only moves agree with a plain enumeration of every plan."""
from __future__ import annotations

import pytest

from solver import load_puzzle, puzzle_files
from solver.game.engine import apply, apply_legal, initial_state, is_terminal, legal_actions, returns
from solver.optimise.explain import line_facts, optimal_plans
from solver.optimise.search import canonical, exhaustive


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


def _values_up_to_symmetry(state):
    """The final Health of every plan from ``state``, identical successors (one canonical state)
    taken once: the plans up to symmetry."""
    if is_terminal(state):
        yield returns(state)
        return
    children = {}
    for action in legal_actions(state):
        child = apply_legal(state, action)
        children.setdefault(canonical(child), child)
    for child in children.values():
        yield from _values_up_to_symmetry(child)


@pytest.mark.parametrize("path", TINY, ids=[p.stem for p in TINY])
def test_count_is_up_to_symmetry(path):
    """Interchangeable spots at that moment give one plan: the count equals an enumeration taking
    each canonical successor once, and a plan whose every step is an only move is the only plan."""
    puzzle = load_puzzle(path)
    values = list(_values_up_to_symmetry(initial_state(puzzle)))
    result = optimal_plans(puzzle)
    assert result.count == sum(1 for v in values if v == max(values))
    facts = line_facts(puzzle, exhaustive(puzzle)[1])
    if all(facts.only):
        assert facts.plans.count == 1


def test_identical_spots_count_once():
    """Two identical Rough ER spots and nothing else worth doing: one plan, not two."""
    from solver_fixtures import make
    ph = {"id": "ph", "type": "protein-hormone", "cost": {"atp": 0, "protein": 1, "carb": 1}, "health": 5,
          "illustrative": True}
    spots = [s.id for s in load_puzzle(TINY[0]).board.spots]
    free = ("rough-er-1", "rough-er-2")
    p = make(edition="1e", rounds=1, flasks=1, grey_flasks=0, hand=["ph"], cards=[ph], start={"mrna": 1},
             occupied={1: [s for s in spots if s not in free]})
    result = optimal_plans(p)
    assert result.best is not None and result.count == 1


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


def _searchable(limit: int = 20_000):
    """Shipped puzzles whose line facts the memoised search finds within ``limit`` states."""
    from generator.puzzles.play_runtime import best_values
    out = []
    for path in puzzle_files():
        puzzle = load_puzzle(path)
        if best_values(puzzle, 3_000) is None:     # the small ones only (cheap to search fully)
            continue
        best, plan, stats = exhaustive(puzzle)
        if best is None or not stats.complete:
            continue
        facts = line_facts(puzzle, list(plan), limit)
        if facts is not None:
            out.append((path, list(plan), best, facts))
    return out


@pytest.fixture(scope="module")
def searchable():
    return _searchable()


def test_facts_from_the_values_one_move_off_equal_the_search(searchable):
    """For a puzzle past the search's budget the page reads only moves, branching and the best
    losing departure from the proven values one move off the line: on every puzzle the search
    covers, both ways give the same facts (values from the search alone, then from the quick
    checks and CP-SAT alone)."""
    from solver.optimise.explain import line_facts_from_values
    from solver.optimise.regret import line_values
    assert len(searchable) >= 10
    bounds = []
    for path, plan, best, facts in searchable:
        puzzle = load_puzzle(path)
        for budget, planner in ((100_000, None), (0, 10.0)):
            values = line_values(puzzle, plan, best, max_states=budget, seconds=None, planner_time=planner)
            derived = line_facts_from_values(values)
            assert derived.branching == facts.branching, path.stem
            assert derived.plans.count is None and derived.plans.best == best
            assert derived.unvalued == len(values.unproven)
            # the lower bound on optimal plans never exceeds the search's count (capped: "at least")
            assert derived.plans_at_least is not None and derived.plans_at_least >= 1, path.stem
            assert facts.plans.capped or derived.plans_at_least <= facts.plans.count, (path.stem, budget)
            if budget and all(facts.only):
                assert derived.plans_at_least == 1, path.stem
            bounds.append(derived.plans_at_least)
            for i, (got, want) in enumerate(zip(derived.only, facts.only, strict=True), start=1):
                assert got is None or got == want, (path.stem, i, budget)
                if budget:
                    assert got == want
            if budget:
                assert (derived.deviation is None) == (facts.deviation is None), path.stem
            if derived.deviation and facts.deviation and not values.unproven:
                assert (derived.deviation.step, derived.deviation.health) == \
                    (facts.deviation.step, facts.deviation.health), path.stem
            if derived.deviation:   # the departure is a real plan scoring what it says
                state = initial_state(puzzle)
                for action in derived.deviation.plan:
                    state = apply(state, action)   # checks legality
                assert is_terminal(state) and returns(state) == derived.deviation.health < best

    assert max(bounds) > 1, "no puzzle has a second optimal plan one move off: the bound is untested"
