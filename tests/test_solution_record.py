"""A solution written with ``Solution.to_dict`` reads back as the same typed :class:`Solution`
(issue #14: the solution cache stores and reloads a typed Solution), and a record the rules
engine does not replay to its own score is refused, never rendered."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from solver import SolverError, load_puzzle, solve
from solver.solution import Solution, VerificationError

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ["rulebook-protein-hormone-2e", "rule-epigenetic-income-1e", "virus-influenza-2e"]


@pytest.fixture(scope="module", params=PUZZLES)
def solved(request):
    puzzle = load_puzzle(ROOT / "data" / "puzzles" / f"{request.param}.yaml")
    return puzzle, solve(puzzle, engine="exhaustive")


def as_json(solution: Solution) -> dict:
    """The record as the cache stores it (through JSON, as on disk)."""
    return json.loads(json.dumps(solution.to_dict(), default=str))


def test_round_trip_through_json_gives_the_same_solution(solved):
    puzzle, solution = solved
    assert Solution.from_dict(puzzle, as_json(solution)) == solution


def test_an_unsolvable_record_reads_back_without_a_plan(solved):
    puzzle, solution = solved
    empty = replace(solution, status="infeasible", health=None, plan=(), steps=(), breakdown=None, bound=None)
    back = Solution.from_dict(puzzle, as_json(empty))
    assert back.plan == () and back.health is None and back.status == "infeasible"


def _tampered(record: dict, field: str) -> dict:
    record = dict(record)
    if field == "health":
        record["health"] = record["health"] + 1
    elif field == "plan-short":
        record["plan"] = record["plan"][:-1]
    elif field == "plan-order":
        record["plan"] = list(reversed(record["plan"]))
    return record


@pytest.mark.parametrize("field", ["health", "plan-short", "plan-order"])
def test_a_record_the_engine_does_not_replay_is_refused(solved, field):
    puzzle, solution = solved
    if field == "plan-order" and len(solution.plan) < 2:
        pytest.skip("a one-action plan has no other order")
    with pytest.raises(VerificationError):
        Solution.from_dict(puzzle, _tampered(as_json(solution), field))


@pytest.mark.parametrize("change, message", [
    ({"status": "great"}, "solution.status: expected one of"),
    ({"health": "7"}, "solution.health: expected an integer or null, got '7'"),
    ({"health": True}, "solution.health: expected an integer or null, got True"),
    ({"plan": [{"kind": "teleport"}]}, "solution.plan: expected actions"),
    ({"plan": "place"}, "solution.plan: expected a list of actions"),
    ({"health": None}, "a plan needs its health"),
    ({"stats": []}, "solution.stats: expected an object"),
    ({"confirmed_by": "highs"}, "solution.confirmed_by: expected a list"),
])
def test_a_malformed_record_names_the_field(solved, change, message):
    puzzle, solution = solved
    with pytest.raises(SolverError, match=message.replace("(", r"\(").replace("[", r"\[")):
        Solution.from_dict(puzzle, {**as_json(solution), **change})


def test_not_an_object():
    puzzle = load_puzzle(ROOT / "data" / "puzzles" / f"{PUZZLES[0]}.yaml")
    with pytest.raises(SolverError, match="solution: expected an object, got list"):
        Solution.from_dict(puzzle, [])
