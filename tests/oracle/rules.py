"""The single-player Cytosis flask-placement game, as a puzzle states it, from the rulebooks alone.

Written from ``data/sources/cytosis-it-1e.txt`` (official Italian 1st edition, "1e") and
``data/sources/cytosis-en-2e.txt`` (official English 2nd edition, "2e"), sectioned in
``data/rules/cytosis/``; section IDs are cited as ``[spots.golgi]``. It reads the puzzle format
(``data/puzzles/puzzle.schema.json``, ``data/README.md``) and the board files (``data/boards/``)
with PyYAML, and imports nothing from ``solver`` (a test parses this package's AST).

Scope (:func:`supports` names the first reason a puzzle is outside it)
-----------------------------------------------------------------------
- Either edition: 3 to 5 players on the 3-5 player board side; 2 players on the 3-5 player side
  in the 1st edition (its area limit [two-player.board]) and on the ``2p`` side in the 2nd.
  No ``board_override``.
- At most 8 placements (``rounds * flasks <= 8``), any number of grey flasks (0-2 per round).
- Cards: Protein and Steroid Hormones, both Receptors, Enzymes (at most 5 colours, at most two
  enzymes of one colour in the puzzle), Alcohol Detoxification, Macromolecule cards. Hormone and
  receptor cards must have the printed shape: their ER resource (Proteins or Lipids) at least 1,
  exactly 1 of their Golgi resource, ATP, nothing else.
- Events: none, the four Boosts, Reduce ATP Cost; Toxicity in the 1st edition from round 2 on
  (a round-1 Toxicity would have struck before the puzzle's start stock: the format does not say).
- ``occupied``: any spot of the board, except a spot in an area that holds a Boost resource that
  round (who of the other players came first is not stated, so who took the resource is unknown).
- ``opponents.detox`` (every listed opponent with at least 1 card); no goals, no opponent disks,
  no opponent hormones.
- Epigenetic Modification Cards (1st edition only, ``epigenetic:``): the five below and
  ``peek-deck`` (:func:`_peek`); not the one placing a flask before the First Player.
- Virus Events (``virus-<strain>``) with the puzzle's fixed dice (``virus_rolls``), 2-5 players in
  the 1st edition (a dummy, seat 0, at two), 3-5 in the 2nd; the player's antibodies at the start;
  the First Player Marker's holder (``first_player``, ``marker_seat``; then whoever's flask goes on
  Laureates in Biology: another player's seat per round in ``laureates_seats``, required in a Virus
  game of 3+ players, the player's own flask coming after the other players'). Virus Attack cards
  (``type: virus-attack``, ``strain``) in the row or the deck, each with its dice under its id; not
  in the starting hand ("that card immediately takes effect" when purchased). Not in scope: two
  Virus Attack cards bought by other players in one round, or one bought by another player in a
  round where another player takes the First Player Marker (the order of their flasks decides the
  outcome; the search raises :class:`OutOfScope` on reaching such a round). Readings: the event
  attacks when revealed, before anything else of the round (its Phase 2, or the setup for round 1);
  another player's purchase attacks with their flask, before the player's first turn and after the
  round's income ("All'inizio di ciascun round" [epigenetic.round-income]); the player's purchase
  attacks at once, in the turn ("becomes active immediately and all players should pause"
  [virus.attack]), its ranking from the marker's holder at that moment (the player, once their
  flask is on Laureates in Biology earlier in the round); "Antibody Response" = the roll + the
  strain's antibodies; ranked, "the tying player in the closest position clockwise to the player
  with the First Player Card wins the tie" (1e: the dummy wins every tie); gains "any combination of
  ATP, mRNA and Lipids", a loss "any resource from their personal resource stock or ... 1 Health
  Point" by the edition's table [virus.allocation]; then "For each ATP paid ... 2 antibodies"
  [virus.event-attack]. A Virus Attack card adds, for its buyer, "Only the player who purchased
  the Virus Attack Card may pay additional ATP" before the roll, and for everyone else "All other
  players lose 1 Health Point on the Health Track" [virus.card-attack]; the card is then gone (in
  no hand, scoring nothing). Macromolecule cards may be played after the round's last flask, so
  before a Phase 2 attack, but not while another player's purchase attacks (not the player's turn).
- The Cell Component deck may run out only where the discard pile cannot then hold two or more
  cards (refilling from a shuffled pile of several cards [gameplay.phase-2] is random): the deck
  holds 4 cards per refresh (``4 * (rounds - 1)``), or the game has one Phase 2 (two rounds), 3
  players or more (one card discarded) and exactly one card at most can reach the pile in round 1
  and its Phase 2 (played Macromolecule cards from hand and row, one discard). A pile of two or
  more met all the same raises :class:`OutOfScope` during the search.

Readings taken (the sentence quoted; the other reading in brackets)
--------------------------------------------------------------------
- Other players' spots (``occupied``) are taken for the whole round, before the player's first
  turn. "Only 1 flask may be placed on each spot." [gameplay.phase-1]
- A player on a card-row slot has bought its card: the slot is empty for the rest of the round,
  a grey flask placed there cannot buy it, and Phase 2 discards and slides the row as it then is.
  2e "they must pay the ATP cost ... and collect the card in the slot just below their flask"
  [spots.card-row]; 1e "pescare la carta sotto la beuta". (:class:`Readings` ``row_slot_bought``.)
- 2e Phase 2 "Remove the left-most card": the left-most card present (a slot emptied by a purchase
  holds none). 1e "Scarta ... la Carta Componente Cellula più economica": the card in the cheapest
  slot present (the board's slot prices; lowest slot index on a tie). Remaining cards slide left in
  order and empty slots are filled left to right from the top of the deck. "If there are no cards
  remaining in the Cell Component deck, shuffle the Cell Component discard pile and place it face
  down as the Cell Component deck": read when a slot is to be filled and the deck is empty, so the
  pile holds this Phase 2's discards (and the Macromolecule cards played, "place that card in the
  Cell Component discard pile"); a pile of one card has one order and fills the next slot; an
  empty pile leaves the slots empty. The pile starts empty.
- Free Ribosome, 1e: "possono scambiare qualsiasi numero di risorse mRNA" allows 0 (a placement
  with nothing traded). 2e: "they must return any number of black mRNA": read as at least 1 (the
  word "must"; [any number, zero included]). (:class:`Readings` ``free_ribosome_zero_1e``.)
- Macromolecule cards "may be kept in a player's hand and played at any time during a player's
  turn" (1e "in qualsiasi momento durante il turno") [cards.macromolecule]: before the grey flask,
  between the grey flask and the turn's flask, and after the turn's flask, the last turn of the
  game included. (:class:`Readings` ``macromolecule_any_time``.)
- Grey flask: "Before a player places their flask during their turn, they may pay 4 ATP ...
  A player will then take their normal flask placement." [gameplay.grey-flasks]: the 4 ATP are
  paid before the action (so the action's own costs come after them), a grey flask is followed by
  a placement (not by exhausting: ``Readings.grey_then_exhaust``; the engine allows it), takes a
  spot for the rest of the round ("Only 1 flask may be placed on each spot"), and "must be able to
  take the action associated with that spot".
- Exhausting a flask exists in the 2nd edition only ([gameplay.exhaust-flask] is ``only: en``).
  In the 1st edition a turn with no legal placement is a dead end (the player "deve piazzare").
- A Transport Vesicle Disk is tied to a card at the ER step, where the rulebook names the card:
  "according to the quantity shown on the Steroid Hormone Card they are trying to complete"
  [spots.smooth-er-detox-steroid], "(according to the Cell Component Card they are trying to
  complete)" [spots.rough-er]. The ER step puts exactly the card's quantity on the disk
  [at least, "but may have more" [spots.completing-cards]: more cubes only return to the supply on
  completion, or come back unchanged at the end, except Proteins made from mRNA at the Rough ER,
  which this oracle does not explore]. The card must be in hand and not yet tied to another disk;
  the player owns 2 disks [components.player-pieces]; no opponent disks are in scope, so the
  areas' 3 Budding Transport Vesicle Locations never fill.
- Golgi: exactly 1 Carbohydrate (1 Lipid for a Steroid Hormone Receptor) [spots.golgi],
  [cards.receptors]. Exocytosis: the disk in the Golgi, its card's ATP paid [spots.exocytosis].
- Detox: pay the card's ATP, "immediately gain 1 Health Point" [cards.detox].
- Receptors: completing a Hormone scores 1 more Health Point per Receptor of its kind already
  completed [cards.receptors].
- Boosts: the resource goes to the first placement in the area (normal or grey flask), they pile
  up until taken [events.boost]; the areas and resources are the board file's ``boosts``.
- Reduce ATP Cost: each card bought costs 1 ATP less (not below 0); the slot printed 0 is "the
  Free spot" and also gives 1 ATP [events.reduce-atp-cost].
- Toxicity (1e) strikes when revealed in Phase 2, on the personal stock's macromolecules only:
  5+ lose 1, 7+ lose 2, 10+ lose 4 [events.toxicity].
- Laureates in Biology with no goal cards: take 1 ATP [spots.laureates].
- 2 players: Phase 2 discards two cards (1e the two cheapest, 2e the two left-most)
  [two-player.gameplay]; detox 6/3 (1e) or 5/2 (2e) [two-player.scoring], the card-count
  tiebreak first, then 1e shares the positions' points (4 each), 2e "each player receives 3".
  1e area limit: see ``AREA_LIMIT_1E_2P``; another player's flask counts in its area, and so does
  a grey flask ([the other reading: a grey flask does not use up its area]).
- Epigenetic Modification Cards [epigenetic.*], "può" (may) throughout, so each is a choice:
  ``atp-exchange`` "scambiare ATP per Lipidi o mRNA al tasso di 1 ATP per 1 ... e ATP per
  Carboidrati al tasso di 2 ATP per 1 Carboidrato ... quante volte per turno": a move at any step
  of any turn, the end of the game's last turn included; ``extra-resource`` "1 macromolecola
  addizionale o 1 ATP ogni volta che piazza su uno spazio raccolta risorse numerato ... (I
  Carboidrati costano comunque sempre 1 ATP per ogni Carboidrato raccolto)": a second way to take
  Nucleus, Lipid Synthesis, Glucose and the Mitochondria's 2 and 3 (not the lower spot, named "lo
  spazio inferiore"); ``cheap-grey-flask`` "3 ATP per piazzare una Beuta Grigia"; ``round-income``
  "All'inizio di ciascun round ... 1 ATP, 1 mRNA o 1 Lipidi": a move before the round's first
  flask; ``free-card`` "acquista la Carta Componente Cellula gratuitamente".
- End: disk cubes return to the stock [scoring.macromolecules]; 4 mRNA, 4 Lipids, 3 Proteins,
  2 Carbohydrates score 1 each; the detox ranking 8/5/2 with at least 1 card, ties broken by more
  cards then positions shared and rounded down [scoring.detox]; enzyme sets by distinct colours
  2/5/9/14, a second set from the colours held twice [scoring.enzyme-sets].
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from pathlib import Path
from typing import Iterator, NamedTuple

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader when PyYAML has it (faster), else the pure-Python one."""

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "data" / "boards"

