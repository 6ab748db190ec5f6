"""Closed vocabularies (Enums) and small frozen value types: stock, cards, spots, boards, puzzles.

Section IDs in docstrings refer to ``data/rules/cytosis/game.yaml``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from enum import Enum


class Edition(Enum):
    """Which rulebook applies: ``1e`` (Italian 1st edition) or ``2e`` (English 2nd edition)."""

    FIRST = "1e"
    SECOND = "2e"


class Ruling(Enum):
    """A rule whose text allows more than one reading (``rulings:`` in a puzzle). Each ruling's
    readings are :data:`RULING_READINGS`; :data:`RULING_DEFAULTS` is the reading used when a
    puzzle does not name one. The engine and the planner support every reading."""

    FREE_RIBOSOME_ZERO = "free-ribosome-zero"
    """2e ``spots.free-ribosome``: "they must return any number of black mRNA": is returning
    none allowed? (1e: "possono scambiare qualsiasi numero", zero always allowed.)"""
    TWO_PLAYER_DETOX_TIE = "two-player-detox-tie"
    """2e ``two-player.scoring``: "In case of a tie, each player receives 3 points": a tie on
    the amount of Alcohol Detox (``amount``), or a tie left after the general tie-break, "the
    tying player with the most completed Alcohol Detoxification Cards wins" (``after-cards``)."""
    GREY_FLASK_AREA_LIMIT = "grey-flask-area-limit"
    """1e ``two-player.gameplay``: "è consentito piazzare al massimo 1 beuta per round in
    ciascuna area" and "Un giocatore può comunque ... piazzare una Beuta Grigia in QUALSIASI
    spazio ... anche se un'altra beuta è già stata piazzata in quell'area": does a grey flask
    already in an area use up its one flask (``counts``) or not (``exempt``)?"""
    GREY_THEN_EXHAUST = "grey-then-exhaust"
    """2e ``gameplay.grey-flasks`` and ``gameplay.exhaust-flask``: after a grey flask "A player will
    then take their normal flask placement", and a flask is exhausted "Instead of placing a flask":
    may the turn's flask be exhausted after a grey flask (``allowed``: exhausting stands in for the
    normal placement) or must a placement follow (``not-allowed``)?"""
    EXTRA_RESOURCE_LOWER_MITOCHONDRIA = "extra-resource-lower-mitochondria"
    """1e ``epigenetic.extra-resource``: "1 macromolecola addizionale o 1 ATP ogni volta che piazza
    su uno spazio raccolta risorse numerato" (the examples name the spaces [3] and [2]); the
    ``spots.mitochondria`` text names the lower spot by its place ("lo spazio inferiore": 1
    carbohydrate for 6 ATP), not by a number: is it a numbered collection spot (``included``) or
    not (``excluded``)?"""
    DISK_CARD = "disk-card"
    """``spots.exocytosis``, ``spots.completing-cards``: which card a Transport Vesicle Disk
    completes: any card in hand whose macromolecules the disk covers, named when it is
    revealed at Exocytosis, or only the card the disk was started for in the ER."""
    DISK_LOAD = "disk-load"
    """2e ``spots.completing-cards`` "must have at least the number of macromolecules required ...
    but may have more" against ``spots.smooth-er-detox-steroid`` "according to the quantity shown
    on the ... Card": does the ER step load the card's quantity (``exact``) or may it load more
    (``more-allowed``)?"""
    REMOVED_DISK_CUBES = "removed-disk-cubes"
    """1e ``spots.golgi``: a disk removed from a full area: "il giocatore sceglie in quell'area un
    Disco Trasporto Vescicolare (e tutte le risorse che trasporta) e lo rimuove dal tabellone di
    gioco, restituendo il Disco al giocatore proprietario": do its cubes go back to the owner with
    the disk (``returned``, as the 2nd edition states: "along with all macromolecules on it") or
    leave the board with it to the general supply (``to-supply``: only "il Disco" is returned)?"""


