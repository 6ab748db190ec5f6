"""A puzzle's regret values: the best final Health still reachable after a move, which play mode
shows against the proven optimum. Every reachable state's when there are at most
:data:`FULL_TABLE_STATES`, else along the worked example and one move off it.

Computing only, keyed by the narrow fingerprint of its searches (:mod:`.keys`): every budget below
is part of it (and of the record's ``engines.budgets``), so changing one makes the regret values
stale without a version string to bump.
"""
from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING, Any

from solver.game.values import Values, best_values, state_key, table_values

if TYPE_CHECKING:
    from solver.game.engine import Action
    from solver.game.model import Puzzle
    from solver.optimise.regret import LineValues

FULL_TABLE_STATES = 10_000
"""Puzzles with at most this many reachable states carry the best reachable score of every one
(about 16 bytes a state in the page); larger ones carry it along the optimal line and one move off
it (:func:`line_values`)."""
LINE_STATES = 20_000
"""State budget of the memoised search of one larger puzzle's off-line values (solver.optimise.regret);
past it a state's value is absent and the page says so. Deterministic, unlike a time limit."""
LINE_STATES_UNPLANNED = 200_000
"""The same for a puzzle the CP-SAT planner cannot model (the Virus expansion), where the search is
the only stage: measured, virus-attack-card-1e needs 99,268 states (19 s of CPU) to value all 64 of
its states one move off, virus-influenza-2e 34,910 (5.4 s). The budget is in states only, not in
seconds: a time limit proved fewer states on a busy machine (62 of 64 in round 4), so a record
depended on the machine's load."""
LINE_PLANNER_TIME: tuple[float, ...] | None = (2.0, 8.0, 24.0)
"""CP-SAT's deterministic time for each off-line state the search leaves (solver.optimise.regret's planner
stage, one worker: the same answer on every machine), in passes: 2 s proves most of them; the
states left get 8 s (measured on the 103 states 2 s left: 6 of 8 sampled ones proven, the gaps
of 1 to 2 Health Points closed), and the 14 that 8 s left get 24 s (measured: 13 proven, in 7 to
23 s each, 164 s in all)."""


@functools.lru_cache(maxsize=None)
def plannable(puzzle: Puzzle) -> bool:
    """Whether the CP-SAT planner can model ``puzzle`` (so solver.optimise.regret's planner stage runs): the
    model builder's own up-front refusal, asked without building a model."""
    from solver.optimise.regret import planner_options
    try:
        from solver.optimise.planner import unsupported_reason
    except ImportError:     # no ortools: no planner stage either
        return False
    return unsupported_reason(puzzle, planner_options()) is None


def line_state_budget(puzzle: Puzzle) -> int:
    """:data:`LINE_STATES`, or :data:`LINE_STATES_UNPLANNED` when the planner cannot model ``puzzle``."""
    return LINE_STATES if plannable(puzzle) else LINE_STATES_UNPLANNED


_LINE_VALUES: dict[tuple[Puzzle, tuple[Action, ...], int, int, tuple[float, ...] | None], LineValues] = {}


def line_values(puzzle: Puzzle, plan: list[Action], optimum: int) -> LineValues:
    """``solver.optimise.regret.line_values`` within this module's budgets, computed once a process for a
    puzzle, plan and optimum: the regret values and the "why it is optimal" facts (:mod:`.why`, for
    a puzzle past that search's budget) read the same result."""
    from solver.optimise.regret import line_values as search_line
    budget = line_state_budget(puzzle)
    key = (puzzle, tuple(plan), optimum, budget, LINE_PLANNER_TIME)
    if key not in _LINE_VALUES:
        _LINE_VALUES[key] = search_line(puzzle, plan, optimum, max_states=budget, seconds=None,
                                        planner_time=LINE_PLANNER_TIME)
    return _LINE_VALUES[key]


def line_values_of(puzzle: Puzzle, plan: list[dict[str, Any]], optimum: int) -> tuple[Values, dict[str, Any]]:
    """The values of the ``line`` kind (:func:`line_values`) and their figures: the line's state
    keys (index into ``moves``, the plan's labels), every proven value (None: proven dead end) and
    each off-line state's best continuation; unproven states are simply absent."""
    from solver import Action
    result = line_values(puzzle, [Action.from_dict(a) for a in plan], optimum)
    line: dict[str, int] = {}
    for index, state in enumerate(result.line):
        line.setdefault(state_key(state), index)
    best: dict[str, int | None] = {key: optimum for key in line}
    continuation: dict[str, list[str]] = {}
    for value in result.off:
        key = state_key(value.state)
        if key in best:
            continue
        best[key] = value.best
        if value.continuation:
            continuation[key] = [str(a) for a in value.continuation]
    values: Values = {"kind": "line", "best": best, "line": line, "moves": [str(a) for a in result.plan],
                                   "continuation": continuation}
    stats = {"kind": "line", "line_states": len(result.line), "off_line": len(result.off) + len(result.unproven),
             "proven": len(result.off), "unproven": len(result.unproven), "searched_states": result.searched_states,
             "methods": result.methods}
    return values, stats


def compute_values(puzzle: Puzzle, plan: list[dict[str, Any]], optimum: int | None) -> tuple[Values | None, dict[str, Any], float]:
    """The puzzle's best reachable scores (None without a plan or an optimum past the table's
    size), their figures, and the seconds taken."""
    start = time.perf_counter()
    table = best_values(puzzle, FULL_TABLE_STATES)
    values: Values | None
    stats: dict[str, Any] = {}
    if table is not None:
        values, stats = table_values(table), {"kind": "table", "states": len(table)}
    elif plan and optimum is not None:
        values, stats = line_values_of(puzzle, plan, optimum)
    else:
        values = None
    return values, stats, time.perf_counter() - start
