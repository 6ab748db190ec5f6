"""Stage 3 of the planner: the engines run on the model: CP-SAT with the measured settings
(:func:`solve_cpsat`), a MIP engine confirming it (:func:`solve_mip`, HiGHS by default), and why no
plan exists when that can be told (:func:`explain_infeasible`).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from solver.encoding.linear import LinearModel, Var
from solver.game.editions import rules_for
from solver.game.engine import Action
from solver.game.errors import SolverError
from solver.game.model import Puzzle
from solver.optimise.decode import decode, hint_values
from solver.optimise.model.build import build_model
from solver.optimise.model.plan_model import PlanModel


@dataclass
class PlannerResult:
    """What one engine answers on the abstract model (before the rules engine replays it)."""

    status: str
    """``optimal`` (proven), ``feasible`` (a plan, not proven), ``infeasible``, ``unknown`` (no plan in time)."""
    plan: list[Action]
    objective: int | None
    bound: int | None
    wall_time: float
    engine: str
    stats: dict[str, int] = field(default_factory=dict)
Progress = Callable[[int | None, int, float], None]
"""``progress(objective, bound, seconds)``: an improving plan's objective (None: a better bound only)."""
TWO_WORKERS = ("max_lp", "quick_restart")
"""The two full subsolvers of a 2-worker run (``/work/shared/notes/cp-sat-planning.md``)."""
TWO_WORKERS_MARKET = ("max_lp", "pseudo_costs")
"""The pair measured best on puzzles with a deck (``python -m solver bench --deck``)."""


def subsolvers_for(puzzle: Puzzle) -> tuple[str, ...]:
    """The full subsolvers of a multi-worker run on ``puzzle``: the market pair with a deck."""
    return TWO_WORKERS_MARKET if puzzle.deck else TWO_WORKERS


def cpsat_parameters(workers: int = 1, seed: int = 0, time_limit: float | None = None,
                     deterministic_time: float | None = None,
                     subsolvers: tuple[str, ...] = TWO_WORKERS) -> cp_model.CpSolver:
    """The measured settings (``/work/shared/notes/cp-sat-planning.md``); ``subsolvers``: the full
    subsolvers of a multi-worker run."""
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.random_seed = seed
    p.num_workers = workers
    if workers == 1:
        p.linearization_level = 2
    else:
        p.num_full_subsolvers = workers
        p.subsolvers.extend(subsolvers[:workers])
    p.presolve_inclusion_work_limit = 0        # ortools #5293 workaround
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    if deterministic_time is not None:
        p.max_deterministic_time = deterministic_time
    return solver


class SearchStop:
    """Stops CP-SAT runs from another thread (the proof and the neighbourhood search of
    :mod:`.portfolio` run side by side): :meth:`stop` ends the run in progress and every later one
    given this handle before it starts. Thread-safe."""

    def __init__(self) -> None:
        import threading
        self._lock = threading.Lock()
        self._solver: cp_model.CpSolver | None = None
        self._stopped = False

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._solver is not None:
                self._solver.stop_search()

    def attach(self, solver: cp_model.CpSolver | None) -> bool:
        """Make ``solver`` the run :meth:`stop` ends (None: the run is over). False when stopped
        already: the run is not to start."""
        with self._lock:
            self._solver = solver
            return not self._stopped


