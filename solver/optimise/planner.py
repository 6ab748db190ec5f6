"""The time-indexed planner: one model of a whole puzzle, solved by CP-SAT, confirmed by HiGHS.

``build_model(puzzle)`` writes the rules as linear constraints over a grid of *slots*: each
round has ``F + G`` slots (F flasks, G = grey flasks usable that round); a slot holds one
placement (grey or normal), an exhausted flask, or nothing (only at the end of a round). The
state (stock, Health, cards, disks, card row, boosts) is an integer/boolean vector per slot.
``solve(...)`` runs CP-SAT on it, decodes the plan and replays it in the rules engine (the single
source of truth); HiGHS solves the same abstract model to confirm a proven optimum.

``build_model`` is a short sequence of ``add_*`` functions, one per constraint family (the
actions, one action per slot, spot and area limits, the card row, the turn order, vesicle areas,
card preconditions and transitions, boosts, stock, Health, final scoring), over a
:class:`BuildContext` that holds what they share. ``tools/model_digest.py`` and
``tests/test_model_digest.py`` show that a restructuring leaves the emitted model unchanged.

Variables are named with their indices, e.g. ``x[r2,s3,rough-er-1,ph]`` (round 2, slot 3),
``stock[r2,s3,atp]``, ``er[r1,s2,ph]``. Each constraint block is tagged with the rule section it
encodes (``LinearModel.section``); section IDs are those of ``data/rules/cytosis/game.yaml``.

Solver settings are the ones measured in ``/work/shared/notes/cp-sat-planning.md``: 1 worker with
``linearization_level=2`` and a fixed seed (the same plan every run); 2 workers with
``num_full_subsolvers=2`` and the ``max_lp`` + ``quick_restart`` subsolvers;
``presolve_inclusion_work_limit=0`` always (ortools #5293). ``python -m solver bench --ablation``
measures the model options (symmetry breaking, tight bounds), hints and 2 workers.

Grey flasks make the proof harder (a slot may hold a grey or a normal flask). What helped on the
12-placement scale puzzle with one grey flask a round (3 seeds, CP-SAT deterministic seconds 7.1
-> 2.3 on average): identical free spots ordered by their flask counts (grey flasks included), and
per-slot stock bounds that count at most G grey slots a round, each at its gain less 4 ATP. What
did not: one grey slot before every turn (2F slots a round: worse than F + G), and the ordering
of pure gains (it helps without grey flasks, and slows the proof with them, so it is off there).
The identical-spot ordering is the other way round: without grey flasks, beside the ordering of
pure gains, it slowed the proof of the 16- and 24-placement scale puzzles about twofold (5 seeds),
so it is on with grey flasks only.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard, cast

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from solver.game.editions import Rules, rules_for
from solver.game.engine import (
    disk_may_complete, removed_cubes_return, turn_position, ENZYME_SET_POINTS, EXHAUST_RESOURCES, FIRST_GOAL_MARKER_BONUS, MACROMOLECULE_SET,
    MAX_MARKERS_PER_GOAL, RECEPTOR_OTHER_BONUS, RECEPTOR_OWN_BONUS, DETOX_HEALTH, TOXICITY_STEPS, DISKS,
    Action, ActionKind, State, apply_legal, detox_points, initial_state, why_illegal,
)
from solver.game.errors import SolverError
from solver.game.rules import disk_load, epigenetic, free_ribosome, golgi, macromolecule_cards, reshuffle, virus
from .linear import Expr, Lit, LinearModel, Term, Var, lit, total
from solver.game.model import (
    RECEPTOR_OF, Area, Boost, Card, CardType, EventKind, OpponentDisk, Puzzle, Resource, Route, Spot, SpotKind, Stock,
    VesicleArea, event_kind,
)

RES = list(Resource)
MACRO = [Resource.MRNA, Resource.PROTEIN, Resource.CARB, Resource.LIPID]


class UnsupportedPuzzle(SolverError):
    """The puzzle uses a rule combination the time-indexed model does not encode."""


@dataclass(frozen=True)
class Act:
    """An abstract action of a slot: a placement (spot + card/goal) or an exhausted flask."""

    spot: Spot | None = None
    card: str | None = None
    goal: str | None = None
    resource: Resource | None = None
    disk: str | None = None
    """Exocytosis: the disk (named by the card it was started for) completing ``card``, when
    that is another card (ruling ``disk-card``). Golgi: the disk taking ``card``'s cube, when that
    is another card's (:mod:`solver.game.rules.golgi`)."""
    other_cube: bool = False
    """Exocytosis: the disk carries another card's Golgi cube (its Golgi placement named another
    card); the engine's action is the same, the disk's load is not."""

    @property
    def label(self) -> str:
        if self.spot is None:
            assert self.resource is not None, "an act without a spot is an exhausted flask"
            return f"exhaust-{self.resource.value}"
        return ",".join(p for p in (self.spot.id, self.card, self.goal, self.disk and f"disk:{self.disk}",
                                    self.other_cube and "other-cube") if p)

    @property
    def disk_card(self) -> str | None:
        """The card whose disk this action moves (Golgi, Exocytosis)."""
        return self.disk or self.card


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


def _val(e: Term, values: list[int]) -> int:
    if isinstance(e, Var):
        return values[e.index]
    return Expr.of(e).value(values)


def _is_const(e: Term) -> TypeGuard[Expr]:
    return isinstance(e, Expr) and not e.terms


def _cval(e: Term) -> int | None:
    return e.const if _is_const(e) else None


# --------------------------------------------------------------------------- build

def market_queue(puzzle: Puzzle, s0: State, opt: Options) -> tuple[dict[str, int], list[str]]:
    """The earliest round of each row and deck card (:func:`market_arrival`; none with an Epigenetic
    card, whose free card taken without a flask would break the slot count) and the cards of that
    queue that can reach the card row within the puzzle's rounds."""
    arrival = market_arrival(puzzle, s0) if opt.market_windows and puzzle.epigenetic is None else {}
    return arrival, [c for c in [c for c in s0.row if c] + list(s0.deck) if arrival.get(c, 1) <= puzzle.rounds]


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


VESICLE_AREAS = [VesicleArea.SMOOTH_ER, VesicleArea.ROUGH_ER, VesicleArea.GOLGI]
"""The areas a card's disk moves through; each holds a fixed number of disks (spots.golgi)."""

AreaStates = list[tuple[str, dict[tuple[int, str], Var | Expr]]]
"""The own disks that can lie in a vesicle area: (card, its state dict there, (t, card) -> 0/1)."""


@dataclass
class BuildContext:
    """What the constraint families of one :func:`build_model` call share.

    :func:`new_context` sets the slot grid and the cards that can ever be held; :func:`add_actions`
    the actions, :func:`set_static_bounds` the bounds, :func:`add_state_variables` the state (index
    ``t``: at the start of slot ``t``; ``t = T``: the end of the game). The fields below those are
    what one family hands a later one."""

    puzzle: Puzzle
    opt: Options
    rules: Rules
    s0: State
    """The puzzle's initial state."""
    pm: PlanModel
    """The model being built (its variables ``x``, ``grey``, ``noop``... are filled in place)."""
    by_round: dict[int, list[Slot]]
    """The slots of each round (1-based)."""
    flasks: int
    """F: the player's flasks (normal placements a round)."""
    grey_slots: int
    """G: the grey flasks usable a round (at most F); a round has F + G slots."""
    grey_cost: int
    """ATP a grey flask costs (epigenetic.grey_flask_cost)."""
    arrival: dict[str, int]
    """The earliest round of each row and deck card (:func:`market_queue`)."""
    queue: list[str]
    """The row and deck cards that can reach the card row in time, in queue order."""
    reach: list[str]
    """The cards that can ever be held: the hand, then ``queue``."""
    comeback: list[tuple[str, str, int]]
    """Row entries of cards a one-card discard pile can bring back (:func:`solver.game.rules.reshuffle.comeback_entries`)."""
    cards: dict[str, Card]
    ctype: dict[str, CardType]
    routes: dict[str, Route]
    """The cards with a vesicle route (ER, Golgi, Exocytosis)."""
    vesicle: list[str]
    """The cards of ``routes``, each with its disk."""
    other_cube: dict[str, Resource]
    """Disks that may take another card's Golgi cube, and that cube (ruling disk-card: at-exocytosis)."""
    enzymes: list[str]
    detox: list[str]
    macro_cards: list[str]
    receptors: list[str]

    # set_static_bounds
    extra_res: list[Resource] = field(default_factory=list)
    """Resources the Epigenetic card extra-resource adds one of on numbered spots."""
    boosts: list[str] = field(default_factory=list)
    """Boost events that can wait on the board."""
    ub_stock: dict[Resource, list[int]] = field(default_factory=dict)
    """(resource) -> upper bound of the stock at the start of each slot (and at the end)."""
    mrna_ub: int = 0
    h_ub: int = 0
    income_res: tuple[Resource, ...] = ()
    """Resources of the Epigenetic card round-income."""
    trading: bool = False
    """ATP traded for cubes (Epigenetic card atp-exchange)."""

    # add_decision_variables, add_state_variables
    free_ribosome: list[int] = field(default_factory=list)
    """Indices of the Free Ribosome actions."""
    stock: dict[tuple[int, Resource], Var | Expr] = field(default_factory=dict)
    health: dict[int, Var | Expr] = field(default_factory=dict)
    hand: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    done: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    er: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """The card's disk is in its ER area."""
    go: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """The card's disk is in the Golgi with its own card's cube."""
    gx: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """The disk is in the Golgi with another card's cube (solver.game.rules.golgi): go and gx exclude
    each other, a disk being in one place."""
    in_golgi: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    opp: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """(t, opponent disk id) -> the disk is still on the board."""
    pend: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """(t, boost event) -> cubes of the boost waiting on the board."""
    pend_ub: dict[str, int] = field(default_factory=dict)

    # handed from one family to a later one
    spot_use: dict[tuple[int, str], Expr] = field(default_factory=dict)
    """(t, spot id) -> a flask (grey or normal) goes on the spot at slot t."""
    grey_at: dict[tuple[int, str], Var] = field(default_factory=dict)
    """(t, spot id) -> the slot's grey flask is on this spot."""
    bought: dict[tuple[int, str], Expr] = field(default_factory=dict)
    """(t, card) -> the slot's flask buys the card from the row."""
    leads: dict[int, Var | Expr] = field(default_factory=dict)
    """(round) -> the player is earliest in the round's turn order."""
    bump_other: dict[tuple[int, str], Expr] = field(default_factory=dict)
    """(t, card) -> its disk, carrying another card's cube, leaves the full Golgi."""
    mark: dict[str, Expr] = field(default_factory=dict)
    """(goal id) -> a marker of the player's is placed on the goal."""
    claim: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """(t, boost event) -> the cubes of the boost the slot's flask collects."""

    @property
    def lm(self) -> LinearModel:
        return self.pm.lm

    @property
    def slots(self) -> list[Slot]:
        return self.pm.slots

    @property
    def acts(self) -> list[Act]:
        return self.pm.acts

    @property
    def x(self) -> dict[tuple[int, int], Var]:
        return self.pm.x

    @property
    def rounds(self) -> int:
        return self.puzzle.rounds

    @property
    def per_round(self) -> int:
        """K = F + G: slots a round."""
        return self.flasks + self.grey_slots

    @property
    def end(self) -> int:
        """T: the number of slots, the index of the state at the end of the game."""
        return len(self.pm.slots)

    def X(self, t: int, pred: Callable[..., bool]) -> Expr:
        """The sum of slot ``t``'s action variables whose action satisfies ``pred``."""
        return total(self.x[t, i] for i, a in enumerate(self.acts) if pred(a))

    def is_er(self, a: Act) -> bool:
        """``a`` puts a card's disk in its ER area (Rough ER, or Smooth ER on the Detox/Steroid spot)."""
        return a.card is not None and self.cards[a.card].route is not None \
            and _kind(a) in (SpotKind.ROUGH_ER, SpotKind.DETOX_STEROID)

    def tag(self, t: int) -> str:
        return self.slots[t].tag if t < self.end else "end"

    def occupied(self, r: int) -> tuple[str, ...]:
        """The spots other players' flasks hold in round ``r`` (none past the puzzle's list)."""
        return self.puzzle.occupied_in(r)

    def boost_of(self, event: str) -> Boost:
        boost = self.puzzle.board.boost(event)
        assert boost is not None, f"the puzzle loader refuses {event} on a board without it"
        return boost

    def normal_at(self, t: int, sid: str) -> Expr:
        """A normal (not grey) flask goes on spot ``sid`` at slot ``t``."""
        return self.spot_use[t, sid] - self.grey_at.get((t, sid), Expr())

    def bump_c(self, t: int, c: str, A: VesicleArea | None = None) -> Expr:
        """Card ``c``'s disk is removed from a full area (``A``, or any) at slot ``t``."""
        areas = [A] if A else VESICLE_AREAS
        return total(self.pm.bump_own[t, c, a] for a in areas if (t, c, a) in self.pm.bump_own)