RULING_READINGS: dict[Ruling, tuple[str, ...]] = {
    Ruling.FREE_RIBOSOME_ZERO: ("at-least-one", "zero-allowed"),
    Ruling.DISK_CARD: ("at-exocytosis", "at-er"),
    Ruling.TWO_PLAYER_DETOX_TIE: ("amount", "after-cards"),
    Ruling.GREY_FLASK_AREA_LIMIT: ("counts", "exempt"),
    Ruling.GREY_THEN_EXHAUST: ("allowed", "not-allowed"),
    Ruling.EXTRA_RESOURCE_LOWER_MITOCHONDRIA: ("excluded", "included"),
    Ruling.REMOVED_DISK_CUBES: ("returned", "to-supply"),
    Ruling.DISK_LOAD: ("exact", "more-allowed"),
}
"""The readings of each ruling, the default first."""

RULING_DEFAULTS: dict[Ruling, str] = {r: readings[0] for r, readings in RULING_READINGS.items()}
"""Default reading of each ruling: ``free-ribosome-zero: at-least-one`` (the 2e "must"),
``two-player-detox-tie: amount`` (the two-player section states its own tie rule),
``grey-flask-area-limit: counts`` ("al massimo 1 beuta": any flask),
``grey-then-exhaust: allowed`` (exhausting is the turn's flask, taken "instead of placing"),
``extra-resource-lower-mitochondria: excluded`` (the card's examples are numbered spaces; the rules
name the lower Mitochondria spot by its place),
``disk-card: at-exocytosis`` (the card is revealed, "placed face up", only at Exocytosis;
before that the text says only "the card they are trying to complete"),
``removed-disk-cubes: returned`` (the disk is removed "e tutte le risorse che trasporta", and the
2nd edition returns them with it),
``disk-load: exact`` (the ER steps say "according to the quantity shown on the ... Card")."""

RULING_EDITIONS: dict[Ruling, tuple[Edition, ...]] = {
    Ruling.FREE_RIBOSOME_ZERO: (Edition.SECOND,),
    Ruling.DISK_CARD: (Edition.FIRST, Edition.SECOND),
    Ruling.TWO_PLAYER_DETOX_TIE: (Edition.SECOND,),
    Ruling.GREY_FLASK_AREA_LIMIT: (Edition.FIRST,),
    Ruling.GREY_THEN_EXHAUST: (Edition.SECOND,),
    Ruling.EXTRA_RESOURCE_LOWER_MITOCHONDRIA: (Edition.FIRST,),
    Ruling.REMOVED_DISK_CUBES: (Edition.FIRST,),
    Ruling.DISK_LOAD: (Edition.SECOND,),
}
"""Editions whose text a ruling is about."""





class EpigeneticCard(Enum):
    """The seven Epigenetic Modification Cards (``components.epigenetic-cards``: "7 CARTE
    MODIFICAZIONE EPIGENETICA"); the value is the last part of the card's rule section id."""

    ATP_EXCHANGE = "atp-exchange"
    """Trade ATP for lipids, mRNA (1:1) and carbohydrates (2:1), as often as wanted in a turn."""
    PEEK_DECK = "peek-deck"
    """Once a turn: 2 ATP to look at the top 3 cards, 2 more to take one; reorder the rest."""
    EXTRA_RESOURCE = "extra-resource"
    """One more of the resource on every numbered collection spot."""
    CHEAP_GREY_FLASK = "cheap-grey-flask"
    """A grey flask for 3 ATP instead of 4."""
    EARLY_PLACEMENT = "early-placement"
    """Once a round: 1 ATP to place a flask before the First Player (not modelled)."""
    ROUND_INCOME = "round-income"
    """At the start of each round: 1 ATP, 1 mRNA or 1 lipid."""
    FREE_CARD = "free-card"
    """Cell Component Cards from the card row cost nothing."""

    @property
    def section(self) -> str:
        """The card's rule section id (``data/rules/cytosis/game.yaml``)."""
        return f"epigenetic.{self.value}"


RULING_CARDS: dict[Ruling, EpigeneticCard] = {
    Ruling.EXTRA_RESOURCE_LOWER_MITOCHONDRIA: EpigeneticCard.EXTRA_RESOURCE,
}
"""Rulings about an Epigenetic card's text: they apply only to a puzzle whose player holds it."""


class Resource(Enum):
    """ATP and the four macromolecules of a personal stock (``gameplay.phase-1``), in the order
    stocks are shown (:data:`STOCK_ORDER`)."""

    ATP = "atp"
    MRNA = "mrna"
    PROTEIN = "protein"
    CARB = "carb"
    LIPID = "lipid"

    @classmethod
    def _missing_(cls, value: object) -> "Resource | None":
        """The card files' long spelling (``carbohydrate``) names the same resource as ``carb``."""
        return RESOURCE_SPELLINGS.get(value) if isinstance(value, str) else None


