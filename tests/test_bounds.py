"""Every bounding method of ``solver.benchmarks.bounds`` is a valid bound (issue #35, item 2): on the deck
suite's small puzzles, whose optima the exhaustive search knows, no method's bound is ever below
the optimum (stopped early or run to the end), and a proven optimum is the exhaustive one. The
suite's committed files are what its seeded generator deals."""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.benchmarks import bounds, deck_suite
from solver.optimise import caps as cuts
from solver.optimise.planner import build_model, unsupported_reason
from solver.io.puzzle import load_puzzle

ROOT = Path(__file__).resolve().parents[1]
SMALL = deck_suite.suite_files(small=True)
MODELLED = [p for p in SMALL if unsupported_reason(load_puzzle(p)) is None]
"""The small puzzles CP-SAT models: all of them (``test_planner_models_every_suite_puzzle``), the
disk that takes another card's Golgi cube included (issue #30, EN 317)."""
OPTIMA = {"suite-01-1e-2p-deck7-small": 4, "suite-02-2e-3p-deck13-small": 6, "suite-03-1e-3p-deck14-small": 5,
          "suite-04-2e-4p-deck11-small": 4, "suite-05-1e-2p-deck7-small": 4, "suite-06-2e-3p-deck12-small": 6,
          "suite-07-1e-3p-deck19-small": 6, "suite-08-2e-4p-deck16-small": 6, "suite-09-1e-2p-deck12-small": 7,
          "suite-10-2e-3p-deck16-small": 6, "suite-11-1e-3p-deck16-small": 7, "suite-12-2e-4p-deck11-small": 4}
"""The exhaustive search's optimum of each small suite puzzle (``test_small_optima_are_the_exhaustive_ones``
recomputes them, in the slow tier)."""


def test_suite_files_are_the_generators_deal():
    dealt = deck_suite.suite_data()
    files = {p.stem: p.read_text(encoding="utf-8") for p in deck_suite.suite_files()}
    assert set(files) == set(dealt)
    assert all(files[stem] == deck_suite.render(data) for stem, data in dealt.items())


def test_suite_varies_the_way_positions_vary():
    puzzles = [load_puzzle(p) for p in deck_suite.suite_files(small=False)]
    assert len(puzzles) >= 24 and {p.rounds * p.flasks for p in puzzles} == {16, 24}
    assert {p.edition.value for p in puzzles} == {"1e", "2e"} and {p.players for p in puzzles} >= {2, 3, 4}
    decks = {len(load_puzzle(p).deck) for p in deck_suite.suite_files(small=False)}
    assert min(decks) >= 6 and max(decks) <= 20 and len(decks) > 4
    assert any(p.hand for p in puzzles) and any(p.goals for p in puzzles)
    assert any(p.detox_opponents for p in puzzles) and any(any(h) for p in puzzles for h in p.opponent_hormones)


def test_planner_models_every_suite_puzzle():
    unmodelled = {p.stem: reason for p in deck_suite.suite_files() if (reason := unsupported_reason(load_puzzle(p)))}
    assert not unmodelled


def test_every_small_puzzle_has_a_known_optimum():
    assert {p.stem for p in SMALL} == set(OPTIMA)


MODEL_CHANGES = ("baseline", "spot symmetry", "stock prefix rows", "row by prefix sums", "card symmetry",
                 "row histories")
"""The methods run to the end in the fast tier: the planner's model, the one with symmetry, the
one with the stock's prefix rows, the row as prefix sums, identical cards in order and the row's
whole history (the cuts measured and not kept, solver/cuts.py, and the other portfolios in the
slow tier)."""
CASES = [pytest.param(m, 0.02, id=f"{m.name}, stopped early",
                      marks=() if m.name in MODEL_CHANGES else pytest.mark.slow) for m in bounds.METHODS] + [
    pytest.param(m, 5.0, id=f"{m.name}, to the end",
                 marks=() if m.name in MODEL_CHANGES else pytest.mark.slow) for m in bounds.METHODS]
"""Every method stopped early (its bound before the proof) and run to the end: the planner's model
and the one with symmetry in the fast tier, the rest in the slow tier."""


@pytest.mark.parametrize("method, deterministic", CASES)
def test_no_bound_below_the_optimum(method, deterministic):
    assert MODELLED
    for path in MODELLED:
        run = bounds.run_method(method.model(load_puzzle(path)), method, deterministic, workers=2)
        optimum = OPTIMA[path.stem]
        assert run.bound is None or run.bound >= optimum, (path.stem, method.name, run.bound, optimum)
        if run.status == "optimal":
            assert run.objective == optimum, (path.stem, method.name, run.objective, optimum)
        for _, plan, bound in run.trace:
            assert bound >= optimum and (plan is None or plan <= optimum)