def _kind(a: Act) -> SpotKind | None:
    return a.spot.kind if a.spot else None


def new_context(puzzle: Puzzle, opt: Options) -> BuildContext:
    """The slot grid (``F + G`` slots a round) and the cards that can ever be held: the hand, and
    the row and deck cards that can reach the row in time (:func:`market_queue`)."""
    s0 = initial_state(puzzle)
    R, F = puzzle.rounds, puzzle.flasks
    G = min(puzzle.grey_flasks, F)
    K = F + G
    slots = [Slot(r * K + i, r + 1, i) for r in range(R) for i in range(K)]
    arrival, queue = market_queue(puzzle, s0, opt)
    reach = [c for c in s0.hand] + queue
    comeback = reshuffle.comeback_entries(puzzle, queue)   # cards a one-card discard pile brings back
    cards = {c: puzzle.card(c) for c in reach}
    ctype = {c: cards[c].type for c in cards}
    routes = {c: route for c in reach if (route := cards[c].route) is not None}
    vesicle = list(routes)
    return BuildContext(
        puzzle=puzzle, opt=opt, rules=rules_for(puzzle.edition), s0=s0,
        pm=PlanModel(puzzle, LinearModel(), slots, []),
        by_round={r: [s for s in slots if s.round == r] for r in range(1, R + 1)},
        flasks=F, grey_slots=G, grey_cost=epigenetic.grey_flask_cost(puzzle),
        arrival=arrival, queue=queue, reach=reach, comeback=comeback, cards=cards, ctype=ctype, routes=routes, vesicle=vesicle,
        other_cube=golgi.other_cubes(puzzle, vesicle),
        enzymes=[c for c in reach if ctype[c] is CardType.ENZYME],
        detox=[c for c in reach if ctype[c] is CardType.DETOX],
        macro_cards=[c for c in reach if ctype[c] is CardType.MACROMOLECULE],
        receptors=[c for c in reach if ctype[c] in (CardType.PROTEIN_RECEPTOR, CardType.STEROID_RECEPTOR)],
    )


def add_actions(m: BuildContext) -> None:
    """Every action a slot can hold: a placement on each spot, with the card or goal it concerns
    (a row card bought by its slot, a card's disk on its route, a goal marked), and exhausting a
    flask where the edition allows it."""
    puzzle, cards, routes, vesicle, other_cube = m.puzzle, m.cards, m.routes, m.vesicle, m.other_cube
    acts = m.acts
    for spot in puzzle.board.spots:
        k = spot.kind
        if k in (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.GLUCOSE,
                 SpotKind.MITOCHONDRIA_CARB, SpotKind.FREE_RIBOSOME, SpotKind.CARD_ROW):
            if k is SpotKind.CARD_ROW and not m.queue and not m.comeback:
                continue
            acts.append(Act(spot))
        elif k is SpotKind.LAUREATES:
            acts.append(Act(spot))
            acts += [Act(spot, goal=g.id) for g in puzzle.goals if g.markers < MAX_MARKERS_PER_GOAL
                     and puzzle.goal_markers > 0]
        elif k is SpotKind.DETOX_STEROID:
            acts += [Act(spot, card=c) for c in m.reach if m.ctype[c] is CardType.DETOX
                     or (c in routes and routes[c].er is VesicleArea.SMOOTH_ER)]
        elif k is SpotKind.ROUGH_ER:
            acts += [Act(spot, card=c) for c in vesicle if routes[c].er is VesicleArea.ROUGH_ER]
        elif k is SpotKind.GOLGI:
            acts += [Act(spot, card=c) for c in vesicle]
            # the cube of another card now aimed at (spots.golgi, solver.game.rules.golgi)
            acts += [Act(spot, card=c2, disk=c1) for c1 in other_cube for c2 in vesicle
                     if golgi.other_cube_allowed(puzzle, c1, c2)]
        elif k is SpotKind.EXOCYTOSIS:
            acts += [Act(spot, card=c) for c in vesicle]
            # a disk completes another card its cubes cover (spots.exocytosis, ruling disk-card)
            acts += [Act(spot, card=c2, disk=c1) for c1 in vesicle for c2 in vesicle
                     if c1 != c2 and disk_may_complete(puzzle, c1, c2)
                     and golgi.load_with(cards[c1], routes[c1].golgi_resource).covers(Stock(0, *cards[c2].cost.as_tuple()[1:]))]
            # ... and a disk carrying another card's Golgi cube completes what that load covers
            acts += [Act(spot, card=c2, disk=None if c2 == c1 else c1, other_cube=True)
                     for c1, cube in other_cube.items() for c2 in vesicle
                     if disk_may_complete(puzzle, c1, c2)
                     and golgi.load_with(cards[c1], cube).covers(Stock(0, *cards[c2].cost.as_tuple()[1:]))]
        elif k is SpotKind.CYTOPLASM:
            acts += [Act(spot, card=c) for c in m.enzymes]
    if m.rules.exhaust_allowed():
        acts += [Act(resource=r) for r in EXHAUST_RESOURCES]


