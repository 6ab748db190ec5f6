"""The reader's names of a puzzle's ids (issue #36), from one language's words: pure, so that the
build (:func:`generator.puzzles.play_data.names_of`, with the catalogue) and the live solver in the
browser (:mod:`generator.puzzles.live_solve`, a pasted puzzle, with the words the build ships) name
them alike. Kept out of :mod:`.move_words`, which the records' computation imports: the records'
code fingerprint (``generator/proofs/fingerprint.py``) does not move with the browser's needs."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.game.model import Puzzle, Stock


def one_or_other(count: int) -> str:
    """The CLDR plural category of a whole ``count`` in Italian and English (``one`` for 1, else
    ``other``): what the browser uses, where no locale data is loaded."""
    return "one" if count == 1 else "other"


def names_from(puzzle: Puzzle, words: Mapping[str, Any], card_types: Mapping[str, str],
               stock_text: Callable[[Stock], str], plural_category: Callable[[int], str] = one_or_other,
               number: Callable[[int], str] = str) -> dict[str, str]:
    """The reader's name of every id of ``puzzle`` a move or a drawing may show (issue #36): a card
    by its type and Health (or gain, or strain; numbered when two share a name), a spot by its area
    and printed value or place, a goal by its place, a disk by whose it is. The names of spots are
    the suffix of the area's name (``, spot 3``), as the step text ``steps.place`` joins them.
    ``words``: the catalogue's ``play.names`` of one language; ``card_types``: each card type's name;
    ``stock_text``: a stock in words; ``plural_category`` and ``number``: a count's plural form (the
    card's Health: "1 Punto Salute", "2 Punti Salute") and its digits in the language. Pure, so the browser's live solver names a pasted puzzle's ids
    as the build names the shipped ones (:func:`generator.puzzles.play_data.names_of`)."""
    names: dict[str, str] = {}
    for card in puzzle.cards:
        kind = card_types[card.type.value]
        if card.strain is not None:
            name = words["card_strain"].format(type=kind, strain=words["strains"][card.strain.value])
        elif not card.gain.is_zero():
            name = words["card_gain"].format(type=kind, gain=stock_text(card.gain))
        else:
            forms = words["card"]   # plural forms by CLDR category (generator.i18n.plural)
            form = forms.get(plural_category(card.health), forms["other"]) if isinstance(forms, Mapping) else forms
            name = form.format(type=kind, count=number(card.health))
        names[card.id] = name
    seen: dict[str, list[str]] = {}
    for card_id, name in names.items():
        seen.setdefault(name, []).append(card_id)
    for name, ids in seen.items():
        if len(ids) > 1:
            for k, card_id in enumerate(ids, 1):
                names[card_id] = words["nth"].format(name=name, k=k)
    by_area: dict[str, list[Any]] = {}
    for spot in puzzle.board.spots:
        by_area.setdefault(spot.area.value, []).append(spot)
    for spots in by_area.values():
        for n, spot in enumerate(spots, 1):
            if spot.slot is not None:
                names[spot.id] = words["row_slot"].format(n=spot.slot + 1, price=spot.value)
            elif spot.value and len({s.value for s in spots}) == len(spots):
                names[spot.id] = words["value_spot"].format(value=spot.value)
            elif len(spots) > 1:
                names[spot.id] = words["nth_spot"].format(n=n)
            else:
                names[spot.id] = ""
    for n, goal in enumerate(puzzle.goals, 1):
        names[goal.id] = words["goal"].format(n=n)
    for n, disk in enumerate(puzzle.opponent_disks, 1):
        names[disk.id] = words["opponent_disk"].format(n=n)
    for card in puzzle.cards:
        names[f"own:{card.id}"] = words["own_disk"].format(card=names[card.id])
    for strain, name in words["strains"].items():
        names[strain] = name
    return names