def test_spot_symmetry_finds_interchangeable_spots_only_on_the_big_board():
    pm = build_model(load_puzzle(next(p for p in deck_suite.suite_files(small=False)
                                      if "-3p-" in p.stem and unsupported_reason(load_puzzle(p)) is None)))
    assert sorted(map(tuple, bounds.interchangeable_spots(pm))) == [
        ("exocytosis-1", "exocytosis-2"), ("golgi-1", "golgi-2"), ("rough-er-1", "rough-er-2")]
    two = next(p for p in deck_suite.suite_files(small=False) if "-2e-2p-" in p.stem) if any(
        "-2e-2p-" in p.stem for p in deck_suite.suite_files()) else None
    if two is not None:
        assert bounds.interchangeable_spots(build_model(load_puzzle(two))) == []


def test_identical_cards_are_the_deck_suites_copies():
    """The suite deals copies of a card (``protein-hormone-no2`` beside ``protein-hormone``): each
    group is one card's copies, of one type, cost and Health; no starting-hand card, no
    Macromolecule card, no card an action pairs with another card's disk."""
    checked = 0
    for path in deck_suite.suite_files(small=False):
        pm = build_model(load_puzzle(path))
        cards = {c.id: c for c in pm.puzzle.cards}
        paired = {c for a in pm.acts if a.disk for c in (a.card, a.disk)}
        for group in bounds.identical_cards(pm):
            checked += 1
            assert len({(cards[c].type, cards[c].cost, cards[c].health, cards[c].color) for c in group}) == 1
            assert not set(group) & (set(pm.puzzle.hand) | paired)
            assert all(cards[c].type.value not in ("macromolecule", "virus-attack") for c in group)
    assert checked >= 10


@pytest.mark.parametrize("path", SMALL[:3], ids=lambda p: p.stem)
def test_stock_prefix_rows_are_sums_of_the_stock_chain(path):
    """Each added row names one stock (after a slot) and no other, and holds on a plan the model
    without the rows found: the rows are sums of the model's own, so they cut no plan."""
    from ortools.sat.python import cp_model
    from solver.optimise.planner import cpsat_parameters, to_cpsat_model
    pm = build_model(load_puzzle(path))
    cp, xs = to_cpsat_model(pm.lm)
    solver = cpsat_parameters(1, 0, None, 5.0)
    assert solver.solve(cp) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    values = [int(solver.value(x)) for x in xs]
    before = len(pm.lm.constraints)
    added = bounds.add_stock_prefix_rows(pm)
    rows = pm.lm.constraints[before:]
    assert added == len(rows) and added >= 5 * 4        # five resources, a row per slot of each
    for row in rows:
        stocks = {v.name: k for v, k in row.expr.terms.items() if bounds.STOCK_VAR.match(v.name)}
        assert list(stocks.values()) == [1], stocks
        assert row.expr.value(values) == row.lo == row.hi


@pytest.mark.slow
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_small_optima_are_the_exhaustive_ones(path):
    from solver.optimise.search import exhaustive
    value, _, stats = exhaustive(load_puzzle(path))
    assert stats.complete and value == OPTIMA[path.stem]


# ---- the resource-flow cuts (solver/cuts.py) checked against real plans

PLANNED = [p for p in deck_suite.suite_files(small=False) if p.stem.endswith("-p16")
           and p.stem.split("-")[1] in ("01", "02", "05", "06")]
"""16-placement suite puzzles whose plans (found by CP-SAT in a short budget, replayed by the rules
engine) the cuts must admit."""


@pytest.fixture(scope="module", params=[pytest.param(p, marks=pytest.mark.slow) for p in PLANNED],
                ids=lambda p: p.stem)
def planned(request):
    """A suite puzzle, its model, and a legal plan's end state and score (replayed by the engine)."""
    from solver.solution import _verified
    puzzle = load_puzzle(request.param)
    run = bounds.run_method(build_model(puzzle), bounds.METHODS[0], 3.0, workers=1)
    assert run.plan, f"{request.param.stem}: no plan within 3 deterministic seconds"
    _, final, breakdown = _verified(puzzle, run.plan, run.objective, "cp-sat")
    return puzzle, build_model(puzzle), set(final.completed), breakdown.total


def test_a_legal_plans_completions_satisfy_every_flow_row(planned):
    _, pm, completed, _ = planned
    rows = cuts.flow_rows(pm)
    assert [r.name for r in rows] == ["placements", *cuts.GROUPS]
    for row in rows:
        used = sum(k for c, k in row.coef.items() if c in completed)
        assert used <= row.rhs, (row.name, sorted(completed), used, row.rhs)


def test_the_caps_are_not_below_a_legal_plan(planned):
    puzzle, pm, completed, total = planned
    rows = cuts.flow_rows(pm)
    cap = cuts.knapsack_cap(pm, rows)
    assert cap is not None
    health, value = cap
    assert sum(health[c] for c in completed) <= value
    objective_cap = cuts.objective_cap(pm, rows)
    assert objective_cap is not None and objective_cap >= total


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_objective_cap_is_not_below_the_exhaustive_optimum(path):
    pm = build_model(load_puzzle(path))
    cap = cuts.objective_cap(pm, cuts.flow_rows(pm))
    assert cap is not None and cap >= OPTIMA[path.stem]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_the_cuts_keep_the_optimum_of_random_small_puzzles(seed, tmp_path):
    """Small puzzles dealt with other seeds: CP-SAT's optimum with every cut equals the one without."""
    for stem, data in deck_suite.suite_data(seed).items():
        if not stem.endswith("-small"):
            continue
        path = tmp_path / f"{stem}.yaml"
        path.write_text(deck_suite.render(data), encoding="utf-8")
        puzzle = load_puzzle(path)
        if unsupported_reason(puzzle):
            continue
        plain = bounds.run_method(build_model(puzzle), bounds.METHODS[0], 30.0, workers=1)
        cut = bounds.run_method(build_model(puzzle), next(m for m in bounds.METHODS if m.name == "objective cap"),
                                30.0, workers=1)
        assert plain.status == cut.status == "optimal", (stem, plain.status, cut.status)
        assert plain.objective == cut.objective, (stem, plain.objective, cut.objective)


