"""The public solve API: :func:`solve` dispatches a puzzle to an engine (the CP-SAT planner,
confirmed by HiGHS or the exhaustive search, or the exhaustive search alone), replays every plan
through the rules engine before it is believed (:class:`VerificationError` otherwise) and answers a
:class:`Solution`. The optimisers are imported when they run; the replay itself
(:func:`solver.game.replay.replay`, :class:`~solver.game.replay.Step`) is the game's."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from solver.game.engine import Action, ActionKind, Breakdown, State, is_terminal, score
from solver.game.errors import IllegalActionError, SolverError
from solver.game.model import Puzzle
from solver.game.replay import Step, final_score, replay

if TYPE_CHECKING:   # the planner is imported when CP-SAT runs (the engine also runs in the browser)
    from solver.optimise.planner import Progress


@dataclass(frozen=True)
class Solution:
    """What a solver engine answers."""

    status: str
    """``optimal`` (proven optimum), ``feasible`` (best plan found in the time limit, not proven),
    ``infeasible`` (no complete legal plan), ``unknown`` (no plan found in the time limit)."""
    health: int | None
    """Final Health Points including end-game scoring (None when infeasible)."""
    plan: tuple[Action, ...]
    """The actions, in order."""
    steps: tuple[Step, ...]
    """One per action, with the state after it."""
    breakdown: Breakdown | None
    """Score parts of the final state."""
    engine: str = "exhaustive"
    """Which engine answered."""
    stats: dict[str, Any] = field(default_factory=dict)
    """Engine counters (nodes…)."""
    bound: int | None = None
    """Best upper bound on the final Health Points (equals ``health`` when proven)."""
    proven: bool = False
    """True when ``health`` is proven optimal."""
    wall_time: float = 0.0
    """Seconds the engine ran."""
    confirmed_by: tuple[str, ...] = ()
    """Other engines that reached the same optimum (``highs``, ``exhaustive``)."""
    reason: str | None = None
    """Why there is no plan (infeasible / unknown), when it can be told."""
    rulings: tuple[tuple[str, str], ...] = ()
    """The reading of each ruling the rules were played under (``Puzzle.readings``)."""

    @property
    def gap(self) -> int | None:
        """``bound - health`` (0 when proven), None without a plan or bound."""
        if self.health is None or self.bound is None:
            return None
        return self.bound - self.health

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "health": self.health, "engine": self.engine,
                "bound": self.bound, "proven": self.proven, "gap": self.gap,
                "confirmed_by": list(self.confirmed_by), "reason": self.reason,
                "plan": [a.to_dict() for a in self.plan], "steps": [s.to_dict() for s in self.steps],
                "breakdown": self.breakdown.to_dict() if self.breakdown else None, "stats": self.stats,
                "rulings": dict(self.rulings), "wall_time": self.wall_time}

    @staticmethod
    def from_dict(puzzle: Puzzle, data: object) -> "Solution":
        """The :class:`Solution` a :meth:`to_dict` record stands for (a cached answer read back).

        The plan is parsed and replayed in the rules engine, so the steps, states and score parts
        are the engine's own, never the record's; a record whose plan is illegal, incomplete or
        scores other than its ``health`` raises :class:`VerificationError`, a malformed one
        :class:`SolverError` naming the field (a cache treats both as a miss)."""
        return _solution_from_dict(puzzle, data)


STATUSES = ("optimal", "feasible", "infeasible", "unknown")
"""Every :attr:`Solution.status` an engine answers."""


def _field(data: dict[str, Any], name: str, kinds: tuple[type, ...], expected: str) -> Any:
    """``data[name]`` when it is one of ``kinds`` (bool never counts as int), else SolverError."""
    value = data.get(name)
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return value
    raise SolverError(f"solution.{name}: expected {expected}, got {value!r}")


def _solution_from_dict(puzzle: Puzzle, data: object) -> Solution:
    if not isinstance(data, dict):
        raise SolverError(f"solution: expected an object, got {type(data).__name__}")
    status = _field(data, "status", (str,), f"one of {list(STATUSES)}")
    if status not in STATUSES:
        raise SolverError(f"solution.status: expected one of {list(STATUSES)}, got {status!r}")
    health = _field(data, "health", (int, type(None)), "an integer or null")
    bound = _field(data, "bound", (int, type(None)), "an integer or null")
    engine = _field(data, "engine", (str,), "an engine name")
    raw_plan = _field(data, "plan", (list,), "a list of actions")
    try:
        plan = tuple(Action.from_dict(a) for a in raw_plan)
    except (TypeError, ValueError, KeyError) as err:
        raise SolverError(f"solution.plan: expected actions as Action.to_dict() writes them: {err}") from None
    if (health is None) != (not plan):
        raise SolverError(f"solution: a plan needs its health and a health its plan, got health {health!r} "
                          f"and {len(plan)} action(s)")
    steps: tuple[Step, ...] = ()
    breakdown: Breakdown | None = None
    if plan:
        steps, _, breakdown = _verified(puzzle, plan, health, f"the recorded {engine}")
    confirmed = _field(data, "confirmed_by", (list,), "a list of engine names")
    rulings = _field(data, "rulings", (dict,), "an object ruling -> reading")
    wall_time = _field(data, "wall_time", (int, float), "seconds")
    return Solution(status, health, plan, steps, breakdown, engine,
                    stats=dict(_field(data, "stats", (dict,), "an object")), bound=bound,
                    proven=bool(_field(data, "proven", (bool,), "true or false")), wall_time=float(wall_time),
                    confirmed_by=tuple(str(e) for e in confirmed),
                    reason=_field(data, "reason", (str, type(None)), "a string or null"),
                    rulings=tuple((str(k), str(v)) for k, v in rulings.items()))


ENGINES = ("cpsat", "exhaustive")


def search_fault(engine: str, workers: int, deterministic_time: float | None) -> str | None:
    """Why the search cannot run beside CP-SAT with these settings (None: it can): it needs the
    cpsat engine, two workers or more (it takes a thread beside them) and the wall clock (a
    deterministic limit would make its share of the work depend on the machine)."""
    faults = [f"engine {engine!r}" if engine != "cpsat" else "",
              f"{workers} worker(s)" if workers < 2 else "",
              f"a deterministic limit of {deterministic_time:g}" if deterministic_time is not None else ""]
    said = [f for f in faults if f]
    return None if not said else "expected the cpsat engine, 2 workers or more and no deterministic limit, got " + ", ".join(said)


class VerificationError(SolverError):
    """An engine's plan does not replay to the score it claims, or two engines disagree on a
    proven optimum. Never shown as an answer (CLI exit 1)."""


def _verified(puzzle: Puzzle, plan: Iterable[Action], claimed: int | None, engine: str) -> tuple[tuple[Step, ...], State, Breakdown]:
    """Replay ``plan`` in the rules engine; raise :class:`VerificationError` unless it is legal,
    complete and scores ``claimed``."""
    try:
        steps, final = replay(puzzle, list(plan))
    except IllegalActionError as err:
        raise VerificationError(f"{engine} plan rejected by the rules engine at step {err.step}: {err.reason}") from None
    if not is_terminal(final):
        raise VerificationError(f"{engine} plan is legal but incomplete (round {final.round}, "
                                f"{final.flasks_left} flask(s) left)")
    breakdown = score(final)
    if claimed is not None and breakdown.total != claimed:
        raise VerificationError(f"{engine} claims {claimed} Health Points, the rules engine scores its plan "
                                f"{breakdown.total}")
    return steps, final, breakdown


BUILD_STEPS_PER_WORK_UNIT = 50_000
"""What one unit of ``deterministic_time`` (``--work-limit``) allows the CP-SAT model's building,
in :class:`~solver.optimise.linear.BuildBudget` steps (a variable, a constraint, or a step of
work the builder charges): the work limit bounds the whole command, a model too large for it is
not built (a 500-card puzzle under ``--work-limit 1`` once built for minutes first). Measured: the
shipped puzzles take at most 10,000 steps (0.2 units), a 24-placement puzzle of the deck suite 35,000,
the whole games 155,000 and 183,000 (``--work-limit 4``); a step takes about 0.2 ms, so a unit's share
is some seconds of building."""


def build_steps(deterministic_time: float | None) -> int | None:
    """The build budget of a work limit (None: no limit)."""
    return None if deterministic_time is None else max(1, int(deterministic_time * BUILD_STEPS_PER_WORK_UNIT))


SEARCH_NODES_PER_WORK_UNIT = 2_000
"""States the exhaustive search may expand per unit of ``deterministic_time`` when it stands in for
CP-SAT (a puzzle CP-SAT cannot model, solved under ``--work-limit``): about a second's worth on a
whole game (measured: 700 to 1,400 states a second), the same stop on every machine."""


def search_nodes(deterministic_time: float | None) -> int | None:
    """The exhaustive search's node budget of a work limit (None: no limit)."""
    return None if deterministic_time is None else max(1, int(deterministic_time * SEARCH_NODES_PER_WORK_UNIT))