RESOURCES = ("atp", "mrna", "protein", "carb", "lipid")
ATP, MRNA, PROTEIN, CARB, LIPID = range(5)
GREY_FLASK_PRICE = 4
EPIGENETIC_IN_SCOPE = ("atp-exchange", "extra-resource", "cheap-grey-flask", "round-income", "free-card")
"""The Epigenetic Modification Cards this oracle's random puzzles draw (1st edition) [epigenetic.*]."""
PEEK_DECK = "peek-deck"
"""The card looking at the deck [epigenetic.peek-deck], also played (with Virus Attack cards: IT 788)."""
PEEK_LOOK, PEEK_TAKE, PEEK_CARDS = 2, 2, 3
"""``peek-deck``: "pagare 2 ATP per guardare segretamente le prime 3 Carte ... pagare 2 ATP aggiuntivi
per piazzare una di queste carte nella propria mano"."""
TRADE_PRICE = {LIPID: 1, MRNA: 1, CARB: 2}
"""``atp-exchange``: ATP per cube [epigenetic.atp-exchange]."""
DISKS_PER_PLAYER = 2
MAX_PLACEMENTS = 8
DETOX_POINTS = (8, 5, 2)
DETOX_POINTS_2P = {"1e": (6, 3), "2e": (5, 2)}
"""2 players: 1e "guadagnerà 6 Punti Salute, il secondo 3"; 2e "5 Health Points ... second most ... 2"."""
AREA_LIMIT_1E_2P = {"card-row": 4, "mitochondria": 2}
"""1e 2 players: "al massimo 1 beuta per round in ciascuna area", except the card area (all four
spots) and the Mitochondria ("due spazi (due sui tre totali)"); the Smooth ER's two areas are
separate areas of the board file already."""
ENZYME_SET_POINTS = {0: 0, 1: 0, 2: 2, 3: 5, 4: 9, 5: 14}
STRAINS = ("ebola", "influenza", "rhinovirus")
PRE_ROLL, RESPOND, VACCINATE = "pre-roll", "respond", "vaccinate"
"""The player's steps of a Virus attack [virus.card-attack], [virus.event-attack]: ATP for
antibodies before the roll (the buyer of a Virus Attack card only), the gain or loss of the place,
ATP for antibodies after it."""
VIRUS_TABLES = {"1e": {3: ((3, 1), True), 4: ((3, 2, 1), True), 5: ((4, 3, 2, 1), False)},
                "2e": {3: ((3, 1), True), 4: ((3, 2, 1), True), 5: ((4, 3, 2, 1), True)}}
"""Resources gained by place from the highest Antibody Response, and whether the lowest loses
[virus.allocation]: 1e "2-3 giocatori" 3/1/perde 1, 4 giocatori 3/2/1/perde 1, 5 giocatori
4/3/2/1/"Perde 0 risorse"; the English expansion 3/1/lose, 3/2/1/lose, 4/3/2/1/lose."""


class OutOfScope(ValueError):
    """The puzzle (or a position reached) is outside what this oracle models."""


class Edition(Enum):
    """The rulebook a puzzle is played by."""

    FIRST = "1e"
    """Official Italian 1st edition."""
    SECOND = "2e"
    """Official English 2nd edition."""


class CardType(Enum):
    """Cell Component card types [cards.types]."""

    PROTEIN_HORMONE = "protein-hormone"
    STEROID_HORMONE = "steroid-hormone"
    PROTEIN_RECEPTOR = "protein-receptor"
    STEROID_RECEPTOR = "steroid-receptor"
    ENZYME = "enzyme"
    DETOX = "detox"
    MACROMOLECULE = "macromolecule"
    VIRUS_ATTACK = "virus-attack"
    """Virus expansion: "There are six Virus Attack Cell Component Cards" [virus.cell-component-cards]."""


