"""The Cytosis rules engine: the single source of truth for the rules.

A fixed small API in the style of OpenSpiel: :func:`initial_state`, :func:`legal_actions`,
:func:`apply`, :func:`is_terminal`, :func:`returns` (plus :func:`score` for the breakdown).
States are immutable; :func:`apply` is the one entry point that changes anything and raises
:class:`~solver.game.errors.IllegalActionError` saying why when the rules refuse an action.

The puzzle is a single-player view of a game: other players are fixed figures (spots they take
each round, their disks on the board, their detox results, hormones they complete).
Section IDs refer to ``data/rules/cytosis/game.yaml``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import permutations
from typing import Any, TypeVar, assert_never

from .editions import Rules, rules_for
from .errors import IllegalActionError
from .rules import disk_load, epigenetic, free_ribosome, golgi, macromolecule_cards, reshuffle, virus
from .model import (
    RECEPTOR_OF, ZERO, Card, CardType, EventKind, Goal, OpponentDisk, Puzzle, Resource, Ruling, Spot,
    SpotKind, Stock, Strain, VesicleArea, event_kind, event_strain,
)

_T = TypeVar("_T")

ActionKey = tuple[str | int | bool | tuple[str, ...], ...]
"""What :meth:`Action.key` returns: a sort key made of the action's fields."""

GREY_FLASK_COST = epigenetic.GREY_FLASK_COST
"""ATP paid for a grey flask (``gameplay.grey-flasks``; 3 with the Epigenetic card
``cheap-grey-flask``: :func:`solver.game.rules.epigenetic.grey_flask_cost`)."""
DISKS = 2
"""Transport Vesicle Disks per player (``gameplay.round``: setup table)."""
FIRST_GOAL_MARKER_BONUS = 3
"""Health Points for the first marker on a goal card (``spots.laureates``, ``cards.goals``)."""
MAX_MARKERS_PER_GOAL = 2
"""Goal markers a goal card holds (``cards.goals``)."""
DETOX_HEALTH = 1
"""Health Points for completing a detox card (``cards.detox``)."""
RECEPTOR_OWN_BONUS = 1
"""Per own receptor when you complete the matching hormone (``cards.receptors``)."""
RECEPTOR_OTHER_BONUS = 2
"""Per own receptor when another player completes the matching hormone (``cards.receptors``)."""
MACROMOLECULE_SET = {"mrna": 4, "lipid": 4, "protein": 3, "carb": 2}
"""End-game: 1 point per set of this many cubes (``scoring.macromolecules``)."""
ENZYME_SET_POINTS = {0: 0, 1: 0, 2: 2, 3: 5, 4: 9, 5: 14}
"""End-game points per set of distinct enzyme colours (``scoring.enzyme-sets``)."""
TOXICITY_STEPS = ((10, 4), (7, 2), (5, 1))
"""Toxicity: owning at least N of a macromolecule loses this many (``events.toxicity``)."""
EXHAUST_RESOURCES = (Resource.MRNA, Resource.LIPID, Resource.ATP)
"""What an exhausted flask can give (``gameplay.exhaust-flask``)."""


class ActionKind(Enum):
    """What an action does."""

    PLACE = "place"
    """Place a flask (normal or grey) on a spot and take its action (``gameplay.phase-1``)."""
    EXHAUST = "exhaust"
    """Tip a flask over for one resource (2e, ``gameplay.exhaust-flask``)."""
    PLAY_CARD = "play-card"
    """Play a Macromolecule card from hand (``cards.macromolecule``)."""
    TRADE = "trade"
    """Trade ATP for one lipid, mRNA or carbohydrate (Epigenetic card, ``epigenetic.atp-exchange``)."""
    INCOME = "income"
    """Take the round's 1 ATP, mRNA or lipid (Epigenetic card, ``epigenetic.round-income``)."""
    PEEK = "peek"
    """Look at the deck's top cards, maybe take one, put the rest back in any order (Epigenetic
    card, ``epigenetic.peek-deck``), before or after the turn's flask."""
    END_TURN = "end-turn"
    """End a turn kept open after its flask: for the look at the deck that could still follow
    (Epigenetic card, ``epigenetic.peek-deck``: see :func:`solver.game.rules.epigenetic.look_may_follow`),
    or for Macromolecule cards before a Virus attack that strikes before the player's next turn or
    before a Phase 2 refill the discard pile decides (``cards.macromolecule``: see
    :func:`solver.game.rules.macromolecule_cards.played_before_phase_2`)."""
    VACCINATE = "vaccinate"
    """Virus attack: pay ``amount`` ATP for 2 antibodies each of the attacking strain (0: decline)
    (``virus.event-attack``, ``virus.card-attack``)."""
    RESPOND = "respond"
    """Virus attack: take the place's gain (``take``) or loss (``lose``) (``virus.allocation``)."""

    @property
    def rule_sections(self) -> tuple[str, ...]:
        return {ActionKind.PLACE: ("gameplay.phase-1",), ActionKind.EXHAUST: ("gameplay.exhaust-flask",),
                ActionKind.PLAY_CARD: ("cards.macromolecule",), ActionKind.TRADE: ("epigenetic.atp-exchange",),
                ActionKind.INCOME: ("epigenetic.round-income",), ActionKind.PEEK: ("epigenetic.peek-deck",),
                ActionKind.END_TURN: ("epigenetic.cards", "epigenetic.peek-deck", "cards.macromolecule"),
                ActionKind.VACCINATE: ("virus.event-attack", "virus.card-attack"),
                ActionKind.RESPOND: ("virus.allocation",)}[self]

    @property
    def is_flask(self) -> bool:
        """A placement or an exhausted flask is the turn's flask; the others happen during a turn
        (a turn kept open after its flask ends with ``end-turn``)."""
        return self in (ActionKind.PLACE, ActionKind.EXHAUST)


@dataclass(frozen=True)
class Action:
    """One decision of the player. Enumerable: see :func:`all_actions`."""

    kind: ActionKind
    """Place, exhaust or play a card."""
    spot: str | None = None
    """PLACE: the spot id."""
    grey: bool = False
    """PLACE: with a grey flask (pay 4 ATP, any spot even if taken, before the turn's flask)."""
    card: str | None = None
    """The card the action is for (ER, Golgi, exocytosis, detox, enzyme, card row, play)."""
    amount: int | None = None
    """Free Ribosome: how many mRNA are translated."""
    resource: Resource | None = None
    """EXHAUST: the resource taken."""
    goal: str | None = None
    """Laureates: goal card for a marker (None: take 1 ATP instead)."""
    bump: str | None = None
    """1e full area: the disk removed (``opp1``… or ``own:<card>``)."""
    disk: str | None = None
    """Exocytosis: the disk whose cubes complete ``card``, named by the card it was started for
    in the ER (None: the disk started for ``card``). See :func:`disk_may_complete`."""
    extra: bool = False
    """PLACE on a numbered collection spot: collect one more (Epigenetic card
    ``extra-resource``)."""
    order: tuple[str, ...] | None = None
    """PEEK: the cards put back on the deck, top first (``card``: the one taken, if any)."""
    take: tuple[Resource, ...] | None = None
    """RESPOND: the resources gained (ATP, mRNA, lipids)."""
    lose: str | None = None
    """RESPOND: the resource lost, or ``health`` for 1 Health Point."""

    def key(self) -> ActionKey:
        """A total order of actions (the engine's fixed action order)."""
        return (self.kind.value, self.spot or "", self.grey, self.card or "",
                -1 if self.amount is None else self.amount,
                self.resource.value if self.resource else "", self.goal or "", self.bump or "", self.disk or "",
                self.extra, self.order or (), tuple(r.value for r in self.take or ()), self.lose or "")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        for name in ("spot", "card", "amount", "goal", "bump", "disk"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.grey:
            out["grey"] = True
        if self.extra:
            out["extra"] = True
        if self.order is not None:
            out["order"] = list(self.order)
        if self.take is not None:
            out["take"] = [r.value for r in self.take]
        if self.lose is not None:
            out["lose"] = self.lose
        if self.resource is not None:
            out["resource"] = self.resource.value
        return out

    @staticmethod
    def from_dict(data: object) -> "Action":
        """Inverse of :meth:`to_dict`; raises ValueError/KeyError/TypeError on bad input."""
        if not isinstance(data, dict):
            raise TypeError(f"expected an object, got {data!r}")
        unknown = set(data) - {"kind", "spot", "grey", "card", "amount", "resource", "goal", "bump", "disk",
                               "extra", "order", "take", "lose"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)}")
        kind = ActionKind(data.get("kind", "place"))
        amount = data.get("amount")
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
            raise ValueError(f"amount: expected an integer, got {amount!r}")
        order = data.get("order")
        if order is not None and (not isinstance(order, list) or not all(isinstance(c, str) for c in order)):
            raise ValueError(f"order: expected a list of card ids, got {order!r}")
        return Action(kind=kind, spot=data.get("spot"), grey=bool(data.get("grey", False)),
                      card=data.get("card"), amount=amount,
                      resource=Resource(data["resource"]) if data.get("resource") is not None else None,
                      goal=data.get("goal"), bump=data.get("bump"), disk=data.get("disk"),
                      extra=bool(data.get("extra", False)), order=tuple(order) if order is not None else None,
                      take=tuple(Resource(r) for r in data["take"]) if data.get("take") is not None else None,
                      lose=data.get("lose"))

    def __str__(self) -> str:
        d = self.to_dict()
        kind: str = d.pop("kind")
        return kind + "(" + ", ".join(f"{k}={v}" for k, v in d.items()) + ")"

    @property
    def rule_sections(self) -> tuple[str, ...]:
        """Section IDs to link this action to (needs the spot kind: see :func:`action_sections`)."""
        return self.kind.rule_sections


@dataclass(frozen=True)
class Disk:
    """One of the player's Transport Vesicle Disks on the board."""

    area: VesicleArea
    """Where it sits."""
    card: str = ""
    """The card it is carrying cubes for."""
    load: Stock = ZERO
    """Cubes on it."""

    def sort_key(self) -> tuple[str, str]:
        return (self.card, self.area.value)


