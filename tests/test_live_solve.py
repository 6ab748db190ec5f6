"""The live solver the pages run in the browser (issue #70, generator/puzzles/live_solve.py), run here
in CPython: the model as HiGHS arrays is the MIP OR-Tools solves, the answers are the command
line's (``solve --after``), every continuation replays, and the browser's sources import without
OR-Tools. The browser itself: tests/browser/test_live_solve.py."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.puzzles import live_solve, play_assets, play_runtime
from solver import load_puzzle
from solver.game.engine import apply_legal, initial_state, legal_actions
from solver.optimise.arrays import to_arrays
from solver.optimise.planner import build_model, solve_mip
from solver.optimise.position import solve_position
from solver.optimise.regret import planner_options

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "data" / "puzzles"


def arrays_mip_solve(arrays: dict) -> live_solve.MipSolve:
    """The browser's MipSolve protocol answered by OR-Tools' HiGHS on the arrays themselves (what
    docs/assets/live-solve.js hands the WebAssembly build)."""
    from ortools.linear_solver import pywraplp

    def solve(request_text: str) -> str:
        request = json.loads(request_text)
        mip = pywraplp.Solver.CreateSolver("HIGHS")
        inf = mip.infinity()
        lower, upper = list(arrays["colLower"]), list(arrays["colUpper"])
        for k, v in request["lower"].items():
            lower[int(k)] = v
        for k, v in request["upper"].items():
            upper[int(k)] = v
        xs = [mip.IntVar(lo, hi, f"x{j}") for j, (lo, hi) in enumerate(zip(lower, upper))]
        m = arrays["matrix"]
        for i in range(arrays["numRows"]):
            lo, hi = arrays["rowLower"][i], arrays["rowUpper"][i]
            row = mip.Constraint(-inf if lo is None else lo, inf if hi is None else hi)
            for k in range(m["starts"][i], m["starts"][i + 1]):
                row.SetCoefficient(xs[m["indices"][k]], m["values"][k])
        if request.get("ceiling") is not None:
            row = mip.Constraint(-inf, request["ceiling"] - arrays["offset"])
            for j, c in enumerate(arrays["colCost"]):
                if c:
                    row.SetCoefficient(xs[j], c)
        objective = mip.Objective()
        for j, c in enumerate(arrays["colCost"]):
            objective.SetCoefficient(xs[j], c)
        objective.SetOffset(arrays["offset"])
        objective.SetMaximization()
        status = mip.Solve()
        if status == pywraplp.Solver.INFEASIBLE:
            return json.dumps({"status": "infeasible", "objective": None, "bound": None, "values": []})
        if status != pywraplp.Solver.OPTIMAL:
            return json.dumps({"status": "unknown", "objective": None, "bound": None, "values": []})
        return json.dumps({"status": "optimal", "objective": objective.Value(), "bound": objective.Value(),
                           "values": [x.solution_value() for x in xs]})
    return solve


@pytest.mark.parametrize("puzzle_id", ["market-day-2e", "rule-held-card-last-flask-2e", "grey-rush-2e"])
def test_the_arrays_are_the_mip_ortools_solves(puzzle_id):
    puzzle = load_puzzle(PUZZLES / f"{puzzle_id}.yaml")
    model = build_model(puzzle, planner_options())
    arrays = to_arrays(model.lm)
    native = solve_mip(model)
    answer = json.loads(arrays_mip_solve(arrays)(json.dumps({"lower": {}, "upper": {}, "ceiling": None})))
    assert round(answer["objective"]) == native.objective
    assert arrays["numCols"] == len(model.lm.vars) and len(arrays["matrix"]["starts"]) == arrays["numRows"] + 1


def _walk(puzzle, labels_from_end: int, count: int):
    state, moves = initial_state(puzzle), []
    for k in range(count):
        legal = legal_actions(state)
        action = legal[-1 - (k % labels_from_end)] if len(legal) > k % labels_from_end else legal[-1]
        moves.append(action)
        state = apply_legal(state, action)
    return moves


@pytest.mark.parametrize("puzzle_id, moves", [("market-day-2e", 2), ("market-day-2e", 4), ("laureate-goal-2e", 3),
                                              ("deck-refill-2e", 3), ("rule-held-card-last-flask-2e", 1)])
def test_the_live_answer_is_the_command_lines(puzzle_id, moves):
    puzzle = load_puzzle(PUZZLES / f"{puzzle_id}.yaml")
    key = f"test-{puzzle_id}"
    arrays = live_solve.open_puzzle(key, play_runtime.pack(puzzle), "", "", None, None)
    live_solve._SOLVERS[key].mip_solve = arrays_mip_solve(json.loads(arrays))
    played = _walk(puzzle, 2, moves)
    answer = json.loads(live_solve.analyse_state(key, json.dumps([str(a) for a in played])))
    _, expected = solve_position(puzzle, played)
    assert answer["ok"] and answer["proven"] == expected.proven
    assert answer["health"] == expected.health
    state = initial_state(puzzle)
    for action in played:
        state = apply_legal(state, action)
    for step in answer["plan"]:
        state = apply_legal(state, next(a for a in legal_actions(state) if str(a) == step["key"]))
    from solver.game.engine import is_terminal, returns
    assert is_terminal(state) and returns(state) == answer["health"]


def test_a_move_along_an_answered_line_is_answered_at_once():
    puzzle = load_puzzle(PUZZLES / "market-day-2e.yaml")
    key = "test-follow"
    arrays = live_solve.open_puzzle(key, play_runtime.pack(puzzle), "", "", None, None)
    live_solve._SOLVERS[key].mip_solve = arrays_mip_solve(json.loads(arrays))
    played = [str(a) for a in _walk(puzzle, 2, 2)]
    first = json.loads(live_solve.analyse_state(key, json.dumps(played)))
    then = json.loads(live_solve.analyse_state(key, json.dumps(played + [first["plan"][0]["key"]])))
    assert then["health"] == first["health"] and then["plan"] == first["plan"][1:] and then["seconds"] == 0


def test_an_illegal_move_is_an_error_in_the_answer():
    puzzle = load_puzzle(PUZZLES / "market-day-2e.yaml")
    live_solve.open_puzzle("test-bad", play_runtime.pack(puzzle), "", "", None, None)
    answer = json.loads(live_solve.analyse_state("test-bad", json.dumps(["place(spot=no-such-spot)"])))
    assert answer["ok"] is False and answer["errors"] == [
        "move 1 (place(spot=no-such-spot)): not a legal move in the position it is played in"]


def test_the_browser_sources_import_and_answer_without_ortools(tmp_path):
    """What the worker loads (play_assets: the engine, the play modules, the live modules) imports
    with OR-Tools blocked, and answers (here by the value search: no MIP solver given)."""
    for path, source in {**play_assets.engine_sources(), **play_assets.live_sources()}.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")
    puzzle = load_puzzle(PUZZLES / "market-day-2e.yaml")
    played = json.dumps([str(a) for a in _walk(puzzle, 2, 4)])
    script = f"""
