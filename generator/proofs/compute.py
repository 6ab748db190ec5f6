"""Everything computed for one puzzle, in one place (what the pipeline's workers run). What a
record's answers depend on, and so when it is stale, is :mod:`.keys`'s: the engine's behaviour,
the planner's model, and the narrow fingerprints of the searches reached from here.

The order is the one the answers depend on: the solution first (its proven optimum and plan), then
the regret values against that optimum along that plan, then the why facts (which reuse the
values' line search past their own budget), then the level from the facts and the greedy contrast.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .regret import compute_values
from .solution import compute_solution
from .why import compute_why, difficulty

if TYPE_CHECKING:
    from solver.game.model import Puzzle

OPTIMAL = "optimal"
"""The solution status of a proven optimum (``Solution.status``)."""


@dataclass(frozen=True)
class Computed:
    """What :func:`compute` found for a puzzle: the answers (deterministic) and the seconds each part
    took (which vary from machine to machine and are kept apart)."""

    answers: dict[str, Any]
    """``solution``, ``regret``, ``why`` and ``level``: JSON-ready, the same on every machine."""
    seconds: dict[str, float]
    """Wall seconds per part."""


def proven_optimum(solution: dict[str, Any]) -> int | None:
    """The solution's Health when it is a proven optimum, else None."""
    return solution.get("health") if solution.get("status") == OPTIMAL else None


def compute(puzzle: Puzzle, recording: Path | None = None, kept: dict[str, Any] | None = None) -> Computed:
    """Solve ``puzzle`` (or replay its ``recording``), then compute its regret values, its why facts
    and its level. ``kept``: answer parts of its record still current (``solution``, ``regret``,
    ``why``, with their ``seconds``), reused as they are; the level is always computed again."""
    import time
    kept = kept or {}
    seconds = dict(kept.get("seconds") or {})
    if "solution" in kept:
        part = kept["solution"]
    else:
        part, solve_seconds = compute_solution(puzzle, recording)
        seconds["solution"] = round(solve_seconds, 3)
    solution = part["solution"]
    plan = solution.get("plan", [])
    optimum = proven_optimum(solution)
    if "regret" in kept:
        regret = kept["regret"]
    else:
        values, stats, regret_seconds = (compute_values(puzzle, plan, optimum) if plan and optimum is not None
                                         else (None, {}, 0.0))
        regret, seconds["regret"] = {"values": values, "stats": stats}, round(regret_seconds, 3)
    if "why" in kept:
        why = kept["why"]
    else:
        start = time.perf_counter()
        why = compute_why(puzzle, plan, optimum)
        seconds["why"] = round(time.perf_counter() - start, 3)
    level = difficulty(solution.get("health"), part["greedy"].get("health"), why)
    answers = {"solution": part, "regret": regret, "why": why, "level": dataclasses.asdict(level)}
    return Computed(answers, {k: seconds[k] for k in ("solution", "regret", "why")})