ROUGH_ER_TYPES = (CardType.PROTEIN_HORMONE, CardType.PROTEIN_RECEPTOR, CardType.STEROID_RECEPTOR)
"""Cards that start in the Rough ER [spots.rough-er], [cards.receptors]."""
ER_RESOURCE = {CardType.PROTEIN_HORMONE: PROTEIN, CardType.PROTEIN_RECEPTOR: PROTEIN,
               CardType.STEROID_RECEPTOR: PROTEIN, CardType.STEROID_HORMONE: LIPID}
GOLGI_RESOURCE = {CardType.PROTEIN_HORMONE: CARB, CardType.PROTEIN_RECEPTOR: CARB,
                  CardType.STEROID_HORMONE: CARB, CardType.STEROID_RECEPTOR: LIPID}
RECEPTOR_OF = {CardType.PROTEIN_HORMONE: 0, CardType.STEROID_HORMONE: 1}
"""Index in ``State.receptors`` of the receptors that add a point to a completed hormone."""


@dataclass(frozen=True)
class Readings:
    """The readings known to differ from the project's engine at the time of writing.

    ``True`` is this oracle's reading of the text (see the module docstring); ``False`` gives the
    other reading, used only to recognise which rule a disagreement comes from."""

    free_ribosome_zero_1e: bool = True
    """1e Free Ribosome: trading 0 mRNA is allowed ("qualsiasi numero")."""
    macromolecule_any_time: bool = True
    """Macromolecule cards playable after the turn's flask too (False: only before it)."""
    row_slot_bought: bool = True
    """Another player's flask on a card-row slot bought that card (False: the card stays there)."""
    two_player_tie_cards_first: bool = True
    """2e, 2 players: an equal detox amount is first broken by the number of cards (the general
    rule [scoring.detox]) before "In case of a tie, each player receives 3 points"
    [two-player.scoring] (False: any equal amount gives 3 each; the engine today)."""
    grey_then_exhaust: bool = False
    """2e: a grey flask may be followed by exhausting the turn's flask (the oracle's reading: no,
    "A player will then take their normal flask placement"; the engine today: yes)."""
    peek_after_flask: bool = True
    """``peek-deck`` "solo UNA VOLTA per turno", "durante il suo turno": also after the turn's flask,
    like Macromolecule cards (False: only before the turn's flask)."""


@dataclass(frozen=True)
class Card:
    """One Cell Component card as the puzzle gives it."""

    id: str
    """The card id."""
    type: CardType
    """Its type."""
    cost: tuple[int, ...]
    """ATP and macromolecules to complete it, in ``RESOURCES`` order."""
    health: int
    """Health Points on completion (detox: 1 [cards.detox])."""
    color: str | None
    """Enzyme colour (sets [scoring.enzyme-sets])."""
    gain: tuple[int, ...]
    """Macromolecule card: what playing it gives."""
    strain: str | None = None
    """Virus Attack card: the attacking strain (``STRAINS``)."""


@dataclass(frozen=True)
class Spot:
    """A flask placement spot of the board file."""

    id: str
    """Spot id."""
    area: str
    """The area (Boosts and the 2-player rule act on areas)."""
    kind: str
    """What placing there does (key of ``EFFECTS``)."""
    value: int
    """The printed number (resources, or the card-row price)."""
    slot: int | None
    """Card-row slot index."""


@dataclass(frozen=True)
class Puzzle:
    """What a puzzle file states, read by this oracle."""

    id: str
    """Puzzle id."""
    edition: Edition
    """Rulebook."""
    rounds: int
    """Rounds to play."""
    flasks: int
    """The player's flasks per round."""
    start: tuple[int, ...]
    """Personal stock at the start."""
    health: int
    """Health at the start."""
    hand: tuple[str, ...]
    """Cards in hand."""
    row: tuple[str | None, ...]
    """Card row, 4 slots."""
    deck: tuple[str, ...]
    """Deck, top first."""
    events: tuple[str | None, ...]
    """Active event per round."""
    occupied: tuple[frozenset[str], ...]
    """Spots other players take, per round."""
    grey_flasks: int
    """Grey flasks in the Grey Flask Area each round."""
    players: int
    """Players at the table."""
    opponent_detox: tuple[tuple[int, int], ...]
    """Other players' (detox amount, detox cards)."""
    cards: dict[str, Card] = field(hash=False, compare=False)
    """Card definitions by id."""
    spots: tuple[Spot, ...] = ()
    """The board's spots."""
    vesicles: dict[str, int] = field(default_factory=dict, hash=False, compare=False)
    """Budding Transport Vesicle Locations per area."""
    boost_areas: tuple[tuple[str, str, int], ...] = ()
    """(event id, area, resource index) per Boost."""
    epigenetic: str | None = None
    """The player's Epigenetic Modification Card, or None [epigenetic.cards]."""
    seat: int = 1
    """The player's seat (Virus ties)."""
    first_player: bool = True
    """The player holds the First Player Marker at the start."""
    marker_seat: int = 0
    """The other player holding it otherwise (0: the lowest other seat)."""
    antibodies: tuple[int, int, int] = (0, 0, 0)
    """Antibodies at the start per strain (``STRAINS`` order)."""
    virus_rolls: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = ()
    """(attack source: ``round-N`` or a Virus Attack card's id, the player's roll, (seat, Antibody
    Response) of the others)."""
    laureates_seats: tuple[int, ...] = ()
    """Per round, the seat of the other player whose flask is on Laureates in Biology (0: none stated)."""


class State(NamedTuple):
    """A position of the search (health gained so far is not part of it: gains only add up)."""

    round: int
    """0-based round."""
    turn: int
    """0-based turn within the round."""
    step: int
    """0: turn start, 1: after the grey flask, 2: after the turn's flask."""
    stock: tuple[int, ...]
    """Personal stock."""
    hand: tuple[str, ...]
    """Cards in hand, sorted."""
    disks: tuple[tuple[str, str, tuple[int, ...]], ...]
    """(card, area, cubes) per disk on the board, sorted."""
    detox: tuple[int, int]
    """(ATP detoxified, detox cards completed)."""
    enzymes: tuple[str, ...]
    """Colours of completed enzymes, sorted."""
    receptors: tuple[int, int]
    """Completed (protein, steroid) receptors."""
    row: tuple[str | None, ...]
    """Card row."""
    deck: tuple[str, ...]
    """Deck, top first."""
    taken: frozenset[str]
    """Spots holding a flask this round."""
    grey_left: int
    """Grey flasks left in the Grey Flask Area."""
    boosts: tuple[int, ...]
    """Boost resources waiting, per ``Puzzle.boost_areas`` entry."""
    income: bool = False
    """``round-income``: this round's cube not yet taken and no flask placed yet."""
    antibodies: tuple[int, int, int] = (0, 0, 0)
    """Virus: antibodies per strain."""
    attacks: tuple[tuple[str, str, str, int, bool], ...] = ()
    """Virus: the attacks waiting, first to resolve first: (strain, source, stage, the seat holding
    the First Player Marker when the attack struck, bought by another player); the stages are
    ``PRE_ROLL`` (the player bought the card), ``RESPOND``, ``VACCINATE``."""
    peeked: bool = False
    """``peek-deck``: used this turn ("solo UNA VOLTA per turno")."""
    holder: int = 1
    """The seat holding the First Player Marker (the player's ``Puzzle.seat`` once their flask is
    on Laureates in Biology)."""
    pile: tuple[str, ...] = ()
    """The Cell Component discard pile (Phase 2 discards, played Macromolecule cards), in order."""