@dataclass(frozen=True)
class State:
    """Everything that can change during a puzzle. Immutable and hashable (the puzzle is
    attached but ignored by ``==`` and ``hash``)."""

    round: int
    """Current round, 1-based (``gameplay.round``)."""
    flasks_left: int
    """The player's flasks not yet placed (or exhausted) this round."""
    grey_left: int
    """Grey flasks in the Grey Flask Area (``gameplay.grey-flasks``)."""
    grey_this_turn: bool
    """A grey flask was already placed this turn (one per turn)."""
    stock: Stock
    """Personal stock."""
    health: int
    """Health Points so far (before end-game scoring)."""
    placed: tuple[str, ...]
    """Spots holding a flask this round (any colour, grey included), sorted, with repeats."""
    disks: tuple[Disk, ...]
    """The player's disks on the board; the others (``DISKS - len``) are in supply."""
    opp_disks: tuple[OpponentDisk, ...]
    """Other players' disks still on budding locations."""
    hand: tuple[str, ...]
    """Cards in hand (sorted)."""
    row: tuple[str | None, ...]
    """Card row, left to right."""
    deck: tuple[str, ...]
    """Deck, top first."""
    discard: tuple[str, ...]
    """Cell Component discard pile (Phase 2 discards and played Macromolecule cards)."""
    completed: tuple[str, ...]
    """Completed cards (sorted)."""
    goal_markers: tuple[str, ...]
    """Goal cards holding one of the player's markers (sorted)."""
    goal_counts: tuple[tuple[str, int], ...]
    """Markers (all players) on each goal card."""
    first_player: bool
    """Holds the First Player Marker."""
    boosts: tuple[tuple[str, Stock], ...]
    """Boost resources waiting on the board, by boost event id (``events.boost``)."""
    event: str | None
    """The active event card."""
    done: bool = False
    """The last round is over: only scoring remains."""
    taken: tuple[str, ...] = ()
    """Cards other players bought from the row (their flasks on card-row slots), sorted."""
    grey_spots: tuple[str, ...] = ()
    """Spots holding the player's grey flasks this round, sorted (``two-player.gameplay``)."""
    leads_round: bool = False
    """The player held the First Player Marker when this round began, so is first in its turn
    order (``gameplay.phase-1``, ``spots.laureates``); the 2e full-area tie-break reads it."""
    income_due: bool = False
    """The round's Epigenetic income is still to take (``epigenetic.round-income``): from the
    round's start until it is taken or the round's first flask is placed."""
    peeked: bool = False
    """The Epigenetic card ``peek-deck`` was used this turn (once a turn)."""
    after_flask: bool = False
    """The turn's flask is placed but the turn is still open, maybe after a Virus attack the flask
    started: the look at the deck of the Epigenetic card ``peek-deck`` can still follow, "durante
    il suo turno" (``epigenetic.cards``), or, after the round's last flask, Macromolecule cards
    held can be played before a Virus attack that strikes before the player's next turn, or
    before a Phase 2 refill that one more card in the discard pile would change
    (``cards.macromolecule``). The look, the last card or ``end-turn`` closes the turn
    (:func:`_after_the_flask`). Never set otherwise."""
    end_trade: Stock = ZERO
    """Cubes the Epigenetic card ``atp-exchange`` bought with the ATP left at the end of the game."""
    antibodies: tuple[int, int, int] = (0, 0, 0)
    """Virus expansion: the player's antibodies per :class:`~solver.game.model.Strain`."""
    attacks: tuple[tuple[Strain, str, str], ...] = ()
    """Virus attacks waiting, first to resolve first: (strain, source, stage); the source is
    ``round-N`` or the Virus Attack card, the stage one of :mod:`solver.game.rules.virus`'s."""
    toxicity_loss: Stock = field(default=ZERO, compare=False, repr=False)
    """What the last Phase 2's Toxicity took (step texts tell it apart from the step's own
    payment; not part of the state's identity)."""
    random_reshuffle_round: int = 0
    """The round whose Phase 2 first found the deck used up with a discard pile of two or more
    cards: their reshuffle is random, not modelled, and the open slots stayed empty from then on
    (:mod:`solver.game.rules.reshuffle`); 0: never. Part of the state so a replay can say so."""
    virus_card_loss: int = field(default=0, compare=False, repr=False)
    """Health lost at the current round's start to Virus Attack cards other players bought (step
    texts; not part of the state's identity)."""
    puzzle: Puzzle = field(kw_only=True, compare=False, repr=False)
    """The puzzle being played (not part of the state's identity; :func:`initial_state` attaches
    it, every later state inherits it)."""

    @property
    def disks_in_supply(self) -> int:
        return DISKS - len(self.disks)

    def disk_for(self, card: str) -> Disk | None:
        for d in self.disks:
            if d.card == card:
                return d
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly snapshot (golden files, CLI ``--json``)."""
        return {
            "round": self.round, "flasks_left": self.flasks_left, "grey_left": self.grey_left,
            "stock": self.stock.as_dict(), "health": self.health, "placed": list(self.placed),
            "disks": [{"area": d.area.value, "card": d.card, "load": d.load.as_dict(nonzero=True)} for d in self.disks],
            "opponent_disks": [d.id for d in self.opp_disks], "hand": list(self.hand),
            "row": list(self.row), "deck": list(self.deck), "discard": list(self.discard),
            "completed": list(self.completed), "goal_markers": list(self.goal_markers),
            "first_player": self.first_player,
            "boosts": {k: v.as_dict(nonzero=True) for k, v in self.boosts}, "event": self.event,
            "done": self.done,
            **({"taken_by_others": list(self.taken)} if self.taken else {}),
            **({"income_due": True} if self.income_due else {}),
            **({"peeked": True} if self.peeked else {}),
            **({"after_flask": True} if self.after_flask else {}),
            **({"antibodies": dict(zip((s.value for s in Strain), self.antibodies))} if any(self.antibodies) else {}),
            **({"attacks": [[a[0].value, a[1], a[2]] for a in self.attacks]} if self.attacks else {}),
            **({"random_reshuffle_not_modelled": reshuffle.not_modelled_note(self.random_reshuffle_round, len(self.discard))}
               if self.random_reshuffle_round else {}),
        }


# --------------------------------------------------------------------------- helpers

def _r(obj: _T, **changes: object) -> _T:
    """``dataclasses.replace`` without re-running ``__init__`` (the engine's hot path)."""
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


def _rules(state: State) -> Rules:
    return rules_for(state.puzzle.edition)


def _card(state: State, card_id: str | None) -> Card | None:
    if card_id is None:
        return None
    try:
        return state.puzzle.card(card_id)
    except KeyError:
        return None


def _spot(state: State, spot_id: str | None) -> Spot | None:
    if spot_id is None:
        return None
    try:
        return state.puzzle.board.spot(spot_id)
    except KeyError:
        return None


def _sorted(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(items))


def _remove_one(items: tuple[_T, ...], item: _T) -> tuple[_T, ...]:
    lst = list(items)
    lst.remove(item)
    return tuple(lst)


def _reduce_active(state: State) -> bool:
    return state.event is not None and event_kind(state.event) is EventKind.REDUCE_ATP_COST


def ribosome_min_amount(puzzle: Puzzle) -> int:
    """Fewest mRNA a Free Ribosome placement translates: 0 in 1e ("possono scambiare qualsiasi
    numero"), 1 in 2e unless the ruling ``free-ribosome-zero`` reads ``zero-allowed``
    (``spots.free-ribosome``; the edition object decides)."""
    return free_ribosome.min_amount(puzzle)


def disk_may_complete(puzzle: Puzzle, disk_card: str, card: str) -> bool:
    """May the disk started for ``disk_card`` complete ``card`` at Exocytosis, cubes allowing?
    Under the ruling ``disk-card: at-exocytosis`` (default) any hormone or receptor card: the
    card is named where the rulebook reveals it, at Exocytosis ("Place the Cell Component Card
    they are completing face up", "Rivelare la Carta Componente Cellula che stanno
    completando"), and the disk "must have at least the number of macromolecules required ...
    but may have more" (``spots.completing-cards``). Under ``at-er`` only ``disk_card``."""
    if disk_card == card:
        return True
    return puzzle.reading(Ruling.DISK_CARD) == "at-exocytosis"


def row_price(state: State, spot: Spot) -> int:
    """ATP to buy the card under ``spot``: the printed price, 1 less under Reduce ATP Cost
    (``spots.card-row``, ``events.reduce-atp-cost``), nothing with the Epigenetic card
    ``free-card``."""
    return epigenetic.row_price(state.puzzle, max(0, spot.value - (1 if _reduce_active(state) else 0)))


def _claim_boosts(state: State, spot: Spot) -> State:
    """The first flask on any spot of a boosted area takes the waiting resources
    (``spots.event-resources``, ``events.boost``). Returns the state with them in stock."""
    board = state.puzzle.board
    gained, kept = ZERO, []
    for event, res in state.boosts:
        boost = board.boost(event)
        if boost is not None and spot.area in boost.areas:
            gained = gained + res
        else:
            kept.append((event, res))
    if gained.is_zero():
        return state
    return _r(state, stock=state.stock + gained, boosts=tuple(kept))


# --------------------------------------------------------------------------- vesicle areas

def turn_position(puzzle: Puzzle, seat: int, leads_round: bool, round_: int = 1) -> int:
    """0-based place of ``seat`` in the turn order of round ``round_``. "Every round, the player
    holding the First Player Marker will be the first player to take their turn, then play
    continues clockwise" (``gameplay.phase-1``): the order starts at the player's seat when they
    hold the marker at the round's start (``leads_round``), else at the seat of the other player
    holding it (:meth:`solver.game.model.Puzzle.other_marker_seat`), and goes on clockwise."""
    seats = max([puzzle.players, puzzle.seat] + [d.seat for d in puzzle.opponent_disks])
    first = puzzle.seat if leads_round else puzzle.other_marker_seat(round_)
    return (seat - first) % seats


def _area_disks(state: State, area: VesicleArea) -> list[tuple[str, int, int]]:
    """(id, owner health, owner's place in this round's turn order) of every disk in ``area``."""
    puzzle = state.puzzle
    own = turn_position(puzzle, puzzle.seat, state.leads_round, state.round)
    out = [(f"own:{d.card}", state.health, own) for d in state.disks if d.area is area]
    out += [(d.id, d.health, turn_position(puzzle, d.seat, state.leads_round, state.round))
            for d in state.opp_disks if d.area is area]
    return out


def _leads_next_round(state: State) -> bool:
    """Whether the player holds the First Player Marker when the next round begins: they took it
    this round (a flask of theirs, grey included, on Laureates in Biology; other players' flasks
    are placed first, so the player's is the later claim), or held it and no other player took
    it ("keep it for all subsequent rounds until it is claimed by another player",
    ``spots.laureates``)."""
    puzzle = state.puzzle
    board = puzzle.board
    laureates = [p for p in state.placed if board.spot(p).kind is SpotKind.LAUREATES]
    occupied = puzzle.occupied_in(state.round)
    others = [p for p in occupied if board.spot(p).kind is SpotKind.LAUREATES]
    if len(laureates) > len(others):
        return True
    return state.leads_round and not others


def area_full(state: State, area: VesicleArea) -> bool:
    """All Budding Transport Vesicle Locations of ``area`` are taken (``spots.golgi``)."""
    return len(_area_disks(state, area)) >= state.puzzle.board.vesicle_count(area)


def removal_candidates(state: State, area: VesicleArea) -> tuple[str, ...]:
    """Disks that may leave a full area: all of them in 1e (the active player chooses), the
    one of the player highest on the Health Track in 2e (ties: "the player earliest in turn
    order", this round's order from the First Player Marker, :func:`turn_position`; two own
    disks: the first by card id) (``spots.golgi``)."""
    disks = _area_disks(state, area)
    if _rules(state).removal_is_chosen():
        return tuple(sorted(d[0] for d in disks))
    best = max(disks, key=lambda d: (d[1], -d[2], [-ord(c) for c in d[0]]))
    return (best[0],)


def removed_cubes_return(puzzle: Puzzle) -> bool:
    """Do the cubes of an own disk removed from a full area come back to the player's stock? 2e
    "returned to the player who owns it along with all macromolecules on it"; 1e by the ruling
    ``removed-disk-cubes`` (``returned``, default, or ``to-supply``) (``spots.golgi``)."""
    return puzzle.reading(Ruling.REMOVED_DISK_CUBES) == "returned"


def _remove_disk(state: State, disk_id: str) -> State:
    """Take a disk off the board: own disks come back, with their cubes into stock unless the 1e
    ruling ``removed-disk-cubes: to-supply`` sends them to the general supply (``spots.golgi``);
    another player's disk simply leaves the board."""
    if disk_id.startswith("own:"):
        disk = state.disk_for(disk_id[4:])
        assert disk is not None, f"{disk_id} is one of removal_candidates, so on the board"
        back = disk.load if removed_cubes_return(state.puzzle) else ZERO
        return _r(state, disks=_remove_one(state.disks, disk), stock=state.stock + back)
    return _r(state, opp_disks=tuple(d for d in state.opp_disks if d.id != disk_id))


def _make_room(state: State, area: VesicleArea, action: Action) -> tuple[State | None, str | None]:
    """Free a budding location in ``area`` if it is full. Returns (new state, None) or
    (None, reason)."""
    if not area_full(state, area):
        if action.bump is not None:
            return None, f"bump={action.bump!r} given but {area.value} has a free budding location"
        return state, None
    candidates = removal_candidates(state, area)
    if _rules(state).removal_is_chosen():
        if action.bump is None:
            return None, (f"{area.value} is full: choose the disk to remove (bump), one of "
                          f"{list(candidates)} (spots.golgi, 1e)")
        if action.bump not in candidates:
            return None, f"bump={action.bump!r} is not a disk in {area.value}; expected one of {list(candidates)}"
        return _remove_disk(state, action.bump), None
    if action.bump is not None and action.bump != candidates[0]:
        return None, (f"bump={action.bump!r}: in 2e the disk removed from a full area is the one of the "
                      f"player highest on the Health Track, {candidates[0]!r} (spots.golgi)")
    return _remove_disk(state, candidates[0]), None


def _room_made(state: State, area: VesicleArea, action: Action) -> State:
    """:func:`_make_room` for a legal action, which always finds or makes the room."""
    after, why = _make_room(state, area, action)
    assert after is not None, why
    return after


# --------------------------------------------------------------------------- legality predicates

def is_players_turn(state: State) -> bool:
    """The game is not over and the player still has a flask this round."""
    return not state.done and state.flasks_left > 0


def spot_free(state: State, spot: Spot) -> bool:
    """No flask on the spot this round (``gameplay.phase-1``)."""
    return spot.id not in state.placed


def area_has_room(state: State, spot: Spot) -> bool:
    """The edition's per-area limit (1e two-player) is not reached (``two-player.gameplay``)."""
    limit = _rules(state).area_limit(spot.area, state.puzzle.players)
    if limit is None:
        return True
    board = state.puzzle.board
    used = sum(1 for p in state.placed if board.spot(p).area is spot.area)
    if not _rules(state).grey_flasks_count_for_area_limit(state.puzzle.readings()):
        used -= sum(1 for p in state.grey_spots if board.spot(p).area is spot.area)
    return used < limit


def grey_flask_available(state: State) -> bool:
    """A grey flask is in the Grey Flask Area, none was placed this turn and 4 ATP (3 with the
    Epigenetic card ``cheap-grey-flask``) can be paid (``gameplay.grey-flasks``)."""
    return (state.grey_left > 0 and not state.grey_this_turn
            and state.stock.atp >= epigenetic.grey_flask_cost(state.puzzle))


def why_cannot_take(state: State, spot: Spot, action: Action) -> str | None:
    """Why the action of ``spot`` cannot be taken now with these parameters, or None.
    ``state`` already has any boost claimed and the grey flask paid."""
    kind, stock = spot.kind, state.stock
    card = _card(state, action.card)
    extra = [n for n in ("amount", "goal", "resource", "disk") if getattr(action, n) is not None]
    allowed_extra = {SpotKind.FREE_RIBOSOME: ["amount"], SpotKind.LAUREATES: ["goal"],
                     SpotKind.EXOCYTOSIS: ["disk"], SpotKind.GOLGI: ["disk"],
                     SpotKind.ROUGH_ER: ["amount"], SpotKind.DETOX_STEROID: ["amount"]}.get(kind, [])
    bad = [n for n in extra if n not in allowed_extra]
    if bad:
        return f"{bad[0]}={getattr(action, bad[0])!r} means nothing on {spot.id}"
    needs_card = kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER, SpotKind.GOLGI,
                          SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM)
    if needs_card and action.card is None:
        return f"{spot.id} needs a card (which card the action is for)"
    if not needs_card and kind is not SpotKind.CARD_ROW and action.card is not None:
        return f"card={action.card!r} means nothing on {spot.id}"
    if action.card is not None and card is None:
        return f"unknown card {action.card!r}"
    if action.bump is not None and kind not in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER, SpotKind.GOLGI):
        return f"bump={action.bump!r} means nothing on {spot.id}"

    if action.extra:
        return epigenetic.why_not_extra(state.puzzle, spot, stock)
    if kind in (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA,
                SpotKind.GLUCOSE, SpotKind.MITOCHONDRIA_CARB):
        if not stock.covers(spot.cost):
            return f"{spot.id} costs {spot.cost.text()}, stock has {stock.text()} ({spot.rule_sections[0]})"
        return None
    if kind is SpotKind.FREE_RIBOSOME:
        return free_ribosome.why_not(state.puzzle, stock, action.amount)
    if kind is SpotKind.LAUREATES:
        if action.goal is None:
            return None
        goals = {g.id for g in state.puzzle.goals}
        if action.goal not in goals:
            return f"unknown goal {action.goal!r}; expected one of {sorted(goals)}"
        if action.goal in state.goal_markers:
            return f"already a marker of yours on goal {action.goal!r} (cards.goals)"
        if len(state.goal_markers) >= state.puzzle.goal_markers:
            return "no goal markers left (cards.goals)"
        if dict(state.goal_counts).get(action.goal, 0) >= MAX_MARKERS_PER_GOAL:
            return f"goal {action.goal!r} already holds {MAX_MARKERS_PER_GOAL} markers (cards.goals)"
        return None
    if kind is SpotKind.CARD_ROW:
        slot_card = state.row[spot.row_slot] if spot.row_slot < len(state.row) else None
        if slot_card is None:
            return f"no card under {spot.id} (spots.card-row)"
        if action.card is not None and action.card != slot_card:
            return f"card={action.card!r} but the card under {spot.id} is {slot_card!r}"
        price = row_price(state, spot)
        if stock.atp < price:
            return f"{spot.id} costs {price} ATP, stock has {stock.atp} (spots.card-row)"
        return None
    # card-completing spots (the Golgi moves a disk: its card need not be in hand any more)
    assert card is not None, "these spots need a card (needs_card), and an unknown one was refused"
    if kind is not SpotKind.GOLGI and action.card not in state.hand:
        return f"card {action.card!r} is not in hand (hand: {list(state.hand)})"
    if kind is SpotKind.CYTOPLASM:
        if card.type is not CardType.ENZYME:
            return f"{spot.id} completes enzyme cards, {card.id!r} is a {card.type.value} (spots.cytoplasm)"
        if not stock.covers(card.cost):
            return f"{card.id!r} costs {card.cost.text()}, stock has {stock.text()} (spots.cytoplasm)"
        return None
    if kind is SpotKind.DETOX_STEROID and card.type is CardType.DETOX:
        if action.amount is not None:
            return f"amount={action.amount!r} means nothing for a detox card"
        if action.bump is not None:
            return f"bump={action.bump!r} means nothing for a detox card"
        if stock.atp < card.cost.atp:
            return f"{card.id!r} costs {card.cost.atp} ATP, stock has {stock.atp} (spots.smooth-er-detox-steroid)"
        return None
    route = card.route
    if kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER):
        expected = {SpotKind.DETOX_STEROID: VesicleArea.SMOOTH_ER, SpotKind.ROUGH_ER: VesicleArea.ROUGH_ER}[kind]
        if route is None or route.er is not expected:
            what = "detox and steroid-hormone" if kind is SpotKind.DETOX_STEROID else \
                "protein-hormone and receptor"
            return f"{spot.id} starts {what} cards, {card.id!r} is a {card.type.value} ({spot.rule_sections[0]})"
        if state.disk_for(card.id) is not None:
            return f"{card.id!r} already has a disk on the board"
        need = card.cost.get(route.er_resource)
        pay = Resource.MRNA if route.er_resource is Resource.PROTEIN else route.er_resource
        reason = disk_load.why_not(state.puzzle, need, action.amount)
        if reason:
            return reason
        load = need if action.amount is None else action.amount
        if stock.get(pay) < load:
            return f"{card.id!r} needs {load} {pay.value} on the disk, stock has {stock.get(pay)} ({spot.rule_sections[0]})"
        after, why = _make_room(state, route.er, action)
        if after is None:
            return why
        if after.disks_in_supply < 1:
            return f"no Transport Vesicle Disk left in supply (both on the board) ({spot.rule_sections[0]})"
        return None
    if kind is SpotKind.GOLGI:
        label = action.disk if action.disk is not None else card.id
        if action.disk is not None:
            if action.disk == card.id:
                return f"disk={action.disk!r}: leave disk out for the card's own disk (spots.golgi)"
            if route is None or action.card not in state.hand:
                return f"card {action.card!r}: the Golgi cube of another card follows a hormone or receptor card in hand (spots.golgi)"
            if state.disk_for(label) is not None and not golgi.other_cube_allowed(state.puzzle, label, card.id):
                return (f"the disk started for {label!r} takes its own card's Golgi cube (spots.golgi, ruling "
                        f"disk-card: at-er, or the same cube)")
        disk = state.disk_for(label)
        if route is None or disk is None or disk.area not in (VesicleArea.SMOOTH_ER, VesicleArea.ROUGH_ER):
            return f"no disk for {label!r} in the Smooth or Rough ER (spots.golgi)"
        if stock.get(route.golgi_resource) < 1:
            return f"{card.id!r} needs 1 {route.golgi_resource.value} in the Golgi, stock has none (spots.golgi)"
        _, why = _make_room(state, VesicleArea.GOLGI, action)
        return why
    if kind is SpotKind.EXOCYTOSIS:
        if action.disk == card.id:
            return f"disk={action.disk!r}: leave disk out for the card's own disk (spots.exocytosis)"
        label = action.disk if action.disk is not None else card.id
        disk = state.disk_for(label)
        if disk is None or disk.area is not VesicleArea.GOLGI:
            return f"no disk for {label!r} in the Golgi Apparatus (spots.exocytosis)"
        if route is None:
            return f"{spot.id} completes hormone and receptor cards, {card.id!r} is a {card.type.value} (spots.exocytosis)"
        if not disk_may_complete(state.puzzle, label, card.id):
            return (f"the disk started for {label!r} completes only that card under the ruling "
                    f"disk-card: at-er (spots.exocytosis)")
        if not disk.load.covers(_r(card.cost, atp=0)):
            return f"disk for {card.id!r} carries {disk.load.text()}, card needs {_r(card.cost, atp=0).text()}"
        if stock.atp < card.cost.atp:
            return f"{card.id!r} costs {card.cost.atp} ATP, stock has {stock.atp} (spots.exocytosis)"
        return None
    assert_never(kind)  # every spot kind is handled above


