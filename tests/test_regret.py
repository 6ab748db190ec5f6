"""Regret figures one move off the optimal line (solver.optimise.regret, the ``line`` kind of the page's
values, issue #19): on small puzzles, where the full table of every state's best reachable score
exists, the one-move-off path must agree with it state by state; every stored continuation must
replay in the rules engine to exactly its value; and the play session must show a figure only
where one was proven."""
from __future__ import annotations

import json

import pytest

from generator.puzzles import play_runtime, play_data as board_play   # play_data: the tests' reader below
from generator.proofs import regret as regret_values
from play_data import play_data
from solver.game import engine
from solver import load_puzzle, puzzle_files
from solver.optimise.regret import line_values
from solver.optimise.search import exhaustive
from tiers import small_puzzle_files

TABLE_STATES = 3_000

SMALL = small_puzzle_files(puzzle_files(), TABLE_STATES)


def solved(file):
    """(puzzle, full table, optimum, one optimal plan) of a small puzzle with a complete plan."""
    puzzle = load_puzzle(file)
    table = play_runtime.best_values(puzzle, TABLE_STATES)
    best, plan, stats = exhaustive(puzzle)
    if best is None:
        pytest.skip("no complete plan")
    assert stats.complete
    return puzzle, table, best, plan


def test_every_method_is_exercised():
    methods: dict[str, int] = {}
    for file in SMALL:
        puzzle, _table, best, plan = solved(file)
        for key, n in line_values(puzzle, plan, best, seconds=None).methods.items():
            methods[key] = methods.get(key, 0) + n
    assert {"terminal", "search", "resume"} <= set(methods), methods


@pytest.mark.parametrize("budget", [100_000, 0], ids=["searched", "quick-only"])
@pytest.mark.parametrize("file", SMALL, ids=lambda f: f.stem)
def test_off_line_values_equal_the_full_table(file, budget):
    puzzle, table, best, plan = solved(file)
    result = line_values(puzzle, plan, best, max_states=budget, seconds=None)
    for state in result.line:
        assert table[play_runtime.state_key(state)] == best
    for value in result.off:
        assert table[play_runtime.state_key(value.state)] == value.best, (value.step, str(value.action), value.method)
    if budget:
        assert not result.unproven
    # every legal move off every line state is accounted for, once
    covered = {v.state for v in result.off} | {u.state for u in result.unproven} | set(result.line)
    for state in result.line[:-1]:
        for action in engine.legal_actions(state):
            assert engine.apply(state, action) in covered


@pytest.mark.parametrize("file", SMALL, ids=lambda f: f.stem)
def test_stored_continuations_replay_to_their_value(file):
    puzzle, _table, best, plan = solved(file)
    result = line_values(puzzle, plan, best, max_states=100_000, seconds=None)
    for value in result.off:
        assert value.best is None or value.best <= best
        state = value.state
        for action in value.continuation:
            state = engine.apply(state, action)     # raises IllegalActionError on an illegal move
        if value.best is None:
            assert value.continuation == () and not engine.is_terminal(state)
        else:
            assert engine.is_terminal(state) and engine.returns(state) == value.best


@pytest.mark.parametrize("file", SMALL, ids=lambda f: f.stem)
def test_planner_stage_values_equal_the_full_table(file):
    """The CP-SAT stage (the line's moves up to the state fixed) against the exhaustive table:
    with no search budget, every state the quick checks leave goes to the planner, and each value
    it proves is the table's, its continuation replaying to it."""
    puzzle, table, best, plan = solved(file)
    result = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=10.0)
    planned = [v for v in result.off if v.method == "cpsat"]
    for value in planned:
        assert table[play_runtime.state_key(value.state)] == value.best, (value.step, str(value.action))
        state = value.state
        for action in value.continuation:
            state = engine.apply(state, action)
        assert value.best is None or (engine.is_terminal(state) and engine.returns(state) == value.best)
    # what the planner leaves is only what it cannot hold: a move that does not end a turn, or
    # a puzzle or action the model does not cover
    for item in result.unproven:
        assert not item.action.kind.is_flask or not planned, (item.step, str(item.action))


def test_the_planner_stage_proves_most_states_the_search_is_not_given():
    proven = left = 0
    for file in SMALL:
        puzzle, _table, best, plan = solved(file)
        result = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=10.0)
        proven += result.methods.get("cpsat", 0)
        left += len(result.unproven)
    assert proven > 0 and proven >= 4 * left, (proven, left)