# ---------------------------------------------------------------- reading a puzzle

def _stock(d: dict | None) -> tuple[int, ...]:
    d = d or {}
    return tuple(int(d.get(r, 0)) for r in RESOURCES)


@lru_cache(maxsize=None)
def _board(side: str) -> tuple[tuple[Spot, ...], dict[str, int], tuple]:
    """Spots, vesicle locations per area and Boost areas of a board file (read once; do not mutate)."""
    data = yaml.load((BOARDS / f"{side}.yaml").read_text(encoding="utf-8"), Loader=SafeLoader)
    spots = tuple(Spot(s["id"], s["area"], s["kind"], int(s.get("value", 0)), s.get("slot"))
                  for s in data["spots"])
    vesicles = {area: int(v["count"]) for area, v in data["vesicles"].items()}
    boosts = []
    for event, b in data.get("boosts", {}).items():
        for area in b["areas"]:
            boosts.append((event, area, RESOURCES.index(b["resource"])))
    return spots, vesicles, tuple(boosts)


def supports(data: dict) -> str | None:
    """Why the puzzle ``data`` (a parsed puzzle file) is outside this oracle's scope, or None."""
    edition = data.get("edition")
    if edition not in ("1e", "2e"):
        return f"edition {edition!r}"
    if data.get("objective") != "max-health":
        return "objective other than max-health"
    board = data.get("board")
    players = data.get("players", 2 if board == "2p" else 3)
    two_player_side = "3-5p" if edition == "1e" else "2p"    # 2e: "a 2 player side of the board"
    if (board, players == 2) not in {("3-5p", False), (two_player_side, True)}:
        return f"board side {board!r} with {players} players in the {edition} rules"
    if players == 2 and len((data.get("opponents") or {}).get("detox") or []) > 1:
        return "more than one opponent in a 2-player game"
    if data.get("board_override"):
        return "board_override"
    card = data.get("epigenetic")
    if card is not None and (edition != "1e" or card not in EPIGENETIC_IN_SCOPE + (PEEK_DECK,)):
        return f"Epigenetic card {card!r} in the {edition} rules"
    if (data.get("rulings") or {}).get("extra-resource-lower-mitochondria", "excluded") != "excluded":
        return "the lower Mitochondria spot read as numbered"
    if data.get("goals"):
        return "goal cards"
    opp = data.get("opponents") or {}
    if set(opp) - {"detox"}:
        return f"opponents: {sorted(set(opp) - {'detox'})}"
    if any(o.get("cards", 0) < 1 for o in opp.get("detox") or []):
        return "an opponent listed with no detox card"
    rounds, flasks = data["rounds"], data["flasks"]
    if rounds * flasks > MAX_PLACEMENTS:
        return f"{rounds * flasks} placements (at most {MAX_PLACEMENTS})"
    events = list(data.get("events") or [])
    spots, _, boosts = _board(board)
    spot_area = {s.id: s.area for s in spots}
    boost_area = {}
    for event, area, _ in boosts:
        boost_area.setdefault(event, set()).add(area)
    boosted: set[str] = set()
    occupied = {int(k): v for k, v in (data.get("occupied") or {}).items()}
    for r in range(1, rounds + 1):
        event = events[r - 1] if r - 1 < len(events) else None
        if event == "toxicity" and (edition == "2e" or r == 1):
            return "Toxicity in the 2nd edition or in round 1"
        if event is not None and event.startswith("virus-"):
            if players < (2 if edition == "1e" else 3):
                return "a Virus Event with fewer players than the Virus rules allow"
            if f"round-{r}" not in (data.get("virus_rolls") or {}):
                return f"a Virus Event without the dice of round {r}"
            continue
        if event not in (None, "toxicity", "reduce-atp-cost") and event not in boost_area:
            return f"event {event!r}"
        boosted |= boost_area.get(event, set())
        for sid in occupied.get(r, []):
            if sid not in spot_area:
                return f"occupied spot {sid!r} not on the board"
            if spot_area[sid] in boosted:
                return f"occupied spot {sid!r} in an area that may hold a Boost resource in round {r}"
    cards = {c["id"]: c for c in data.get("cards") or []}
    if len(data.get("deck") or []) < 4 * (rounds - 1):
        # the one Phase 2's pile: Macromolecule cards played from the hand, and each row card
        # either bought and played (a Macromolecule card) or one of them discarded
        row_ids = [c for c in data.get("row") or [] if c]
        macro = [c for c in list(data.get("hand") or []) if cards.get(c, {}).get("type") == "macromolecule"]
        row_macro = [c for c in row_ids if cards.get(c, {}).get("type") == "macromolecule"]
        if any(c.get("type") == "virus-attack" for c in cards.values()):
            # the rulebooks do not say where a Virus Attack card goes once resolved
            return "a deck shorter than the refills with Virus Attack cards (where a resolved one goes is not stated)"
        most_in_pile = len(macro) + min(len(row_ids), len(row_macro) + 1)
        if rounds > 2 or players == 2 or most_in_pile > 1:
            return "the deck could run out with two or more cards in the discard pile (the reshuffle is random)"
        if most_in_pile == 0:
            # kept out as before: the short deck is in scope for the one-card pile it can bring back
            return "a deck shorter than the refills, with nothing that can reach the discard pile"
    ids = list(data.get("hand") or []) + [c for c in data.get("row") or [] if c] + list(data.get("deck") or [])
    if len(ids) != len(set(ids)):
        return "a card id appears twice"
    if any(c not in cards for c in ids):
        return "a card without a definition"
    attack_cards = [cid for cid in ids if cards[cid]["type"] == "virus-attack"]
    for cid in attack_cards:
        c = cards[cid]
        if c.get("strain") not in STRAINS or any(_stock(c.get("cost"))) or c.get("health"):
            return f"Virus Attack card {cid}: a strain of {STRAINS}, no cost, no Health expected"
        if cid in (data.get("hand") or []):
            return f"Virus Attack card {cid} in hand (it takes effect when bought)"
        if players < (2 if edition == "1e" else 3):
            return "a Virus Attack card with fewer players than the Virus rules allow"
        if cid not in (data.get("virus_rolls") or {}):
            return f"a Virus Attack card without its dice ({cid})"
    virus_game = bool(attack_cards) or any(e and e.startswith("virus-") for e in events[:rounds])
    seats_given = {int(k): v for k, v in (data.get("laureates_seats") or {}).items()}
    for r, spots_taken in occupied.items():
        if virus_game and "laureates" in spots_taken and players > 2 and r not in seats_given:
            return f"another player on Laureates in Biology in round {r} of a Virus game, seat not given"
    colours: dict[str, int] = {}
    for c in cards.values():
        ctype = CardType(c["type"])
        cost = _stock(c.get("cost"))
        if ctype in ER_RESOURCE:
            er, golgi = ER_RESOURCE[ctype], GOLGI_RESOURCE[ctype]
            if cost[er] < 1 or cost[golgi] != 1 or any(cost[i] for i in range(1, 5) if i not in (er, golgi)):
                return f"card {c['id']}: not the printed hormone/receptor shape"
        elif ctype is CardType.DETOX:
            if any(cost[1:]) or c.get("health", 1) != 1:
                return f"card {c['id']}: detox with macromolecules or other than 1 Health"
        elif ctype is CardType.ENZYME:
            colours[c.get("color")] = colours.get(c.get("color"), 0) + 1
    if None in colours or len(colours) > 5 or any(n > 2 for n in colours.values()):
        return "enzyme colours (none, more than 5, or 3+ of one colour)"
    return None