def set_static_bounds(m: BuildContext) -> None:
    """Upper bounds of the stock (per slot with ``Options.tight_bounds``) and of Health, from what
    the actions, cards, boosts and Epigenetic card can give at most (for the variables' bounds)."""
    puzzle, s0, cards, slots = m.puzzle, m.s0, m.cards, m.slots
    R, F, G, T = m.rounds, m.flasks, m.grey_slots, m.end
    per_slot_gain = {r: 0 for r in RES}
    for a in m.acts:
        if a.spot is not None:
            for r in RES:
                per_slot_gain[r] = max(per_slot_gain[r], a.spot.gain.get(r))
        else:
            assert a.resource is not None, "an act without a spot is an exhausted flask"
            per_slot_gain[a.resource] = max(per_slot_gain[a.resource], 1)

    m.boosts = sorted({e for e in puzzle.events if e and event_kind(e) is EventKind.BOOST} | {e for e, _ in s0.boosts})
    boost_total = {r: sum(1 for e in puzzle.events if e and event_kind(e) is EventKind.BOOST
                          and m.boost_of(e).resource is r) for r in RES}
    play_total = {r: sum(cards[c].gain.get(r) * (1 + sum(1 for _, d, _ in m.comeback if d == c)) for c in m.macro_cards)
                  for r in RES}
    load_total = {r: sum(cards[c].cost.get(r) for c in m.vesicle if r is not Resource.ATP) for r in RES}
    row_bonus = 1 if any(e == "reduce-atp-cost" for e in puzzle.events) else 0
    # before slot t: at most ``i`` placements of its round (i = its position) of which at most G
    # grey, each grey one netting its gain less the 4 ATP it costs; F + G in each earlier round
    # the Epigenetic card extra-resource: one more cube on numbered spots (epigenetic.extra-resource)
    m.extra_res = sorted({epigenetic.extra_resource(a.spot) for a in m.acts
                          if a.spot is not None and epigenetic.extra_allowed(puzzle, a.spot)}, key=RES.index)
    for r in m.extra_res:
        per_slot_gain[r] += 1
    grey_gain = {r: max(0, per_slot_gain[r] - (m.grey_cost if r is Resource.ATP else 0)) for r in RES}

    def gain_before(r: Resource, t: int) -> int:
        if t == T:
            return R * (F * per_slot_gain[r] + G * grey_gain[r])
        s = slots[t]
        rounds_before = (s.round - 1) * (F * per_slot_gain[r] + G * grey_gain[r])
        return rounds_before + min(s.index, F) * per_slot_gain[r] + max(0, s.index - F) * grey_gain[r]

    ub_stock = m.ub_stock
    m.income_res = epigenetic.INCOME_RESOURCES if puzzle.epigenetic is epigenetic.EpigeneticCard.ROUND_INCOME else ()
    for r in RES:
        extra = boost_total[r] + play_total[r] + load_total[r] + (row_bonus * R if r is Resource.ATP else 0)
        ub_stock[r] = [s0.stock.get(r) + extra + gain_before(r, t) + (slots[min(t, T - 1)].round if r in m.income_res else 0)
                       for t in range(T + 1)]
    m.trading = puzzle.epigenetic is epigenetic.EpigeneticCard.ATP_EXCHANGE
    if m.trading:   # ATP traded for cubes (epigenetic.atp-exchange)
        for r, price in epigenetic.TRADE_PRICES.items():
            ub_stock[r] = [ub_stock[r][t] + ub_stock[Resource.ATP][t] // price for t in range(T + 1)]
    m.mrna_ub = ub_stock[Resource.MRNA][T]
    ub_stock[Resource.PROTEIN] = [ub_stock[Resource.PROTEIN][t] + m.mrna_ub for t in range(T + 1)]
    if not m.opt.tight_bounds:
        for r in RES:
            ub_stock[r] = [ub_stock[r][T]] * (T + 1)
    m.h_ub = (puzzle.health + sum(max(cards[c].health, DETOX_HEALTH if m.ctype[c] is CardType.DETOX else 0) for c in m.reach)
              + FIRST_GOAL_MARKER_BONUS * len(puzzle.goals)
              + RECEPTOR_OWN_BONUS * len(m.vesicle) * len(m.receptors)
              + RECEPTOR_OTHER_BONUS * sum(len(h) for h in puzzle.opponent_hormones) * len(m.receptors))


def add_decision_variables(m: BuildContext) -> None:
    """Per slot: which action (``x``), a grey flask or nothing (``grey``, ``noop``, with grey
    flasks only), the Macromolecule cards played, the Free Ribosome's amount, the Epigenetic
    extra cube; row and deck cards' actions ruled out before they can arrive (:func:`add_market_windows`)."""
    lm, pm, G = m.lm, m.pm, m.grey_slots
    for s in m.slots:
        for i, a in enumerate(m.acts):
            pm.x[s.t, i] = lm.bool(f"x[{s.tag},{a.label}]")
        pm.grey[s.t] = lm.bool(f"grey[{s.tag}]") if G else lm.const(0)
        pm.noop[s.t] = lm.bool(f"noop[{s.tag}]") if G else lm.const(0)
        for c in m.macro_cards:
            pm.play[s.t, c] = lm.bool(f"play[{s.tag},{c}]")
    if m.arrival:
        add_market_windows(lm, pm, m.arrival, m.per_round)
    m.free_ribosome = [i for i, a in enumerate(m.acts) if _kind(a) is SpotKind.FREE_RIBOSOME]
    for s in m.slots:
        if m.free_ribosome:
            pm.amount[s.t] = lm.int(f"amount[{s.tag}]", 0, max(0, m.mrna_ub))
        for r in m.extra_res:
            pm.extra[s.t, r] = lm.bool(f"extra[{s.tag},{r.value}]")


def add_state_variables(m: BuildContext) -> None:
    """The state at the start of each slot and at the end (index ``T``): stock, Health, cards in
    hand and completed, own disks in the ER and the Golgi, other players' disks, boosts waiting;
    at ``t = 0`` the puzzle's initial state as constants."""
    lm, s0, tag, T = m.lm, m.s0, m.tag, m.end
    m.stock.update({(t, r): lm.int(f"stock[{tag(t)},{r.value}]", 0, m.ub_stock[r][t]) for t in range(1, T + 1) for r in RES})
    for r in RES:
        m.stock[0, r] = lm.const(s0.stock.get(r))
    m.health.update({t: lm.int(f"health[{tag(t)}]", m.puzzle.health, m.h_ub) for t in range(1, T + 1)})
    m.health[0] = lm.const(s0.health)

    def state_bool(name: str, t: int, init: int) -> Var | Expr:
        return lm.const(init) if t == 0 else lm.bool(f"{name}[{tag(t)}]")

    m.hand.update({(t, c): state_bool(f"hand[{c}]", t, int(c in s0.hand)) for t in range(T + 1) for c in m.reach})
    m.done.update({(t, c): state_bool(f"done[{c}]", t, 0) for t in range(T + 1) for c in m.reach
                   if m.ctype[c].is_completable})
    m.er.update({(t, c): state_bool(f"er[{c}]", t, 0) for t in range(T + 1) for c in m.vesicle})
    m.go.update({(t, c): state_bool(f"golgi[{c}]", t, 0) for t in range(T + 1) for c in m.vesicle})
    m.gx.update({(t, c): state_bool(f"golgi_other_cube[{c}]", t, 0) for t in range(T + 1) for c in m.other_cube})
    m.in_golgi.update({(t, c): Expr.of(m.go[t, c]) + m.gx[t, c] if c in m.other_cube else m.go[t, c]
                       for t in range(T + 1) for c in m.vesicle})
    m.opp.update({(t, d.id): state_bool(f"opp_disk[{d.id}]", t, 1) for t in range(T + 1) for d in s0.opp_disks})
    m.pend_ub.update({e: len(m.puzzle.events) for e in m.boosts})
    m.pend.update({(t, e): (lm.const(dict(s0.boosts).get(e, Stock()).get(m.boost_of(e).resource)) if t == 0
                            else lm.int(f"boost[{tag(t)},{e}]", 0, m.pend_ub[e])) for t in range(T + 1) for e in m.boosts})


def add_one_action_per_slot(m: BuildContext) -> None:
    """Each slot holds one action or nothing; F normal flasks a round, empty slots last; grey
    flasks (at most the puzzle's a round, each before a normal flask, never in the last slot) and
    exhausting (never with a grey flask) (gameplay.phase-1, gameplay.grey-flasks, gameplay.exhaust-flask)."""
    lm, puzzle, x, acts, grey, noop = m.lm, m.puzzle, m.x, m.acts, m.pm.grey, m.pm.noop
    X = m.X
    lm.section("gameplay.phase-1")
    for s in m.slots:
        t = s.t
        lm.eq(total(x[t, i] for i in range(len(acts))) + noop[t], 1)
        if m.free_ribosome:
            xfr = X(t, lambda a: _kind(a) is SpotKind.FREE_RIBOSOME)
            free_ribosome.encode_amount(lm, puzzle, m.pm.amount[t], xfr, m.mrna_ub)
            lm.section("gameplay.phase-1")
    for r, rs in m.by_round.items():
        lm.eq(total(1 - Expr.of(noop[s.t]) - Expr.of(grey[s.t]) for s in rs), m.flasks)
        for a, b in zip(rs, rs[1:]):
            lm.le(noop[a.t], noop[b.t])
    lm.section("gameplay.grey-flasks")
    exhaust_after_grey = m.rules.exhaust_after_grey(puzzle.readings())
    if m.grey_slots:
        for r, rs in m.by_round.items():
            lm.le(total(grey[s.t] for s in rs), puzzle.grey_flasks)
            for a, b in zip(rs, rs[1:]):
                # a grey flask is placed before the turn's own flask: a normal flask follows
                lm.le(Expr.of(grey[a.t]) + noop[b.t] + grey[b.t], 1)
                if not exhaust_after_grey:   # ruling grey-then-exhaust: not-allowed
                    lm.le(Expr.of(grey[a.t]) + X(b.t, lambda act: act.spot is None), 1)
            lm.eq(grey[rs[-1].t], 0)
            for s in rs:
                lm.le(grey[s.t], X(s.t, lambda a: a.spot is not None))
    lm.section("gameplay.exhaust-flask")
    for s in m.slots:
        for i, a in enumerate(acts):
            if a.spot is None:
                lm.le(x[s.t, i], 1 - Expr.of(grey[s.t]))


def add_spot_limits(m: BuildContext) -> None:
    """A free spot takes one normal flask a round, an occupied spot none; a grey flask goes on any
    spot, but no normal flask follows it there that round (gameplay.phase-1)."""
    lm, board, G = m.lm, m.puzzle.board, m.grey_slots
    lm.section("gameplay.phase-1")
    spot_use, grey_at = m.spot_use, m.grey_at
    for s in m.slots:
        for spot in board.spots:
            spot_use[s.t, spot.id] = m.X(s.t, lambda a, sid=spot.id: a.spot is not None and a.spot.id == sid)
    if G:
        for s in m.slots:
            here = []
            for spot in board.spots:
                if spot_use[s.t, spot.id].terms:
                    g = lm.bool(f"grey_on[{s.tag},{spot.id}]")
                    lm.le(g, spot_use[s.t, spot.id])
                    grey_at[s.t, spot.id] = g
                    here.append(g)
            lm.eq(total(here), m.pm.grey[s.t])

    for r, rs in m.by_round.items():
        occ = set(m.occupied(r))
        for spot in board.spots:
            if not spot_use[rs[0].t, spot.id].terms:
                continue
            # one normal flask per free spot per round; a grey flask goes on any spot
            lm.le(total(m.normal_at(s.t, spot.id) for s in rs), 0 if spot.id in occ else 1)
            for k, s in enumerate(rs):
                if k and spot.id not in occ and G:
                    lm.le(m.normal_at(s.t, spot.id) + total(grey_at[p.t, spot.id] for p in rs[:k]), 1)


def add_area_limits(m: BuildContext) -> None:
    """1e two-player game: an area takes a limited number of flasks a round, other players'
    included, the player's grey flasks too unless the ruling grey-flask-area-limit reads exempt
    (two-player.gameplay)."""
    lm, board, rules, puzzle = m.lm, m.puzzle.board, m.rules, m.puzzle
    lm.section("two-player.gameplay")
    for r, rs in m.by_round.items():
        occ = m.occupied(r)
        areas = {sp.area for sp in board.spots}
        for area in areas:
            limit = rules.area_limit(area, puzzle.players)
            if limit is None:
                continue
            occ_n = sum(1 for sid in occ if board.spot(sid).area is area)
            room = limit - 1 - occ_n
            area_spots = [sp.id for sp in board.spots if sp.area is area]
            normals = {s.t: total(m.normal_at(s.t, sid) for sid in area_spots) for s in rs}
            lm.le(total(normals.values()), max(0, room + 1))
            # the player's grey flasks count unless the ruling grey-flask-area-limit reads exempt
            grey_counts = rules.grey_flasks_count_for_area_limit(puzzle.readings())
            for k, s in enumerate(rs):
                if k and room >= 0 and normals[s.t].terms:
                    prev = total((m.spot_use[p.t, sid] if grey_counts else m.normal_at(p.t, sid))
                                 for p in rs[:k] for sid in area_spots)
                    lm.le(prev, room + k * (1 - normals[s.t]))


def add_identical_spot_order(m: BuildContext) -> None:
    """Symmetry breaking (``Options.symmetry``, with grey flasks only): of two identical free spots,
    the one earlier on the board holds at least as many flasks in a round (gameplay.phase-1).

    Measured (CP-SAT deterministic seconds, mean over seeds): with a grey flask a round it speeds
    the proof (scale 12: 3.7 -> 2.3, scale 16: 36.5 -> 22.7); without grey flasks, where the
    ordering of pure gains (:func:`add_commuting_order`) is on, it slows it (scale 16: 13.0 -> 20.8,
    scale 24: 9.0 -> 18.9)."""
    if not (m.opt.symmetry and m.grey_slots):
        return
    lm = m.lm
    lm.section("gameplay.phase-1")  # symmetry breaking: identical free spots are used in order
    groups: dict[tuple[SpotKind, Area, int], list[Spot]] = {}
    for spot in m.puzzle.board.spots:
        if spot.kind is not SpotKind.CARD_ROW:
            groups.setdefault((spot.kind, spot.area, spot.value), []).append(spot)
    for r, rs in m.by_round.items():
        occ = set(m.occupied(r))
        for group in groups.values():
            free = [sp for sp in group if sp.id not in occ]
            for a, b in zip(free, free[1:]):
                # relabelling two identical free spots for a round is a symmetry: the one
                # earlier on the board holds at least as many flasks (grey ones included)
                ua = total(m.spot_use[s.t, a.id] for s in rs)
                ub_ = total(m.spot_use[s.t, b.id] for s in rs)
                lm.le(ub_, ua)


def add_commuting_order(m: BuildContext) -> None:
    """Symmetry breaking (``Options.ordering``, without grey flasks: measured, with them it slows
    the proof, bench --ablation): commuting placements in one order (gameplay.phase-1).

    A pure gain P (no cost, no card, no Health, legal whenever its spot is free) placed by a
    normal flask right after a normal flask's action Q of the same round can swap with it:
    P stays legal (its spot and area do not depend on Q), Q stays legal (its preconditions
    are monotone in the stock and P only adds to it; P changes no card, disk, row or Health)
    and the state after both is the same (a boost claim moves from one to the other, the
    sum is unchanged). Not when a card is played between them (Q may have bought it, and a
    card is played before a slot's flask). So a pure gain never follows an action of higher
    rank in the next slot with no card played in between. Rank: the index among pure
    gains; every other action ranks last."""
    if not (m.opt.ordering and not m.grey_slots):
        return
    lm, x, acts = m.lm, m.x, m.acts
    lm.section("gameplay.phase-1")  # symmetry breaking: commuting placements in one order
    pure = [i for i, a in enumerate(acts) if a.spot is None or (a.goal is None and _kind(a) in (
        SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.LAUREATES))]
    rank = {i: n for n, i in enumerate(pure)}
    for r, rs in m.by_round.items():
        for a, b in zip(rs, rs[1:]):
            for j in pure:
                higher = total(x[a.t, i] for i in range(len(acts)) if rank.get(i, len(pure)) > rank[j])
                lm.le(Expr.of(x[b.t, j]) + higher, 1 + total(m.pm.play[b.t, c] for c in m.macro_cards))


def add_card_row(m: BuildContext) -> None:
    """The card row round by round: what lies under each row slot (``pm.at``; round 1 as dealt,
    later rounds the first cards still in play, in queue order), a flask on a row slot buys the
    card there (``bought``), other players' flasks buy theirs, and Phase 2 discards the first
    cards left in row order (one; two in a two-player game) (spots.card-row, gameplay.phase-2)."""
    lm, puzzle, opt, queue, x = m.lm, m.puzzle, m.opt, m.queue, m.x
    R, S = m.rounds, len(puzzle.board.row_slots)
    lm.section("spots.card-row")
    at = m.pm.at
    row_acts = {a.spot.row_slot: i for i, a in enumerate(m.acts) if a.spot is not None and a.spot.kind is SpotKind.CARD_ROW}
    bought = m.bought
    discard_n = 2 if puzzle.players == 2 else 1
    comeback = m.comeback
    card_of = {**{c: c for c in queue}, **{key: c for key, c, _ in comeback}}
    entries, pile = queue + [key for key, _, _ in comeback], dict[str, Term]()   # solver.game.rules.reshuffle
    queue = entries   # the row's queue: a comeback entry is alive from the round its card comes back
    alive: dict[tuple[int, str], Var | Expr] = {(1, c): lm.const(int(c == card_of[c])) for c in queue}
    for r in range(1, R + 1):
        rs = m.by_round[r]
        if r == 1:
            for j in range(S):
                for c in queue:
                    at[1, j, c] = lm.const(int(m.s0.row[j] == c))
        elif opt.row_paths:
            lm.section("gameplay.phase-2")
            # card c lies in row slot j when it is alive and exactly j alive cards precede it
            ahead_of = count_path(lm, f"row_path[r{r}]", [(c, alive[r, c]) for c in queue], S)
            for c in queue:
                for j in range(S):
                    at[r, j, c] = _as_bool(lm, f"at[r{r},slot{j + 1},{c}]", ahead_of[c][j])
        else:
            lm.section("gameplay.phase-2")
            for n, c in enumerate(queue):
                before = total(alive[r, q] for q in queue[:n])
                a_c = alive[r, c]
                for j in range(S):
                    if _cval(a_c) == 0:
                        at[r, j, c] = lm.const(0)
                        continue
                    ge_j = lm.reify_ge(f"rowpos_ge[r{r},{c},{j}]", before, j)
                    ge_j1 = lm.reify_ge(f"rowpos_ge[r{r},{c},{j + 1}]", before, j + 1)
                    parts = [a_c, ge_j, _not(lm, ge_j1)]
                    at[r, j, c] = _and_mixed(lm, f"at[r{r},slot{j + 1},{c}]", parts)
        lm.section("spots.card-row")
        # other players' flasks on row slots have bought those cards (engine: _opponents_buy)
        occ_r = set(m.occupied(r))
        taken_slots = [sp.row_slot for sp in puzzle.board.row_slots if sp.id in occ_r]
        taken = {c: total(at[r, j, c] for j in taken_slots) for c in queue}
        if opt.row_cuts and r > 1:
            # true of every integer solution, but not of the LP relaxation, where a slot could
            # hold a share of several cards and one flask buy a share of each
            for j in range(S):
                lm.le(total(at[r, j, c] for c in queue), 1)
            for c in queue:
                lm.le(total(at[r, j, c] for j in range(S)), alive[r, c])
        for j, i in row_acts.items():
            present = Expr() if j in taken_slots else total(at[r, j, c] for c in queue)
            lm.le(total(x[s.t, i] for s in rs), 1)      # a bought slot stays empty this round
            for s in rs:
                lm.le(x[s.t, i], present)
                buys = Expr()
                for c in queue:
                    a_ = at[r, j, c]
                    if _cval(a_) == 0:
                        continue
                    # not a constant (_cval above): the variable _and_mixed returned
                    b = x[s.t, i] if _cval(a_) == 1 else lm.and_(f"buy[{s.tag},slot{j + 1},{c}]", [x[s.t, i], cast(Var, a_)])
                    bought[s.t, c] = bought.get((s.t, c), Expr()) + b
                    buys = buys + b
                if opt.row_cuts and j not in taken_slots:
                    lm.eq(buys, x[s.t, i])
        if r < R:
            lm.section("gameplay.phase-2")
            remain = {}
            for c in queue:
                inrow = total(at[r, j, c] for j in range(S))
                remain[c] = inrow - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c]
            # the first discard_n cards left in the row go: a card left with fewer left before it
            left_ahead = count_path(lm, f"discard_path[r{r}]", [(c, remain[c]) for c in queue], discard_n) \
                if opt.row_paths else {}
            for n, c in enumerate(queue):
                if opt.row_paths:
                    disc = _as_bool(lm, f"discard[r{r},{c}]", total(left_ahead[c][:discard_n]))
                else:
                    ahead = total(remain[q] for q in queue[:n])
                    rem_b = _as_bool(lm, f"row_left[r{r},{c}]", remain[c])
                    first = lm.reify_ge(f"row_ahead_lt[r{r},{c}]", discard_n - 1 - ahead, 0)
                    disc = _and_mixed(lm, f"discard[r{r},{c}]", [rem_b, first])
                alive[r + 1, c] = alive[r, c] - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c] - disc
                if not _is_const(alive[r + 1, c]):
                    v = lm.bool(f"alive[r{r + 1},{c}]")
                    lm.eq(v, alive[r + 1, c])
                    alive[r + 1, c] = v
                pile[card_of[c]] = total([pile.get(card_of[c], 0), disc])
            played = {c: total(m.pm.play[s.t, c] for s in rs) for c in m.macro_cards}
            after_last = {}
            if any(k == r for _, _, k in comeback):   # cards played after the round's last placement
                after_last = {c: lm.bool(f"play_after[r{r},{c}]") for c in m.macro_cards if m.arrival.get(c, 1) <= r}
            decides = reshuffle.encode_comeback(lm, r, S, pile, played, alive, queue, comeback, after_last)
            if decides is not None and after_last:
                room, before = decides
                macromolecule_cards.encode_played_before_phase_2(lm, r, after_last, room, before)
                m.pm.play_after.update({(r, c): v for c, v in after_last.items()})
                m.pm.open_turn[r] = OpenTurn(room, before)

    reshuffle.merge_entries(at, bought, card_of)


