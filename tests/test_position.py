"""Positions (issue #70, solver/optimise/position.py): the planner's model with the moves played so far
held gives the best continuation of a mid-game position, the same value as the rules engine's own
exhaustive value search, including positions in the middle of a turn (a card played, cubes traded,
income taken after a flask); ``python -m solver solve --after MOVES`` answers it."""
from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest

from solver import load_puzzle
from solver.cli import main
from solver.game.engine import Action, ActionKind, apply_legal, initial_state, is_terminal, legal_actions
from solver.game.errors import SolverError
from solver.game.values import OverBudget, ValueSearch
from solver.optimise.planner import build_model
from solver.optimise.position import Position, continuation_of, position_bounds, solve_position
from solver.optimise.regret import planner_options

PUZZLES = Path(__file__).resolve().parents[1] / "data" / "puzzles"
CASES = ("market-day-2e", "deck-refill-2e", "epigenetic-income-hormone-1e", "rule-epigenetic-exchange-1e",
         "rule-epigenetic-income-1e", "grey-rush-2e", "enzyme-workshop-2e", "laureate-goal-2e", "rule-reshuffle-one-card-2e")
"""Puzzles with plays after a flask, Epigenetic trades and income, grey flasks, goals, a reshuffle."""


def walks(puzzle, count: int, seed: int, stop_after_non_flask: bool = False):
    """Unfinished positions reached by random legal moves (reproducible), some ending mid-turn."""
    rng = random.Random(seed)
    out = []
    for _ in range(count * 30):
        state, moves = initial_state(puzzle), []
        for _ in range(rng.randint(1, 12)):
            legal = [] if is_terminal(state) else legal_actions(state)
            if not legal:
                break
            others = [a for a in legal if not a.kind.is_flask]
            action = rng.choice(others if others and stop_after_non_flask and rng.random() < 0.7 else legal)
            moves.append(action)
            state = apply_legal(state, action)
            if stop_after_non_flask and not action.kind.is_flask:
                break
        if not is_terminal(state):
            out.append(moves)
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("puzzle_id", CASES)
def test_the_model_with_the_moves_held_values_a_position_as_the_exhaustive_search(puzzle_id):
    puzzle = load_puzzle(PUZZLES / f"{puzzle_id}.yaml")
    model = build_model(puzzle, planner_options())
    checked = 0
    for moves in walks(puzzle, 4, seed=zlib.crc32(puzzle_id.encode())) + walks(puzzle, 3, seed=7, stop_after_non_flask=True):
        state = initial_state(puzzle)
        for action in moves:
            state = apply_legal(state, action)
        try:
            exact = ValueSearch(50_000, prune_dominated=True).value(state)
        except OverBudget:
            continue
        position, answer = solve_position(puzzle, moves, model=model, time_limit=120)
        assert answer.proven, (puzzle_id, [str(m) for m in moves], answer)
        assert answer.health == exact, (puzzle_id, [str(m) for m in moves], answer.engine)
        if exact is not None:
            assert continuation_of(position, list(moves) + list(answer.continuation), exact) is not None
        checked += 1
    assert checked >= 1


def test_a_card_played_after_the_flask_is_held_in_the_next_slot():
    """A play in the middle of a turn belongs to the slot it precedes: its variable is held at 1."""
    puzzle = load_puzzle(PUZZLES / "rule-held-card-last-flask-2e.yaml")
    model = build_model(puzzle, planner_options())
    for moves in walks(puzzle, 30, seed=3, stop_after_non_flask=True):
        if moves[-1].kind is ActionKind.PLAY_CARD:
            bounds = position_bounds(model, moves)
            plays = [v for v in list(model.play.values()) + list(model.play_after.values()) if v in bounds]
            assert any(bounds[v] == (1, 1) for v in plays)
            return
    pytest.skip("no walk ends with a card played")


def test_an_illegal_move_is_named():
    puzzle = load_puzzle(PUZZLES / "market-day-2e.yaml")
    with pytest.raises(SolverError, match=r"move 1 \(place\(spot=nucleus-1, card=nothing\)\) is illegal"):
        Position.after(puzzle, [Action(ActionKind.PLACE, spot="nucleus-1", card="nothing")])


def _moves_file(tmp_path: Path, puzzle_id: str, count: int) -> tuple[Path, list[Action]]:
    puzzle = load_puzzle(PUZZLES / f"{puzzle_id}.yaml")
    state, moves = initial_state(puzzle), []
    for _ in range(count):
        action = legal_actions(state)[-1]
        moves.append(action)
        state = apply_legal(state, action)
    path = tmp_path / "moves.json"
    path.write_text(json.dumps([a.to_dict() for a in moves]), encoding="utf-8")
    return path, moves


def test_solve_after_answers_the_position(tmp_path, capsys):
    path, moves = _moves_file(tmp_path, "market-day-2e", 2)
    assert main(["solve", str(PUZZLES / "market-day-2e.yaml"), "--after", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    position, expected = solve_position(load_puzzle(PUZZLES / "market-day-2e.yaml"), moves)
    assert (answer["status"], answer["health"], answer["proven"], answer["moves"]) == ("optimal", expected.health, True, 2)
    assert [Action.from_dict(a) for a in answer["continuation"]] and answer["steps"]


def test_solve_after_an_illegal_move_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "moves.json"
    path.write_text('[{"spot": "nucleus-1"}, {"spot": "nucleus-1"}, {"spot": "nucleus-1"}]', encoding="utf-8")
    assert main(["solve", str(PUZZLES / "market-day-2e.yaml"), "--after", str(path)]) == 2
    err = capsys.readouterr().err
    assert "error: move " in err and "is illegal" in err and "Traceback" not in err


def test_solve_after_refuses_another_engine(tmp_path, capsys):
    path, _ = _moves_file(tmp_path, "market-day-2e", 1)
    assert main(["solve", str(PUZZLES / "market-day-2e.yaml"), "--after", str(path), "--engine", "exhaustive"]) == 2
    assert "--after: expected the default engine" in capsys.readouterr().err
