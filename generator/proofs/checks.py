"""What the build checks of every record it reads, in seconds rather than minutes: the worked
example's plan replayed in the rules engine to its recorded score, and the regret values spot-checked
against the engine along that plan. A record that fails is named with the command that refreshes it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.game.engine import Action, State
    from solver.game.model import Puzzle

CONTINUATIONS_CHECKED = 4
"""Off-line continuations replayed per puzzle (spread evenly over the line; all of them when fewer)."""


class RecordCheckError(ValueError):
    """A record's answer the rules engine does not reproduce."""


def _action_named(state: State, text: str) -> Action:
    from solver.game.engine import legal_actions
    for action in legal_actions(state):
        if str(action) == text:
            return action
    raise RecordCheckError(f"move {text!r} is not legal there")


def check_values(puzzle: Puzzle, plan: list[Action], optimum: int, values: dict[str, Any]) -> int:
    """Check ``values`` (a record's ``regret.values``) against the engine along ``plan``; the count
    of facts checked. Every state of the line is worth ``optimum``; for a full table, each line
    state's value is the best of its successors' (all present); for a line, a sample of the best
    continuations one move off is replayed to the value recorded for it."""
    from ..puzzles.play_runtime import state_key
    from solver.game.engine import apply_legal, initial_state, is_terminal, legal_actions, returns
    best = values.get("best") or {}
    continuation = values.get("continuation") or {}
    states = [initial_state(puzzle)]
    for action in plan:
        states.append(apply_legal(states[-1], action))
    checked = 0
    off_line: list[tuple[int, str, State]] = []
    for index, state in enumerate(states):
        key = state_key(state)
        if best.get(key, "absent") != optimum:
            raise RecordCheckError(f"step {index} of the worked example is recorded as worth "
                                   f"{best.get(key, 'nothing')}, expected the optimum {optimum}")
        checked += 1
        if is_terminal(state):
            continue
        children = [(a, apply_legal(state, a)) for a in legal_actions(state)]
        if values.get("kind") == "table":
            worth = [best.get(state_key(child), "absent") for _, child in children]
            if "absent" in worth:
                raise RecordCheckError(f"a state one move after step {index} is missing from the table")
            reached = [w for w in worth if w is not None]
            if (max(reached) if reached else None) != optimum:
                raise RecordCheckError(f"step {index}: the best successor is worth {max(reached) if reached else None}, "
                                       f"the table says {optimum}")
            checked += len(children)
        else:
            off_line += [(index, state_key(child), child) for _, child in children
                         if state_key(child) in continuation]
    step = max(1, len(off_line) // CONTINUATIONS_CHECKED)
    for index, key, state in off_line[::step][:CONTINUATIONS_CHECKED]:
        for text in continuation[key]:
            state = apply_legal(state, _action_named(state, text))
        if not is_terminal(state) or returns(state) != best[key]:
            raise RecordCheckError(f"the best continuation one move off step {index} does not reach its "
                                   f"recorded {best[key]} (the engine plays it to "
                                   f"{returns(state) if is_terminal(state) else 'an unfinished game'})")
        checked += 1
    return checked
