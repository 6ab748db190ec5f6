"""Puzzle files: all load, known optima hold, edition differences, schema export, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tiers import recorded_solution, reproof_params

from solver import PUZZLE_SCHEMA, PuzzleError, load_puzzle, puzzle_files, solve
from solver.io.puzzle import expected_health

ROOT = Path(__file__).resolve().parent.parent
FILES = puzzle_files()


def test_enough_puzzles():
    assert len(FILES) >= 12


def test_puzzle_set_covers_the_issue():
    """Graded 1-5; both editions; a 2-player board; 12+ placements; events, grey flasks, goals,
    enzyme sets, receptor bonuses."""
    ps = [load_puzzle(p) for p in FILES]
    assert {p.edition.value for p in ps} == {"1e", "2e"}
    assert {p.grade for p in ps} >= {1, 2, 3, 5}
    assert any(p.board.id == "2p" for p in ps) and any(p.players == 2 and p.board.id == "3-5p" for p in ps)
    assert any(p.rounds >= 3 and p.flasks == 4 for p in ps) and max(p.rounds * p.flasks for p in ps) >= 16
    assert any(p.grey_flasks for p in ps) and any(p.goals for p in ps) and any(any(p.events) for p in ps)
    assert any(sum(1 for c in p.cards if c.type.value == "enzyme") >= 2 for p in ps)
    assert any(any(p.opponent_hormones) for p in ps)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_puzzle_loads_and_is_bilingual(path):
    p = load_puzzle(path)
    assert dict(p.title).keys() >= {"en", "it"} and dict(p.story).keys() >= {"en", "it"}
    assert 1 <= p.grade <= 5 and p.rounds * p.flasks <= 16


KNOWN = [p for p in FILES if expected_health(p) is not None]


@pytest.mark.parametrize("path", KNOWN, ids=lambda p: p.stem)
def test_known_optimum_is_the_records(path):
    """The optimum the puzzle file states is its committed record's (whose currency and plan
    tests/test_records.py checks in every run)."""
    solution = recorded_solution(path)
    assert solution["status"] == "optimal" and solution["proven"] and solution["health"] == expected_health(path)


@pytest.mark.parametrize("path", reproof_params(KNOWN))
def test_known_optimum(path):
    """Re-proved from nothing (puzzles whose recorded solve took over a second: in the slow tier)."""
    sol = solve(load_puzzle(path), confirm=())
    assert sol.status == "optimal" and sol.proven and sol.health == expected_health(path)


def test_rulebook_example_in_both_editions():
    for ed in ("1e", "2e"):
        sol = solve(load_puzzle(ROOT / f"data/puzzles/rulebook-protein-hormone-{ed}.yaml"), engine="exhaustive")
        assert sol.health == 7 and [a.spot.rsplit("-", 1)[0] for a in sol.plan] == ["rough-er", "golgi", "exocytosis"]


@pytest.mark.parametrize("stem", ["steroid-no-lipids", "two-player-detox"])
def test_optimum_differs_between_editions(stem):
    h1 = solve(load_puzzle(ROOT / f"data/puzzles/{stem}-1e.yaml"), confirm=()).health
    h2 = solve(load_puzzle(ROOT / f"data/puzzles/{stem}-2e.yaml"), confirm=()).health
    assert h1 != h2


def test_committed_schema_is_up_to_date():
    committed = json.loads((ROOT / "data/puzzles/puzzle.schema.json").read_text(encoding="utf-8"))
    assert committed == PUZZLE_SCHEMA, "regenerate: python -m solver schema > data/puzzles/puzzle.schema.json"


GOOD = (ROOT / "data/puzzles/rulebook-protein-hormone-2e.yaml").read_text(encoding="utf-8")


def _bad(tmp_path, old, new, name="rulebook-protein-hormone-2e"):
    text = GOOD.replace(old, new)
    assert text != GOOD
    f = tmp_path / f"{name}.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(PuzzleError) as err:
        load_puzzle(f)
    msg = str(err.value)
    assert f.name in msg
    return msg


@pytest.mark.parametrize("old,new,field,expect", [
    ("hand: [protein-hormone-7]", "hand: [protein-hormone-8]", "hand[0]", "unknown card 'protein-hormone-8'"),
    ("occupied: {}", "occupied: {1: [nucleus-4]}", "occupied.1[0]", "unknown spot 'nucleus-4'"),
    ("start: {atp: 2,", "start: {atp: -1,", "start.atp", "expected an integer 0..999, got -1"),
    ("start: {atp: 2,", "start: {atp: 1.5,", "start.atp", "expected an integer 0..999, got 1.5"),
    ("type: protein-hormone,", "type: hormone,", "cards[0].type", "expected one of"),
    ("events: []", "events: [null, reduce-atp-cost]", "events", "expected at most 1 events"),
    ("objective: max-health", "objective: max-health\nboard_override: {spots: {golgi: 0}}",
     "board_override.spots.golgi", "remove every spot of area 'golgi'"),
    ("health: 7}", "health: 8}", "cards[0].illustrative", "expected `illustrative: true`"),
    ("rounds: 1", "rounds: 1\nbogus: 3", "bogus", "unknown field 'bogus'"),
    ("edition: 2e", "edition: 3e", "edition", "expected one of ['1e', '2e'], got '3e'"),
    ("cost: {atp: 2,", "cost: {atp: two,", "cards[0].cost.atp", "expected an integer 0..999, got 'two'"),
])
def test_bad_input(tmp_path, old, new, field, expect):
    msg = _bad(tmp_path, old, new)
    assert f": {field}: " in msg and expect in msg, msg


def test_bad_input_names_line(tmp_path):
    msg = _bad(tmp_path, "start: {atp: 2,", "start: {atp: -1,")
    line = GOOD.splitlines().index(next(l for l in GOOD.splitlines() if l.startswith("start:"))) + 1
    assert f".yaml:{line}: start.atp: expected an integer 0..999, got -1" in msg


def test_yaml_syntax_error(tmp_path):
    msg = _bad(tmp_path, "hand: [protein-hormone-7]", "hand: [protein-hormone-7")
    assert "YAML syntax error" in msg


def test_file_name_must_match_id(tmp_path):
    f = tmp_path / "other.yaml"
    f.write_text(GOOD, encoding="utf-8")
    with pytest.raises(PuzzleError, match="id: expected the file name 'other'"):
        load_puzzle(f)
