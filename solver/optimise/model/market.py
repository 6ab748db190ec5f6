"""The card market's timing: the earliest round each row and deck card can be bought
(:func:`market_arrival`, :func:`market_queue`) and the windows that rule out a card's actions before
it (:func:`add_market_windows`).
"""
from __future__ import annotations


from solver.encoding.linear import LinearModel
from solver.game.engine import State
from solver.game.model import Puzzle, SpotKind
from solver.optimise.model.plan_model import Options, PlanModel


def market_queue(puzzle: Puzzle, s0: State, opt: Options) -> tuple[dict[str, int], list[str]]:
    """The earliest round of each row and deck card (:func:`market_arrival`; none with an Epigenetic
    card, whose free card taken without a flask would break the slot count) and the cards of that
    queue that can reach the card row within the puzzle's rounds."""
    arrival = market_arrival(puzzle, s0) if opt.market_windows and puzzle.epigenetic is None else {}
    return arrival, [c for c in [c for c in s0.row if c] + list(s0.deck) if arrival.get(c, 1) <= puzzle.rounds]


def market_arrival(puzzle: Puzzle, s0: State) -> dict[str, int]:
    """The earliest round each card of the row and the deck can lie in the card row (spots.card-row,
    gameplay.phase-2).

    The row holds the first ``S`` cards still in play, in queue order (row, then deck): a card
    ``n`` places down the queue is there in round ``r`` only after ``n - S + 1`` cards ahead of it
    have left. A round removes at most as many cards as the row holds (each slot is bought once a
    round, by the player or another player, and Phase 2 discards from what is left), so at most
    the round-1 row's cards in round 1 and ``S`` in every later round. Cards that cannot arrive by
    the last round never matter; a card arriving in round ``e`` cannot be bought before it."""
    S = len(puzzle.board.row_slots)
    first_row = [c for c in s0.row if c]
    queue = first_row + list(s0.deck)
    out = {c: 1 for c in first_row}
    removed, round_ = len(first_row), 2     # at most this many gone before ``round_``
    for n, c in enumerate(queue[len(first_row):], start=len(first_row)):
        while n - removed >= S:
            removed += S
            round_ += 1
        out[c] = round_
    return out
ROUTE_STAGE = {SpotKind.CARD_ROW: 0, SpotKind.ROUGH_ER: 1, SpotKind.DETOX_STEROID: 1, SpotKind.CYTOPLASM: 1,
               SpotKind.GOLGI: 2, SpotKind.EXOCYTOSIS: 3}
"""Placements a card needs after its purchase before an action on this spot can use it: bought,
then the ER (or the Cytoplasm, or the Smooth ER for a detox card), then the Golgi, then Exocytosis."""


def add_market_windows(lm: LinearModel, pm: PlanModel, arrival: dict[str, int], per_round: int) -> None:
    """Rule out every action on a row or deck card before the card can be held and moved that far
    along its route (:func:`market_arrival`): bought in round ``e`` at the earliest, at its first
    slot, it reaches stage ``k`` of its route ``k`` slots later. A disk completing another card
    needs its own card three stages on, the completed card held."""
    for s in pm.slots:
        for i, a in enumerate(pm.acts):
            if a.spot is None or a.spot.kind not in ROUTE_STAGE or a.spot.kind is SpotKind.CARD_ROW:
                continue
            needs = []
            if a.disk is not None:   # a disk's move for another card (Exocytosis, or Golgi with its cube)
                needs = [(a.disk, ROUTE_STAGE[a.spot.kind]), (a.card, 1)]
            elif a.card is not None:
                needs = [(a.card, ROUTE_STAGE[a.spot.kind])]
            if any(c in arrival and s.t < (arrival[c] - 1) * per_round + stage for c, stage in needs):
                lm.eq(pm.x[s.t, i], 0)
