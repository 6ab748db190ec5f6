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

from ..model import CardType, Edition, EventKind, Puzzle, Resource, Spot, SpotKind, event_kind

if TYPE_CHECKING:
    from solver.encoding.linear import Expr, LinearModel, Term, Var

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


def pile_decides_refill(kept: int, slots: int, deck: int, pile: int) -> bool:
    """Would one more card in the discard pile change what a Phase 2 refill puts in the row?
    ``kept``: the cards the row keeps after this Phase 2's discards, of ``slots``; ``deck``: the
    cards left in the deck; ``pile``: the pile's cards, this Phase 2's discards included. Yes when
    the refill reaches the pile (the kept cards and the deck leave a slot open) and the pile holds
    at most one card: an empty pile leaves the slots empty where a one-card pile refills one, and
    a one-card pile refills one where two cards are a random pile (not modelled, the slots stay
    empty). A refill the deck completes never reads the pile, and a pile of two or more stays
    random with the card or without it (``cards.macromolecule``: a Macromolecule card played
    after the round's last flask lies in the pile before the refill)."""
    return kept + deck < slots and pile <= 1


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


def _event_of(puzzle: Puzzle, round_: int) -> EventKind | None:
    """The kind of the event active in ``round_`` (``events[round - 1]``), or None."""
    event = puzzle.event_in(round_)
    return None if event is None else event_kind(event)


def _atp_by_flasks(puzzle: Puzzle, round_: int) -> list[int]:
    """The most ATP each further flask of ``round_`` can bring the player, best first: the ATP gain
    of each spot other players leave free that round (one flask a spot; Laureates in Biology's 1
    ATP), the best gain again for each grey flask (it may go on a taken spot), and 1 ATP for an
    exhausted flask where the edition allows it (``spots.*``, ``gameplay.grey-flasks``,
    ``gameplay.exhaust-flask``). Costs (a carbohydrate for the Mitochondria's 6 ATP) are left out."""
    occupied = set(puzzle.occupied_in(round_))
    def gain(spot: Spot) -> int:
        return max(spot.gain.atp, 1 if spot.kind is SpotKind.LAUREATES else 0)
    spots = sorted((gain(s) for s in puzzle.board.spots if s.id not in occupied and gain(s) > 0), reverse=True)
    best = max([gain(s) for s in puzzle.board.spots] + [1])
    exhaust = 1 if puzzle.edition is Edition.SECOND else 0
    flasks = puzzle.flasks + puzzle.grey_flasks
    return sorted(spots + [best] * puzzle.grey_flasks + [exhaust] * flasks, reverse=True)[:flasks]


def _atp_windfall(puzzle: Puzzle) -> int | None:
    """All the ATP the player can get without spending a flask on it, over the whole puzzle: the
    start stock, every card's ATP, every Boost event's ATP cube, the free card-row slots' bonus
    under Reduce ATP Cost (``events.*``, ``cards.macromolecule``); None (no bound kept) when the
    puzzle has what this count leaves out: an Epigenetic card (income, trades, free cards, a look
    that takes a deck card), a Virus Event or a Virus Attack card (gains by the response)."""
    if puzzle.epigenetic is not None or any(c.type is CardType.VIRUS_ATTACK for c in puzzle.cards):
        return None
    kinds = [_event_of(puzzle, r) for r in range(1, puzzle.rounds + 1)]
    if EventKind.VIRUS in kinds:
        return None
    boosts = sum(1 for e in puzzle.events if e is not None and event_kind(e) is EventKind.BOOST
                 and (boost := puzzle.board.boost(e)) is not None and boost.resource is Resource.ATP)
    free_slots = sum(1 for s in puzzle.board.row_slots if s.value == 0)
    return (puzzle.start.atp + sum(c.gain.atp for c in puzzle.cards) + boosts
            + free_slots * kinds.count(EventKind.REDUCE_ATP_COST))


