"""The planner model's vocabulary: the slot grid, the model options, the abstract model with
what is needed to read a plan back (:class:`PlanModel`), and the error for a puzzle it cannot model.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

from solver.encoding.acts import Act
from solver.encoding.linear import Expr, LinearModel, Term, Var
from solver.game.errors import SolverError
from solver.game.model import Puzzle, Resource, VesicleArea

RES = list(Resource)
MACRO = [Resource.MRNA, Resource.PROTEIN, Resource.CARB, Resource.LIPID]


class UnsupportedPuzzle(SolverError):
    """The puzzle uses a rule combination the time-indexed model does not encode."""


@dataclass(frozen=True)
class Slot:
    t: int
    round: int
    index: int
    """0-based position inside the round."""

    @property
    def tag(self) -> str:
        return f"r{self.round},s{self.index + 1}"


@dataclass
class Options:
    """Model options (each one measured by the benchmark)."""

    symmetry: bool = True
    """Identical spots are used in order (rough-er-1 before rough-er-2); with grey flasks only (see
    :func:`add_identical_spot_order`)."""
    tight_bounds: bool = True
    """Per-slot upper bounds on stock and Health from a forward pass (else one global bound)."""
    market_windows: bool = True
    """Row and deck cards only from the round they can first be in the card row: cards that can
    never reach the row within the puzzle's rounds leave the model, and each card's actions (ER,
    Golgi, Exocytosis, Cytoplasm) are ruled out before its earliest purchase plus the placements
    its route needs (see :func:`market_arrival`)."""
    row_cuts: bool = True
    """Redundant card-row constraints that tighten the LP relaxation: a slot holds at most one
    card, a card lies in at most one slot and only while in play, and a flask on a slot buys
    exactly one card (see :func:`add_card_row`)."""
    row_paths: bool = True
    """Where each card lies in the row after round 1, and which cards Phase 2 discards, as paths
    through counting states (:func:`count_path`); else each position is a reified prefix sum,
    which the LP relaxation barely constrains (see :func:`add_card_row`)."""
    ordering: bool = True
    """Commuting placements in one order: a pure gain (Nucleus, Lipid Synthesis, Mitochondria,
    Laureates without a goal, an exhausted flask) never comes right after an action of higher
    rank (see :func:`add_commuting_order`)."""


@dataclass(frozen=True)
class OpenTurn:
    """The model's terms that decide whether the engine keeps a round's last turn open after its
    flask for Macromolecule cards (:func:`solver.game.rules.macromolecule_cards.played_before_phase_2`
    with ``pile_decides``, :func:`solver.game.rules.reshuffle.pile_decides_refill`)."""

    room: Var | Expr
    """0/1: the coming Phase 2's refill reaches the discard pile (the cards kept and the deck leave a slot open)."""
    pile: Expr
    """The discard pile's cards before the plays after the last placement, this Phase 2's discards in."""
    held: dict[str, Expr] = field(default_factory=dict)
    """(card) -> 0/1: the Macromolecule card is held after the round's last placement, before those plays."""


@dataclass
class PlanModel:
    """The abstract model and what is needed to read a plan back from a solution."""

    puzzle: Puzzle
    lm: LinearModel
    slots: list[Slot]
    acts: list[Act]
    x: dict[tuple[int, int], Var] = field(default_factory=dict)
    """(t, act index) -> Var."""
    grey: dict[int, Var | Expr] = field(default_factory=dict)
    noop: dict[int, Var | Expr] = field(default_factory=dict)
    amount: dict[int, Var] = field(default_factory=dict)
    play: dict[tuple[int, str], Var] = field(default_factory=dict)
    extra: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(t, resource) -> Var: the slot's placement collects one more (Epigenetic card extra-resource)."""
    trade: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(t, resource) -> Var: cubes bought with ATP before the slot's action (Epigenetic atp-exchange)."""
    income: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(round, resource) -> Var: the round's Epigenetic income (round-income)."""
    bump_opp: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """(t, opponent disk id) -> Var."""
    bump_own: dict[tuple[int, str, VesicleArea], Var | Expr] = field(default_factory=dict)
    """(t, card id, vesicle area) -> Var: the player's own disk leaves a full area."""
    at: dict[tuple[int, int, str], Var | Expr] = field(default_factory=dict)
    """(round, row slot, card) -> Var/Expr: the card under a row slot."""
    play_after: dict[tuple[int, str], Var] = field(default_factory=dict)
    """(round, card) -> Var: the Macromolecule card is played after the round's last placement,
    before Phase 2, in the turn the engine keeps open because the card changes the refill
    (:func:`solver.game.rules.macromolecule_cards.played_before_phase_2`); only in the rounds a
    one-card discard pile can come back (:func:`solver.game.rules.reshuffle.one_card_rounds`)."""
    open_turn: dict[int, OpenTurn] = field(default_factory=dict)
    """(round) -> what decides, in a solution, whether the engine keeps the round's last turn open
    (:func:`decode` writes the plays and the ``end-turn`` there); the rounds of ``play_after``."""
    objective_parts: dict[str, Expr] = field(default_factory=dict)


def term_value(e: Term, values: list[int]) -> int:
    if isinstance(e, Var):
        return values[e.index]
    return Expr.of(e).value(values)


def is_constant(e: Term) -> TypeGuard[Expr]:
    return isinstance(e, Expr) and not e.terms


def constant_value(e: Term) -> int | None:
    return e.const if is_constant(e) else None
