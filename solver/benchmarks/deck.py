"""The deck series (issue #15): every engine side by side on the deck family of :mod:`solver.benchmarks.deck_family`
(a refilling card row), from 8 placements to a whole game, and the row reformulations and solver
choices tried on its 16-placement puzzle. Every plan is replayed by the rules engine and the
engines' optima and bounds are checked against each other."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .deck_family import WHOLE_GAME_ROUNDS
from solver.io.progress import note, over

if TYPE_CHECKING:   # the planner is imported where an engine runs
    from solver.game.engine import Action
    from solver.game.model import Puzzle

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
        from solver.optimise.planner import TWO_WORKERS_MARKET, Options, build_model, solve_cpsat
        from ..optimise.caps import completions_cap_helps
        res = solve_cpsat(build_model(puzzle, Options(**options)), workers=workers, time_limit=cap,
                          subsolvers=subsolvers or TWO_WORKERS_MARKET,
                          completions_cap=completions_cap_helps(puzzle, workers))   # as solve runs it
        return DeckRun(res.status, res.objective, res.bound, res.wall_time), res.plan
    return run


def _mip_engine(name: str, **options: bool) -> DeckEngine:
    def run(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
        from solver.optimise.planner import Options, build_model, solve_mip
        res = solve_mip(build_model(puzzle, Options(**options)), name, time_limit=cap)
        return DeckRun(res.status, res.objective, res.bound, res.wall_time), res.plan
    return run


def _warm_start_engine(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
    """Beam search through the rules engine, then CP-SAT large-neighbourhood search from its plan
    (:func:`solver.optimise.warm_start.warm_start`): a plan without a bound (a lower bound on the optimum)."""
    from solver.optimise.warm_start import warm_start
    t0 = time.perf_counter()
    plan, value = warm_start(puzzle, cap, width=128)
    return DeckRun("feasible" if plan else "unknown", value, None, time.perf_counter() - t0), plan


def _beside_search_engine(puzzle: Puzzle, cap: float) -> tuple[DeckRun, list[Action]]:
    """CP-SAT's two workers with the neighbourhood search beside them
    (:func:`solver.optimise.portfolio.prove_and_search`, what ``solve --workers 2 --search`` runs),
    at every size of the series."""
    from solver.optimise.planner import build_model, subsolvers_for
    from solver.optimise.portfolio import prove_and_search
    pm = build_model(puzzle)
    t0 = time.perf_counter()            # after the build, as the CP-SAT engines' seconds
    both = prove_and_search(puzzle, pm, workers=2, time_limit=cap, subsolvers=subsolvers_for(puzzle))
    status = "optimal" if both.proven else "feasible" if both.plan else "unknown"
    return DeckRun(status, both.value, both.bound, time.perf_counter() - t0), both.plan


BESIDE_SEARCH = "CP-SAT, 2 workers + search"
"""The deck series' name for :func:`_beside_search_engine`."""

DECK_ENGINES: dict[str, DeckEngine] = {
    "CP-SAT, 2 workers": _cpsat_engine(2),
    BESIDE_SEARCH: _beside_search_engine,
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
    "CP-SAT, 2 workers, row by prefix sums": _cpsat_engine(2, row_paths=False),
    "CP-SAT, 1 worker, no row cuts": _cpsat_engine(1, row_cuts=False),
    "HiGHS, no row cuts": _mip_engine("highs", row_cuts=False),
    "SCIP, no row cuts": _mip_engine("scip", row_cuts=False),
}
"""What was tried on the 16-placement deck puzzle (the row reformulations and solver choices), so
the benchmark keeps what did not help as well as what did."""


def deck_row(puzzle: Puzzle, engine: str, run: DeckEngine, cap: float) -> dict[str, Any]:
    """One engine on one deck puzzle, its plan replayed by the rules engine."""
    from ..solution import _verified
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
    only by the 2-worker CP-SAT runs, alone and with the search beside them, for ``whole_cap`` seconds."""
    from .deck_family import deck_puzzle
    from solver.game.model import Edition
    rows = []
    for edition, n in over([(e, n) for e in editions for n in sizes], "deck series"):
        puzzle = deck_puzzle(n, Edition(edition))
        whole = n == WHOLE_GAME
        for name, run in DECK_ENGINES.items():
            if whole and name not in ("CP-SAT, 2 workers", BESIDE_SEARCH):
                continue
            row = deck_row(puzzle, name, run, whole_cap if whole else cap)
            rows.append(row)
            note(f"  deck {n} {edition} {name}: {row['status']} {row['objective']} bound {row['bound']} "
                 f"in {row['seconds']} s")
    check_deck_agreement(rows)
    return rows


METHODS_PLACEMENTS = 16
"""The deck puzzle the methods of :data:`DECK_METHODS` are tried on."""


def deck_methods(cap: float, placements: int = METHODS_PLACEMENTS) -> list[dict[str, Any]]:
    """Each reformulation and solver choice of :data:`DECK_METHODS` on one deck puzzle."""
    from .deck_family import deck_puzzle
    puzzle = deck_puzzle(placements)
    rows = []
    for name, run in over(DECK_METHODS.items(), "deck methods"):
        row = deck_row(puzzle, name, run, cap)
        rows.append(row)
        note(f"  deck method {name}: {row['status']} {row['objective']} in {row['seconds']} s")
    check_deck_agreement(rows)
    return rows


DECK_KEYS = ("deck_cap_seconds", "deck_whole_cap_seconds", "deck", "deck_methods")
"""The fields of ``bench.json`` a ``--deck`` run writes (the other fields are kept as they are)."""