@pytest.mark.parametrize("epigenetic, virus, expected", [(None, False, True), ("round-income", False, False),
                                                         (None, True, False)])
def test_no_cuts_where_the_flows_are_not_modelled(epigenetic, virus, expected):
    from types import SimpleNamespace
    pm = SimpleNamespace(puzzle=SimpleNamespace(epigenetic=epigenetic, uses_virus=virus))
    assert cuts.applies(pm) is expected     # type: ignore[arg-type]
    if not expected:
        assert cuts.flow_rows(pm) == []     # type: ignore[arg-type]


@pytest.mark.parametrize("deterministic", [0.02, 5.0], ids=["stopped early", "to the end"])
@pytest.mark.parametrize("path", MODELLED, ids=lambda p: p.stem)
def test_the_completions_cap_inside_the_model_keeps_the_optimum(path, deterministic):
    """The cap built into the planner's CP-SAT model (what ``solve`` adds on one worker with a deck)
    never cuts the optimum: its bound stays at or above it, and a proof finds it."""
    from solver.optimise.planner import solve_cpsat
    res = solve_cpsat(build_model(load_puzzle(path)), deterministic_time=deterministic, completions_cap=True)
    optimum = OPTIMA[path.stem]
    assert res.bound is None or res.bound >= optimum, (path.stem, res.bound, optimum)
    if res.status == "optimal":
        assert res.objective == optimum, (path.stem, res.objective, optimum)
    assert deterministic < 1 or res.status == "optimal"


def test_the_completions_cap_bounds_the_objective_in_the_model():
    """Inside the model the cap is a row on the objective: the model gains its constraints, and a
    short one-worker run on a 16-placement suite puzzle (deterministic) bounds the objective at or
    below the standalone cap."""
    from ortools.sat.python import cp_model
    from solver.optimise.planner import to_cpsat_model
    path = next(p for p in deck_suite.suite_files(small=False) if p.stem.startswith("suite-03-") and p.stem.endswith("p16"))
    pm = build_model(load_puzzle(path))
    cp, xs = to_cpsat_model(pm.lm)
    before = len(cp.proto.constraints)
    assert cuts.add_completions_cap(pm, cp, xs)
    assert len(cp.proto.constraints) > before
    standalone = cuts.objective_cap(pm, cuts.flow_rows(pm))
    assert standalone is not None
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.max_deterministic_time = 1, 0.5
    solver.solve(cp)
    assert solver.best_objective_bound <= standalone


def test_the_completions_cap_stays_out_where_its_flows_are_not_modelled():
    from solver.optimise.planner import to_cpsat_model
    epigenetic = next(p for p in sorted((ROOT / "data" / "puzzles").glob("*.yaml")) if "epigenetic" in p.stem)
    pm = build_model(load_puzzle(epigenetic))
    cp, xs = to_cpsat_model(pm.lm)
    before = len(cp.proto.constraints)
    assert not cuts.add_completions_cap(pm, cp, xs)
    assert len(cp.proto.constraints) == before


@pytest.mark.parametrize("workers, deck, rounds, added", [
    (1, True, None, True), (2, True, None, False), (1, False, None, False),
    (1, True, 4, True), (1, True, 5, False)])
def test_solve_adds_the_cap_on_one_worker_with_a_deck_up_to_16_placements(workers, deck, rounds, added):
    """One worker, a deck, at most 16 placements (4 rounds of 4 flasks; 5 rounds are 20)."""
    from dataclasses import replace
    from solver.optimise.caps import CAP_PLACEMENTS, completions_cap_helps
    puzzle = load_puzzle(SMALL[0])
    if not deck:
        puzzle = replace(puzzle, deck=())
    if rounds is not None:
        puzzle = replace(puzzle, rounds=rounds, flasks=4, grey_flasks=0)
        assert (rounds * 4 <= CAP_PLACEMENTS) is added
    assert completions_cap_helps(puzzle, workers) is added


def test_a_run_stopped_before_its_search_reports_no_bound():
    """CP-SAT stopped in presolve answers a best bound of 0, which proves nothing: a suite row
    must not carry it as a bound below every plan."""
    from solver.benchmarks.deck_family import deck_puzzle
    run = bounds.run_method(build_model(deck_puzzle(24)), bounds.METHODS[0], 0.01, workers=1)
    assert run.status == "unknown" and run.bound is None
