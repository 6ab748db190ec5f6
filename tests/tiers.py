"""What the fast tier (``pytest -m "not slow"``, what ``make test`` runs) re-proves, and what it
leaves to the slow tier and to the committed records.

A shipped puzzle's optimum is a committed record (``data/puzzles/<id>.record.json``): every run
checks that it is current and replays its plan (``tests/test_records.py``), ``make test`` re-proves
a few from nothing, and ``make reprove`` all of them. So the fast tier's cross-checks of search
engines run within a deterministic budget of search states and skip, saying so, what lies beyond
it; the slow tier (``pytest -m slow``, or any run without ``-m "not slow"``) has no budget."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.optimise.planner import PlanModel, PlannerResult, solve_cpsat
from solver.optimise.search import exhaustive

FAST_TIER_NODES = 5_000
"""States the exhaustive search may expand in a fast-tier cross-check (a few CPU seconds)."""
FAST_TIER_WORK = 10.0
"""CP-SAT deterministic seconds a fast-tier cross-check may spend on one proof (about 10-20 wall
seconds on one core): a puzzle small enough for the exhaustive search can still be a long proof
for CP-SAT (a random one with an Epigenetic card took a minute); the slow tier has no limit."""
SLOW_TIER = True
"""False when the run excludes the slow tier (set by ``tests/conftest.py`` from ``-m``)."""


def exhaustive_within_budget(puzzle, prune: bool = True):
    """:func:`solver.optimise.search.exhaustive`, within :data:`FAST_TIER_NODES` in the fast tier: a puzzle
    past it is skipped there (the slow tier searches it to the end)."""
    best, plan, stats = exhaustive(puzzle, prune=prune, max_nodes=None if SLOW_TIER else FAST_TIER_NODES)
    if not stats.complete:
        pytest.skip(f"{puzzle.id}: beyond the fast tier's {FAST_TIER_NODES:,} search states (the slow tier searches it)")
    return best, plan, stats


def cpsat_within_budget(model: PlanModel, **options) -> PlannerResult:
    """:func:`solver.optimise.planner.solve_cpsat` on ``model``, within :data:`FAST_TIER_WORK`
    deterministic seconds in the fast tier: a proof not finished by then is skipped there, saying
    so (a plan proven optimal within the budget is the same as without one)."""
    result = solve_cpsat(model, deterministic_time=None if SLOW_TIER else FAST_TIER_WORK, **options)
    if result.status not in ("optimal", "infeasible"):
        pytest.skip(f"{model.puzzle.id}: CP-SAT's proof is beyond the fast tier's {FAST_TIER_WORK:g} "
                    f"deterministic seconds ({result.status} so far; the slow tier proves it)")
    return result


def committed_record(puzzle_file: Path) -> dict:
    """A shipped puzzle's committed record (``data/puzzles/<id>.record.json``), as JSON."""
    return json.loads(puzzle_file.with_suffix(".record.json").read_text(encoding="utf-8"))


def recorded_solution(puzzle_file: Path) -> dict:
    """The committed record's solution of a shipped puzzle (health, plan, status, wall time)."""
    return committed_record(puzzle_file)["solution"]["solution"]


def recorded_table_states(puzzle_file: Path) -> int | None:
    """How many states the committed record's full table of best values holds (its ``regret`` of the
    ``table`` kind, :func:`generator.puzzles.play_runtime.best_values`), None when the record carries
    line values instead (the puzzle has more states than the table's budget)."""
    stats = (committed_record(puzzle_file).get("regret") or {}).get("stats") or {}
    return stats["states"] if stats.get("kind") == "table" else None


def small_puzzle_files(puzzle_files, states: int) -> list[Path]:
    """The shipped puzzles whose reachable states number at most ``states``, as their committed
    records count them: read, not searched, so that collecting the tests stays quick (searching
    every puzzle up to 3,000 states took about 8 s in each test process). The records are checked
    current by tests/test_records.py."""
    return [p for p in puzzle_files if (n := recorded_table_states(p)) is not None and n <= states]


def reproof_params(puzzle_files, seconds: float = 1.0) -> list:
    """``puzzle_files`` as parameters, those whose recorded solve took more than ``seconds`` of
    wall time in the slow tier (their optimum is the committed record's)."""
    return [pytest.param(p, id=p.stem, marks=pytest.mark.slow if recorded_solution(p)["wall_time"] > seconds else ())
            for p in puzzle_files]