def solve(puzzle: Puzzle, engine: str = "cpsat", *, time_limit: float | None = None, workers: int = 1,
          seed: int = 0, progress: Progress | None = None, confirm: tuple[str, ...] = ("highs",),
          confirm_time_limit: float | None = 60.0, deterministic_time: float | None = None,
          search: bool = False) -> Solution:
    """Solve ``puzzle`` with ``engine`` (``cpsat``, the default, or ``exhaustive``). Stable public
    API for the site generator.

    CP-SAT: ``time_limit`` (seconds, None: until proven), ``deterministic_time`` (CP-SAT's own
    work units: with one worker, the same answer on every machine however loaded), ``workers`` and
    ``seed`` (fixed: the same plan every run with one worker), ``progress(objective, bound, seconds)`` on each improving plan
    or bound. ``search``: the beam and large-neighbourhood search runs beside CP-SAT's workers (two
    or more, no ``deterministic_time``: :func:`solver.optimise.portfolio.prove_and_search`), a
    better plan on large puzzles for a slower bound; ``stats`` then name the run that found the
    plan (``plan_found_by``) and each run's best. Every plan is replayed by the rules engine first (:class:`VerificationError` if it
    disagrees); a proven optimum is confirmed by each engine of ``confirm`` (``highs``,
    ``exhaustive``) on a best-effort basis (within ``confirm_time_limit``): a disagreement is a
    :class:`VerificationError`, a confirmation is listed in ``Solution.confirmed_by``.
    """
    if engine not in ENGINES:
        raise SolverError(f"engine: expected one of {list(ENGINES)}, got {engine!r}")
    fault = search_fault(engine, workers, deterministic_time) if search else None
    if fault:
        raise SolverError(f"search: {fault}")
    sol = _solve(puzzle, engine, time_limit=time_limit, workers=workers, seed=seed, progress=progress,
                 confirm=confirm, confirm_time_limit=confirm_time_limit, deterministic_time=deterministic_time,
                 search=search)
    return replace(sol, rulings=tuple(puzzle.readings().items()))