def add_turn_order(m: BuildContext) -> None:
    """Who is earliest in each round's turn order (``leads``; engine: State.leads_round,
    _leads_next_round): the player leads round 1 with the First Player Marker; they lead round
    r + 1 if a flask of theirs went on Laureates in round r, or they led round r and no other
    player took it (spots.laureates)."""
    lm, puzzle = m.lm, m.puzzle
    lm.section("spots.laureates")
    leads = m.leads
    leads[1] = lm.const(int(puzzle.first_player))
    for r in range(1, m.rounds):
        took = total(m.X(s.t, lambda a: _kind(a) is SpotKind.LAUREATES) for s in m.by_round[r])
        took_b = lm.reify_ge(f"took_marker[r{r}]", took, 1) if Expr.of(took).terms else lm.const(0)
        if any(puzzle.board.spot(p).kind is SpotKind.LAUREATES for p in m.occupied(r)):
            leads[r + 1] = took_b
        elif _cval(leads[r]) == 0:
            leads[r + 1] = took_b
        else:
            leads[r + 1] = lm.reify_ge(f"leads[r{r + 1}]", Expr.of(took_b) + leads[r], 1)


def add_vesicle_areas(m: BuildContext) -> None:
    """A disk entering a full vesicle area removes one disk there (``pm.bump_own``, ``pm.bump_opp``):
    the player's choice (1e), or the disk of the player highest on the Health Track, ties to the
    earliest in turn order (2e) (``Rules.removal_is_chosen``; spots.golgi, spots.rough-er)."""
    lm, board, routes = m.lm, m.puzzle.board, m.routes
    lm.section("spots.golgi")
    in_area: dict[VesicleArea, AreaStates] = {}
    for A in VESICLE_AREAS:
        if A is VesicleArea.GOLGI:
            in_area[A] = [(c, m.in_golgi) for c in m.vesicle]
        else:
            in_area[A] = [(c, m.er) for c in m.vesicle if routes[c].er is A]
    opp_in = {A: [d for d in m.s0.opp_disks if d.area is A] for A in VESICLE_AREAS}
    chosen = m.rules.removal_is_chosen()
    for s in m.slots:
        t = s.t
        for A in VESICLE_AREAS:
            if A is VesicleArea.GOLGI:
                ent = m.X(t, lambda a: _kind(a) is SpotKind.GOLGI)
            else:
                ent = m.X(t, lambda a, A=A: a.card in routes and m.is_er(a) and routes[a.card].er is A)
            cap = board.vesicle_count(A)
            own_max = min(DISKS, len(in_area[A]))
            if not ent.terms or own_max + len(opp_in[A]) < cap:
                continue   # the area can never be full
            occupancy = total(st[t, c] for c, st in in_area[A]) + total(m.opp[t, d.id] for d in opp_in[A])
            full = lm.reify_ge(f"full[{s.tag},{A.value}]", occupancy, cap)
            ent_b = _as_bool(lm, f"enter[{s.tag},{A.value}]", ent)
            ef = _and_mixed(lm, f"enter_full[{s.tag},{A.value}]", [ent_b, full])
            if chosen:
                _removal_chosen(m, s, A, ef, in_area[A], opp_in[A])
            else:
                _removal_by_health(m, s, A, ef, in_area[A], opp_in[A])


def _removal_chosen(m: BuildContext, s: Slot, A: VesicleArea, ef: Var | Expr, own: AreaStates,
                    opps: list[OpponentDisk]) -> None:
    """1e: the player removes a disk of their choice from the full area ``A`` when theirs enters
    (``ef``)."""
    lm, t = m.lm, s.t
    removed = []
    for c, st in own:
        b = lm.bool(f"bump[{s.tag},{A.value},own:{c}]")
        lm.le(b, st[t, c])
        m.pm.bump_own[t, c, A] = b
        removed.append(b)
    for d in opps:
        b = lm.bool(f"bump[{s.tag},{d.id}]")
        lm.le(b, m.opp[t, d.id])
        m.pm.bump_opp[t, d.id] = b
        removed.append(b)
    lm.eq(total(removed), ef)


def _removal_by_health(m: BuildContext, s: Slot, A: VesicleArea, ef: Var | Expr, own: AreaStates,
                       opp_in: list[OpponentDisk]) -> None:
    """2e: entering the full area ``A`` (``ef``) removes the first disk of the player highest on
    the Health Track (the player's own Health a variable, the others' fixed), ties to the earliest
    in turn order (which may depend on ``leads``); each player's disks in the engine's tie-break order."""
    lm, puzzle, t = m.lm, m.puzzle, s.t
    opp, bump_own, bump_opp = m.opp, m.pm.bump_own, m.pm.bump_opp
    own_key: Callable[[str], list[int]] = lambda c: [-ord(ch) for ch in f"own:{c}"]  # noqa: E731 - same tie-break as the engine
    owns = sorted(own, key=lambda cs: own_key(cs[0]), reverse=True)
    top_own, seen = [], Expr()
    for c, st in owns:
        top_own.append((c, _and_mixed(lm, f"top_own[{s.tag},{c}]", [st[t, c], _not(lm, seen)])))
        seen = seen + st[t, c]
    any_own = lm.reify_ge(f"any_own[{s.tag},{A.value}]", seen, 1)
    # the other players' disk first in line, under each possible turn order of the round
    lead = m.leads[s.round]
    tops = {}
    for led in ((0, 1) if _cval(lead) is None else (_cval(lead),)):
        pos = {d.id: turn_position(puzzle, d.seat, bool(led), s.round) for d in opp_in}
        opps = sorted(opp_in, key=lambda d: (d.health, -pos[d.id], [-ord(ch) for ch in d.id]),
                      reverse=True)
        seen = Expr()
        for d in opps:
            tops[led, d.id] = _and_mixed(lm, f"top_opp[{s.tag},{d.id},lead{led}]",
                                         [opp[t, d.id], _not(lm, seen)])
            seen = seen + opp[t, d.id]
    top_opp = []
    for d in opp_in:
        if (0, d.id) in tops and (1, d.id) in tops:
            tb = (_and_mixed(lm, f"top_opp[{s.tag},{d.id},l]", [tops[1, d.id], lead])
                  + _and_mixed(lm, f"top_opp[{s.tag},{d.id},nl]", [tops[0, d.id], _not(lm, lead)]))
        else:
            tb = tops[next(k for k in tops if k[1] == d.id)]
        top_opp.append((d, tb))
    # the player, tied on Health with that disk's owner, is removed if earlier in turn order
    own_pos = {led: turn_position(puzzle, puzzle.seat, bool(led), s.round) for led in (0, 1)}
    thr = Expr()
    for d, tb in top_opp:
        later = {led: int(own_pos[led] > turn_position(puzzle, d.seat, bool(led), s.round)) for led in (0, 1)}
        thr = thr + tb * d.health
        if (led := _cval(lead)) is not None:
            thr = thr + tb * later[led]
        elif later[0] or later[1]:
            thr = (thr + _and_mixed(lm, f"later[{s.tag},{d.id},l]", [tb, lead]) * later[1]
                   + _and_mixed(lm, f"later[{s.tag},{d.id},nl]", [tb, _not(lm, lead)]) * later[0])
    own_wins = lm.reify_ge(f"own_highest[{s.tag},{A.value}]", m.health[t] - thr, 0)
    own_out = _and_mixed(lm, f"own_out[{s.tag},{A.value}]", [own_wins, any_own])
    for c, tb in top_own:
        b = _and_mixed(lm, f"bump[{s.tag},{A.value},own:{c}]", [ef, tb, own_out])
        bump_own[t, c, A] = b
    for d, tb in top_opp:
        b = _and_mixed(lm, f"bump[{s.tag},{d.id}]", [ef, tb, _not(lm, own_out)])
        bump_opp[t, d.id] = b


def add_disk_supply(m: BuildContext) -> None:
    """Starting a card's disk in the ER needs a disk in supply: at most ``DISKS`` on the board,
    those removed this slot freed (spots.rough-er, spots.smooth-er-detox-steroid)."""
    lm = m.lm
    lm.section("spots.rough-er")
    for s in m.slots:
        t = s.t
        ent_er = m.X(t, m.is_er)
        if not ent_er.terms:
            continue
        on_board = total(Expr.of(m.er[t, c]) + m.in_golgi[t, c] for c in m.vesicle)
        freed = total(m.bump_c(t, c) for c in m.vesicle)
        lm.le(on_board - freed + ent_er, DISKS)


