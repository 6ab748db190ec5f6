"""Solving a puzzle for its page, cached: which engine answers (CP-SAT for big puzzles when the
solver has it), the record every page renders (the solution, its proof details, the greedy
contrast, the optimum under the other readings of each ruling in play), and the on-disk cache
(:mod:`generator.solution_cache`, ``.cache/solutions``) so a warm build does not search again."""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver import greedy_plan

from .. import solution_cache
from .model import PuzzleEntry, PuzzleSource

from solver.solution import Solution

if TYPE_CHECKING:
    from solver.model import Puzzle

PLANNER_ENGINES = ("cpsat", "planner")
"""Names the CP-SAT planner may be registered under in ``solver.solve`` (first found is used)."""

BIG_PUZZLE_PLACEMENTS = 6
"""Puzzles with at least this many flask placements (rounds × flasks) go to the CP-SAT planner
when the solver offers it; smaller ones stay with the default engine."""

CACHE_DIR: Path | None = None
"""Where records are cached; None: :data:`generator.solution_cache.CACHE_DIR` (tests override)."""


def default_engine() -> str:
    """The engine ``solver.solve`` uses when not told, else ``exhaustive``."""
    from solver.solution import solve  # the implementation (``solver.solve`` may be wrapped)
    param = inspect.signature(solve).parameters.get("engine")
    if param is not None and isinstance(param.default, str):
        return param.default
    return "exhaustive"


def available_engines() -> tuple[str, ...]:
    """Engine names the solver declares (``ENGINES`` of the package, its ``solution`` or ``cli``
    module), plus ``cpsat`` when ``solver/cpsat.py`` exists."""
    import solver
    names: list[str] = []
    for module in ("solver", "solver.solution", "solver.cli"):
        try:
            declared = getattr(importlib.import_module(module), "ENGINES", None)
        except ImportError:
            declared = None
        if declared:
            names += [str(n) for n in declared]
    if importlib.util.find_spec("solver.cpsat") is not None:
        names.append("cpsat")
    del solver
    return tuple(dict.fromkeys(names)) or ("exhaustive",)


def placements(puzzle: Puzzle) -> int:
    """The player's flask placements: rounds × flasks (the size that drives the search)."""
    return puzzle.rounds * puzzle.flasks


def engine_for(puzzle: Puzzle) -> str:
    """CP-SAT for big puzzles when the solver has it, the default engine otherwise."""
    if placements(puzzle) >= BIG_PUZZLE_PLACEMENTS:
        available = available_engines()
        for name in PLANNER_ENGINES:
            if name in available:
                return name
    return default_engine()


FALLBACK_ENGINE = "exhaustive"
"""The engine that needs nothing beyond the rules engine (answers when the planner cannot run)."""


def run_engine(puzzle: Puzzle, engine: str, confirm: bool = True) -> tuple[Solution, str | None]:
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


def compute_record(puzzle: Puzzle, engine: str, recording: Path | None = None) -> dict[str, Any]:
    """Solve ``puzzle`` and play the greedy policy: everything the page renders. With a
    ``recording`` (a whole game, ``solver.offline``) its plan is replayed instead of solving, and
    the other readings are not solved (a note says so)."""
    start = time.perf_counter()
    if recording is not None:
        from solver.offline import load_recording, recorded_solution
        solution, fallback = recorded_solution(puzzle, load_recording(recording, puzzle)), None
    else:
        solution, fallback = run_engine(puzzle, engine)
    seconds = time.perf_counter() - start
    stats = dict(getattr(solution, "stats", {}) or {})
    bound = getattr(solution, "bound", None)
    bound = bound if bound is not None else stats.get("bound")
    gap = getattr(solution, "gap", None)
    gap = gap if gap is not None else stats.get("gap")
    if gap is None and bound is not None and solution.health is not None:
        gap = bound - solution.health
    return {
        "puzzle": puzzle.id,
        "requested_engine": engine,
        "fallback": fallback,
        "solver_version": solution_cache.solver_version(),
        "solution": json.loads(json.dumps(solution.to_dict(), default=str)),
        "confirmed_by": list(getattr(solution, "confirmed_by", None) or ()),
        "bound": bound,
        "gap": gap,
        "seconds": round(seconds, 3),
        "greedy": greedy_record(puzzle),
        "other_readings": [] if recording is not None else other_readings_record(puzzle, engine, solution.health),
        "other_readings_skipped": recording is not None and bool(puzzle.rulings_in_play()),
    }