def why_illegal(state: State, action: Action) -> str | None:
    """Why ``action`` is illegal in ``state`` (naming the rule section), or None if legal."""
    if state.done:
        if action.kind is ActionKind.PLAY_CARD:
            return ("the game is over: Macromolecule cards still in hand were played at the end of the "
                    "last turn (cards.macromolecule, gameplay.end)")
        return "the game is over (gameplay.end)"
    if state.attacks:
        return _why_not_attack_step(state, action)
    if action.kind in (ActionKind.VACCINATE, ActionKind.RESPOND):
        return f"{action.kind.value}: no Virus attack is waiting (virus.attack)"
    if action.kind is ActionKind.END_TURN:
        return _why_not_end_turn(state, action)
    if state.after_flask:
        if action.kind.is_flask:
            return ("the turn's flask is placed: the turn is open for the look at the deck "
                    "(epigenetic.peek-deck) or for Macromolecule cards before Phase 2 (cards.macromolecule); "
                    "end it with end-turn")
    elif not is_players_turn(state):
        return "no flask left this round"
    if not action.kind.is_flask and action.kind is not ActionKind.PLAY_CARD:
        return _why_not_epigenetic(state, action)
    if action.order is not None or (action.extra and action.kind is not ActionKind.PLACE):
        return f"{'order' if action.order is not None else 'extra'} means nothing for {action.kind.value}"
    if action.kind is ActionKind.PLAY_CARD:
        reason = macromolecule_cards.why_not(_card(state, action.card), action.card, state.hand)
        if reason:
            return reason
        if any(getattr(action, n) not in (None, False) for n in ("spot", "grey", "amount", "resource", "goal", "bump")):
            return "play-card takes only a card"
        return None
    if action.kind is ActionKind.EXHAUST:
        if not _rules(state).exhaust_allowed():
            return f"exhausting a flask is a 2e rule, this puzzle is {state.puzzle.edition.value} (gameplay.exhaust-flask)"
        if action.resource not in EXHAUST_RESOURCES:
            return (f"resource: expected one of {[r.value for r in EXHAUST_RESOURCES]}, got "
                    f"{action.resource.value if action.resource else None!r} (gameplay.exhaust-flask)")
        if any(getattr(action, n) not in (None, False) for n in ("spot", "grey", "card", "amount", "goal", "bump")):
            return "exhaust takes only a resource"
        if state.grey_this_turn and not _rules(state).exhaust_after_grey(state.puzzle.readings()):
            return ("after a grey flask the turn's flask is placed, not exhausted (ruling grey-then-exhaust: "
                    "not-allowed; gameplay.grey-flasks)")
        return None
    spot = _spot(state, action.spot)
    if spot is None:
        return f"unknown spot {action.spot!r} on board {state.puzzle.board.id}"
    if action.resource is not None:
        return f"resource={action.resource.value!r} means nothing for a placement"
    if action.grey:
        if state.grey_left <= 0:
            return "no grey flask left in the Grey Flask Area (gameplay.grey-flasks)"
        if state.grey_this_turn:
            return "only one grey flask per turn (gameplay.grey-flasks)"
        cost = epigenetic.grey_flask_cost(state.puzzle)
        if state.stock.atp < cost:
            return f"a grey flask costs {cost} ATP, stock has {state.stock.atp} (gameplay.grey-flasks)"
        paid = _r(state, stock=state.stock - Stock(atp=cost))
    else:
        if not spot_free(state, spot):
            return f"spot {spot.id} is taken this round (gameplay.phase-1)"
        if not area_has_room(state, spot):
            return (f"area {spot.area.value} already has its flask this round "
                    f"(two-player.gameplay, {state.puzzle.edition.value})")
        paid = state
    return why_cannot_take(_claim_boosts(paid, spot), spot, action)


