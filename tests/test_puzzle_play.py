"""Build-time data of the interactive puzzle board (generator/puzzle_play.py, issue #19): every
frame is the rules engine's state along the plan, the layout covers the board, and the block
carries its data through the page sanitizer."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest

from generator import puzzle_play
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
    data = puzzle_play.board_data(puzzle, plan, lang)
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
    layout = puzzle_play.layout(puzzle)
    drawn = [s["id"] for a in layout["areas"] for s in a["spots"]]
    assert sorted(drawn) == sorted(s.id for s in puzzle.board.spots)
    assert {v["area"] for v in layout["vesicles"]} == {a.value for a, _ in puzzle.board.vesicles}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_area_names_cover_the_board(puzzle_and_plan, lang):
    puzzle, _ = puzzle_and_plan
    ui = puzzle_play.UI[lang]
    assert {s.area.value for s in puzzle.board.spots} <= set(ui["areas"])
    assert {a.value for a, _ in puzzle.board.vesicles} <= set(ui["vesicles"])
    assert set(puzzle_play.STOCK_ORDER) == set(ui["stock_names"])


def test_ui_languages_have_the_same_keys():
    it, en = puzzle_play.UI["it"], puzzle_play.UI["en"]
    assert set(it) == set(en)
    for key, value in it.items():
        if isinstance(value, dict):
            assert set(value) == set(en[key]), key


def test_block_survives_the_sanitizer(puzzle_and_plan):
    puzzle, plan = puzzle_and_plan
    block = puzzle_play.board_block(puzzle, plan, "it")
    if not plan:
        assert block == ""
        return
    clean = sanitize_html(block)
    match = re.search(r'data-board="([^"]*)"', clean)
    assert match, clean[:200]
    assert json.loads(unescape(match.group(1))) == json.loads(json.dumps(puzzle_play.board_data(puzzle, plan, "it")))


def test_no_plan_no_board():
    puzzle = load_puzzle(PUZZLES[0])
    assert puzzle_play.board_block(puzzle, [], "en") == ""
