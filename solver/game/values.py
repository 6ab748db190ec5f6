"""The one memoised value search over the rules engine: the best final Health reachable from a
state, each state valued once. Stdlib only, like the engine (the browser loads it too).

Its users differ only in options:

- the plan counts and "only move" marks (:mod:`solver.optimise.explain`) also count the optimal plans, up
  to symmetry, so they value every state (no ceiling, no dominance);
- the regret values one move off a line (:mod:`solver.optimise.regret`) know the proven optimum (a
  ``ceiling``: a state's search stops at the first move reaching it) and skip a state another
  valued state dominates (``prune_dominated``);
- the play table of a small puzzle (:func:`best_values`, keyed by :func:`state_key`) values every
  reachable state as it is (``canonical_states=False``: the page looks states up one by one).

Every search stops with :class:`OverBudget` past ``max_states`` valued states or past its
``deadline`` (CPU seconds, :func:`time.process_time`): a deterministic budget first, the clock as
a safety net. The recursion limit is raised for the outermost call only.
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeVar

from .editions import rules_for
from .engine import Action, State, _r as replace, apply_legal, initial_state, is_terminal, legal_actions, returns
from .model import ZERO, EventKind, event_kind

if TYPE_CHECKING:
    from .model import Puzzle

T = TypeVar("T")

RECURSION_LIMIT = 20_000
"""Python's recursion limit while a depth-first search over plans runs (one frame per placement
and effect; the default 1,000 is too low for a whole game)."""


def with_recursion_limit(fn: Callable[[], T]) -> T:
    """``fn()`` with the recursion limit raised to :data:`RECURSION_LIMIT`, restored afterwards."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, RECURSION_LIMIT))
    try:
        return fn()
    finally:
        sys.setrecursionlimit(old)


def canonical(state: State) -> State:
    """``state`` with the spots holding flasks replaced by their signature (kind, area,
    value, slot): identical spots (``rough-er-1``/``rough-er-2``) are interchangeable."""
    board = state.puzzle.board
    sig = []
    for sid in state.placed:
        s = board.spot(sid)
        sig.append(f"{s.kind.value}/{s.area.value}/{s.value}/{s.slot}")
    return replace(state, placed=tuple(sorted(sig)))


def _toxicity_ahead(state: State) -> bool:
    return any(e is not None and event_kind(e) is EventKind.TOXICITY for e in state.puzzle.events[state.round:])


def dominance_key(state: State) -> State | None:
    """The state without its stock (and health, when health cannot hurt), or None when
    dominance is unsound for this state.

    Sound because more of any resource never forbids an action nor lowers a score, with two
    exceptions handled here: Toxicity (1e) takes more from bigger stocks, so no stock
    dominance while one is still to come; and in 2e the disk leaving a full area belongs to
    the player highest on the Health Track, so health stays in the key in 2e.
    """
    if _toxicity_ahead(state):
        return None
    keep_health = not rules_for(state.puzzle.edition).removal_is_chosen()
    return replace(state, stock=ZERO, health=state.health if keep_health else 0)


class OverBudget(Exception):
    """The search reached its state or time budget."""


