"""The best plan from a position reached in play (issue #70): a puzzle and the moves played so far.

A position is the puzzle's start and a legal sequence of moves (what play mode records, what
``python -m solver solve --after MOVES`` reads). The planner's own model of the whole puzzle
answers it with those moves held in its slots (:func:`position_bounds`): the best plan starting
with the moves is the best continuation of the position, its value the best final Health still
reachable. No second model of a mid-game state is needed, so nothing the planner encodes (disks,
the card row, goal markers, boosts...) has to be read back out of a state; the same model, built
once a puzzle, serves every position of it (the browser keeps it and changes only column bounds).

A position need not end on a slot boundary: cards played, cubes traded or income taken after
the turn's flask belong to the next slot (or, after a round's last flask, to the turn the engine
keeps open), and are held there too; a trade only from below (more may follow in the same turn).
A move the model has no variable for (a look at the deck, a Virus response) makes the position
one the model cannot hold: :class:`PositionUnsupported`, and callers fall back to the engine's
own value search (:func:`search_value`), saying so.

Every answer is replayed: the continuation read from a solution must be legal from the
position's state and score the solution's objective (:func:`continuation_of`), or the answer
is not believed.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from solver.game.engine import Action, ActionKind, State, apply, apply_legal, initial_state, is_terminal, returns
from solver.game.errors import IllegalActionError, SolverError
from solver.game.model import Puzzle
from solver.game.values import OverBudget, ValueSearch

if TYPE_CHECKING:
    from solver.encoding.linear import Var
    from .planner import PlanModel


class PositionUnsupported(SolverError):
    """The planner's model cannot hold these moves (or this puzzle): :func:`search_value` answers."""


@dataclass(frozen=True)
class Position:
    """A puzzle, the legal moves played from its start, and the state they reach."""

    puzzle: Puzzle
    moves: tuple[Action, ...]
    state: State

    @staticmethod
    def after(puzzle: Puzzle, moves: Iterable[Action]) -> "Position":
        """The position ``moves`` reach from the start; :class:`SolverError` naming the first
        illegal move (1-based) and why."""
        state = initial_state(puzzle)
        played = tuple(moves)
        for n, action in enumerate(played, 1):
            if is_terminal(state):
                raise SolverError(f"move {n} ({action}): the game is already over")
            try:
                state = apply(state, action)
            except IllegalActionError as err:
                raise SolverError(f"move {n} ({action}) is illegal: {err.reason}") from None
        return Position(puzzle, played, state)


def position_bounds(pm: PlanModel, moves: Sequence[Action]) -> dict[Var, tuple[int, int]]:
    """(lower, upper) bounds holding ``moves`` (a legal start of a plan) in ``pm``'s slots: the
    moves up to the last flask as :func:`solver.optimise.planner.prefix_values` fixes them, then
    the plays, trades and income after it on the slot they belong to; after an ``end-turn``
    closing a round's open turn, no other card is played in that turn. Raises
    :class:`PositionUnsupported` when the model has no variable for a move. ``pm`` must be built
    with :func:`solver.optimise.regret.planner_options` (no symmetry breaking, no ordering: the
    moves may be in any legal order)."""
    from .planner import hint_values, prefix_values
    moves = list(moves)
    if not moves:
        return {}
    last_flask = max((i for i, a in enumerate(moves) if a.kind.is_flask), default=-1)
    head, tail = moves[:last_flask + 1], moves[last_flask + 1:]
    try:
        bounds = {v: (x, x) for v, x in prefix_values(pm, head).items()} if head else {}
        if not tail:
            return bounds
        full = hint_values(pm, moves, consumed=set())
    except SolverError as err:
        raise PositionUnsupported(str(err)) from None
    trades = set(pm.trade.values())
    for var, value in full.items():
        if var in bounds or value == 0:
            continue
        bounds[var] = (value, var.ub) if var in trades else (value, value)
    if any(a.kind is ActionKind.END_TURN for a in tail):
        finished = sum(1 for a in head if a.kind.is_flask and not a.grey) // pm.puzzle.flasks
        for (round_, _card), var in pm.play_after.items():
            if round_ == finished and var not in bounds:
                bounds[var] = (0, 0)
    return bounds


def continuation_of(position: Position, plan: Sequence[Action], objective: int) -> tuple[Action, ...] | None:
    """The moves of ``plan`` (a whole plan from the start, as the model's solution decodes it)
    after the position's own, checked by the rules engine: legal from the position's state, to
    the end of the game, scoring ``objective``; None when they do not (the answer is then not
    believed). The position's moves are taken out of ``plan`` one by one (the solution may list
    a slot's plays and trades in another order than they were played)."""
    rest = list(plan)
    for action in position.moves:
        if action not in rest:
            return None
        rest.remove(action)
    state = position.state
    for action in rest:
        if is_terminal(state):
            return None
        try:
            state = apply(state, action)
        except IllegalActionError:
            return None
    if not is_terminal(state) or returns(state) != objective:
        return None
    return tuple(rest)