def add_card_preconditions(m: BuildContext) -> None:
    """What an action on a card needs: the card in hand (ER, Smooth ER detox, Cytoplasm,
    Exocytosis, the card a Golgi cube is now aimed at), its disk not yet on the board (ER), in
    the ER (Golgi) or in the Golgi with the right cube (Exocytosis); a Macromolecule card played
    from hand, at a slot with a flask (cards.hormones)."""
    lm, x, hand, play = m.lm, m.x, m.hand, m.pm.play
    lm.section("cards.hormones")
    for s in m.slots:
        t = s.t
        for i, a in enumerate(m.acts):
            c = a.card
            if c is None:
                continue
            k = _kind(a)
            if m.is_er(a):
                lm.le(x[t, i], hand[t, c])
                lm.le(x[t, i], 1 - Expr.of(m.er[t, c]) - m.in_golgi[t, c])
            elif k is SpotKind.GOLGI:
                lm.le(x[t, i], m.er[t, a.disk or c])
                if a.disk is not None:   # the card now aimed at is in hand
                    lm.le(x[t, i], hand[t, c])
            elif k is SpotKind.EXOCYTOSIS:
                lm.le(x[t, i], (m.gx if a.other_cube else m.go)[t, a.disk or c])
                lm.le(x[t, i], hand[t, c])
            else:  # detox / enzyme from hand
                lm.le(x[t, i], hand[t, c])
        for c in m.macro_cards:
            lm.le(play[t, c], hand[t, c])
            lm.le(play[t, c], 1 - Expr.of(m.pm.noop[t]))


def add_card_transitions(m: BuildContext) -> None:
    """From one slot to the next: cards enter the hand when bought and leave it when completed or
    played, completed cards count as done, disks move ER -> Golgi -> Exocytosis (with their own or
    another card's cube) or leave a full area, other players' disks leave when removed
    (cards.macromolecule, spots.card-row, cards.hormones, spots.golgi)."""
    lm, X, ctype, hand, done = m.lm, m.X, m.ctype, m.hand, m.done
    er, go, gx = m.er, m.go, m.gx
    completes = {}
    for s in m.slots:
        t = s.t
        for c in m.reach:
            completes[t, c] = X(t, lambda a, c=c: a.card == c and (
                _kind(a) in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM)
                or (_kind(a) is SpotKind.DETOX_STEROID and ctype[c] is CardType.DETOX)))
    for s in m.slots:
        t = s.t
        last = s.index == m.per_round - 1
        for c in m.reach:
            lm.section("cards.macromolecule" if c in m.macro_cards else "spots.card-row")
            gone = completes[t, c] + (m.pm.play[t, c] if c in m.macro_cards else 0)
            held = Expr.of(hand[t, c]) + m.bought.get((t, c), Expr()) - gone
            after = m.pm.play_after.get((s.round, c)) if last else None
            if after is not None:   # played after the round's last placement (open turn)
                m.pm.open_turn[s.round].held[c] = held
                held = held - after
            lm.eq(hand[t + 1, c], held)
            if (t, c) in done:
                lm.section("cards.hormones")
                lm.eq(done[t + 1, c], done[t, c] + completes[t, c])
        for c in m.vesicle:
            lm.section("spots.golgi")
            xer = X(t, lambda a, c=c: a.card == c and m.is_er(a))
            xg_own = X(t, lambda a, c=c: a.card == c and _kind(a) is SpotKind.GOLGI and a.disk is None)
            xg_other = X(t, lambda a, c=c: a.disk == c and _kind(a) is SpotKind.GOLGI)
            xe_own = X(t, lambda a, c=c: a.disk_card == c and _kind(a) is SpotKind.EXOCYTOSIS and not a.other_cube)
            bump_g, b_other = m.bump_c(t, c, VesicleArea.GOLGI), Expr()
            if c in m.other_cube:
                xe_other = X(t, lambda a, c=c: a.disk_card == c and _kind(a) is SpotKind.EXOCYTOSIS and a.other_cube)
                # a disk removed from the full Golgi area carries its own card's cube or another's
                if bump_g.terms:
                    b_other = Expr.of(_and_mixed(lm, f"bump_other_cube[{s.tag},{c}]", [bump_g, gx[t, c]]))
                m.bump_other[t, c] = b_other
                lm.eq(gx[t + 1, c], Expr.of(gx[t, c]) + xg_other - xe_other - b_other)
            lm.eq(er[t + 1, c], er[t, c] + xer - xg_own - xg_other - m.bump_c(t, c, m.routes[c].er))
            lm.eq(go[t + 1, c], go[t, c] + xg_own - xe_own - (bump_g - b_other))
        for d in m.s0.opp_disks:
            lm.eq(m.opp[t + 1, d.id], m.opp[t, d.id] - Expr.of(m.pm.bump_opp.get((t, d.id), lm.const(0))))


def add_goal_markers(m: BuildContext) -> None:
    """At most one marker of the player's per goal, at most the markers they hold
    (spots.laureates, cards.goals)."""
    lm = m.lm
    lm.section("cards.goals")
    for g in m.puzzle.goals:
        idx = [i for i, a in enumerate(m.acts) if a.goal == g.id]
        m.mark[g.id] = total(m.x[s.t, i] for s in m.slots for i in idx)
        lm.le(m.mark[g.id], 1)
    if m.mark:
        lm.le(total(m.mark.values()), m.puzzle.goal_markers)


def add_boosts(m: BuildContext) -> None:
    """Boosts waiting on the board: the first flask in one of the boost's areas collects all its
    cubes (``claim``); a boost event adds one at the end of the round before its round, and
    another player's flask in its areas the next round takes them all (events.boost,
    spots.event-resources)."""
    lm, puzzle, board, R, K = m.lm, m.puzzle, m.puzzle.board, m.rounds, m.per_round
    pend, claim = m.pend, m.claim
    lm.section("events.boost")
    for e in m.boosts:
        areas = m.boost_of(e).areas
        for s in m.slots:
            t = s.t
            inside = m.X(t, lambda a: a.spot is not None and a.spot.area in areas)
            if not inside.terms:
                claim[t, e] = lm.const(0)
            else:
                most = m.pend_ub[e]
                cl = lm.int(f"claim[{s.tag},{e}]", 0, most)
                lm.le(cl, pend[t, e])
                lm.le(cl, inside * most)
                lm.ge(cl, Expr.of(pend[t, e]) - (1 - inside) * most)
                claim[t, e] = cl
            nxt = Expr.of(pend[t, e]) - claim[t, e]
            last = s.index == K - 1
            if last and s.round < R:
                r2 = s.round + 1
                if puzzle.event_in(r2) == e:
                    nxt = nxt + 1
                if any(board.spot(sid).area in areas for sid in m.occupied(r2)):
                    nxt = Expr()
            lm.eq(pend[t + 1, e], nxt)


def add_stock(m: BuildContext) -> None:
    """The stock from one slot to the next: before the flask, held cards played, the Epigenetic
    round income and trades, boosts claimed and the grey flask's ATP; then the action is
    affordable, pays its cost and collects its gain (own disks removed from a full area give
    back their cubes); the round's last slot applies a toxicity event (gameplay.grey-flasks,
    gameplay.phase-1, events.toxicity)."""
    lm, puzzle, stock, R, K = m.lm, m.puzzle, m.stock, m.rounds, m.per_round
    for s in m.slots:
        t = s.t
        lm.section("gameplay.grey-flasks")
        pre = _stock_before_action(m, s)
        cost, gain = _action_costs_and_gains(m, s)
        lm.section("gameplay.phase-1")
        mid = {}
        for r in RES:
            lm.ge(pre[r] - cost[r], 0)            # the action is affordable
            mid[r] = pre[r] - cost[r] + gain[r]
        last = s.index == K - 1
        if last:   # cards played after the round's last placement, before Phase 2 (cards.macromolecule)
            for c in m.macro_cards:
                if (v := m.pm.play_after.get((s.round, c))) is not None:
                    for r in RES:
                        if m.cards[c].gain.get(r):
                            mid[r] = mid[r] + v * m.cards[c].gain.get(r)
        tox = last and s.round < R and puzzle.event_in(s.round + 1) == "toxicity"
        for r in RES:
            nxt = mid[r]
            if tox and r in MACRO:
                lm.section("events.toxicity")
                loss = Expr()
                prev_at = None
                for at_least, lose in sorted(TOXICITY_STEPS):
                    b = lm.reify_ge(f"toxic[{s.tag},{r.value},{at_least}]", mid[r], at_least)
                    loss = loss + Expr.of(b) * (lose - (prev_at or 0))
                    prev_at = lose
                nxt = mid[r] - loss
            lm.eq(stock[t + 1, r], nxt)


def _stock_before_action(m: BuildContext, s: Slot) -> dict[Resource, Expr]:
    """The stock slot ``s``'s action pays from: held Macromolecule cards played, the round's
    Epigenetic income (first slot), ATP traded for cubes, boosts claimed, the grey flask's ATP
    (gameplay.grey-flasks)."""
    lm, pm, t, grey = m.lm, m.pm, s.t, m.pm.grey
    play_gain = {r: total(pm.play[t, c] * m.cards[c].gain.get(r) for c in m.macro_cards if m.cards[c].gain.get(r))
                 for r in RES}
    # before the slot's flask: held cards played, the round's income, ATP traded (Epigenetic cards)
    pre = {r: Expr.of(m.stock[t, r]) + play_gain[r] for r in RES}
    if m.income_res and s.index == 0:
        pm.income.update({(s.round, r): v for r, v in epigenetic.encode_income(lm, s.round, pre).items()})
    if m.trading:
        for r, v in epigenetic.encode_trades(lm, s.tag, pre, m.ub_stock[Resource.ATP][t]).items():
            pm.trade[t, r] = v
            lm.le(v, (1 - Expr.of(pm.noop[t])) * v.ub)
    lm.section("gameplay.grey-flasks")
    lm.ge(pre[Resource.ATP], grey[t] * m.grey_cost)
    for r in RES:
        pre[r] = pre[r] + total(m.claim[t, e] for e in m.boosts if m.boost_of(e).resource is r)
        if r is Resource.ATP:
            pre[r] = pre[r] - grey[t] * m.grey_cost
    return pre


def _action_costs_and_gains(m: BuildContext, s: Slot) -> tuple[dict[Resource, Expr], dict[Resource, Expr]]:
    """What slot ``s``'s action costs and gains, per resource: each spot's, a row card's price
    (less the reduce-atp-cost event's 1), a card's cost where it is completed, the disk's cubes
    on the ER and the Golgi, the Free Ribosome's trade, the Epigenetic extra cube; own disks
    removed from a full area give their cubes back unless the 1e ruling removed-disk-cubes reads
    to-supply (engine.removed_cubes_return)."""
    lm, puzzle, pm, t, cards, routes = m.lm, m.puzzle, m.pm, s.t, m.cards, m.routes
    x, acts = m.x, m.acts
    reduce = puzzle.event_in(s.round) == "reduce-atp-cost"
    cost: dict[Resource, Expr] = {r: Expr() for r in RES}
    gain: dict[Resource, Expr] = {r: Expr() for r in RES}
    for i, a in enumerate(acts):
        k = _kind(a)
        c = cards[a.card] if a.card else None
        cs, gs = Stock(), Stock()
        if a.spot is None:
            assert a.resource is not None, "an act without a spot is an exhausted flask"
            gs = Stock.of(a.resource, 1)
        elif k is SpotKind.CARD_ROW:
            price = epigenetic.row_price(puzzle, max(0, a.spot.value - (1 if reduce else 0)))
            cs = Stock(atp=price)
            gs = Stock(atp=1 if (reduce and a.spot.value == 0) else 0)
        elif k is SpotKind.LAUREATES:
            gs = Stock(atp=1) if a.goal is None else Stock()
        elif k is SpotKind.CYTOPLASM:
            assert c is not None, "every cytoplasm act completes a card"
            cs = c.cost
        elif k is SpotKind.DETOX_STEROID and c is not None and c.type is CardType.DETOX:
            cs = Stock(atp=c.cost.atp)
        elif m.is_er(a):
            assert a.card is not None, "is_er: an ER act starts a card's disk"
            route = routes[a.card]
            need = cards[a.card].cost.get(route.er_resource)
            pay = Resource.MRNA if route.er_resource is Resource.PROTEIN else route.er_resource
            cs = Stock.of(pay, need)
        elif k is SpotKind.GOLGI:
            assert a.card is not None, "every Golgi act moves a card's disk"
            cs = Stock.of(routes[a.card].golgi_resource, 1)
        elif k is SpotKind.EXOCYTOSIS:
            assert c is not None, "every Exocytosis act completes a card"
            cs = Stock(atp=c.cost.atp)
        elif k is not SpotKind.FREE_RIBOSOME:
            cs, gs = a.spot.cost, a.spot.gain
        for r in RES:
            if cs.get(r):
                cost[r] = cost[r] + x[t, i] * cs.get(r)
            if gs.get(r):
                gain[r] = gain[r] + x[t, i] * gs.get(r)
    if m.free_ribosome:
        free_ribosome.encode_trade(cost, gain, pm.amount[t], Resource.MRNA, Resource.PROTEIN)
    if m.extra_res:
        epigenetic.encode_extra(lm, puzzle, acts, {i: x[t, i] for i in range(len(acts))},
                                {r: pm.extra[t, r] for r in m.extra_res}, cost, gain)
    # own disks removed from a full area come back with their cubes (spots.golgi; 1e ruling
    # removed-disk-cubes: to-supply, they do not: engine.removed_cubes_return)
    for c_ in (m.vesicle if removed_cubes_return(puzzle) else []):
        route = routes[c_]
        need = cards[c_].cost.get(route.er_resource)
        b_any = m.bump_c(t, c_)
        if b_any.terms:
            gain[route.er_resource] = gain[route.er_resource] + b_any * need
            b_other = m.bump_other.get((t, c_), Expr())
            gain[route.golgi_resource] = gain[route.golgi_resource] + m.bump_c(t, c_, VesicleArea.GOLGI) - b_other
            if c_ in m.other_cube:
                gain[m.other_cube[c_]] = gain[m.other_cube[c_]] + b_other
    return cost, gain


