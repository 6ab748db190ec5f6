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
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.game.engine import Action
from solver.game.errors import PlanError, SolverError
from .loading import Located, LoadError, display_path, expect_int, load_json, text_fault
from .plans import load_plan
from solver.game.model import Puzzle
from .puzzle import PUZZLES_DIR

if TYPE_CHECKING:   # imported where used: the planner only when recording
    from solver.optimise.planner import Progress
    from solver.solution import Solution

GAMES_DIR = PUZZLES_DIR / "games"
"""Puzzle files solved by a recorded run, not at build time."""
RESULT_SUFFIX = ".result.json"
"""A recording sits next to its puzzle file: ``whole-game-2e.yaml`` -> ``whole-game-2e.result.json``."""


class RecordingError(SolverError):
    """A recording that cannot be used: unreadable, for another puzzle, or contradicted by the rules engine."""


class BoundSource(Enum):
    """What proved a recorded run's bound."""

    CAP = "cap"
    """The completions cap the run added to the model: CP-SAT did not go below it."""
    BELOW_CAP = "cpsat-below-cap"
    """CP-SAT, below the completions cap it started from."""
    CPSAT = "cpsat"
    """CP-SAT alone: no cap applied or none was proven within its budget."""


def bound_proved_by(bound: int, cap: int | None) -> BoundSource:
    """What proved ``bound``, given the run's completions cap (None: none): the one place this is
    decided, for the ``record`` command and the puzzle page alike."""
    if cap is None:
        return BoundSource.CPSAT
    return BoundSource.CAP if bound == cap else BoundSource.BELOW_CAP


@dataclass(frozen=True)
class Recording:
    """One long planner run on one puzzle."""

    puzzle: str
    """The puzzle's id."""
    health: int
    """Final Health Points of the best plan found (replayed by the rules engine)."""
    bound: int
    """The upper bound CP-SAT proved on the model with the completions cap as a row: no plan scores
    more (at most :attr:`cap`)."""
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
    earlier: int | None = None
    """Health Points of an earlier recording's plan the warm start was also given (``record
    --from``): improved in its place when it scored more than the beam's. None: none given."""
    cap: int | None = None
    """The completions cap (:func:`solver.optimise.caps.cap_objective`) the run added to the model
    before CP-SAT, or None when it did not apply or was not proven within its budget."""
    subsolvers: tuple[str, ...] = ()
    """CP-SAT's full subsolvers, one per worker (empty for one worker: CP-SAT's single worker)."""

    @property
    def bound_by(self) -> BoundSource:
        """What proved :attr:`bound` (:func:`bound_proved_by`)."""
        return bound_proved_by(self.bound, self.cap)

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
                "machine": self.machine, "solver_version": self.solver_version, "earlier": self.earlier,
                "cap": self.cap, "subsolvers": list(self.subsolvers),
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


RECORD_SUBSOLVERS = ("max_lp", "lb_tree_search")
"""CP-SAT's full subsolvers in :func:`record`. ``lb_tree_search`` (it explores the node of the
lowest objective bound first) gave the lowest bound of every method measured on the deck series at
24, 32 and 44 placements (issue #35; ``docs/dev/planner.md``) and finds few plans, which a
recording gets from its warm start and ``--from`` instead; ``max_lp`` finds plans and solves the
root LP."""

CAP_DETERMINISTIC_SECONDS = 60.0
"""The budget of each small model of the completions cap in :func:`record` (the 2nd edition's
whole game proves its cap in about 20)."""


WARM_SHARE = 0.5
"""The share of a recording's time given to the warm start. CP-SAT found no plan of its own on the
whole games and its bound stopped falling within about four minutes of a ten-minute run, while
the large-neighbourhood search kept raising the plan (54 -> 59 on the 2nd edition's game in five
minutes, session 39); a fifth before."""


