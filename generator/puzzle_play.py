"""Build-time data for the interactive puzzle board (issue #19, step 1).

The page's worked example is replayed through the rules engine here, at build time, and every
state along it is written into the page as JSON; ``docs/assets/board.js`` draws a schematic board
(SVG drawn by the project, no copied artwork) from it and turns the example into a step-through.
Without JavaScript the static step table stays the page's content.
"""
from __future__ import annotations

from collections.abc import Mapping

import base64
import functools
import gzip
import json
import os
import shutil
import sys
import time
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import i18n, play_runtime
from .render import Asset
from .site import GENERATED_DIR
from .step_texts import step_text

if TYPE_CHECKING:
    from solver.engine import Action, State
    from solver.model import Puzzle
    from solver.regret import LineValues
    from solver.solution import Step

UI = i18n.namespace("play")
"""This feature's interface strings: ``play.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def ui_strings(lang: str) -> dict[str, Any]:
    """The ``play.*`` strings of ``lang`` as plain nested dicts (board.js reads them from the page)."""
    def plain(strings: Mapping[str, Any]) -> dict[str, Any]:
        return {key: plain(value) if isinstance(value, Mapping) else value for key, value in strings.items()}
    return plain(UI[lang])


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


def frame(state: State, step: Step | None = None, lang: str = "en") -> dict[str, Any]:
    """What the drawing shows of one state (after ``step``, or the start when ``step`` is None)."""
    return {**play_runtime.frame_of(state), "step": step.index if step else 0,
            "text": step_text(step.events, lang) if step else "", "spot": step.action.spot if step else None,
            "action": str(step.action) if step else None}


def board_data(puzzle: Puzzle, plan: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """The layout and one frame per state of ``plan`` (the start, then after each step), every
    state computed by the rules engine."""
    from solver import Action, initial_state, replay
    steps, _final = replay(puzzle, [Action.from_dict(a) for a in plan])
    frames = [frame(initial_state(puzzle), None, lang)] + [frame(s.state, s, lang) for s in steps]
    return {"lang": lang, "layout": layout(puzzle), "frames": frames, "ui": ui_strings(lang),
            "stock_names": STOCK_ORDER}


STOCK_ORDER = ("atp", "mrna", "protein", "carb", "lipid")
"""Order of the stock fields in the drawing (the Stock dataclass's own order)."""


def offers_regret(optimum: int | None, proven: bool) -> bool:
    """Whether play mode measures moves against ``optimum``: only a proven one (a whole game's
    recorded best is not proven, so no regret is offered against it)."""
    return proven and optimum is not None


def play_data_path(puzzle: Puzzle) -> str:
    """Where :func:`play_data_asset` puts the puzzle's play data, under ``generated/``."""
    return f"play/{puzzle.id}.js"


def board_block(puzzle: Puzzle, plan: list[dict[str, Any]], lang: str, optimum: int | None = None, proven: bool = True) -> str:
    """The HTML the page carries: an empty container board.js fills, with the step-through's data
    as JSON and the address of the play data (:func:`play_data_asset`). Empty when there is no
    plan to step through. ``proven``: ``optimum`` is the proven optimum (:func:`offers_regret`)."""
    if not plan:
        return ""
    # A data attribute, not a <script>: the page sanitizer (generator/sanitize.py) keeps data-*
    # attributes and removes every inline script that is not a template's own.
    data = json.dumps(board_data(puzzle, plan, lang), ensure_ascii=False, separators=(",", ":"))
    ui = UI[lang]
    regret = offers_regret(optimum, proven)
    return (f'<div class="cellula-board" data-puzzle="{escape(puzzle.id)}" data-board="{escape(data, quote=True)}" '
            f'data-play="{escape(GENERATED_DIR + "/" + play_data_path(puzzle))}" '
            f'data-optimum="{optimum if regret else ""}" data-regret="{"1" if regret else ""}" hidden>'
            f'<p class="cellula-board__hint">{escape(ui["keys_hint"])}</p></div>')


PLAY_DATA_GLOBAL = "CELLULA_PLAY_DATA"
"""The object the play data scripts file each puzzle's data under, by puzzle id (board.js reads it)."""


def play_data_asset(puzzle: Puzzle, plan: list[dict[str, Any]], optimum: int | None = None,
                    proven: bool = True) -> Asset:
    """What play mode needs beyond the page, loaded only when a reader starts playing: the puzzle
    packed for the engine and the best reachable scores (:func:`values_json`; "" when no regret is
    offered). Kept out of the page, where the scores were two thirds of its bytes and delayed its
    first paint; a classic script rather than JSON, so that the offline build reads it from file://."""
    values = values_json(puzzle, plan, optimum) if offers_regret(optimum, proven) else ""
    body = json.dumps({"play": play_runtime.pack(puzzle), "values": values}, separators=(",", ":"))
    return Asset(play_data_path(puzzle), f"(window.{PLAY_DATA_GLOBAL} = window.{PLAY_DATA_GLOBAL} || {{}})"
                                         f"[{json.dumps(puzzle.id)}] = {body};\n")


# --------------------------------------------------------------------------- regret values

FULL_TABLE_STATES = 10_000
"""Puzzles with at most this many reachable states carry the best reachable score of every one
(about 16 bytes a state in the page); larger ones carry it along the optimal line and one move off
it (:func:`line_values_json`)."""
LINE_STATES = 20_000
"""State budget of the memoised search of one larger puzzle's off-line values (solver.regret);
past it a state's value is absent and the page says so. Deterministic, unlike a time limit."""
LINE_STATES_UNPLANNED = 100_000
"""The same for a puzzle the CP-SAT planner cannot model (the Virus expansion), where the search is
the only stage: measured, virus-influenza-2e needs 34,910 states (5.5 s of CPU) to value all 47
of its states one move off, virus-attack-card-1e 23,607 (3.6 s)."""
LINE_SECONDS = 20.0
"""Safety net on one puzzle's off-line search, CPU seconds (the state budget normally ends it first)."""
LINE_PLANNER_TIME: tuple[float, ...] | None = (2.0, 8.0, 24.0)
"""CP-SAT's deterministic time for each off-line state the search leaves (solver.regret's planner
stage, one worker: the same answer on every machine), in passes: 2 s proves most of them; the
states left get 8 s (measured on the 103 states 2 s left: 6 of 8 sampled ones proven, the gaps
of 1 to 2 Health Points closed), and the 14 that 8 s left get 24 s (measured: 13 proven, in 7 to
23 s each, 164 s in all)."""


def line_state_budget(puzzle: Puzzle) -> int:
    """:data:`LINE_STATES`, or :data:`LINE_STATES_UNPLANNED` when the planner cannot model ``puzzle``."""
    return LINE_STATES if plannable(puzzle) else LINE_STATES_UNPLANNED


@functools.lru_cache(maxsize=None)
def plannable(puzzle: Puzzle) -> bool:
    """Whether the CP-SAT planner can model ``puzzle`` (so solver.regret's planner stage runs):
    the model builder's own up-front refusal, asked without building a model; kept per puzzle, as
    the page, the index's order and the why facts all ask."""
    from solver.regret import planner_options
    try:
        from solver.planner import unsupported_reason
    except ImportError:     # no ortools: no planner stage either
        return False
    return unsupported_reason(puzzle, planner_options()) is None


def line_budgets(puzzle: Puzzle) -> str:
    """The budgets of ``puzzle``'s off-line values, as the caches of what is computed from them key them."""
    return f"{line_state_budget(puzzle)}:{LINE_SECONDS}:{LINE_PLANNER_TIME}"


VALUES_FORMAT = "regret-3"
VALUES_DIR = Path(__file__).resolve().parents[1] / ".cache" / "regret"


def values_path(puzzle: Puzzle, plan: list[dict[str, Any]] | None = None, optimum: int | None = None) -> Path:
    """Where :func:`values_json` caches ``puzzle``'s values for ``plan`` and ``optimum``."""
    from solver.puzzle import PUZZLES_DIR, RULEBOOK_CARDS, board_path
    from . import solution_cache
    file = Path(puzzle.source) if puzzle.source else PUZZLES_DIR / f"{puzzle.id}.yaml"   # whole games live in games/
    plan_text = json.dumps([plan, optimum], sort_keys=True)
    key = solution_cache.cache_key(file, f"{VALUES_FORMAT}:{FULL_TABLE_STATES}:{line_budgets(puzzle)}:{plan_text}",
                                   (board_path(puzzle.board.id), RULEBOOK_CARDS, Path(play_runtime.__file__)))
    return VALUES_DIR / f"{key}.json"


def carried_values_path(puzzle: Puzzle, plan: list[dict[str, Any]], optimum: int | None, proven: bool) -> Path | None:
    """Where the regret values :func:`play_data_asset` carries are cached; None when it carries
    none (no regret is offered: :func:`offers_regret`)."""
    return values_path(puzzle, plan, optimum) if offers_regret(optimum, proven) else None


def values_json(puzzle: Puzzle, plan: list[dict[str, Any]] | None = None, optimum: int | None = None) -> str:
    """The puzzle's best reachable scores as compact JSON: every state's when there are at most
    :data:`FULL_TABLE_STATES`, else the optimal ``plan``'s line and one move off it ("" without a
    plan or an optimum). Cached by the puzzle file, its board and card data, the play runtime,
    the plan, the budgets and the solver's source (like the solutions)."""
    path = values_path(puzzle, plan, optimum)
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))["values"]
    except (OSError, ValueError, KeyError, TypeError):
        cached = None
    if isinstance(cached, str):     # anything else is a damaged entry: computed again
        return cached
    start, cpu = time.perf_counter(), time.process_time()
    table = play_runtime.best_values(puzzle, FULL_TABLE_STATES)
    stats: dict[str, Any] = {}
    if table is not None:
        values = play_runtime.table_values(table)
        stats = {"kind": "table", "states": len(table)}
    elif plan and optimum is not None:
        values, stats = line_values_json(puzzle, plan, optimum)
    else:
        values = None
    text = "" if values is None else json.dumps(values, separators=(",", ":"), sort_keys=True)
    stats["seconds"] = round(time.perf_counter() - start, 3)
    stats["cpu_seconds"] = round(time.process_time() - cpu, 3)
    print(f"cellula: regret values of {puzzle.id}: {json.dumps(stats, sort_keys=True)}", file=sys.stderr, flush=True)
    VALUES_DIR.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"values": text, "stats": stats}), encoding="utf-8")
    tmp.replace(path)
    return text