def attack_outcome(state: State) -> tuple[int, bool, int]:
    """(resources gained, whether a resource or Health is lost, the player's 0-based place) for the
    waiting attack at its ranking step (``virus.event-attack``, ``virus.allocation``)."""
    puzzle = state.puzzle
    strain, source, _ = state.attacks[0]
    roll = virus.roll_for(puzzle, source)
    assert roll is not None, f"the puzzle loader requires the dice of every attack, {source} included"
    mine = roll.roll + virus.antibodies_of(state.antibodies, strain)
    rules = _rules(state)
    participants = rules.virus_participants(puzzle.players)
    assert participants is not None, "the puzzle loader refuses Virus attacks at a table the edition's rules lack"
    holder = marker_holder_at_attack(state, source)
    seats = max([puzzle.players, puzzle.seat] + [d.seat for d in puzzle.opponent_disks])
    at = virus.place(puzzle, mine, roll, lambda seat: (seat - holder) % seats)
    table, last_loses = rules.virus_allocation(participants)
    gain, loses = virus.outcome(table, last_loses, at, participants)
    return gain, loses, at


def marker_holder_at_attack(state: State, source: str) -> int:
    """The seat holding the First Player Marker when the attack ``source`` is ranked: ties go to
    "the tying player in the closest position clockwise to the player with the First Player Card"
    (VIR 111; 1e "il primo giocatore, o il giocatore più vicino al Primo Giocatore", IT 716), the
    holder at that moment. A Virus Event (revealed in Phase 2) and another player's purchase
    (placed, with the other players' flasks, before the player's turns; which of their flasks came
    first the puzzle does not say) rank from the holder at the round's start; a Virus Attack card
    the player buys ranks from the holder after the flasks placed before it this round: the player
    after their own flask on Laureates in Biology, else the other player whose flask took it this
    round (``spots.laureates``: the marker changes hands at once)."""
    puzzle = state.puzzle
    start = puzzle.seat if state.leads_round else puzzle.other_marker_seat(state.round)
    if source.startswith("round-") or source in state.taken:
        return start
    board = puzzle.board
    occupied = puzzle.occupied_in(state.round)
    theirs = sum(1 for p in occupied if board.spot(p).kind is SpotKind.LAUREATES)
    on_laureates = sum(1 for p in state.placed if board.spot(p).kind is SpotKind.LAUREATES)
    if on_laureates > theirs:
        return puzzle.seat
    if theirs:   # the seat whose flask took it this round (Puzzle.laureates_seats)
        return puzzle.other_marker_seat(state.round + 1)
    return start


def _why_not_attack_step(state: State, action: Action) -> str | None:
    """While a Virus attack waits, only its steps are legal (``virus.attack``: "all players should
    pause and follow the steps")."""
    strain, source, stage = state.attacks[0]
    if action.kind is ActionKind.INCOME and income_before_attack(state):
        return _why_not_epigenetic(state, action)
    if action.kind is ActionKind.PLAY_CARD:
        return (f"a Virus attack ({strain.value}, {source}) waits: an attack is no one's turn, so no card is "
                "played now; a card held after the round's last flask is played before the turn ends "
                "(cards.macromolecule, virus.attack)")
    if stage == virus.RESPOND:
        if action.kind is not ActionKind.RESPOND:
            return f"a Virus attack ({strain.value}, {source}) waits for the player's gain or loss: respond (virus.attack)"
        if any(getattr(action, n) not in (None, False) for n in ("spot", "grey", "card", "amount", "resource", "goal")):
            return "respond takes only take or lose"
        gain, loses, _ = attack_outcome(state)
        return virus.why_not_response(state.stock, gain, loses, action.take, action.lose)
    if action.kind is not ActionKind.VACCINATE:
        return f"a Virus attack ({strain.value}, {source}) waits: pay ATP for antibodies or decline (vaccinate, amount 0) (virus.attack)"
    if any(getattr(action, n) not in (None, False) for n in ("spot", "grey", "card", "resource", "goal", "take", "lose")):
        return "vaccinate takes only an amount of ATP"
    if action.amount is None or action.amount < 0:
        return f"amount: expected the ATP paid for antibodies (0 to decline), got {action.amount!r} (virus.event-attack)"
    if action.amount > state.stock.atp:
        return f"cannot pay {action.amount} ATP for antibodies, stock has {state.stock.atp} (virus.event-attack)"
    return None