def load(source: dict | str | Path) -> Puzzle:
    """A :class:`Puzzle` from a parsed puzzle dict or a YAML file; :class:`OutOfScope` if
    :func:`supports` refuses it."""
    if isinstance(source, dict):
        data = source
    else:
        data = yaml.load(Path(source).read_text(encoding="utf-8"), Loader=SafeLoader)
    why = supports(data)
    if why:
        raise OutOfScope(f"{data.get('id')}: {why}")
    spots, vesicles, boosts = _board(data["board"])
    cards: dict[str, Card] = {}
    for c in data["cards"]:
        ctype = CardType(c["type"])
        health = 1 if ctype is CardType.DETOX else int(c.get("health", 0))
        cards[c["id"]] = Card(c["id"], ctype, _stock(c.get("cost")), health, c.get("color"), _stock(c.get("gain")),
                              c.get("strain"))
    rounds = data["rounds"]
    events = list(data.get("events") or [])
    events += [None] * (rounds - len(events))
    occ = {int(k): frozenset(v) for k, v in (data.get("occupied") or {}).items()}
    row = list(data.get("row") or [])
    row += [None] * (4 - len(row))
    start = data.get("start") or {}
    return Puzzle(
        id=data["id"], edition=Edition(data["edition"]), rounds=rounds, flasks=data["flasks"],
        start=_stock(start), health=int(start.get("health", 0)), hand=tuple(sorted(data.get("hand") or [])),
        row=tuple(row), deck=tuple(data.get("deck") or []), events=tuple(events[:rounds]),
        occupied=tuple(occ.get(r, frozenset()) for r in range(1, rounds + 1)),
        grey_flasks=int(data.get("grey_flasks", 0)),
        players=int(data.get("players", 2 if data["board"] == "2p" else 3)),
        opponent_detox=tuple((o["amount"], o["cards"]) for o in (data.get("opponents") or {}).get("detox") or []),
        cards=cards, spots=spots, vesicles=vesicles, boost_areas=boosts, epigenetic=data.get("epigenetic"),
        seat=int(data.get("seat", 1)), first_player=bool(data.get("first_player", True)),
        marker_seat=int(data.get("marker_seat", 0)),
        laureates_seats=tuple(int((data.get("laureates_seats") or {}).get(r, (data.get("laureates_seats") or {})
                                                                           .get(str(r), 0)))
                              for r in range(1, rounds + 1)),
        antibodies=tuple(int((data.get("antibodies") or {}).get(s, 0)) for s in STRAINS),
        virus_rolls=tuple((src, int(v["roll"]), tuple((int(o["seat"]), int(o["response"])) for o in v["others"]))
                          for src, v in sorted((data.get("virus_rolls") or {}).items())))


# ---------------------------------------------------------------- small helpers

def _pay(stock: tuple[int, ...], cost: tuple[int, ...]) -> tuple[int, ...] | None:
    out = tuple(a - b for a, b in zip(stock, cost))
    return None if min(out) < 0 else out


def _add(stock: tuple[int, ...], i: int, n: int) -> tuple[int, ...] | None:
    out = list(stock)
    out[i] += n
    return None if out[i] < 0 else tuple(out)


def _without(items: tuple, item) -> tuple:
    out = list(items)
    out.remove(item)
    return tuple(out)


def _price(p: Puzzle, slot: int) -> int:
    return next(s.value for s in p.spots if s.kind == "card-row" and s.slot == slot)


def _event(p: Puzzle, s: State) -> str | None:
    return p.events[s.round]


def _disk_cards(s: State) -> set[str]:
    return {d[0] for d in s.disks}


def _room(p: Puzzle, s: State, area: str) -> bool:
    return sum(1 for d in s.disks if d[1] == area) < p.vesicles.get(area, 0)


# ---------------------------------------------------------------- spot effects
# Each effect yields (extra action fields, new state, Health gained) for every way to take the
# spot's action from ``s`` (flask already on the spot, grey price already paid).

def _extras(p: Puzzle) -> tuple[int, ...]:
    """How many more cubes a numbered collection spot may give: 0, or 0 and 1 with
    ``extra-resource`` [epigenetic.extra-resource]."""
    return (0, 1) if p.epigenetic == "extra-resource" else (0,)


def _collect(resource: int):
    def effect(p, s, spot, readings):
        for more in _extras(p):
            yield ({"extra": True} if more else {}), s._replace(stock=_add(s.stock, resource, spot.value + more)), 0
    return effect


def _glucose(p, s, spot, readings):
    """2e "they must pay exactly 2 ATP ... and collect 2 green Carbohydrates" [spots.plasma-membrane-glucose];
    an extra Carbohydrate costs its ATP too [epigenetic.extra-resource]."""
    for more in _extras(p):
        paid = _add(s.stock, ATP, -(spot.value + more))
        if paid is not None:
            yield ({"extra": True} if more else {}), s._replace(stock=_add(paid, CARB, spot.value + more)), 0


def _mitochondria_carb(p, s, spot, readings):
    """"they must pay exactly 1 green Carbohydrate ... and collect 6 ATP" [spots.mitochondria]."""
    paid = _add(s.stock, CARB, -1)
    if paid is not None:
        yield {}, s._replace(stock=_add(paid, ATP, spot.value)), 0


def _free_ribosome(p, s, spot, readings):
    """mRNA for Proteins, one for one [spots.free-ribosome]; the minimum: see the docstring."""
    low = 0 if (p.edition is Edition.FIRST and readings.free_ribosome_zero_1e) else 1
    for k in range(low, s.stock[MRNA] + 1):
        stock = _add(_add(s.stock, MRNA, -k), PROTEIN, k)
        yield {"amount": k}, s._replace(stock=stock), 0


def _start_disk(p, s, card, area):
    """Put a disk with the card's ER quantity on the ER area (cubes paid by the caller's rule)."""
    if card.id in _disk_cards(s) or len(s.disks) >= DISKS_PER_PLAYER or not _room(p, s, area):
        return None
    er = ER_RESOURCE[card.type]
    load = tuple(card.cost[er] if i == er else 0 for i in range(5))
    return tuple(sorted(s.disks + ((card.id, area, load),)))


def _smooth_er_lower(p, s, spot, readings):
    """Option 1 detox, or Option 2 Steroid Hormone synthesis [spots.smooth-er-detox-steroid]."""
    for cid in sorted(set(s.hand)):
        card = p.cards[cid]
        if card.type is CardType.DETOX:
            paid = _pay(s.stock, card.cost)
            if paid is not None:
                yield {"card": cid}, s._replace(stock=paid, hand=_without(s.hand, cid),
                                                detox=(s.detox[0] + card.cost[ATP], s.detox[1] + 1)), 1
        elif card.type is CardType.STEROID_HORMONE:
            disks = _start_disk(p, s, card, "smooth-er")
            paid = _add(s.stock, LIPID, -card.cost[LIPID])
            if disks is not None and paid is not None:
                yield {"card": cid}, s._replace(stock=paid, disks=disks), 0


