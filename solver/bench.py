"""``python -m solver bench``: CP-SAT against the exhaustive search, in one run.

Per shipped puzzle: CP-SAT's time to a proven optimum (1 worker; the median of seeds 0, 1, 2, since
one seed's time can be several times another's), HiGHS's time on the same model, the exhaustive
search's time and their ratio. Then a scale curve on generated puzzles of 4, 8, 12, 16, 20, 24
placements (``scale_puzzle``).

The exhaustive search stops at ``--cap`` seconds, or at 10 times CP-SAT's median where that is
longer (at most ``--max-cap``): a stopped run then still decides the target "at least 10 times
faster than the exhaustive search" instead of leaving a lower bound below 10.

Writes ``docs/assets/bench/bench.json`` and ``docs/assets/bench/scale.svg`` (a plot drawn here as
SVG, no plotting library) and prints the tables.

``bench.json`` shape (the site's Benchmark page reads it)::

    {
      "solver_version": "2.1.0",
      "machine": {"cores": 2, "python": "3.11.x", "ortools": "9.15.6755"},
      "cap_seconds": 60.0,                 # CP-SAT runs stop here; exhaustive runs at least here
      "seeds": [0, 1, 2],                  # CP-SAT seeds (1 worker each)
      "targets": {"shipped_seconds": 5, "sixteen_placements_seconds": 60, "speedup_from_10": 10},
      "puzzles": [                         # one row per shipped puzzle, file order
        {"id": "market-day-2e", "grade": 2, "placements": 6, "optimum": 7,
         "cpsat_status": "optimal",        # optimal | feasible (not proven within the cap)
         "cpsat_seconds": 0.03,            # median over the seeds
         "cpsat_seconds_seeds": [0.03, 0.02, 0.04],
         "highs_seconds": 0.2,
         "exhaustive_seconds": 1.2,        # null when stopped at its cap
         "exhaustive_cap_seconds": 60.0,   # max(cap_seconds, 10 x cpsat_seconds), at most --max-cap
         "exhaustive_capped": false,
         "ratio": 40.0,                    # exhaustive / CP-SAT; with a capped exhaustive: its cap / CP-SAT
         "ratio_is_lower_bound": false}    # true when the exhaustive run was capped
      ],
      "scale": [                           # the scale curve, same fields without id/grade
        {"placements": 4, "optimum": 9, "cpsat_status": "optimal", "cpsat_seconds": 0.05, "gap": 0,
         "highs_seconds": 0.1, "exhaustive_seconds": 0.4, "exhaustive_capped": false,
         "ratio": 8.0, "ratio_is_lower_bound": false}
      ],
      "scale_grey": [                      # the same puzzles with 1 grey flask a round (CP-SAT, HiGHS;
        {"placements": 4, "grey_flasks": 1, "optimum": 9, "cpsat_status": "optimal",   # exhaustive
         "cpsat_seconds": 0.1, "gap": 0, "highs_seconds": 0.1}                        # not run)
      ]
    }
"""
from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .market import WHOLE_GAME_ROUNDS
from .progress import note, over

if TYPE_CHECKING:   # imported where used (the planner only when measuring)
    import argparse
    from multiprocessing.queues import Queue

    from .engine import Action
    from .model import Puzzle
from .puzzle import ROOT, load_puzzle, puzzle_files

OUT = ROOT / "docs" / "assets" / "bench"
TARGETS = {"shipped_seconds": 5, "sixteen_placements_seconds": 60, "speedup_from_10": 10}
SEEDS = (0, 1, 2)
"""CP-SAT seeds timed per puzzle (1 worker each); the median is reported."""
MAX_CAP = 600.0
"""Default longest exhaustive run, in seconds (``--max-cap``)."""


# --------------------------------------------------------------------------- the scale family

def scale_puzzle(placements: int, grey: int = 0) -> Puzzle:
    """A generated puzzle of ``placements`` = rounds x 4 flasks (4, 8, … 24): 2nd edition, the
    rulebook's hormones, a detox card, two enzymes and a receptor in the row, one event a round,
    other players on a few spots; ``grey`` grey flasks a round (the grey-flask series: 1)."""
    from .model import Edition
    from .loading import Located
    from .puzzle import _Where, _normalise_round_keys, _schema_check, PUZZLE_SCHEMA, puzzle_from_data
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


# --------------------------------------------------------------------------- timed runs

def _exhaustive_child(puzzle: Puzzle, queue: Queue[tuple[int | None, float]]) -> None:
    from .search import exhaustive
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
    from .planner import build_model, solve_cpsat, solve_highs
    from .solution import _verified
    pm = build_model(puzzle)
    runs = [solve_cpsat(pm, time_limit=cap, seed=seed) for seed in seeds]
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
    from .planner import UnsupportedPuzzle
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