def _attack_step(state: State, action: Action) -> State:
    """The effect of one step of the waiting Virus attack; once the last step of the last attack is
    over, the turn (or the round) goes on where it stopped."""
    strain, source, stage = state.attacks[0]
    rest = state.attacks[1:]
    if action.kind is ActionKind.RESPOND:
        stock, health = virus.apply_response(state.stock, state.health, action.take, action.lose)
        return _r(state, stock=stock, health=health, attacks=((strain, source, virus.POST_ROLL),) + rest)
    assert action.amount is not None, "a legal vaccinate names its ATP"
    state = _r(state, stock=state.stock - Stock(atp=action.amount),
               antibodies=virus.vaccinate(state.antibodies, strain, action.amount))
    if stage == virus.PRE_ROLL:
        return _r(state, attacks=((strain, source, virus.RESPOND),) + rest)
    state = _r(state, attacks=rest)
    if not rest and state.after_flask:
        return _after_the_flask(state)
    if not rest and state.flasks_left == 0 and not state.done:
        state = _end_round(state)
    return state


def _why_not_end_turn(state: State, action: Action) -> str | None:
    """Why ending the turn is refused, or None: only a turn kept open after its flask
    (:func:`_after_the_flask`) is ended by the player (the others end with their flask)."""
    if not state.after_flask:
        return ("end-turn: a turn ends with its flask; end-turn closes only a turn kept open after "
                "it for the look at the deck (epigenetic.peek-deck) or for Macromolecule cards before "
                "Phase 2 (cards.macromolecule)")
    given = [n for n in ("spot", "card", "amount", "resource", "goal", "bump", "disk", "order", "take", "lose")
             if getattr(action, n) is not None] + [n for n in ("grey", "extra") if getattr(action, n)]
    if given:
        return f"end-turn takes no {given[0]}"
    return None


def _why_not_epigenetic(state: State, action: Action) -> str | None:
    """Why a trade, income or peek (Epigenetic Modification cards) is refused, or None."""
    extra = [n for n in ("spot", "amount", "goal", "bump", "disk") if getattr(action, n) is not None]
    if action.grey or action.extra or extra:
        return f"{action.kind.value} takes no {(extra or ['grey' if action.grey else 'extra'])[0]}"
    puzzle = state.puzzle
    if action.kind is ActionKind.TRADE:
        if action.card is not None or action.order is not None:
            return "trade takes only a resource"
        return epigenetic.why_not_trade(puzzle, state.stock, action.resource)
    if action.kind is ActionKind.INCOME:
        if action.card is not None or action.order is not None:
            return "income takes only a resource"
        return epigenetic.why_not_income(puzzle, state.income_due, action.resource)
    if action.resource is not None:
        return "peek takes a card (or none) and an order, no resource"
    return epigenetic.why_not_peek(puzzle, state.stock, state.deck, state.peeked, action.card, action.order)


# --------------------------------------------------------------------------- effects

def _complete(state: State, card: Card) -> State:
    """Move ``card`` from hand to completed and score it, with own receptor bonuses
    (``cards.receptors``)."""
    bonus = 0
    receptor = RECEPTOR_OF.get(card.type)
    if receptor is not None:
        bonus = RECEPTOR_OWN_BONUS * sum(1 for c in state.completed if state.puzzle.card(c).type is receptor)
    health = DETOX_HEALTH if card.type is CardType.DETOX else card.health
    return _r(state, hand=_remove_one(state.hand, card.id), completed=_sorted(state.completed + (card.id,)),
                   health=state.health + health + bonus)


def _take(state: State, spot: Spot, action: Action) -> State:
    """Carry out the action of ``spot`` (legality already checked)."""
    kind = spot.kind
    card = _card(state, action.card)
    if kind in (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA,
                SpotKind.GLUCOSE, SpotKind.MITOCHONDRIA_CARB):
        stock = state.stock - spot.cost + spot.gain
        if action.extra:
            cost, gain = epigenetic.extra_stock(spot)
            stock = stock - cost + gain
        return _r(state, stock=stock)
    if kind is SpotKind.FREE_RIBOSOME:
        assert action.amount is not None, "a legal Free Ribosome placement names its amount"
        return _r(state, stock=free_ribosome.apply(state.stock, action.amount))
    if kind is SpotKind.LAUREATES:
        state = _r(state, first_player=True)
        if action.goal is None:
            return _r(state, stock=state.stock + Stock(atp=1))
        counts = dict(state.goal_counts)
        bonus = FIRST_GOAL_MARKER_BONUS if counts.get(action.goal, 0) == 0 else 0
        counts[action.goal] = counts.get(action.goal, 0) + 1
        return _r(state, goal_markers=_sorted(state.goal_markers + (action.goal,)),
                       goal_counts=tuple(sorted(counts.items())), health=state.health + bonus)
    if kind is SpotKind.CARD_ROW:
        slot_card = state.row[spot.row_slot]
        assert slot_card is not None, "a legal purchase has a card under the slot"
        price = row_price(state, spot)
        free_bonus = 1 if (_reduce_active(state) and spot.value == 0) else 0
        row = list(state.row)
        row[spot.row_slot] = None
        state = _r(state, stock=state.stock - Stock(atp=price) + Stock(atp=free_bonus), row=tuple(row))
        bought = state.puzzle.card(slot_card)
        if bought.type is CardType.VIRUS_ATTACK:   # it "immediately takes effect" (virus.cell-component-cards)
            assert bought.strain is not None, "the puzzle loader requires a Virus Attack card's strain"
            return _r(state, discard=state.discard + (slot_card,),
                      attacks=state.attacks + ((bought.strain, slot_card, virus.PRE_ROLL),))
        return _r(state, hand=_sorted(state.hand + (slot_card,)))
    assert card is not None, "the remaining spots complete a card, and a legal action names a known one"
    if kind is SpotKind.CYTOPLASM:
        return _complete(_r(state, stock=state.stock - card.cost), card)
    if kind is SpotKind.DETOX_STEROID and card.type is CardType.DETOX:
        return _complete(_r(state, stock=state.stock - Stock(atp=card.cost.atp)), card)
    route = card.route
    assert route is not None, "a legal ER, Golgi or Exocytosis action is for a hormone or receptor"
    if kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER):
        state = _room_made(state, route.er, action)
        need = card.cost.get(route.er_resource) if action.amount is None else action.amount   # disk_load
        pay = Resource.MRNA if route.er_resource is Resource.PROTEIN else route.er_resource
        disk = Disk(route.er, card.id, Stock.of(route.er_resource, need))
        return _r(state, stock=state.stock - Stock.of(pay, need),
                       disks=tuple(sorted(state.disks + (disk,), key=Disk.sort_key)))
    if kind is SpotKind.GOLGI:
        state = _room_made(state, VesicleArea.GOLGI, action)
        label = action.disk if action.disk is not None else card.id
        old = state.disk_for(label)
        assert old is not None, "a legal Golgi placement moves the card's disk"
        # the cube of the card named (the disk's own, or the card now aimed at, golgi.other_cube_allowed)
        new = Disk(VesicleArea.GOLGI, label, old.load + Stock.of(route.golgi_resource, 1))
        disks = tuple(sorted(_remove_one(state.disks, old) + (new,), key=Disk.sort_key))
        return _r(state, stock=state.stock - Stock.of(route.golgi_resource, 1), disks=disks)
    if kind is SpotKind.EXOCYTOSIS:
        disk = state.disk_for(action.disk if action.disk is not None else card.id)
        assert disk is not None, "a legal Exocytosis placement has its disk in the Golgi"
        state = _r(state, disks=_remove_one(state.disks, disk), stock=state.stock - Stock(atp=card.cost.atp))
        return _complete(state, card)
    raise AssertionError(kind)  # pragma: no cover


def _toxicity(stock: Stock) -> Stock:
    """Lose 1/2/4 of each macromolecule held 5+/7+/10+ (``events.toxicity``)."""
    def after(n: int) -> int:
        for at_least, lose in TOXICITY_STEPS:
            if n >= at_least:
                return n - lose
        return n
    return Stock(stock.atp, after(stock.mrna), after(stock.protein), after(stock.carb), after(stock.lipid))


def _reveal_event(state: State, event: str | None, round_: int = 1) -> State:
    """Make ``event`` (of round ``round_``) the only active event and follow it
    (``gameplay.phase-2``, ``events.*``; a Virus Event attacks, ``virus.event-cards``)."""
    state = _r(state, event=event)
    if event is None:
        return state
    kind = event_kind(event)
    if kind is EventKind.VIRUS:
        return _r(state, attacks=state.attacks + ((event_strain(event), f"round-{round_}", virus.RESPOND),))
    if kind is EventKind.BOOST:
        boost = state.puzzle.board.boost(event)
        assert boost is not None, f"the puzzle loader refuses {event} on a board without it"
        pending = dict(state.boosts)
        pending[event] = pending.get(event, ZERO) + Stock.of(boost.resource, 1)
        return _r(state, boosts=tuple(sorted(pending.items())))
    if kind is EventKind.TOXICITY:
        after = _toxicity(state.stock)
        return _r(state, stock=after, toxicity_loss=state.stock - after)
    return state


def _refresh_row(state: State) -> State:
    """Discard (1 card, 2 with two players), slide left, refill from the deck
    (``gameplay.phase-2``, ``two-player.gameplay``); with the deck used up, a discard pile of one
    card is shuffled into the deck and refills, a pile of two or more (a random order) is not
    modelled and leaves the slots empty (:mod:`solver.game.rules.reshuffle`)."""
    gone, kept = _phase_2_discards(state)
    refilled = reshuffle.refill(kept, len(state.row), state.deck, state.discard + gone)
    state = _r(state, row=refilled.row, deck=refilled.deck, discard=refilled.pile)
    if refilled.random_reshuffle and not state.random_reshuffle_round:
        state = _r(state, random_reshuffle_round=state.round)
    return state


