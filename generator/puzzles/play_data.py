"""Build-time data for the interactive puzzle board (issue #19, step 1).

The page's worked example is replayed through the rules engine here, at build time, and every
state along it is written into the page as JSON; ``docs/assets/board.js`` draws a schematic board
(SVG drawn by the project, no copied artwork) from it and turns the example into a step-through.
Without JavaScript the static step table stays the page's content.
"""
from __future__ import annotations

from collections.abc import Mapping

import base64
import gzip
import json
import shutil
from html import escape
from pathlib import Path

from solver.game.model import STOCK_ORDER
from typing import TYPE_CHECKING, Any

from .. import i18n
from . import play_runtime
from .move_words import Words
from ..render import Asset
from ..paths import GENERATED_DIR
from .step_texts import NAMED_KEYS, step_text

if TYPE_CHECKING:
    from solver.game.engine import State
    from solver.game.model import Puzzle
    from solver.solution import Step

UI = i18n.namespace("play")
"""This feature's interface strings: ``play.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def ui_strings(lang: str) -> dict[str, Any]:
    """The ``play.*`` strings of ``lang`` as plain nested dicts (board.js reads them from the page)."""
    def plain(strings: Mapping[str, Any]) -> dict[str, Any]:
        return {key: plain(value) if isinstance(value, Mapping) else value for key, value in strings.items()}
    return plain(UI[lang])


def names_of(puzzle: Puzzle, lang: str) -> dict[str, str]:
    """The reader's name of every id of ``puzzle`` a move or a drawing may show (issue #36): a card
    by its type and Health (or gain, or strain; numbered when two share a name), a spot by its area
    and printed value or place, a goal by its place, a disk by whose it is. The names of spots are
    the suffix of the area's name (``, spot 3``), as the step text ``steps.place`` joins them."""
    from .texts import CARD_TYPES, stock_text
    words = UI[lang]["names"]
    names: dict[str, str] = {}
    for card in puzzle.cards:
        kind = CARD_TYPES[card.type.value][lang]
        if card.strain is not None:
            name = words["card_strain"].format(type=kind, strain=words["strains"][card.strain.value])
        elif not card.gain.is_zero():
            name = words["card_gain"].format(type=kind, gain=stock_text(card.gain, lang))
        else:
            name = words["card"].format(type=kind, health=card.health)
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
    return {**play_runtime.frame_of(state), "step": step.index if step else 0,
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
                table: bool = False) -> str:
    """The HTML the page carries: an empty container board.js fills, with the step-through's data
    as JSON and the address of the play data (:func:`play_data_asset`) and, when ``table``, of the
    move table (:func:`play_table_asset`). Empty when there is no plan to step through.
    ``proven``: ``optimum`` is the proven optimum (:func:`offers_regret`)."""
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
            f'data-optimum="{optimum if regret else ""}" data-regret="{"1" if regret else ""}" hidden>'
            f'<p class="cellula-board__hint">{escape(ui["keys_hint"])}</p></div>')


TABLE_STATES = 1500
"""Largest number of reachable states a puzzle's move table (:func:`play_table`) is built for: up
to it the page plays from the table, without Python in the browser (issue #36: the first legal move
within 2 s); beyond it the browser runs the engine in Pyodide. 1500 keeps each language's table
under about 1 MB (the largest such puzzle, steroid-no-lipids-2e with 1249 states)."""


