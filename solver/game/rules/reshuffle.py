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

The time-indexed planner's market model is a queue: the row holds the first cards still in play,
row cards first, then the deck's. A card the pile brings back goes after them all, so the planner
appends to the queue one *comeback entry* per card and Phase 2 that can bring it back
(:func:`comeback_entries`); :func:`encode_comeback` tracks the pile (Phase 2 discards, cards
played) and brings its card back exactly when it holds one card and the row has an open slot that
the deck cannot fill.
"""
from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import CardType, Puzzle

if TYPE_CHECKING:
    from solver.optimise.linear import Expr, LinearModel, Term, Var

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
    left). The bound of ``solver.optimise.planner.market_arrival``, kept here stdlib-only."""
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


def comeback_entries(puzzle: Puzzle, queue: Sequence[str]) -> list[tuple[str, str, int]]:
    """(entry key, card, round k) for every card a one-card pile can bring back in the Phase 2 of
    round k: some Phase 2 up to k can find the deck used up (:func:`may_reshuffle_one_card`'s
    bound) and the card can be in the pile by then (in the row by round k, or a Macromolecule card
    in hand). ``queue``: the planner's row-then-deck cards. Empty when no such Phase 2 exists."""
    if not may_reshuffle_one_card(puzzle):
        return []
    slots = len(puzzle.board.row_slots)
    first_row = sum(1 for c in puzzle.row if c)
    full_queue = [c for c in puzzle.row if c] + list(puzzle.deck)
    past_deck = _arrival_of(len(full_queue), first_row, slots)
    held = [c for c in puzzle.hand if puzzle.card(c).type is CardType.MACROMOLECULE]
    out = []
    for k in range(max(1, past_deck - 1), puzzle.rounds):
        for n, c in enumerate(queue):
            if _arrival_of(n, first_row, slots) <= k:
                out.append((f"{c}@comeback-r{k}", c, k))
        out += [(f"{c}@comeback-r{k}", c, k) for c in held]
    return out


def encode_comeback(lm: LinearModel, round_: int, slots: int, pile: MutableMapping[str, Term],
                    entered: Mapping[str, Term], alive: MutableMapping[tuple[int, str], Var | Expr],
                    entries: Sequence[str], comeback: Sequence[tuple[str, str, int]]) -> None:
    """The Phase 2 of ``round_`` in the planner's card queue: ``entered`` (card -> 0/1, the cards
    discarded this Phase 2 or played this round) joins ``pile`` (card -> 0/1, updated in place);
    if the pile then holds one card and the cards still in play (``alive`` of round + 1, over
    ``entries``) leave a slot open, that card comes back: its comeback entry of this round is
    alive in round + 1, and it leaves the pile."""
    from solver.optimise.linear import Expr, total   # here, not at the top: the engine (also run in the browser) needs no planner code
    for c, e in entered.items():
        pile[c] = total([pile.get(c, 0), e])
    here = [(key, c) for key, c, k in comeback if k == round_]
    if not here:
        return
    size = total(pile.values())
    one = lm.reify_ge(f"pile_ge1[r{round_}]", size, 1)
    two = lm.reify_ge(f"pile_ge2[r{round_}]", size, 2)
    in_play = total(alive[round_ + 1, e] for e in entries if (round_ + 1, e) in alive)
    room = lm.reify_ge(f"row_open[r{round_}]", slots - 1 - in_play, 0)
    back_any = _and(lm, f"comeback[r{round_}]", [one, room, 1 - Expr.of(two)])
    for key, c in here:
        if c not in pile:
            continue
        back = _and(lm, f"comeback[r{round_},{c}]", [back_any, pile[c]])
        alive[round_ + 1, key] = back
        pile[c] = total([pile[c], -1 * Expr.of(back)])


def _and(lm: LinearModel, name: str, parts: Sequence[Term]) -> Var | Expr:
    """A 0/1 equal to the conjunction of 0/1 ``parts`` (a constant when one decides it)."""
    from solver.optimise.linear import Expr, total
    exprs = [Expr.of(p) for p in parts]
    if any(not e.terms and e.const == 0 for e in exprs):
        return lm.const(0)
    exprs = [e for e in exprs if e.terms or e.const != 1]
    if not exprs:
        return lm.const(1)
    b = lm.bool(name)
    for e in exprs:
        lm.le(b, e)
    lm.ge(b, total(exprs) - (len(exprs) - 1))
    return b


def merge_entries(at: MutableMapping[tuple[int, int, str], Var | Expr],
                  bought: MutableMapping[tuple[int, str], Expr], card_of: Mapping[str, str]) -> None:
    """Key the row's ``at`` and ``bought`` by card again: a card's comeback entries add to its own."""
    from solver.optimise.linear import total   # here, not at the top: the engine (also run in the browser) needs no planner code
    for r, j, e in [k for k in at if card_of.get(k[2], k[2]) != k[2]]:
        value = at.pop((r, j, e))
        at[r, j, card_of[e]] = total([at.get((r, j, card_of[e]), 0), value])
    for t, e in [k for k in bought if card_of.get(k[1], k[1]) != k[1]]:
        paid = bought.pop((t, e))
        bought[t, card_of[e]] = total([bought.get((t, card_of[e]), 0), paid])