def _phase_2_discards(state: State) -> tuple[tuple[str, ...], list[str]]:
    """The cards Phase 2 discards from the row as it is now (1 card, 2 with two players; the
    edition says which) and the cards it keeps, slid left (``gameplay.phase-2``)."""
    puzzle = state.puzzle
    costs = tuple(s.value for s in puzzle.board.row_slots)
    count = 2 if puzzle.players == 2 else 1
    gone = _rules(state).discard_slots(state.row, costs, count)
    return (tuple(c for i in gone if (c := state.row[i]) is not None),
            [c for i, c in enumerate(state.row) if c is not None and i not in gone])


def _occupy(state: State) -> State:
    """Other players' flasks for the current round; they claim boosts in their areas first, and
    a flask on a card-row slot has bought the card under it ("they must pay the ATP cost ... and
    collect the card in the slot just below their flask", ``spots.card-row``): the slot stays
    empty until the Phase 2 refresh, so no grey flask can buy it there, and Phase 2 discards
    and slides the row as it then is (:func:`_opponents_buy`)."""
    occupied = state.puzzle.occupied_in(state.round)
    board = state.puzzle.board
    for spot_id in occupied:
        spot = board.spot(spot_id)
        kept = tuple((e, r) for e, r in state.boosts
                     if (boost := board.boost(e)) is None or spot.area not in boost.areas)
        state = _r(state, boosts=kept)
    return _opponents_buy(_r(state, placed=_sorted(occupied)), occupied)


def _opponents_buy(state: State, occupied: tuple[str, ...]) -> State:
    """Cards under card-row slots other players take this round leave the row (into their
    hands, not the discard pile) (``spots.card-row``)."""
    board = state.puzzle.board
    row, taken, attacks, health = list(state.row), list(state.taken), state.attacks, state.health
    for spot_id in occupied:
        spot = board.spot(spot_id)
        bought = row[spot.row_slot] if spot.kind is SpotKind.CARD_ROW and spot.row_slot < len(row) else None
        if bought is not None:
            card = state.puzzle.card(bought)
            if card.type is CardType.VIRUS_ATTACK:
                # "All other players lose 1 Health Point", then the attack (virus.card-attack)
                assert card.strain is not None, "the puzzle loader requires a Virus Attack card's strain"
                health -= 1
                attacks += ((card.strain, card.id, virus.RESPOND),)
            taken.append(bought)
            row[spot.row_slot] = None
    return _r(state, row=tuple(row), taken=_sorted(taken), attacks=attacks, health=health,
              virus_card_loss=state.health - health)


def _play_held_cards(state: State) -> State:
    """At the end of the player's last turn of the game, the Macromolecule cards still in hand
    are played: they "may be ... played at any time during a player's turn" ("giocate in
    qualsiasi momento durante il turno", ``cards.macromolecule``), so also after the turn's
    placement, and playing never lowers a score (macromolecule sets only grow with the stock;
    the cards are never completed cards). A card bought with the last flask is played too."""
    for card in macromolecule_cards.held_at_the_end(state.puzzle, state.hand):
        state = _r(state, stock=macromolecule_cards.apply(state.stock, card), hand=_remove_one(state.hand, card.id),
                   discard=state.discard + (card.id,))
    return state


def _trade_leftover_atp(state: State) -> State:
    """At the end of the player's last turn of the game, with the Epigenetic card
    ``atp-exchange``, the ATP left is traded for the cubes that complete most end-game sets: the
    card's trades may be made "quante volte per turno il giocatore desidera" and ATP scores
    nothing (``epigenetic.atp-exchange``, ``scoring.macromolecules``). The sets are counted with
    the cubes on the player's disks, which "return to the stock" before scoring (IT 513), as the
    planner counts them."""
    if state.puzzle.flasks == 0 or not epigenetic.holds(state.puzzle, epigenetic.EpigeneticCard.ATP_EXCHANGE):
        return state
    sizes = {Resource(name): n for name, n in MACROMOLECULE_SET.items()}
    # the sets count the cubes on the player's disks too (they return to the stock before
    # scoring, ``scoring.final``), so the trades that complete a set are chosen on that total;
    # disks carry no ATP, so the ATP paid comes from the personal stock
    on_disks = ZERO
    for d in state.disks:
        on_disks = on_disks + d.load
    counted = state.stock + on_disks
    after = epigenetic.best_final_trade(counted, sizes)
    bought = Stock(*(max(0, a - b) for a, b in zip(after.as_tuple(), counted.as_tuple())))
    paid = Stock(atp=counted.atp - after.atp)
    return _r(state, stock=state.stock - paid + bought, end_trade=bought)


def _end_round(state: State) -> State:
    """Other players' hormones pay receptor bonuses; then Phase 2 in the edition's order, or
    the end of the game after the last round (``gameplay.phase-2``, ``gameplay.end``)."""
    puzzle = state.puzzle
    hormones = puzzle.opponent_hormones[state.round - 1] if state.round - 1 < len(puzzle.opponent_hormones) else ()
    for hormone in hormones:
        receptor = RECEPTOR_OF[hormone]
        n = sum(1 for c in state.completed if puzzle.card(c).type is receptor)
        state = _r(state, health=state.health + RECEPTOR_OTHER_BONUS * n)
    if state.round >= puzzle.rounds:
        return _r(_trade_leftover_atp(_play_held_cards(state)), done=True, flasks_left=0, income_due=False)
    next_round = state.round + 1
    state = _r(state, leads_round=_leads_next_round(state), toxicity_loss=ZERO, virus_card_loss=0)
    for step in _rules(state).phase2_order():
        if step == "return-flasks":
            state = _r(state, placed=(), flasks_left=puzzle.flasks, grey_left=puzzle.grey_flasks,
                       grey_this_turn=False, grey_spots=())
        elif step == "refresh-row":
            state = _refresh_row(state)
        elif step == "reveal-event":
            event = puzzle.event_in(next_round)
            state = _reveal_event(state, event, next_round)
    return _occupy(_r(state, round=next_round, income_due=epigenetic.income_due_at_round_start(puzzle)))


# --------------------------------------------------------------------------- public API

def initial_state(puzzle: Puzzle) -> State:
    """The state before the player's first action: round 1's event revealed, other players'
    round-1 flasks placed."""
    state = State(
        round=1, flasks_left=puzzle.flasks, grey_left=puzzle.grey_flasks, grey_this_turn=False,
        stock=puzzle.start, health=puzzle.health, placed=(), disks=(), opp_disks=puzzle.opponent_disks,
        hand=_sorted(puzzle.hand), row=puzzle.row, deck=puzzle.deck, discard=(), completed=(),
        goal_markers=(), goal_counts=tuple(sorted((g.id, g.markers) for g in puzzle.goals)),
        first_player=puzzle.first_player, boosts=(), event=None, done=False, puzzle=puzzle,
        leads_round=puzzle.first_player, income_due=epigenetic.income_due_at_round_start(puzzle),
        antibodies=puzzle.antibodies,
    )
    state = _reveal_event(state, puzzle.event_in(1), 1)
    state = _occupy(state)
    if puzzle.flasks == 0:
        state = _end_round(state)
    return state


def apply(state: State, action: Action) -> State:
    """The one entry point that changes the game: returns the state after ``action``.

    Raises :class:`IllegalActionError` naming the reason and rule section when illegal.
    A normal placement or an exhausted flask ends the turn; the last one of a round runs
    Phase 2 (or ends the game after the last round).
    """
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(action, reason)
    return apply_legal(state, action)


def apply_legal(state: State, action: Action) -> State:
    """:func:`apply` for an action known to be legal (one of :func:`legal_actions`): the same
    effects without checking the action again (the exhaustive search's inner loop)."""
    if action.kind in (ActionKind.VACCINATE, ActionKind.RESPOND):
        return _attack_step(state, action)
    # a legal action carries the fields its kind needs (why_illegal checked them)
    if action.kind is ActionKind.PLAY_CARD:
        assert action.card is not None
        card = state.puzzle.card(action.card)
        state = _r(state, stock=macromolecule_cards.apply(state.stock, card), hand=_remove_one(state.hand, card.id),
                   discard=state.discard + (card.id,))
        return _after_the_flask(state) if state.after_flask else state
    if action.kind is ActionKind.TRADE:
        assert action.resource is not None
        return _r(state, stock=epigenetic.apply_trade(state.stock, action.resource))
    if action.kind is ActionKind.INCOME:
        assert action.resource is not None
        return _r(state, stock=state.stock + Stock.of(action.resource, 1), income_due=False)
    if action.kind is ActionKind.PEEK:
        assert action.order is not None
        stock, deck = epigenetic.apply_peek(state.stock, state.deck, action.card, action.order)
        state = _r(state, stock=stock, deck=deck, peeked=True)
        if action.card is None:
            return _after_the_flask(state) if state.after_flask else state
        taken = state.puzzle.card(action.card)
        if taken.type is CardType.VIRUS_ATTACK:
            # "la Carta Attacco Virale deve essere giocata immediatamente, in base alle Regole
            # dell'Espansione Virus" (IT 788): as if bought, the player who took it may pay for
            # antibodies before the roll (virus.card-attack)
            assert taken.strain is not None, "the puzzle loader requires a Virus Attack card's strain"
            state = _r(state, discard=state.discard + (taken.id,),
                       attacks=state.attacks + ((taken.strain, taken.id, virus.PRE_ROLL),))
        else:
            state = _r(state, hand=_sorted(state.hand + (action.card,)))
        return _after_the_flask(state) if state.after_flask else state
    if action.kind is ActionKind.END_TURN:
        return _end_turn(state)
    state = _r(state, income_due=False)
    if action.kind is ActionKind.EXHAUST:
        assert action.resource is not None
        state = _r(state, stock=state.stock + Stock.of(action.resource, 1))
    else:
        assert action.spot is not None
        spot = state.puzzle.board.spot(action.spot)
        if action.grey:
            state = _r(state, stock=state.stock - Stock(atp=epigenetic.grey_flask_cost(state.puzzle)),
                       grey_left=state.grey_left - 1)
        state = _claim_boosts(_r(state, placed=_sorted(state.placed + (spot.id,))), spot)
        state = _take(state, spot, action)
        if action.grey:
            return _r(state, grey_this_turn=True, grey_spots=_sorted(state.grey_spots + (spot.id,)))
    return _after_the_flask(_r(state, flasks_left=state.flasks_left - 1, grey_this_turn=False))