# --------------------------------------------------------------------------- the deck series (#15)

WHOLE_GAME = 4 * WHOLE_GAME_ROUNDS
"""Placements of a whole game (11 rounds x 4 flasks)."""
DECK_SIZES = (8, 16, 24, 32, WHOLE_GAME)
"""Placements of the deck series (``--deck-sizes``): up to a whole game."""
WHOLE_GAME_CAP = 600.0
"""Seconds the whole game (44 placements) is given by the 2-worker CP-SAT run (``--whole-cap``)."""


@dataclass(frozen=True)
class DeckRun:
    """One engine's result on one deck puzzle."""

    status: str
    """``optimal`` (proven), ``feasible`` (a plan, not proven within the cap) or ``unknown``."""
    objective: int | None
    """Health Points of the best plan found (replayed by the rules engine)."""
    bound: int | None
    """The engine's proven upper bound (None when it gives none, as the beam search)."""
    seconds: float
    """Wall-clock seconds, at most about the cap."""


DeckEngine = Callable[["Puzzle", float], tuple[DeckRun, list["Action"]]]
"""``run(puzzle, cap)``: one engine's result on a deck puzzle and its plan."""


def _cpsat_engine(workers: int, subsolvers: tuple[str, ...] | None = None, **options: bool) -> DeckEngine:
    def run(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
        from .planner import TWO_WORKERS_MARKET, Options, build_model, solve_cpsat
        res = solve_cpsat(build_model(puzzle, Options(**options)), workers=workers, time_limit=cap,
                          subsolvers=subsolvers or TWO_WORKERS_MARKET)
        return DeckRun(res.status, res.objective, res.bound, res.wall_time), res.plan
    return run


def _mip_engine(name: str, **options: bool) -> DeckEngine:
    def run(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
        from .planner import Options, build_model, solve_mip
        res = solve_mip(build_model(puzzle, Options(**options)), name, time_limit=cap)
        return DeckRun(res.status, res.objective, res.bound, res.wall_time), res.plan
    return run


def _warm_start_engine(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
    """Beam search through the rules engine, then CP-SAT large-neighbourhood search from its plan
    (:func:`solver.market.warm_start`): a plan without a bound (a lower bound on the optimum)."""
    from .market import warm_start
    t0 = time.perf_counter()
    plan, value = warm_start(puzzle, cap, width=128)
    return DeckRun("feasible" if plan else "unknown", value, None, time.perf_counter() - t0), plan


DECK_ENGINES: dict[str, DeckEngine] = {
    "CP-SAT, 2 workers": _cpsat_engine(2),
    "CP-SAT, 1 worker": _cpsat_engine(1),
    "HiGHS": _mip_engine("highs"),
    "SCIP": _mip_engine("scip"),
    "beam + LNS": _warm_start_engine,
}
"""The engines of the deck series, side by side (issue #15, item 2)."""

DECK_METHODS: dict[str, DeckEngine] = {
    "CP-SAT, 2 workers (max_lp + pseudo_costs)": _cpsat_engine(2),
    "CP-SAT, 2 workers (max_lp + quick_restart)": _cpsat_engine(2, ("max_lp", "quick_restart")),
    "CP-SAT, 2 workers, no row cuts": _cpsat_engine(2, row_cuts=False),
    "CP-SAT, 2 workers, no arrival windows": _cpsat_engine(2, market_windows=False),
    "CP-SAT, 2 workers, neither": _cpsat_engine(2, row_cuts=False, market_windows=False),
    "CP-SAT, 1 worker, no row cuts": _cpsat_engine(1, row_cuts=False),
    "HiGHS, no row cuts": _mip_engine("highs", row_cuts=False),
    "SCIP, no row cuts": _mip_engine("scip", row_cuts=False),
}
"""What was tried on the 16-placement deck puzzle (the row reformulations and solver choices), so
the benchmark keeps what did not help as well as what did."""


def deck_row(puzzle: Puzzle, engine: str, run: DeckEngine, cap: float) -> dict[str, Any]:
    """One engine on one deck puzzle, its plan replayed by the rules engine."""
    from .solution import _verified
    result, plan = run(puzzle, cap)
    if plan:
        _verified(puzzle, plan, result.objective, engine)
    gap = None if result.bound is None or result.objective is None else result.bound - result.objective
    return {"placements": puzzle.rounds * puzzle.flasks, "edition": puzzle.edition.value, "engine": engine,
            "status": result.status, "objective": result.objective, "bound": result.bound, "gap": gap,
            "gap_percent": None if gap is None or not result.bound else round(100 * gap / result.bound, 1),
            "seconds": round(result.seconds, 2)}


def check_deck_agreement(rows: list[dict[str, Any]]) -> None:
    """Every proven optimum of one puzzle the same, and no plan above another engine's bound."""
    by_size: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for r in rows:
        by_size.setdefault((r["placements"], r["edition"]), []).append(r)
    for key, rs in by_size.items():
        proven = {r["objective"] for r in rs if r["status"] == "optimal"}
        if len(proven) > 1:
            raise RuntimeError(f"deck-{key[0]}-{key[1]}: engines prove different optima {sorted(proven)}")
        best = max((r["objective"] for r in rs if r["objective"] is not None), default=None)
        for r in rs:
            if best is not None and r["bound"] is not None and r["bound"] < best:
                raise RuntimeError(f"deck-{key[0]}-{key[1]}: {r['engine']} bound {r['bound']} below a plan of {best}")


def deck_series(sizes: Iterable[int], cap: float, whole_cap: float,
                editions: Sequence[str] = ("2e",)) -> list[dict[str, Any]]:
    """Every engine of :data:`DECK_ENGINES` on the deck family at each size; the whole game (44)
    only by the 2-worker CP-SAT run, for ``whole_cap`` seconds."""
    from .market import deck_puzzle
    from .model import Edition
    rows = []
    for edition, n in over([(e, n) for e in editions for n in sizes], "deck series"):
        puzzle = deck_puzzle(n, Edition(edition))
        whole = n == WHOLE_GAME
        for name, run in DECK_ENGINES.items():
            if whole and name != "CP-SAT, 2 workers":
                continue
            row = deck_row(puzzle, name, run, whole_cap if whole else cap)
            rows.append(row)
            note(f"  deck {n} {edition} {name}: {row['status']} {row['objective']} bound {row['bound']} "
                 f"in {row['seconds']} s")
    check_deck_agreement(rows)
    return rows


def deck_methods(cap: float, placements: int = 16) -> list[dict[str, Any]]:
    """Each reformulation and solver choice of :data:`DECK_METHODS` on one deck puzzle."""
    from .market import deck_puzzle
    puzzle = deck_puzzle(placements)
    rows = []
    for name, run in over(DECK_METHODS.items(), "deck methods"):
        row = deck_row(puzzle, name, run, cap)
        rows.append(row)
        note(f"  deck method {name}: {row['status']} {row['objective']} in {row['seconds']} s")
    check_deck_agreement(rows)
    return rows


def deck_table(rows: list[dict[str, Any]]) -> str:
    head = ["placements", "edition", "engine", "status", "Health", "bound", "gap", "seconds"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        gap = "-" if r["gap"] is None else f"{r['gap']} ({r['gap_percent']} %)"
        out.append(f"| {r['placements']} | {r['edition']} | {r['engine']} | {r['status']} | {_fmt(r['objective'])} | "
                   f"{_fmt(r['bound'])} | {gap} | {r['seconds']:.2f} |")
    return "\n".join(out)


# --------------------------------------------------------------------------- output

def _fmt(v: object, unit: str = "") -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}{unit}"
    return f"{v}{unit}"


def table(rows: list[dict[str, Any]], first: str, cap: float) -> str:
    head = ([first] if first != "placements" else []) + ["placements", "optimum", "CP-SAT s", "status", "HiGHS s",
                                                         "exhaustive s", "exhaustive / CP-SAT"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ex = f"> {r.get('exhaustive_cap_seconds', cap):g}" if r["exhaustive_capped"] else _fmt(r["exhaustive_seconds"])
        ratio = "-" if r["ratio"] is None else ("≥ " if r["ratio_is_lower_bound"] else "") + f"{r['ratio']:g}×"
        status = r["cpsat_status"] if r["cpsat_status"] in ("optimal", "unsupported") else f"{r['cpsat_status']} (gap {r['gap']})"
        cells = ([r["id"]] if "id" in r else []) + [str(r["placements"]), _fmt(r["optimum"]),
                                                   _fmt(r["cpsat_seconds"]), status, _fmt(r["highs_seconds"]), ex, ratio]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def scale_svg(rows: list[dict[str, Any]], cap: float, grey_rows: list[dict[str, Any]] | None = None,
              deck_rows: list[dict[str, Any]] | None = None) -> str:
    """A log-scale plot of seconds against placements: CP-SAT, HiGHS, exhaustive, CP-SAT with
    one grey flask a round, and CP-SAT (2 workers) on the deck series (runs stopped at their cap
    drawn there with an open marker)."""
    deck = [dict(r, cpsat_seconds=r["seconds"], cpsat_status=r["status"]) for r in deck_rows or ()
            if r.get("engine") == "CP-SAT, 2 workers"]
    W, H, L, B, T, R = 640, 360, 60, 40, 30, 150
    xs: list[int] = [r["placements"] for r in rows + deck]
    longest = max([cap] + [r.get("exhaustive_cap_seconds", cap) for r in rows] + [r["seconds"] for r in deck])
    lo, hi = 1e-2, max(cap, longest * 1.2, 1.0)    # room above a longer exhaustive cap

    def px(p: float) -> float:
        return L + (p - min(xs)) / max(1, max(xs) - min(xs)) * (W - L - R)

    def py(sec: float) -> float:
        sec = min(max(sec, lo), hi)
        return T + (math.log10(hi) - math.log10(sec)) / (math.log10(hi) - math.log10(lo)) * (H - T - B)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="Solve time against placements" font-family="sans-serif" font-size="12">',
             f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>']
    dec = math.floor(math.log10(lo))
    while 10 ** dec <= hi:
        y = py(10 ** dec)
        parts.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** dec:g} s</text>')
        dec += 1
    for p in sorted(set(xs)):
        parts.append(f'<text x="{px(p):.1f}" y="{H - B + 16}" text-anchor="middle">{p}</text>')
    parts.append(f'<text x="{(L + W - R) / 2:.1f}" y="{H - 6}" text-anchor="middle">placements</text>')
    parts.append(f'<line x1="{L}" y1="{py(cap):.1f}" x2="{W - R}" y2="{py(cap):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    parts.append(f'<text x="{L + 4}" y="{py(cap) - 4:.1f}" fill="#555">cap {cap:g} s</text>')
    # (name, seconds field, colour, stopped?, rows, dash, field holding where a stopped run is drawn)
    series: list[tuple[str, str, str, Callable[[dict[str, Any]], bool], list[dict[str, Any]], str, str | None]]
    series = [("CP-SAT", "cpsat_seconds", "#1f77b4", lambda r: r["cpsat_status"] != "optimal", rows, "", None),
              ("HiGHS", "highs_seconds", "#2ca02c", lambda r: r["highs_seconds"] is None, rows, "", None),
              ("exhaustive", "exhaustive_seconds", "#d62728", lambda r: r["exhaustive_capped"], rows, "",
               "exhaustive_cap_seconds")]
    if grey_rows:
        series.append(("CP-SAT, grey", "cpsat_seconds", "#9467bd", lambda r: r["cpsat_status"] != "optimal",
                       grey_rows, ' stroke-dasharray="6 3"', None))
    if deck:    # a stopped deck run is drawn at its own time (the whole game has a longer cap)
        series.append(("CP-SAT, deck (2w)", "cpsat_seconds", "#ff7f0e", lambda r: r["cpsat_status"] != "optimal",
                       deck, ' stroke-dasharray="2 2"', "seconds"))
    for n, (name, key, colour, capped, rs, dash, stopped_at) in enumerate(series):
        # r.get(None, cap) is the cap: a series without a stopped-at field draws stopped runs there
        pts = [(px(r["placements"]), py(r.get(stopped_at, cap) if capped(r) else r[key]), capped(r)) for r in rs]  # type: ignore[arg-type]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts) + '"/>')
        for x, y, open_ in pts:
            fill = "white" if open_ else colour
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{fill}" stroke="{colour}" stroke-width="2"/>')
        ly = T + 30 + 20 * n
        parts.append(f'<line x1="{W - R + 10}" y1="{ly}" x2="{W - R + 30}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        parts.append(f'<text x="{W - R + 36}" y="{ly + 4}">{name}</text>')
    note = T + 40 + 20 * len(series)      # under the legend, however many series it has
    parts.append(f'<text x="{W - R + 10}" y="{note}" fill="#555">open marker:</text>')
    parts.append(f'<text x="{W - R + 10}" y="{note + 16}" fill="#555">stopped at its cap</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ablation(cap: float) -> list[dict[str, Any]]:
    """CP-SAT seconds to a proven optimum with each model option switched off, and with the
    optimal plan given as a hint (the best case for hints), on three of the larger puzzles."""
    from .planner import Options, build_model, solve_cpsat
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


def ablation_table(rows: list[dict[str, Any]], cap: float) -> str:
    keys = [k for k in rows[0] if k != "puzzle"]
    out = ["| puzzle | " + " | ".join(keys) + " |", "|---|" + "---|" * len(keys)]
    for r in rows:
        out.append(f"| {r['puzzle']} | " + " | ".join(f"> {cap:g}" if r[k] is None else f"{r[k]:.2f}" for k in keys) + " |")
    return "\n".join(out)


MAX_PLACEMENTS = 48
"""Longest scale-curve puzzle (``--sizes``): 12 rounds, the puzzle format's maximum, of 4 flasks."""


def parse_placements(text: str, option: str, most: int | None = None) -> list[int]:
    """The placements of a series (``--sizes``, ``--deck-sizes``): multiples of 4, comma-separated;
    with ``most``, at least one and none above it. ValueError naming ``option`` otherwise."""
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"{option}: expected placements like 4,8,12, got {text!r}") from None
    if any(s <= 0 or s % 4 for s in sizes) or (most is not None and (not sizes or max(sizes) > most)):
        span = "" if most is None else f" from 4 to {most}"
        raise ValueError(f"{option}: expected multiples of 4{span}, got {text!r}")
    return sizes


def main(args: argparse.Namespace) -> int:
    from . import SOLVER_VERSION
    cap = args.cap
    max_cap = args.max_cap
    try:
        sizes = parse_placements(args.sizes, "--sizes", most=MAX_PLACEMENTS)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else OUT
    if getattr(args, "deck", False):
        return deck_main(args, out)
    if getattr(args, "suite", False):
        return suite_main(args, out)
    if getattr(args, "ablation", False):
        print("CP-SAT seconds to a proven optimum (1 worker unless said)\n\n" + ablation_table(ablation(args.cap), args.cap))
        return 0
    import ortools
    result = {"solver_version": SOLVER_VERSION,
              "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "ortools": ortools.__version__},
              "cap_seconds": cap, "seeds": list(SEEDS), "targets": TARGETS, "puzzles": [], "scale": [], "scale_grey": []}
    previous = _read(out / "bench.json")
    for key in DECK_KEYS:          # a run without --deck keeps the last deck series
        if key in previous:
            result[key] = previous[key]
    for path in over(puzzle_files(), "shipped puzzles"):
        p = load_puzzle(path)
        row = {"id": p.id, "grade": p.grade, "placements": p.rounds * p.flasks, **measure(p, cap, max_cap)}
        result["puzzles"].append(row)
        note(f"  {p.id}: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']}), exhaustive "
             f"{'capped' if row['exhaustive_capped'] else row['exhaustive_seconds']}")
    if not args.quick:
        for n in over(sizes, "scale curve"):
            row = {"placements": n, **measure(scale_puzzle(n), cap, max_cap)}
            result["scale"].append(row)
            note(f"  scale {n}: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']}), exhaustive "
                 f"{'capped' if row['exhaustive_capped'] else row['exhaustive_seconds']}")
        for n in over(sizes, "scale curve, grey flasks"):      # with a grey flask a round: CP-SAT and HiGHS only
            row = {"placements": n, "grey_flasks": 1, **time_cpsat(scale_puzzle(n, grey=1), cap)}
            result["scale_grey"].append(row)
            note(f"  scale {n} grey: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']})")
    print("Shipped puzzles\n\n" + table(result["puzzles"], "puzzle", cap))
    if result["scale"]:
        print("\nScale curve\n\n" + table(result["scale"], "placements", cap))
        print("\nScale curve, 1 grey flask a round (CP-SAT s, status, HiGHS s)\n")
        for r in result["scale_grey"]:
            print(f"| {r['placements']} | {_fmt(r['optimum'])} | {_fmt(r['cpsat_seconds'])} | {r['cpsat_status']} | {_fmt(r['highs_seconds'])} |")
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if result["scale"]:
        (out / "scale.svg").write_text(scale_svg(result["scale"], cap, result["scale_grey"], result.get("deck")),
                                       encoding="utf-8")
    print(f"\nwrote {out / 'bench.json'}" + (f" and {out / 'scale.svg'}" if result["scale"] else ""))
    return 0


DECK_KEYS = ("deck_cap_seconds", "deck_whole_cap_seconds", "deck", "deck_methods")
"""The fields of ``bench.json`` a ``--deck`` run writes (the other fields are kept as they are)."""


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def deck_main(args: argparse.Namespace, out: Path) -> int:
    """``bench --deck``: the deck series and the methods tried, merged into ``bench.json``."""
    try:
        sizes = parse_placements(args.deck_sizes, "--deck-sizes", most=WHOLE_GAME)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = _read(out / "bench.json")
    result.update(deck_cap_seconds=args.cap, deck_whole_cap_seconds=args.whole_cap,
                  deck=deck_series(sizes, args.cap, args.whole_cap), deck_methods=deck_methods(args.cap))
    print("Deck series (2nd edition, 3 players)\n\n" + deck_table(result["deck"]))
    print("\nMethods tried on 16 placements\n\n" + deck_table(result["deck_methods"]))
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if result.get("scale"):
        (out / "scale.svg").write_text(scale_svg(result["scale"], result.get("cap_seconds", args.cap),
                                                 result.get("scale_grey"), result["deck"]), encoding="utf-8")
    print(f"\nwrote {out / 'bench.json'}")
    return 0


# --------------------------------------------------------------------------- the deck suite (#35)

SUITE_DETERMINISTIC = 10.0
"""CP-SAT deterministic seconds per method and suite puzzle (``--det``)."""
SUITE_WORKERS = 2
"""CP-SAT workers of the suite runs (``--workers``), recorded in ``bench.json``."""
SUITE_KEYS = ("suite_conditions", "suite_summary", "suite")
"""The fields of ``bench.json`` a ``--suite`` run writes (the traces go to ``suite_traces.json``,
the plot to ``suite.svg``)."""


def suite_rows(files: Sequence[Path], methods: Sequence[Any], deterministic: float, workers: int,
               on_row: Callable[[dict[str, Any]], None] | None = None,
               done: dict[tuple[str, str], dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every method of ``methods`` (:class:`solver.bounds.BoundMethod`) on every suite puzzle, at most
    ``deterministic`` deterministic seconds each; every plan replayed by the rules engine, and every
    puzzle's proven optima, plans and bounds checked against each other (a contradiction stops)."""
    from .bounds import run_method
    from .planner import build_model
    from .solution import _verified
    rows: list[dict[str, Any]] = []
    for path in over(list(files), "deck suite"):
        puzzle = load_puzzle(path)
        mine = []
        for method in methods:
            if done and (puzzle.id, method.name) in done:      # --resume: measured by an earlier run
                mine.append(done[puzzle.id, method.name])
                if on_row is not None:
                    on_row(done[puzzle.id, method.name])
                continue
            res = run_method(build_model(puzzle), method, deterministic, workers)
            if res.plan:
                _verified(puzzle, res.plan, res.objective, method.name)  # type: ignore[arg-type]
            gap = None if res.bound is None or res.objective is None else res.bound - res.objective
            row = {"id": puzzle.id, "placements": puzzle.rounds * puzzle.flasks, "edition": puzzle.edition.value,
                   "players": puzzle.players, "deck_cards": len(puzzle.deck), "engine": method.name,
                   "status": res.status, "objective": res.objective, "bound": res.bound, "gap": gap,
                   "gap_percent": None if gap is None or not res.bound else round(100 * gap / res.bound, 1),
                   "deterministic_seconds": res.deterministic_seconds, "cpu_seconds": res.cpu_seconds,
                   "trace": res.trace}
            mine.append(row)
            if on_row is not None:
                on_row(row)
            note(f"  {puzzle.id} {method.name}: {res.status} {res.objective} bound {res.bound} "
                 f"({res.deterministic_seconds} det s, {res.cpu_seconds} CPU s)")
        check_deck_agreement(mine)
        rows += mine
    return rows


def suite_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per method and size: puzzles proven, median and worst deterministic seconds to the proof
    (a run not proven counts as its budget, and the worst is then "not proven"), median gap."""
    out = []
    for key in sorted({(r["placements"], r["engine"]) for r in rows}, key=lambda k: (k[0], [r["engine"] for r in rows].index(k[1]))):
        rs = [r for r in rows if (r["placements"], r["engine"]) == key]
        proven = [r for r in rs if r["status"] == "optimal"]
        det = [r["deterministic_seconds"] if r["status"] == "optimal" else math.inf for r in rs]
        gaps = [r["gap_percent"] for r in rs if r["gap_percent"] is not None]
        out.append({"placements": key[0], "engine": key[1], "instances": len(rs), "proven": len(proven),
                    "median_deterministic_seconds": statistics.median(det),
                    "worst_deterministic_seconds": max(det),
                    "median_gap_percent": statistics.median(gaps) if gaps else None,
                    "worst_gap_percent": max(gaps) if gaps else None})
    return out


def suite_table(rows: list[dict[str, Any]]) -> str:
    head = ["puzzle", "method", "status", "Health", "bound", "gap", "det s", "CPU s"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        gap = "-" if r["gap"] is None else f"{r['gap']} ({r['gap_percent']} %)"
        out.append(f"| {r['id']} | {r['engine']} | {r['status']} | {_fmt(r['objective'])} | {_fmt(r['bound'])} | "
                   f"{gap} | {r['deterministic_seconds']:.2f} | {r['cpu_seconds']:.2f} |")
    return "\n".join(out)


def suite_summary_table(summary: list[dict[str, Any]], budget: float) -> str:
    def det(v: float) -> str:
        return f"> {budget:g}" if v == math.inf else f"{v:.2f}"
    out = ["| placements | method | proven | median det s | worst det s | median gap % | worst gap % |",
           "|---|---|---|---|---|---|---|"]
    for s in summary:
        out.append(f"| {s['placements']} | {s['engine']} | {s['proven']}/{s['instances']} | "
                   f"{det(s['median_deterministic_seconds'])} | {det(s['worst_deterministic_seconds'])} | "
                   f"{_fmt(s['median_gap_percent'])} | {_fmt(s['worst_gap_percent'])} |")
    return "\n".join(out)


def suite_svg(rows: list[dict[str, Any]]) -> str:
    """Per size, a panel of the bound and the best plan over CPU seconds for each method: the median
    over the suite's puzzles of each as a percentage of the best plan any method found for the puzzle
    (solid: bound, dashed: plan). The bound line coming down to 100 % is a proof."""
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    methods = list(dict.fromkeys(r["engine"] for r in rows))
    sizes = sorted({r["placements"] for r in rows})
    best = {r["id"]: max((q["objective"] or 0) for q in rows if q["id"] == r["id"]) for r in rows}
    horizon: float = max([float(r["cpu_seconds"]) for r in rows] + [1.0])
    PW, PH, L, T, B, GAP = 300, 220, 50, 30, 40, 30
    W = L + len(sizes) * (PW + GAP) + 170
    H = T + PH + B
    lo_pct = 80.0
    hi_pct: float = max([100.0] + [100.0 * p[2] / best[r["id"]] for r in rows for p in r["trace"] if best[r["id"]]] + [101.0])
    hi_pct = min(hi_pct, 200.0)

    def series(rs: list[dict[str, Any]], which: int, t: float) -> float | None:
        vals = []
        for r in rs:
            if not best[r["id"]]:
                continue             # no method found a plan: no scale to measure it by
            seen = [p for p in r["trace"] if p[0] <= t and p[which] is not None]
            if not seen and which == 2:
                return None          # a bound not known yet: no median
            vals.append(100 * seen[-1][which] / best[r["id"]] if seen else 0.0)   # no plan yet: 0 %
        return float(statistics.median(vals)) if vals else None

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="Bound and plan over CPU time per method" font-family="sans-serif" font-size="11">',
             f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>']
    steps = [horizon * k / 60 for k in range(61)]
    for n, size in enumerate(sizes):
        x0 = L + n * (PW + GAP)

        def px(t: float, x0: float = x0) -> float:
            return x0 + t / horizon * PW

        def py(pct: float) -> float:
            pct = min(max(pct, lo_pct), hi_pct)
            return T + (hi_pct - pct) / (hi_pct - lo_pct) * PH

        parts.append(f'<text x="{x0 + PW / 2:.1f}" y="{T - 10}" text-anchor="middle" font-weight="bold">'
                     f'{size} placements</text>')
        parts.append(f'<rect x="{x0}" y="{T}" width="{PW}" height="{PH}" fill="none" stroke="#999"/>')
        pct = lo_pct
        while pct <= hi_pct:
            parts.append(f'<line x1="{x0}" y1="{py(pct):.1f}" x2="{x0 + PW}" y2="{py(pct):.1f}" stroke="#eee"/>')
            if n == 0:
                parts.append(f'<text x="{x0 - 4}" y="{py(pct) + 4:.1f}" text-anchor="end">{pct:g} %</text>')
            pct += 10 if hi_pct - lo_pct <= 60 else 20
        parts.append(f'<line x1="{x0}" y1="{py(100):.1f}" x2="{x0 + PW}" y2="{py(100):.1f}" stroke="#555"/>')
        for k in range(5):
            t = horizon * k / 4
            parts.append(f'<text x="{px(t):.1f}" y="{T + PH + 14}" text-anchor="middle">{t:.0f}</text>')
        parts.append(f'<text x="{x0 + PW / 2:.1f}" y="{H - 8}" text-anchor="middle">CPU seconds</text>')
        for m, method in enumerate(methods):
            rs = [r for r in rows if r["engine"] == method and r["placements"] == size]
            if not rs:
                continue
            colour = colours[m % len(colours)]
            for which, dash in ((2, ""), (1, ' stroke-dasharray="5 3"')):
                pts = [(px(t), py(v)) for t in steps if (v := series(rs, which, t)) is not None]
                if pts:
                    parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="'
                                 + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
    lx = L + len(sizes) * (PW + GAP)
    for m, method in enumerate(methods):
        y = T + 10 + 18 * m
        parts.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 20}" y2="{y}" stroke="{colours[m % len(colours)]}" stroke-width="2"/>')
        parts.append(f'<text x="{lx + 26}" y="{y + 4}">{_xml(method)}</text>')
    y = T + 20 + 18 * len(methods)
    parts.append(f'<text x="{lx}" y="{y}" fill="#555">solid: bound, dashed: plan</text>')
    parts.append(f'<text x="{lx}" y="{y + 16}" fill="#555">median over the suite,</text>')
    parts.append(f'<text x="{lx}" y="{y + 32}" fill="#555">% of the best plan found</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_suite_result(out: Path, rows: list[dict[str, Any]], deterministic: float, workers: int) -> None:
    """Merge the suite's rows into ``out/bench.json`` (:data:`SUITE_KEYS`), their traces into
    ``out/suite_traces.json`` and the plot into ``out/suite.svg``."""
    import ortools
    result = _read(out / "bench.json")
    result["suite_conditions"] = {
        "measure": "CP-SAT deterministic time, not wall-clock (comparable however loaded the machine)",
        "deterministic_seconds_per_worker": deterministic, "workers": workers, "seed": 0,
        "ortools": ortools.__version__, "cores": os.cpu_count(),
        "reported_deterministic_seconds": "CP-SAT's total over its workers (up to about workers x the budget)",
        "plot_time": "process CPU seconds, all workers"}
    result["suite_summary"] = suite_summary(rows)
    for s in result["suite_summary"]:      # JSON has no infinity: a run not proven is null there
        for k in ("median_deterministic_seconds", "worst_deterministic_seconds"):
            if s[k] == math.inf:
                s[k] = None
    result["suite"] = [{k: v for k, v in r.items() if k != "trace"} for r in rows]
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    traces = {f"{r['id']} | {r['engine']}": r["trace"] for r in rows}
    (out / "suite_traces.json").write_text(json.dumps(traces, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "suite.svg").write_text(suite_svg(rows), encoding="utf-8")


def read_suite_rows(out: Path) -> list[dict[str, Any]]:
    """The suite's rows as written by :func:`write_suite_result`, their traces put back."""
    rows = _read(out / "bench.json").get("suite", [])
    traces = _read(out / "suite_traces.json")
    return [dict(r, trace=traces.get(f"{r['id']} | {r['engine']}", [])) for r in rows if isinstance(r, dict)]


def suite_main(args: argparse.Namespace, out: Path) -> int:
    """``bench --suite``: the bounding methods on the deck suite, merged into ``bench.json``
    (:data:`SUITE_KEYS`); prints per puzzle the plan, bound and gap at the deterministic-time budget."""
    from .bounds import METHODS
    from .deck_suite import suite_files, write_suite
    if getattr(args, "write_suite", False):
        print(f"wrote {len(write_suite())} suite puzzles")
    try:
        sizes = parse_placements(args.suite_sizes, "--suite-sizes")
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    names = [m.name for m in METHODS]
    wanted = [s.strip() for s in args.methods.split(",")] if args.methods else names
    unknown = [w for w in wanted if w not in names]
    if unknown:
        print(f"error: --methods: unknown {unknown}, expected some of {names}", file=sys.stderr)
        return 2
    methods = [m for m in METHODS if m.name in wanted]
    files = [f for f in suite_files(small=False) if any(f.stem.endswith(f"-p{n}") for n in sizes)]
    if args.only:
        files = [f for f in files if args.only in f.stem]
    earlier = read_suite_rows(out)
    stems = {f.stem for f in files}
    ours = [r for r in earlier if r["id"] in stems and r["engine"] in wanted]
    old = [r for r in earlier if r not in ours]
    done = {(r["id"], r["engine"]): r for r in ours} if args.resume else {}
    new: list[dict[str, Any]] = []

    def save(row: dict[str, Any]) -> None:       # after each run: a stopped benchmark keeps its rows
        new.append(row)
        write_suite_result(out, old + new, args.det, args.workers)

    rows = suite_rows(files, methods, args.det, args.workers, save, done)
    print(f"Deck suite: CP-SAT, {args.workers} workers, at most {args.det:g} deterministic seconds a worker "
          "(deterministic time, not wall-clock: comparable across machine load)\n")
    print(suite_table(rows))
    print("\n" + suite_summary_table(suite_summary(rows), args.det))
    print(f"\nwrote {out / 'bench.json'}, {out / 'suite_traces.json'} and {out / 'suite.svg'}")
    return 0
