"""The play session (generator/play_runtime.py) that Pyodide runs in the browser, run here in
CPython: legal moves are the engine's, the build-time table of best reachable scores agrees with
the exhaustive search, and regret/continuation follow it."""
from __future__ import annotations

import json
import re

import pytest

from generator import play_runtime, puzzle_play
from solver import engine, load_puzzle, puzzle_files
from solver.search import exhaustive

SMALL = [f for f in puzzle_files() if play_runtime.best_values(load_puzzle(f), 3_000) is not None]


def test_some_puzzles_are_small():
    assert len(SMALL) >= 5


@pytest.mark.parametrize("file", SMALL, ids=lambda f: f.stem)
def test_table_start_value_is_the_exhaustive_optimum(file):
    puzzle = load_puzzle(file)
    table = play_runtime.best_values(puzzle, 3_000)
    best, _plan, _stats = exhaustive(puzzle)
    assert table[play_runtime.state_key(engine.initial_state(puzzle))] == best


@pytest.mark.parametrize("file", SMALL, ids=lambda f: f.stem)
def test_following_the_continuation_reaches_the_best(file):
    puzzle = load_puzzle(file)
    values = json.dumps(play_runtime.table_values(play_runtime.best_values(puzzle, 3_000)))
    session = play_runtime.Session(play_runtime.pack(puzzle), values)
    view = json.loads(session.view())
    if view["best"] is None:
        pytest.skip("no complete plan")
    target, line = view["best"], view["continuation"]
    for label in line:
        index = [a["label"] for a in view["actions"]].index(label)
        view = json.loads(session.play(index))
        assert view["best"] == target
    assert view["terminal"] and view["score"] == target


def test_a_losing_move_lowers_best_and_undo_restores():
    puzzle = load_puzzle(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    session = play_runtime.Session(play_runtime.pack(puzzle), json.dumps(play_runtime.table_values(play_runtime.best_values(puzzle, 3_000))))
    start = json.loads(session.view())
    labels = [a["label"] for a in start["actions"]]
    assert labels == [str(a) for a in engine.legal_actions(engine.initial_state(puzzle))]
    dropped = None
    for i in range(len(labels)):
        after = json.loads(session.play(i))
        if after["best"] is not None and after["best"] < start["best"]:
            dropped = after
            break
        session.undo()
    assert dropped is not None and dropped["continuation"]
    back = json.loads(session.undo())
    assert back["best"] == start["best"] and back["moves"] == []


def test_too_many_states_gives_no_table():
    puzzle = load_puzzle(next(f for f in puzzle_files() if f.stem == "rulebook-protein-hormone-2e"))
    assert play_runtime.best_values(puzzle, 10) is None


def test_engine_sources_are_only_the_engine():
    sources = puzzle_play.engine_sources()
    assert sources["solver/__init__.py"] == ""
    imports = re.compile(r"^\s*(?:import|from)\s+(ortools|yaml|jsonschema|highspy|solver\.(?:planner|model_cp|search|puzzle|loading))\b", re.M)
    for path, text in sources.items():
        assert not imports.search(text), (path, imports.search(text))