import sys, json
sys.modules['ortools'] = None
sys.modules['yaml'] = None
sys.path.insert(0, {str(tmp_path)!r})
import cellula_live
cellula_live.open_puzzle('k', {play_runtime.pack(puzzle)!r}, '', '', None, None)
print(cellula_live.analyse_state('k', {played!r}))
"""
    # -I -S: no site-packages (no OR-Tools, no PyYAML, not the installed project), no PYTHONPATH
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["ok"] and answer["engine"] in ("search", "line", "engine")


BROKEN = [("rounds: 2", "rounds: zero"), ("flasks: 3", "flasks: -1"), ("edition: 2e", "edition: 3e"),
          ("board: 3-5p", "board: 9p")]
"""Edits that break market-day-2e.yaml, each caught by the reader's schema or checks."""


@pytest.mark.parametrize("old, new", BROKEN)
def test_a_pasted_puzzle_gets_the_command_lines_message(tmp_path, capsys, old, new):
    text = (PUZZLES / "market-day-2e.yaml").read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new)
    answer = json.loads(live_solve.analyse_puzzle_text(broken, "en", folder=str(tmp_path)))
    (tmp_path / "market-day-2e.yaml").write_text(broken, encoding="utf-8")
    import os
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main_cli(["validate", "market-day-2e.yaml"]) == 2
    finally:
        os.chdir(here)
    assert answer["ok"] is False and answer["errors"] == [capsys.readouterr().err.strip().removeprefix("error: ")]


def test_a_pasted_puzzle_is_solved_and_told_in_the_pages_language(tmp_path):
    text = (PUZZLES / "market-day-2e.yaml").read_text(encoding="utf-8")
    puzzle = load_puzzle(PUZZLES / "market-day-2e.yaml")
    arrays = to_arrays(build_model(puzzle, planner_options()).lm)
    answer = json.loads(live_solve.analyse_puzzle_text(text, "it", mip_solve=arrays_mip_solve(arrays),
                                                       folder=str(tmp_path)))
    assert answer["ok"] and answer["proven"] and answer["health"] == 7
    assert answer["plan"] and all("(spot=" not in step["text"] for step in answer["plan"])
    assert any("Ormone Proteico" in step["text"] for step in answer["plan"])


def main_cli(argv):
    from solver.cli import main
    return main(argv)
