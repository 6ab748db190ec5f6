"""What the constraint families of one :func:`~solver.optimise.model.build.build_model` call share
(:class:`BuildContext`), and the slot grid and reachable cards it starts from (:func:`new_context`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from solver.encoding.acts import Act
from solver.encoding.linear import Expr, LinearModel, Var, total
from solver.game.editions import Rules, rules_for
from solver.game.engine import State, initial_state
from solver.game.model import Boost, Card, CardType, Puzzle, Resource, Route, SpotKind, VesicleArea
from solver.game.rules import epigenetic, golgi, reshuffle
from solver.optimise.model.market import market_queue
from solver.optimise.model.plan_model import Options, PlanModel, Slot

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
            and spot_kind(a) in (SpotKind.ROUGH_ER, SpotKind.DETOX_STEROID)

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


def spot_kind(a: Act) -> SpotKind | None:
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