RESOURCE_SPELLINGS = {"carbohydrate": Resource.CARB}
"""Other spellings the data files use for a resource (``data/cards/*.yaml`` write ``carbohydrate``)."""


RESOURCE_NAMES = {Resource.ATP: "ATP", Resource.MRNA: "mRNA", Resource.PROTEIN: "protein",
                  Resource.CARB: "carbohydrate", Resource.LIPID: "lipid"}
"""Singular English names of the resources, for the solver's diagnostics (error messages). The
names shown to players, in every language, are in the catalogue (``steps.resources``)."""

RESOURCE_PLURALS = {Resource.ATP: "ATP", Resource.MRNA: "mRNA", Resource.PROTEIN: "proteins",
                    Resource.CARB: "carbohydrates", Resource.LIPID: "lipids"}
"""Plural English names of the resources, for the diagnostics (``2 lipids``)."""


def resource_amount(amount: int, resource: "Resource") -> str:
    """``1 protein``, ``2 proteins``: an amount with the resource name in the right number."""
    names = RESOURCE_NAMES if amount == 1 else RESOURCE_PLURALS
    return f"{amount} {names[resource]}"


STOCK_ORDER: tuple[str, ...] = tuple(r.value for r in Resource)
"""The resources of a stock by name, in the order every table and text shows them."""