def record(puzzle: Puzzle, time_limit: float, workers: int = 2, progress: Progress | None = None,
           earlier: Recording | None = None, subsolvers: tuple[str, ...] = RECORD_SUBSOLVERS) -> Recording:
    """Run the planner on ``puzzle`` for ``time_limit`` seconds: a beam search through the rules
    engine and a large-neighbourhood search give a plan (:data:`WARM_SHARE` of the time at most); the
    completions cap (:func:`solver.optimise.caps.cap_objective`, its small models given
    :data:`CAP_DETERMINISTIC_SECONDS` each) goes into the model as a row; then CP-SAT runs for the
    rest, proving a bound. Returns the better plan of the two with CP-SAT's bound, which is at most
    the cap: on a whole game CP-SAT's own bound starts far above it and, sharing two cores, may not
    finish its root LP within the run (the recordings before the cap had bounds of 183 and 260
    against a cap of 88 on the 2nd edition's game). ``earlier``: a recording of the same puzzle
    (read by :func:`load_recording`, so its plan replays), whose plan the warm start improves when
    it beats the beam's: a run on a busy machine then never records a worse plan than one known.
    (The warm plan is not given to CP-SAT as a hint: the model's symmetry breaking fixes one order
    of commuting placements, the beam's plan is seldom in it, and the repair cost more than it
    gave in a measured run.) ``subsolvers``: CP-SAT's full subsolvers when ``workers`` > 1."""
    from solver import SOLVER_VERSION
    from solver.optimise.warm_start import warm_start
    from solver.optimise.caps import cap_objective
    from solver.optimise.planner import build_model, solve_cpsat
    from solver.solution import _verified
    t0 = time.perf_counter()
    known = None if earlier is None else (list(earlier.plan), earlier.health)
    plan, warm = warm_start(puzzle, time_limit * WARM_SHARE, earlier=known)
    value = warm if warm is not None else -1
    pm = build_model(puzzle)
    _, cap = cap_objective(pm, CAP_DETERMINISTIC_SECONDS)
    left = max(1.0, time_limit - (time.perf_counter() - t0))     # the model's build counts too
    named = tuple(subsolvers[:workers]) if workers > 1 else ()
    res = solve_cpsat(pm, workers=workers, time_limit=left, subsolvers=named, progress=progress)
    if res.bound is None:
        raise RecordingError(f"{puzzle.id}: CP-SAT proved no bound in {left:.0f} s ({res.status})")
    if res.plan and res.objective is not None and res.objective >= value:   # CP-SAT scores every plan
        plan, value = list(res.plan), res.objective
    if not plan:
        raise RecordingError(f"{puzzle.id}: no plan found in {time_limit:.0f} s")
    _verified(puzzle, plan, value, "record")
    return Recording(puzzle.id, value, max(res.bound, value), tuple(plan), round(time.perf_counter() - t0, 1),
                     time_limit, workers, warm, datetime.date.today().isoformat(), machine_summary(),
                     SOLVER_VERSION, None if earlier is None else earlier.health, cap, named)


