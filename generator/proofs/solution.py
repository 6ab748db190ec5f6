"""A puzzle's solution part of its record: the proven optimum (or a whole game's recorded run), its
proof details, the greedy contrast and the optimum under the other readings of each ruling in play.

Computing only (no page text): everything here is inside the solution's narrow fingerprint
(:mod:`.keys`), so a change of what it computes makes the records stale, as it should.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver import greedy_plan

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.solution import Solution

ENGINE = "cpsat"
"""The engine that proves a puzzle's optimum (CP-SAT, its optimum confirmed by a second engine);
the exhaustive search answers instead only where CP-SAT cannot run at all (see :func:`run_engine`)."""
FALLBACK_ENGINE = "exhaustive"
"""The engine that needs nothing beyond the rules engine (answers when the planner cannot run)."""
OTHER_READING_NODES = 75_000
"""States the exhaustive search may visit for an other reading the planner cannot model while it
models the puzzle's own reading (``disk-load: more-allowed``, the Golgi cube of another card): a
deterministic budget, past which the page says that reading's optimum was not proven. Without it a
16-placement puzzle's other reading searched until the machine ran out of memory."""


def run_engine(puzzle: Puzzle, engine: str = ENGINE, confirm: bool = True) -> tuple[Solution, str | None]:
    """``solve(puzzle, engine)``. Only when the engine cannot run at all (its library is missing)
    does the exhaustive search answer instead; a wrong or disputed answer (``VerificationError``
    and any other ``SolverError``) is raised, never hidden. ``confirm``: a proven optimum is also
    confirmed by a second engine (the worked example's; not needed for the other readings, which
    the page only compares). Returns (solution, fallback reason)."""
    from solver import solve
    options: dict[str, Any] = {} if confirm else {"confirm": ()}
    try:
        return solve(puzzle, engine=engine, **options), None
    except ImportError as exc:
        if engine == FALLBACK_ENGINE:
            raise
        return solve(puzzle, engine=FALLBACK_ENGINE, **options), f"{type(exc).__name__}: {exc}"


def greedy_record(puzzle: Puzzle) -> dict[str, Any]:
    """The greedy plan replayed through the engine (so every step is legal) and its score."""
    from solver import replay, score
    plan, complete = greedy_plan(puzzle)
    steps, final = replay(puzzle, plan)
    breakdown = score(final) if complete else None
    return {"complete": complete, "health": breakdown.total if breakdown else None,
            "breakdown": breakdown.to_dict() if breakdown else None,
            "plan": [a.to_dict() for a in plan], "steps": [s.to_dict() for s in steps]}


def budgeted_reading(variant: Puzzle, health: int | None) -> dict[str, Any]:
    """An other reading the planner cannot model, by the exhaustive search within
    :data:`OTHER_READING_NODES` states: proven (with its plan's steps where the optimum moves) or
    ``unproven``."""
    from solver import replay
    from solver.optimise.search import exhaustive
    best, plan, stats = exhaustive(variant, max_nodes=OTHER_READING_NODES)
    if not stats.complete:
        return {"status": "unproven", "health": None, "same": False, "nodes": OTHER_READING_NODES}
    if best is None:
        return {"status": "infeasible", "health": None, "same": health is None}
    record: dict[str, Any] = {"status": "optimal", "health": best, "same": best == health}
    if best != health:
        steps, _final = replay(variant, plan)
        record["steps"] = [{"events": [e.to_dict() for e in s.events], "round": s.round} for s in steps]
    return record


def compute_solution(puzzle: Puzzle, recording: Path | None = None) -> tuple[dict[str, Any], float]:
    """Solve ``puzzle`` and play the greedy policy: the record's ``solution`` part, and the seconds
    the solving took. With a ``recording`` (a whole game, ``solver.io.offline``) its plan is replayed
    instead of solving, and the other readings are not solved (the page says so)."""
    start = time.perf_counter()
    if recording is not None:
        from solver.io.offline import load_recording, recorded_solution
        solution, fallback = recorded_solution(puzzle, load_recording(recording, puzzle)), None
    else:
        solution, fallback = run_engine(puzzle)
    seconds = time.perf_counter() - start
    stats = dict(solution.stats or {})
    bound = solution.bound if solution.bound is not None else stats.get("bound")
    gap = solution.gap if solution.gap is not None else stats.get("gap")
    if gap is None and bound is not None and solution.health is not None:
        gap = bound - solution.health
    part = {
        "puzzle": puzzle.id,
        "requested_engine": ENGINE,
        "fallback": fallback,
        "solution": json.loads(json.dumps(solution.to_dict(), default=str)),
        "confirmed_by": list(solution.confirmed_by or ()),
        "bound": bound,
        "gap": gap,
        "greedy": greedy_record(puzzle),
        "other_readings": [] if recording is not None else other_readings_record(puzzle, solution.health),
        "other_readings_skipped": recording is not None and bool(puzzle.rulings_in_play()),
    }
    return part, seconds


def other_readings_record(puzzle: Puzzle, health: int | None) -> list[dict[str, Any]]:
    """The optimum under every other reading of each ruling in play (``Puzzle.rulings_in_play``):
    the worked example states the reading it uses and, where the optimum moves, shows the other."""
    from solver.game.model import RULING_READINGS
    from solver.optimise.planner import unsupported_reason
    out: list[dict[str, Any]] = []
    for ruling in puzzle.rulings_in_play():
        for reading in RULING_READINGS[ruling]:
            if reading == puzzle.reading(ruling):
                continue
            variant = puzzle.with_reading(ruling, reading)
            record: dict[str, Any]
            if unsupported_reason(variant) is not None and unsupported_reason(puzzle) is None:
                record = budgeted_reading(variant, health)
            else:
                solution, _ = run_engine(variant, confirm=False)
                record = {"status": solution.status, "health": solution.health,
                          "same": solution.health == health}
                if solution.health != health:
                    record["steps"] = [{"events": [e.to_dict() for e in s.events], "round": s.round}
                                       for s in solution.steps]
            out.append({"ruling": ruling.value, "reading": reading, **record})
    return out