@dataclass(frozen=True, order=True)
class Stock:
    """A vector of resources: a personal stock, a cost, a gain or a disk's load."""

    atp: int = 0
    """ATP tokens."""
    mrna: int = 0
    """Black mRNA cubes."""
    protein: int = 0
    """Red protein cubes."""
    carb: int = 0
    """Green carbohydrate cubes."""
    lipid: int = 0
    """Yellow lipid cubes."""

    def __add__(self, other: "Stock") -> "Stock":
        return Stock(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def __sub__(self, other: "Stock") -> "Stock":
        return Stock(*(a - b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def covers(self, other: "Stock") -> bool:
        """True when every component is >= the other's (enough to pay ``other``)."""
        return all(a >= b for a, b in zip(self.as_tuple(), other.as_tuple()))

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        return (self.atp, self.mrna, self.protein, self.carb, self.lipid)

    def get(self, resource: Resource) -> int:
        amount: int = getattr(self, resource.value)   # every resource's value names an int field
        return amount

    @staticmethod
    def of(resource: Resource, amount: int) -> "Stock":
        return Stock(**{resource.value: amount})

    def as_dict(self, nonzero: bool = False) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self) if not nonzero or getattr(self, f.name)}

    def is_zero(self) -> bool:
        return not any(self.as_tuple())

    def text(self) -> str:
        """The amounts in English (``2 ATP, 3 lipids``), for diagnostics; ``-`` when empty."""
        parts = [resource_amount(getattr(self, r.value), r) for r in Resource if getattr(self, r.value)]
        return ", ".join(parts) if parts else "-"


ZERO = Stock()


class CardType(Enum):
    """The five kinds of Cell Component Card (``cards.hormones``, ``cards.receptors``,
    ``cards.enzymes``, ``cards.detox``, ``cards.macromolecule``)."""

    PROTEIN_HORMONE = "protein-hormone"
    STEROID_HORMONE = "steroid-hormone"
    PROTEIN_RECEPTOR = "protein-receptor"
    STEROID_RECEPTOR = "steroid-receptor"
    ENZYME = "enzyme"
    DETOX = "detox"
    MACROMOLECULE = "macromolecule"
    VIRUS_ATTACK = "virus-attack"
    """Virus expansion: bought from the row, it attacks at once and is never completed
    (``virus.cell-component-cards``)."""

    @property
    def is_completable(self) -> bool:
        """Counts as a completed card (Macromolecule cards never do: ``cards.macromolecule``)."""
        return self not in (CardType.MACROMOLECULE, CardType.VIRUS_ATTACK)


class Strain(Enum):
    """The three Virus strains, one column each of the Immune Response area (``virus.player-mats``)."""

    EBOLA = "ebola"
    INFLUENZA = "influenza"
    RHINOVIRUS = "rhinovirus"
    """Rhinovirus in the English rules, "Raffreddore" in the Italian."""


@dataclass(frozen=True)
class OtherResponse:
    """Another player's Antibody Response to one Virus attack, fixed by the puzzle."""

    seat: int
    """Their seat (0: the 1st edition's "dummy" player of a 2-player game, who wins every tie)."""
    response: int
    """Their dice roll plus their antibodies of the strain."""


@dataclass(frozen=True)
class VirusRoll:
    """The fixed outcome of the dice of one Virus attack (``virus.event-attack``)."""

    roll: int
    """The total of the player's Antibody Dice."""
    others: tuple[OtherResponse, ...]
    """Every other player's Antibody Response (the dummy's included)."""


class VesicleArea(Enum):
    """An area with Budding Transport Vesicle Locations (``spots.rough-er``, ``spots.golgi``)."""

    SMOOTH_ER = "smooth-er"
    ROUGH_ER = "rough-er"
    GOLGI = "golgi"


@dataclass(frozen=True)
class Route:
    """How a hormone or receptor card travels on a disk (``cards.hormones``, ``cards.receptors``)."""

    er: VesicleArea
    """The ER where the disk is placed first."""
    er_resource: Resource
    """What goes on the disk in the ER (proteins are traded from mRNA in the Rough ER)."""
    golgi_resource: Resource
    """The one cube added in the Golgi Apparatus."""


VESICLE_ROUTE: dict[CardType, Route] = {
    CardType.PROTEIN_HORMONE: Route(VesicleArea.ROUGH_ER, Resource.PROTEIN, Resource.CARB),
    CardType.STEROID_HORMONE: Route(VesicleArea.SMOOTH_ER, Resource.LIPID, Resource.CARB),
    CardType.PROTEIN_RECEPTOR: Route(VesicleArea.ROUGH_ER, Resource.PROTEIN, Resource.CARB),
    CardType.STEROID_RECEPTOR: Route(VesicleArea.ROUGH_ER, Resource.PROTEIN, Resource.LIPID),
}

RECEPTOR_OF = {CardType.PROTEIN_HORMONE: CardType.PROTEIN_RECEPTOR, CardType.STEROID_HORMONE: CardType.STEROID_RECEPTOR}
"""Which receptor earns a bonus when a hormone is completed (``cards.receptors``)."""


@dataclass(frozen=True)
class Card:
    """A Cell Component Card used by a puzzle."""

    id: str
    """Puzzle-unique id, e.g. ``protein-hormone-7``."""
    type: CardType
    """Which kind of card."""
    cost: Stock = ZERO
    """ATP and macromolecules needed to complete it (macromolecule cards: none)."""
    health: int = 0
    """Health Points scored immediately on completion (detox: always 1, ``cards.detox``)."""
    color: str | None = None
    """Enzyme colour, for enzyme sets (``scoring.enzyme-sets``)."""
    gain: Stock = ZERO
    """Macromolecule cards: what playing it gives (``cards.macromolecule``)."""
    illustrative: bool = False
    """True when the values are not printed in the rulebooks (made up for the puzzle)."""
    strain: Strain | None = None
    """Virus Attack cards: the strain that attacks."""

    @property
    def route(self) -> Route | None:
        return VESICLE_ROUTE.get(self.type)

    @property
    def detox_amount(self) -> int:
        """Alcohol detoxified by this card: its ATP cost (``scoring.detox``)."""
        return self.cost.atp if self.type is CardType.DETOX else 0


class SpotKind(Enum):
    """What a flask placement spot does. ``rule_sections`` names the rule texts it implements."""

    NUCLEUS = "nucleus"
    FREE_RIBOSOME = "free-ribosome"
    LIPID_SYNTHESIS = "smooth-er-lipids"
    DETOX_STEROID = "smooth-er-detox"
    ROUGH_ER = "rough-er"
    GOLGI = "golgi"
    GLUCOSE = "plasma-membrane-glucose"
    EXOCYTOSIS = "exocytosis"
    MITOCHONDRIA = "mitochondria"
    MITOCHONDRIA_CARB = "mitochondria-carb"
    CYTOPLASM = "cytoplasm"
    LAUREATES = "laureates"
    CARD_ROW = "card-row"

    @property
    def rule_sections(self) -> tuple[str, ...]:
        """Section IDs of ``data/rules/cytosis/game.yaml`` this spot implements."""
        return SPOT_SECTIONS[self]


SPOT_SECTIONS: dict[SpotKind, tuple[str, ...]] = {
    SpotKind.NUCLEUS: ("spots.nucleus", "spots.event-resources"),
    SpotKind.FREE_RIBOSOME: ("spots.free-ribosome", "cards.enzymes"),
    SpotKind.LIPID_SYNTHESIS: ("spots.smooth-er-lipids", "spots.event-resources"),
    SpotKind.DETOX_STEROID: ("spots.smooth-er-detox-steroid", "cards.detox", "cards.hormones"),
    SpotKind.ROUGH_ER: ("spots.rough-er", "cards.hormones", "cards.receptors"),
    SpotKind.GOLGI: ("spots.golgi", "cards.hormones", "cards.receptors"),
    SpotKind.GLUCOSE: ("spots.plasma-membrane-glucose", "spots.event-resources"),
    SpotKind.EXOCYTOSIS: ("spots.exocytosis", "cards.hormones", "cards.receptors"),
    SpotKind.MITOCHONDRIA: ("spots.mitochondria", "spots.event-resources"),
    SpotKind.MITOCHONDRIA_CARB: ("spots.mitochondria", "spots.event-resources"),
    SpotKind.CYTOPLASM: ("spots.cytoplasm", "cards.enzymes"),
    SpotKind.LAUREATES: ("spots.laureates", "cards.goals"),
    SpotKind.CARD_ROW: ("spots.card-row", "events.reduce-atp-cost"),
}


class Area(Enum):
    """A board area: a distinct outlined region (the unit of the 1e two-player limit,
    ``two-player.gameplay``, and of boost events, ``events.boost``)."""

    NUCLEUS = "nucleus"
    FREE_RIBOSOME = "free-ribosome"
    SMOOTH_ER_LIPIDS = "smooth-er-lipids"
    SMOOTH_ER_DETOX = "smooth-er-detox"
    ROUGH_ER = "rough-er"
    GOLGI = "golgi"
    PLASMA_MEMBRANE_GLUCOSE = "plasma-membrane-glucose"
    EXOCYTOSIS = "exocytosis"
    MITOCHONDRIA = "mitochondria"
    CYTOPLASM = "cytoplasm"
    LAUREATES = "laureates"
    CARD_ROW = "card-row"


@dataclass(frozen=True)
class Spot:
    """One flask placement spot of a board side."""

    id: str
    """Stable id, e.g. ``nucleus-3``, ``rough-er-1``, ``card-row-2``."""
    kind: SpotKind
    """What placing here does."""
    area: Area
    """The board area the spot belongs to."""
    value: int = 0
    """The printed number: resources collected, ATP paid at the glucose transporter, or the
    ATP price of a card-row slot."""
    slot: int | None = None
    """Card row only: 0-based slot index, left to right."""
    provenance: str = "rulebook"
    """``rulebook`` when the rulebook text gives this spot, ``assumed`` otherwise."""

    @property
    def row_slot(self) -> int:
        """:attr:`slot` of a card-row spot (the puzzle loader refuses a card-row spot without one)."""
        if self.slot is None:
            raise ValueError(f"spot {self.id!r} is not a card-row slot")
        return self.slot

    @property
    def rule_sections(self) -> tuple[str, ...]:
        """Section IDs of the rules this spot implements (for linking plan steps)."""
        return self.kind.rule_sections

    @property
    def cost(self) -> Stock:
        """Fixed resources paid when placing here (card-dependent costs excluded)."""
        if self.kind is SpotKind.GLUCOSE:
            return Stock(atp=self.value)
        if self.kind is SpotKind.MITOCHONDRIA_CARB:
            return Stock(carb=1)
        return ZERO

    @property
    def gain(self) -> Stock:
        """Fixed resources collected when placing here (boosts and card effects excluded)."""
        return {
            SpotKind.NUCLEUS: Stock(mrna=self.value),
            SpotKind.LIPID_SYNTHESIS: Stock(lipid=self.value),
            SpotKind.GLUCOSE: Stock(carb=self.value),
            SpotKind.MITOCHONDRIA: Stock(atp=self.value),
            SpotKind.MITOCHONDRIA_CARB: Stock(atp=self.value),
        }.get(self.kind, ZERO)


@dataclass(frozen=True)
class Boost:
    """Where a Boost event puts its resource (``events.boost``)."""

    event: str
    """Event id, e.g. ``boost-nucleus``."""
    resource: Resource
    """The resource added."""
    areas: tuple[Area, ...]
    """Placing on any spot of these areas claims it."""
    provenance: str = "assumed"
    """``rulebook`` or ``assumed``."""


@dataclass(frozen=True)
class Board:
    """One side of the board (``two-player.board``)."""

    id: str
    """``3-5p`` or ``2p``."""
    spots: tuple[Spot, ...]
    """Every flask placement spot."""
    vesicles: tuple[tuple[VesicleArea, int], ...]
    """Budding Transport Vesicle Locations per area."""
    vesicle_provenance: tuple[tuple[VesicleArea, str], ...] = ()
    """``rulebook`` or ``assumed`` per vesicle area."""
    boosts: tuple[Boost, ...] = ()
    """Boost events and the areas they feed."""
    editions: tuple[Edition, ...] = (Edition.FIRST, Edition.SECOND)
    """Editions that have this board side."""

    @cached_property
    def _spots_by_id(self) -> dict[str, Spot]:
        return {s.id: s for s in self.spots}

    def spot(self, spot_id: str) -> Spot:
        return self._spots_by_id[spot_id]

    def vesicle_count(self, area: VesicleArea) -> int:
        return dict(self.vesicles)[area]

    @property
    def row_slots(self) -> tuple[Spot, ...]:
        return tuple(sorted((s for s in self.spots if s.kind is SpotKind.CARD_ROW), key=lambda s: s.row_slot))

    @cached_property
    def _boosts_by_event(self) -> dict[str, Boost]:
        return {b.event: b for b in self.boosts}

    def boost(self, event: str) -> Boost | None:
        return self._boosts_by_event.get(event)


class EventKind(Enum):
    """Event card kinds (``events.boost``, ``events.reduce-atp-cost``, ``events.toxicity``)."""

    BOOST = "boost"
    REDUCE_ATP_COST = "reduce-atp-cost"
    TOXICITY = "toxicity"
    VIRUS = "virus"
    """Virus expansion: ``virus-ebola``, ``virus-influenza``, ``virus-rhinovirus`` (``virus.event-cards``)."""


def event_kind(event_id: str) -> EventKind:
    if event_id.startswith("boost-"):
        return EventKind.BOOST
    if event_id.startswith("virus-"):
        return EventKind.VIRUS
    return EventKind(event_id)


def event_strain(event_id: str) -> Strain:
    """The strain of a Virus Event (``virus-influenza`` -> influenza)."""
    return Strain(event_id.removeprefix("virus-"))


@dataclass(frozen=True)
class Goal:
    """A Goal Card on the table (``cards.goals``, ``scoring.goals``). Goal texts are not in the
    rulebooks' text, so end-game conditions are illustrative."""

    id: str
    """Puzzle-unique id."""
    card_types: tuple[CardType, ...] = ()
    """Completed cards of these types count towards the goal."""
    count: int = 0
    """How many such completed cards are needed."""
    points: int = 0
    """End-game points when the condition holds."""
    markers: int = 0
    """Goal markers other players have already put on it (at most 2 in all)."""
    illustrative: bool = True
    """Always true for now: no goal text survives in the sources."""
    title: tuple[tuple[str, str], ...] = ()
    """Optional title per language."""


@dataclass(frozen=True)
class OpponentDisk:
    """Another player's Transport Vesicle Disk sitting on a budding location."""

    id: str
    """Stable id (``opp1``…), used to name it in a 1e removal choice."""
    area: VesicleArea
    """Where it sits."""
    health: int
    """Its owner's Health Points (2e removes the highest, ``spots.golgi``)."""
    seat: int = 2
    """Its owner's place in turn order (ties: earliest seat)."""


@dataclass(frozen=True)
class DetoxFigure:
    """An opponent's fixed detox result for majority scoring (``scoring.detox``)."""

    amount: int
    """Total ATP on their completed detox cards."""
    cards: int
    """How many detox cards they completed (first tie-break)."""


@dataclass(frozen=True)
class Puzzle:
    """A single-player planning puzzle over the Cytosis rules. Frozen; see ``data/puzzles``."""

    id: str
    """File-stem id."""
    title: tuple[tuple[str, str], ...]
    """(lang, text) pairs."""
    story: tuple[tuple[str, str], ...]
    """(lang, text) pairs."""
    edition: Edition
    """Which rulebook."""
    board: Board
    """Board side, after the puzzle's overrides."""
    players: int
    """Number of players at the table (2-5): selects 2-player rules and detox tables."""
    rounds: int
    """Number of rounds to play."""
    flasks: int
    """The player's flasks per round."""
    start: Stock
    """Personal stock at the start."""
    health: int
    """Health Points at the start."""
    hand: tuple[str, ...]
    """Card ids in hand."""
    row: tuple[str | None, ...]
    """Card row, left to right (None: empty slot)."""
    deck: tuple[str, ...]
    """Deck, top first."""
    events: tuple[str | None, ...]
    """Active event per round (index 0: round 1)."""
    occupied: tuple[tuple[str, ...], ...]
    """Spots other players take, per round (index 0: round 1)."""
    grey_flasks: int
    """Grey flasks in the Grey Flask Area each round."""
    goals: tuple[Goal, ...]
    """Goal cards on the table."""
    goal_markers: int
    """The player's goal markers (2 in the rulebooks)."""
    detox_opponents: tuple[DetoxFigure, ...]
    """Opponents' fixed detox figures."""
    opponent_disks: tuple[OpponentDisk, ...]
    """Opponents' disks on budding locations at the start."""
    opponent_hormones: tuple[tuple[CardType, ...], ...]
    """Hormones other players complete, per round (receptor bonuses, ``cards.receptors``)."""
    cards: tuple[Card, ...]
    """Every card the puzzle mentions."""
    objective: str = "max-health"
    """Only ``max-health``: final Health Points including end-game scoring."""
    seat: int = 1
    """The player's place in turn order (2e disk-removal ties)."""
    first_player: bool = True
    """Whether the player holds the First Player Marker at the start."""
    source: str = ""
    """File the puzzle was loaded from."""
    grade: int = 1
    """Difficulty, 1 (first steps) to 5 (whole-game planning)."""
    marker_seat: int = 0
    """The seat of the other player holding the First Player Marker at the start when the player
    does not (``first_player: false``); 0: the lowest seat that is not the player's."""
    laureates_seats: tuple[int, ...] = ()
    """Per round (index 0: round 1), the seat of the other player whose flask takes Laureates in
    Biology, and with it the marker (``spots.laureates``); 0 or missing: the lowest seat that is
    not the player's."""
    antibodies: tuple[int, int, int] = (0, 0, 0)
    """Virus expansion: the player's antibodies per :class:`Strain` at the start."""
    virus_rolls: tuple[tuple[str, VirusRoll], ...] = ()
    """Virus expansion: the fixed dice of each attack, by source: ``round-N`` (the Virus Event of
    round N) or a Virus Attack card's id."""
    epigenetic: EpigeneticCard | None = None
    """The Epigenetic Modification Card the player holds (1st edition, ``epigenetic.*``), or None."""
    rulings: tuple[tuple[Ruling, str], ...] = ()
    """Readings chosen for ambiguous rules (:class:`Ruling`); a ruling not listed takes its
    default (:data:`RULING_DEFAULTS`)."""

    def reading(self, ruling: Ruling) -> str:
        """The reading of ``ruling`` this puzzle uses."""
        return dict(self.rulings).get(ruling, RULING_DEFAULTS[ruling])

    def rulings_in_play(self) -> tuple[Ruling, ...]:
        """The rulings of :meth:`readings` whose readings can lead to different plans here (the
        rest concern a situation the puzzle cannot reach: see :data:`RULING_IN_PLAY`)."""
        return tuple(r for r in Ruling if r.value in self.readings() and RULING_IN_PLAY[r](self))

    def with_reading(self, ruling: Ruling, reading: str) -> "Puzzle":
        """This puzzle played under another reading of ``ruling``."""
        from dataclasses import replace
        chosen = dict(self.rulings)
        chosen[ruling] = reading
        return replace(self, rulings=tuple(sorted(chosen.items(), key=lambda p: p[0].value)))

    def readings(self) -> "Mapping[str, str]":
        """Every ruling that applies to this puzzle's edition, with the reading used (read-only)."""
        return self._readings

    @cached_property
    def _readings(self) -> dict[str, str]:
        # computed once: the engine asks on its hot path; callers treat it as read-only
        return {r.value: self.reading(r) for r in Ruling if self.edition in RULING_EDITIONS[r]
                and RULING_CARDS.get(r, self.epigenetic) is self.epigenetic}

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def card(self, card_id: str) -> Card:
        return self._cards_by_id[card_id]

    def text(self, which: str, lang: str) -> str:
        pairs = dict(getattr(self, which))
        return pairs.get(lang) or pairs.get("en") or next(iter(pairs.values()), "")

    def occupied_in(self, round_: int) -> tuple[str, ...]:
        """The spots other players take in ``round_`` (1-based; none past the puzzle's list)."""
        return self.occupied[round_ - 1] if 0 < round_ <= len(self.occupied) else ()

    def event_in(self, round_: int) -> str | None:
        """The event card active in ``round_`` (1-based), or None (none past the puzzle's list)."""
        return self.events[round_ - 1] if 0 < round_ <= len(self.events) else None

    @property
    def uses_virus(self) -> bool:
        """Does the puzzle play the Virus expansion (a Virus Event or Virus Attack card)?"""
        return bool(self.virus_rolls) or any(e and event_kind(e) is EventKind.VIRUS for e in self.events) \
            or any(c.type is CardType.VIRUS_ATTACK for c in self.cards)

    def _lowest_other_seat(self) -> int:
        return 1 if self.seat != 1 else 2

    def other_marker_seat(self, round_: int) -> int:
        """The seat of the other player holding the First Player Marker at the start of round
        ``round_`` when the player does not: the last other player who took Laureates in Biology
        in an earlier round ("keep it for all subsequent rounds until it is claimed by another
        player", ``spots.laureates``), else the holder at the start (:attr:`marker_seat`)."""
        board = self.board
        for r in range(min(round_ - 1, len(self.occupied)), 0, -1):
            if any(board.spot(s).kind is SpotKind.LAUREATES for s in self.occupied_in(r)):
                seat = self.laureates_seats[r - 1] if r - 1 < len(self.laureates_seats) else 0
                return seat or self._lowest_other_seat()
        return self.marker_seat or self._lowest_other_seat()

    def reachable_cards(self) -> tuple[Card, ...]:
        """Cards the player can ever hold: the hand, the row and the deck."""
        ids = list(self.hand) + [c for c in self.row if c] + list(self.deck)
        return tuple(self.card(c) for c in ids)


def _vesicle_cards(puzzle: "Puzzle") -> int:
    return sum(1 for c in puzzle.reachable_cards() if c.route is not None)


RULING_IN_PLAY: dict[Ruling, "Callable[[Puzzle], bool]"] = {
    Ruling.FREE_RIBOSOME_ZERO: lambda p: True,     # any flask may end up on the Free Ribosome
    Ruling.TWO_PLAYER_DETOX_TIE: lambda p: p.players == 2 and any(
        c.type is CardType.DETOX for c in p.reachable_cards()) and bool(p.detox_opponents),
    Ruling.GREY_FLASK_AREA_LIMIT: lambda p: p.players == 2 and p.grey_flasks > 0,
    Ruling.GREY_THEN_EXHAUST: lambda p: p.grey_flasks > 0,
    Ruling.DISK_CARD: lambda p: _vesicle_cards(p) >= 2,
    Ruling.EXTRA_RESOURCE_LOWER_MITOCHONDRIA: lambda p: True,   # only in readings() with the card
    Ruling.DISK_LOAD: lambda p: _vesicle_cards(p) >= 2 and p.reading(Ruling.DISK_CARD) == "at-exocytosis",
    Ruling.REMOVED_DISK_CUBES: lambda p: _vesicle_cards(p) >= 1 and any(
        p.board.vesicle_count(a) <= 1 + sum(1 for d in p.opponent_disks if d.area is a) for a in VesicleArea),
}
"""Whether each ruling's readings can matter in a puzzle: a Free Ribosome placement exists on every
board; the two-player detox tie needs two players, a detox card and an opponent's figure; the grey
flask rulings need grey flasks; a disk completes another card only with two hormone or receptor
cards; an own disk leaves a full area only when an area can fill with one own disk in it (its
locations at most 1 + the other players' disks there); a disk loaded with more cubes helps only
a disk that completes another card (two hormone or receptor cards, ``disk-card: at-exocytosis``)."""