def add_health(m: BuildContext) -> None:
    """Health Points during play: completed cards' Health (a detox card's fixed amount), the
    receptor bonus for an own hormone completed with the receptor done, the first marker on a
    goal, and at the end of a round the receptor bonus for other players' hormones (cards.*,
    cards.receptors, cards.goals)."""
    lm, puzzle, x, ctype, done, receptors = m.lm, m.puzzle, m.x, m.ctype, m.done, m.receptors
    K = m.per_round
    for s in m.slots:
        t = s.t
        last = s.index == K - 1
        lm.section("cards.receptors")
        gained = Expr()
        for i, a in enumerate(m.acts):
            k = _kind(a)
            if a.card and (k in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM) or
                           (k is SpotKind.DETOX_STEROID and ctype[a.card] is CardType.DETOX)):
                hp = DETOX_HEALTH if ctype[a.card] is CardType.DETOX else m.cards[a.card].health
                gained = gained + x[t, i] * hp
                if k is SpotKind.EXOCYTOSIS and ctype[a.card] in RECEPTOR_OF:
                    for q in receptors:
                        if ctype[q] is RECEPTOR_OF[ctype[a.card]]:
                            gained = gained + Expr.of(_and_mixed(lm, f"receptor_bonus[{s.tag},{a.card},{q}]",
                                                                 [x[t, i], done[t, q]])) * RECEPTOR_OWN_BONUS
            if a.goal is not None and puzzle.goals and next(g for g in puzzle.goals if g.id == a.goal).markers == 0:
                gained = gained + x[t, i] * FIRST_GOAL_MARKER_BONUS
        if last:
            for kind in (puzzle.opponent_hormones[s.round - 1] if s.round - 1 < len(puzzle.opponent_hormones) else ()):
                gained = gained + total(done[t + 1, q] for q in receptors if ctype[q] is RECEPTOR_OF[kind]) * RECEPTOR_OTHER_BONUS
        lm.eq(m.health[t + 1], Expr.of(m.health[t]) + gained)


def add_final_scoring(m: BuildContext) -> None:
    """The objective: Health at the end, plus macromolecule sets, detox points, enzyme sets and
    goals (scoring.final); each part kept in ``pm.objective_parts``."""
    lm, pm, health, T = m.lm, m.pm, m.health, m.end
    lm.section("scoring.macromolecules")
    final = _final_stock(m)
    lm.section("scoring.macromolecules")
    sets = pm.objective_parts["macromolecules"] = _macromolecule_sets(m, final)
    lm.section("scoring.detox")
    detox_pts = pm.objective_parts["detox"] = _detox_points(m)
    lm.section("scoring.enzyme-sets")
    enzyme_pts = pm.objective_parts["enzyme_sets"] = _enzyme_set_points(m)
    lm.section("scoring.goals")
    goal_pts = pm.objective_parts["goals"] = _goal_points(m)
    pm.objective_parts["in_game"] = Expr.of(health[T])

    lm.section("scoring.final")
    lm.maximize(Expr.of(health[T]) + sets + detox_pts + enzyme_pts + goal_pts)


def _final_stock(m: BuildContext) -> dict[Resource, Expr]:
    """The cubes that score at the end: the stock, the cubes on own disks still on the board,
    held Macromolecule cards played in the last turn, the last turn's Epigenetic trades."""
    lm, pm, puzzle, T, cards = m.lm, m.pm, m.puzzle, m.end, m.cards
    final = {r: Expr.of(m.stock[T, r]) for r in RES}
    for c in m.vesicle:
        route = m.routes[c]
        need = cards[c].cost.get(route.er_resource)
        final[route.er_resource] = final[route.er_resource] + (Expr.of(m.er[T, c]) + m.in_golgi[T, c]) * need
        final[route.golgi_resource] = final[route.golgi_resource] + m.go[T, c]
        if c in m.other_cube:
            final[m.other_cube[c]] = final[m.other_cube[c]] + m.gx[T, c]
    # held Macromolecule cards are played in the last turn (engine: _play_held_cards)
    macromolecule_cards.encode_held_at_the_end(lm, puzzle, final, {c: Expr.of(m.hand[T, c]) for c in m.macro_cards},
                                               [cards[c] for c in m.macro_cards])
    if m.trading and puzzle.flasks:   # the last turn's trades (engine: _trade_leftover_atp)
        for r, v in epigenetic.encode_trades(lm, "end", final, m.ub_stock[Resource.ATP][T]).items():
            pm.trade[T, r] = v
        lm.ge(final[Resource.ATP], 0)
    return final


def _macromolecule_sets(m: BuildContext, final: dict[Resource, Expr]) -> Expr:
    """Complete sets of each macromolecule's cubes (scoring.macromolecules)."""
    lm = m.lm
    sets = Expr()
    for name, size in MACROMOLECULE_SET.items():
        r = Resource(name)
        hi = final[r].bounds()[1]
        n = lm.int(f"sets[{name}]", 0, max(0, hi // size))
        lm.le(Expr.of(n) * size, final[r])
        lm.ge(Expr.of(n) * size + (size - 1), final[r])
        sets = sets + n
    return sets


def _detox_points(m: BuildContext) -> Expr:
    """Detox points from the ATP and number of detox cards completed, against the other players'
    (one-hot over every reachable pair) (scoring.detox)."""
    lm, puzzle, cards, done, T = m.lm, m.puzzle, m.cards, m.done, m.end
    detox_pts = Expr()
    if m.detox:
        pairs = {(0, 0)}
        for c in m.detox:
            lm.charge(len(pairs))    # quadratic in the detox cards before any variable (a bounded build stops here)
            pairs |= {(a + cards[c].cost.atp, k + 1) for a, k in pairs}
        others = [(o.amount, o.cards) for o in puzzle.detox_opponents]
        z = {p: lm.bool(f"detox_result[{p[0]}atp,{p[1]}cards]") for p in sorted(pairs)}
        lm.eq(total(z.values()), 1)
        lm.eq(total(z[p] * p[0] for p in z), total(done[T, c] * cards[c].cost.atp for c in m.detox))
        lm.eq(total(z[p] * p[1] for p in z), total(done[T, c] for c in m.detox))
        detox_pts = total(z[p] * detox_points(m.rules, puzzle.players, p, others, puzzle.readings()) for p in z)
    return detox_pts


def _enzyme_set_points(m: BuildContext) -> Expr:
    """Sets of enzyme cards of different colours, layer by layer (the n-th card of each colour
    in the n-th set) (scoring.enzyme-sets)."""
    lm, done, T = m.lm, m.done, m.end
    enzyme_pts = Expr()
    colours: dict[str, list[str]] = {}
    for c in m.enzymes:
        colours.setdefault(m.cards[c].color or c, []).append(c)
    for layer in range(1, max((len(v) for v in colours.values()), default=0) + 1):
        members = []
        for col, cs in colours.items():
            if len(cs) >= layer:
                members.append(lm.reify_ge(f"enzyme_layer[{layer},{col}]", total(done[T, c] for c in cs), layer))
        size = total(members)
        one_hot = {n: lm.bool(f"enzyme_set_size[{layer},{n}]") for n in range(len(members) + 1)}
        lm.eq(total(one_hot.values()), 1)
        lm.eq(total(v * n for n, v in one_hot.items()), size)
        enzyme_pts = enzyme_pts + total(v * ENZYME_SET_POINTS[min(n, 5)] for n, v in one_hot.items())
    return enzyme_pts


def _goal_points(m: BuildContext) -> Expr:
    """A goal scores when the player's marker is on it and enough cards of its types are done
    (scoring.goals)."""
    lm, done, T, ctype = m.lm, m.done, m.end, m.ctype
    goal_pts = Expr()
    for g in m.puzzle.goals:
        if not (m.mark.get(g.id) and m.mark[g.id].terms):
            continue
        met = lm.reify_ge(f"goal_met[{g.id}]", total(done[T, c] for c in m.reach
                                                    if ctype[c] in g.card_types and (T, c) in done), g.count)
        scored = _and_mixed(lm, f"goal_scored[{g.id}]", [_as_bool(lm, f"goal_marked[{g.id}]", m.mark[g.id]), met])
        goal_pts = goal_pts + Expr.of(scored) * g.points
    return goal_pts


def market_arrival(puzzle: Puzzle, s0: State) -> dict[str, int]:
    """The earliest round each card of the row and the deck can lie in the card row (spots.card-row,
    gameplay.phase-2).

    The row holds the first ``S`` cards still in play, in queue order (row, then deck): a card
    ``n`` places down the queue is there in round ``r`` only after ``n - S + 1`` cards ahead of it
    have left. A round removes at most as many cards as the row holds (each slot is bought once a
    round, by the player or another player, and Phase 2 discards from what is left), so at most
    the round-1 row's cards in round 1 and ``S`` in every later round. Cards that cannot arrive by
    the last round never matter; a card arriving in round ``e`` cannot be bought before it."""
    S = len(puzzle.board.row_slots)
    first_row = [c for c in s0.row if c]
    queue = first_row + list(s0.deck)
    out = {c: 1 for c in first_row}
    removed, round_ = len(first_row), 2     # at most this many gone before ``round_``
    for n, c in enumerate(queue[len(first_row):], start=len(first_row)):
        while n - removed >= S:
            removed += S
            round_ += 1
        out[c] = round_
    return out


ROUTE_STAGE = {SpotKind.CARD_ROW: 0, SpotKind.ROUGH_ER: 1, SpotKind.DETOX_STEROID: 1, SpotKind.CYTOPLASM: 1,
               SpotKind.GOLGI: 2, SpotKind.EXOCYTOSIS: 3}
"""Placements a card needs after its purchase before an action on this spot can use it: bought,
then the ER (or the Cytoplasm, or the Smooth ER for a detox card), then the Golgi, then Exocytosis."""


def add_market_windows(lm: LinearModel, pm: PlanModel, arrival: dict[str, int], per_round: int) -> None:
    """Rule out every action on a row or deck card before the card can be held and moved that far
    along its route (:func:`market_arrival`): bought in round ``e`` at the earliest, at its first
    slot, it reaches stage ``k`` of its route ``k`` slots later. A disk completing another card
    needs its own card three stages on, the completed card held."""
    for s in pm.slots:
        for i, a in enumerate(pm.acts):
            if a.spot is None or a.spot.kind not in ROUTE_STAGE or a.spot.kind is SpotKind.CARD_ROW:
                continue
            needs = []
            if a.disk is not None:   # a disk's move for another card (Exocytosis, or Golgi with its cube)
                needs = [(a.disk, ROUTE_STAGE[a.spot.kind]), (a.card, 1)]
            elif a.card is not None:
                needs = [(a.card, ROUTE_STAGE[a.spot.kind])]
            if any(c in arrival and s.t < (arrival[c] - 1) * per_round + stage for c, stage in needs):
                lm.eq(pm.x[s.t, i], 0)


def _not(lm: LinearModel, term: Term) -> Lit | Expr:
    """1 - e for a 0/1 expression (a literal when possible)."""
    e = Expr.of(term)
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms)).Not()
    return 1 - e


