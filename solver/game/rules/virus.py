"""The Virus expansion (``virus.*``): 1st edition (in the Italian rulebook, 2-5 players) and the
English Virus expansion rules for the 2nd edition (3-5 players).

"When a Virus Event Card is flipped face up from the Event Deck, or when a Virus Attack Card is
purchased from the Cell Component Card area, that Virus Card becomes active immediately and all
players should pause and follow the steps below" (``virus.attack``). For one player's plan:

1. A Virus Attack card the player buys: "Only the player who purchased the Virus Attack Card may
   pay additional ATP to move their Antibody Marker up the column matching that attacking Virus
   strain (at a rate of 1 ATP per 2 antibody)" (``virus.card-attack``). Bought by another player
   (another player's flask on its card-row slot): "All other players lose 1 Health Point".
2. The player's Antibody Response is their dice roll plus their antibodies of the strain
   (``virus.event-attack``). The dice are rolled, so the puzzle fixes each roll, and the other
   players' Antibody Responses, per attack (``virus:`` in the puzzle file): plans stay
   deterministic. The number of dice follows the Health Track's colour bands, which the rulebooks'
   text does not give: the puzzle's roll stands whatever the player's Health.
3. Responses are ranked; ties go to "the tying player in the closest position clockwise to the
   player with the First Player Card" (2e; 1e "il primo giocatore, o il giocatore più vicino al
   Primo Giocatore"), in the 1st edition's 2-player game to the "dummy" player
   (``virus.two-player-dummy``). The place gives resources by the allocation table of the
   edition and the number of players (:meth:`solver.game.editions.Rules.virus_allocation`): a gain is
   "any combination of ATP, mRNA and Lipids"; a loss is "any resource from their personal resource
   stock or ... 1 Health Point" (``virus.allocation``). The player chooses (the ``respond`` action).
4. Then "each player will have the option to pay ATP ... For each ATP paid, a player moves their
   Antibody Marker up that strain's column by 2 antibodies" (the ``vaccinate`` action, 0 ATP to
   decline).

The engine holds the attacks waiting in :attr:`solver.game.engine.State.attacks`; while one is waiting
the player's only legal actions are its steps, and the turn (or the round) goes on once it is
over. The time-indexed CP-SAT model does not encode the ranking: a puzzle with the Virus
expansion is solved by the exhaustive search, and the answer says so (:func:`planner_limit`).
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement

from ..model import Puzzle, Resource, Stock, Strain, VirusRoll

ANTIBODIES_PER_ATP = 2
"""Antibodies one ATP buys ("For each ATP paid ... up ... by 2 antibodies")."""
GAIN_RESOURCES: tuple[Resource, ...] = (Resource.ATP, Resource.MRNA, Resource.LIPID)
"""What a gain is chosen from ("any combination of ATP, mRNA and Lipids")."""
HEALTH = "health"
"""``lose: health``: the loss taken as 1 Health Point."""

PRE_ROLL = "pre-roll"
"""Stage: the buyer of a Virus Attack card may pay ATP for antibodies before the roll."""
RESPOND = "respond"
"""Stage: the Antibody Response is ranked; the player takes their gain or loss."""
POST_ROLL = "post-roll"
"""Stage: every player may pay ATP for antibodies of the attacking strain."""


def roll_for(puzzle: Puzzle, source: str) -> VirusRoll | None:
    """The fixed dice roll and other players' responses of the attack named ``source`` (``round-N``
    for a Virus Event revealed for round N, or the Virus Attack card's id)."""
    return dict(puzzle.virus_rolls).get(source)


def place(puzzle: Puzzle, mine: int, roll: VirusRoll, order: Callable[[int], int]) -> int:
    """0-based place of the player's Antibody Response ``mine`` among the other players' (``roll``):
    others with more, and others tied who win the tie: the 1st edition's dummy player always,
    another player when earlier in the round's turn order (``order(seat)``: 0 = the First Player's
    seat) than the player (``virus.allocation``)."""
    ahead = 0
    own = order(puzzle.seat)
    for other in roll.others:
        if other.response > mine:
            ahead += 1
        elif other.response == mine and (other.seat == 0 or order(other.seat) < own):
            ahead += 1
    return ahead


def outcome(table: tuple[int, ...], last_loses: bool, at: int, players: int) -> tuple[int, bool]:
    """(resources gained, whether the player loses 1 resource or Health) at place ``at`` of
    ``players`` by the allocation ``table`` (gains by place; the last place loses when
    ``last_loses``)."""
    if at >= players - 1:
        return 0, last_loses
    return (table[at] if at < len(table) else 0), False


def gain_options(n: int) -> list[tuple[Resource, ...]]:
    """Every combination of ``n`` resources of :data:`GAIN_RESOURCES`."""
    return [tuple(c) for c in combinations_with_replacement(GAIN_RESOURCES, n)]


def why_not_response(stock: Stock, gain: int, loses: bool, take: tuple[Resource, ...] | None,
                     lose: str | None) -> str | None:
    """Why this response to a ranked attack is refused, or None."""
    section = "virus.allocation"
    if loses:
        if take:
            return f"take: the player's place loses a resource or 1 Health Point, gains nothing ({section})"
        if lose is None:
            return f"lose: expected 'health' or a resource in stock ({section})"
        if lose == HEALTH:
            return None
        try:
            resource = Resource(lose)
        except ValueError:
            return f"lose: expected 'health' or one of {[r.value for r in Resource]}, got {lose!r} ({section})"
        if stock.get(resource) < 1:
            return f"lose: no {resource.value} in stock to lose ({section})"
        return None
    if lose is not None:
        return f"lose: the player's place gains {gain} resources, loses nothing ({section})"
    taken = tuple(take or ())
    if len(taken) != gain or any(r not in GAIN_RESOURCES for r in taken):
        return (f"take: expected {gain} resources chosen among {[r.value for r in GAIN_RESOURCES]}, "
                f"got {[r.value for r in taken]} ({section})")
    return None


def apply_response(stock: Stock, health: int, take: tuple[Resource, ...] | None,
                   lose: str | None) -> tuple[Stock, int]:
    """(stock, Health) after the player's gain or loss."""
    for r in take or ():
        stock = stock + Stock.of(r, 1)
    if lose == HEALTH:
        return stock, health - 1
    if lose is not None:
        return stock - Stock.of(Resource(lose), 1), health
    return stock, health


def vaccinate(antibodies: tuple[int, ...], strain: Strain, atp: int) -> tuple[int, ...]:
    """Antibodies after paying ``atp`` ATP for the ``strain`` column."""
    out = list(antibodies)
    out[list(Strain).index(strain)] += ANTIBODIES_PER_ATP * atp
    return tuple(out)


def antibodies_of(antibodies: tuple[int, ...], strain: Strain) -> int:
    return antibodies[list(Strain).index(strain)]


def planner_limit(puzzle: Puzzle) -> str | None:
    """Why the time-indexed planner cannot model ``puzzle``, or None."""
    if puzzle.uses_virus:
        return ("the Virus expansion: the time-indexed model does not encode the ranking of Antibody "
                "Responses (virus.allocation); the exhaustive search solves it")
    return None
