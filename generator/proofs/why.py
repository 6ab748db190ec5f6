"""Why a worked example is optimal, as facts, and the level computed from them.

Through the engine's memoised value search (:mod:`solver.optimise.explain`) under a state budget
(:data:`MAX_STATES`): the number of optimal plans, the "only move" steps of the worked example, the
branching along it, the best plan whose first departure from it already loses, and which starting
resource or the flask count limits the score (the optimum with one more of each). Past the budget
the facts say so and the page says "not counted", never a guess.

Computing only, keyed by the narrow fingerprint of its searches (:mod:`.keys`); the words are
:mod:`generator.puzzles.why`'s.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.game.model import STOCK_ORDER

if TYPE_CHECKING:
    from solver.game.model import Puzzle

MAX_STATES = 30_000
"""State budget of each value search (about 8-15 s of engine time when exhausted: the cost of
finding out that a puzzle is too large, paid once per puzzle on a cold cache)."""
PROBE_DETERMINISTIC_TIME = 40.0
"""CP-SAT's deterministic time for one probe of a puzzle past the search budget (one worker: the
same answer on every machine, however loaded; it was 10 wall seconds on 2 workers, which proved
fewer probes on a busy machine). Measured on the 54 probes that reach CP-SAT: 53 are proven within
31.3 deterministic seconds (about as many wall seconds here), 46 within 10; deck-season-1e's flask
probe is not proven at 60."""
PROBE_NODES = 75_000
"""State budget of the exhaustive search that proves a probe of a puzzle the planner cannot model
(the Virus expansion) past the search budget: deterministic, like :data:`PROBE_DETERMINISTIC_TIME`.
Measured: each resource probe of the two Virus puzzles needs 6,410-9,723 states (3-5 s), the flask
probe of virus-attack-card-1e 68,292 (29 s); that of virus-influenza-2e is not done at 97,536 (90 s)."""
PLAN_CAP = 1000
"""Optimal plans are counted up to this many ("at least" beyond)."""
STOCK_FIELDS = STOCK_ORDER
"""The starting resources probed, in order (the step tables' columns too: generator/puzzles/model.py)."""


def _probes(puzzle: Puzzle) -> Iterator[tuple[str, Puzzle]]:
    """The puzzle with one more of each starting resource, then with one more flask a round:
    (name, changed puzzle). The optimum of each says what limits the score."""
    import dataclasses
    for field in STOCK_FIELDS:
        start = dataclasses.replace(puzzle.start, **{field: getattr(puzzle.start, field) + 1})
        yield field, dataclasses.replace(puzzle, start=start)
    yield "flask", dataclasses.replace(puzzle, flasks=puzzle.flasks + 1)


def compute_why(puzzle: Puzzle, plan: list[dict[str, Any]], proven: int | None = None) -> dict[str, Any]:
    """Everything the "why it is optimal" section and the grade need (JSON-ready): one value
    search along the worked example, then one per probe (:func:`_probes`). ``proven`` is the
    solver's proven optimum (None when the solver did not prove one: then nothing is probed)."""
    from solver import replay
    from solver.game.engine import Action
    from solver.optimise.explain import OptimalPlans, line_facts, line_facts_from_values, optimal_plans
    actions = [Action.from_dict(a) for a in plan]
    if actions and proven is None:
        # a plan not proven optimal (a recorded whole game): there is no optimum to explain
        return {"budget": MAX_STATES, "optimum": None, "plans": None, "capped": False, "states": 0,
                "over_budget": False, "unproven": True, "only": None, "branching": None, "deviation": None,
                "limits": []}
    facts = line_facts(puzzle, actions, MAX_STATES, PLAN_CAP) if actions else None
    source = "search"
    if facts is not None:
        counted = facts.plans
    elif actions:   # the line's search ran out of budget: the same search without a line would too
        counted = OptimalPlans(None, None, False, MAX_STATES)
        if proven is not None:  # only moves and the best departure from the values one move off
            from .regret import line_values
            facts, source = line_facts_from_values(line_values(puzzle, actions, proven)), "line"
    else:
        counted = optimal_plans(puzzle, MAX_STATES, PLAN_CAP)
    # the optimum explained: the search's, or the solver's proven one when the search ran out
    record: dict[str, Any] = {"budget": MAX_STATES, "optimum": counted.best if counted.best is not None else proven,
                    "plans": counted.count,
                    "capped": counted.capped, "states": counted.states, "over_budget": counted.count is None,
                    "only": list(facts.only) if facts else None,
                    "branching": list(facts.branching) if facts else None, "deviation": None, "limits": [],
                    "source": source if facts else None, "unvalued": facts.unvalued if facts else 0,
                    "plans_at_least": facts.plans_at_least if facts else None}
    if facts and facts.deviation:
        steps, _ = replay(puzzle, list(facts.deviation.plan))
        record["deviation"] = {"step": facts.deviation.step, "health": facts.deviation.health,
                               "loss": facts.deviation.loss,
                               "events": [[e.to_dict() for e in s.events] for s in steps[facts.deviation.step - 1:]]}
    if counted.best is not None or (proven is not None and actions):
        # a probe is larger than its puzzle: search it only when the puzzle took a third of the
        # budget at most, else go straight to CP-SAT (a search run out of budget is time lost)
        record["limits"] = probe_limits(puzzle, searchable=counted.best is not None
                                        and counted.states * 3 <= MAX_STATES)
    return record


def probe_limits(puzzle: Puzzle, searchable: bool) -> list[dict[str, Any]]:
    """Each probe (:func:`_probes`) with its status: ``optimal`` (its proven optimum),
    ``unplayable`` (no legal plan: one more flask can need more free spots than the board has) or
    ``unproven``. Past the first probe CP-SAT cannot prove in its time, the others (as large) are
    not tried and read ``unproven`` too, which saves up to a minute a hard puzzle on a cold cache."""
    limits: list[dict[str, Any]] = []
    gave_up = False
    for name, changed in _probes(puzzle):
        optimum, status = (None, "unproven") if gave_up else probe_optimum(changed, searchable)
        gave_up = gave_up or status == "unproven"
        limits.append({"resource": name, "optimum": optimum, "status": status})
    return limits


def probe_optimum(puzzle: Puzzle, searchable: bool) -> tuple[int | None, str]:
    """A probe's proven optimum and status (see :func:`probe_limits`): by the value search when
    the original puzzle fitted its budget (a probe is a little larger: it may not), else by CP-SAT
    within :data:`PROBE_DETERMINISTIC_TIME`, or, for a puzzle the planner cannot model, by the
    exhaustive search within :data:`PROBE_NODES`. Every bound is deterministic."""
    from solver import solve
    from solver.optimise.explain import optimal_plans
    from solver.optimise.planner import unsupported_reason
    if searchable:
        counted = optimal_plans(puzzle, MAX_STATES, 1)
        if counted.count is not None:
            return counted.best, "optimal" if counted.best is not None else "unplayable"
    if unsupported_reason(puzzle) is not None:
        from solver.optimise.search import exhaustive
        best, _plan, stats = exhaustive(puzzle, max_nodes=PROBE_NODES)
        if not stats.complete:
            return None, "unproven"
        return best, "optimal" if best is not None else "unplayable"
    solution = solve(puzzle, "cpsat", deterministic_time=PROBE_DETERMINISTIC_TIME, workers=1, confirm=())
    if not solution.proven:
        return None, "unproven"
    return solution.health, "optimal" if solution.health is not None else "unplayable"


@dataclass(frozen=True)
class Difficulty:
    """The computed grade and the figures behind it."""

    grade: int
    """1 (easiest) to 5."""
    gap: int | None
    """Optimum minus the greedy score (None without an optimum)."""
    plans: int | None
    """Optimal plans (None: not counted within the budget)."""
    branching: float | None
    """Mean legal actions per step along the worked example (None: not measured)."""
    plans_at_least: int | None = None
    """Past the search's budget, a proven lower bound on the optimal plans (None: none)."""


def difficulty(optimum: int | None, greedy: int | None, why: dict[str, Any]) -> Difficulty:
    """grade = 1 + G + P + B, where G = 0 if greedy reaches the optimum, 1 if it falls 1-2 short,
    2 if 3 or more (or it finds no complete plan); P = 1 if at most 2 plans are optimal, or the
    search exceeds its budget without proving at least 3 (``plans_at_least``: past the budget the
    count is unknown, but a proven bound of 3 or more settles P as a count would); B = 1 if the
    worked example offers 4 or more legal actions a step on average, or (not measured) the search
    exceeds its budget."""
    gap = None if optimum is None else optimum - (greedy if greedy is not None else 0)
    g = 0 if not gap else 1 if gap <= 2 else 2
    plans = why.get("plans")
    branching = why.get("branching")
    mean = round(sum(branching) / len(branching), 1) if branching else None
    over = bool(why.get("over_budget"))
    at_least = why.get("plans_at_least") if over else None
    few = plans <= 2 if plans is not None else not (at_least is not None and at_least >= 3)
    p = 1 if few and (plans is not None or over) else 0
    b = 1 if (mean is not None and mean >= 4) or (over and mean is None) else 0
    return Difficulty(1 + g + p + b, gap, plans, mean, at_least)