def _rough_er(p, s, spot, readings):
    """mRNA from the stock become Proteins on a new disk; "You may not place red Proteins from your
    personal stock" [spots.rough-er]."""
    for cid in sorted(set(s.hand)):
        card = p.cards[cid]
        if card.type in ROUGH_ER_TYPES:
            disks = _start_disk(p, s, card, "rough-er")
            paid = _add(s.stock, MRNA, -card.cost[PROTEIN])
            if disks is not None and paid is not None:
                yield {"card": cid}, s._replace(stock=paid, disks=disks), 0


def _golgi(p, s, spot, readings):
    """Move a disk from an ER to the Golgi and add its 1 Carbohydrate or Lipid [spots.golgi]."""
    if not _room(p, s, "golgi"):
        return
    for disk in s.disks:
        cid, area, load = disk
        if area not in ("smooth-er", "rough-er"):
            continue
        res = GOLGI_RESOURCE[p.cards[cid].type]
        paid = _add(s.stock, res, -1)
        if paid is None:
            continue
        moved = (cid, "golgi", _add(load, res, 1))
        yield {"card": cid}, s._replace(stock=paid, disks=tuple(sorted(_without(s.disks, disk) + (moved,)))), 0


def _exocytosis(p, s, spot, readings):
    """Complete the card of a disk in the Golgi: pay its ATP, gain its Health [spots.exocytosis];
    a hormone adds 1 per receptor of its kind already completed [cards.receptors]."""
    for disk in s.disks:
        cid, area, load = disk
        card = p.cards[cid]
        if area != "golgi" or any(load[i] < card.cost[i] for i in range(1, 5)):
            continue
        paid = _add(s.stock, ATP, -card.cost[ATP])
        if paid is None:
            continue
        gain = card.health
        receptors = s.receptors
        if card.type in RECEPTOR_OF:
            gain += receptors[RECEPTOR_OF[card.type]]
        elif card.type is CardType.PROTEIN_RECEPTOR:
            receptors = (receptors[0] + 1, receptors[1])
        elif card.type is CardType.STEROID_RECEPTOR:
            receptors = (receptors[0], receptors[1] + 1)
        yield {"card": cid}, s._replace(stock=paid, disks=_without(s.disks, disk), hand=_without(s.hand, cid),
                                        receptors=receptors), gain


def _cytoplasm(p, s, spot, readings):
    """Complete an enzyme from the personal stock [spots.cytoplasm], [cards.enzymes]."""
    for cid in sorted(set(s.hand)):
        card = p.cards[cid]
        if card.type is CardType.ENZYME:
            paid = _pay(s.stock, card.cost)
            if paid is not None:
                yield {"card": cid}, s._replace(stock=paid, hand=_without(s.hand, cid),
                                                enzymes=tuple(sorted(s.enzymes + (card.color,)))), card.health


def _laureates(p, s, spot, readings):
    """No goal card in scope: "Collect 1 ATP from the general supply" [spots.laureates]; "Take the
    First Player Marker (and keep it for all subsequent rounds until it is claimed by another
    player)": the player holds it from now on, other players' flasks of the round being placed
    before the player's (see the module docstring)."""
    yield {}, s._replace(stock=_add(s.stock, ATP, 1), holder=p.seat), 0


def _card_row(p, s, spot, readings):
    """Pay the slot's ATP and take its card [spots.card-row]; Reduce ATP Cost [events.reduce-atp-cost].

    A Virus Attack card is not taken into the hand: "When a player purchases a Virus Attack Card from
    the Cell Component Card Area, that card immediately takes effect" [virus.cell-component-cards]
    (1e "quella carta scatena immediatamente l'effetto"); its attack waits in ``State.attacks``,
    starting with "Only the player who purchased the Virus Attack Card may pay additional ATP"
    [virus.card-attack] (``PRE_ROLL``), ranked with the First Player Marker where it is now."""
    cid = s.row[spot.slot]
    if cid is None:
        return
    reduce = _event(p, s) == "reduce-atp-cost"
    price = 0 if p.epigenetic == "free-card" else max(0, spot.value - (1 if reduce else 0))
    paid = _add(s.stock, ATP, -price)
    if paid is None:
        return
    if reduce and spot.value == 0:
        paid = _add(paid, ATP, 1)
    row = tuple(None if i == spot.slot else c for i, c in enumerate(s.row))
    card = p.cards[cid]
    if card.type is CardType.VIRUS_ATTACK:
        attack = (card.strain, cid, PRE_ROLL, s.holder, False)
        yield {"card": cid}, s._replace(stock=paid, row=row, attacks=s.attacks + (attack,)), 0
        return
    yield {"card": cid}, s._replace(stock=paid, hand=tuple(sorted(s.hand + (cid,))), row=row), 0


EFFECTS = {
    "nucleus": _collect(MRNA), "smooth-er-lipids": _collect(LIPID), "mitochondria": _collect(ATP),
    "mitochondria-carb": _mitochondria_carb, "plasma-membrane-glucose": _glucose,
    "free-ribosome": _free_ribosome, "smooth-er-detox": _smooth_er_lower, "rough-er": _rough_er,
    "golgi": _golgi, "exocytosis": _exocytosis, "cytoplasm": _cytoplasm, "laureates": _laureates,
    "card-row": _card_row,
}
"""Spot kind -> its action."""


def _claim_boosts(p: Puzzle, s: State, spot: Spot) -> State:
    stock, boosts = s.stock, list(s.boosts)
    for i, (_, area, res) in enumerate(p.boost_areas):
        if area == spot.area and boosts[i]:
            stock = _add(stock, res, boosts[i])
            boosts[i] = 0
    return s._replace(stock=stock, boosts=tuple(boosts))


# ---------------------------------------------------------------- the turn

def _area_open(p: Puzzle, s: State, spot: Spot) -> bool:
    """1e, 2 players: room left in the spot's area this round (every flask counts, grey ones
    included: "al massimo 1 beuta per round in ciascuna area"; a grey flask itself may go
    anywhere: "in QUALSIASI spazio occupato e non occupato")."""
    if p.edition is not Edition.FIRST or p.players != 2:
        return True
    placed = sum(1 for sp in p.spots if sp.area == spot.area and sp.id in s.taken)
    return placed < AREA_LIMIT_1E_2P.get(spot.area, 1)


def initial_state(p: Puzzle, readings: Readings = Readings()) -> State:
    s = State(round=0, turn=0, step=0, stock=p.start, hand=p.hand, disks=(), detox=(0, 0), enzymes=(),
              receptors=(0, 0), row=p.row, deck=p.deck, taken=frozenset(), grey_left=p.grey_flasks,
              boosts=tuple(0 for _ in p.boost_areas), antibodies=p.antibodies,
              holder=p.seat if p.first_player else (p.marker_seat or _lowest_other_seat(p)))
    return _begin_round(p, _reveal(p, s, 0, first=True), readings)


def _lowest_other_seat(p: Puzzle) -> int:
    """The puzzle format's default seat of another player (``marker_seat``, ``laureates_seats``)."""
    return 1 if p.seat != 1 else 2