def _as_bool(lm: LinearModel, name: str, term: Term) -> Var | Expr:
    """A 0/1 expression as a variable (or a constant / the variable itself)."""
    e = Expr.of(term)
    if not e.terms:
        return e
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms))
    b = lm.bool(name)
    lm.eq(b, e)
    return b


def _and_mixed(lm: LinearModel, name: str, parts: Iterable[Term]) -> Var | Expr:
    """AND of 0/1 items: variables, literals, constants or 0/1 expressions."""
    lits: list[Lit] = []
    for n, p in enumerate(parts):
        if isinstance(p, Var):
            lits.append(lit(p))
            continue
        if isinstance(p, Lit):
            lits.append(p)
            continue
        e = Expr.of(p)
        if not e.terms:
            if e.const == 0:
                return Expr()
            continue
        if len(e.terms) == 1 and e.const == 1 and next(iter(e.terms.values())) == -1:
            lits.append(next(iter(e.terms)).Not())
        else:
            b = _as_bool(lm, f"{name}#{n}", e)
            assert isinstance(b, Var), "e has terms, so its boolean is a variable"
            lits.append(lit(b))
    if not lits:
        return lm.const(1)
    return lm.and_(name, lits)


def count_path(lm: LinearModel, name: str, items: list[tuple[str, Term]], cap: int) -> dict[str, list[Expr]]:
    """How many earlier items are 1, for 0/1 items in order: ``arcs[key][k]`` is 1 when the item
    is 1 and exactly ``k`` earlier items are (``k < cap``) or at least ``cap`` are (``k = cap``).

    Encoded as one path through the states (items seen, count so far, saturated at ``cap``), the
    count's own dynamic programme: each state is 0/1, each item moves the path up one count or
    leaves it, and the arcs that move it sum to the item. A reified prefix sum (``count >= k``)
    says the same of integers, but its LP relaxation lets a fractional item sit at every
    position at once; here the LP can only mix whole paths, one per way the items can be.
    Measured on the deck suite: the row positions and discards this way (``Options.row_paths``)
    prove the 16-placement suite faster (docs/dev/planner.md)."""
    state: list[Expr] = [lm.const(1)] + [lm.const(0)] * cap
    arcs_of: dict[str, list[Expr]] = {}
    for n, (key, item) in enumerate(items):
        on, fixed = Expr.of(item), _cval(item)
        if fixed == 0:
            arcs_of[key] = [lm.const(0)] * (cap + 1)
            continue
        arcs = []
        for k in range(cap + 1):
            if _cval(state[k]) == 0:
                arcs.append(lm.const(0))
            elif fixed == 1:
                arcs.append(state[k])     # the item is 1: the path moves up from wherever it is
            else:
                arc = lm.bool(f"{name}[{key},{k}]")
                lm.le(arc, state[k])
                arcs.append(Expr.of(arc))
        if fixed != 1:
            lm.eq(total(arcs), on)
        arcs_of[key] = arcs
        after = []
        for k in range(cap + 1):
            stays = state[k] if k == cap else state[k] - arcs[k]
            e = stays + (arcs[k - 1] if k else 0)
            if len(e.terms) > 1 or (e.terms and e.const):   # a state of its own: short rows
                v = lm.bool(f"{name}_state[{n + 1},{k}]")
                lm.eq(v, e)
                e = Expr.of(v)
            after.append(e)
        state = after
    return arcs_of


# --------------------------------------------------------------------------- read a plan back

def decode(pm: PlanModel, values: list[int]) -> list[Action]:
    """The engine actions of a solution (plays first in a slot, then its placement; after a
    round's last placement, the plays and the ``end-turn`` of the turn the engine keeps open:
    :func:`_open_turn_actions`)."""
    puzzle, acts = pm.puzzle, pm.acts
    plan: list[Action] = []
    chosen_bump = rules_for(puzzle.edition).removal_is_chosen()
    for s in pm.slots:
        t = s.t
        if s.index == 0 and s.round > 1:   # the end of the round before's last turn, before Phase 2
            plan += _open_turn_actions(pm, s.round - 1, values)
        if _val(pm.noop[t], values):
            continue
        if s.index == 0:
            plan += [Action(ActionKind.INCOME, resource=r) for (rr, r), v in pm.income.items()
                     if rr == s.round and _val(v, values)]
        for (tt, c), v in sorted(pm.play.items()):
            if tt == t and _val(v, values):
                plan.append(Action(ActionKind.PLAY_CARD, card=c))
        for (tt, r), v in pm.trade.items():
            if tt == t:
                plan += [Action(ActionKind.TRADE, resource=r)] * _val(v, values)
        i = next(i for i in range(len(acts)) if values[pm.x[t, i].index])
        a = acts[i]
        if a.spot is None:
            plan.append(Action(ActionKind.EXHAUST, resource=a.resource))
            continue
        card = a.card
        if a.spot.kind is SpotKind.CARD_ROW:
            card = next(c for (r, j, c), v in pm.at.items() if r == s.round and j == a.spot.slot and _val(v, values))
        bump = None
        if chosen_bump:
            for (tt, c, _A), v in pm.bump_own.items():
                if tt == t and _val(v, values):
                    bump = f"own:{c}"
            for (tt, d), v in pm.bump_opp.items():
                if tt == t and _val(v, values):
                    bump = d
        amount = _val(pm.amount[t], values) if a.spot.kind is SpotKind.FREE_RIBOSOME else None
        extra = any(_val(v, values) for (tt, _r), v in pm.extra.items() if tt == t)
        plan.append(Action(ActionKind.PLACE, spot=a.spot.id, grey=bool(_val(pm.grey[t], values)), card=card,
                           amount=amount, goal=a.goal, bump=bump, disk=a.disk, extra=extra))
    return plan


def _open_turn_actions(pm: PlanModel, round_: int, values: list[int]) -> list[Action]:
    """The actions after round ``round_``'s last placement in the turn the engine keeps open for
    Macromolecule cards (:class:`OpenTurn`): the cards played there (``play_after``), then
    ``end-turn`` if the turn is still open (the engine closes it by itself once the discard pile
    holds two cards or no card is held: :func:`solver.game.rules.macromolecule_cards.played_before_phase_2`)."""
    turn = pm.open_turn.get(round_)
    if turn is None:
        return []
    held = sorted(c for c, e in turn.held.items() if _val(e, values))
    pile, room = _val(turn.pile, values), _val(turn.room, values)
    out = []
    for c in [c for c in held if _val(pm.play_after[round_, c], values)]:
        out.append(Action(ActionKind.PLAY_CARD, card=c))
        held.remove(c)
        pile += 1
    if room and pile <= 1 and held:
        out.append(Action(ActionKind.END_TURN))
    return out


