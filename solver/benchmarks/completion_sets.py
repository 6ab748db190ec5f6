"""A bound by completion sets (issue #35, a bounding idea measured and not kept): the completions
cap of :mod:`solver.optimise.caps` as the master of a decomposition, the planner's model as its
subproblem.

Every plan completes some set of cards; the cap model (:func:`solver.optimise.caps.objective_cap_model`)
scores each set from above. To prove that no plan beats an incumbent ``L``, it is enough to take
every set whose cap exceeds ``L`` and show, in the planner's full model with exactly that set
completed (``done[c][end]`` fixed for every completable card), that no plan scores ``L + 1``. The
cap model enumerates the sets (each found set is excluded by a no-good and the model asked again);
each subproblem is one CP-SAT run on one worker. A subproblem that finds a plan raises ``L``, and
the remaining sets are refuted above it.

Fixing the set removes what the planner's LP relaxation exploits most (a share of several cards
completed), so each subproblem closes fast; the weakness is the number of sets: the cap knows
resources and placements but not time, and admits hundreds of sets on most 16-placement suite
puzzles (``docs/dev/planner.md``). The incumbent comes from the planner as it ships
(:func:`solver.benchmarks.bounds.run_method`, ``baseline``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.optimise.caps import done_vars, flow_rows, objective_cap_model

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.encoding.linear import Expr
    from solver.optimise.planner import PlanModel


MAX_SETS = 5000
"""Sets enumerated at most: past this the method gives up (its bound is the cap)."""


@dataclass(frozen=True)
class CompletionSetRun:
    """The decomposition on one puzzle: how many sets the cap left above the incumbent, how many
    were refuted, and the bound it proves."""

    incumbent: int
    """The plan's Health the run started from."""
    best: int
    """The best plan's Health at the end (raised when a subproblem found a better plan)."""
    cap: int
    """The completions cap on the objective (the bound before any set is refuted)."""
    sets: int | None
    """Completion sets whose cap exceeds the incumbent, or None when there are more than
    :data:`MAX_SETS` or the budget ran out before the last was found."""
    refuted: int
    """Sets shown to admit no plan above the best."""
    bound: int
    """``best`` when every set is refuted (a proof), else ``cap``."""
    deterministic_seconds: float
    """CP-SAT's deterministic seconds over the enumeration and the subproblems."""
    wall_seconds: float

    @property
    def proven(self) -> bool:
        return self.bound == self.best


def _score_of(cap: cp_model.CpModel) -> cp_model.LinearExprT:
    """The cap model's objective as an expression (CP-SAT keeps a maximisation negated)."""
    from ortools.sat.python import cp_model
    obj = cap.proto.objective
    sign = -1 if obj.scaling_factor < 0 else 1
    terms = cp_model.LinearExpr.weighted_sum([cap.get_int_var_from_proto_index(v) for v in obj.vars],
                                             [sign * c for c in obj.coeffs])
    return terms + sign * int(obj.offset)


def _expr(xs: list[cp_model.IntVar], e: Expr) -> cp_model.LinearExprT:
    from ortools.sat.python import cp_model
    terms = list(e.terms.items())
    return cp_model.LinearExpr.weighted_sum([xs[v.index] for v, _ in terms], [k for _, k in terms]) + e.const


def completion_sets(pm: PlanModel, incumbent: int, deterministic_time: float) -> CompletionSetRun | None:
    """Refute, one by one, the completion sets whose cap exceeds ``incumbent`` (see the module's
    docstring), within ``deterministic_time`` deterministic seconds over all CP-SAT runs; None
    where the cap does not apply (Epigenetic cards, Virus) or is not proven within 60 seconds."""
    from ortools.sat.python import cp_model

    from solver.optimise.planner import cpsat_parameters, to_cpsat_model
    start = time.perf_counter()
    rows = flow_rows(pm)
    if not rows:
        return None
    master = objective_cap_model(pm, rows)
    score = _score_of(master.model)
    cap_solver = cp_model.CpSolver()
    cap_solver.parameters.num_workers = 1
    cap_solver.parameters.max_deterministic_time = 60.0
    if cap_solver.solve(master.model) != cp_model.OPTIMAL:
        return None
    cap = int(round(cap_solver.objective_value))
    spent = cap_solver.deterministic_time
    master.model.clear_objective()   # type: ignore[no-untyped-call]  # untyped in ortools 9.15's stubs
    master.model.add(score >= incumbent + 1)
    sets: list[dict[str, int]] = []     # per completable card: completed (1) or not (0)
    while len(sets) <= MAX_SETS and spent < deterministic_time:
        cap_solver.parameters.max_deterministic_time = deterministic_time - spent
        status = cap_solver.solve(master.model)
        spent += cap_solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):   # out of time before the last set
            spent = deterministic_time
            break
        chosen = {c: int(cap_solver.value(v)) for c, v in master.done.items()}
        sets.append(chosen)
        master.model.add_bool_or([master.done[c].Not() if on else master.done[c] for c, on in chosen.items()])
    if len(sets) > MAX_SETS or spent >= deterministic_time:
        return CompletionSetRun(incumbent, incumbent, cap, None, 0, cap, round(spent, 3),
                                round(time.perf_counter() - start, 3))
    model, xs = to_cpsat_model(pm.lm)
    model.clear_objective()   # type: ignore[no-untyped-call]
    objective = _expr(xs, pm.lm.objective)
    done = done_vars(pm)
    best, refuted = incumbent, 0
    while refuted < len(sets) and spent < deterministic_time:
        sub = model.clone()
        sub.add(objective >= best + 1)
        for c, on in sets[refuted].items():
            sub.add(xs[done[c].index] == on)
        solver = cpsat_parameters(1, deterministic_time=deterministic_time - spent)
        status = solver.solve(sub)
        spent += solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            refuted += 1
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):   # a better plan: the same set again above it
            best = int(round(solver.value(objective)))
        else:
            break
    proven = refuted == len(sets)
    return CompletionSetRun(incumbent, best, cap, len(sets), refuted, best if proven else cap,
                            round(spent, 3), round(time.perf_counter() - start, 3))
