"""A position of a game as a puzzle of its own (solver/game/position.py, issue #70 "analyse from
here"): the file fields it gives, written with the puzzle-file writer and loaded, start the engine
in the same position, and its best score is the position's own best score."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from solver.game import engine
from solver.game.position import Unwritable, position_fields, position_puzzle
from solver.game.values import OverBudget, ValueSearch
from solver.io.loading import load_yaml
from solver.io.puzzle import load_puzzle, puzzle_files
from solver.io.writer import puzzle_text

FILES = puzzle_files()
SMALL = ["market-day-2e", "rule-reshuffle-one-card-2e", "rule-grey-bought-slot-1e", "rule-free-ribosome-must-2e",
         "grey-rush-2e", "enzyme-workshop-2e", "two-player-detox-1e", "virus-attack-card-1e"]


def merged(path: Path, fields: dict[str, Any]) -> dict[str, Any]:
    """The puzzle file of ``path`` with a position's fields (as analysis.js merges them)."""
    data, _ = load_yaml(path)
    data = {**data, **fields}
    return {k: v for k, v in data.items() if v is not None}


def walk(puzzle, seed: int, games: int = 12):
    """States of random games of ``puzzle`` (every state along each)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = engine.initial_state(puzzle)
        while True:
            yield state
            moves = [] if engine.is_terminal(state) else engine.legal_actions(state)
            if not moves:
                break
            state = engine.apply(state, rng.choice(moves))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_start_is_its_own_position(path: Path) -> None:
    puzzle = load_puzzle(path)
    start = engine.initial_state(puzzle)
    assert not isinstance(position_puzzle(start), Unwritable)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_written_position_starts_in_the_same_state(path: Path, tmp_path: Path) -> None:
    puzzle = load_puzzle(path)
    checked = 0
    for state in walk(puzzle, seed=len(path.stem)):
        fields = position_fields(state)
        if isinstance(fields, str):
            assert fields in {u.value for u in Unwritable}
            continue
        file = tmp_path / f"{fields['id']}.yaml"
        file.write_text(puzzle_text(merged(path, fields)), encoding="utf-8")
        start = engine.initial_state(load_puzzle(file))
        # the loader numbers other players' disks afresh (opp1, opp2...): the same disks all the same
        assert dataclasses.replace(start, round=state.round, opp_disks=state.opp_disks) == state
        assert [(d.area, d.health, d.seat) for d in start.opp_disks] == [(d.area, d.health, d.seat) for d in state.opp_disks]
        checked += 1
        if checked >= 6:
            break
    assert checked


@pytest.mark.parametrize("name", SMALL)
def test_position_keeps_its_best_score(name: str) -> None:
    """The derived puzzle's optimum (a value search from its start) is the position's best score."""
    puzzle = load_puzzle(Path("data/puzzles") / f"{name}.yaml")
    search = ValueSearch(200_000, canonical_states=False)
    compared = 0
    for state in walk(puzzle, seed=7, games=8):
        derived = position_puzzle(state)
        if isinstance(derived, Unwritable) or state.round == 1:
            continue
        try:
            here = search.value(state)
            alone = ValueSearch(200_000, canonical_states=False).value(engine.initial_state(derived))
        except OverBudget:
            continue
        assert alone == here, (state.round, state.stock)
        compared += 1
    if compared == 0:
        pytest.skip(f"{name}: no later round start reached by the random games")


@pytest.mark.parametrize(("reason", "make"), [
    (Unwritable.MID_ROUND, lambda s: engine.apply(s, next(a for a in engine.legal_actions(s) if a.kind is engine.ActionKind.PLACE))),
])
def test_mid_round_is_not_a_start(reason: Unwritable, make) -> None:
    puzzle = load_puzzle(Path("data/puzzles/market-day-2e.yaml"))
    assert position_puzzle(make(engine.initial_state(puzzle))) is reason
    assert position_fields(make(engine.initial_state(puzzle))) == reason.value