def solve_cpsat(pm: PlanModel, *, workers: int = 1, seed: int = 0, time_limit: float | None = None,
                deterministic_time: float | None = None, progress: Progress | None = None,
                hint: list[Action] | None = None, hinted: dict[Var, int] | None = None,
                fix_hint: bool = False, subsolvers: tuple[str, ...] = TWO_WORKERS,
                fixed: dict[Var, int] | None = None, held: dict[Var, int] | None = None,
                stop: SearchStop | None = None,
                converted: tuple[cp_model.CpModel, list[cp_model.IntVar]] | None = None,
                completions_cap: bool = False) -> PlannerResult:
    """Run CP-SAT on ``pm``. ``progress(objective, bound, seconds)`` is called on each improving
    plan and each better bound. ``hint``: a plan to start from (``fix_hint``: the only plan
    allowed), or ``hinted``: its variable values (:func:`hint_values`) when the caller has them;
    ``fixed``: variable values to hold (:func:`prefix_values`), the rest free; ``held``:
    variable values to hold beside a ``hint`` (this run only: ``pm`` is left as it was, so one
    model serves many runs); ``stop``: a handle another thread may end the run with (it then
    answers like a run out of time); ``converted``: ``pm``'s CP-SAT model made once
    (:func:`to_cpsat_model`, without hints), copied for this run instead of converting again;
    ``completions_cap``: the completions cap of :func:`solver.optimise.caps.add_completions_cap`
    in this run's CP-SAT model (not in ``pm``: a MIP engine confirming the optimum solves the
    model without it)."""
    from ortools.sat.python import cp_model
    lm = pm.lm
    if fixed is not None:
        lm.hints, fix_hint = dict(fixed), True
    elif hinted is not None:
        lm.hints = dict(hinted)
    else:
        lm.hints = hint_values(pm, hint) if hint is not None else {}
    if converted is None:
        cp, xs = to_cpsat_model(lm)
    else:
        cp, xs = converted[0].clone(), converted[1]
        for var, value in lm.hints.items():
            cp.add_hint(xs[var.index], value)
    if completions_cap:
        from .caps import add_completions_cap
        add_completions_cap(pm, cp, xs)
    for var, value in (held or {}).items():
        domain = cp.proto.variables[var.index].domain
        domain.clear()
        domain.extend([value, value])
    solver = cpsat_parameters(workers, seed, time_limit, deterministic_time, subsolvers)
    if fix_hint:
        solver.parameters.fix_variables_to_their_hinted_value = True
    start = time.perf_counter()
    if stop is not None and not stop.attach(solver):
        return PlannerResult("unknown", [], None, None, 0.0, "cpsat", {})
    # the bounds CP-SAT proved during this run: a run stopped (out of time, or by ``stop``) before
    # its search began answers UNKNOWN with a best bound of 0, which is no proof of anything
    proven_bounds: list[float] = []

    def on_bound(b: float) -> None:
        proven_bounds.append(b)
        if progress is not None:
            progress(None, int(round(b)), time.perf_counter() - start)
    solver.best_bound_callback = on_bound
    try:
        if progress is not None:
            report = progress   # narrowed to a callable, for the solution callback below

            class _CB(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    report(int(round(self.objective_value)), int(round(self.best_objective_bound)),
                           time.perf_counter() - start)
            status = solver.solve(cp, _CB())
        else:
            status = solver.solve(cp)
    finally:
        if stop is not None:
            stop.attach(None)
    wall = time.perf_counter() - start
    stats = {"branches": solver.num_branches, "conflicts": solver.num_conflicts,
             "variables": len(lm.vars), "constraints": len(lm.constraints)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [int(solver.value(v)) for v in xs]
        return PlannerResult("optimal" if status == cp_model.OPTIMAL else "feasible", decode(pm, values),
                             int(round(solver.objective_value)), int(round(solver.best_objective_bound)),
                             wall, "cpsat", stats)
    if status == cp_model.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, "cpsat", stats)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT: invalid model: {cp.validate()}")
    # stopped before any plan: the last bound the search reported still holds (a whole game's
    # recorded run keeps it: its plan comes from the warm start); the response's own best bound
    # is not read, being 0 when the search never began
    bound = proven_bounds[-1] if proven_bounds else math.inf
    return PlannerResult("unknown", [], None, int(math.floor(bound + 1e-6)) if math.isfinite(bound) else None,
                         wall, "cpsat", stats)


def to_cpsat_model(lm: LinearModel) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    from .linear import to_cpsat
    return to_cpsat(lm)
MIP_BACKENDS = {"highs": "HIGHS", "scip": "SCIP"}
"""The MIP solvers the abstract model can go to (both shipped in the OR-Tools wheel)."""


def solve_highs(pm: PlanModel, *, time_limit: float | None = None) -> PlannerResult:
    """Solve the same abstract model as a MIP with HiGHS."""
    return solve_mip(pm, "highs", time_limit=time_limit)


def solve_mip(pm: PlanModel, engine: str = "highs", *, time_limit: float | None = None) -> PlannerResult:
    """Solve the abstract model as a MIP with ``engine`` (:data:`MIP_BACKENDS`), one thread."""
    from ortools.linear_solver import pywraplp

    from .linear import to_mip
    mip, xs = to_mip(pm.lm, MIP_BACKENDS[engine])
    if engine == "highs":
        mip.SetSolverSpecificParametersAsString("output_flag=false\nlog_to_console=false\n")  # no banner on stdout
    mip.SetNumThreads(1)
    if time_limit is not None:
        mip.SetTimeLimit(int(time_limit * 1000))
    start = time.perf_counter()
    status = mip.Solve()
    wall = time.perf_counter() - start
    if status == pywraplp.Solver.OPTIMAL:
        values = [int(round(v.solution_value())) for v in xs]
        obj = int(round(mip.Objective().Value()))
        return PlannerResult("optimal", decode(pm, values), obj, obj, wall, engine)
    if status == pywraplp.Solver.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, engine)
    if status == pywraplp.Solver.FEASIBLE:
        values = [int(round(v.solution_value())) for v in xs]
        return PlannerResult("feasible", decode(pm, values), int(round(mip.Objective().Value())),
                             int(math.floor(mip.Objective().BestBound() + 1e-6)), wall, engine)
    return PlannerResult("unknown", [], None, None, wall, engine)


def explain_infeasible(puzzle: Puzzle, time_limit: float = 10.0) -> str | None:
    """Why no complete legal sequence exists, when it can be told: the first round that cannot be
    played with all its flasks, and what blocks it (gameplay.phase-1)."""
    import dataclasses
    for k in range(1, puzzle.rounds + 1):
        prefix = dataclasses.replace(puzzle, rounds=k)
        res = solve_cpsat(build_model(prefix), time_limit=time_limit)
        if res.status == "unknown":
            return None
        if res.status != "infeasible":
            continue
        occ = set(puzzle.occupied_in(k))
        free = [sp.id for sp in puzzle.board.spots if sp.id not in occ]
        rules = rules_for(puzzle.edition)
        why = (f"no legal sequence: round {k} cannot be played with all {puzzle.flasks} flask(s) "
               f"({len(free)} spot(s) free")
        if not rules.exhaust_allowed():
            why += "; exhausting a flask is a 2e rule, not available in 1e"
        why += "; every other placement needs resources or cards the plan cannot have by then)"
        return why
    return None
