"""The greedy policy: the contrast the worked examples show next to the optimum.

At every step it takes the legal action with the largest immediate Health gain; on a tie, the one
that grows the stock most (ATP and cubes counted alike); on a tie again, the first in the engine's
fixed action order. It is played with the engine API only (``legal_actions``, ``apply``), so every
plan it returns is legal; it may get stuck (a non-terminal state with no legal action).
"""
from __future__ import annotations

from solver.game.engine import Action, ActionKey, State, apply, initial_state, is_terminal, legal_actions
from solver.game.model import Puzzle


def greedy_key(state: State, action: Action) -> tuple[int, int, ActionKey]:
    """Sort key of the greedy policy (smallest first): largest immediate Health gain, then the
    largest growth of the stock (ATP and cubes alike), then the engine's action order."""
    after = apply(state, action)
    gained = sum(after.stock.as_tuple()) - sum(state.stock.as_tuple())
    return (-(after.health - state.health), -gained, action.key())


def greedy_plan(puzzle: Puzzle) -> tuple[list[Action], bool]:
    """The greedy policy's plan. Returns (plan, complete): ``complete`` is False when it reached
    a non-terminal state with no legal action."""
    state = initial_state(puzzle)
    plan: list[Action] = []
    while not is_terminal(state):
        options = legal_actions(state)
        if not options:
            return plan, False
        best = min(options, key=lambda a: greedy_key(state, a))
        plan.append(best)
        state = apply(state, best)
    return plan, True
