"""The proof and the neighbourhood search side by side, for large puzzles (issue #35).

From 24 placements on CP-SAT seldom proves a deck puzzle within a minute, and the plans it finds
in that time are often worse than those of the warm start (:mod:`.warm_start`: a beam search
through the rules engine, then a large-neighbourhood search). ``solve(search=True)`` (``solve
--search``) runs both at once: CP-SAT on the whole model with its workers (two or more), proving
the bound, and the search as one thread more (CP-SAT releases the interpreter while it works). The
search's windows widen when a pass finds nothing, up to the whole game, which it then solves from
its best plan: a second proof. The answer is the better plan of the two, replayed by the rules
engine, with the better bound. It is proven when CP-SAT proves its own plan optimal or when a
bound comes down to a plan: a bound holds for every plan of the game, whichever run found the
plan. Either event ends both runs.

It is a trade, asked for rather than made by default: the third thread takes processor time from
CP-SAT's bound. Measured on 2 cores (plan / bound, CP-SAT's two workers alone against the search
beside them): the deck series at 32 placements, 120 s, 38 / 54 against 44 / 53; at 60 s, 41 / 54
both; at 28 placements, 60 s, 36 / 47 against 37 / 46; the suite's 24-placement puzzles no better
(the same plans in sum, bounds 2 points higher, proofs later); the series' whole game, 600 s, 49 /
77 against 59 / 137. One CP-SAT worker beside the search, instead of two, proved a far weaker bound
(63 at 32 placements).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.game.errors import SolverError

if TYPE_CHECKING:
    from solver.game.engine import Action
    from solver.game.model import Puzzle
    from .planner import PlanModel, PlannerResult, Progress

@dataclass
class _Best:
    """The best plan either run has found so far, and CP-SAT's best bound (shared by the threads)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    plan: list[Action] = field(default_factory=list)
    value: int | None = None
    cpsat_value: int | None = None
    bound: int | None = None
    search_value: int | None = None


@dataclass(frozen=True)
class PortfolioResult:
    """What the two runs answer together."""

    proof: PlannerResult
    """CP-SAT's run on the whole model (its own plan, bound and status)."""
    plan: list[Action]
    """The better plan of the two (CP-SAT's on a tie)."""
    value: int | None
    """Its Health Points (None: neither run found a plan)."""
    bound: int | None
    """The better bound of the two runs: CP-SAT's, or the search's once its last stage solves the
    whole game (None: neither proved one)."""
    found_by: str
    """``cpsat`` or ``search``: which run found :attr:`plan`."""
    proven: bool
    """CP-SAT proved its plan optimal, or its bound came down to the search's plan."""
    search_value: int | None
    """The search's best plan (None: it found none)."""
    search_seconds: float
    """How long the search ran."""


def prove_and_search(puzzle: Puzzle, pm: PlanModel, *, workers: int, time_limit: float | None, seed: int = 0,
                     subsolvers: tuple[str, ...] = (), progress: Progress | None = None) -> PortfolioResult:
    """CP-SAT with ``workers`` workers on ``pm`` and the neighbourhood search as one thread more,
    for ``time_limit`` seconds at most (None: until proven). ``progress(objective, bound, seconds)``:
    each better plan of either run and each better bound."""
    from .planner import SearchStop, solve_cpsat
    from .warm_start import warm_start
    if workers < 2:
        raise SolverError(f"workers: expected at least 2 beside the search (one worker is the reproducible "
                          f"setting), got {workers}")
    best = _Best()
    proof_stop, search_stop = SearchStop(), SearchStop()
    start = time.perf_counter()

    def report(objective: int | None, bound: int) -> None:
        """Called with ``best.lock`` held: the caller's progress sees one run at a time."""
        if progress is not None:
            progress(objective, bound, time.perf_counter() - start)

    def on_cpsat(objective: int | None, bound: int, _seconds: float) -> None:
        with best.lock:
            best.bound = bound if best.bound is None else min(best.bound, bound)
            if objective is not None and (best.cpsat_value is None or objective > best.cpsat_value):
                best.cpsat_value = objective
            value = max(v for v in (best.cpsat_value, best.search_value, -1) if v is not None)
            report(value if value >= 0 else None, best.bound)
            if value >= best.bound:
                stop_both()             # a plan meets the bound: proven

    def on_search(plan: list[Action], value: int) -> None:
        with best.lock:
            if best.search_value is not None and value <= best.search_value:
                return
            best.search_value, best.plan = value, list(plan)
            if best.bound is None:
                return                  # reported with CP-SAT's first bound
            if best.cpsat_value is None or value > best.cpsat_value:
                report(value, best.bound)
            if value >= best.bound:
                stop_both()

    def on_search_bound(bound: int) -> None:
        """The search's last stage solves the whole game: its bound holds too."""
        with best.lock:
            if best.bound is not None and bound >= best.bound:
                return
            best.bound = bound
            value = max(v for v in (best.cpsat_value, best.search_value, -1) if v is not None)
            report(value if value >= 0 else None, bound)
            if value >= bound:
                stop_both()

    def stop_both() -> None:
        proof_stop.stop()
        search_stop.stop()

    failure: list[BaseException] = []
    search_time: list[float] = []

    def search() -> None:
        t0 = time.perf_counter()
        try:
            warm_start(puzzle, time_limit, stop=search_stop, on_plan=on_search,
                       widen=True, on_bound=on_search_bound)
        except BaseException as exc:          # re-raised in the caller's thread
            failure.append(exc)
        finally:
            search_time.append(time.perf_counter() - t0)

    thread = threading.Thread(target=search, name="neighbourhood-search", daemon=True)
    thread.start()
    try:
        proof = solve_cpsat(pm, workers=workers, seed=seed, time_limit=time_limit, progress=on_cpsat,
                            subsolvers=subsolvers, stop=proof_stop)
    finally:
        search_stop.stop()
        thread.join()
    if failure:
        raise failure[0]
    search_value = best.search_value
    if proof.status == "infeasible" and search_value is not None:
        raise SolverError(f"{puzzle.id}: CP-SAT says the model is infeasible but the search found a plan "
                          f"of {search_value} Health Points")
    cpsat_value = proof.objective if proof.plan else None
    bounds = [b for b in (proof.bound, best.bound) if b is not None]
    bound = min(bounds) if bounds else None
    for run, found in (("the search's", search_value), ("CP-SAT's", cpsat_value)):
        if found is not None and bound is not None and found > bound:
            raise SolverError(f"{puzzle.id}: {run} plan scores {found} Health Points, above the bound of {bound} "
                              f"proved on the same game")
    if search_value is not None and (cpsat_value is None or search_value > cpsat_value):
        plan, value, found_by = best.plan, search_value, "search"
    else:
        plan, value, found_by = list(proof.plan), cpsat_value, "cpsat"
    proven = proof.status == "optimal" or (value is not None and bound is not None and value >= bound)
    return PortfolioResult(proof, plan, value, bound, found_by, proven, search_value,
                           search_time[0] if search_time else 0.0)