def one_card_rounds(puzzle: Puzzle) -> frozenset[int]:
    """The rounds (1 to R - 1) whose Phase 2 can find the deck used up, a slot to fill and a
    discard pile of exactly one card. Sound (no such Phase 2 of any plan is missed): a small
    forward search over what the card row's turnover allows, forgetting which cards are where.

    Its state is (cards left in the deck, cards in the row, cards in the pile: 0, 1 or "2 or
    more") with the most ATP the player can hold. In a round the player buys up to ``flasks +
    grey flasks`` cards from the card-row spots other players leave free, each at least its
    slot's price (1 less under Reduce ATP Cost), and the flasks not buying bring at most
    :func:`_atp_by_flasks`, counted before the purchases; other players buy up to the card-row
    spots they take; the pile may grow by any number of cards before the refill (played
    Macromolecule cards, also those played after the round's last flask while the turn stays
    open, ``macromolecule_cards.played_before_phase_2``; Virus Attack cards); then Phase 2
    discards ``min(row, 1)`` (two with two players), which the pile always takes, and refills the
    row from the deck. The ATP the player gets without a flask (:func:`_atp_windfall`) is all
    counted at the start, and a card that comes back may be a Macromolecule card played again:
    each comeback adds the most ATP one such card gives.

    A pile reaches one card only while fewer than two discards have been made since it was last
    emptied, so using up a deck takes rounds that empty the whole row, which the player's ATP
    cannot pay for long: this keeps the planner's comeback entries (:func:`comeback_entries`),
    which make its model much larger, off the puzzles where the pile can never come back."""
    if puzzle.rounds < 2:
        return frozenset()
    board = puzzle.board
    slots = len(board.row_slots)
    discards = 2 if puzzle.players == 2 else 1
    flasks = puzzle.flasks + puzzle.grey_flasks
    windfall = _atp_windfall(puzzle)
    replayed = max([c.gain.atp for c in puzzle.cards if c.type is CardType.MACROMOLECULE] + [0])
    unbounded = 10 ** 9
    states = {(len(puzzle.deck), sum(1 for c in puzzle.row if c), 0): unbounded if windfall is None else windfall}
    rounds: set[int] = set()
    for round_ in range(1, puzzle.rounds):
        occupied = set(puzzle.occupied_in(round_))
        theirs = sum(1 for s in board.row_slots if s.id in occupied)
        cut = 1 if _event_of(puzzle, round_) is EventKind.REDUCE_ATP_COST else 0
        prices = sorted(max(0, s.value - cut) for s in board.row_slots if s.id not in occupied)
        income = _atp_by_flasks(puzzle, round_)
        after: dict[tuple[int, int, int], int] = {}

        def reach(key: tuple[int, int, int], atp: int) -> None:
            if after.get(key, -1) < atp:
                after[key] = atp
        for (deck, row, pile), atp in states.items():
            for mine in range(min(row, flasks, len(prices)) + 1):
                left_atp = atp + sum(income[:flasks - mine]) - sum(prices[:mine])
                if left_atp < 0:
                    break
                for bought in range(mine, min(row, mine + theirs) + 1):
                    left = row - bought
                    gone = min(discards, left)
                    left -= gone
                    drawn = min(slots - left, deck)
                    for grown in range(pile, 3):          # the pile may also grow in the round
                        in_pile = min(2, grown + gone)
                        if left + drawn < slots and in_pile == 1:   # the one card comes back
                            rounds.add(round_)
                            reach((0, left + drawn + 1, 0), left_atp + replayed)
                        else:
                            reach((deck - drawn, left + drawn, in_pile), left_atp)
        states = after
    return frozenset(rounds)


def comeback_entries(puzzle: Puzzle, queue: Sequence[str]) -> list[tuple[str, str, int]]:
    """(entry key, card, round k) for every card a one-card pile can bring back in the Phase 2 of
    round k: that Phase 2 can find a one-card pile to bring back (:func:`one_card_rounds`) and the
    card can be in the pile by then (in the row by round k, or a Macromolecule card
    in hand). ``queue``: the planner's row-then-deck cards. Empty when no such Phase 2 exists."""
    slots = len(puzzle.board.row_slots)
    first_row = sum(1 for c in puzzle.row if c)
    held = [c for c in puzzle.hand if puzzle.card(c).type is CardType.MACROMOLECULE]
    out = []
    for k in sorted(one_card_rounds(puzzle)):
        for n, c in enumerate(queue):
            if _arrival_of(n, first_row, slots) <= k:
                out.append((f"{c}@comeback-r{k}", c, k))
        out += [(f"{c}@comeback-r{k}", c, k) for c in held]
    return out


def encode_comeback(lm: LinearModel, round_: int, slots: int, pile: MutableMapping[str, Term],
                    entered: Mapping[str, Term], alive: MutableMapping[tuple[int, str], Var | Expr],
                    entries: Sequence[str], comeback: Sequence[tuple[str, str, int]],
                    after_last: Mapping[str, Term] | None = None) -> tuple[Var | Expr, Expr] | None:
    """The Phase 2 of ``round_`` in the planner's card queue: ``entered`` (card -> 0/1, the cards
    discarded this Phase 2 or played this round) joins ``pile`` (card -> 0/1, updated in place),
    then ``after_last`` (card -> 0/1, the cards played after the round's last placement, in the
    turn kept open: they too lie in the pile before the refill); if the pile then holds one card
    and the cards still in play (``alive`` of round + 1, over ``entries``) leave a slot open, that
    card comes back: its comeback entry of this round is alive in round + 1, and it leaves the
    pile. Returns, where this Phase 2 can bring a card back, the 0/1 "the refill reaches the
    pile" and the pile's size before ``after_last`` (what decides the open turn:
    :func:`pile_decides_refill`); None elsewhere."""
    from solver.encoding.linear import Expr, total   # here, not at the top: the engine (also run in the browser) needs no planner code
    for c, e in entered.items():
        pile[c] = total([pile.get(c, 0), e])
    here = [(key, c) for key, c, k in comeback if k == round_]
    before = total(pile.values())
    for c, e in (after_last or {}).items():
        pile[c] = total([pile.get(c, 0), e])
    if not here:
        return None
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
    return room, before


def _and(lm: LinearModel, name: str, parts: Sequence[Term]) -> Var | Expr:
    """A 0/1 equal to the conjunction of 0/1 ``parts`` (a constant when one decides it)."""
    from solver.encoding.linear import Expr, total
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
    from solver.encoding.linear import total   # here, not at the top: the engine (also run in the browser) needs no planner code
    for r, j, e in [k for k in at if card_of.get(k[2], k[2]) != k[2]]:
        value = at.pop((r, j, e))
        at[r, j, card_of[e]] = total([at.get((r, j, card_of[e]), 0), value])
    for t, e in [k for k in bought if card_of.get(k[1], k[1]) != k[1]]:
        paid = bought.pop((t, e))
        bought[t, card_of[e]] = total([bought.get((t, card_of[e]), 0), paid])
