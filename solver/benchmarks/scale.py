"""The planner against the exhaustive search: timed runs on the shipped puzzles and the scale curve.

Per puzzle: CP-SAT's time to a proven optimum (1 worker; the median of seeds 0, 1, 2, since one
seed's time can be several times another's), HiGHS's time on the same model, the exhaustive
search's time and their ratio. The scale curve runs the same on generated puzzles of 4, 8, 12, 16,
20, 24 placements (:func:`scale_puzzle`), and CP-SAT and HiGHS alone with one grey flask a round.

The exhaustive search stops at ``--cap`` seconds, or at 10 times CP-SAT's median where that is
longer (at most ``--max-cap``): a stopped run then still decides the target "at least 10 times
faster than the exhaustive search" instead of leaving a lower bound below 10.
"""
from __future__ import annotations

import math
import multiprocessing as mp
import statistics
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.io.progress import note
from solver.io.puzzle import ROOT, load_puzzle

if TYPE_CHECKING:   # imported where used (the planner only when measuring)
    from multiprocessing.queues import Queue

    from solver.game.model import Puzzle

TARGETS = {"shipped_seconds": 5, "sixteen_placements_seconds": 60, "speedup_from_10": 10}
SEEDS = (0, 1, 2)
"""CP-SAT seeds timed per puzzle (1 worker each); the median is reported."""
MAX_CAP = 600.0
"""Default longest exhaustive run, in seconds (``--max-cap``)."""

MAX_PLACEMENTS = 48
"""Longest scale-curve puzzle (``--sizes``): 12 rounds, the puzzle format's maximum, of 4 flasks."""


