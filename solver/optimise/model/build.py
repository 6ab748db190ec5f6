"""Stage 1 of the planner: the time-indexed model of a puzzle, one constraint family after
another (:func:`build_model`), and why a puzzle cannot be modelled (:func:`unsupported_reason`).
"""
from __future__ import annotations


from solver.game.editions import rules_for
from solver.game.engine import initial_state
from solver.game.model import Puzzle
from solver.game.rules import disk_load, epigenetic, virus
from solver.optimise.model.context import new_context
from solver.optimise.model.market import market_queue
from solver.optimise.model.plan_model import Options, PlanModel, UnsupportedPuzzle
from solver.optimise.model.row import add_card_row, add_turn_order
from solver.optimise.model.scoring import add_final_scoring
from solver.optimise.model.slots import (
    add_actions,
    add_area_limits,
    add_commuting_order,
    add_decision_variables,
    add_identical_spot_order,
    add_one_action_per_slot,
    add_spot_limits,
    add_state_variables,
    set_static_bounds,
)
from solver.optimise.model.stock import add_boosts, add_goal_markers, add_health, add_stock
from solver.optimise.model.vesicles import (
    add_card_preconditions,
    add_card_transitions,
    add_disk_supply,
    add_vesicle_areas,
)


def unsupported_reason(puzzle: Puzzle, options: Options | None = None) -> str | None:
    """Why :func:`build_model` cannot model ``puzzle`` (what it raises as :class:`UnsupportedPuzzle`),
    or None: asked before building, so a caller that only needs to know pays no model."""
    limit = epigenetic.planner_limit(puzzle) or virus.planner_limit(puzzle) \
        or disk_load.planner_limit(puzzle)
    if limit:
        return limit
    prices = [sp.value for sp in puzzle.board.row_slots]
    if (rules_for(puzzle.edition).discards_by_price() and any(a > b for a, b in zip(prices, prices[1:]))
            and market_queue(puzzle, initial_state(puzzle), options or Options())[1]):
        return ("1e card row with decreasing slot prices (the cheapest-card discard is "
                "modelled for prices that do not decrease left to right)")
    return None


def build_model(puzzle: Puzzle, options: Options | None = None) -> PlanModel:
    """The time-indexed model of ``puzzle`` (no solver involved); :class:`UnsupportedPuzzle` when
    :func:`unsupported_reason` names why it cannot be.

    One function per constraint family, called in this order (a family reads what an earlier one
    left in the :class:`BuildContext`: the card row's purchases, the turn order, the disks removed
    from full areas, the goal markers, the boosts claimed)."""
    opt = options or Options()
    limit = unsupported_reason(puzzle, opt)
    if limit:
        raise UnsupportedPuzzle(limit)
    m = new_context(puzzle, opt)
    add_actions(m)
    set_static_bounds(m)
    add_decision_variables(m)
    add_state_variables(m)
    add_one_action_per_slot(m)
    add_spot_limits(m)
    add_area_limits(m)
    add_identical_spot_order(m)
    add_commuting_order(m)
    add_card_row(m)
    add_turn_order(m)
    add_vesicle_areas(m)
    add_disk_supply(m)
    add_card_preconditions(m)
    add_card_transitions(m)
    add_goal_markers(m)
    add_boosts(m)
    add_stock(m)
    add_health(m)
    add_final_scoring(m)
    return m.pm