def _reveal(p: Puzzle, s: State, rnd: int, first: bool = False) -> State:
    """Phase 2 step "reveal the top card from the Event deck and follow the instructions"."""
    event = p.events[rnd]
    boosts = tuple(b + (1 if e == event else 0) for b, (e, _, _) in zip(s.boosts, p.boost_areas))
    stock = s.stock
    if event == "toxicity" and not first:
        stock = tuple([stock[0]] + [n - (4 if n >= 10 else 2 if n >= 7 else 1 if n >= 5 else 0) for n in stock[1:]])
    if event is not None and event.startswith("virus-"):
        # "When a Virus Event Card is flipped face up ... that Virus Card becomes active immediately"
        attack = (event[len("virus-"):], f"round-{rnd + 1}", RESPOND, s.holder, False)
        return s._replace(boosts=boosts, stock=stock, attacks=s.attacks + (attack,))
    return s._replace(boosts=boosts, stock=stock)


def _refresh_row(p: Puzzle, s: State) -> State:
    """Discard one card, slide left, refill from the deck [gameplay.phase-2]."""
    row = list(s.row)
    pile = list(s.pile)
    for _ in range(2 if p.players == 2 else 1):      # 2 players: "discard the 2 left-most cards"
        present = [i for i, c in enumerate(row) if c is not None]
        if present:
            if p.edition is Edition.SECOND:
                gone = present[0]
            else:
                gone = min(present, key=lambda i: (_price(p, i), i))
            pile.append(row[gone])            # "place it in the Cell Component discard pile"
            row[gone] = None
    kept = [c for c in row if c is not None]
    deck = list(s.deck)
    while len(kept) < 4:
        if not deck:
            if not pile:
                break                          # nothing to shuffle: the slot stays empty
            if len(pile) > 1:
                raise OutOfScope(f"the deck ran out with {len(pile)} cards in the discard pile (the reshuffle is random)")
            deck, pile = pile, []              # "shuffle the ... discard pile": one card, one order
        kept.append(deck.pop(0))
    kept += [None] * (4 - len(kept))
    return s._replace(row=tuple(kept), deck=tuple(deck), pile=tuple(pile))


def _begin_round(p: Puzzle, s: State, readings: Readings) -> State:
    """Other players' flasks of the round, placed before the player's first turn (see the module
    docstring). One on Laureates in Biology takes the First Player Marker ("Take the First Player
    Marker", [spots.laureates]; its seat: ``laureates_seats``). One on a card-row slot bought its
    card; a Virus Attack card bought so attacks: "All other players lose 1 Health Point on the
    Health Track", then the roll [virus.card-attack] (no ATP before the roll for the player: "Only
    the player who purchased the Virus Attack Card may pay additional ATP"). When two such
    purchases, or such a purchase and another player's flask on Laureates in Biology, fall in one
    round, the order of those players' flasks decides the outcome and no puzzle states it:
    :class:`OutOfScope`."""
    taken = p.occupied[s.round]
    row, holder, attacks = s.row, s.holder, s.attacks
    if readings.row_slot_bought:
        slots = {sp.slot for sp in p.spots if sp.kind == "card-row" and sp.id in taken}
        bought = [row[i] for i in sorted(slots) if i < len(row) and row[i] is not None]
        viral = [cid for cid in bought if p.cards[cid].type is CardType.VIRUS_ATTACK]
        if len(viral) > 1 or (viral and "laureates" in taken):
            raise OutOfScope(f"round {s.round + 1}: the order of other players' flasks decides a Virus attack")
        attacks += tuple((p.cards[cid].strain, cid, RESPOND, holder, True) for cid in viral)
        row = tuple(None if i in slots else c for i, c in enumerate(row))
    if "laureates" in taken:
        holder = p.laureates_seats[s.round] or _lowest_other_seat(p)
    return s._replace(taken=taken, row=row, grey_left=p.grey_flasks, turn=0, step=0,
                      income=p.epigenetic == "round-income", holder=holder, attacks=attacks)


def _end_turn(p: Puzzle, s: State, readings: Readings) -> State | None:
    """The next turn's state, or None at the end of the game."""
    if s.turn + 1 < p.flasks:
        return s._replace(turn=s.turn + 1, step=0, peeked=False)
    if s.round + 1 >= p.rounds:
        return None
    s = s._replace(round=s.round + 1, peeked=False)
    if p.edition is Edition.SECOND:          # 2e: refresh the row, then the event
        s = _reveal(p, _refresh_row(p, s), s.round)
    else:                                    # 1e: the event, then the row
        s = _refresh_row(p, _reveal(p, s, s.round))
    return _begin_round(p, s, readings)


def moves(p: Puzzle, s: State, readings: Readings = Readings()) -> Iterator[tuple[dict | None, State | None, int]]:
    """Every legal move from ``s``: (action dict in the engine's ``to_dict`` shape, or None for
    "end the turn"; the next state, None at the end of the game; Health gained)."""
    if s.attacks:
        if s.income and s.attacks[0][4] and s.attacks[0][2] == RESPOND:
            # "All'inizio di ciascun round" [epigenetic.round-income]: before any flask of the round,
            # the other players' flask that bought the Virus Attack card included
            for res in (ATP, MRNA, LIPID):
                yield ({"kind": "income", "resource": RESOURCES[res]},
                       s._replace(stock=_add(s.stock, res, 1), income=False), 0)
        yield from _attack_moves(p, s)
        return
    for cid in sorted(set(s.hand)):
        card = p.cards[cid]
        if card.type is CardType.MACROMOLECULE and (s.step < 2 or readings.macromolecule_any_time):
            yield ({"kind": "play-card", "card": cid},
                   s._replace(stock=tuple(a + b for a, b in zip(s.stock, card.gain)), hand=_without(s.hand, cid),
                              pile=s.pile + (cid,)), 0)
    if p.epigenetic == "atp-exchange":        # any time in the turn, as often as wanted
        for res, price in TRADE_PRICE.items():
            paid = _add(s.stock, ATP, -price)
            if paid is not None:
                yield {"kind": "trade", "resource": RESOURCES[res]}, s._replace(stock=_add(paid, res, 1)), 0
    if s.income and s.turn == 0 and s.step == 0:
        for res in (ATP, MRNA, LIPID):
            yield {"kind": "income", "resource": RESOURCES[res]}, s._replace(stock=_add(s.stock, res, 1), income=False), 0
    if p.epigenetic == PEEK_DECK and not s.peeked and s.deck and (s.step < 2 or readings.peek_after_flask):
        yield from _peek(p, s)
    if s.step == 2:
        yield None, _end_turn(p, s, readings), 0
        return
    s = s._replace(income=False)              # "all'inizio di ciascun round": before the first flask
    grey_price = 3 if p.epigenetic == "cheap-grey-flask" else GREY_FLASK_PRICE
    greys = [False] + ([True] if s.step == 0 and s.grey_left > 0 and s.stock[ATP] >= grey_price else [])
    for grey in greys:
        for spot in p.spots:
            if not grey and (spot.id in s.taken or not _area_open(p, s, spot)):
                continue
            base = s._replace(taken=s.taken | {spot.id})
            if grey:
                base = base._replace(stock=_add(s.stock, ATP, -grey_price), grey_left=s.grey_left - 1)
            for fields, ns, gain in EFFECTS[spot.kind](p, base, spot, readings):
                action = {"kind": "place", "spot": spot.id, **fields}
                if grey:
                    action["grey"] = True
                yield action, _claim_boosts(p, ns, spot)._replace(step=1 if grey else 2), gain
    if p.edition is Edition.SECOND and (s.step == 0 or (s.step == 1 and readings.grey_then_exhaust)):
        for res in (MRNA, LIPID, ATP):       # "a single black mRNA, yellow Lipid, or ATP"
            yield {"kind": "exhaust", "resource": RESOURCES[res]}, s._replace(stock=_add(s.stock, res, 1), step=2), 0


