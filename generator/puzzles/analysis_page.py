"""The analysis board (issue #70): ``cytosis/analysis.md`` in every site language, where a player
sets up a position of their own (small forms and the board itself) or pastes a puzzle file, and
has it solved in the page.

The page carries what its script (``docs/assets/analysis.js``) needs to build the forms: each board
side's spots by area (drawn by ``docs/assets/board.js``), the card types, the events of each
edition, the interface strings, and a starting position (a shipped puzzle's file). The position is
a puzzle file in the command line's format from end to end: the form writes it
(``docs/assets/puzzle-file.js``, the same text as :func:`solver.io.writer.puzzle_text`), the solver
in the page reads it (``window.CellulaAnalysis.analyse``, validated by the project's own loader),
the link carries it and the download is it. Every puzzle page links here with its position
(:func:`analysis_spec`, board.js "analyse from here")."""
from __future__ import annotations

import base64
import json
import zlib
from typing import TYPE_CHECKING, Any

from solver.game.editions import rules_for
from solver.game.model import CardType, Edition, event_kind
from solver.io.loading import load_yaml
from solver.io.puzzle import EVENT_IDS, rulebook_cards
from solver.io.writer import puzzle_text

from .. import i18n
from ..refs import relative
from ..render import Page, render
from .model import GAME, INDEX_PAGE, STOCK_FIELDS, PuzzleEntry, PuzzleSet
from .play_data import names_of, ui_strings
from .statement import EVENT_SECTIONS
from .texts import AREAS, CARD_TYPES, RESOURCES, UI

if TYPE_CHECKING:
    from ..site import SiteData

ANALYSIS_PAGE = f"{GAME}/analysis.md"
"""Where the analysis board is, under each language's docs folder."""
STARTING_PUZZLE = "market-day-2e"
"""The position the board opens with when its address carries none: a small shipped puzzle."""
AUI = i18n.namespace("analysis")
"""The board's interface strings: ``analysis.*`` of the catalogue."""
LINK_PREFIX = "puzzle="
"""How a link's fragment starts (docs/assets/puzzle-file.js ``PREFIX``)."""


def puzzle_data(entry: PuzzleEntry) -> dict[str, Any]:
    """The puzzle file of ``entry`` as the loader reads it (the file a player would download)."""
    data, _ = load_yaml(entry.puzzle.source)
    plain: dict[str, Any] = json.loads(json.dumps(data))      # round keys as texts, as in the page's JSON
    return plain


def link_fragment(text: str) -> str:
    """A puzzle file's text as the fragment of a link to the board (what puzzle-file.js ``encode``
    makes: the text deflated, base64url without padding)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return LINK_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def analysis_spec(entry: PuzzleEntry) -> dict[str, Any]:
    """What board.js needs for "analyse from here" on a puzzle page: the puzzle file's data, and
    the story a position taken from it gets (the board's address is the page's own link to it,
    :func:`start_link`, as MkDocs wrote it for this build: served or from disk)."""
    title = entry.puzzle.text("title", "en"), entry.puzzle.text("title", "it")
    return {"puzzle": puzzle_data(entry),
            "story": {"en": i18n.t("analysis.position_story", "en", title=title[0]),
                      "it": i18n.t("analysis.position_story", "it", title=title[1])}}


def start_link(entry: PuzzleEntry, page: str) -> str:
    """A Markdown link target from ``page`` to the board holding the puzzle's own start."""
    return f"{relative(page, ANALYSIS_PAGE)}#{link_fragment(puzzle_text(puzzle_data(entry)))}"


def _layout(entry: PuzzleEntry, lang: str) -> dict[str, Any]:
    """One board side as the drawing needs it (areas, spots, vesicles) with the spots' names."""
    board = entry.puzzle.board
    areas: dict[str, list[dict[str, Any]]] = {}
    for spot in board.spots:
        areas.setdefault(spot.area.value, []).append(
            {"id": spot.id, "kind": spot.kind.value, "value": spot.value, "slot": spot.slot})
    names = names_of(entry.puzzle, lang)
    return {"areas": [{"id": a, "spots": s} for a, s in areas.items()],
            "vesicles": [{"area": a.value, "count": n} for a, n in board.vesicles],
            "names": {s.id: names.get(s.id, "") for s in board.spots},
            "row_slots": len(board.row_slots)}


def _event_label(site: SiteData, entry: PuzzleEntry, event: str, lang: str) -> str:
    """An event as a player names it: its rule section's title (a boost with what it adds, where)."""
    section = site.games[GAME].sections.get("events.boost" if event.startswith("boost-") else EVENT_SECTIONS.get(event, ""))
    label = section.texts[lang].title.replace("*", "") if section else event
    boost = entry.puzzle.board.boost(event) if event.startswith("boost-") else None
    if boost is not None:
        label += " " + UI[lang]["boost_value"].format(resource=RESOURCES[boost.resource.value][lang],
                                                      areas=", ".join(AREAS[a.value][lang] for a in boost.areas))
    elif event.startswith("virus-"):
        label += f" ({event.removeprefix('virus-')})"
    return label


def board_config(site: SiteData, puzzle_set: PuzzleSet, lang: str) -> dict[str, Any]:
    """The JSON the page's script builds the board from."""
    sides: dict[str, PuzzleEntry] = {}
    for entry in puzzle_set.entries:       # a puzzle per side whose board is the side as printed
        side = entry.puzzle.board.id
        if side not in sides and "board_override" not in puzzle_data(entry):
            sides[side] = entry
    start = next(e for e in puzzle_set.entries if e.puzzle.id == STARTING_PUZZLE)
    events: dict[str, list[list[str]]] = {}
    for edition in Edition:
        rules = rules_for(edition)
        entry = next(iter(sides.values()))
        events[edition.value] = [[e, _event_label(site, entry, e, lang)] for e in EVENT_IDS
                                 if event_kind(e).value in rules.events()
                                 or (e.startswith("boost-") and "boost" in rules.events())]
    return {"ui": {**{k: _plain(v) for k, v in AUI[lang].items()}},
            "board_ui": ui_strings(lang),
            "sides": {side: _layout(entry, lang) for side, entry in sides.items()},
            "sides_by_edition": {e.value: sorted(rules_for(e).board_sides()) for e in Edition},
            "card_types": [[t.value, CARD_TYPES[t.value][lang]] for t in CardType],
            "resources": [[r, RESOURCES[r][lang]] for r in STOCK_FIELDS],
            "events": events,
            "rulebook": [{"type": t.value, "cost": cost.as_dict(nonzero=True), "health": health}
                         for t, cost, health in rulebook_cards()],
            "start": puzzle_text(puzzle_data(start)),
            "start_id": start.puzzle.id}


def _plain(value: Any) -> Any:
    if isinstance(value, i18n.Strings):
        return {k: _plain(v) for k, v in value.items()}
    return str(value)


def analysis_page(site: SiteData, puzzle_set: PuzzleSet, lang: str, nav: tuple[str, ...]) -> Page:
    """The analysis board's page in ``lang``."""
    ui = AUI[lang]
    config = json.dumps(board_config(site, puzzle_set, lang), ensure_ascii=False, separators=(",", ":"))
    content = render("analysis.md.j2", ui=ui, config=config, index_href=relative(ANALYSIS_PAGE, INDEX_PAGE))
    return Page(lang, ANALYSIS_PAGE, ui["title"], content, nav=nav)
