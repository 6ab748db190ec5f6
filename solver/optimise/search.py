"""Exhaustive search over the engine: depth-first over plans, each canonical state visited once,
with dominance pruning; it keeps the best plan found so far (anytime, unlike the memoised value
search of :mod:`solver.game.values`, which values states). Exact optimum for small puzzles; the
baseline for other engines."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from .deadline import OutOfTime, guard
from solver.game.engine import Action, State, apply_legal, initial_state, is_terminal, legal_actions, returns
from solver.game.model import Puzzle
from solver.game.values import canonical, dominance_key, with_recursion_limit

__all__ = ["SearchStats", "canonical", "dominance_key", "exhaustive", "with_recursion_limit"]


@dataclass
class SearchStats:
    """Counters of one search."""

    nodes: int = 0
    """States expanded."""
    transpositions: int = 0
    """States skipped because already seen."""
    dominated: int = 0
    """States skipped because a seen state with the same structure has at least as much."""
    dead_ends: int = 0
    """Non-terminal states with no legal action."""
    complete: bool = True
    """False when the time or node limit stopped the search: the plan found is then not proven optimal."""


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x >= y for x, y in zip(a, b))


_OutOfTime = OutOfTime
"""The search's stop (the clock, the node budget, or :func:`solver.optimise.deadline.guard`)."""


def exhaustive(puzzle: Puzzle, prune: bool = True, time_limit: float | None = None,
               max_nodes: int | None = None) -> tuple[int | None, list[Action], SearchStats]:
    """Best final Health and one plan reaching it (None, [] if no complete plan exists).

    With ``time_limit`` (seconds) the search stops within a few milliseconds of it, and with
    ``max_nodes`` once it has expanded that many states (the same answer on every machine); it
    then returns the best plan found so far with ``stats.complete`` False."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stats = SearchStats()
    seen: set[State] = set()
    frontier: dict[State, list[tuple[int, ...]]] = {}
    best_value: int | None = None
    best_plan: list[Action] = []
    path: list[Action] = []
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10000))

    def visit(state: State) -> None:
        nonlocal best_value, best_plan
        canon = canonical(state)
        if canon in seen:
            stats.transpositions += 1
            return
        seen.add(canon)
        if is_terminal(state):
            value = returns(state)
            if best_value is None or value > best_value:
                best_value, best_plan = value, list(path)
            return
        if prune:
            key = dominance_key(canon)
            if key is not None:
                vec = state.stock.as_tuple() + (state.health,)
                bucket = frontier.setdefault(key, [])
                if any(_dominates(v, vec) for v in bucket):
                    stats.dominated += 1
                    return
                bucket.append(vec)
        stats.nodes += 1
        if deadline is not None and time.monotonic() > deadline:   # every state: one may take long
            raise _OutOfTime
        if max_nodes is not None and stats.nodes > max_nodes:
            raise _OutOfTime
        actions = legal_actions(state)
        if not actions:
            stats.dead_ends += 1
            return
        for action in actions:
            path.append(action)
            visit(apply_legal(state, action))
            path.pop()

    try:
        with guard(deadline):    # a huge puzzle's single state may take longer than the limit
            visit(initial_state(puzzle))
    except _OutOfTime:
        stats.complete = False
    finally:
        sys.setrecursionlimit(old_limit)
    return best_value, best_plan, stats
