"""Epigenetic Modification Cards (1st edition only, ``epigenetic.*``).

"Ogni Carta Modificazione Epigenetica (non genetica) consente al giocatore una abilità unica che
può utilizzare durante la partita" (``epigenetic.intro``); "Ogni giocatore manterrà la Carta
Modificazione Epigenetica scelta per l'intera partita. Un giocatore può utilizzare l'abilità della
carta durante il suo turno, SE NON DIVERSAMENTE specificato" (``epigenetic.cards``). A puzzle gives
the player the card they chose (``epigenetic:`` in the puzzle file); the other players' cards act
through the figures the puzzle fixes for them (their flasks, disks, detox results).

Each card's reading, its engine predicate/effect and its planner encoding sit together below.
Every ability is optional ("può"): the engine offers it as an action or an option and the
planner as a variable that may stay 0.

- ``atp-exchange``: "scambiare ATP per Lipidi o mRNA al tasso di 1 ATP per 1 ... e ATP per
  Carboidrati al tasso di 2 ATP per 1 Carboidrato ... NON consente ... macromolecole per ATP ...
  quante volte per turno il giocatore desidera": the ``trade`` action, one cube per action, at any
  moment of a turn; after the last placement of the game the leftover ATP is traded the best way
  for the end-game sets (still the player's turn, and ATP scores nothing: :func:`best_final_trade`).
- ``peek-deck``: "pagare 2 ATP per guardare ... le prime 3 Carte ... Inoltre può pagare 2 ATP
  aggiuntivi per piazzare una di queste carte nella propria mano ... ripone le carte non
  selezionate ... in cima al mazzo nell'ordine che preferisce ... solo UNA VOLTA per turno": the
  ``peek`` action (taken card or none, the new order of the others), before or after the turn's
  flask: the card's ability is used "durante il suo turno" and a turn lasts until the player ends
  it, so after the flask the turn stays open while a look can follow (:func:`look_may_follow`)
  and the ``end-turn`` action closes it without one. The time-indexed planner
  does not encode a reordered deck: a puzzle with this card and a non-empty deck is solved by the
  exhaustive search (:func:`planner_limit`).
- ``extra-resource``: "1 macromolecola addizionale o 1 ATP ogni volta che piazza su uno spazio
  raccolta risorse numerato ... (I Carboidrati costano comunque sempre 1 ATP per ogni
  Carboidrato raccolto)": the ``extra`` option of a placement on a numbered collection spot
  (Nucleus, Lipid Synthesis, Glucose Transport, the Mitochondria's 2 and 3); the lower
  Mitochondria spot ("lo spazio inferiore", 1 carbohydrate for 6 ATP) is named by its place, not
  its number, so it is the ruling ``extra-resource-lower-mitochondria``.
- ``cheap-grey-flask``: "pagare 3 ATP per piazzare una Beuta Grigia, invece di ... 4 ATP":
  :func:`grey_flask_cost`.
- ``early-placement``: a flask placed before the First Player's first flask, for 1 ATP. Not
  modelled: the puzzle fixes the spots the other players take each round, and a flask placed
  before theirs could take one of them, which the puzzle cannot say how they would answer. A
  puzzle giving the player this card is refused with that reason (:data:`NOT_MODELLED`).
- ``round-income``: "All'inizio di ciascun round ... può raccogliere 1 ATP, 1 mRNA o 1 Lipidi":
  the ``income`` action, once a round before the round's first flask.
- ``free-card``: "acquista la Carta Componente Cellula gratuitamente ogni volta che piazza la
  Beuta nell'Area Carte": :func:`row_price` (the Free spot's 1 ATP under Reduce ATP Cost is a
  placement bonus, not a price, and stays).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import TYPE_CHECKING

from ..model import EpigeneticCard as EpigeneticCard   # re-exported: callers write epigenetic.EpigeneticCard
from ..model import CardType, Puzzle, Resource, Ruling, Spot, SpotKind, Stock

if TYPE_CHECKING:   # the planner's types (the engine, also run in the browser, needs no planner code)
    from solver.encoding.linear import Expr, LinearModel, Var
    from solver.encoding.acts import Act

GREY_FLASK_COST = 4
"""ATP paid for a grey flask (``gameplay.grey-flasks``)."""
CHEAP_GREY_FLASK_COST = 3
"""ATP paid for a grey flask with the card ``cheap-grey-flask`` (``epigenetic.cheap-grey-flask``)."""
TRADE_PRICES: dict[Resource, int] = {Resource.LIPID: 1, Resource.MRNA: 1, Resource.CARB: 2}
"""ATP paid for one cube with the card ``atp-exchange`` (``epigenetic.atp-exchange``)."""
INCOME_RESOURCES: tuple[Resource, ...] = (Resource.ATP, Resource.MRNA, Resource.LIPID)
"""What the card ``round-income`` gives at the start of a round (``epigenetic.round-income``)."""
PEEK_LOOK_COST = 2
"""ATP to look at the top cards of the deck (``epigenetic.peek-deck``)."""
PEEK_TAKE_COST = 2
"""ATP more to put one of them in hand (``epigenetic.peek-deck``)."""
PEEK_CARDS = 3
"""Cards looked at (``epigenetic.peek-deck``)."""


NOT_MODELLED: dict[EpigeneticCard, str] = {
    EpigeneticCard.EARLY_PLACEMENT: (
        "the puzzle fixes the spots the other players take each round; a flask placed before the "
        "First Player's could take one of them, and the puzzle cannot say how they would answer"),
}
"""Cards the engine does not model, with the reason (a puzzle holding one is refused)."""

_NUMBERED = (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.GLUCOSE, SpotKind.MITOCHONDRIA)


def holds(puzzle: Puzzle, card: EpigeneticCard) -> bool:
    """Does the player hold ``card``?"""
    return puzzle.epigenetic is card


# --------------------------------------------------------------------------- cheap-grey-flask

def grey_flask_cost(puzzle: Puzzle) -> int:
    """ATP a grey flask costs the player (``gameplay.grey-flasks``, ``epigenetic.cheap-grey-flask``)."""
    return CHEAP_GREY_FLASK_COST if holds(puzzle, EpigeneticCard.CHEAP_GREY_FLASK) else GREY_FLASK_COST


# --------------------------------------------------------------------------- free-card

def row_price(puzzle: Puzzle, price: int) -> int:
    """What the player pays for a card whose price (after events) is ``price``
    (``spots.card-row``, ``epigenetic.free-card``)."""
    return 0 if holds(puzzle, EpigeneticCard.FREE_CARD) else price


# --------------------------------------------------------------------------- extra-resource

def extra_allowed(puzzle: Puzzle, spot: Spot) -> bool:
    """May a placement on ``spot`` collect one more (``epigenetic.extra-resource``)? Numbered
    collection spots only; the lower Mitochondria spot under the ruling
    ``extra-resource-lower-mitochondria: included``."""
    if not holds(puzzle, EpigeneticCard.EXTRA_RESOURCE):
        return False
    if spot.kind in _NUMBERED:
        return True
    return (spot.kind is SpotKind.MITOCHONDRIA_CARB
            and puzzle.reading(Ruling.EXTRA_RESOURCE_LOWER_MITOCHONDRIA) == "included")


def extra_resource(spot: Spot) -> Resource:
    """The resource a numbered collection spot gives (and the extra cube is)."""
    return next(r for r in Resource if spot.gain.get(r))


def extra_stock(spot: Spot) -> tuple[Stock, Stock]:
    """(cost, gain) of the extra cube on ``spot``: one more of what it gives; a carbohydrate
    still costs its 1 ATP ("I Carboidrati costano comunque sempre 1 ATP")."""
    resource = extra_resource(spot)
    cost = Stock(atp=1) if spot.kind is SpotKind.GLUCOSE else Stock()
    return cost, Stock.of(resource, 1)


def why_not_extra(puzzle: Puzzle, spot: Spot, stock: Stock) -> str | None:
    """Why ``extra`` is refused on ``spot`` with ``stock`` (before the spot's own cost), or None."""
    if not holds(puzzle, EpigeneticCard.EXTRA_RESOURCE):
        return "extra: only with the Epigenetic Modification card extra-resource (epigenetic.extra-resource)"
    if not extra_allowed(puzzle, spot):
        return (f"extra: {spot.id} is not a numbered resource-collection spot "
                f"(epigenetic.extra-resource, ruling extra-resource-lower-mitochondria)")
    cost, _ = extra_stock(spot)
    if not stock.covers(spot.cost + cost):
        return f"{spot.id} with the extra cube costs {(spot.cost + cost).text()}, stock has {stock.text()} (epigenetic.extra-resource)"
    return None


def encode_extra(lm: LinearModel, puzzle: Puzzle, acts: Sequence[Act], x: Mapping[int, Var],
                 extra: Mapping[Resource, Var], cost: dict[Resource, Expr], gain: dict[Resource, Expr]) -> None:
    """Planner: the slot's 0/1 ``extra[resource]`` may be 1 only when its placement (``x[act
    index]`` over ``acts``) is on a spot where the extra cube is allowed and gives that resource;
    it adds the cube to ``gain`` and, for a carbohydrate, its 1 ATP to ``cost``."""
    from solver.encoding.linear import total   # here, not at the top: the engine (also run in the browser) needs no planner code
    lm.section(EpigeneticCard.EXTRA_RESOURCE.section)
    for resource, var in extra.items():
        allowed = total(x[i] for i, a in enumerate(acts) if a.spot is not None
                        and extra_allowed(puzzle, a.spot) and extra_resource(a.spot) is resource)
        lm.le(var, allowed)
        gain[resource] = gain[resource] + var
        if resource is Resource.CARB:
            cost[Resource.ATP] = cost[Resource.ATP] + var


# --------------------------------------------------------------------------- atp-exchange

def why_not_trade(puzzle: Puzzle, stock: Stock, resource: Resource | None) -> str | None:
    """Why trading ATP for one ``resource`` is refused, or None (``epigenetic.atp-exchange``)."""
    if not holds(puzzle, EpigeneticCard.ATP_EXCHANGE):
        return "trade: only with the Epigenetic Modification card atp-exchange (epigenetic.atp-exchange)"
    if resource not in TRADE_PRICES:
        return (f"resource: expected one of {[r.value for r in TRADE_PRICES]} (the card trades no "
                f"macromolecule for ATP), got {resource.value if resource else None!r} (epigenetic.atp-exchange)")
    if stock.atp < TRADE_PRICES[resource]:
        return f"1 {resource.value} costs {TRADE_PRICES[resource]} ATP, stock has {stock.atp} (epigenetic.atp-exchange)"
    return None


def apply_trade(stock: Stock, resource: Resource) -> Stock:
    """The stock after trading ATP for one ``resource``."""
    return stock - Stock(atp=TRADE_PRICES[resource]) + Stock.of(resource, 1)


def best_final_trade(stock: Stock, set_sizes: dict[Resource, int]) -> Stock:
    """The stock after the last turn's trades: all the ATP that can raise the end-game sets
    (``set_sizes``: cubes per point) traded for them, the way that scores most. ATP scores
    nothing at the end, so trading it can only help; ties keep the most ATP."""
    def points(s: Stock) -> int:
        return sum(s.get(r) // n for r, n in set_sizes.items())

    def useful(resource: Resource, budget: int) -> list[int]:
        # a trade only pays when it completes a set: 0, or the amounts reaching a set boundary
        size, price = set_sizes[resource], TRADE_PRICES[resource]
        first = (-stock.get(resource)) % size or size
        return [0] + list(range(first, budget // price + 1, size))

    best = (points(stock), stock.atp, stock)
    for lipid in useful(Resource.LIPID, stock.atp):
        for mrna in useful(Resource.MRNA, stock.atp - lipid):
            for carb in useful(Resource.CARB, stock.atp - lipid - mrna):
                after = stock - Stock(atp=lipid + mrna + TRADE_PRICES[Resource.CARB] * carb) \
                    + Stock(lipid=lipid, mrna=mrna, carb=carb)
                key = (points(after), after.atp)
                if key > best[:2]:
                    best = (*key, after)
    return best[2]


def encode_trades(lm: LinearModel, tag: str, pre: dict[Resource, Expr], limit: int) -> dict[Resource, Var]:
    """Planner: integer variables for the cubes traded at the start of a slot (``tag``), added to
    the slot's resources before its action (``pre``, per :class:`Resource`) with their ATP paid.
    Returns the variables by resource."""
    lm.section(EpigeneticCard.ATP_EXCHANGE.section)
    trades = {r: lm.int(f"trade[{tag},{r.value}]", 0, max(0, limit // p)) for r, p in TRADE_PRICES.items()}
    for r, v in trades.items():
        pre[r] = pre[r] + v
        pre[Resource.ATP] = pre[Resource.ATP] - TRADE_PRICES[r] * v
    return trades


# --------------------------------------------------------------------------- round-income

def why_not_income(puzzle: Puzzle, due: bool, resource: Resource | None) -> str | None:
    """Why taking the round's income of ``resource`` is refused, or None (``epigenetic.round-income``)."""
    if not holds(puzzle, EpigeneticCard.ROUND_INCOME):
        return "income: only with the Epigenetic Modification card round-income (epigenetic.round-income)"
    if resource not in INCOME_RESOURCES:
        return (f"resource: expected one of {[r.value for r in INCOME_RESOURCES]}, got "
                f"{resource.value if resource else None!r} (epigenetic.round-income)")
    if not due:
        return "income: taken once, at the start of a round, before its first flask (epigenetic.round-income)"
    return None


def income_due_at_round_start(puzzle: Puzzle) -> bool:
    """Is an income waiting when a round starts?"""
    return holds(puzzle, EpigeneticCard.ROUND_INCOME)


def encode_income(lm: LinearModel, round_: int, pre: dict[Resource, Expr]) -> dict[Resource, Var]:
    """Planner: 0/1 variables for the resource taken at the start of ``round_`` (at most one),
    added to the round's first slot (``pre``). Returns them by resource."""
    from solver.encoding.linear import total   # here, not at the top: the engine (also run in the browser) needs no planner code
    lm.section(EpigeneticCard.ROUND_INCOME.section)
    income = {r: lm.bool(f"income[r{round_},{r.value}]") for r in INCOME_RESOURCES}
    lm.le(total(income.values()), 1)
    for r, v in income.items():
        pre[r] = pre[r] + v
    return income


# --------------------------------------------------------------------------- peek-deck

def peek_options(deck: tuple[str, ...]) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every (card taken or None, new order of the cards put back) after looking at ``deck``'s
    top cards."""
    top = deck[:PEEK_CARDS]
    out: list[tuple[str | None, tuple[str, ...]]] = [(None, order) for order in permutations(top)]
    for taken in top:
        rest = [c for c in top if c != taken]
        out += [(taken, order) for order in permutations(rest)]
    return sorted(set(out), key=lambda o: (o[0] or "", o[1]))


def why_not_peek(puzzle: Puzzle, stock: Stock, deck: tuple[str, ...], peeked: bool,
                 card: str | None, order: tuple[str, ...] | None) -> str | None:
    """Why this look at the deck is refused, or None (``epigenetic.peek-deck``)."""
    section = EpigeneticCard.PEEK_DECK.section
    if not holds(puzzle, EpigeneticCard.PEEK_DECK):
        return f"peek: only with the Epigenetic Modification card peek-deck ({section})"
    if peeked:
        return f"peek: once a turn ({section})"
    if not deck:
        return f"peek: the deck is empty ({section})"
    cost = PEEK_LOOK_COST + (PEEK_TAKE_COST if card is not None else 0)
    if stock.atp < cost:
        return f"peek{' and take' if card else ''} costs {cost} ATP, stock has {stock.atp} ({section})"
    top = deck[:PEEK_CARDS]
    if card is not None and card not in top:
        return f"card={card!r} is not among the top {len(top)} cards of the deck {list(top)} ({section})"
    rest = sorted(c for c in top if c != card)
    if order is None or sorted(order) != rest:
        return f"order: expected the cards put back, top first, in any order of {rest}, got {order!r} ({section})"
    return None


def look_may_follow(puzzle: Puzzle, atp: int | None, deck: tuple[str, ...], peeked: bool, game_ends: bool) -> bool:
    """After the turn's flask, can a look at the deck still change anything before the turn ends
    (``epigenetic.cards``: "durante il suo turno"; ``epigenetic.peek-deck``: "solo UNA VOLTA per
    turno")? ``atp``: the ATP the player can pay (the stock's and what the Macromolecule cards in
    hand give; None: not known yet, a Virus attack waits); ``game_ends``: the flask was the game's
    last.

    The turn stays open only then, so the engine offers the end of the turn as a choice only where
    it is one: never without this card (a puzzle without it plays as if the look did not exist).
    After the game's last flask only a card taken matters (the deck is never used again and ATP
    scores nothing): a Macromolecule card, played before the end, or a Virus Attack card, whose
    attack can give resources; so the look is offered then only when one lies in the top cards and
    the look and the take can be paid."""
    if not holds(puzzle, EpigeneticCard.PEEK_DECK) or peeked or not deck:
        return False
    if not game_ends:
        return atp is None or atp >= PEEK_LOOK_COST
    useful = (CardType.MACROMOLECULE, CardType.VIRUS_ATTACK)
    return ((atp is None or atp >= PEEK_LOOK_COST + PEEK_TAKE_COST)
            and any(puzzle.card(c).type in useful for c in deck[:PEEK_CARDS]))


def apply_peek(stock: Stock, deck: tuple[str, ...], card: str | None,
               order: tuple[str, ...]) -> tuple[Stock, tuple[str, ...]]:
    """(stock, deck) after the look: the ATP paid and the top cards put back in ``order``."""
    cost = PEEK_LOOK_COST + (PEEK_TAKE_COST if card is not None else 0)
    return stock - Stock(atp=cost), tuple(order) + deck[PEEK_CARDS:]


def planner_limit(puzzle: Puzzle) -> str | None:
    """Why the time-indexed planner cannot model ``puzzle``'s card, or None."""
    if holds(puzzle, EpigeneticCard.PEEK_DECK) and puzzle.deck:
        return ("Epigenetic card peek-deck with a deck: the time-indexed model does not encode a deck "
                "reordered during play (epigenetic.peek-deck); the exhaustive search solves it")
    return None