@dataclass(frozen=True)
class PositionAnswer:
    """The best final Health reachable from a position, and how far it is known."""

    status: str
    """``optimal`` (proven), ``feasible`` (a plan, not proven best), ``infeasible`` (proven: no
    legal sequence finishes the game from here), ``unknown`` (no plan within the budget)."""
    health: int | None
    """The continuation's final Health (None without one)."""
    bound: int | None
    """No plan from here scores more (None: not known)."""
    continuation: tuple[Action, ...]
    engine: str
    """``cpsat``, ``highs`` or ``search`` (the engine's own value search)."""
    seconds: float
    reason: str = ""
    """Why the planner's model did not answer (the search did instead), or why no plan."""

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "infeasible")


SEARCH_STATES = 200_000
"""States the fallback value search may value before it answers "not proven"."""


def search_value(position: Position, seconds: float | None, reason: str = "",
                 max_states: int = SEARCH_STATES) -> PositionAnswer:
    """The engine's own memoised value search from the position's state within ``max_states``
    valued states and ``seconds`` of CPU time: exact when it finishes, else no answer (the search
    keeps no plan found on the way)."""
    t0 = time.perf_counter()
    deadline = None if seconds is None else time.process_time() + seconds
    search = ValueSearch(max_states, deadline=deadline, prune_dominated=True)
    try:
        best = search.value(position.state)
        line = search.continuation(position.state) if best is not None else ()
    except OverBudget:
        return PositionAnswer("unknown", None, None, (), "search", time.perf_counter() - t0, reason)
    took = time.perf_counter() - t0
    if best is None:
        return PositionAnswer("infeasible", None, None, (), "search", took, reason)
    return PositionAnswer("optimal", best, best, tuple(line), "search", took, reason)


def terminal_answer(position: Position) -> PositionAnswer:
    """A finished game: its score, nothing to play."""
    value = returns(position.state)
    return PositionAnswer("optimal", value, value, (), "engine", 0.0)


def with_bounds(pm: PlanModel, bounds: dict[Var, tuple[int, int]]) -> PlanModel:
    """``pm`` with ``bounds`` as rows of a copy of its linear model (``pm`` itself unchanged, so
    one model serves many positions): what CP-SAT and the OR-Tools MIP solve."""
    from solver.encoding.linear import Expr
    lm = pm.lm
    held = replace(lm, constraints=list(lm.constraints), hints={})
    held.section("position")
    for var, (lo, hi) in bounds.items():
        held.add(Expr.of(var), lo, hi)
    return replace(pm, lm=held)


def solve_position(puzzle: Puzzle, moves: Iterable[Action], *, time_limit: float | None = None,
                   model: PlanModel | None = None) -> tuple[Position, PositionAnswer]:
    """The best continuation of the position ``moves`` reach, by CP-SAT on the planner's model
    with the moves held (:func:`position_bounds`), one worker; the engine's value search where
    the model cannot hold the position (:class:`PositionUnsupported`, or the puzzle's
    :func:`solver.optimise.planner.unsupported_reason`). ``model``: the puzzle's model built with
    :func:`solver.optimise.regret.planner_options` (reused across calls). Raises
    :class:`SolverError` for an illegal move."""
    from .planner import UnsupportedPuzzle, build_model, solve_cpsat
    from .regret import planner_options
    position = Position.after(puzzle, moves)
    if is_terminal(position.state):
        return position, terminal_answer(position)
    t0 = time.perf_counter()
    try:
        pm = model if model is not None else build_model(puzzle, planner_options())
        bounds = position_bounds(pm, position.moves)
    except (UnsupportedPuzzle, PositionUnsupported) as err:
        return position, search_value(position, time_limit, str(err))
    left = None if time_limit is None else max(0.05, time_limit - (time.perf_counter() - t0))
    result = solve_cpsat(with_bounds(pm, bounds), time_limit=left)
    took = time.perf_counter() - t0
    if result.status == "infeasible":
        return position, PositionAnswer("infeasible", None, None, (), "cpsat", took)
    if result.status == "unknown" or result.objective is None:
        return position, PositionAnswer("unknown", None, result.bound, (), "cpsat", took,
                                        "no plan found within the time limit")
    line = continuation_of(position, result.plan, result.objective)
    if line is None:
        raise SolverError(f"cpsat: the plan from this position does not replay to its {result.objective} "
                          f"Health Points in the rules engine")
    proven = result.status == "optimal"
    return position, PositionAnswer("optimal" if proven else "feasible", result.objective,
                                    result.objective if proven else result.bound, line, "cpsat", took)


def apply_all(state: State, moves: Iterable[Action]) -> State:
    """``state`` after ``moves`` (known legal)."""
    for action in moves:
        state = apply_legal(state, action)
    return state