def play_table(puzzle: Puzzle, values: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """Every state reachable from the start, each with its board frame, its best reachable score
    (from the record's ``table`` values), and its legal moves in the reader's words with the state
    each leads to, and why each spot without a move has none (:func:`generator.puzzles.move_words.blocked_codes`):
    what board.js plays from without the engine. Labels and frames are stored once
    (``labels``, ``frames``) and referred to by index. None when the values are not a ``table`` or
    the states are more than :data:`TABLE_STATES`."""
    from solver.game import engine
    from .move_words import blocked_codes, move_group, move_text
    if values.get("kind") != "table" or len(values["best"]) > TABLE_STATES:
        return None
    words = words_of(puzzle, lang)
    start = engine.initial_state(puzzle)
    index: dict[State, int] = {start: 0}
    order = [start]
    labels: dict[str, int] = {}
    frames: dict[str, int] = {}
    rows: list[list[Any]] = []

    def intern(table: dict[str, int], text: str) -> int:
        return table.setdefault(text, len(table))

    for state in order:    # grows while it is read: a breadth-first walk
        moves: list[list[Any]] = []
        for action in ([] if engine.is_terminal(state) else engine.legal_actions(state)):
            after = engine.apply_legal(state, action)
            if after not in index:
                index[after] = len(order)
                order.append(after)
            moves.append([intern(labels, move_text(state, action, words, after)), intern(labels, str(action)),
                          action.spot, move_group(state, action), index[after]])
        terminal = engine.is_terminal(state)
        frame = json.dumps(play_runtime.frame_of(state), sort_keys=True, separators=(",", ":"))
        rows.append([intern(frames, frame), values["best"].get(play_runtime.state_key(state)),
                     engine.score(state).total if terminal else None, moves, blocked_codes(state)])
        if len(order) > TABLE_STATES:
            return None
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


# --------------------------------------------------------------------------- play assets

ROOT = Path(__file__).resolve().parents[2]
PYODIDE_DIR = ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
"""Where ``make pyodide`` (npm ci in tools/pyodide) puts the Pyodide package."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files Pyodide's core needs (no extra packages: the engine needs only the standard library)."""
ENGINE_MODULES = ("solver/game/engine.py", "solver/game/model.py", "solver/game/editions.py", "solver/game/errors.py",
                  *sorted(f"solver/game/rules/{p.name}" for p in (ROOT / "solver" / "game" / "rules").glob("*.py")
                          if p.name != "__init__.py"),
                  "solver/game/messages.py", "solver/game/steps.py", "solver/solution.py", "solver/game/values.py")
"""The only solver modules the browser loads: the engine and what it imports (every rule group of
``solver/game/rules/``, so a new group cannot be left out), the value search the play runtime imports,
and the step events and their renderer that
tell a move in the reader's words (:mod:`generator.puzzles.move_words`)."""

BROWSER_LOADING = '''"""The browser's stand-in for solver/io/loading.py (generator/puzzles/play_data.py BROWSER_LOADING):
solver/game/steps.py imports its file readers for the command line's catalogue; in the browser the page
hands the words over and no file is ever read, so these only say so."""


class LoadError(Exception):
    pass


def display_path(path):
    return str(path)


def load_yaml(path):
    raise LoadError(f"{path}: no files are read in the browser")
'''
"""solver/io/loading.py imports yaml, which the browser does not load."""


def engine_sources() -> dict[str, str]:
    """Path in Pyodide's file system -> source: the engine modules, empty package files (the real
    ``solver/__init__.py`` imports the solvers, yaml and jsonschema), and the play session."""
    sources = {"solver/__init__.py": "", "solver/game/__init__.py": "", "solver/game/rules/__init__.py": "",
               "solver/io/__init__.py": "", "generator/__init__.py": "", "generator/puzzles/__init__.py": "",
               "solver/io/loading.py": BROWSER_LOADING}
    for module in ENGINE_MODULES:
        sources[module] = (ROOT / module).read_text(encoding="utf-8")
    sources["generator/puzzles/move_words.py"] = (ROOT / "generator" / "puzzles" / "move_words.py").read_text(encoding="utf-8")
    sources["cellula_play.py"] = (ROOT / "generator" / "puzzles" / "play_runtime.py").read_text(encoding="utf-8")
    return sources


def write_play_assets(site_dir: Path) -> None:
    """Copy Pyodide and the engine sources into the built site (never committed). The sources go
    in a script (``assets/play-engine.js``) so they load from file:// too; the offline build gets
    Pyodide as classic scripts instead (:func:`write_offline_pyodide`)."""
    assets = Path(site_dir) / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    body = json.dumps(engine_sources(), ensure_ascii=False)
    script = f"window.CELLULA_ENGINE_SOURCES = {body};\n"
    if PYODIDE_DIR.is_dir() and is_offline_build(site_dir):
        script += f"window.CELLULA_PYODIDE_BUNDLE = {json.dumps(write_offline_pyodide(assets))};\n"
    elif PYODIDE_DIR.is_dir():
        target = assets / "pyodide"
        target.mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE_DIR / name, target / name)
    (assets / "play-engine.js").write_text(script, encoding="utf-8")