_LINE_VALUES: dict[tuple[Puzzle, tuple[Action, ...], int, int, float, tuple[float, ...] | None], LineValues] = {}


def shared_line_values(puzzle: Puzzle, plan: list[Action], optimum: int) -> LineValues:
    """``solver.regret.line_values`` within this module's budgets, computed once a build for a
    puzzle, plan and optimum: the page's regret values and its "why it is optimal" facts
    (:mod:`generator.puzzle_why`, for a puzzle past that search's budget) read the same result."""
    from solver.regret import line_values
    budget = line_state_budget(puzzle)
    key = (puzzle, tuple(plan), optimum, budget, LINE_SECONDS, LINE_PLANNER_TIME)
    if key not in _LINE_VALUES:
        _LINE_VALUES[key] = line_values(puzzle, plan, optimum, max_states=budget, seconds=LINE_SECONDS,
                                        planner_time=LINE_PLANNER_TIME)
    return _LINE_VALUES[key]


def line_values_json(puzzle: Puzzle, plan: list[dict[str, Any]], optimum: int) -> tuple[play_runtime.Values, dict[str, Any]]:
    """The page's values of the ``line`` kind (solver.regret.line_values) and its figures: the
    line's state keys (index into ``moves``, the plan's labels), every proven value (None: proven
    dead end) and each off-line state's best continuation; unproven states are simply absent."""
    from solver import Action
    result = shared_line_values(puzzle, [Action.from_dict(a) for a in plan], optimum)
    line: dict[str, int] = {}
    for index, state in enumerate(result.line):
        line.setdefault(play_runtime.state_key(state), index)
    best: dict[str, int | None] = {key: optimum for key in line}
    continuation: dict[str, list[str]] = {}
    for value in result.off:
        key = play_runtime.state_key(value.state)
        if key in best:
            continue
        best[key] = value.best
        if value.continuation:
            continuation[key] = [str(a) for a in value.continuation]
    values: play_runtime.Values = {"kind": "line", "best": best, "line": line, "moves": [str(a) for a in result.plan],
              "continuation": continuation}
    stats = {"kind": "line", "line_states": len(result.line), "off_line": len(result.off) + len(result.unproven),
             "proven": len(result.off), "unproven": len(result.unproven), "searched_states": result.searched_states,
             "methods": result.methods}
    return values, stats


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
                         f"version? generator/puzzle_play.py turns it into a classic script")
    body = module_text.rstrip()[:-len(ASM_EXPORT)]
    if body.count("import.meta") != body.count("import.meta.url"):
        raise ValueError(f"{source}: uses import.meta other than import.meta.url, which "
                         f"generator/puzzle_play.py cannot replace in a classic script")
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