def other_readings_record(puzzle: Puzzle, engine: str, health: int | None) -> list[dict[str, Any]]:
    """The optimum under every other reading of each ruling in play (``Puzzle.rulings_in_play``):
    the worked example states the reading it uses and, where the optimum moves, shows the other."""
    from solver.model import RULING_READINGS
    out: list[dict[str, Any]] = []
    for ruling in puzzle.rulings_in_play():
        for reading in RULING_READINGS[ruling]:
            if reading == puzzle.reading(ruling):
                continue
            solution, _ = run_engine(puzzle.with_reading(ruling, reading), engine, confirm=False)
            record: dict[str, Any] = {"ruling": ruling.value, "reading": reading, "status": solution.status,
                      "health": solution.health, "same": solution.health == health}
            if solution.health != health:
                record["steps"] = [{"events": [e.to_dict() for e in s.events], "round": s.round}
                                   for s in solution.steps]
            out.append(record)
    return out


def depends_on(puzzle: Puzzle) -> tuple[Path, ...]:
    """Data files besides the puzzle file that its solution depends on."""
    from solver.puzzle import RULEBOOK_CARDS, board_path
    return (board_path(puzzle.board.id), RULEBOOK_CARDS)


@dataclass(frozen=True)
class Solved:
    """A puzzle's cached record and the typed :class:`solver.Solution` it holds, read back."""

    lookup: solution_cache.Lookup
    """The record the pages render (and whether it came from the cache)."""
    solution: Solution
    """``lookup.record["solution"]`` read back by ``Solution.from_dict``: its plan replayed in the
    rules engine, so a stale or damaged record never reaches a page."""

    @property
    def record(self) -> dict[str, Any]:
        return self.lookup.record

    @property
    def hit(self) -> bool:
        return self.lookup.hit

    @property
    def key(self) -> str:
        return self.lookup.key


def solution_key(puzzle: Puzzle, file: Path, recording: Path | None = None) -> str:
    """The cache key of ``puzzle``'s record (:func:`solve_cached`)."""
    return solution_cache.cache_key(file, engine_for(puzzle), depends_on(puzzle) + ((recording,) if recording else ()))


def is_cached(puzzle: Puzzle, file: Path, recording: Path | None = None) -> bool:
    """Whether :func:`solve_cached` finds ``puzzle``'s record on disk (without replaying it)."""
    return solution_cache.read(CACHE_DIR or solution_cache.CACHE_DIR, solution_key(puzzle, file, recording)) is not None


def solve_cached(puzzle: Puzzle, file: Path, recording: Path | None = None) -> Solved:
    """The puzzle's record from the cache, or computed (or replayed from ``recording``) and stored.
    A cached record the rules engine does not replay to its own score (a record written by
    another engine version under a colliding key, or edited by hand) is computed again."""
    from solver import SolverError
    engine = engine_for(puzzle)
    key = solution_key(puzzle, file, recording)

    def replays(record: dict[str, Any]) -> bool:
        try:
            Solution.from_dict(puzzle, record["solution"])
        except SolverError:
            return False
        return True

    lookup = solution_cache.cached(key, lambda: compute_record(puzzle, engine, recording), CACHE_DIR, accept=replays)
    return Solved(lookup, Solution.from_dict(puzzle, lookup.record["solution"]))


def solved_entry(source: PuzzleSource) -> PuzzleEntry:
    """The puzzle's entry for the pages: ``source`` with its record from :func:`solve_cached`."""
    solved = solve_cached(source.puzzle, source.file, source.recording)
    return PuzzleEntry(source.puzzle, source.file, solved.record, solved.hit, solved.solution)
