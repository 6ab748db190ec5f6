"""Memoised depth-first search for the best final Health of a puzzle (no pruning, no bounds)."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from .rules import Puzzle, Readings, State, _end_turn, end_points, initial_state, moves


@dataclass(frozen=True)
class Result:
    """The oracle's answer for one puzzle."""

    health: int | None
    """Best final Health, None when no legal sequence finishes the game."""
    plan: tuple[dict, ...]
    """One optimal sequence of actions (engine ``Action.to_dict`` shape)."""
    states: int
    """Positions visited."""


class TooLarge(Exception):
    """The search visited more positions than its budget."""


def best(p: Puzzle, readings: Readings = Readings(), max_states: int | None = None) -> Result:
    """Exhaustive search over every legal move of :func:`tests.oracle.rules.moves`;
    :class:`TooLarge` once more than ``max_states`` positions are visited (None: no budget)."""
    memo: dict[State, tuple[int | None, dict | None, State | None]] = {}

    def value(s: State) -> int | None:
        hit = memo.get(s)
        if hit is not None:
            return hit[0]
        if max_states is not None and len(memo) >= max_states:
            raise TooLarge(max_states)
        best_v, best_a, best_n = None, None, None
        for action, nxt, gain in moves(p, s, readings):
            if nxt is None:                      # the game is over after this move
                v = gain + end_points(p, s, readings)
            else:
                rest = value(nxt)
                if rest is None:
                    continue
                v = gain + rest
            if best_v is None or v > best_v:
                best_v, best_a, best_n = v, action, nxt
        memo[s] = (best_v, best_a, best_n)
        return best_v

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        s0 = initial_state(p, readings)
        v = value(s0)
    finally:
        sys.setrecursionlimit(limit)
    plan = []
    s = s0 if v is not None else None
    while s is not None:
        _, action, nxt = memo[s]
        if action is not None:
            plan.append(action)
        s = nxt
    return Result(None if v is None else p.health + v, tuple(plan), len(memo))


def replay(p: Puzzle, plan, readings: Readings = Readings()) -> int | None:
    """Final Health of ``plan`` (action dicts; turns end implicitly), None if a step is illegal."""
    s, health = initial_state(p, readings), p.health
    for action in plan:
        while True:
            options = {repr(sorted(a.items())) if a else None: (n, g) for a, n, g in moves(p, s, readings)}
            key = repr(sorted(action.items()))
            if key in options and options[key][0] is not None:
                s, gain = options[key]
                health += gain
                break
            if s.step == 2 and options.get(None, (None,))[0] is not None:
                s = options[None][0]
                continue
            return None
    while s.step == 2:                          # finish the last turns: the game must end
        nxt = _end_turn(p, s, readings)
        if nxt is None:
            return health + end_points(p, s, readings)
        s = nxt
    return None
