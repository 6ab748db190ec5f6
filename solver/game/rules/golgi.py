"""The Golgi Apparatus cube follows the card being completed (``spots.golgi``).

2e: "Place 1 green Carbohydrate or 1 yellow Lipid from their personal stock onto that Transport
Vesicle Disk, according to the Cell Component Card they are trying to complete" (EN 317); 1e "in
base a quanto richiesto dalla Carta Componente Cellula che vogliono completare" (IT 296). Under the
ruling ``disk-card: at-exocytosis`` (default) the card a disk completes is named at Exocytosis, so
at the Golgi the card "they are trying to complete" may be another card than the one the disk was
started for: the cube is that card's (a Carbohydrate, or a Lipid for a Steroid Hormone Receptor).
The engine offers it as a Golgi placement naming the card now aimed at and the disk
(``card``/``disk``, as at Exocytosis); under ``at-er`` the disk's own card gives the cube.

The time-indexed planner gives each disk that may take another card's cube (:func:`other_cubes`)
a second Golgi state, "in the Golgi with that cube", whose load (:func:`load_with`) decides the
cards its Exocytosis completes (``solver.optimise.planner.build_model``, section ``spots.golgi``).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..model import Card, Puzzle, Resource, Ruling, Stock


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


def other_cubes(puzzle: Puzzle, disk_cards: Sequence[str]) -> dict[str, Resource]:
    """The disks (named by the card each is started for, among ``disk_cards``) that may take
    another of these cards' Golgi cube, and that cube (cubes are a Carbohydrate or a Lipid, so a
    disk has one other cube at most)."""
    return {own: cube(puzzle, other) for own in disk_cards for other in disk_cards
            if other_cube_allowed(puzzle, own, other)}


def load_with(card: Card, golgi_cube: Resource) -> Stock:
    """The cubes on a disk started for ``card`` once through the Golgi with ``golgi_cube``: its
    Endoplasmic Reticulum cubes (as many as the card needs) and that cube."""
    route = card.route
    assert route is not None, "only hormone and receptor cards travel on a disk"
    return Stock.of(route.er_resource, card.cost.get(route.er_resource)) + Stock.of(golgi_cube, 1)