def _after_the_flask(state: State) -> State:
    """The turn after its flask, or after the look, a card or the Virus attack that came after it:
    it stays open (``after_flask``) while the look at the deck can still follow
    (:func:`_look_may_follow`) or held Macromolecule cards may be played before Phase 2
    (:func:`_cards_may_follow`), else it ends (:func:`_end_turn`). A Virus attack the flask started
    comes first, and the round ends after it (:func:`_attack_step` comes back here)."""
    if state.attacks:
        if _look_may_follow(state, atp_unknown=True) or _cards_may_follow(state):
            return _r(state, after_flask=True)
        return _r(state, after_flask=False, peeked=False)   # the turn is over: after the attack, the next
    if _look_may_follow(state) or _cards_may_follow(state):
        return _r(state, after_flask=True)
    return _end_turn(state)


def _end_turn(state: State) -> State:
    """The end of the player's turn: the next one may look at the deck again; after the round's
    last flask, Phase 2 (or the end of the game)."""
    state = _r(state, after_flask=False, peeked=False)
    if state.flasks_left == 0 and not state.done and not state.attacks:
        state = _end_round(state)
    return state


def _look_may_follow(state: State, atp_unknown: bool = False) -> bool:
    """Can the turn's look at the deck still follow its flask (:func:`epigenetic.look_may_follow`)?
    The ATP counts what the Macromolecule cards in hand give; ``atp_unknown``: a Virus attack
    waits, whose response may give ATP."""
    puzzle = state.puzzle
    if not epigenetic.holds(puzzle, epigenetic.EpigeneticCard.PEEK_DECK):
        return False
    atp = None if atp_unknown else state.stock.atp + sum(
        puzzle.card(c).gain.atp for c in state.hand if puzzle.card(c).type is CardType.MACROMOLECULE)
    game_ends = state.flasks_left == 0 and state.round >= puzzle.rounds
    return epigenetic.look_may_follow(puzzle, atp, state.deck, state.peeked, game_ends)


def _cards_may_follow(state: State) -> bool:
    """After the round's last flask, may held Macromolecule cards still be played before Phase 2
    where that can differ from the next turn's start
    (:func:`solver.game.rules.macromolecule_cards.played_before_phase_2`)?"""
    return macromolecule_cards.played_before_phase_2(state.puzzle, state.round, state.flasks_left, state.hand,
                                                     state.flasks_left == 0 and _pile_decides_refill(state))


def _pile_decides_refill(state: State) -> bool:
    """Would one more card in the discard pile now change what the coming Phase 2 puts in the
    card row (:func:`solver.game.rules.reshuffle.pile_decides_refill`, on the row as the round
    leaves it: the other players' flasks of the round are all placed)?"""
    if state.round >= state.puzzle.rounds:
        return False
    gone, kept = _phase_2_discards(state)
    return reshuffle.pile_decides_refill(len(kept), len(state.row), len(state.deck), len(state.discard) + len(gone))


def is_terminal(state: State) -> bool:
    """True after the last round's Phase 1 (``gameplay.end``)."""
    return state.done


def _candidates(state: State) -> list[Action]:
    """Every action worth checking in ``state`` (superset of the legal ones)."""
    puzzle = state.puzzle
    if state.after_flask:
        return _after_flask_candidates(state)
    out: list[Action] = []
    for card_id in sorted(set(state.hand)):
        if puzzle.card(card_id).type is CardType.MACROMOLECULE:
            out.append(Action(ActionKind.PLAY_CARD, card=card_id))
    if rules_for(puzzle.edition).exhaust_allowed():
        out += [Action(ActionKind.EXHAUST, resource=r) for r in EXHAUST_RESOURCES]
    out += _epigenetic_candidates(state)
    max_mrna = state.stock.mrna + sum(r.mrna for _, r in state.boosts)
    grey_ok = grey_flask_available(state)
    for spot in puzzle.board.spots:
        if spot_free(state, spot) and area_has_room(state, spot):
            out += _spot_candidates(state, spot, False, max_mrna)
        if grey_ok:
            out += _spot_candidates(state, spot, True, max_mrna)
    return out


def _after_flask_candidates(state: State) -> list[Action]:
    """A turn kept open after its flask: end it (first: the plan without the look or the cards),
    a Macromolecule card, or the look. When the turn is open for the look alone (no Virus attack
    before the player's next turn and no refill the discard pile decides: :func:`_cards_may_follow`),
    only a card giving ATP is worth playing now (it can pay for the look); any other waits for the
    next turn, or the end of the game, at no loss (:mod:`solver.game.rules.macromolecule_cards`)."""
    puzzle = state.puzzle
    out = [Action(ActionKind.END_TURN)]
    every_card = _cards_may_follow(state)
    out += [Action(ActionKind.PLAY_CARD, card=c) for c in sorted(set(state.hand))
            if (card := puzzle.card(c)).type is CardType.MACROMOLECULE and (every_card or card.gain.atp)]
    return out + _epigenetic_candidates(state)


def _epigenetic_candidates(state: State) -> list[Action]:
    """Trades, the round's income and looks at the deck the player's Epigenetic card allows."""
    card = state.puzzle.epigenetic
    if card is epigenetic.EpigeneticCard.ATP_EXCHANGE:
        return [Action(ActionKind.TRADE, resource=r) for r in epigenetic.TRADE_PRICES]
    if card is epigenetic.EpigeneticCard.ROUND_INCOME and state.income_due:
        return [Action(ActionKind.INCOME, resource=r) for r in epigenetic.INCOME_RESOURCES]
    if card is epigenetic.EpigeneticCard.PEEK_DECK and not state.peeked and state.deck:
        return [Action(ActionKind.PEEK, card=taken, order=order)
                for taken, order in epigenetic.peek_options(state.deck)]
    return []


def _spot_candidates(state: State, spot: Spot, grey: bool, max_mrna: int) -> list[Action]:
    puzzle = state.puzzle
    kind, sid, P = spot.kind, spot.id, ActionKind.PLACE
    if kind is SpotKind.FREE_RIBOSOME:
        return [Action(P, sid, grey, amount=n) for n in free_ribosome.amounts(puzzle, max_mrna)]
    if kind is SpotKind.LAUREATES:
        return [Action(P, sid, grey)] + [Action(P, sid, grey, goal=g.id) for g in puzzle.goals]
    if epigenetic.extra_allowed(puzzle, spot):
        return [Action(P, sid, grey), Action(P, sid, grey, extra=True)]
    if kind is SpotKind.CARD_ROW:
        card = state.row[spot.row_slot] if spot.row_slot < len(state.row) else None
        return [Action(P, sid, grey, card=card)] if card else []
    if kind is SpotKind.EXOCYTOSIS:
        out = []
        for d in state.disks:
            if d.area is not VesicleArea.GOLGI:
                continue
            for card_id in sorted(set(state.hand)):
                if card_id == d.card:
                    out.append(Action(P, sid, grey, card=card_id))
                elif disk_may_complete(puzzle, d.card, card_id):
                    out.append(Action(P, sid, grey, card=card_id, disk=d.card))
        return out
    if kind is SpotKind.GOLGI:
        chosen = rules_for(puzzle.edition).removal_is_chosen()
        out = []
        for d in state.disks:
            if d.area is VesicleArea.GOLGI:
                continue
            targets = [Action(P, sid, grey, card=d.card)] + [
                Action(P, sid, grey, card=c, disk=d.card) for c in sorted(set(state.hand))
                if golgi.other_cube_allowed(puzzle, d.card, c)]
            if chosen and area_full(state, VesicleArea.GOLGI):
                out += [_r(a, bump=b) for a in targets for b in removal_candidates(state, VesicleArea.GOLGI)]
            else:
                out += targets
        return out
    if kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER, SpotKind.CYTOPLASM):
        out = []
        chosen = rules_for(puzzle.edition).removal_is_chosen()
        for card_id in sorted(set(state.hand)):
            area: VesicleArea | None = None   # the cytoplasm has no vesicle area
            card = puzzle.card(card_id)
            if kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER) and card.route is not None:
                area = card.route.er
            loads: list[int | None] = [None]
            if area is not None and card.route is not None:
                pay = Resource.MRNA if card.route.er_resource is Resource.PROTEIN else card.route.er_resource
                loads = disk_load.amounts(puzzle, card.cost.get(card.route.er_resource), state.stock.get(pay))
            if area is not None and chosen and area_full(state, area):
                out += [Action(P, sid, grey, card=card_id, bump=b, amount=n)
                        for b in removal_candidates(state, area) for n in loads]
            else:
                out += [Action(P, sid, grey, card=card_id, amount=n) for n in loads]
        return out
    return [Action(P, sid, grey)]


def income_before_attack(state: State) -> bool:
    """May the round's Epigenetic income be taken while the waiting attack has not started? Yes
    when the attack comes from a card another player bought this round: the income comes "all'inizio
    di ciascun round" (IT 805), before any flask of the round, theirs included (a Virus Event was
    revealed in the previous round's Phase 2, before the round began, and goes first)."""
    strain, source, stage = state.attacks[0]
    return state.income_due and stage == virus.RESPOND and source in state.taken


def _attack_candidates(state: State) -> list[Action]:
    """The steps of the waiting Virus attack (and the round's income, which may come before it).
    No Macromolecule card: an attack is no one's turn; the cards that could be played before it
    were played at the end of the player's last turn (:func:`_cards_may_follow`)."""
    before: list[Action] = []
    if income_before_attack(state):
        before = [Action(ActionKind.INCOME, resource=r) for r in epigenetic.INCOME_RESOURCES]
    return before + _attack_steps(state)


def _attack_steps(state: State) -> list[Action]:
    stage = state.attacks[0][2]
    if stage != virus.RESPOND:
        return [Action(ActionKind.VACCINATE, amount=k) for k in range(state.stock.atp + 1)]
    gain, loses, _ = attack_outcome(state)
    if loses:
        return [Action(ActionKind.RESPOND, lose=virus.HEALTH)] + [
            Action(ActionKind.RESPOND, lose=r.value) for r in Resource if state.stock.get(r) > 0]
    return [Action(ActionKind.RESPOND, take=take) for take in virus.gain_options(gain)]


def legal_actions(state: State) -> list[Action]:
    """All legal actions, in a stable order (empty when terminal or stuck)."""
    if state.attacks:
        return [a for a in _attack_candidates(state) if why_illegal(state, a) is None]
    if state.done:
        return []
    return [a for a in _candidates(state) if why_illegal(state, a) is None]


