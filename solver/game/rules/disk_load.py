"""How many cubes the ER step loads on a Transport Vesicle Disk (2e, ruling ``disk-load``).

"A player must have at least the number of macromolecules required by the Cell Component Card they
are completing on their Transport Vesicle Disk, but may have more" (EN 276, ``spots.completing-cards``)
against "Place a number of yellow Lipids ... onto their Transport Vesicle Disk according to the
quantity shown on the Steroid Hormone Card they are trying to complete" (EN 295) and "Return a
number of black mRNA ... (according to the Cell Component Card they are trying to complete)"
(``spots.rough-er``). ``exact`` (default): the ER step loads the card's quantity; "may have more"
then speaks of a disk that completes a card needing fewer (ruling ``disk-card``).
``more-allowed``: the ER step may load more than the card's quantity (the ``amount`` of the
placement), so the disk can later complete a card that needs more.

The time-indexed planner loads the card's quantity: a puzzle where ``more-allowed`` can matter is
solved by the exhaustive search (:func:`planner_limit`).
"""
from __future__ import annotations

from ..model import Puzzle, Ruling

SECTION = "spots.completing-cards"


def more_allowed(puzzle: Puzzle) -> bool:
    """May the ER step load more cubes than the card needs?"""
    return puzzle.readings().get(Ruling.DISK_LOAD.value) == "more-allowed"


def amounts(puzzle: Puzzle, need: int, available: int) -> list[int | None]:
    """The ``amount`` values an ER placement may take: None (the card's quantity) and, under
    ``more-allowed``, every larger load the stock pays for."""
    if not more_allowed(puzzle):
        return [None]
    return [None] + list(range(need + 1, available + 1))


def why_not(puzzle: Puzzle, need: int, amount: int | None) -> str | None:
    """Why loading ``amount`` cubes (None: the card's ``need``) is refused, or None."""
    if amount is None:
        return None
    if not more_allowed(puzzle):
        return (f"amount={amount}: the ER step loads the card's quantity, {need} (ruling disk-load: exact, "
                f"{SECTION})")
    if amount <= need:
        return f"amount={amount}: more than the card's {need} cubes, or leave amount out ({SECTION})"
    return None


def planner_limit(puzzle: Puzzle) -> str | None:
    """Why the time-indexed planner cannot model ``puzzle``'s disk loads, or None."""
    if more_allowed(puzzle) and Ruling.DISK_LOAD in puzzle.rulings_in_play():
        return ("disk-load: more-allowed: the time-indexed model loads the card's quantity at the ER "
                f"({SECTION}); the exhaustive search solves it")
    return None
