"""Play mode's engine in the built site (issue #19): Pyodide and the Python sources the browser runs.

What the browser runs is the package :mod:`solver.game` (standard library only, checked on the
package by ``tests/test_layering.py``), every ``.py`` file of it, so a new module or rule group
cannot be left out; with it :mod:`.move_words` (a move in the reader's words) and the play session
:mod:`.play_runtime`, as the top-level module ``cellula_play``. Nothing stands in for another
module: no ``solver/__init__.py`` or ``generator/__init__.py`` is shipped, so in Pyodide ``solver``,
``generator`` and ``generator.puzzles`` are namespace packages (PEP 420) and importing
``solver.game`` or ``generator.puzzles.move_words`` loads nothing else.

The offline build (``mkdocs-offline.yml``, read from file://) gets Pyodide as classic scripts
instead of the plain copy (:mod:`.play_offline`). Neither is ever committed.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from .play_offline import is_offline_build, write_offline_pyodide

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the folder holding ``solver/`` and ``generator/``)."""
PYODIDE_DIR = ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
"""Where ``make pyodide`` (npm ci in tools/pyodide) puts the Pyodide package."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files Pyodide's core needs (no extra packages: the engine needs only the standard library)."""
GAME_PACKAGE = ROOT / "solver" / "game"
"""The package the browser runs, whole (:mod:`solver.game`)."""
PLAY_MODULES = {"generator/puzzles/move_words.py": "generator/puzzles/move_words.py",
                "cellula_play.py": "generator/puzzles/play_runtime.py"}
"""Path in Pyodide's file system -> the module of this package it holds: the words of a move, and
the play session board.js imports as ``cellula_play``."""


def engine_modules() -> list[str]:
    """Every module of :mod:`solver.game`, as paths from the repository (``solver/game/...``)."""
    return sorted(p.relative_to(ROOT).as_posix() for p in GAME_PACKAGE.rglob("*.py"))


def engine_sources() -> dict[str, str]:
    """Path in Pyodide's file system -> source: every module of :mod:`solver.game` at its own
    path, and :data:`PLAY_MODULES`."""
    sources = {path: (ROOT / path).read_text(encoding="utf-8") for path in engine_modules()}
    for path, module in PLAY_MODULES.items():
        sources[path] = (ROOT / module).read_text(encoding="utf-8")
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
        script += f"window.CELLULA_PYODIDE_BUNDLE = {json.dumps(write_offline_pyodide(assets, PYODIDE_DIR))};\n"
    elif PYODIDE_DIR.is_dir():
        target = assets / "pyodide"
        target.mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE_DIR / name, target / name)
    (assets / "play-engine.js").write_text(script, encoding="utf-8")
