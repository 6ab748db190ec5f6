"""The proof and the neighbourhood search side by side (issue #35): which puzzles get both, the
answer's plan and bound, and a proof made of one run's plan and the other's bound."""
import json
import time

import pytest

from solver import solve
from solver.benchmarks.deck_family import deck_puzzle, deck_puzzle_data
from solver.cli import main
from solver.game.errors import SolverError
from solver.game.replay import final_score
from solver.optimise import portfolio
from solver.optimise.planner import PlannerResult, build_model, solve_cpsat
from solver.optimise.portfolio import SEARCH_PLACEMENTS, placements, prove_and_search, runs_search


@pytest.fixture(scope="module")
def small_deck():
    """An 8-placement deck puzzle (two refills), proven in well under a second, and its optimum."""
    p = deck_puzzle(8)
    return p, solve_cpsat(build_model(p)).objective


@pytest.mark.parametrize("size,workers,work_limit,expected", [
    (SEARCH_PLACEMENTS, 2, None, True),
    (SEARCH_PLACEMENTS + 8, 4, None, True),
    (SEARCH_PLACEMENTS, 1, None, False),          # one worker: the proof alone, reproducible
    (SEARCH_PLACEMENTS, 2, 30.0, False),          # a deterministic limit: the same answer everywhere
    (SEARCH_PLACEMENTS - 8, 2, None, False),      # small: CP-SAT's two workers prove it sooner
])
def test_which_puzzles_get_the_search_beside_the_proof(size, workers, work_limit, expected):
    p = deck_puzzle(size)
    assert placements(p) == size
    assert runs_search(p, workers, work_limit) is expected


def test_both_runs_together_prove_the_optimum(small_deck):
    p, optimum = small_deck
    both = prove_and_search(p, build_model(p), workers=2, time_limit=60)
    assert both.proven and both.value == optimum
    assert both.found_by in ("cpsat", "search")
    assert final_score(p, both.plan) == optimum
    assert both.search_value is not None and both.search_value <= optimum


def _stalled_proof(bound: int, seen: dict[str, object]):
    """A stand-in for the proof's CP-SAT run (the search's windows keep the real one) that proves
    ``bound`` at once, finds no plan, and runs until stopped (at most 30 s): the proof must then
    come from the search's plan."""
    real = solve_cpsat

    def fake(pm, *, progress=None, stop=None, **options):
        if "hint" in options:               # a window of the search
            return real(pm, progress=progress, stop=stop, **options)
        progress(None, bound, 0.0)
        for _ in range(3000):
            if stop.stopped:
                break
            time.sleep(0.01)
        seen["stopped"] = stop.stopped
        return PlannerResult("unknown", [], None, bound, 0.0, "cpsat", {})
    return fake


def test_the_search_plan_meeting_the_bound_is_a_proof(small_deck, monkeypatch):
    p, optimum = small_deck
    seen: dict[str, object] = {}
    monkeypatch.setattr("solver.optimise.planner.solve_cpsat", _stalled_proof(optimum, seen))
    both = prove_and_search(p, build_model(p), workers=2, time_limit=30)
    assert seen["stopped"] is True                 # ended by the search's plan, not by the time limit
    assert both.proven and both.found_by == "search" and both.value == optimum


def test_a_bound_below_the_search_plan_is_an_error(small_deck, monkeypatch):
    p, optimum = small_deck
    monkeypatch.setattr("solver.optimise.planner.solve_cpsat", _stalled_proof(optimum - 1, {}))
    with pytest.raises(SolverError, match=rf"the search's plan scores {optimum} Health Points, above the bound of {optimum - 1}"):
        prove_and_search(p, build_model(p), workers=2, time_limit=30)


def test_the_search_runs_beside_two_workers_or_more(small_deck):
    p, _ = small_deck
    with pytest.raises(SolverError, match="expected at least 2 beside the search"):
        prove_and_search(p, build_model(p), workers=1, time_limit=5)


@pytest.fixture
def search_from_8(monkeypatch):
    """The search beside the proof from 8 placements, so a small puzzle shows it in seconds."""
    monkeypatch.setattr(portfolio, "SEARCH_PLACEMENTS", 8)


def test_solve_names_the_run_that_found_the_plan(small_deck, search_from_8):
    p, optimum = small_deck
    sol = solve(p, workers=2, time_limit=60, confirm=())
    assert sol.status == "optimal" and sol.health == optimum and sol.bound == optimum
    assert sol.stats["plan_found_by"] in ("cpsat", "search")
    assert sol.stats["search_health"] <= optimum
    one = solve(p, workers=1, confirm=())
    assert "plan_found_by" not in one.stats and one.health == optimum


def test_the_command_line_says_which_run_found_the_plan(tmp_path, small_deck, search_from_8, capsys):
    p, optimum = small_deck
    data = deck_puzzle_data(8)              # the deck family is generated: written out as a file
    path = tmp_path / f"{data['id']}.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["solve", str(path), "--workers", "2", "--no-confirm"]) == 0
    out = capsys.readouterr().out
    assert "plan found by CP-SAT (the beam and large-neighbourhood search beside it: best" in out or \
        "plan found by the beam and large-neighbourhood search run beside the proof" in out
    assert main(["solve", str(path), "--workers", "2", "--no-confirm", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["health"] == optimum and data["stats"]["plan_found_by"] in ("cpsat", "search")