def hint_values(pm: PlanModel, plan: list[Action], consumed: set[int] | None = None) -> dict[Var, int]:
    """Decision-variable values that write ``plan`` into the model's slots, legal or not (an
    illegal plan makes the model infeasible once these values are fixed). Raises
    :class:`SolverError` when the plan does not fit the slots at all. ``consumed``, when given,
    makes ``plan`` a prefix: it receives the slots (``Slot.t``) the plan's actions use, and the
    slots after them are not written as empty. A card played in a turn the engine keeps open after
    the round's last flask is a ``play_after`` of that round, and the ``end-turn`` closing it has
    no variable (the plan is replayed in the engine to tell that turn, as far as it is legal)."""
    puzzle = pm.puzzle
    per_round = {r: [s for s in pm.slots if s.round == r] for r in range(1, puzzle.rounds + 1)}
    pos = {r: 0 for r in per_round}
    out: dict[Var, int] = {}

    def setv(v: Var | Expr, val: int) -> None:
        if isinstance(v, Var):
            out[v] = val
        elif Expr.of(v).const != val:
            raise SolverError(f"hint: the plan needs {val} where the model has the constant {Expr.of(v).const}")

    for v in list(pm.x.values()) + list(pm.play.values()) + list(pm.extra.values()) \
            + list(pm.trade.values()) + list(pm.income.values()) + list(pm.play_after.values()):
        if consumed is None or isinstance(v, Var):   # a prefix leaves later slots' constants alone
            setv(v, 0)
    traded: dict[tuple[int, Resource], int] = {}
    carries_other: dict[str, bool] = {}   # disk -> its Golgi placement took another card's cube
    normals = 0
    state: State | None = initial_state(puzzle)   # the engine's, to tell a turn kept open (None: the plan went illegal)
    for action in plan:
        open_turn = state is not None and state.after_flask and state.flasks_left == 0
        if state is not None:
            state = apply_legal(state, action) if why_illegal(state, action) is None else None
        if open_turn and action.kind is ActionKind.END_TURN:
            continue   # closes the turn the cards played after the round's last placement kept open
        if open_turn and action.kind is ActionKind.PLAY_CARD:
            key = (normals // puzzle.flasks, str(action.card))
            if key not in pm.play_after:
                raise SolverError(f"hint: no model variable to play {action.card} after round {key[0]}'s last placement")
            setv(pm.play_after[key], 1)
            continue
        r = normals // puzzle.flasks + 1
        if r > puzzle.rounds or pos[r] >= len(per_round[r]):
            raise SolverError(f"hint: {action} does not fit in the model's slots")
        s = per_round[r][pos[r]]
        if action.kind is ActionKind.INCOME:
            if (r, action.resource) not in pm.income or pos[r]:
                raise SolverError(f"hint: no model variable for {action} at this point")
            assert action.resource is not None, "a key of pm.income"
            setv(pm.income[r, action.resource], 1)
            continue
        if action.kind is ActionKind.TRADE:
            if (s.t, action.resource) not in pm.trade:
                raise SolverError(f"hint: no model variable for {action}")
            assert action.resource is not None, "a key of pm.trade"
            traded[s.t, action.resource] = traded.get((s.t, action.resource), 0) + 1
            setv(pm.trade[s.t, action.resource], traded[s.t, action.resource])
            continue
        if action.kind in (ActionKind.PEEK, ActionKind.END_TURN):
            raise SolverError(f"hint: the model has no deck reordering for {action}")
        if action.kind is ActionKind.PLAY_CARD:
            if (s.t, action.card) not in pm.play:
                raise SolverError(f"hint: no model variable to play {action.card}")
            assert action.card is not None, "a key of pm.play"
            setv(pm.play[s.t, action.card], 1)
            continue
        for i, a in enumerate(pm.acts):
            if action.kind is ActionKind.EXHAUST:
                match = a.spot is None and a.resource is action.resource
            else:
                match = (a.spot is not None and a.spot.id == action.spot and a.goal == action.goal
                         and a.disk == action.disk
                         and (a.card == action.card or a.spot.kind is SpotKind.CARD_ROW)
                         and a.other_cube == (a.spot.kind is SpotKind.EXOCYTOSIS
                                              and carries_other.get(a.disk_card or "", False)))
            if match:
                if a.spot is not None and a.spot.kind is SpotKind.GOLGI and a.disk_card is not None:
                    carries_other[a.disk_card] = a.disk is not None
                setv(pm.x[s.t, i], 1)
                break
        else:
            raise SolverError(f"hint: no model action for {action}")
        setv(pm.grey[s.t], int(action.grey))
        setv(pm.noop[s.t], 0)
        if action.extra:
            assert action.spot is not None, "extra is a placement's (why_illegal)"
            spot = puzzle.board.spot(action.spot)
            key = (s.t, epigenetic.extra_resource(spot))
            if key not in pm.extra:
                raise SolverError(f"hint: no model variable for the extra cube of {action}")
            setv(pm.extra[key], 1)
        if action.kind is ActionKind.PLACE and action.amount is None and action.spot is not None and \
                puzzle.board.spot(action.spot).kind is SpotKind.FREE_RIBOSOME:
            raise SolverError(f"hint: {action} names no amount of mRNA")
        if s.t in pm.amount:
            setv(pm.amount[s.t], action.amount or 0)
        elif action.amount is not None:
            raise SolverError(f"hint: {action} has an amount the model cannot hold")
        pos[r] += 1
        if not action.grey:
            normals += 1
    if consumed is not None:    # a prefix: the slots after it stay free
        consumed.update(s.t for r, rs in per_round.items() for s in rs[:pos[r]])
        return out
    for r, rs in per_round.items():
        for s in rs[pos[r]:]:
            setv(pm.noop[s.t], 1)
            setv(pm.grey[s.t], 0)
    return out


def prefix_values(pm: PlanModel, prefix: list[Action]) -> dict[Var, int]:
    """The decision-variable values that ``prefix`` (a legal start of a plan ending with a flask
    placement or an exhausted flask, so on a slot boundary) writes into the slots it uses; every
    later slot, and the income of every round it has not reached, are left free. Fixing them gives
    the model of "the best plan starting with ``prefix``". Raises :class:`SolverError` when the
    prefix does not end on a slot boundary or does not fit the model."""
    if not prefix or not prefix[-1].kind.is_flask:
        raise SolverError("prefix: expected a start of a plan ending with a flask placement")
    used: set[int] = set()
    full = hint_values(pm, prefix, consumed=used)
    rounds = {s.round for s in pm.slots if s.t in used}

    def owned(key: object, by_round: bool = False) -> bool:
        head = key[0] if isinstance(key, tuple) else key
        return head in rounds if by_round else head in used

    keep: set[Var] = set()
    for table in (pm.x, pm.grey, pm.noop, pm.amount, pm.play, pm.extra, pm.trade):
        keep.update(v for k, v in table.items() if owned(k) and isinstance(v, Var))
    keep.update(v for k, v in pm.income.items() if owned(k, by_round=True) and isinstance(v, Var))
    # the plays after round r's last placement are the prefix's once it has gone on into round r + 1
    keep.update(v for (r, _c), v in pm.play_after.items() if r + 1 in rounds)
    return {v: value for v, value in full.items() if v in keep}


# --------------------------------------------------------------------------- solve

@dataclass
class PlannerResult:
    """What one engine answers on the abstract model (before the rules engine replays it)."""

    status: str
    """``optimal`` (proven), ``feasible`` (a plan, not proven), ``infeasible``, ``unknown`` (no plan in time)."""
    plan: list[Action]
    objective: int | None
    bound: int | None
    wall_time: float
    engine: str
    stats: dict[str, int] = field(default_factory=dict)


Progress = Callable[[int | None, int, float], None]
"""``progress(objective, bound, seconds)``: an improving plan's objective (None: a better bound only)."""

TWO_WORKERS = ("max_lp", "quick_restart")
"""The two full subsolvers of a 2-worker run (``/work/shared/notes/cp-sat-planning.md``)."""
TWO_WORKERS_MARKET = ("max_lp", "pseudo_costs")
"""The pair measured best on puzzles with a deck (``python -m solver bench --deck``)."""


def subsolvers_for(puzzle: Puzzle) -> tuple[str, ...]:
    """The full subsolvers of a multi-worker run on ``puzzle``: the market pair with a deck."""
    return TWO_WORKERS_MARKET if puzzle.deck else TWO_WORKERS


def cpsat_parameters(workers: int = 1, seed: int = 0, time_limit: float | None = None,
                     deterministic_time: float | None = None,
                     subsolvers: tuple[str, ...] = TWO_WORKERS) -> cp_model.CpSolver:
    """The measured settings (``/work/shared/notes/cp-sat-planning.md``); ``subsolvers``: the full
    subsolvers of a multi-worker run."""
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.random_seed = seed
    p.num_workers = workers
    if workers == 1:
        p.linearization_level = 2
    else:
        p.num_full_subsolvers = workers
        p.subsolvers.extend(subsolvers[:workers])
    p.presolve_inclusion_work_limit = 0        # ortools #5293 workaround
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    if deterministic_time is not None:
        p.max_deterministic_time = deterministic_time
    return solver


class SearchStop:
    """Stops CP-SAT runs from another thread (the proof and the neighbourhood search of
    :mod:`.portfolio` run side by side): :meth:`stop` ends the run in progress and every later one
    given this handle before it starts. Thread-safe."""

    def __init__(self) -> None:
        import threading
        self._lock = threading.Lock()
        self._solver: cp_model.CpSolver | None = None
        self._stopped = False

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._solver is not None:
                self._solver.stop_search()

    def attach(self, solver: cp_model.CpSolver | None) -> bool:
        """Make ``solver`` the run :meth:`stop` ends (None: the run is over). False when stopped
        already: the run is not to start."""
        with self._lock:
            self._solver = solver
            return not self._stopped


def solve_cpsat(pm: PlanModel, *, workers: int = 1, seed: int = 0, time_limit: float | None = None,
                deterministic_time: float | None = None, progress: Progress | None = None,
                hint: list[Action] | None = None, hinted: dict[Var, int] | None = None,
                fix_hint: bool = False, subsolvers: tuple[str, ...] = TWO_WORKERS,
                fixed: dict[Var, int] | None = None, held: dict[Var, int] | None = None,
                stop: SearchStop | None = None,
                converted: tuple[cp_model.CpModel, list[cp_model.IntVar]] | None = None,
                completions_cap: bool = False) -> PlannerResult:
    """Run CP-SAT on ``pm``. ``progress(objective, bound, seconds)`` is called on each improving
    plan and each better bound. ``hint``: a plan to start from (``fix_hint``: the only plan
    allowed), or ``hinted``: its variable values (:func:`hint_values`) when the caller has them;
    ``fixed``: variable values to hold (:func:`prefix_values`), the rest free; ``held``:
    variable values to hold beside a ``hint`` (this run only: ``pm`` is left as it was, so one
    model serves many runs); ``stop``: a handle another thread may end the run with (it then
    answers like a run out of time); ``converted``: ``pm``'s CP-SAT model made once
    (:func:`to_cpsat_model`, without hints), copied for this run instead of converting again;
    ``completions_cap``: the completions cap of :func:`solver.optimise.caps.add_completions_cap`
    in this run's CP-SAT model (not in ``pm``: a MIP engine confirming the optimum solves the
    model without it)."""
    from ortools.sat.python import cp_model
    lm = pm.lm
    if fixed is not None:
        lm.hints, fix_hint = dict(fixed), True
    elif hinted is not None:
        lm.hints = dict(hinted)
    else:
        lm.hints = hint_values(pm, hint) if hint is not None else {}
    if converted is None:
        cp, xs = to_cpsat_model(lm)
    else:
        cp, xs = converted[0].clone(), converted[1]
        for var, value in lm.hints.items():
            cp.add_hint(xs[var.index], value)
    if completions_cap:
        from .caps import add_completions_cap
        add_completions_cap(pm, cp, xs)
    for var, value in (held or {}).items():
        domain = cp.proto.variables[var.index].domain
        domain.clear()
        domain.extend([value, value])
    solver = cpsat_parameters(workers, seed, time_limit, deterministic_time, subsolvers)
    if fix_hint:
        solver.parameters.fix_variables_to_their_hinted_value = True
    start = time.perf_counter()
    if stop is not None and not stop.attach(solver):
        return PlannerResult("unknown", [], None, None, 0.0, "cpsat", {})
    # the bounds CP-SAT proved during this run: a run stopped (out of time, or by ``stop``) before
    # its search began answers UNKNOWN with a best bound of 0, which is no proof of anything
    proven_bounds: list[float] = []

    def on_bound(b: float) -> None:
        proven_bounds.append(b)
        if progress is not None:
            progress(None, int(round(b)), time.perf_counter() - start)
    solver.best_bound_callback = on_bound
    try:
        if progress is not None:
            report = progress   # narrowed to a callable, for the solution callback below

            class _CB(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    report(int(round(self.objective_value)), int(round(self.best_objective_bound)),
                           time.perf_counter() - start)
            status = solver.solve(cp, _CB())
        else:
            status = solver.solve(cp)
    finally:
        if stop is not None:
            stop.attach(None)
    wall = time.perf_counter() - start
    stats = {"branches": solver.num_branches, "conflicts": solver.num_conflicts,
             "variables": len(lm.vars), "constraints": len(lm.constraints)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [int(solver.value(v)) for v in xs]
        return PlannerResult("optimal" if status == cp_model.OPTIMAL else "feasible", decode(pm, values),
                             int(round(solver.objective_value)), int(round(solver.best_objective_bound)),
                             wall, "cpsat", stats)
    if status == cp_model.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, "cpsat", stats)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT: invalid model: {cp.validate()}")
    # stopped before any plan: the last bound the search reported still holds (a whole game's
    # recorded run keeps it: its plan comes from the warm start); the response's own best bound
    # is not read, being 0 when the search never began
    bound = proven_bounds[-1] if proven_bounds else math.inf
    return PlannerResult("unknown", [], None, int(math.floor(bound + 1e-6)) if math.isfinite(bound) else None,
                         wall, "cpsat", stats)


def to_cpsat_model(lm: LinearModel) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    from .linear import to_cpsat
    return to_cpsat(lm)


MIP_BACKENDS = {"highs": "HIGHS", "scip": "SCIP"}
"""The MIP solvers the abstract model can go to (both shipped in the OR-Tools wheel)."""


def solve_highs(pm: PlanModel, *, time_limit: float | None = None) -> PlannerResult:
    """Solve the same abstract model as a MIP with HiGHS."""
    return solve_mip(pm, "highs", time_limit=time_limit)


def solve_mip(pm: PlanModel, engine: str = "highs", *, time_limit: float | None = None) -> PlannerResult:
    """Solve the abstract model as a MIP with ``engine`` (:data:`MIP_BACKENDS`), one thread."""
    from ortools.linear_solver import pywraplp
    from .linear import to_mip
    mip, xs = to_mip(pm.lm, MIP_BACKENDS[engine])
    if engine == "highs":
        mip.SetSolverSpecificParametersAsString("output_flag=false\nlog_to_console=false\n")  # no banner on stdout
    mip.SetNumThreads(1)
    if time_limit is not None:
        mip.SetTimeLimit(int(time_limit * 1000))
    start = time.perf_counter()
    status = mip.Solve()
    wall = time.perf_counter() - start
    if status == pywraplp.Solver.OPTIMAL:
        values = [int(round(v.solution_value())) for v in xs]
        obj = int(round(mip.Objective().Value()))
        return PlannerResult("optimal", decode(pm, values), obj, obj, wall, engine)
    if status == pywraplp.Solver.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, engine)
    if status == pywraplp.Solver.FEASIBLE:
        values = [int(round(v.solution_value())) for v in xs]
        return PlannerResult("feasible", decode(pm, values), int(round(mip.Objective().Value())),
                             int(math.floor(mip.Objective().BestBound() + 1e-6)), wall, engine)
    return PlannerResult("unknown", [], None, None, wall, engine)


# --------------------------------------------------------------------------- why no plan

def explain_infeasible(puzzle: Puzzle, time_limit: float = 10.0) -> str | None:
    """Why no complete legal sequence exists, when it can be told: the first round that cannot be
    played with all its flasks, and what blocks it (gameplay.phase-1)."""
    import dataclasses
    for k in range(1, puzzle.rounds + 1):
        prefix = dataclasses.replace(puzzle, rounds=k)
        res = solve_cpsat(build_model(prefix), time_limit=time_limit)
        if res.status == "unknown":
            return None
        if res.status != "infeasible":
            continue
        occ = set(puzzle.occupied_in(k))
        free = [sp.id for sp in puzzle.board.spots if sp.id not in occ]
        rules = rules_for(puzzle.edition)
        why = (f"no legal sequence: round {k} cannot be played with all {puzzle.flasks} flask(s) "
               f"({len(free)} spot(s) free")
        if not rules.exhaust_allowed():
            why += "; exhausting a flask is a 2e rule, not available in 1e"
        why += "; every other placement needs resources or cards the plan cannot have by then)"
        return why
    return None
