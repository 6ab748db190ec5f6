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
After the round's last flask the turn stays open while a card is held and playing it there can
differ from playing it at the next turn's start (:func:`played_before_phase_2`): the player plays
cards (``play-card``) and ends the turn (``end-turn``), then Phase 2 runs on what they did. That
is the rule itself ("at any time during a player's turn", EN 468; "in qualsiasi momento durante
il turno"), so it is exact whatever Phase 2 does in between. It can differ in two ways:

- A Virus attack strikes in between (:func:`attack_before_next_turn`: a Virus Event revealed in
  that Phase 2, or a Virus Attack card another player may buy with the next round's flasks, all
  placed before the player's first turn): the attack can take one of the card's cubes instead of
  a Health Point (rules audit row ``macromolecule-card-before-card-attack``). A card cannot be
  played while the attack waits: that is no one's turn (the engine used to allow it before a
  Virus Event's attack, which put the card in the discard pile after Phase 2's refill instead of
  before it).
- The discard pile decides that Phase 2's refill (``pile_decides`` of :func:`played_before_phase_2`,
  :func:`solver.game.rules.reshuffle.pile_decides_refill`): the played card goes to the discard
  pile ("place that card in the Cell Component discard pile", EN 468), and the refill reaches the
  pile (the cards kept and the deck leave a slot open) while the pile, this Phase 2's discards in
  it, holds at most one card. Then one more card in it changes the row: an empty pile leaves the
  slots empty where a pile of the card alone becomes the deck and the card comes back into the row
  (where it can be bought again), and a pile of one card comes back where a pile of two is
  shuffled at random (not modelled: the slots stay empty) (rules audit row
  ``macromolecule-card-before-reshuffle``; the engine used to play the card only after Phase 2).
  The planner has such plays (:func:`encode_played_before_phase_2`) in the rounds whose Phase 2
  can bring a one-card pile back (:func:`solver.game.rules.reshuffle.one_card_rounds`): a pile
  that decides a refill is one card short of such a pile, so no other round needs them.

Otherwise the card is played at the start of the player's next turn instead, which is never worse:
Phase 2 then only pays receptor bonuses, returns the flasks, refreshes the row and reveals a
non-Virus event, and the next round's other flasks buy no Virus Attack card. The refresh does not
read the card either way: a refill the deck completes never reaches the pile, and a pile already
of two or more cards is not shuffled (its slots stay empty, the random reshuffle recorded, with or
without the card), so the row, the deck and the pile's cards after Phase 2 are the same. None of
the rest reads the stock except Toxicity, which never takes fewer cubes from a stock with the
card's cubes in it (its steps lose more from more), so the stock after the card played at the next
turn holds at least what it would after the card played before Phase 2. Keeping the turn open
only where it can matter keeps the search's states few.

After the last placement of the game every card still held is played, which is never worse
either (macromolecule sets only grow with the stock and the cards are never completed cards).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..model import Card, CardType, EventKind, Puzzle, Resource, SpotKind, Stock, event_kind
from . import reshuffle

if TYPE_CHECKING:   # the planner's types (the engine, also run in the browser, needs no planner code)
    from solver.encoding.linear import Expr, LinearModel, Var

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


def played_before_phase_2(puzzle: Puzzle, round_: int, flasks_left: int, hand: tuple[str, ...],
                          pile_decides: bool = False) -> bool:
    """Does the player's turn stay open after its flask for Macromolecule cards (``end-turn``
    closes it)? After the round's last flask (``flasks_left`` 0), not the game's, while a card is
    held and either a Virus attack can strike before the player's next turn
    (:func:`attack_before_next_turn`) or one more card in the discard pile would change this
    Phase 2's refill (``pile_decides``: :func:`solver.game.rules.reshuffle.pile_decides_refill`, which
    the engine reads on the row, deck and pile of the moment). The module docstring says why the
    other cases need no open turn."""
    return (flasks_left == 0 and round_ < puzzle.rounds
            and any(puzzle.card(c).type is CardType.MACROMOLECULE for c in hand)
            and (pile_decides or attack_before_next_turn(puzzle, round_)))


def turn_may_stay_open(puzzle: Puzzle) -> bool:
    """Can :func:`played_before_phase_2` ever hold in ``puzzle`` (the ``end-turn`` action it needs)?
    Sound, not tight: a pile that decides a refill needs a Phase 2 that can find the deck used
    up and a pile of at most one card with a slot to fill, so one card more makes a one-card pile
    (:func:`solver.game.rules.reshuffle.one_card_rounds` counts the cards played in the round, after
    its last flask included)."""
    return (any(c.type is CardType.MACROMOLECULE for c in puzzle.cards)
            and (any(attack_before_next_turn(puzzle, r) for r in range(1, puzzle.rounds))
                 or bool(reshuffle.one_card_rounds(puzzle))))


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


def encode_played_before_phase_2(lm: LinearModel, round_: int, plays: Mapping[str, Var],
                                 room: Var | Expr, pile: Expr) -> None:
    """Planner: ``plays`` (card -> 0/1) are the cards played after round ``round_``'s last
    placement, before its Phase 2, in the turn the engine keeps open because the discard pile
    decides the refill (:func:`played_before_phase_2`, :func:`solver.game.rules.reshuffle.pile_decides_refill`):
    only when the refill reaches the pile (``room``, 0/1) and while the pile holds at most one
    card, ``pile`` being its cards before these plays (this Phase 2's discards in): at most two
    plays on an empty pile, one on a pile of one, none on a larger pile (each play adds a card;
    the turn closes once the pile holds two). A card must be held to be played (the hand's
    transition, ``solver.optimise.planner.add_card_transitions``)."""
    from solver.encoding.linear import Expr, total   # here, not at the top: the engine (also run in the browser) needs no planner code
    lm.section(SECTION)
    one = lm.reify_ge(f"pile_before_ge1[r{round_}]", pile, 1)
    two = lm.reify_ge(f"pile_before_ge2[r{round_}]", pile, 2)
    lm.le(total(plays.values()), 2 - Expr.of(one) - two)
    for v in plays.values():
        lm.le(v, room)