class ValueSearch:
    """Best final Health from states (None: no complete sequence), memoised.

    ``count_cap``: also count the optimal continuations of each state up to symmetry (successors
    reaching the same canonical state are one choice), at most ``count_cap``; counting needs every
    state's exact value, so it excludes ``ceiling`` and ``prune_dominated``.
    ``ceiling``: a value no reachable state exceeds (the proven optimum): a state's search stops at
    the first move reaching it, exact all the same.
    ``prune_dominated``: a move whose state another valued state with the same structure and at
    least the same stock and Health (:func:`dominance_key`) shows worth no more than the best so
    far is not searched (it cannot raise its parent's value).
    ``canonical_states``: key the memo by :func:`canonical` (identical spots as one), else by the
    state itself."""

    def __init__(self, max_states: int, *, deadline: float | None = None, ceiling: int | None = None,
                 prune_dominated: bool = False, count_cap: int | None = None,
                 canonical_states: bool = True) -> None:
        if count_cap is not None and (ceiling is not None or prune_dominated):
            raise ValueError("counting optimal plans needs every state's exact value: no ceiling, no pruning")
        self.max_states = max_states
        self.deadline = deadline
        self.ceiling = ceiling
        self.prune_dominated = prune_dominated
        self.count_cap = count_cap
        self.canonical_states = canonical_states
        self.key: Callable[[State], State] = canonical if canonical_states else (lambda state: state)
        self.table: dict[State, int | None] = {}
        """Valued states (by :attr:`key`) and their best final Health."""
        self.counts: dict[State, int] = {}
        """With ``count_cap``: the optimal continuations of each valued state (capped)."""
        self.frontier: dict[State, list[tuple[tuple[int, ...], int | None]]] = {}
        """With ``prune_dominated``: valued states by dominance key, (stock and Health, value)."""
        self._depth = 0

    def value(self, state: State) -> int | None:
        """Best final Health from ``state``; raises :class:`OverBudget`."""
        if self._depth:
            return self._value(state)
        return with_recursion_limit(lambda: self._value(state))

    def count(self, state: State) -> int:
        """The optimal continuations from a valued ``state`` (with ``count_cap``)."""
        self.value(state)
        return self.counts[self.key(state)]

    def _value(self, state: State, key: State | None = None) -> int | None:
        """:meth:`value` inside the search; ``key``: ``self.key(state)`` when the caller has it."""
        if key is None:
            key = self.key(state)
        if key in self.table:
            return self.table[key]
        if len(self.table) >= self.max_states:
            raise OverBudget
        if self.deadline is not None and len(self.table) % 256 == 0 and time.process_time() > self.deadline:
            raise OverBudget
        self._depth += 1
        try:
            best, count = self._search(state)
        finally:
            self._depth -= 1
        self.table[key] = best
        if self.count_cap is not None:
            self.counts[key] = count
        if self.prune_dominated:
            self._remember(key, best)
        return best

    def _search(self, state: State) -> tuple[int | None, int]:
        if is_terminal(state):
            return returns(state), 1
        best: int | None = None
        count = 0
        seen: set[State] = set()
        for action in legal_actions(state):
            after = apply_legal(state, action)
            key = self.key(after)     # once per move: canonical() is most of a small state's cost
            if self.count_cap is not None:
                # plans are counted up to symmetry: moves reaching the same canonical state are one
                choice = key if self.canonical_states else canonical(after)
                if choice in seen:
                    continue
                seen.add(choice)
            elif best is not None and self.prune_dominated and self._cannot_beat(key, best):
                continue
            reached = self._value(after, key)
            if reached is None:
                continue
            if best is None or reached > best:
                best = reached
                count = self.counts[key] if self.count_cap is not None else 0
                if self.ceiling is not None and best >= self.ceiling:
                    break
            elif reached == best and self.count_cap is not None:
                count = min(self.count_cap, count + self.counts[key])
        return best, count

    def _cannot_beat(self, key: State, best: int) -> bool:
        """True when a valued state dominating the state of memo key ``key`` is worth no more than
        ``best`` (the key keeps the state's stock and Health: :func:`canonical` relabels spots only)."""
        if key in self.table:
            return False
        dominance = dominance_key(key)
        if dominance is None:
            return False
        vec = key.stock.as_tuple() + (key.health,)
        for other, value in self.frontier.get(dominance, ()):
            if (value is None or value <= best) and all(x >= y for x, y in zip(other, vec)):
                return True
        return False

    def _remember(self, key: State, best: int | None) -> None:
        dominance = dominance_key(key)
        if dominance is not None:
            self.frontier.setdefault(dominance, []).append((key.stock.as_tuple() + (key.health,), best))

    def continuation(self, state: State) -> tuple[Action, ...]:
        """One best sequence from ``state``: each time a move whose result is worth as much
        (already valued moves tried first: one skipped by pruning may be worth as much, but
        valuing it now would only cost search)."""
        line: list[Action] = []
        target = self.value(state)
        if target is None:
            return ()
        while not is_terminal(state):
            moves = [(action, apply_legal(state, action)) for action in legal_actions(state)]
            moves.sort(key=lambda move: self.key(move[1]) not in self.table)
            for action, after in moves:
                if self.value(after) == target:
                    line.append(action)
                    state = after
                    break
            else:       # cannot happen for an exact table; never hand back a line that falls short
                raise AssertionError("memo inconsistent: no move keeps the value")
        return tuple(line)


class Values(TypedDict):
    """The best reachable scores a puzzle's record and play data carry (``values``), as play mode's
    session reads them (generator/puzzles/play_runtime.py)."""
    kind: str
    """``table`` (every reachable state) or ``line`` (the optimal line and one move off it)."""
    best: dict[str, int | None]
    """Best final Health by state key (None: a proven dead end)."""
    line: NotRequired[dict[str, int]]
    """``line`` kind: each line state's index into ``moves``."""
    moves: NotRequired[list[str]]
    """``line`` kind: the optimal plan's labels."""
    continuation: NotRequired[dict[str, list[str]]]
    """``line`` kind: each off-line state's best continuation."""


def state_key(state: State) -> str:
    """A short name of a state, the same in CPython at build time and in Pyodide (the table of
    best reachable scores is keyed by it)."""
    # to_dict() leaves out a few fields that change what may follow (a grey flask this turn, the
    # round's lead, the end trade): two states differing there must not share a value
    extra = [state.grey_this_turn, list(state.grey_spots), state.leads_round, state.end_trade.as_tuple()]
    text = json.dumps([state.to_dict(), extra], sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def best_values(puzzle: Puzzle, budget: int) -> dict[str, int | None] | None:
    """Best final Health reachable from every state reachable from the start (None for a state
    with no complete plan), keyed by :func:`state_key`; None when there are more than ``budget``
    states (then the page offers play without regret figures)."""
    search = ValueSearch(budget, canonical_states=False)   # the page looks up states as they are
    try:
        search.value(initial_state(puzzle))
    except OverBudget:
        return None
    return {state_key(s): v for s, v in search.table.items()}


def table_values(table: dict[str, int | None]) -> Values:
    """The page's values of the ``table`` kind (every reachable state)."""
    return {"kind": "table", "best": table}
