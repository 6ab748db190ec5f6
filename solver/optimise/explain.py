"""Why an optimum is optimal: the number of optimal plans and the "only move" steps of a plan,
computed from the engine alone by the memoised value search (:class:`solver.game.values.ValueSearch`,
counting: no pruning by dominance, so every optimal plan is counted). Capped by a state budget: past it the results say "not computed".

A plan is a sequence of engine actions; two plans are distinct when their action sequences
differ up to symmetry: actions that reach the same canonical state (identical spots,
``rough-er-1``/``rough-er-2``, see :func:`solver.optimise.search.canonical`) are one choice, in the count
of plans, the only moves and the branching alike."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.game.engine import Action, State, apply_legal, initial_state, is_terminal, legal_actions
from solver.game.model import Puzzle
from solver.game.values import OverBudget, ValueSearch, canonical

if TYPE_CHECKING:
    from .regret import LineValues


@dataclass(frozen=True)
class OptimalPlans:
    """The optimum and how many plans reach it."""

    best: int | None
    """Best final Health (None when no complete plan exists or the budget ran out)."""
    count: int | None
    """Distinct optimal plans, capped at the cap given (None when the budget ran out)."""
    capped: bool
    """True when ``count`` reached the cap: read it as "at least"."""
    states: int
    """Distinct canonical states valued."""


def optimal_plans(puzzle: Puzzle, max_states: int = 200_000, cap: int = 1000) -> OptimalPlans:
    """The optimum of ``puzzle`` and the number of distinct plans reaching it (at most ``cap``)."""
    search = ValueSearch(max_states, count_cap=cap)
    start = initial_state(puzzle)
    try:
        best, count = search.value(start), search.count(start)
    except OverBudget:
        return OptimalPlans(None, None, False, len(search.table))
    return OptimalPlans(best, count, count >= cap, len(search.table))


@dataclass(frozen=True)
class Deviation:
    """The best plan whose first departure from a given optimal plan already loses Health."""

    step: int
    """1-based step of the plan where it departs."""
    plan: tuple[Action, ...]
    """The whole plan: the optimal plan's first ``step - 1`` actions, the departing action, then
    a best continuation."""
    health: int
    """Its final Health."""
    loss: int
    """Optimum minus ``health`` (at least 1)."""


@dataclass(frozen=True)
class LineFacts:
    """What one memoised value search says along one optimal plan."""

    plans: OptimalPlans
    """The optimum and the number of plans reaching it (the same search)."""
    only: tuple[bool | None, ...]
    """Per step: True when it is the only choice there that keeps the optimum; None when that is
    not decided (another choice there has no proven value: :func:`line_facts_from_values`)."""
    branching: tuple[int, ...]
    """Per step: how many choices (distinct successor states) the state before it offers."""
    deviation: Deviation | None
    """The best losing departure (None when every departure keeps the optimum or none exists)."""
    unvalued: int = 0
    """Departures (states one move off the plan) with no proven value: the deviation is then the
    best among the valued ones only."""
    plans_at_least: int | None = None
    """Where plans were not counted (:func:`line_facts_from_values`): a proven lower bound, the
    plan itself and one optimal plan per departure (a choice, identical spots as one) proven to keep
    the optimum; departures at different steps or by different choices are different plans."""


def line_facts(puzzle: Puzzle, plan: list[Action], max_states: int = 200_000,
               cap: int = 1000) -> LineFacts | None:
    """Optimal plans counted (at most ``cap``), only moves, branching and the best losing departure
    along ``plan`` (an optimal plan), from one memoised value search. None when the budget ran out."""
    search = ValueSearch(max_states, count_cap=cap)
    value = search.value

    state = initial_state(puzzle)
    only, branching = [], []
    best_dev: tuple[int, int, State, Action] | None = None  # (health, step, state before, action)
    try:
        optimum, count = search.value(state), search.count(state)
        for i, action in enumerate(plan, start=1):
            # choices are distinct successors: two identical spots (rough-er-1/-2) are one choice,
            # as they are one plan in the count
            successors = {canonical(apply_legal(state, a)): a for a in legal_actions(state)}
            branching.append(len(successors))
            values = [(a, value(apply_legal(state, a))) for a in successors.values()]
            only.append(sum(1 for _, v in values if v is not None and v == optimum) == 1)
            for a, v in values:
                if v is not None and optimum is not None and v < optimum and (best_dev is None or v > best_dev[0]):
                    best_dev = (v, i, state, a)
            state = apply_legal(state, action)
        deviation = None
        if best_dev is not None and optimum is not None:
            health, step, before, first = best_dev
            tail, current = [first], apply_legal(before, first)
            while not is_terminal(current):
                # some successor keeps the departure's value (it is the best below this state)
                nxt = next(a for a in legal_actions(current) if value(apply_legal(current, a)) == health)
                tail.append(nxt)
                current = apply_legal(current, nxt)
            deviation = Deviation(step, tuple(plan[:step - 1]) + tuple(tail), health, optimum - health)
    except OverBudget:
        return None
    plans = OptimalPlans(optimum, count, count >= cap, len(search.table))
    return LineFacts(plans, tuple(only), tuple(branching), deviation)


def line_facts_from_values(values: LineValues) -> LineFacts:
    """The same facts as :func:`line_facts` for a puzzle past the search's budget, read from the
    proven values one move off the plan (:func:`solver.optimise.regret.line_values`): only moves (None
    where a choice has no proven value and the line's is the only one known to keep the optimum),
    branching, and the best losing departure among the valued ones. Optimal plans are not
    counted (``plans.count`` is None); ``plans_at_least`` bounds them from below."""
    optimum = values.optimum
    known: dict[State, int | None] = {state: optimum for state in values.line}
    known.update((v.state, v.best) for v in values.off)
    only: list[bool | None] = []
    branching: list[int] = []
    optimal_departures = 0
    for state in values.line[:-1]:
        # choices are distinct successors: identical spots are one choice (as in line_facts);
        # a choice is valued when any of its identical states is
        classes: dict[State, list[State]] = {}
        for action in legal_actions(state):
            after = apply_legal(state, action)
            classes.setdefault(canonical(after), []).append(after)
        branching.append(len(classes))
        keeps, undecided = 0, False
        for members in classes.values():
            valued = [known[m] for m in members if m in known]
            if not valued:
                undecided = True
            elif valued[0] == optimum:
                keeps += 1
        only.append(None if undecided and keeps == 1 else keeps == 1)
        optimal_departures += keeps - 1     # the line's own choice is one of those keeping it
    losing = [v for v in values.off if v.best is not None and v.best < optimum]
    deviation = None
    if losing:
        best = max(losing, key=lambda v: (v.best, -v.step))
        assert best.best is not None
        plan = tuple(values.plan[:best.step]) + (best.action,) + best.continuation
        deviation = Deviation(best.step + 1, plan, best.best, optimum - best.best)
    plans = OptimalPlans(optimum, None, False, values.searched_states)
    return LineFacts(plans, tuple(only), tuple(branching), deviation, len(values.unproven), 1 + optimal_departures)