def all_actions(puzzle: Puzzle) -> list[Action]:
    """Every action that could ever be legal in ``puzzle`` (for time-indexed models):
    each spot with and without a grey flask and each parameter value; the Free Ribosome
    amount is bounded by the mRNA the puzzle can ever provide."""
    card_ids = [c.id for c in puzzle.cards]
    bound = (puzzle.start.mrna + puzzle.rounds * (puzzle.flasks + puzzle.grey_flasks) * 3
             + sum(c.gain.mrna for c in puzzle.cards) + len(puzzle.events))
    out: list[Action] = [Action(ActionKind.PLAY_CARD, card=c.id) for c in puzzle.cards
                         if c.type is CardType.MACROMOLECULE]
    if rules_for(puzzle.edition).exhaust_allowed():
        out += [Action(ActionKind.EXHAUST, resource=r) for r in EXHAUST_RESOURCES]
    if puzzle.epigenetic is epigenetic.EpigeneticCard.ATP_EXCHANGE:
        out += [Action(ActionKind.TRADE, resource=r) for r in epigenetic.TRADE_PRICES]
    if puzzle.epigenetic is epigenetic.EpigeneticCard.ROUND_INCOME:
        out += [Action(ActionKind.INCOME, resource=r) for r in epigenetic.INCOME_RESOURCES]
    if puzzle.epigenetic is epigenetic.EpigeneticCard.PEEK_DECK:
        # the deck can be reordered, so any ordered choice of up to 3 of its cards can lie on top
        seen = set()
        for n in range(1, min(epigenetic.PEEK_CARDS, len(puzzle.deck)) + 1):
            for top in permutations(puzzle.deck, n):
                seen.update(epigenetic.peek_options(top))
        out += [Action(ActionKind.PEEK, card=taken, order=order)
                for taken, order in sorted(seen, key=lambda o: (o[0] or "", o[1]))]
    if puzzle.epigenetic is epigenetic.EpigeneticCard.PEEK_DECK or macromolecule_cards.turn_may_stay_open(puzzle):
        out.append(Action(ActionKind.END_TURN))
    if puzzle.uses_virus:
        atp_bound = puzzle.start.atp + puzzle.rounds * (puzzle.flasks + puzzle.grey_flasks) * 6 + 4 * len(puzzle.events)
        out += [Action(ActionKind.VACCINATE, amount=k) for k in range(atp_bound + 1)]
        out += [Action(ActionKind.RESPOND, lose=virus.HEALTH)] + [Action(ActionKind.RESPOND, lose=r.value) for r in Resource]
        out += [Action(ActionKind.RESPOND, take=take) for n in range(5) for take in virus.gain_options(n)]
    bumps: list[str | None] = [None]
    if rules_for(puzzle.edition).removal_is_chosen():
        bumps += [d.id for d in puzzle.opponent_disks] + [f"own:{c}" for c in card_ids]
    for spot in puzzle.board.spots:
        for grey in (False, True):
            base = Action(ActionKind.PLACE, spot=spot.id, grey=grey)
            kind = spot.kind
            if kind is SpotKind.FREE_RIBOSOME:
                out += [_r(base, amount=n) for n in free_ribosome.amounts(puzzle, bound)]
            elif kind is SpotKind.LAUREATES:
                out += [base] + [_r(base, goal=g.id) for g in puzzle.goals]
            elif kind is SpotKind.CARD_ROW:
                out += [_r(base, card=c) for c in card_ids]
            elif kind in (SpotKind.DETOX_STEROID, SpotKind.ROUGH_ER, SpotKind.GOLGI):
                out += [_r(base, card=c, bump=b) for c in card_ids for b in bumps]
                if kind is not SpotKind.GOLGI and disk_load.more_allowed(puzzle):   # larger loads (rules.disk_load)
                    out += [_r(base, card=c, bump=b, amount=n) for c in card_ids for b in bumps
                            for n in range(1, bound + 1)]
                if kind is SpotKind.GOLGI:   # another card's cube (solver.game.rules.golgi)
                    out += [_r(base, card=c, disk=d, bump=b) for c in card_ids for d in card_ids
                            if golgi.other_cube_allowed(puzzle, d, c) for b in bumps]
            elif kind is SpotKind.EXOCYTOSIS:
                out += [_r(base, card=c, disk=d) for c in card_ids for d in [None] + [
                    d for d in card_ids if d != c and disk_may_complete(puzzle, d, c)]]
            elif kind is SpotKind.CYTOPLASM:
                out += [_r(base, card=c) for c in card_ids]
            else:
                out.append(base)
                if epigenetic.extra_allowed(puzzle, spot):
                    out.append(_r(base, extra=True))
    return out


# --------------------------------------------------------------------------- scoring

@dataclass(frozen=True)
class Breakdown:
    """Final Health Points and where they come from (``scoring.final``)."""

    in_game: int
    """Health Points scored during play."""
    macromolecules: int
    """Sets of 4 mRNA / 4 lipid / 3 protein / 2 carbohydrate, vesicle cubes included (``scoring.macromolecules``)."""
    detox: int
    """Detox majority against the opponents' figures (``scoring.detox``)."""
    enzyme_sets: int
    """Sets of distinct enzyme colours (``scoring.enzyme-sets``)."""
    goals: int
    """Goal cards holding the player's markers whose condition holds (``scoring.goals``)."""

    @property
    def total(self) -> int:
        return self.in_game + self.macromolecules + self.detox + self.enzyme_sets + self.goals

    def to_dict(self) -> dict[str, int]:
        return {"in_game": self.in_game, "macromolecules": self.macromolecules, "detox": self.detox,
                "enzyme_sets": self.enzyme_sets, "goals": self.goals, "total": self.total}


def macromolecule_points(stock: Stock) -> int:
    """1 point per 4 mRNA, 4 lipids, 3 proteins, 2 carbohydrates (``scoring.macromolecules``)."""
    return sum(getattr(stock, name) // size for name, size in MACROMOLECULE_SET.items())


def enzyme_set_points(colors: list[str]) -> int:
    """Sets of distinct colours, built largest first (optimal: the table is convex)
    (``scoring.enzyme-sets``)."""
    counts: dict[str, int] = {}
    for c in colors:
        counts[c] = counts.get(c, 0) + 1
    total = 0
    while counts:
        total += ENZYME_SET_POINTS[min(len(counts), 5)] if len(counts) <= 5 else ENZYME_SET_POINTS[5]
        counts = {c: n - 1 for c, n in counts.items() if n > 1}
    return total


def detox_points(rules: Rules, players: int, mine: tuple[int, int], others: list[tuple[int, int]],
                 readings: Mapping[str, str] | None = None) -> int:
    """End-game detox points for the player with (amount, cards), against the others'
    (amount, cards) (``scoring.detox``, ``two-player.scoring``).

    Only players with at least one completed detox card take part. Order by amount, then by
    number of cards; still tied players share the points of their position and the positions
    below (as many as they are), rounded down.
    """
    if mine[1] == 0:
        return 0
    field_ = [mine] + [o for o in others if o[1] > 0]
    tie_points = rules.detox_two_player_tie()
    if players == 2 and tie_points is not None and len(field_) == 2 and field_[0][0] == field_[1][0]:
        if not rules.detox_tie_after_cards(readings or {}) or field_[0][1] == field_[1][1]:
            return tie_points
        return rules.detox_table(players)[0 if field_[0][1] > field_[1][1] else 1]
    table = rules.detox_table(players)
    ahead = sum(1 for o in field_[1:] if o > mine)
    tied = sum(1 for o in field_ if o == mine)
    share = sum(table[ahead:ahead + tied])
    return share // tied


def goal_met(state: State, goal: Goal) -> bool:
    types = set(goal.card_types)
    n = sum(1 for c in state.completed if state.puzzle.card(c).type in types)
    return n >= goal.count


def score(state: State) -> Breakdown:
    """End-game scoring of ``state`` (cubes on disks go back to stock first)."""
    puzzle = state.puzzle
    stock = state.stock
    for d in state.disks:
        stock = stock + d.load
    completed = [puzzle.card(c) for c in state.completed]
    detox = [c for c in completed if c.type is CardType.DETOX]
    mine = (sum(c.detox_amount for c in detox), len(detox))
    others = [(o.amount, o.cards) for o in puzzle.detox_opponents]
    goals = {g.id: g for g in puzzle.goals}
    return Breakdown(
        in_game=state.health,
        macromolecules=macromolecule_points(stock),
        detox=detox_points(rules_for(puzzle.edition), puzzle.players, mine, others, puzzle.readings()),
        enzyme_sets=enzyme_set_points([c.color or c.id for c in completed if c.type is CardType.ENZYME]),
        goals=sum(goals[g].points for g in state.goal_markers if goal_met(state, goals[g])),
    )


def returns(state: State) -> int:
    """Final Health Points (only meaningful when terminal)."""
    return score(state).total


# --------------------------------------------------------------------------- descriptions

def action_sections(puzzle: Puzzle, action: Action) -> tuple[str, ...]:
    """Rule section IDs a plan step should link to."""
    if action.kind is ActionKind.END_TURN:   # what kept the turn open in this puzzle
        return ((("epigenetic.cards", "epigenetic.peek-deck")
                 if puzzle.epigenetic is epigenetic.EpigeneticCard.PEEK_DECK else ())
                + (("cards.macromolecule",) if macromolecule_cards.turn_may_stay_open(puzzle) else ()))
    if action.kind is not ActionKind.PLACE:
        return action.kind.rule_sections
    assert action.spot is not None, "every placement names its spot (the plan step was legal)"
    spot = puzzle.board.spot(action.spot)
    sections = list(spot.rule_sections)
    if action.grey:
        sections.append("gameplay.grey-flasks")
    if action.bump:
        sections.append("spots.golgi")
    if action.extra:
        sections.append("epigenetic.extra-resource")
    if action.grey and puzzle.epigenetic is epigenetic.EpigeneticCard.CHEAP_GREY_FLASK:
        sections.append("epigenetic.cheap-grey-flask")
    if spot.kind is SpotKind.CARD_ROW and puzzle.epigenetic is epigenetic.EpigeneticCard.FREE_CARD:
        sections.append("epigenetic.free-card")
    return tuple(dict.fromkeys(sections))


ALL_SECTIONS: tuple[str, ...] = tuple(sorted({s for v in SpotKind for s in v.rule_sections}
                                             | {s for k in ActionKind for s in k.rule_sections}))
