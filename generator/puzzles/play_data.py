"""Build-time data for the interactive puzzle board and play mode (issue #19, step 1; issue #36).

The page's worked example is replayed through the rules engine here, at build time, and every
state along it is written into the page as JSON; ``docs/assets/board.js`` draws a schematic board
(SVG drawn by the project, no copied artwork) from it and turns the example into a step-through.
Without JavaScript the static step table stays the page's content. Beside it, what play mode
loads when a reader starts playing: the puzzle packed for the engine with its best reachable
scores (:func:`play_data_asset`) and, for a small puzzle, every reachable state's moves in the
reader's words (:func:`play_table`). The engine itself and Pyodide are copied into the built site
by :mod:`.play_assets`.
"""
from __future__ import annotations

import functools
import json
from enum import Enum
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from solver.game.model import STOCK_ORDER
from solver.game.position import position_fields
from solver.game.values import state_key

from .. import i18n
from . import play_runtime
from .move_words import Words
from ..render import Asset
from ..paths import GENERATED_DIR
from .step_texts import NAMED_KEYS, step_text

if TYPE_CHECKING:
    from solver.game.engine import Action, State
    from solver.game.model import Puzzle
    from solver.game.replay import Step

UI = i18n.namespace("play")
"""This feature's interface strings: ``play.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def ui_strings(lang: str) -> dict[str, Any]:
    """The ``play.*`` strings of ``lang`` as plain nested dicts (board.js reads them from the page)."""
    def plain(strings: Mapping[str, Any]) -> dict[str, Any]:
        return {key: plain(value) if isinstance(value, Mapping) else value for key, value in strings.items()}
    return plain(UI[lang])


def names_of(puzzle: Puzzle, lang: str) -> dict[str, str]:
    """The reader's name of every id of ``puzzle`` a move or a drawing may show (issue #36), in
    ``lang``: :func:`generator.puzzles.names.names_from` with the catalogue's words."""
    from .names import names_from
    from .texts import stock_text
    return names_from(puzzle, UI[lang]["names"], _card_types(lang), lambda stock: stock_text(stock, lang),
                      lambda count: i18n.plural_category(count, lang), lambda count: i18n.number(count, lang))


def _card_types(lang: str) -> dict[str, str]:
    """Each card type's name in ``lang`` (the catalogue's ``puzzles.card_types``), by type value."""
    from .texts import CARD_TYPES
    return {kind.value if isinstance(kind, Enum) else kind: names[lang] for kind, names in CARD_TYPES.items()}


def vocabulary(lang: str) -> dict[str, Any]:
    """What :func:`generator.puzzles.names.names_from` and :class:`Words` need in ``lang``, as
    plain JSON for the live solver in the browser (issue #70: the moves of a pasted puzzle told in
    the page's words): the step texts, the name templates, the card types, the resources' names."""
    from .model import STOCK_FIELDS
    from .texts import RESOURCES, RESOURCES_PLURAL
    return {"texts": step_texts_of(lang), "names": ui_strings(lang)["names"], "card_types": _card_types(lang),
            "resources": {r: RESOURCES[r][lang] for r in STOCK_FIELDS},
            "resources_plural": {r: RESOURCES_PLURAL[r][lang] for r in STOCK_FIELDS}, "stock_fields": list(STOCK_FIELDS)}


def step_texts_of(lang: str) -> dict[str, str]:
    """The ``steps.*`` texts of ``lang`` as flat dotted keys (what :class:`Words` reads)."""
    from solver.game.steps import catalogue_keys
    return {key: i18n.t(NAMED_KEYS.get(key, key), lang) for key in sorted(catalogue_keys())}




def words_of(puzzle: Puzzle, lang: str) -> Words:
    """The words a move of ``puzzle`` is told in, in ``lang`` (build time and, through the page,
    the browser's engine)."""
    return Words(step_texts_of(lang), names_of(puzzle, lang))


def layout(puzzle: Puzzle) -> dict[str, Any]:
    """The board side as the drawing needs it: areas in board order, each with its spots, and the
    budding vesicle locations per vesicle area."""
    areas: dict[str, list[dict[str, Any]]] = {}
    for spot in puzzle.board.spots:
        areas.setdefault(spot.area.value, []).append(
            {"id": spot.id, "kind": spot.kind.value, "value": spot.value, "slot": spot.slot})
    return {
        "areas": [{"id": area, "spots": spots} for area, spots in areas.items()],
        "vesicles": [{"area": area.value, "count": count} for area, count in puzzle.board.vesicles],
    }


