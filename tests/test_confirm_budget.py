"""``solve`` answers when the answer is ready (issue #35, item 6): the second engine's confirmation
gets a budget in proportion to the proof, and the output names each engine and its seconds."""
from __future__ import annotations

import re

import pytest

from solver import cli
from solver.io.puzzle import ROOT, load_puzzle
from solver.solution import solve

PUZZLE = ROOT / "data" / "puzzles" / "market-day-2e.yaml"


@pytest.mark.parametrize("proof, budget", [(0.01, cli.CONFIRM_FLOOR), (2.0, cli.CONFIRM_FLOOR), (7.7, 15.4)])
def test_budget_is_in_proportion_to_the_proof(proof, budget):
    assert cli.confirm_budget(proof) == pytest.approx(budget)


def test_highs_confirms_within_its_budget():
    puzzle = load_puzzle(PUZZLE)
    sol = cli.confirm_with_highs(puzzle, solve(puzzle, confirm=()), 30.0)
    assert sol.confirmed_by == ("highs",) and sol.stats["highs_status"] == "optimal"
    assert sol.stats["confirm_budget_seconds"] == 30.0 and sol.stats["highs_seconds"] > 0


def test_a_different_optimum_is_an_error():
    from dataclasses import replace
    from solver.solution import VerificationError
    puzzle = load_puzzle(PUZZLE)
    sol = solve(puzzle, confirm=())
    with pytest.raises(VerificationError, match="HiGHS proves"):
        cli.confirm_with_highs(puzzle, replace(sol, health=(sol.health or 0) + 1), 30.0)


def test_solve_names_each_engine_and_its_seconds(capsys):
    args = cli.build_parser().parse_args(["solve", str(PUZZLE), "--confirm-budget", "60"])
    assert args.func(args) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"proven optimal, confirmed by highs \(cpsat \d+\.\d\d s; highs \d+\.\d\d s\)", last), last


def test_an_unfinished_confirmation_is_said(capsys):
    from solver.solution import Solution
    sol = Solution("optimal", 7, (), (), None, "cpsat", {"highs_seconds": 1.5, "highs_status": "feasible",
                                                          "confirm_budget_seconds": 1.5}, proven=True, wall_time=0.7)
    line = cli._engine_times(sol, cli._t("en"))
    assert line == "cpsat 0.70 s; highs stopped at its 1.5 s budget after 1.50 s: not confirmed"
