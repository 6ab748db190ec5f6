"""Macromolecule cards (``cards.macromolecule``).

2e: "Macromolecule Cards may be kept in a player's hand and played at any time during a player's
turn. Once the card is played, that player should immediately take the number of macromolecules
shown on the card and place that card in the Cell Component discard pile (Macromolecule Cards are
NOT considered completed cards for end game scoring)." 1e: "Le Carte Risorsa aggiuntive possono
essere tenute in mano dai giocatori e giocate in qualsiasi momento durante il turno."

Reading: a card may be played before any placement of the player's turns (the engine's
``play-card`` action, also between a grey flask and the turn's own flask) and after the turn's
placement. A card held before the turn's flask gives the same played then as after it (more cubes
never close an option of the flask's action), so only the end of the round's last turn needs more:
between it and the player's next turn lie Phase 2 and the other players' flasks of the next round.

- When a Virus attack strikes in between (:func:`attack_before_next_turn`: a Virus Event revealed
  in that Phase 2, or a Virus Attack card another player may buy with the next round's flasks,
  all placed before the player's first turn), the turn stays open after its flask while a card is
  held (:func:`played_before_phase_2`): the player plays cards (``play-card``) and ends the turn
  (``end-turn``), then Phase 2 runs on what they did. That is the rule itself ("at any time during
  a player's turn", EN 468; "in qualsiasi momento durante il turno"), so it is exact whatever
  Phase 2 does in between: a Toxicity event then takes its cubes from the stock the cards made, a
  reshuffle of the discard pile finds the cards played in it, and the attack can take one of
  the card's cubes instead of a Health Point. A card cannot be played while the attack waits:
  that is no one's turn (the engine used to allow it before a Virus Event's attack, which put the
  card in the discard pile after Phase 2's refill instead of before it).
- Otherwise the card is played at the start of the player's next turn instead, which is what the
  engine has always offered: Phase 2 then only pays receptor bonuses, returns the flasks, refreshes
  the row and reveals a non-Virus event, and the next round's other flasks buy no Virus Attack card.
  None of these reads the stock except Toxicity, which never takes fewer cubes from a stock with
  the card's cubes in it (its steps lose more from more), so the stock after the card played at
  the next turn holds at least what it would after the card played before Phase 2. Known gap, the
  discard pile (rules audit row ``macromolecule-card-before-reshuffle``, status wrong): a card
  bought with the round's last flask and played at once lies in the pile when this Phase 2 refills
  the row, and when the deck is used up a pile of that one card comes back into the row; the
  engine and the planner do not offer that yet.

After the last placement of the game every card still held is played, which is never worse
either (macromolecule sets only grow with the stock and the cards are never completed cards).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..model import Card, CardType, EventKind, Puzzle, Resource, SpotKind, Stock, event_kind

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


def attack_before_next_turn(puzzle: Puzzle, round_: int) -> bool:
    """Can a Virus attack strike between the end of the player's last turn of round ``round_``
    and their first turn of the next round? A Virus Event revealed in that Phase 2
    (``virus.event-cards``), or a Virus Attack card bought by another player's flask on a card-row
    slot in the next round (``virus.card-attack``; the puzzle places those flasks before the
    player's first turn). Sound, not tight: which card lies under the slot after the refill is not
    looked at, any Virus Attack card of the puzzle counts."""
    if round_ >= puzzle.rounds:
        return False
    event = puzzle.event_in(round_ + 1)
    if event is not None and event_kind(event) is EventKind.VIRUS:
        return True
    occupied = puzzle.occupied_in(round_ + 1)
    return (any(puzzle.board.spot(s).kind is SpotKind.CARD_ROW for s in occupied)
            and any(c.type is CardType.VIRUS_ATTACK for c in puzzle.cards))


def played_before_phase_2(puzzle: Puzzle, round_: int, flasks_left: int, hand: tuple[str, ...]) -> bool:
    """Does the player's turn stay open after its flask for Macromolecule cards (``end-turn``
    closes it)? After the round's last flask (``flasks_left`` 0), not the game's, while a card is
    held and a Virus attack can strike before the player's next turn (:func:`attack_before_next_turn`;
    the module docstring says why the other cases need no open turn)."""
    return (flasks_left == 0 and any(puzzle.card(c).type is CardType.MACROMOLECULE for c in hand)
            and attack_before_next_turn(puzzle, round_))


def turn_may_stay_open(puzzle: Puzzle) -> bool:
    """Can :func:`played_before_phase_2` ever hold in ``puzzle`` (the ``end-turn`` action it needs)?"""
    return (any(c.type is CardType.MACROMOLECULE for c in puzzle.cards)
            and any(attack_before_next_turn(puzzle, r) for r in range(1, puzzle.rounds)))


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
