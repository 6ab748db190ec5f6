"""The play session (generator/puzzles/play_runtime.py) that Pyodide runs in the browser, run here in
CPython: legal moves are the engine's, the build-time table of best reachable scores agrees with
the exhaustive search, and regret/continuation follow it."""
from __future__ import annotations

import json
import re

import pytest

from generator.puzzles import play_assets, play_data, play_runtime
from generator.puzzles.play_assets import ROOT
from solver.game import engine
from solver import load_puzzle, puzzle_files
from generator.puzzles.step_texts import step_text
from solver.optimise.search import exhaustive
from tiers import small_puzzle_files
from solver.game.replay import step_events

SMALL = small_puzzle_files(puzzle_files(), 3_000)


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
    sources = play_assets.engine_sources()
    game = {p.relative_to(ROOT).as_posix() for p in (ROOT / "solver" / "game").rglob("*.py")}
    assert game <= set(sources), "every module of solver/game goes to the browser"
    assert set(sources) - game == {"generator/puzzles/move_words.py", "cellula_play.py"}, \
        "nothing but the game package and the play session: no stand-in for another module"
    imports = re.compile(r"^\s*(?:import|from)\s+(ortools|yaml|jsonschema|highspy|solver\.(?:planner|model_cp|search|puzzle|loading))\b", re.M)
    for path, text in sources.items():
        assert not imports.search(text), (path, imports.search(text))


ENGINE_CALL = re.compile(r"\b(place|exhaust|play-card|trade|income|peek|vaccinate|respond)\(")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_moves_are_told_in_the_readers_words(lang):
    """With the page's words (issue #36) every legal move, the moves played and the continuation
    are the catalogue's step words with names: no engine call, no card or spot id; the engine's own
    label stays available as ``key``."""
    puzzle = load_puzzle(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    words = play_data.words_of(puzzle, lang)
    values = json.dumps(play_runtime.table_values(play_runtime.best_values(puzzle, 3_000)))
    session = play_runtime.Session(play_runtime.pack(puzzle), values, json.dumps(words.to_dict()))
    view = json.loads(session.view())
    ids = {c.id for c in puzzle.cards} | {s.id for s in puzzle.board.spots if "-" in s.id}
    state = engine.initial_state(puzzle)
    assert [a["key"] for a in view["actions"]] == [str(a) for a in engine.legal_actions(state)]
    for i, action in enumerate(engine.legal_actions(state)):
        label = view["actions"][i]["label"]
        assert label == step_text(step_events(puzzle, state, action, engine.apply(state, action)), lang, words.names)
        assert not ENGINE_CALL.search(label) and not any(i in label for i in ids), label
    played = view["actions"][0]["label"]
    after = json.loads(session.play(0))
    assert after["moves"] == [played] and after["frame"]["text"] == played
    for text in after["continuation"]:
        assert not ENGINE_CALL.search(text) and not any(i in text for i in ids), text


def test_engine_sources_run_without_the_project(tmp_path):
    """What the browser loads runs on the standard library alone (no site-packages: no yaml), and
    tells moves in words: the same check as Pyodide's, in a bare CPython."""
    import subprocess
    import sys
    for path, text in play_assets.engine_sources().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    puzzle = load_puzzle(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    (tmp_path / "packed.txt").write_text(play_runtime.pack(puzzle), encoding="utf-8")
    (tmp_path / "words.json").write_text(json.dumps(play_data.words_of(puzzle, "en").to_dict()), encoding="utf-8")
    script = ("import sys, json; sys.path.insert(0, '.'); import cellula_play; "
              "s = cellula_play.Session(open('packed.txt').read(), '', open('words.json').read()); "
              "print(json.loads(s.view())['actions'][0]['label'])")
    done = subprocess.run([sys.executable, "-S", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and not ENGINE_CALL.search(done.stdout), done.stdout


def test_a_taken_spot_says_taken():
    """Why a spot has no move (generator/puzzles/move_words.py blocked_code): the spot just taken is
    taken; a spot with a move has none to give."""
    from generator.puzzles.move_words import BLOCKED, blocked_code
    puzzle = load_puzzle(next(f for f in SMALL if f.stem == "rulebook-protein-hormone-2e"))
    state = engine.initial_state(puzzle)
    action = next(a for a in engine.legal_actions(state) if a.spot and not a.grey)
    assert blocked_code(state, action.spot) == "-"
    after = engine.apply(state, action)
    if not after.placed:
        pytest.skip("the move ended the round")
    code = blocked_code(after, action.spot)
    assert code in ("t", "a") and BLOCKED[code] in ("taken", "area_full")
