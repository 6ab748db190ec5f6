"""The Golgi Apparatus cube follows the card being completed (``spots.golgi``).

2e: "Place 1 green Carbohydrate or 1 yellow Lipid from their personal stock onto that Transport
Vesicle Disk, according to the Cell Component Card they are trying to complete" (EN 317); 1e "in
base a quanto richiesto dalla Carta Componente Cellula che vogliono completare" (IT 296). Under the
ruling ``disk-card: at-exocytosis`` (default) the card a disk completes is named at Exocytosis, so
at the Golgi the card "they are trying to complete" may be another card than the one the disk was
started for: the cube is that card's (a Carbohydrate, or a Lipid for a Steroid Hormone Receptor).
The engine offers it as a Golgi placement naming the card now aimed at and the disk
(``card``/``disk``, as at Exocytosis); under ``at-er`` the disk's own card gives the cube.

The time-indexed planner keeps one Golgi cube per disk, its card's; a puzzle where a disk could
take the other cube (its reachable hormone and receptor cards need both a Carbohydrate and a Lipid
at the Golgi, under ``at-exocytosis``) is solved by the exhaustive search (:func:`planner_limit`).
"""
from __future__ import annotations

from ..model import Puzzle, Resource, Ruling


def other_cube_allowed(puzzle: Puzzle, disk_card: str, card: str) -> bool:
    """May the disk started for ``disk_card`` take ``card``'s Golgi cube instead of its own? Only
    under ``disk-card: at-exocytosis``, for another hormone or receptor card whose cube differs
    (the same cube is the disk's own placement)."""
    if disk_card == card or puzzle.reading(Ruling.DISK_CARD) != "at-exocytosis":
        return False
    own, other = puzzle.card(disk_card).route, puzzle.card(card).route
    return own is not None and other is not None and own.golgi_resource is not other.golgi_resource


def cube(puzzle: Puzzle, card: str) -> Resource:
    """The Golgi cube of ``card`` (its route's)."""
    route = puzzle.card(card).route
    assert route is not None, "only hormone and receptor cards go through the Golgi"
    return route.golgi_resource


def planner_limit(puzzle: Puzzle) -> str | None:
    """Why the time-indexed planner cannot model ``puzzle``'s Golgi cubes, or None."""
    if puzzle.reading(Ruling.DISK_CARD) != "at-exocytosis":
        return None
    cubes = {c.route.golgi_resource for c in puzzle.reachable_cards() if c.route is not None}
    if len(cubes) > 1:
        return ("a disk may take the Golgi cube of another card than its own (spots.golgi, ruling "
                "disk-card: at-exocytosis) and the reachable cards need both a Carbohydrate and a Lipid "
                "there: the time-indexed model keeps one cube per disk; the exhaustive search solves it")
    return None