def _peek(p: Puzzle, s: State) -> Iterator[tuple[dict | None, State | None, int]]:
    """``peek-deck`` [epigenetic.peek-deck]: "può pagare 2 ATP per guardare segretamente le prime 3
    Carte Componente Cellula del mazzo. Inoltre può pagare 2 ATP aggiuntivi per piazzare una di
    queste carte nella propria mano. Il giocatore quindi ripone le carte non selezionate di nuovo in
    cima al mazzo nell'ordine che preferisce. Questa abilità può essere utilizzata solo UNA VOLTA per
    turno." (fewer than 3 in the deck: those). "Se si gioca con l'Espansione Virus e una Carta
    Attacco Virale viene selezionata, la Carta Attacco Virale deve essere giocata immediatamente, in
    base alle Regole dell'Espansione Virus": read as its purchase (the player who selected it may
    pay ATP before the roll, the others lose 1 Health Point) [virus.card-attack]."""
    top, below = s.deck[:PEEK_CARDS], s.deck[PEEK_CARDS:]
    options: set[tuple[str | None, tuple[str, ...]]] = {(None, order) for order in permutations(top)}
    for taken in top:
        options |= {(taken, order) for order in permutations([c for c in top if c != taken])}
    for taken, order in sorted(options, key=lambda o: (o[0] or "", o[1])):
        paid = _add(s.stock, ATP, -(PEEK_LOOK + (PEEK_TAKE if taken else 0)))
        if paid is None:
            continue
        ns = s._replace(stock=paid, deck=order + below, peeked=True)
        action = {"kind": "peek", **({"card": taken} if taken else {}), "order": list(order)}
        if taken is None:
            yield action, ns, 0
        elif p.cards[taken].type is CardType.VIRUS_ATTACK:
            yield action, ns._replace(attacks=s.attacks + ((p.cards[taken].strain, taken, PRE_ROLL, s.holder, False),)), 0
        else:
            yield action, ns._replace(hand=tuple(sorted(s.hand + (taken,)))), 0


def _virus_place(p: Puzzle, s: State, strain: str, source: str, holder: int) -> tuple[int, bool]:
    """(resources gained, whether the player loses 1 resource or 1 Health Point) [virus.allocation]:
    Antibody Response = the roll + the antibodies of the strain; "If there is a tie ..., the tying
    player in the closest position clockwise to the player with the First Player Card wins the tie"
    (1e: the dummy of a 2-player game wins every tie), ``holder`` holding the card when the attack
    struck."""
    roll, others = next((r, o) for src, r, o in p.virus_rolls if src == source)
    mine = roll + s.antibodies[STRAINS.index(strain)]
    seats = max(p.players, p.seat)
    order = lambda seat: (seat - holder) % seats   # noqa: E731
    ahead = sum(1 for seat, resp in others
                if resp > mine or (resp == mine and (seat == 0 or order(seat) < order(p.seat))))
    participants = 3 if p.players == 2 else p.players
    table, last_loses = VIRUS_TABLES[p.edition.value][participants]
    if ahead >= participants - 1:
        return 0, last_loses
    return (table[ahead] if ahead < len(table) else 0), False


def _attack_moves(p: Puzzle, s: State) -> Iterator[tuple[dict | None, State | None, int]]:
    """The player's steps of the first waiting Virus attack [virus.attack] "all players should pause
    and follow the steps below": for a Virus Attack card the player bought, first "Only the player
    who purchased the Virus Attack Card may pay additional ATP to move their Antibody Marker up the
    column matching that attacking Virus strain (at a rate of 1 ATP per 2 antibody)"
    [virus.card-attack]; for one another player bought, "All other players lose 1 Health Point on
    the Health Track" (1e "Si possono avere punteggi negativi"), taken with the response below (the
    dice are the puzzle's, so the moment of that loss changes nothing); then the gain or the loss of
    the place; then "each player will have the option to pay ATP ... For each ATP paid, a player
    moves their Antibody Marker up that strain's column by 2 antibodies" [virus.event-attack]."""
    strain, source, stage, holder, by_other = s.attacks[0]
    rest = s.attacks[1:]
    k = STRAINS.index(strain)
    if stage == RESPOND:
        gain, loses = _virus_place(p, s, strain, source, holder)
        after = s._replace(attacks=((strain, source, VACCINATE, holder, by_other),) + rest)
        struck = -1 if by_other else 0
        if loses:
            yield {"kind": "respond", "lose": "health"}, after, struck - 1
            for i, name in enumerate(RESOURCES):
                if s.stock[i] > 0:
                    yield {"kind": "respond", "lose": name}, after._replace(stock=_add(s.stock, i, -1)), struck
            return
        for take in combinations_with_replacement((ATP, MRNA, LIPID), gain):
            stock = s.stock
            for i in take:
                stock = _add(stock, i, 1)
            yield {"kind": "respond", "take": [RESOURCES[i] for i in take]}, after._replace(stock=stock), struck
        return
    for atp in range(s.stock[ATP] + 1):
        antibodies = tuple(a + (2 * atp if i == k else 0) for i, a in enumerate(s.antibodies))
        nxt = ((strain, source, RESPOND, holder, by_other),) + rest if stage == PRE_ROLL else rest
        yield ({"kind": "vaccinate", "amount": atp},
               s._replace(stock=_add(s.stock, ATP, -atp), antibodies=antibodies, attacks=nxt), 0)


# ---------------------------------------------------------------- scoring

def _detox_points(p: Puzzle, s: State, readings: Readings = Readings()) -> int:
    amount, n = s.detox
    if n < 1:
        return 0
    if p.players == 2 and p.edition is Edition.SECOND and not readings.two_player_tie_cards_first:
        if any(o[0] == amount for o in p.opponent_detox):
            return 3
        return 5 if all(o[0] < amount for o in p.opponent_detox) else 2
    mine = (amount, n)
    better = sum(1 for o in p.opponent_detox if o > mine)
    tied = 1 + sum(1 for o in p.opponent_detox if o == mine)
    if p.players == 2:
        table = list(DETOX_POINTS_2P[p.edition.value]) + [0]
        if tied == 2 and p.edition is Edition.SECOND:
            return 3                                 # 2e: "In case of a tie, each player receives 3 points."
    else:
        table = list(DETOX_POINTS) + [0] * (len(p.opponent_detox) + 1)
    return sum(table[better:better + tied]) // tied


def _enzyme_points(s: State) -> int:
    counts: dict[str, int] = {}
    for c in s.enzymes:
        counts[c] = counts.get(c, 0) + 1
    first = len(counts)
    second = sum(1 for n in counts.values() if n >= 2)
    return ENZYME_SET_POINTS[first] + ENZYME_SET_POINTS[second]


def end_points(p: Puzzle, s: State, readings: Readings = Readings()) -> int:
    """End Game points [scoring.overview]."""
    stock = list(s.stock)
    for _, _, load in s.disks:
        stock = [a + b for a, b in zip(stock, load)]
    cubes = stock[MRNA] // 4 + stock[LIPID] // 4 + stock[PROTEIN] // 3 + stock[CARB] // 2
    return cubes + _detox_points(p, s, readings) + _enzyme_points(s)
