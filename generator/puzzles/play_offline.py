"""Play mode from file:// (the offline build, ``mkdocs-offline.yml``): Pyodide as classic scripts.

From file:// Chromium refuses ES modules and fetch(), so the Pyodide core module becomes a classic
script (:func:`classic_asm_script`) and each file it would fetch a script holding it
(:func:`memory_file_script`), which board.js serves from memory. :mod:`.play_assets` calls
:func:`write_offline_pyodide` when :func:`is_offline_build`.
"""
from __future__ import annotations

import base64
import gzip
import json
import shutil
from pathlib import Path

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
                         f"version? generator/puzzles/play_offline.py turns it into a classic script")
    body = module_text.rstrip()[:-len(ASM_EXPORT)]
    if body.count("import.meta") != body.count("import.meta.url"):
        raise ValueError(f"{source}: uses import.meta other than import.meta.url, which "
                         f"generator/puzzles/play_offline.py cannot replace in a classic script")
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


def write_offline_pyodide(assets: Path, pyodide_dir: Path) -> list[str]:
    """Pyodide for the offline build, read from file:// with ``<script>`` tags only: the loader
    (already a classic script), the core module turned into one, and each file it fetches as a
    script for board.js to serve from memory. Returns the scripts board.js adds on the play
    click, relative to ``assets/``. ``pyodide_dir``: the Pyodide package
    (:data:`.play_assets.PYODIDE_DIR`)."""
    (assets / "pyodide").mkdir(exist_ok=True)
    shutil.copy2(pyodide_dir / "pyodide.js", assets / "pyodide" / "pyodide.js")
    target = assets / OFFLINE_DIR
    target.mkdir(exist_ok=True)
    module = pyodide_dir / ASM_MODULE
    scripts = {"pyodide.asm.js": classic_asm_script(module.read_text(encoding="utf-8"), str(module))}
    for name in MEMORY_FILES:
        scripts[f"{name}.js"] = memory_file_script(name, (pyodide_dir / name).read_bytes())
    for name, text in scripts.items():
        (target / name).write_text(text, encoding="utf-8")
    return [f"{OFFLINE_DIR}/{name}" for name in scripts]


HIGHS_OFFLINE_DIR = "highs-offline"
"""Folder of ``assets/`` holding HiGHS as classic scripts, in the offline build only."""
HIGHS_GLOBAL = "CELLULA_HIGHS_MODULE"


def classic_highs_script(text: str, source: str = "highs.js") -> str:
    """``highs.js`` (an Emscripten factory assigned to a global ``Module``) as a classic script
    setting ``window.CELLULA_HIGHS_MODULE`` instead, so that no global ``Module`` is left for
    another Emscripten build to read."""
    head = "var Module=("
    if not text.startswith(head):
        raise ValueError(f"{source}: expected it to start with {head!r}; a new highs version? "
                         f"generator/puzzles/play_offline.py turns it into a classic script")
    return f"(function () {{\nvar Module;\n{text}\nwindow.{HIGHS_GLOBAL} = Module;\n}})();\n"


def write_offline_highs(assets: Path, highs_dir: Path) -> list[str]:
    """HiGHS for the offline build, read from file:// with ``<script>`` tags only: its factory
    (:func:`classic_highs_script`) and its WebAssembly as base64 of its gzip, which the live solver
    (docs/assets/live-solve.js) hands to the factory. Returns the scripts, relative to ``assets/``.
    ``highs_dir``: the package's ``build`` folder (:data:`.play_assets.HIGHS_DIR`)."""
    target = assets / HIGHS_OFFLINE_DIR
    target.mkdir(exist_ok=True)
    (target / "highs.js").write_text(classic_highs_script((highs_dir / "highs.js").read_text(encoding="utf-8")),
                                     encoding="utf-8")
    packed = base64.b64encode(gzip.compress((highs_dir / "highs.wasm").read_bytes(), 6, mtime=0)).decode("ascii")
    (target / "highs.wasm.js").write_text('(window.CELLULA_HIGHS_FILES = window.CELLULA_HIGHS_FILES || {})'
                                          f'["highs.wasm"] = "{packed}";\n', encoding="utf-8")
    return [f"{HIGHS_OFFLINE_DIR}/highs.js", f"{HIGHS_OFFLINE_DIR}/highs.wasm.js"]