def _solve(puzzle: Puzzle, engine: str, *, time_limit: float | None, workers: int, seed: int,
           progress: Progress | None, confirm: tuple[str, ...], confirm_time_limit: float | None,
           deterministic_time: float | None = None, search: bool = False) -> Solution:
    import time as _time
    t0 = _time.perf_counter()

    def remaining() -> float | None:
        """Seconds left of ``time_limit`` (None: no limit)."""
        return None if time_limit is None else max(0.0, time_limit - (_time.perf_counter() - t0))

    if engine == "exhaustive":
        return _solve_exhaustive(puzzle, time_limit)
    from solver.optimise.caps import completions_cap_helps
    from solver.optimise.planner import UnsupportedPuzzle, build_model, explain_infeasible, solve_cpsat, solve_highs, subsolvers_for
    from solver.optimise.deadline import OutOfTime, guard
    from solver.encoding.linear import BuildBudgetSpent, build_budget
    try:
        with guard(None if time_limit is None else _time.monotonic() + time_limit), \
                build_budget(build_steps(deterministic_time)):   # the build counts too, under either limit
            pm = build_model(puzzle)
    except OutOfTime:
        seconds = _time.perf_counter() - t0
        return Solution("unknown", None, (), (), None, "cpsat", {"build_seconds": round(seconds, 3)}, wall_time=seconds,
                        reason=f"the time limit ran out while building the CP-SAT model ({seconds:.1f} s): "
                               "no plan found (the puzzle is too large for this limit)")
    except BuildBudgetSpent as spent:
        seconds = _time.perf_counter() - t0
        return Solution("unknown", None, (), (), None, "cpsat", {"build_seconds": round(seconds, 3),
                                                                 "build_steps": spent.budget.spent}, wall_time=seconds,
                        reason=f"the work limit ran out while building the CP-SAT model: its share of the build, "
                               f"{BUILD_STEPS_PER_WORK_UNIT:,} steps a unit, is {spent.budget.limit:,} steps, spent in "
                               f"{seconds:.1f} s; the puzzle is too large for this limit")
    except UnsupportedPuzzle as err:       # a rule combination the model does not encode: the baseline
        sol = _solve_exhaustive(puzzle, remaining(), search_nodes(deterministic_time))
        return Solution(sol.status, sol.health, sol.plan, sol.steps, sol.breakdown, sol.engine,
                        dict(sol.stats, cpsat_unsupported=str(err)), bound=sol.bound, proven=sol.proven,
                        wall_time=sol.wall_time, reason=sol.reason)
    build_seconds = _time.perf_counter() - t0
    from solver.optimise.portfolio import prove_and_search
    beside: dict[str, Any] = {}
    if search:
        both = prove_and_search(puzzle, pm, workers=workers, seed=seed, time_limit=remaining(), progress=progress,
                                subsolvers=subsolvers_for(puzzle))
        res = both.proof
        beside = {"plan_found_by": both.found_by, "search_health": both.search_value,
                  "search_seconds": round(both.search_seconds, 3), "cpsat_health": res.objective if res.plan else None}
        if both.value is not None:
            res = replace(res, plan=both.plan, objective=both.value, bound=both.bound,
                          status="optimal" if both.proven else "feasible")
    else:
        capped = completions_cap_helps(puzzle, workers)
        res = solve_cpsat(pm, workers=workers, seed=seed, time_limit=remaining(), progress=progress,
                          subsolvers=subsolvers_for(puzzle), deterministic_time=deterministic_time,
                          completions_cap=capped)
        beside = {"completions_cap": capped}
    stats = dict(res.stats, build_seconds=round(build_seconds, 3), **beside)
    if res.status == "infeasible":
        left = remaining()
        why = (explain_infeasible(puzzle) if left is None else
               explain_infeasible(puzzle, time_limit=left / puzzle.rounds) if left > 0.05 else None)
        return Solution("infeasible", None, (), (), None, "cpsat", stats, proven=True, wall_time=res.wall_time,
                        reason=why)
    if res.status == "unknown":
        return Solution("unknown", None, (), (), None, "cpsat", stats, wall_time=res.wall_time,
                        reason="no plan found within the time limit")
    res.plan = without_idle_trades(puzzle, res.plan)
    steps, final, breakdown = _verified(puzzle, res.plan, res.objective, "cpsat")
    proven = res.status == "optimal"
    confirmed = []
    if proven:
        for other in confirm:
            left = remaining()
            if left is not None and left < 0.05:
                break  # the time limit holds for the confirmations too
            limit = confirm_time_limit if left is None else min(left, confirm_time_limit or left)
            if other == "highs":
                h = solve_highs(pm, time_limit=limit)
                stats["highs_seconds"] = round(h.wall_time, 3)
                if h.status == "optimal":
                    if h.objective != res.objective:
                        raise VerificationError(f"CP-SAT proves {res.objective} but HiGHS proves {h.objective} "
                                                f"on the same model")
                    _verified(puzzle, h.plan, h.objective, "highs")
                    confirmed.append("highs")
                elif h.status == "infeasible":
                    raise VerificationError("CP-SAT found a plan but HiGHS says the model is infeasible")
            elif other == "exhaustive":
                from solver.optimise.search import exhaustive
                value, _, search_stats = exhaustive(puzzle, time_limit=limit)
                if not search_stats.complete:
                    continue
                if value != res.objective:
                    raise VerificationError(f"CP-SAT proves {res.objective} but exhaustive search finds {value}")
                confirmed.append("exhaustive")
            else:
                raise SolverError(f"confirm: expected engines among ['highs', 'exhaustive'], got {other!r}")
    return Solution("optimal" if proven else "feasible", breakdown.total, tuple(res.plan), steps, breakdown,
                    "cpsat", stats, bound=res.bound if not proven else breakdown.total, proven=proven,
                    wall_time=res.wall_time, confirmed_by=tuple(confirmed))


