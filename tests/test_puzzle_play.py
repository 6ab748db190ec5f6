"""Build-time data of the interactive puzzle board (generator/puzzles/play_data.py, issue #19): every
frame is the rules engine's state along the plan, the layout covers the board, and the block
carries its data through the page sanitizer."""
from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from generator.puzzles import play_data
from generator.sanitize import sanitize_html
from solver import greedy_plan, initial_state, load_puzzle, puzzle_files, replay

PUZZLES = sorted(puzzle_files())


@pytest.fixture(scope="module", params=PUZZLES, ids=lambda p: p.stem)
def puzzle_and_plan(request):
    puzzle = load_puzzle(request.param)
    plan, _complete = greedy_plan(puzzle)
    return puzzle, [a.to_dict() for a in plan]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_frames_are_the_engine_states(puzzle_and_plan, lang):
    puzzle, plan = puzzle_and_plan
    data = play_data.board_data(puzzle, plan, lang)
    from solver import Action
    steps, _ = replay(puzzle, [Action.from_dict(a) for a in plan])
    states = [initial_state(puzzle)] + [s.state for s in steps]
    assert len(data["frames"]) == len(states)
    for i, (frame, state) in enumerate(zip(data["frames"], states)):
        assert frame["step"] == i
        assert frame["stock"] == state.stock.as_dict()
        assert frame["health"] == state.health
        assert frame["placed"] == list(state.placed)
        assert frame["row"] == list(state.row)
        assert len(frame["disks"]) == len(state.disks)
    assert all(f["text"] for f in data["frames"][1:])


def test_layout_covers_every_spot_and_vesicle_area(puzzle_and_plan):
    puzzle, _ = puzzle_and_plan
    layout = play_data.layout(puzzle)
    drawn = [s["id"] for a in layout["areas"] for s in a["spots"]]
    assert sorted(drawn) == sorted(s.id for s in puzzle.board.spots)
    assert {v["area"] for v in layout["vesicles"]} == {a.value for a, _ in puzzle.board.vesicles}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_area_names_cover_the_board(puzzle_and_plan, lang):
    puzzle, _ = puzzle_and_plan
    ui = play_data.UI[lang]
    assert {s.area.value for s in puzzle.board.spots} <= set(ui["areas"])
    assert {a.value for a, _ in puzzle.board.vesicles} <= set(ui["vesicles"])
    assert set(play_data.STOCK_ORDER) == set(ui["stock_names"])


def test_ui_languages_have_the_same_keys():
    it, en = play_data.UI["it"], play_data.UI["en"]
    assert set(it) == set(en)
    for key, value in it.items():
        if isinstance(value, dict):
            assert set(value) == set(en[key]), key


def test_block_survives_the_sanitizer(puzzle_and_plan):
    puzzle, plan = puzzle_and_plan
    block = play_data.board_block(puzzle, plan, "it")
    if not plan:
        assert block == ""
        return
    clean = sanitize_html(block)
    match = re.search(r'data-board="([^"]*)"', clean)
    assert match, clean[:200]
    assert json.loads(unescape(match.group(1))) == json.loads(json.dumps(play_data.board_data(puzzle, plan, "it")))


def test_no_plan_no_board():
    puzzle = load_puzzle(PUZZLES[0])
    assert play_data.board_block(puzzle, [], "en") == ""


def _table_puzzle():
    root = Path(__file__).resolve().parent.parent / "data" / "puzzles"
    record = json.loads((root / "rule-grey-bought-slot-2e.record.json").read_text(encoding="utf-8"))
    return load_puzzle(root / "rule-grey-bought-slot-2e.yaml"), record


@pytest.mark.parametrize("lang", ["it", "en"])
def test_move_table_is_the_engines_state_graph(lang):
    """The build-time move table (issue #36, played without Python in the browser): one row per
    reachable state, each move leading to the state the engine reaches, best scores from the
    record, a state's best the best of its moves' states, moves in words."""
    from solver.game import engine
    from generator.puzzles.move_words import move_text
    puzzle, record = _table_puzzle()
    values = record["regret"]["values"]
    table = play_data.play_table(puzzle, values, lang)
    assert table is not None and len(table["states"]) == len(values["best"])
    words = play_data.words_of(puzzle, lang)
    states = [engine.initial_state(puzzle)]
    seen = {states[0]: 0}
    for index, (frame, best, score, moves, blocked) in enumerate(table["states"]):
        state = states[index]
        # why each spot has no move: "-" exactly where a legal move is
        with_moves = {a.spot for a in ([] if engine.is_terminal(state) else engine.legal_actions(state))}
        assert [code == "-" for code in blocked] == [s.id in with_moves for s in puzzle.board.spots]
        assert table["frames"][frame] == {**play_data.play_runtime.frame_of(state),
                                          "position": play_data.position_fields(state)}
        legal = [] if engine.is_terminal(state) else engine.legal_actions(state)
        assert [table["labels"][m[1]] for m in moves] == [str(a) for a in legal]
        for move, action in zip(moves, legal):
            after = engine.apply(state, action)
            if after not in seen:
                seen[after] = len(states)
                states.append(after)
            assert move[4] == seen[after]
            assert table["labels"][move[0]] == move_text(state, action, words, after)
        if moves:
            reached = [table["states"][m[4]][1] for m in moves if table["states"][m[4]][1] is not None]
            assert best == (max(reached) if reached else None)
        else:
            assert score == engine.score(state).total
    assert table["states"][0][1] == record["solution"]["solution"]["health"]


def test_no_move_table_past_its_size():
    puzzle, record = _table_puzzle()
    values = dict(record["regret"]["values"])
    assert play_data.has_table(values)
    big = {"kind": "table", "best": {str(i): 0 for i in range(play_data.TABLE_STATES + 1)}}
    assert not play_data.has_table(big) and play_data.play_table(puzzle, big, "en") is None
    assert not play_data.has_table({"kind": "line", "best": {}}) and not play_data.has_table(None)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_names_tell_every_card_and_spot_apart(puzzle_and_plan, lang):
    """Every card and spot of a puzzle has a name, and no two cards or two spots of an area share one."""
    puzzle = puzzle_and_plan[0]
    names = play_data.names_of(puzzle, lang)
    cards = [names[c.id] for c in puzzle.cards]
    assert all(cards) and len(set(cards)) == len(cards)
    by_area: dict[str, list[str]] = {}
    for spot in puzzle.board.spots:
        by_area.setdefault(spot.area.value, []).append(names[spot.id])
    for spot_names in by_area.values():
        assert len(set(spot_names)) == len(spot_names), spot_names
