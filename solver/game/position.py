"""A position of a game as a puzzle of its own (issue #70: "analyse from here").

A puzzle file describes a game at the start of its first round; a position reached in play is the
same kind of thing when it is the start of a round that nothing earlier reaches into: no flask of
the player's on the board, no card travelling on a disk, no card completed and no goal marker
placed (a puzzle file starts with none), no boost resources waiting, no attack under way and the
First Player Marker where the puzzle put it. Such a position is written as the puzzle whose first
round is its round (:func:`position_puzzle`); every other position gets the reason it is not
(:class:`Unwritable`). Whether a position is such a start is not guessed from a list of fields: the
engine's own start of the derived puzzle must be the position itself, field for field.

Standard library only, as all of :mod:`solver.game`: the browser's play mode runs it.
"""
from __future__ import annotations

import dataclasses
import itertools
from enum import Enum
from typing import Any

from . import engine
from .model import Puzzle


class Unwritable(Enum):
    """Why a position is not the start of a puzzle of its own (the catalogue's ``play.position_<value>``)."""
    OVER = "over"
    MID_ROUND = "mid_round"
    IN_TRANSIT = "in_transit"
    COMPLETED = "completed"
    EVENTS = "events"


def position_puzzle(state: engine.State) -> Puzzle | Unwritable:
    """The puzzle whose start is ``state`` (its round the first, the rounds after it the rest), or
    why there is none."""
    puzzle = state.puzzle
    if state.done or engine.is_terminal(state):
        return Unwritable.OVER
    first = state.round - 1
    start = None
    for row, health in _rows_before_purchases(state):
        derived = dataclasses.replace(
            puzzle, rounds=puzzle.rounds - first, start=state.stock, health=health, hand=state.hand,
            row=row, deck=state.deck, events=puzzle.events[first:], occupied=puzzle.occupied[first:],
            opponent_disks=state.opp_disks, opponent_hormones=puzzle.opponent_hormones[first:],
            laureates_seats=puzzle.laureates_seats[first:], antibodies=state.antibodies,
            virus_rolls=tuple((_shift_roll(source, first), roll) for source, roll in puzzle.virus_rolls
                              if (_roll_round(source) or state.round) > first))
        start = engine.initial_state(derived)
        if dataclasses.replace(start, round=state.round) == state:
            return derived
    if (state.flasks_left != puzzle.flasks or state.grey_spots or state.after_flask or state.grey_this_turn
            or state.peeked or (start is not None and state.income_due != start.income_due)):
        return Unwritable.MID_ROUND
    if state.disks:
        return Unwritable.IN_TRANSIT
    if state.completed or state.goal_markers or state.discard:
        return Unwritable.COMPLETED
    return Unwritable.EVENTS


def _rows_before_purchases(state: engine.State) -> list[tuple[tuple[str | None, ...], int]]:
    """The card rows (and Health) the round may have started with before other players bought
    from it (:func:`solver.game.engine._opponents_buy`: a card bought leaves its slot empty; a
    Virus Attack card bought costs the player 1 Health Point): each card they took put back in
    one of the empty slots under their flasks, every way that can be done."""
    if not state.taken:
        return [(state.row, state.health)]
    board = state.puzzle.board
    under = (board.spot(s).slot for s in state.puzzle.occupied_in(state.round))
    slots = sorted({slot for slot in under if slot is not None and slot < len(state.row) and state.row[slot] is None})
    viruses = sum(1 for c in state.taken if state.puzzle.card(c).strain is not None)
    rows = []
    for chosen in itertools.permutations(slots, len(state.taken)):
        row = list(state.row)
        for slot, card in zip(chosen, state.taken):
            row[slot] = card
        rows.append((tuple(row), state.health + viruses))
    return rows or [(state.row, state.health)]


def _roll_round(source: str) -> int | None:
    """The round of a Virus Event's dice (``round-3``), or None for a Virus Attack card's."""
    return int(source.removeprefix("round-")) if source.startswith("round-") else None


def _shift_roll(source: str, first: int) -> str:
    n = _roll_round(source)
    return source if n is None else f"round-{n - first}"


def position_fields(state: engine.State) -> dict[str, Any] | str:
    """The fields of a puzzle file that make the puzzle of ``state`` (:func:`position_puzzle`) from
    the file of the puzzle being played, in the file's own terms (``None``: the field is dropped),
    or the reason's value (:class:`Unwritable`) when there is none. ``id`` names the round the
    position starts (``market-day-2e-round-2``); the known optimum (``expected``) and the author's
    ``grade`` are the original start's, so they are dropped."""
    derived = position_puzzle(state)
    if isinstance(derived, Unwritable):
        return derived.value
    puzzle = state.puzzle
    rounds = derived.rounds

    def by_round(values: tuple[Any, ...], item: Any) -> dict[str, Any]:
        return {str(r + 1): item(v) for r, v in enumerate(values[:rounds]) if v}

    opponents: dict[str, Any] = {"detox": [{"amount": d.amount, "cards": d.cards} for d in derived.detox_opponents]}
    if derived.opponent_disks:
        opponents["disks"] = [{"area": d.area.value, "health": d.health, "seat": d.seat} for d in derived.opponent_disks]
    hormones = by_round(derived.opponent_hormones, lambda kinds: [k.value for k in kinds])
    if hormones:
        opponents["hormones"] = hormones
    seats = by_round(derived.laureates_seats, lambda seat: seat)
    strains = ("ebola", "influenza", "rhinovirus")
    return {
        "id": f"{puzzle.id}-round-{state.round}", "expected": None, "grade": None,
        "rounds": rounds, "start": {**derived.start.as_dict(), "health": derived.health},
        "hand": list(derived.hand), "row": list(derived.row), "deck": list(derived.deck),
        "events": list(derived.events),
        "occupied": by_round(derived.occupied, list),
        "opponents": opponents,
        "laureates_seats": seats or None,
        "antibodies": dict(zip(strains, derived.antibodies)) if any(derived.antibodies) else None,
        "virus_rolls": {source: {"roll": roll.roll, "others": [{"seat": o.seat, "response": o.response} for o in roll.others]}
                        for source, roll in derived.virus_rolls} or None,
    }
