"""The play session run in the reader's browser by Pyodide (issue #19, step 2), and at build time
by CPython for the step-through frames. It imports only :mod:`solver.game` (the engine and its
value search: standard library only) and :mod:`.move_words`, so the browser loads no optimiser, no
ortools, no yaml: the page hands it the puzzle already built, pickled at build time. Every legal action and
every state come from the engine itself: the browser applies exactly the engine's rules."""
from __future__ import annotations

import base64
import json
import pickle
from typing import TYPE_CHECKING, Any

from solver.game import engine
from solver.game.values import Values, best_values, state_key, table_values  # noqa: F401 -- the page's names for them

from generator.puzzles.move_words import Words, blocked_codes, move_group, move_text   # absolute: the browser runs this module as cellula_play

if TYPE_CHECKING:
    from solver.game.model import Puzzle


Regret = tuple[str | None, int | None, list[str]]
"""(status, best, continuation) of one state (see :meth:`Session.regret_of`)."""


def frame_of(state: engine.State) -> dict[str, Any]:
    """What the board drawing shows of one state (docs/assets/board.js reads these keys)."""
    return {
        "round": state.round,
        "flasks_left": state.flasks_left,
        "stock": state.stock.as_dict(),
        "health": state.health,
        "placed": list(state.placed),
        "grey_spots": list(state.grey_spots),
        "disks": [{"area": d.area.value, "card": d.card, "load": d.load.as_dict(nonzero=True)} for d in state.disks],
        "opp_disks": [{"id": d.id, "area": d.area.value} for d in state.opp_disks],
        "row": list(state.row),
        "taken": list(state.taken),
        "hand": list(state.hand),
        "completed": list(state.completed),
        "done": state.done,
    }


def pack(puzzle: Puzzle) -> str:
    """The puzzle as the page carries it (base64 pickle, made by the build from the project's own data)."""
    return base64.b64encode(pickle.dumps(puzzle, protocol=4)).decode("ascii")


class Session:
    """One reader's game: the states so far (undo pops one) and the engine's legal actions."""

    def __init__(self, packed: str, values: str = "", words: str = "") -> None:
        self.puzzle: Puzzle = pickle.loads(base64.b64decode(packed))
        self.words: Words | None = Words.from_dict(json.loads(words)) if words else None
        """The reader's words for the moves (:mod:`generator.puzzles.move_words`; the page's language), or
        None: the engine's own labels (tests, the command line)."""
        self.values: Values | None = json.loads(values) if values else None
        """Best reachable Health by state key (build time), or None: not computed. Two kinds
        (``kind``): ``table``, every reachable state; ``line``, the optimal line's states and the
        states one move off it, each of those with one best continuation."""
        self.history = [engine.initial_state(self.puzzle)]
        self.moves: list[str] = []
        self.texts: list[str] = []
        """Each move of ``moves`` in the reader's words."""
        self.plan: list[engine.Action] = []
        self.regrets: list[Regret] = [self.regret_of(self.history[0], None, None)]
        """(status, best, continuation) of each state of ``history``."""

    def actions(self) -> list[engine.Action]:
        state = self.history[-1]
        return [] if engine.is_terminal(state) else engine.legal_actions(state)

    def say(self, state: engine.State, action: engine.Action, after: engine.State | None = None) -> str:
        """``action`` in the reader's words (the engine's label without words)."""
        return str(action) if self.words is None else move_text(state, action, self.words, after)

    def said_line(self, state: engine.State, line: list[str]) -> list[str]:
        """A continuation (engine labels, as the values store them) in the reader's words, each
        move told from the state it is played in."""
        if self.words is None:
            return list(line)
        out = []
        for label in line:
            action = next((a for a in self.actions_of(state) if str(a) == label), None)
            if action is None:     # values built by another engine version: tell what is known
                out.append(label)
                break
            after = engine.apply(state, action)
            out.append(self.say(state, action, after))
            state = after
        return out

    @staticmethod
    def actions_of(state: engine.State) -> list[engine.Action]:
        return [] if engine.is_terminal(state) else engine.legal_actions(state)

    def view(self) -> str:
        """JSON: the board frame, the legal actions (label in the reader's words, engine label,
        spot, group), the moves so far, the final score once the game is over, and the regret
        figures (``regret``: known, dead_end, not_computed, too_far; None without values)."""
        state = self.history[-1]
        terminal = engine.is_terminal(state)
        status, best, continuation = self.regrets[-1]
        return json.dumps({
            "frame": {**frame_of(state), "step": len(self.moves), "text": self.texts[-1] if self.texts else "",
                      "spot": None},
            "actions": [{"label": self.say(state, a), "key": str(a), "spot": a.spot, "group": move_group(state, a)}
                        for a in self.actions()],
            "moves": self.texts,
            "terminal": terminal,
            "score": engine.score(state).total if terminal else None,
            "plan": [a.to_dict() for a in self.plan],
            "best": best,
            "continuation": self.said_line(state, continuation),
            "regret": status,
            "blocked": blocked_codes(state) if self.words is not None else "",
        })

    def best(self, state: engine.State) -> int | None:
        """The best final Health still reachable from ``state``, or None when not known."""
        if self.values is None:
            return None
        return self.values["best"].get(state_key(state))

    def regret_of(self, state: engine.State, previous: Regret | None, move: str | None) -> Regret:
        """(status, best, continuation) of ``state``, reached from ``previous`` (its figures) by
        ``move``. Line values: a stored state has its value; a state reached by following the
        shown continuation keeps the value it promised; any other state is either one move off
        the line without a proven value (``not_computed``) or further off (``too_far``)."""
        if self.values is None:
            return None, None, []
        key = state_key(state)
        table = self.values["best"]
        if key in table:
            best = table[key]
            if best is None:
                return "dead_end", None, []
            if self.values.get("kind") == "line":
                return "known", best, self.line_continuation(key)
            return "known", best, self.continuation(state)
        if previous is not None and previous[0] == "known" and previous[2] and previous[2][0] == move:
            return "known", previous[1], previous[2][1:]
        if self.values.get("kind") == "line" and state_key(self.history[-1]) in self.values["line"]:
            return "not_computed", None, []
        return "too_far", None, []

    def line_continuation(self, key: str) -> list[str]:
        """The stored best continuation of a state of the line kind: the rest of the line for a
        line state, the state's own one for a state one move off."""
        assert self.values is not None, "only regret_of calls this, once it has values"
        index = self.values["line"].get(key)
        if index is not None:
            return self.values["moves"][index:]
        return self.values["continuation"].get(key, [])

    def continuation(self, state: engine.State) -> list[str]:
        """One best line of play from ``state`` (the successor with the highest value each time)."""
        line: list[str] = []
        if self.best(state) is None:
            return line
        while not engine.is_terminal(state):
            target = self.best(state)
            for action in engine.legal_actions(state):
                after = engine.apply(state, action)
                if self.best(after) == target:
                    line.append(str(action))
                    state = after
                    break
            else:
                break
        return line

    def play(self, index: int) -> str:
        action = self.actions()[index]
        after = engine.apply(self.history[-1], action)
        self.regrets.append(self.regret_of(after, self.regrets[-1], str(action)))
        self.texts.append(self.say(self.history[-1], action, after))
        self.history.append(after)
        self.moves.append(str(action))
        self.plan.append(action)
        return self.view()

    def undo(self) -> str:
        if len(self.history) > 1:
            self.history.pop()
            self.regrets.pop()
            self.moves.pop()
            self.texts.pop()
            self.plan.pop()
        return self.view()
