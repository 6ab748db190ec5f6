"""Whole games, recorded offline and replayed at every build (issue #15).

A whole game (11 rounds x 4 flasks = 44 placements, a full deck) is not proven optimal in the
minutes a site build may take. Its puzzle file lives in ``data/puzzles/games/``, out of the shipped
puzzles every test solves, and one long planner run (``python -m solver record``) writes the best
plan it found and the proven upper bound next to it, as ``<id>.result.json``.

Nothing of a recording is taken on trust that can be checked: every build replays the plan in the
rules engine and refuses a recording whose plan is illegal, incomplete, scores other than it
claims, or claims a bound under its own plan. The bound itself is the recorded run's proof and is
labelled so on the page (engine, time, machine, date).
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .engine import Action
from .errors import PlanError, SolverError
from .loading import LoadError, display_path, load_json
from .plans import load_plan
from .model import Puzzle
from .puzzle import PUZZLES_DIR

if TYPE_CHECKING:   # imported where used: the planner only when recording
    from .planner import Progress
    from .solution import Solution

GAMES_DIR = PUZZLES_DIR / "games"
"""Puzzle files solved by a recorded run, not at build time."""
RESULT_SUFFIX = ".result.json"
"""A recording sits next to its puzzle file: ``whole-game-2e.yaml`` -> ``whole-game-2e.result.json``."""


class RecordingError(SolverError):
    """A recording that cannot be used: unreadable, for another puzzle, or contradicted by the rules engine."""


@dataclass(frozen=True)
class Recording:
    """One long planner run on one puzzle."""

    puzzle: str
    """The puzzle's id."""
    health: int
    """Final Health Points of the best plan found (replayed by the rules engine)."""
    bound: int
    """The upper bound CP-SAT proved: no plan scores more."""
    plan: tuple[Action, ...]
    """The best plan found."""
    seconds: float
    """Wall-clock seconds of the whole run (warm start and CP-SAT)."""
    time_limit: float
    """The run's time limit, in seconds."""
    workers: int
    """CP-SAT workers."""
    warm_start: int | None
    """Health Points of the beam-search and large-neighbourhood plan CP-SAT started from."""
    recorded: str
    """The day of the run (ISO date)."""
    machine: str
    """Cores, Python and OR-Tools versions of the machine that ran it."""
    solver_version: str
    """``solver.SOLVER_VERSION`` of the run."""

    @property
    def proven(self) -> bool:
        """The plan reaches the bound: an optimum."""
        return self.health == self.bound

    @property
    def gap_percent(self) -> float:
        """``(bound - health) / bound``, in percent (0 for a bound of 0)."""
        return round(100 * (self.bound - self.health) / self.bound, 1) if self.bound else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"puzzle": self.puzzle, "health": self.health, "bound": self.bound,
                "gap_percent": self.gap_percent, "seconds": self.seconds, "time_limit": self.time_limit,
                "workers": self.workers, "warm_start": self.warm_start, "recorded": self.recorded,
                "machine": self.machine, "solver_version": self.solver_version,
                "plan": [a.to_dict() for a in self.plan]}


def game_files() -> list[Path]:
    """Every puzzle file solved by a recorded run."""
    return sorted(GAMES_DIR.glob("*.yaml"))


def result_path(puzzle_file: Path) -> Path:
    """Where the recording of ``puzzle_file`` lives."""
    return puzzle_file.with_name(puzzle_file.stem + RESULT_SUFFIX)


def machine_summary() -> str:
    import ortools
    return f"{os.cpu_count()} cores, Python {platform.python_version()}, OR-Tools {ortools.__version__}"