def frame(state: State, step: Step | None = None, lang: str = "en",
          names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the drawing shows of one state (after ``step``, or the start when ``step`` is None)."""
    return {**play_runtime.frame_of(state), "position": position_fields(state), "step": step.index if step else 0,
            "text": step_text(step.events, lang, names) if step else "", "spot": step.action.spot if step else None,
            "action": str(step.action) if step else None}


def board_data(puzzle: Puzzle, plan: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """The layout and one frame per state of ``plan`` (the start, then after each step), every
    state computed by the rules engine; the words moves are told in (``words``: the browser's
    engine reads them) and the names of the ids the drawing shows (``names``)."""
    from solver import Action, initial_state, replay
    steps, _final = replay(puzzle, [Action.from_dict(a) for a in plan])
    words = words_of(puzzle, lang)
    frames = [frame(initial_state(puzzle), None, lang, words.names)] + [frame(s.state, s, lang, words.names)
                                                                         for s in steps]
    return {"lang": lang, "layout": layout(puzzle), "frames": frames, "ui": ui_strings(lang),
            "spot_order": [spot.id for spot in puzzle.board.spots],
            "stock_names": STOCK_ORDER, "words": words.to_dict(), "names": words.names}


def offers_regret(optimum: int | None, proven: bool) -> bool:
    """Whether play mode measures moves against ``optimum``: only a proven one (a whole game's
    recorded best is not proven, so no regret is offered against it)."""
    return proven and optimum is not None


def play_data_path(puzzle: Puzzle) -> str:
    """Where :func:`play_data_asset` puts the puzzle's play data, under ``generated/``."""
    return f"play/{puzzle.id}.js"


def has_table(values: dict[str, Any] | None) -> bool:
    """Whether :func:`play_table` builds a move table from ``values`` (a record's regret values)."""
    return values is not None and values.get("kind") == "table" and len(values["best"]) <= TABLE_STATES


def board_block(puzzle: Puzzle, plan: list[dict[str, Any]], lang: str, optimum: int | None = None, proven: bool = True,
                table: bool = False, analysis: dict[str, Any] | None = None) -> str:
    """The HTML the page carries: an empty container board.js fills, with the step-through's data
    as JSON and the address of the play data (:func:`play_data_asset`) and, when ``table``, of the
    move table (:func:`play_table_asset`). Empty when there is no plan to step through.
    ``proven``: ``optimum`` is the proven optimum (:func:`offers_regret`). ``analysis``: the analysis
    board's address, the puzzle file's data and the story of a position (board.js "analyse from
    here", issue #70)."""
    if not plan:
        return ""
    # A data attribute, not a <script>: the page sanitizer (generator/sanitize.py) keeps data-*
    # attributes and removes every inline script that is not a template's own.
    data = json.dumps(board_data(puzzle, plan, lang), ensure_ascii=False, separators=(",", ":"))
    ui = UI[lang]
    regret = offers_regret(optimum, proven)
    return (f'<div class="cellula-board" data-puzzle="{escape(puzzle.id)}" data-board="{escape(data, quote=True)}" '
            f'data-play="{escape(GENERATED_DIR + "/" + play_data_path(puzzle))}" '
            f'data-table="{escape(GENERATED_DIR + "/" + play_table_path(puzzle, lang)) if table and regret else ""}" '
            f'data-optimum="{optimum if regret else ""}" data-regret="{"1" if regret else ""}" '
            f'data-analysis="{escape(json.dumps(analysis, ensure_ascii=False, separators=(",", ":")), quote=True) if analysis else ""}" hidden>'
            f'<p class="cellula-board__hint">{escape(ui["keys_hint"])}</p></div>')


TABLE_STATES = 1500
"""Largest number of reachable states a puzzle's move table (:func:`play_table`) is built for: up
to it the page plays from the table, without Python in the browser (issue #36: the first legal move
within 2 s); beyond it the browser runs the engine in Pyodide. 1500 keeps each language's table
under about 1 MB (the largest such puzzle, steroid-no-lipids-2e with 1249 states)."""


@dataclass(frozen=True)
class _Reached:
    """One state of a puzzle's breadth-first walk (:func:`_walk`): what a move table says of it in
    any language."""
    state: State
    moves: tuple[tuple[Action, int], ...]
    """Each legal move with the index of the state it leads to."""
    blocked: str
    """:func:`generator.puzzles.move_words.blocked_codes`."""
    frame: str
    """The board frame, as JSON."""
    final_score: int | None
    """The score of a finished game; None before its end."""


@functools.lru_cache(maxsize=None)
def _walk(puzzle: Puzzle) -> tuple[_Reached, ...] | None:
    """Every state reachable from the start, breadth-first, or None past :data:`TABLE_STATES`:
    walked once a build for a puzzle, then worded in each language (:func:`play_table`)."""
    from solver.game import engine
    from .move_words import blocked_codes
    start = engine.initial_state(puzzle)
    index: dict[State, int] = {start: 0}
    order = [start]
    reached: list[_Reached] = []
    for state in order:    # grows while it is read
        moves: list[tuple[Action, int]] = []
        terminal = engine.is_terminal(state)
        legal = [] if terminal else engine.legal_actions(state)
        for action in legal:
            after = engine.apply_legal(state, action)
            if after not in index:
                index[after] = len(order)
                order.append(after)
            moves.append((action, index[after]))
        # issue #70 "analyse from here": the puzzle file's fields that make this position a puzzle
        frame = json.dumps({**play_runtime.frame_of(state), "position": position_fields(state)}, sort_keys=True,
                           separators=(",", ":"))
        reached.append(_Reached(state, tuple(moves), blocked_codes(state, legal), frame,
                                engine.score(state).total if terminal else None))
        if len(order) > TABLE_STATES:
            return None
    return tuple(reached)


def play_table(puzzle: Puzzle, values: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """Every state reachable from the start, each with its board frame, its best reachable score
    (from the record's ``table`` values), and its legal moves in the reader's words with the state
    each leads to, and why each spot without a move has none (:func:`generator.puzzles.move_words.blocked_codes`):
    what board.js plays from without the engine. Labels and frames are stored once
    (``labels``, ``frames``) and referred to by index. None when the values are not a ``table`` or
    the states are more than :data:`TABLE_STATES`."""
    from .move_words import move_group, move_text
    if values.get("kind") != "table" or len(values["best"]) > TABLE_STATES:
        return None
    walk = _walk(puzzle)
    if walk is None:
        return None
    words = words_of(puzzle, lang)
    labels: dict[str, int] = {}
    frames: dict[str, int] = {}
    rows: list[list[Any]] = []

    def intern(table: dict[str, int], text: str) -> int:
        return table.setdefault(text, len(table))

    for here in walk:
        state = here.state
        moves = [[intern(labels, move_text(state, action, words, walk[after].state)), intern(labels, str(action)),
                  action.spot, move_group(state, action), after] for action, after in here.moves]
        rows.append([intern(frames, here.frame), values["best"].get(state_key(state)),
                     here.final_score, moves, here.blocked])
    return {"labels": list(labels), "frames": [json.loads(f) for f in frames], "states": rows}


def play_table_path(puzzle: Puzzle, lang: str) -> str:
    """Where :func:`play_table_asset` puts a puzzle's move table in ``lang``, under ``generated/``."""
    return f"play/{puzzle.id}.{lang}.table.js"


PLAY_TABLE_GLOBAL = "CELLULA_PLAY_TABLES"
"""The object the move table scripts file each table under, by ``<puzzle id>.<lang>``."""


def play_table_asset(puzzle: Puzzle, table: dict[str, Any], lang: str) -> Asset:
    """A puzzle's move table in ``lang`` (:func:`play_table`) as a classic script (file:// reads it)."""
    body = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    key = json.dumps(f"{puzzle.id}.{lang}")
    return Asset(play_table_path(puzzle, lang),
                 f"(window.{PLAY_TABLE_GLOBAL} = window.{PLAY_TABLE_GLOBAL} || {{}})[{key}] = {body};\n")


PLAY_DATA_GLOBAL = "CELLULA_PLAY_DATA"
"""The object the play data scripts file each puzzle's data under, by puzzle id (board.js reads it)."""


def play_data_asset(puzzle: Puzzle, values: dict[str, Any] | None) -> Asset:
    """What play mode needs beyond the page, loaded only when a reader starts playing: the puzzle
    packed for the engine and the best reachable scores from its record (``values``: None when no
    regret is offered). Kept out of the page, where the scores were two thirds of its bytes and
    delayed its first paint; a classic script rather than JSON, so that the offline build reads it
    from file://."""
    text = "" if values is None else json.dumps(values, separators=(",", ":"), sort_keys=True)
    body = json.dumps({"play": play_runtime.pack(puzzle), "values": text}, separators=(",", ":"))
    return Asset(play_data_path(puzzle), f"(window.{PLAY_DATA_GLOBAL} = window.{PLAY_DATA_GLOBAL} || {{}})"
                                         f"[{json.dumps(puzzle.id)}] = {body};\n")
