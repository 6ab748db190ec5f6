"""The card market at scale: a generated family of puzzles with a refilling card row (issue #15),
for the benchmarks and the tests (no runtime module uses it).

Every shipped puzzle of the first rounds had an empty deck, so the card row never refilled. This
module makes puzzles where it does, of any length up to a whole game (11 rounds x 4 flasks):

- :func:`deck_puzzle` builds one (edition, board side, placements); the deck order is fixed, so
  the puzzle is the same on every run;
- :data:`DECK_CARDS` is the cycle of card kinds the deck is dealt from. Only the two rulebook
  hormones carry rulebook values; every other card is marked illustrative, like the shipped ones.

The benchmark (``python -m solver bench --deck``, :mod:`.deck`) times each engine on this family;
the warm start it times is :mod:`solver.optimise.warm_start`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.io.loading import Located
from solver.game.model import Edition, Puzzle
from solver.io.puzzle import PUZZLE_SCHEMA, _normalise_round_keys, _schema_check, _Where, puzzle_from_data

WHOLE_GAME_ROUNDS = 11
"""Rounds of a whole 2- or 3-player game (issue #15: 11 rounds x 4 flasks = 44 placements)."""


@dataclass(frozen=True)
class DeckCard:
    """One kind of card the generated deck is dealt from (values illustrative unless from the rulebook)."""

    stem: str
    """Id prefix; the n-th copy is ``<stem>-no<n>``."""
    data: dict[str, Any]
    """The puzzle file's card entry, without ``id``."""


DECK_CARDS: tuple[DeckCard, ...] = (
    DeckCard("protein-hormone", {"type": "protein-hormone", "cost": {"atp": 2, "protein": 2, "carb": 1}, "health": 7}),
    DeckCard("enzyme-red", {"type": "enzyme", "cost": {"atp": 1, "protein": 1}, "health": 1, "color": "red",
                            "illustrative": True}),
    DeckCard("macro-carb", {"type": "macromolecule", "gain": {"carb": 2}, "illustrative": True}),
    DeckCard("steroid-hormone", {"type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9}),
    DeckCard("detox", {"type": "detox", "cost": {"atp": 2}, "illustrative": True}),
    DeckCard("protein-receptor", {"type": "protein-receptor", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2,
                                  "illustrative": True}),
    DeckCard("enzyme-blue", {"type": "enzyme", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2, "color": "blue",
                             "illustrative": True}),
    DeckCard("macro-lipid", {"type": "macromolecule", "gain": {"lipid": 2}, "illustrative": True}),
    DeckCard("protein-hormone-5", {"type": "protein-hormone", "cost": {"atp": 1, "protein": 2, "carb": 1}, "health": 5,
                                   "illustrative": True}),
    DeckCard("enzyme-green", {"type": "enzyme", "cost": {"atp": 1, "carb": 1}, "health": 1, "color": "green",
                              "illustrative": True}),
    DeckCard("macro-mrna", {"type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True}),
    DeckCard("steroid-hormone-6", {"type": "steroid-hormone", "cost": {"atp": 2, "lipid": 2, "carb": 1}, "health": 6,
                                   "illustrative": True}),
)
"""The deck's cycle of card kinds, dealt in this order (row first, then the deck)."""

EVENTS_2E = ("boost-nucleus", "reduce-atp-cost", "boost-glucose", None, "boost-respiration", None)
"""The round events of the family, repeated (2nd-edition Cell Events; the 1st edition's event deck
has the same boosts)."""

OCCUPIED = (("nucleus-3",), ("mitochondria-3", "card-row-2"), ("glucose-2",), ("card-row-1",))
"""Spots the other players take, round r using entry (r - 1) mod 4: twice in four rounds one of
them buys from the card row, so the row moves under the player's feet."""


def deal(row_slots: int, cards_needed: int) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """(row, deck, card entries): ``cards_needed`` cards dealt from :data:`DECK_CARDS` in order, the
    first ``row_slots`` into the row. The first copy of each rulebook hormone keeps its rulebook
    values; later copies are marked illustrative (the rulebooks give two cards, not a deck)."""
    ids: list[str] = []
    entries: list[dict[str, Any]] = []
    copies: dict[str, int] = {}
    for n in range(cards_needed):
        kind = DECK_CARDS[n % len(DECK_CARDS)]
        copies[kind.stem] = copies.get(kind.stem, 0) + 1
        cid = f"{kind.stem}-no{copies[kind.stem]}"
        entry = {"id": cid, **kind.data}
        if copies[kind.stem] > 1:
            entry["illustrative"] = True
        ids.append(cid)
        entries.append(entry)
    return ids[:row_slots], ids[row_slots:], entries


def deck_size(rounds: int, players: int, row_slots: int = 4) -> int:
    """Cards enough that the row never runs dry: the row, then per round the Phase-2 discards
    (2 with two players), the other players' purchases and up to two of the player's own."""
    return row_slots + rounds * ((2 if players == 2 else 1) + 1 + 2)


def deck_puzzle(placements: int, edition: Edition = Edition.SECOND, players: int = 3, flasks: int = 4) -> Puzzle:
    """A generated puzzle of ``placements`` = rounds x ``flasks`` with a full card row and a deck
    that refills it every round. ``players``: 3, or 2 (two cards discarded a round; the 2nd
    edition's 2-player board side, the 1st edition's only side). Fewer flasks make small
    instances the exhaustive search can check."""
    data = deck_puzzle_data(placements, edition, players, flasks)
    where = _Where(f"<{data['id']}>", Located(f"<{data['id']}>"))
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


def deck_puzzle_data(placements: int, edition: Edition = Edition.SECOND, players: int = 3, flasks: int = 4) -> dict[str, Any]:
    """The puzzle file's data of :func:`deck_puzzle` (the shipped deck puzzles started from it)."""
    if not 1 <= flasks <= 4:
        raise ValueError(f"flasks: expected 1..4, got {flasks}")
    if placements % flasks or placements <= 0:
        raise ValueError(f"placements: expected a positive multiple of {flasks}, got {placements}")
    rounds = placements // flasks
    board = "2p" if players == 2 and edition is Edition.SECOND else "3-5p"
    row, deck, cards = deal(4, deck_size(rounds, players))
    tag = f"deck-{placements}-{edition.value}" + ("-2p" if players == 2 else "") + (f"-f{flasks}" if flasks != 4 else "")
    data = {
        "id": tag, "title": {"en": tag, "it": tag}, "story": {"en": "-", "it": "-"},
        "edition": edition.value, "board": board, "players": players, "rounds": rounds, "flasks": flasks,
        "start": {"atp": 3, "mrna": 2, "carb": 1, "lipid": 1}, "hand": [],
        "row": row, "deck": deck, "grey_flasks": 0,
        "events": [EVENTS_2E[r % len(EVENTS_2E)] for r in range(rounds)],
        "occupied": {str(r): list(OCCUPIED[(r - 1) % len(OCCUPIED)]) for r in range(1, rounds + 1)},
        "goals": [], "opponents": {"detox": []}, "objective": "max-health",
        "cards": cards,
    }
    _normalise_round_keys(data)
    return data