def without_idle_trades(puzzle: Puzzle, plan: Iterable[Action]) -> list[Action]:
    """``plan`` without the Epigenetic trades (``epigenetic.atp-exchange``) its score does not need:
    an optimal plan may buy cubes that change nothing, and a worked example should not show them.
    Trades are dropped one at a time, last first, while the plan stays legal with the same score."""
    plan = list(plan)
    if not any(a.kind is ActionKind.TRADE for a in plan):
        return plan
    target = final_score(puzzle, plan)
    for i in range(len(plan) - 1, -1, -1):
        if plan[i].kind is ActionKind.TRADE:
            trial = plan[:i] + plan[i + 1:]
            if final_score(puzzle, trial) == target:
                plan = trial
    return plan


def _solve_exhaustive(puzzle: Puzzle, time_limit: float | None = None, max_nodes: int | None = None) -> Solution:
    import time as _time
    from solver.optimise.search import exhaustive
    t0 = _time.perf_counter()
    value, plan, stats = exhaustive(puzzle, time_limit=time_limit, max_nodes=max_nodes)
    if plan:
        plan = without_idle_trades(puzzle, plan)
    wall = _time.perf_counter() - t0
    info = {"nodes": stats.nodes, "transpositions": stats.transpositions, "dominated": stats.dominated,
            "dead_ends": stats.dead_ends, "complete": stats.complete}
    if not stats.complete:  # stopped by the time limit: the best plan so far, not proven
        if value is None:
            return Solution("unknown", None, (), (), None, "exhaustive", info, wall_time=wall,
                            reason="no plan found within the time limit")
        steps, final, breakdown = _verified(puzzle, plan, value, "exhaustive")
        return Solution("feasible", value, tuple(plan), steps, breakdown, "exhaustive", info, wall_time=wall)
    if value is None:
        left = None if time_limit is None else time_limit - wall
        return Solution("infeasible", None, (), (), None, "exhaustive", info, proven=True, wall_time=wall,
                        reason=_explain(puzzle, left) if left is None or left > 0.05 else None)
    steps, final, breakdown = _verified(puzzle, plan, value, "exhaustive")
    return Solution("optimal", value, tuple(plan), steps, breakdown, "exhaustive", info, bound=value, proven=True,
                    wall_time=wall)


def _explain(puzzle: Puzzle, time_limit: float | None = None) -> str | None:
    from solver.optimise.planner import UnsupportedPuzzle, explain_infeasible
    try:
        return explain_infeasible(puzzle) if time_limit is None else explain_infeasible(
            puzzle, time_limit=time_limit / puzzle.rounds)
    except UnsupportedPuzzle:  # the explanation uses the CP-SAT model, which cannot hold this puzzle
        return None
