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

from solver.optimise.search import exhaustive

FAST_TIER_NODES = 5_000
"""States the exhaustive search may expand in a fast-tier cross-check (a few CPU seconds)."""
SLOW_TIER = True
"""False when the run excludes the slow tier (set by ``tests/conftest.py`` from ``-m``)."""


def exhaustive_within_budget(puzzle, prune: bool = True):
    """:func:`solver.optimise.search.exhaustive`, within :data:`FAST_TIER_NODES` in the fast tier: a puzzle
    past it is skipped there (the slow tier searches it to the end)."""
    best, plan, stats = exhaustive(puzzle, prune=prune, max_nodes=None if SLOW_TIER else FAST_TIER_NODES)
    if not stats.complete:
        pytest.skip(f"{puzzle.id}: beyond the fast tier's {FAST_TIER_NODES:,} search states (the slow tier searches it)")
    return best, plan, stats


def recorded_solution(puzzle_file: Path) -> dict:
    """The committed record's solution of a shipped puzzle (health, plan, status, wall time)."""
    record = json.loads(puzzle_file.with_suffix(".record.json").read_text(encoding="utf-8"))
    return record["solution"]["solution"]


def reproof_params(puzzle_files, seconds: float = 1.0) -> list:
    """``puzzle_files`` as parameters, those whose recorded solve took more than ``seconds`` of
    wall time in the slow tier (their optimum is the committed record's)."""
    return [pytest.param(p, id=p.stem, marks=pytest.mark.slow if recorded_solution(p)["wall_time"] > seconds else ())
            for p in puzzle_files]
