"""The reshuffle of the Cell Component discard pile when the deck is used up (``gameplay.phase-2``).

Both editions give the same sequence in Phase 2: the card(s) leave the row for the discard pile
(the left-most in the 2nd edition, the cheapest in the 1st, two with two players), the cards left
slide to the left-most slots, then the open slots are filled from the top of the deck; "If there
are no cards remaining in the Cell Component deck, shuffle the Cell Component discard pile and
place it face down as the Cell Component deck" (EN 217; IT "Se non ci sono più Carte Componente
Cellula rimaste, rimescola la pila delle Carte Componente Cellula scartate e crea un nuovo mazzo di
pesca a faccia in giù"). The sentence hangs on the refill, so the pile is shuffled when a slot is
to be filled and the deck is empty, and it already holds the cards this Phase 2 discarded.

What is modelled:

- a pile of one card has one order: it becomes the deck and fills the next open slot
  (:func:`refill`); the pile is then empty, so the slots after it stay empty;
- an empty pile: the open slots stay empty;
- a pile of two or more cards would give a random order the puzzle cannot fix in advance (which
  cards are in it depends on the plan): the engine does not guess; the open slots stay empty, the
  pile stays as it is, and the state records the round (``State.random_reshuffle_round``) so the
  replay says the row is not modelled from there on (:func:`not_modelled_note`).

The pile holds what the engine knows reaches it during the puzzle: Phase 2 discards, the player's
played Macromolecule cards and Virus Attack cards; the puzzle starts with an empty pile, and other
players' cards stay in their hands (a puzzle fixes their placements, not their plays).

The time-indexed planner's market model is a queue (row, then deck) that never grows, so a puzzle
where a one-card reshuffle can happen within its rounds is solved by the exhaustive search
(:func:`planner_limit`, :func:`may_reshuffle_one_card`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import CardType, Puzzle

SECTION = "gameplay.phase-2"


@dataclass(frozen=True)
class Refill:
    """The card row, deck and discard pile after a Phase 2 refill."""

    row: tuple[str | None, ...]
    deck: tuple[str, ...]
    pile: tuple[str, ...]
    random_reshuffle: bool
    """A slot stayed empty because the pile (two or more cards) would have been shuffled at
    random: not modelled."""


def refill(kept: list[str], slots: int, deck: tuple[str, ...], pile: tuple[str, ...]) -> Refill:
    """Fill the open slots after ``kept`` (the cards left, slid left) from the top of ``deck``;
    with the deck used up, a one-card ``pile`` (this Phase 2's discards included) becomes the deck.
    See the module docstring for the pile of two or more."""
    row, rest, left = list(kept), list(deck), pile
    random_reshuffle = False
    while len(row) < slots:
        if not rest:
            if len(left) != 1:
                random_reshuffle = len(left) >= 2
                break
            rest, left = list(left), ()      # one card: one order, no chance involved
        row.append(rest.pop(0))
    return Refill(tuple(row) + (None,) * (slots - len(row)), tuple(rest), left, random_reshuffle)


def not_modelled_note(round_: int, pile: int) -> str:
    """What the engine says when it leaves slots empty before a random reshuffle."""
    return (f"Phase 2 of round {round_}: the deck is used up and the discard pile ({pile} cards) would be "
            f"shuffled at random: not modelled, the open card-row slots stay empty ({SECTION})")


def _arrival_of(position: int, first_row: int, slots: int) -> int:
    """The earliest round a card ``position`` places down the queue (row cards first, then the
    deck) can lie in the card row: a round takes at most the round-1 row's cards in round 1 and
    ``slots`` in every later round (each slot bought once a round, Phase 2 discarding from what is
    left). The bound of ``solver.planner.market_arrival``, kept here stdlib-only."""
    if position < first_row:
        return 1
    removed, round_ = first_row, 2
    while position - removed >= slots:
        removed += slots
        round_ += 1
    return round_


def may_reshuffle_one_card(puzzle: Puzzle) -> bool:
    """Can a one-card pile be shuffled into the deck within ``puzzle``'s rounds? Sound (never
    False when some plan reaches it): some Phase 2 (rounds 1 to R - 1) can find the deck used up
    with a slot to fill (a card one place past the deck could arrive by the next round) while a
    card can be in the pile (a card that can be in the row by then, or a Macromolecule card in
    hand the player may play)."""
    if puzzle.rounds < 2:
        return False
    slots = len(puzzle.board.row_slots)
    first_row = [c for c in puzzle.row if c]
    queue = first_row + list(puzzle.deck)
    past_deck = _arrival_of(len(queue), len(first_row), slots)
    held_macro = any(puzzle.card(c).type is CardType.MACROMOLECULE for c in puzzle.hand)
    for phase2 in range(1, puzzle.rounds):
        if past_deck > phase2 + 1:
            continue
        if held_macro or any(_arrival_of(n, len(first_row), slots) <= phase2 for n in range(len(queue))):
            return True
    return False


def planner_limit(puzzle: Puzzle) -> str | None:
    """Why the time-indexed planner cannot model ``puzzle``'s card row, or None."""
    if may_reshuffle_one_card(puzzle):
        return ("the deck can run out while the discard pile holds one card, which comes back into the card "
                f"row ({SECTION}); the time-indexed model's card queue does not grow, so the exhaustive "
                "search solves it")
    return None
