"""The proof and the neighbourhood search side by side (issue #35): when it can be asked for, the
answer's plan and bound, and a proof made of one run's plan and the other's bound."""
import json
import re
import time

import pytest

from solver import solve
from solver.benchmarks.deck_family import deck_puzzle, deck_puzzle_data
from solver.cli import main
from solver.game.errors import SolverError
from solver.game.replay import final_score
from solver.optimise.planner import PlannerResult, SearchStop, build_model, solve_cpsat
from solver.optimise.portfolio import prove_and_search
from solver.solution import search_fault


@pytest.fixture(scope="module")
def small_deck():
    """An 8-placement deck puzzle (two refills), proven in well under a second, and its optimum."""
    p = deck_puzzle(8)
    return p, solve_cpsat(build_model(p)).objective


@pytest.mark.parametrize("options, shown", [
    ({"workers": 1}, "1 worker(s)"),
    ({"workers": 2, "deterministic_time": 30.0}, "a deterministic limit of 30"),
    ({"workers": 2, "engine": "exhaustive"}, "engine 'exhaustive'"),
])
def test_the_search_is_asked_for_with_two_workers_on_the_wall_clock(small_deck, options, shown):
    p, _ = small_deck
    with pytest.raises(SolverError, match=r"search: expected the cpsat engine, 2 workers or more .*" + re.escape(shown)):
        solve(p, search=True, **options)


@pytest.mark.parametrize("engine, workers, limit, fault", [
    ("cpsat", 2, None, None),
    ("cpsat", 4, None, None),
    ("cpsat", 1, None, "got 1 worker(s)"),
    ("exhaustive", 2, 5.0, "got engine 'exhaustive', a deterministic limit of 5"),
])
def test_one_predicate_says_why_the_search_cannot_run(engine, workers, limit, fault):
    said = search_fault(engine, workers, limit)
    assert said is None if fault is None else (said is not None and said.endswith(fault))


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
        if "held" in options:               # a window of the search
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


def test_solve_names_the_run_that_found_the_plan(small_deck):
    p, optimum = small_deck
    sol = solve(p, workers=2, time_limit=60, confirm=(), search=True)
    assert sol.status == "optimal" and sol.health == optimum and sol.bound == optimum
    assert sol.stats["plan_found_by"] in ("cpsat", "search")
    assert sol.stats["search_health"] <= optimum
    for alone in (solve(p, workers=1, confirm=()), solve(p, workers=2, confirm=())):
        assert "plan_found_by" not in alone.stats and alone.health == optimum


def test_the_command_line_says_which_run_found_the_plan(tmp_path, small_deck, capsys):
    p, optimum = small_deck
    data = deck_puzzle_data(8)              # the deck family is generated: written out as a file
    path = tmp_path / f"{data['id']}.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["solve", str(path), "--workers", "2", "--search", "--no-confirm"]) == 0
    out = capsys.readouterr().out
    assert "plan found by CP-SAT (the beam and large-neighbourhood search beside it: best" in out or \
        "plan found by the beam and large-neighbourhood search run beside the proof" in out
    assert main(["solve", str(path), "--workers", "2", "--search", "--no-confirm", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["health"] == optimum and data["stats"]["plan_found_by"] in ("cpsat", "search")


@pytest.mark.parametrize("options, shown", [
    ([], "--workers 1"),
    (["--workers", "2", "--work-limit", "5"], "--work-limit 5"),
    (["--workers", "2", "--engine", "exhaustive"], "--engine exhaustive"),
])
def test_the_command_line_refuses_a_search_it_cannot_run(options, shown, capsys):
    assert main(["solve", "data/puzzles/market-day-2e.yaml", "--search", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --search: expected with --engine cpsat, --workers 2 or more") and shown in err


def test_a_run_stopped_before_its_search_proves_no_bound(small_deck):
    """CP-SAT answers UNKNOWN with a best bound of 0 when stopped in presolve; that 0 is no proof
    (it once reached the portfolio as 'the bound of 0' below the search's plan)."""
    p, _ = small_deck
    res = solve_cpsat(build_model(p), time_limit=1e-6)
    assert res.status == "unknown" and res.bound is None


def test_a_stopped_handle_reports_no_bound(small_deck):
    p, _ = small_deck
    stop = SearchStop()
    stop.stop()
    res = solve_cpsat(build_model(p), stop=stop)
    assert res.status == "unknown" and res.bound is None


def test_a_run_out_of_time_in_its_search_keeps_the_bound_it_proved():
    """A 24-placement deck puzzle gets no plan in 1 deterministic second (presolve takes most of
    it): the run answers UNKNOWN with the bound its search proved, as a whole game's recorded run
    keeps it."""
    p = deck_puzzle(24)
    seen: list[int] = []
    res = solve_cpsat(build_model(p), deterministic_time=1.0, progress=lambda _o, b, _s: seen.append(b))
    assert res.status == "unknown"
    assert res.bound is not None and seen and res.bound <= min(seen)