def record(puzzle: Puzzle, time_limit: float, workers: int = 2, progress: Progress | None = None) -> Recording:
    """Run the planner on ``puzzle`` for ``time_limit`` seconds: a beam search through the rules
    engine and a large-neighbourhood search give a plan (a fifth of the time at most), then CP-SAT
    runs for the rest, proving a bound. Returns the better plan of the two with CP-SAT's bound.
    (The warm plan is not given to CP-SAT as a hint: the model's symmetry breaking fixes one order
    of commuting placements, the beam's plan is seldom in it, and the repair cost more than it
    gave in a measured run.)"""
    from . import SOLVER_VERSION
    from .market import warm_start
    from .planner import TWO_WORKERS_MARKET, build_model, solve_cpsat
    from .solution import _verified
    t0 = time.perf_counter()
    plan, warm = warm_start(puzzle, time_limit / 5)
    value = warm if warm is not None else -1
    pm = build_model(puzzle)
    left = max(1.0, time_limit - (time.perf_counter() - t0))     # the model's build counts too
    res = solve_cpsat(pm, workers=workers, time_limit=left, subsolvers=TWO_WORKERS_MARKET, progress=progress)
    if res.bound is None:
        raise RecordingError(f"{puzzle.id}: CP-SAT proved no bound in {left:.0f} s ({res.status})")
    if res.plan and res.objective is not None and res.objective >= value:   # CP-SAT scores every plan
        plan, value = list(res.plan), res.objective
    if not plan:
        raise RecordingError(f"{puzzle.id}: no plan found in {time_limit:.0f} s")
    _verified(puzzle, plan, value, "record")
    return Recording(puzzle.id, value, max(res.bound, value), tuple(plan), round(time.perf_counter() - t0, 1),
                     time_limit, workers, warm, datetime.date.today().isoformat(), machine_summary(),
                     SOLVER_VERSION)


def write_recording(recording: Recording, path: Path) -> None:
    path.write_text(json.dumps(recording.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


_FIELDS: dict[str, type | tuple[type, ...]] = {"puzzle": str, "health": int, "bound": int, "gap_percent": (int, float), "seconds": (int, float),
           "time_limit": (int, float), "workers": int, "warm_start": (int, type(None)), "recorded": str,
           "machine": str, "solver_version": str, "plan": list}
"""The fields of a recording and their JSON types."""


def load_recording(path: Path, puzzle: Puzzle) -> Recording:
    """Read ``path``, replay its plan in the rules engine, and check it against ``puzzle``;
    :class:`RecordingError` naming the file and field otherwise."""
    from .solution import VerificationError, _verified
    file = display_path(path)
    try:
        data, located = load_json(path)
    except LoadError as err:
        raise RecordingError(str(err)) from None
    if not isinstance(data, dict):
        raise RecordingError(f"{file}:{located.line(())}: expected an object, got {type(data).__name__}")
    problems = [f"{key}: expected {kind.__name__ if isinstance(kind, type) else '/'.join(k.__name__ for k in kind)}, "
                f"got {data.get(key)!r}"[:200]
                for key, kind in _FIELDS.items()
                if key not in data or not isinstance(data[key], kind) or isinstance(data[key], bool)]
    extra = sorted(set(data) - set(_FIELDS))
    if extra:
        problems.append(f"unknown field {extra[0]!r}; expected one of {sorted(_FIELDS)}")
    if problems:
        raise RecordingError(f"{file}:{located.line(())}: " + "; ".join(problems))
    if data["puzzle"] != puzzle.id:
        raise RecordingError(f"{file}:{located.line(('puzzle',))}: puzzle: expected {puzzle.id!r}, got {data['puzzle']!r}")
    try:
        plan = load_plan(path)
    except PlanError as err:
        raise RecordingError(str(err)) from None
    try:
        _verified(puzzle, plan, data["health"], f"{file}: recorded")
    except VerificationError as err:
        raise RecordingError(str(err)) from None
    if data["bound"] < data["health"]:
        raise RecordingError(f"{file}:{located.line(('bound',))}: bound: expected at least the plan's "
                             f"{data['health']} Health Points, got {data['bound']}")
    return Recording(data["puzzle"], data["health"], data["bound"], tuple(plan), float(data["seconds"]),
                     float(data["time_limit"]), data["workers"], data["warm_start"], data["recorded"],
                     data["machine"], data["solver_version"])


def recorded_solution(puzzle: Puzzle, recording: Recording) -> Solution:
    """The recording as a :class:`~solver.solution.Solution` (its plan replayed again), the run's
    figures in ``stats["recorded"]``."""
    from dataclasses import replace
    from .solution import Solution, _verified
    steps, _, breakdown = _verified(puzzle, recording.plan, recording.health, "recorded")
    meta = {k: v for k, v in recording.to_dict().items() if k != "plan"}
    solution = Solution("optimal" if recording.proven else "feasible", recording.health, recording.plan, steps,
                        breakdown, "cpsat", {"recorded": meta}, bound=recording.bound, proven=recording.proven,
                        wall_time=recording.seconds)
    return replace(solution, rulings=tuple(puzzle.readings().items()))