def write_recording(recording: Recording, path: Path) -> None:
    path.write_text(json.dumps(recording.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


MAX_HEALTH = 9_999
"""Largest Health (plan, bound, warm start) a recording may claim: far above any whole game's."""
MAX_SECONDS = 7 * 24 * 3600.0
"""Longest run (and time limit) a recording may claim: a week."""
MAX_WORKERS = 8
"""Most CP-SAT workers (as ``python -m solver record --workers``)."""
MAX_TEXT = 200
"""Longest ``machine`` or ``solver_version`` text."""
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _number(low_exclusive: float, high: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low_exclusive < value <= high:
            return f"expected a number of seconds > {low_exclusive:g} and <= {high:g}, got {value!r}"
        return None
    return check


def _integer(low: int, high: int) -> Callable[[Any], str | None]:
    return lambda value: expect_int(value, low, high)


def _text(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        return f"expected a non-empty text of at most {MAX_TEXT} characters, got {value!r}"[:300]
    return text_fault(value)


def _date(value: Any) -> str | None:
    try:
        if isinstance(value, str) and _ISO_DATE.fullmatch(value):
            datetime.date.fromisoformat(value)
            return None
    except ValueError:
        pass
    return f"expected an ISO date YYYY-MM-DD (the day of the run), got {value!r}"[:300]


def _percent(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
        return f"expected a percentage 0..100, got {value!r}"
    return None


def _optional_health(value: Any) -> str | None:
    return None if value is None else expect_int(value, 0, MAX_HEALTH)


_SUBSOLVER = re.compile(r"[a-z][a-z_]{0,39}")


def _subsolvers(value: Any) -> str | None:
    if (not isinstance(value, list) or len(value) > MAX_WORKERS
            or not all(isinstance(v, str) and _SUBSOLVER.fullmatch(v) for v in value)):
        return (f"expected a list of at most {MAX_WORKERS} CP-SAT subsolver names (lower-case letters and "
                f"underscores, e.g. \"max_lp\"), got {value!r}")[:300]
    return None


def _plan(value: Any) -> str | None:
    return None if isinstance(value, list) and value else f"expected a non-empty list of actions, got {value!r}"[:300]


_FIELDS: dict[str, Callable[[Any], str | None]] = {
    "puzzle": _text, "health": _integer(0, MAX_HEALTH), "bound": _integer(0, MAX_HEALTH), "gap_percent": _percent,
    "seconds": _number(0, MAX_SECONDS), "time_limit": _number(0, MAX_SECONDS), "workers": _integer(1, MAX_WORKERS),
    "warm_start": _optional_health, "recorded": _date, "machine": _text, "solver_version": _text,
    "earlier": _optional_health, "cap": _optional_health, "subsolvers": _subsolvers,
    "plan": _plan}
"""The fields of a recording and their checks (None: fine, else the message)."""


def recording_problems(data: dict[str, Any], file: str, located: Located) -> list[str]:
    """Every problem of a recording's fields, each ``file:line: field: message`` (all of them):
    types and ranges (their relations: :func:`relation_problems`, once the plan replays)."""
    def at(key: str, message: str) -> str:
        return f"{file}:{located.line((key,))}: {key}: {message}"

    problems = []
    for key, check in _FIELDS.items():
        fault = "missing" if key not in data else check(data[key])
        if fault is not None:
            problems.append(at(key, fault))
    problems += [at(key, f"unknown field; expected one of {sorted(_FIELDS)}") for key in sorted(set(data) - set(_FIELDS))]
    return problems


def relation_problems(data: dict[str, Any], file: str, located: Located) -> list[str]:
    """The relations between a recording's fields, checked once its plan replays to its health (a
    wrong health is reported as such): the plan and the warm start under the bound, the gap from them."""
    def at(key: str, message: str) -> str:
        return f"{file}:{located.line((key,))}: {key}: {message}"

    health, bound, warm = data["health"], data["bound"], data["warm_start"]
    problems = []
    if bound < health:
        problems.append(at("bound", f"expected at least the plan's {health} Health Points, got {bound}"))
    if warm is not None and warm > health:
        problems.append(at("warm_start", f"expected at most the plan's {health} Health Points (the recorded plan "
                                         f"is the better of the warm start and CP-SAT's), got {warm}"))
    earlier = data["earlier"]
    if earlier is not None and warm is not None and earlier > warm:
        problems.append(at("earlier", f"expected at most the warm start's {warm} Health Points (the warm start "
                                      f"improves the earlier plan when it is better), got {earlier}"))
    cap = data["cap"]
    if cap is not None and cap < bound:
        problems.append(at("cap", f"expected at least the bound {bound} (CP-SAT proves its bound on the model "
                                  f"with the cap as a row), got {cap}"))
    named, workers = data["subsolvers"], data["workers"]
    if workers == 1 and named:
        problems.append(at("subsolvers", f"expected none for one worker (CP-SAT's single worker), got {named!r}"[:300]))
    elif workers > 1 and not 1 <= len(named) <= workers:
        problems.append(at("subsolvers", f"expected 1 to {workers} names for {workers} workers, got {len(named)}"))
    gap = round(100 * (bound - health) / bound, 1) if bound else 0.0
    if bound >= health and abs(data["gap_percent"] - gap) > 0.05:
        problems.append(at("gap_percent", f"expected {gap} (from health {health} and bound {bound}), "
                                          f"got {data['gap_percent']}"))
    return problems


def load_recording(path: Path, puzzle: Puzzle) -> Recording:
    """Read ``path``, replay its plan in the rules engine, and check it against ``puzzle``;
    :class:`RecordingError` naming the file, line and field otherwise."""
    from solver.solution import VerificationError, _verified
    file = display_path(path)
    try:
        data, located = load_json(path)
    except LoadError as err:
        raise RecordingError(str(err)) from None
    if not isinstance(data, dict):
        raise RecordingError(f"{file}:{located.line(())}: expected an object, got {type(data).__name__}")
    problems = recording_problems(data, file, located)
    if problems:
        raise RecordingError("\n".join(problems))
    if data["puzzle"] != puzzle.id:
        raise RecordingError(f"{file}:{located.line(('puzzle',))}: puzzle: expected {puzzle.id!r}, got {data['puzzle']!r}")
    try:
        plan = load_plan(path)
    except PlanError as err:
        raise RecordingError(str(err)) from None
    try:
        _verified(puzzle, plan, data["health"], f"{file}: recorded")
    except VerificationError as err:
        raise RecordingError(f"{file}:{located.line(('health',))}: health: {err}") from None
    relations = relation_problems(data, file, located)
    if relations:
        raise RecordingError("\n".join(relations))
    return Recording(data["puzzle"], data["health"], data["bound"], tuple(plan), float(data["seconds"]),
                     float(data["time_limit"]), data["workers"], data["warm_start"], data["recorded"],
                     data["machine"], data["solver_version"], data["earlier"], data["cap"], tuple(data["subsolvers"]))


def recorded_solution(puzzle: Puzzle, recording: Recording) -> Solution:
    """The recording as a :class:`~solver.solution.Solution` (its plan replayed again), the run's
    figures in ``stats["recorded"]``."""
    from dataclasses import replace
    from solver.solution import Solution, _verified
    steps, _, breakdown = _verified(puzzle, recording.plan, recording.health, "recorded")
    meta = {k: v for k, v in recording.to_dict().items() if k != "plan"}
    solution = Solution("optimal" if recording.proven else "feasible", recording.health, recording.plan, steps,
                        breakdown, "cpsat", {"recorded": meta}, bound=recording.bound, proven=recording.proven,
                        wall_time=recording.seconds)
    return replace(solution, rulings=tuple(puzzle.readings().items()))
