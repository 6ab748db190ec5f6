"""Macromolecule cards (``cards.macromolecule``).

2e: "Macromolecule Cards may be kept in a player's hand and played at any time during a player's
turn. Once the card is played, that player should immediately take the number of macromolecules
shown on the card and place that card in the Cell Component discard pile (Macromolecule Cards are
NOT considered completed cards for end game scoring)." 1e: "Le Carte Risorsa aggiuntive possono
essere tenute in mano dai giocatori e giocate in qualsiasi momento durante il turno."

Reading: a card may be played before any placement of the player's turns (the engine's
``play-card`` action, also between a grey flask and the turn's own flask) and after the turn's
placement. After the last placement of a round it is played at the start of the player's next
turn instead, which is never worse when Phase 2 can only take cubes (Toxicity), or, before a
Phase 2 Virus Event, while its attack waits and before the player's response
(:func:`solver.game.engine.cards_before_event_attack`): a card played at the end of the turn gives
its cubes before the attack, which can then take one of them instead of a Health Point (EN 468,
"at any time during a player's turn"). After the last placement of the game every card still held
is played, which is never worse either (macromolecule sets only grow with the stock and the cards
are never completed cards).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..model import Card, CardType, Puzzle, Resource, Stock

if TYPE_CHECKING:   # the planner's types (the engine, also run in the browser, needs no planner code)
    from solver.optimise.linear import Expr, LinearModel, Var

SECTION = "cards.macromolecule"


def why_not(card: Card | None, card_id: str | None, hand: tuple[str, ...]) -> str | None:
    """Why playing ``card_id`` from ``hand`` is refused, or None."""
    if card is None or card_id not in hand:
        return f"card {card_id!r} is not in hand (hand: {list(hand)})"
    if card.type is not CardType.MACROMOLECULE:
        return f"only Macromolecule cards are played from hand, {card.id!r} is a {card.type.value} ({SECTION})"
    return None


def apply(stock: Stock, card: Card) -> Stock:
    """The stock after playing ``card``."""
    return stock + card.gain


def held_at_the_end(puzzle: Puzzle, hand: tuple[str, ...]) -> list[Card]:
    """The cards played at the end of the player's last turn of the game: every Macromolecule
    card still in hand (none when the player has no turn at all, ``flasks: 0``)."""
    if puzzle.flasks == 0:
        return []
    return [puzzle.card(c) for c in hand if puzzle.card(c).type is CardType.MACROMOLECULE]


def encode_held_at_the_end(lm: LinearModel, puzzle: Puzzle, final: dict[Resource, Expr],
                           hand_at_end: Mapping[str, Var | Expr], cards: list[Card]) -> None:
    """Planner: the final stock (``final``, per :class:`solver.game.model.Resource`) counts the gain of
    every Macromolecule card of ``cards`` still in hand at the end (``hand_at_end[card id]``, 0/1)."""
    if puzzle.flasks == 0:
        return
    lm.section(SECTION)
    for card in cards:
        for r, n in ((r, card.gain.get(r)) for r in final):
            if n:
                final[r] = final[r] + hand_at_end[card.id] * n
