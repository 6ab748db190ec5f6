"""Best reachable scores one move off an optimal line (issue #19, regret for large puzzles).

A puzzle page lets the reader play and shows, after each move, the best final Health still
reachable. Small puzzles carry that value for every reachable state (``solver.game.values.
best_values``); a larger one carries it only for the states of its worked example's optimal plan
(the *line*) and for every state one legal move off it. This module computes those values, exactly:

- a state on the line is worth the proven optimum (the plan reaches it from there, and nothing
  reachable from the start does better);
- a state one move off is worth at most the optimum too, so a continuation reaching the optimum
  proves it: the terminal score, a transposition back onto the line, or the line's remaining
  moves replayed in their order (each one as soon as it is legal) are tried first;
- otherwise the memoised value search (:class:`solver.game.values.ValueSearch`, with the optimum as its
  ceiling and dominance pruning; one memo for the whole line, the latest states first: they are
  the small ones) within a state budget;
- what that budget does not cover, when the move ends a turn (a placement or an exhausted flask),
  goes to the CP-SAT planner with the line's moves up to the state held fixed
  (:func:`solver.optimise.planner.prefix_values`), within a deterministic time each: a proven optimum is a
  value once its plan, replayed from the state by the rules engine, scores it; a proven
  infeasibility is a proven dead end.

A state no stage covers gets no value: it is listed as unproven, never guessed.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.game.engine import Action, State, apply_legal, initial_state, is_terminal, legal_actions, returns
from solver.game.errors import SolverError
from solver.game.model import Puzzle
from solver.game.values import OverBudget, ValueSearch

if TYPE_CHECKING:   # the planner (ortools) is imported only when its stage runs
    from .planner import Options, PlanModel


@dataclass(frozen=True)
class OffLineValue:
    """A state one legal move off the line, with its proven best reachable final Health."""

    step: int
    """The line state it leaves from: ``line[step]`` (before the plan's action ``step``, 0-based)."""
    action: Action
    """The move played there instead of the plan's."""
    state: State
    """The state that move leads to."""
    best: int | None
    """Best final Health reachable from ``state``; None: proven that no sequence completes the game."""
    continuation: tuple[Action, ...]
    """One sequence of legal moves from ``state`` reaching ``best`` (empty when ``best`` is None)."""
    method: str
    """How it was proven: ``terminal``, ``line`` (a transposition onto the line), ``resume`` (the
    line's remaining moves reach the optimum), ``search`` (memoised exhaustive search) or
    ``cpsat`` (the planner with the moves up to the state fixed)."""


@dataclass(frozen=True)
class Unproven:
    """A state one move off the line whose value the budget did not cover (the page says so)."""

    step: int
    action: Action
    state: State


@dataclass(frozen=True)
class LineValues:
    """What :func:`line_values` computes for one puzzle and plan."""

    optimum: int
    """The proven optimum (every line state's value)."""
    line: tuple[State, ...]
    """The start, then the state after each action of the plan."""
    plan: tuple[Action, ...]
    """The optimal plan the line follows."""
    off: tuple[OffLineValue, ...]
    """Every state one move off the line that got a proven value."""
    unproven: tuple[Unproven, ...]
    """Every state one move off the line that did not (budget)."""
    searched_states: int = 0
    """Canonical states the memoised search valued."""
    seconds: float = 0.0
    """Wall time of the whole computation."""
    methods: dict[str, int] = field(default_factory=dict)
    """How many off-line values each method proved."""


def resume_line(state: State, remaining: list[Action]) -> tuple[Action, ...] | None:
    """The line's ``remaining`` moves played from ``state``, each time the first one that is
    legal there; the moves, or None when it gets stuck before the end."""
    left = list(remaining)
    played: list[Action] = []
    while not is_terminal(state):
        legal = set(legal_actions(state))
        index = next((i for i, a in enumerate(left) if a in legal), None)
        if index is None:
            return None
        action = left.pop(index)
        state = apply_legal(state, action)
        played.append(action)
    return tuple(played)


def final_of(state: State, moves: Iterable[Action]) -> int | None:
    """The final Health after playing ``moves`` from ``state`` (None when not terminal then)."""
    for action in moves:
        state = apply_legal(state, action)
    return returns(state) if is_terminal(state) else None



def line_states(puzzle: Puzzle, plan: list[Action]) -> tuple[State, ...]:
    """The start and the state after each move of ``plan``."""
    states = [initial_state(puzzle)]
    for action in plan:
        states.append(apply_legal(states[-1], action))
    return tuple(states)


def off_line_moves(line: tuple[State, ...], plan: list[Action]) -> list[tuple[int, Action, State]]:
    """(step, move, state) for every legal move off the line: from each line state, every legal
    move that leads anywhere but the next line state (each distinct resulting state once)."""
    seen: set[State] = set()
    out = []
    for step, state in enumerate(line[:-1]):
        for action in legal_actions(state):
            after = apply_legal(state, action)
            if after == line[step + 1] or after in seen:
                continue
            seen.add(after)
            out.append((step, action, after))
    return out


def quick_value(after: State, step: int, line_index: dict[State, int], plan: list[Action],
                optimum: int) -> tuple[int | None, tuple[Action, ...], str] | None:
    """A value proven without search, or None: the terminal score, a transposition back onto the
    line (the plan's remaining moves from there), or the line's remaining moves reaching the optimum."""
    if is_terminal(after):
        return returns(after), (), "terminal"
    index = line_index.get(after)
    if index is not None:
        return optimum, tuple(plan[index:]), "line"
    resumed = resume_line(after, plan[step:])
    if resumed is not None and final_of(after, resumed) == optimum:
        return optimum, resumed, "resume"
    return None


def planner_value(puzzle: Puzzle, prefix: list[Action], state: State, optimum: int,
                  deterministic_time: float, model: PlanModel | None = None
                  ) -> tuple[int | None, tuple[Action, ...]] | None:
    """The best final Health reachable from ``state`` (reached by the legal ``prefix``, which ends
    a turn), proven by CP-SAT with the prefix fixed, and one continuation reaching it; None when
    not proven within ``deterministic_time`` or when the model cannot hold the prefix. ``model``:
    a :class:`solver.optimise.planner.PlanModel` of ``puzzle`` built without symmetry breaking (reused
    across calls). Never trusted blindly: the continuation is replayed from ``state`` by the rules
    engine and must score the proven value, which cannot exceed ``optimum``. A one-worker run, with
    the completions cap where :func:`solver.optimise.caps.completions_cap_helps` says it helps."""
    from .caps import completions_cap_helps
    from .planner import build_model, prefix_values, solve_cpsat
    pm = model if model is not None else build_model(puzzle, planner_options())
    try:
        fixed = prefix_values(pm, prefix)
    except SolverError:
        return None
    result = solve_cpsat(pm, fixed=fixed, deterministic_time=deterministic_time,
                         completions_cap=completions_cap_helps(puzzle, 1))
    if result.status == "infeasible":
        return None, ()
    if result.status != "optimal" or result.objective is None or result.plan[:len(prefix)] != prefix:
        return None
    continuation = tuple(result.plan[len(prefix):])
    if final_of(state, continuation) != result.objective or result.objective > optimum:
        return None
    return result.objective, continuation


def planner_options() -> Options:
    """The planner's options for prefix solves: no symmetry breaking and no ordering of commuting
    placements (both remove legal orders on purpose, and a fixed prefix may be in another)."""
    from .planner import Options
    return Options(symmetry=False, ordering=False)


def line_values(puzzle: Puzzle, plan: list[Action], optimum: int, *, max_states: int = 100_000,
                seconds: float | None = None, planner_time: float | tuple[float, ...] | None = None) -> LineValues:
    """Every line state (worth ``optimum``, which must be the proven optimum) and every state one
    move off the line with its proven value, within ``max_states`` searched states and ``seconds``
    of CPU time; then, with ``planner_time``, each state left whose move ends a turn by CP-SAT
    within that deterministic time (:func:`planner_value`). A tuple of times is a series of
    passes, each over the states the one before left: most states are proven within a short time,
    and only the few left pay for a longer one.
    Raises ValueError when ``plan`` does not reach ``optimum``."""
    t0 = time.monotonic()
    plan = list(plan)
    line = line_states(puzzle, plan)
    if not is_terminal(line[-1]) or returns(line[-1]) != optimum:
        raise ValueError(f"{puzzle.id}: the plan does not reach the optimum {optimum}")
    memo = ValueSearch(max_states, deadline=None if seconds is None else time.process_time() + seconds,
                       ceiling=optimum, prune_dominated=True)
    proven: list[OffLineValue] = []
    unproven: list[Unproven] = []
    pending: list[tuple[int, Action, State]] = []
    line_index = {s: i for i, s in enumerate(line)}
    for step, action, after in off_line_moves(line, plan):
        quick = quick_value(after, step, line_index, plan, optimum)
        if quick is None:
            pending.append((step, action, after))
        else:
            proven.append(OffLineValue(step, action, after, *quick))
    # latest first: their searches are small and fill the memo the earlier ones reuse
    over = False
    for step, action, after in sorted(pending, key=lambda item: -item[0]):
        if not over:
            try:
                best = memo.value(after)
                moves = memo.continuation(after)
                proven.append(OffLineValue(step, action, after, best, moves, "search"))
                continue
            except OverBudget:
                over = True
        unproven.append(Unproven(step, action, after))
    passes = (planner_time,) if isinstance(planner_time, (int, float)) else planner_time or ()
    if passes and unproven:
        unproven = _planner_stage(puzzle, plan, optimum, unproven, proven, passes)
    methods: dict[str, int] = {}
    for value in proven:
        methods[value.method] = methods.get(value.method, 0) + 1
    proven.sort(key=lambda v: v.step)
    unproven.sort(key=lambda v: v.step)
    return LineValues(optimum, line, tuple(plan), tuple(proven), tuple(unproven), len(memo.table),
                      round(time.monotonic() - t0, 3), methods)


def _planner_stage(puzzle: Puzzle, plan: list[Action], optimum: int, unproven: list[Unproven],
                   proven: list[OffLineValue], passes: tuple[float, ...]) -> list[Unproven]:
    """CP-SAT on every unproven state whose move ends a turn (:func:`planner_value`), in
    ``passes`` of growing deterministic time; the values it proves join ``proven``; what is left
    after the last pass is returned."""
    try:
        from .planner import build_model
        model = build_model(puzzle, planner_options())
    except ImportError:     # the planner's library is absent: the states stay unproven
        return unproven
    except SolverError:     # a puzzle the planner does not model
        return unproven
    left = [item for item in unproven if item.action.kind.is_flask]
    not_flasks = [item for item in unproven if not item.action.kind.is_flask]
    for planner_time in passes:
        still = []
        for item in left:
            found = planner_value(puzzle, plan[:item.step] + [item.action], item.state, optimum, planner_time, model)
            if found is None:
                still.append(item)
            else:
                proven.append(OffLineValue(item.step, item.action, item.state, found[0], found[1], "cpsat"))
        left = still
    return not_flasks + left