# --------------------------------------------------------------------------- play from file://

OFFLINE_DIR = "pyodide-offline"
"""Folder of ``assets/`` holding Pyodide as classic scripts, in the offline build only."""
MEMORY_FILES = ("pyodide-lock.json", "python_stdlib.zip", "pyodide.asm.wasm")
"""The files Pyodide fetches: from file:// board.js answers those fetches from memory."""
ASM_MODULE = "pyodide.asm.mjs"
ASM_EXPORT = "export default _createPyodideModule;"
ASM_GLOBAL = "CELLULA_PYODIDE_MODULE"


def is_offline_build(site_dir: Path) -> bool:
    """The offline build (``mkdocs-offline.yml``): Material's offline plugin has written
    ``search/search_index.js``, the same sign :mod:`generator.search_index` goes by."""
    return (Path(site_dir) / "search" / "search_index.js").exists()


def classic_asm_script(module_text: str, source: str = ASM_MODULE) -> str:
    """``pyodide.asm.mjs`` as a classic script setting ``window.CELLULA_PYODIDE_MODULE`` (for
    loadPyodide's ``createPyodideModule`` option). From file:// Chromium refuses the module's
    ``import()`` but runs a ``<script src>``; a module's ``import.meta`` is a syntax error in a
    classic script, so it becomes the script's own address (the module asks it only for its folder)."""
    if module_text.count(ASM_EXPORT) != 1 or not module_text.rstrip().endswith(ASM_EXPORT):
        raise ValueError(f"{source}: expected it to end with {ASM_EXPORT!r} (once); a new Pyodide "
                         f"version? generator/puzzles/play_data.py turns it into a classic script")
    body = module_text.rstrip()[:-len(ASM_EXPORT)]
    if body.count("import.meta") != body.count("import.meta.url"):
        raise ValueError(f"{source}: uses import.meta other than import.meta.url, which "
                         f"generator/puzzles/play_data.py cannot replace in a classic script")
    body = body.replace("import.meta.url", "cellulaScriptUrl")
    return ('(function () {\n"use strict";\n'
            'var cellulaScriptUrl = document.currentScript ? document.currentScript.src : location.href;\n'
            f"{body}\nwindow.{ASM_GLOBAL} = _createPyodideModule;\n}})();\n")


def memory_file_script(name: str, data: bytes) -> str:
    """A classic script holding one file as base64 of its gzip (board.js inflates it with
    DecompressionStream): the WebAssembly shrinks from 9.6 MB to 4.7 MB this way. Level 6: level 9
    saves 0.3 % for about twice the time (4.6 s against 2.3 s, on a loaded machine) in every
    offline build."""
    packed = base64.b64encode(gzip.compress(data, 6, mtime=0)).decode("ascii")
    return (f"(window.CELLULA_PYODIDE_FILES = window.CELLULA_PYODIDE_FILES || {{}})"
            f'[{json.dumps(name)}] = "{packed}";\n')


def write_offline_pyodide(assets: Path) -> list[str]:
    """Pyodide for the offline build, read from file:// with ``<script>`` tags only: the loader
    (already a classic script), the core module turned into one, and each file it fetches as a
    script for board.js to serve from memory. Returns the scripts board.js adds on the play
    click, relative to ``assets/``."""
    (assets / "pyodide").mkdir(exist_ok=True)
    shutil.copy2(PYODIDE_DIR / "pyodide.js", assets / "pyodide" / "pyodide.js")
    target = assets / OFFLINE_DIR
    target.mkdir(exist_ok=True)
    module = PYODIDE_DIR / ASM_MODULE
    scripts = {"pyodide.asm.js": classic_asm_script(module.read_text(encoding="utf-8"), str(module))}
    for name in MEMORY_FILES:
        scripts[f"{name}.js"] = memory_file_script(name, (PYODIDE_DIR / name).read_bytes())
    for name, text in scripts.items():
        (target / name).write_text(text, encoding="utf-8")
    return [f"{OFFLINE_DIR}/{name}" for name in scripts]
