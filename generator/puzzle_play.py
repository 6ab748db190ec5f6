"""Build-time data for the interactive puzzle board (issue #19, step 1).

The page's worked example is replayed through the rules engine here, at build time, and every
state along it is written into the page as JSON; ``docs/assets/board.js`` draws a schematic board
(SVG drawn by the project, no copied artwork) from it and turns the example into a step-through.
Without JavaScript the static step table stays the page's content.
"""
from __future__ import annotations

from collections.abc import Mapping

import json
from html import escape
from pathlib import Path
import shutil

from . import i18n, play_runtime
from .step_texts import step_text

UI = i18n.namespace("play")
"""This feature's interface strings: ``play.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def ui_strings(lang: str) -> dict:
    """The ``play.*`` strings of ``lang`` as plain nested dicts (board.js reads them from the page)."""
    def plain(strings) -> dict:
        return {key: plain(value) if isinstance(value, Mapping) else value for key, value in strings.items()}
    return plain(UI[lang])


def layout(puzzle) -> dict:
    """The board side as the drawing needs it: areas in board order, each with its spots, and the
    budding vesicle locations per vesicle area."""
    areas: dict[str, list[dict]] = {}
    for spot in puzzle.board.spots:
        areas.setdefault(spot.area.value, []).append(
            {"id": spot.id, "kind": spot.kind.value, "value": spot.value, "slot": spot.slot})
    return {
        "areas": [{"id": area, "spots": spots} for area, spots in areas.items()],
        "vesicles": [{"area": area.value, "count": count} for area, count in puzzle.board.vesicles],
    }


def frame(state, step=None, lang: str = "en") -> dict:
    """What the drawing shows of one state (after ``step``, or the start when ``step`` is None)."""
    return {**play_runtime.frame_of(state), "step": step.index if step else 0,
            "text": step_text(step.events, lang) if step else "", "spot": step.action.spot if step else None,
            "action": str(step.action) if step else None}


def board_data(puzzle, plan: list[dict], lang: str) -> dict:
    """The layout and one frame per state of ``plan`` (the start, then after each step), every
    state computed by the rules engine."""
    from solver import Action, initial_state, replay
    steps, _final = replay(puzzle, [Action.from_dict(a) for a in plan])
    frames = [frame(initial_state(puzzle), None, lang)] + [frame(s.state, s, lang) for s in steps]
    return {"lang": lang, "layout": layout(puzzle), "frames": frames, "ui": ui_strings(lang),
            "stock_names": STOCK_ORDER}


STOCK_ORDER = ("atp", "mrna", "protein", "carb", "lipid")
"""Order of the stock fields in the drawing (the Stock dataclass's own order)."""


def board_block(puzzle, plan: list[dict], lang: str, optimum: int | None = None) -> str:
    """The HTML the page carries: an empty container board.js fills, with its data as JSON.
    Empty when there is no plan to step through."""
    if not plan:
        return ""
    # A data attribute, not a <script>: the page sanitizer (generator/sanitize.py) keeps data-*
    # attributes and removes every inline script that is not a template's own.
    data = json.dumps(board_data(puzzle, plan, lang), ensure_ascii=False, separators=(",", ":"))
    ui = UI[lang]
    return (f'<div class="cellula-board" data-puzzle="{escape(puzzle.id)}" data-board="{escape(data, quote=True)}" '
            f'data-play="{play_runtime.pack(puzzle)}" data-optimum="{"" if optimum is None else optimum}" '
            f'data-values="{escape(values_json(puzzle))}" hidden>'
            f'<p class="cellula-board__hint">{escape(ui["keys_hint"])}</p></div>')


# --------------------------------------------------------------------------- regret values

FULL_TABLE_STATES = 10_000
"""Puzzles with at most this many reachable states carry the best reachable score of every one
(about 16 bytes a state in the page); larger ones are played without regret figures for now."""
VALUES_FORMAT = "regret-1"
VALUES_DIR = Path(__file__).resolve().parents[1] / ".cache" / "regret"


def values_json(puzzle) -> str:
    """The puzzle's table of best reachable scores as compact JSON ("" when too large), cached by
    the puzzle file, its board and card data and the solver's source (like the solutions)."""
    from solver.puzzle import PUZZLES_DIR, RULEBOOK_CARDS, board_path
    from . import solution_cache
    file = Path(puzzle.source) if puzzle.source else PUZZLES_DIR / f"{puzzle.id}.yaml"   # whole games live in games/
    key = solution_cache.cache_key(file, VALUES_FORMAT, (board_path(puzzle.board.id), RULEBOOK_CARDS))
    path = VALUES_DIR / f"{key}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))["values"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    table = play_runtime.best_values(puzzle, FULL_TABLE_STATES)
    text = "" if table is None else json.dumps(table, separators=(",", ":"), sort_keys=True)
    VALUES_DIR.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"values": text}), encoding="utf-8")
    tmp.replace(path)
    return text


# --------------------------------------------------------------------------- play assets

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_DIR = ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
"""Where ``make pyodide`` (npm ci in tools/pyodide) puts the Pyodide package."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files Pyodide's core needs (no extra packages: the engine needs only the standard library)."""
ENGINE_MODULES = ("solver/engine.py", "solver/model.py", "solver/editions.py", "solver/errors.py",
                  "solver/rules/free_ribosome.py", "solver/rules/macromolecule_cards.py",
                  "solver/rules/epigenetic.py", "solver/rules/virus.py")
"""The only solver modules the browser loads: the engine and what it imports."""


def engine_sources() -> dict[str, str]:
    """Path in Pyodide's file system -> source: the engine modules, empty package files (the real
    ``solver/__init__.py`` imports the solvers, yaml and jsonschema), and the play session."""
    sources = {"solver/__init__.py": "", "solver/rules/__init__.py": ""}
    for module in ENGINE_MODULES:
        sources[module] = (ROOT / module).read_text(encoding="utf-8")
    sources["cellula_play.py"] = (ROOT / "generator" / "play_runtime.py").read_text(encoding="utf-8")
    return sources


def write_play_assets(site_dir: Path) -> None:
    """Copy Pyodide and the engine sources into the built site (never committed). The sources go
    in a script (``assets/play-engine.js``) so they load from file:// too."""
    assets = Path(site_dir) / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    body = json.dumps(engine_sources(), ensure_ascii=False)
    (assets / "play-engine.js").write_text(f"window.CELLULA_ENGINE_SOURCES = {body};\n", encoding="utf-8")
    if PYODIDE_DIR.is_dir():
        target = assets / "pyodide"
        target.mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE_DIR / name, target / name)