def scale_puzzle(placements: int, grey: int = 0) -> Puzzle:
    """A generated puzzle of ``placements`` = rounds x 4 flasks (4, 8, … 24): 2nd edition, the
    rulebook's hormones, a detox card, two enzymes and a receptor in the row, one event a round,
    other players on a few spots; ``grey`` grey flasks a round (the grey-flask series: 1)."""
    from solver.game.model import Edition
    from solver.io.loading import Located
    from solver.io.puzzle import _Where, _normalise_round_keys, _schema_check, PUZZLE_SCHEMA, puzzle_from_data
    if placements % 4:
        raise ValueError(f"placements: expected a multiple of 4, got {placements}")
    rounds = placements // 4
    events = ["boost-nucleus", "reduce-atp-cost", "boost-glucose", None, "boost-respiration", None]
    data = {
        "id": f"scale-{placements}" + (f"-grey{grey}" if grey else ""), "title": {"en": "scale", "it": "scala"}, "story": {"en": "-", "it": "-"},
        "edition": Edition.SECOND.value, "board": "3-5p", "rounds": rounds, "flasks": 4,
        "start": {"atp": 3, "mrna": 2, "carb": 1, "lipid": 1}, "hand": ["ph", "d2"],
        "row": ["e1", "pr", "sh", "e2"], "deck": [], "grey_flasks": grey,
        "events": (events * 4)[:rounds],
        "occupied": {str(r): [["nucleus-3"], ["mitochondria-3"], ["glucose-2"]][r % 3] for r in range(1, rounds + 1)},
        "goals": [], "opponents": {"detox": [{"amount": 3, "cards": 1}]}, "objective": "max-health",
        "cards": [
            {"id": "ph", "type": "protein-hormone", "cost": {"atp": 2, "protein": 2, "carb": 1}, "health": 7},
            {"id": "sh", "type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9},
            {"id": "d2", "type": "detox", "cost": {"atp": 2}, "illustrative": True},
            {"id": "e1", "type": "enzyme", "cost": {"atp": 1, "protein": 1}, "health": 2, "color": "a", "illustrative": True},
            {"id": "e2", "type": "enzyme", "cost": {"atp": 1, "carb": 1}, "health": 2, "color": "b", "illustrative": True},
            {"id": "pr", "type": "protein-receptor", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2,
             "illustrative": True}],
    }
    _normalise_round_keys(data)
    where = _Where(f"<scale-{placements}>", Located(f"<scale-{placements}>"))
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


def _exhaustive_child(puzzle: Puzzle, queue: Queue[tuple[int | None, float]]) -> None:
    from solver.optimise.search import exhaustive
    t0 = time.perf_counter()
    value, _, _ = exhaustive(puzzle)
    queue.put((value, time.perf_counter() - t0))


def time_exhaustive(puzzle: Puzzle, cap: float) -> tuple[int | None, float | None]:
    """(optimum, seconds) of the exhaustive search, or (None, None) when stopped at ``cap``."""
    ctx = mp.get_context("fork")
    queue: Queue[tuple[int | None, float]] = ctx.Queue()
    proc = ctx.Process(target=_exhaustive_child, args=(puzzle, queue), daemon=True)
    proc.start()
    proc.join(cap)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None, None
    value, seconds = queue.get()
    return value, seconds


def time_cpsat(puzzle: Puzzle, cap: float, seeds: Sequence[int] = SEEDS) -> dict[str, Any]:
    """CP-SAT on every seed (each plan replayed by the rules engine; every proven optimum the same),
    then HiGHS once on the same model."""
    from solver.optimise.planner import build_model, solve_cpsat, solve_highs
    from ..optimise.caps import completions_cap_helps
    from ..solution import _verified
    pm = build_model(puzzle)
    capped = completions_cap_helps(puzzle, 1)     # as solve runs one worker
    runs = [solve_cpsat(pm, time_limit=cap, seed=seed, completions_cap=capped) for seed in seeds]
    for res in runs:
        if res.plan:
            _verified(puzzle, res.plan, res.objective, "cpsat")
    proven = {res.objective for res in runs if res.status == "optimal" and res.objective is not None}
    if len(proven) > 1:
        raise RuntimeError(f"{puzzle.id}: CP-SAT seeds {list(seeds)} prove different optima {sorted(proven)}")
    res = min(runs, key=lambda r: (r.status != "optimal", -(r.objective or 0), (r.bound or 0)))
    row: dict[str, Any] = {"optimum": res.objective, "cpsat_status": "optimal" if all(r.status == "optimal" for r in runs) else res.status,
           "cpsat_seconds": round(statistics.median(r.wall_time for r in runs), 3),
           "cpsat_seconds_seeds": [round(r.wall_time, 3) for r in runs],
           "gap": None if res.bound is None or res.objective is None else res.bound - res.objective}
    h = solve_highs(pm, time_limit=cap)
    row["highs_seconds"] = round(h.wall_time, 3) if h.status == "optimal" else None
    if res.status == "optimal" and h.status == "optimal" and h.objective != res.objective:
        raise RuntimeError(f"{puzzle.id}: CP-SAT {res.objective} != HiGHS {h.objective}")
    return row


def exhaustive_cap(cap: float, cpsat_seconds: float, max_cap: float = MAX_CAP) -> float:
    """How long the exhaustive search may run: ``cap``, or long enough that a stopped run still shows
    the target speed-up (``TARGETS["speedup_from_10"]`` times CP-SAT's time), at most ``max_cap``."""
    # rounded up (to 0.1 s), so that a stopped run's ratio is never a hair under the target
    return math.ceil(min(max(cap, TARGETS["speedup_from_10"] * cpsat_seconds), max(cap, max_cap)) * 10 - 1e-9) / 10


def measure(puzzle: Puzzle, cap: float, max_cap: float = MAX_CAP) -> dict[str, Any]:
    from solver.optimise.planner import UnsupportedPuzzle
    try:
        row = time_cpsat(puzzle, cap)
    except UnsupportedPuzzle:       # the Virus expansion, a deck looked at: the exhaustive search alone
        value, seconds = time_exhaustive(puzzle, max(cap, max_cap))
        return {"optimum": value, "cpsat_status": "unsupported", "cpsat_seconds": None, "cpsat_seconds_seeds": [],
                "gap": None, "highs_seconds": None, "exhaustive_seconds": None if seconds is None else round(seconds, 3),
                "exhaustive_cap_seconds": max(cap, max_cap), "exhaustive_capped": seconds is None, "ratio": None,
                "ratio_is_lower_bound": False}
    ex_cap = exhaustive_cap(cap, row["cpsat_seconds"], max_cap)
    value, seconds = time_exhaustive(puzzle, ex_cap)
    if value is not None and row["cpsat_status"] == "optimal" and value != row["optimum"]:
        raise RuntimeError(f"{puzzle.id}: CP-SAT {row['optimum']} != exhaustive {value}")
    cp = max(row["cpsat_seconds"], 1e-3)
    row.update(exhaustive_seconds=None if seconds is None else round(seconds, 3), exhaustive_cap_seconds=ex_cap,
               exhaustive_capped=seconds is None,
               ratio=round((seconds if seconds is not None else ex_cap) / cp, 1), ratio_is_lower_bound=seconds is None)
    return row


def ablation(cap: float) -> list[dict[str, Any]]:
    """CP-SAT seconds to a proven optimum with each model option switched off, and with the
    optimal plan given as a hint (the best case for hints), on three of the larger puzzles."""
    from solver.optimise.planner import Options, build_model, solve_cpsat
    cases = [("long-game-2p-2e", load_puzzle(ROOT / "data/puzzles/long-game-2p-2e.yaml")),
             ("scale-12", scale_puzzle(12)), ("scale-16", scale_puzzle(16)), ("scale-24", scale_puzzle(24)),
             ("scale-12-grey1", scale_puzzle(12, grey=1))]
    rows = []
    for name, p in cases:
        row: dict[str, Any] = {"puzzle": name}
        base = solve_cpsat(build_model(p), time_limit=cap)
        row["default"] = base.wall_time if base.status == "optimal" else None
        for label, opt in (("no symmetry breaking", Options(symmetry=False)),
                           ("no tight bounds", Options(tight_bounds=False)),
                           ("no ordering", Options(ordering=False))):
            r = solve_cpsat(build_model(p, opt), time_limit=cap)
            row[label] = r.wall_time if r.status == "optimal" else None
        r = solve_cpsat(build_model(p), time_limit=cap, hint=base.plan) if base.plan else None
        row["optimal plan as hint"] = r.wall_time if r is not None and r.status == "optimal" else None
        r = solve_cpsat(build_model(p), time_limit=cap, workers=2)
        row["2 workers"] = r.wall_time if r.status == "optimal" else None
        rows.append(row)
        note(f"  ablation {name}: {row}")
    return rows
