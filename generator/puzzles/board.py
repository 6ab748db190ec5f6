"""Board values and where they come from: every spot, budding-location count and boost of each
board side, marked rulebook, assumed or set by the puzzle (the assumptions page, and the assumed
values a worked example's plan relies on)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from solver.io.loading import load_yaml

from ..errors import Problems
from .model import BoardItem, ItemKind, Provenance
from .texts import AREAS, RESOURCES, UI, amount

if TYPE_CHECKING:
    from solver.game.model import Board, Puzzle, Spot


def spot_value(spot: Spot, lang: str) -> str:
    """What a spot's printed number means, in ``lang``."""
    from solver import SpotKind
    kind = spot.kind
    if kind is SpotKind.NUCLEUS:
        return "+" + amount(spot.value, "mrna", lang)
    if kind is SpotKind.LIPID_SYNTHESIS:
        return "+" + amount(spot.value, "lipid", lang)
    if kind is SpotKind.MITOCHONDRIA:
        return cast(str, UI[lang]["spot_atp"].format(n=spot.value))
    if kind is SpotKind.MITOCHONDRIA_CARB:
        return cast(str, UI[lang]["spot_carb_to_atp"].format(carb=amount(1, "carb", lang), n=spot.value))
    if kind is SpotKind.GLUCOSE:
        return cast(str, UI[lang]["spot_atp_to_carb"].format(n=spot.value, carb=amount(spot.value, "carb", lang)))
    if kind is SpotKind.CARD_ROW:
        return cast(str, UI[lang]["spot_slot"].format(slot=spot.row_slot + 1, price=spot.value))
    return cast(str, UI[lang]["spot_other"])


def board_items(board: Board) -> tuple[BoardItem, ...]:
    """Every value of a board side (after overrides) with its provenance."""
    items = [BoardItem(ItemKind.SPOT, f"spot:{s.id}", s.area.value, s.id,
                       {lang: spot_value(s, lang) for lang in UI}, Provenance(s.provenance))
             for s in board.spots]
    provenance = dict(board.vesicle_provenance)
    for area, count in board.vesicles:
        items.append(BoardItem(ItemKind.VESICLES, f"vesicles:{area.value}", area.value, area.value,
                               {lang: UI[lang]["vesicles_value"].format(count=count) for lang in UI},
                               Provenance(provenance.get(area, "assumed"))))
    for boost in board.boosts:
        items.append(BoardItem(ItemKind.BOOST, f"boost:{boost.event}", boost.areas[0].value, boost.event,
                               {lang: UI[lang]["boost_value"].format(
                                   resource=RESOURCES[boost.resource.value][lang],
                                   areas=", ".join(AREAS[a.value][lang] for a in boost.areas)) for lang in UI},
                               Provenance(boost.provenance)))
    return tuple(items)


VESICLE_AREA_OF_SPOT = {"rough-er": "rough-er", "golgi": "golgi", "smooth-er-detox": "smooth-er"}
"""Spot kind -> the vesicle area a disk is placed in (hormones and receptors only)."""


def plan_assumptions(puzzle: Puzzle, plan: list[dict[str, Any]]) -> tuple[BoardItem, ...]:
    """The non-rulebook board values the plan uses: the spots it places on, the budding locations
    of the areas its disks go to, and the boosts of the puzzle's events."""
    from solver import Action, ActionKind
    items = {item.key: item for item in board_items(puzzle.board)}
    used: dict[str, None] = {}
    for data in plan:
        action = Action.from_dict(data)
        if action.kind is not ActionKind.PLACE:
            continue
        assert action.spot is not None, "every placement names its spot (the plan was replayed legal)"
        spot = puzzle.board.spot(action.spot)
        used[f"spot:{spot.id}"] = None
        area = VESICLE_AREA_OF_SPOT.get(spot.kind.value)
        if area and action.card and puzzle.card(action.card).route is not None:
            used[f"vesicles:{area}"] = None
    for event in puzzle.events:
        if event and event.startswith("boost-"):
            used[f"boost:{event}"] = None
    return tuple(items[k] for k in used if k in items and items[k].provenance is not Provenance.RULEBOOK)


def load_boards(puzzles_dir: Path, problems: Problems | None = None
                ) -> tuple[tuple[str, dict[str, str], tuple[str, ...], tuple[BoardItem, ...]], ...]:
    """Every board side with its title, editions and values; a malformed board side is a problem
    (or a :class:`~solver.PuzzleError` without ``problems``)."""
    from solver import PuzzleError, load_board
    from solver.io.puzzle import BOARDS_DIR
    out = []
    for file in sorted(BOARDS_DIR.glob("*.yaml")):
        try:
            board = load_board(file.stem)  # validates the file first (the shared loader, the schema)
        except PuzzleError as exc:
            if problems is None:
                raise
            problems.add(file, exc.where, exc.detail, exc.line)
            continue
        raw, _ = load_yaml(file)
        out.append((board.id, dict(raw["title"]), tuple(e.value for e in board.editions), board_items(board)))
    return tuple(out)