@pytest.mark.parametrize("name", ["rulebook-protein-hormone-2e"])
def test_planner_passes_prove_what_one_long_pass_proves(name):
    """Passes of growing time: the states a too-short first pass leaves go to the next one, and
    the end result is the same values as one long pass, each the full table's."""
    puzzle, table, best, plan = solved(next(f for f in SMALL if f.stem == name))
    one = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=10.0)
    short = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=(0.001,))
    passes = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=(0.001, 10.0))
    assert short.methods.get("cpsat", 0) < one.methods["cpsat"], "the short pass should leave states over"
    assert {(v.step, v.action, v.best) for v in passes.off} == {(v.step, v.action, v.best) for v in one.off}
    assert {(u.step, u.action) for u in passes.unproven} == {(u.step, u.action) for u in one.unproven}
    assert all(table[play_runtime.state_key(v.state)] == v.best for v in passes.off)


def test_a_plan_that_misses_the_optimum_is_refused():
    puzzle, _table, best, plan = solved(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    with pytest.raises(ValueError):
        line_values(puzzle, plan, best + 1)


def line_session(file, monkeypatch, budget=100_000, planner_time=None):
    """A play session on ``file`` with values of the line kind (as a large puzzle gets them);
    ``planner_time``: the CP-SAT stage's (None: no planner stage)."""
    puzzle, table, best, plan = solved(file)
    monkeypatch.setattr(regret_values, "LINE_STATES", budget)
    monkeypatch.setattr(regret_values, "LINE_PLANNER_TIME", planner_time)
    values, stats = regret_values.line_values_of(puzzle, [a.to_dict() for a in plan], best)
    assert stats["proven"] + stats["unproven"] == stats["off_line"]
    return play_runtime.Session(play_runtime.pack(puzzle), json.dumps(values)), table, best, plan


def weaker_first_move(session, table, best):
    """Index of a first move whose best reachable score is below the optimum, or None."""
    start = engine.initial_state(session.puzzle)
    for i, action in enumerate(engine.legal_actions(start)):
        value = table[play_runtime.state_key(engine.apply(start, action))]
        if value is not None and value < best:
            return i
    return None


def test_session_line_kind_weaker_move_continuation_and_too_far(monkeypatch):
    file = next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e")
    session, table, best, plan = line_session(file, monkeypatch)
    start = json.loads(session.view())
    assert start["regret"] == "known" and start["best"] == best
    assert start["continuation"] == [str(a) for a in plan]
    index = weaker_first_move(session, table, best)
    assert index is not None
    after = json.loads(session.play(index))
    assert after["regret"] == "known" and after["best"] < best
    assert after["best"] == table[play_runtime.state_key(session.history[-1])]
    assert after["continuation"]
    # following the shown continuation keeps the figure, to the end
    target, line = after["best"], after["continuation"]
    for label in line:
        view = json.loads(session.play([a["label"] for a in view_or(session)["actions"]].index(label)))
        assert view["regret"] == "known" and view["best"] == target
    assert view["terminal"] and view["score"] == target
    # back to the weaker state, then a move that leaves the continuation: two moves off the line
    for _ in line:
        session.undo()
    labels = [a["label"] for a in view_or(session)["actions"]]
    other = [i for i, label in enumerate(labels) if label != line[0]]
    if other:
        state = engine.apply(session.history[-1], session.actions()[other[0]])
        view = json.loads(session.play(other[0]))
        if play_runtime.state_key(state) not in session.values["best"]:
            assert view["regret"] == "too_far" and view["best"] is None


def view_or(session):
    return json.loads(session.view())


def test_session_line_kind_without_budget_says_not_computed(monkeypatch):
    file = next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e")
    session, table, best, _plan = line_session(file, monkeypatch, budget=0)
    stored = session.values["best"]
    start = engine.initial_state(session.puzzle)
    unknown = [i for i, a in enumerate(engine.legal_actions(start))
               if play_runtime.state_key(engine.apply(start, a)) not in stored]
    assert unknown, "with no search budget some first moves must stay without a value"
    view = json.loads(session.play(unknown[0]))
    assert view["regret"] == "not_computed" and view["best"] is None
    for key, value in stored.items():
        assert table[key] == value
    # the planner stage values those first moves, each as the full table does
    session, table, best, _plan = line_session(file, monkeypatch, budget=0, planner_time=10.0)
    for i in unknown:
        key = play_runtime.state_key(engine.apply(start, engine.legal_actions(start)[i]))
        assert session.values["best"][key] == table[key]


def test_table_kind_is_unchanged_for_small_puzzles():
    file = next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e")
    puzzle = load_puzzle(file)
    values, stats, _seconds = regret_values.compute_values(puzzle, [], None)
    assert values is not None and values["kind"] == "table" and stats["kind"] == "table"
    assert values["best"] == play_runtime.best_values(puzzle, regret_values.FULL_TABLE_STATES)


def asset_data(asset, puzzle):
    """The object a play data asset files under its puzzle's id (what board.js reads)."""
    return play_data(asset.content, puzzle.id)


def test_unproven_optimum_gets_no_values():
    puzzle, _table, best, plan = solved(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    actions = [a.to_dict() for a in plan]
    block = board_play.board_block(puzzle, actions, "en", best, proven=False)
    assert 'data-regret=""' in block and 'data-optimum=""' in block
    assert asset_data(board_play.play_data_asset(puzzle, None), puzzle)["values"] == ""
    proven = board_play.board_block(puzzle, actions, "en", best)
    assert 'data-regret="1"' in proven and f'data-optimum="{best}"' in proven
    values, _stats, _seconds = regret_values.compute_values(puzzle, actions, best)
    data = asset_data(board_play.play_data_asset(puzzle, values), puzzle)
    assert json.loads(data["values"]) == values


def test_page_carries_no_play_data_but_its_address():
    """The regret values and the packed puzzle load with play mode, not with the page."""
    puzzle, _table, best, plan = solved(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    actions = [a.to_dict() for a in plan]
    block = board_play.board_block(puzzle, actions, "en", best)
    asset = board_play.play_data_asset(puzzle, regret_values.compute_values(puzzle, actions, best)[0])
    assert f'data-play="generated/{asset.path}"' in block and asset.path == f"play/{puzzle.id}.js"
    data = asset_data(asset, puzzle)
    assert data["values"] not in block and data["play"] not in block
    assert data["play"] == play_runtime.pack(puzzle)


def test_state_keys_tell_the_table_states_apart():
    puzzle = load_puzzle(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    seen: dict[str, engine.State] = {}
    stack = [engine.initial_state(puzzle)]
    while stack:
        state = stack.pop()
        key = play_runtime.state_key(state)
        if key in seen:
            assert seen[key] == state
            continue
        seen[key] = state
        if not engine.is_terminal(state):
            stack.extend(engine.apply(state, a) for a in engine.legal_actions(state))


@pytest.mark.parametrize(("name", "plannable"), [("virus-influenza-2e", False), ("deck-season-1e", True)])
def test_the_search_budget_is_larger_where_no_planner_stage_follows(name, plannable):
    puzzle = load_puzzle(next(f for f in puzzle_files() if f.stem == name))
    assert regret_values.plannable(puzzle) is plannable
    expected = regret_values.LINE_STATES if plannable else regret_values.LINE_STATES_UNPLANNED
    assert regret_values.line_state_budget(puzzle) == expected > 0


@pytest.mark.parametrize("name, capped", [("rule-row-refresh-2e", True), ("rulebook-protein-hormone-2e", False)])
def test_the_planner_stage_adds_the_completions_cap_where_solve_does(name, capped, monkeypatch):
    """The prefix solves are one-worker runs: with a deck (up to 16 placements) they carry the
    completions cap, as ``solve`` on one worker does, and still give the full table's values."""
    from solver.optimise import planner
    asked: list[bool] = []
    solve = planner.solve_cpsat

    def spy(pm, **kwargs):
        asked.append(kwargs.get("completions_cap", False))
        return solve(pm, **kwargs)

    monkeypatch.setattr(planner, "solve_cpsat", spy)
    puzzle, table, best, plan = solved(next(f for f in SMALL if f.stem == name))
    assert bool(puzzle.deck) is capped
    result = line_values(puzzle, plan, best, max_states=0, seconds=None, planner_time=10.0)
    assert asked and set(asked) == {capped}
    assert all(table[play_runtime.state_key(v.state)] == v.best for v in result.off if v.method == "cpsat")
