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

import ast
import json
import shutil
from pathlib import Path

from .play_offline import is_offline_build, write_offline_highs, write_offline_pyodide

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the folder holding ``solver/`` and ``generator/``)."""
PYODIDE_DIR = ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
"""Where ``make pyodide`` (npm ci in tools/pyodide) puts the Pyodide package."""
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files Pyodide's core needs (no extra packages: the engine needs only the standard library)."""
GAME_PACKAGE = ROOT / "solver" / "game"
"""The package the browser runs, whole (:mod:`solver.game`)."""
PLAY_MODULES = {"generator/puzzles/move_words.py": "generator/puzzles/move_words.py",
                "cellula_play.py": "generator/puzzles/play_runtime.py"}
"""Path in Pyodide's file system -> the module of this package it holds: the words of a move, and
the play session board.js imports as ``cellula_play``."""
HIGHS_DIR = ROOT / "tools" / "highs" / "node_modules" / "highs" / "build"
"""Where ``make highs`` (npm ci in tools/highs) puts HiGHS compiled to WebAssembly (issue #70)."""
HIGHS_FILES = ("highs.mjs", "highs.wasm")
"""The files of the live solver's HiGHS (the module its worker imports, and its WebAssembly)."""
LIVE_START = "generator.puzzles.live_solve"
"""The live solver's module (:mod:`.live_solve`), run in the browser as ``cellula_live``."""
LIVE_STOP = ("generator", "generator.puzzles", "generator.puzzles.play_data", "solver", "solver.game", "solver.io")
"""Where the walk of the live solver's imports (:func:`live_modules`) stops: the packages' own
``__init__`` (none is shipped: they are namespace packages in Pyodide, as for play), the engine
(shipped whole by :func:`engine_sources`), the puzzle reader (shipped with its packages, below),
and the build-time fallback for words. What the walk reaches is shipped even where only a
function the browser never calls imports it (the planner's CP-SAT runs): each imports OR-Tools
only inside those functions (``tests/test_live_solve.py`` imports them all with site-packages off)."""


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


READER_MODULES = ("solver/io/__init__.py", "solver/io/loading.py", "solver/io/puzzle.py")
"""The puzzle reader of ``python -m solver validate``, for a puzzle pasted into the page."""
READER_DATA = ("data/boards/2p.yaml", "data/boards/3-5p.yaml", "data/puzzles/cards/rulebook.yaml")
"""The data files the reader reads besides the puzzle (the board sides, the rulebook's cards)."""
WHEELS_DIR = ROOT / "tools" / "pywheels" / "wheels"
"""Where the Makefile's ``$(PYWHEELS)`` rule puts the pure-Python packages the reader needs
(PyYAML, jsonschema and its dependencies; ``tools/pywheels/requirements.txt``)."""
VOCABULARY = "cellula_vocabulary.json"
"""The words a pasted puzzle's moves are told in, by language (:func:`.play_data.vocabulary`)."""


def wheel_sources(wheels: Path = WHEELS_DIR) -> dict[str, str]:
    """Path -> text of every Python module (and jsonschema's meta-schemas and vocabularies) of the wheels
    in ``wheels``; their compiled accelerators are left out (each package falls back to its own
    pure-Python code). Raises when the wheels are missing: ``make`` downloads them."""
    import zipfile
    files = sorted(wheels.glob("*.whl"))
    if not files:
        raise FileNotFoundError(f"{wheels}: no wheels; run make (the $(PYWHEELS) rule downloads them)")
    out: dict[str, str] = {}
    for wheel in files:
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                data_file = name.startswith("jsonschema/schemas/") and not name.endswith("/")
                if (name.endswith(".py") or data_file) and ".dist-info/" not in name:
                    out[name] = archive.read(name).decode("utf-8")
    return out


def runtime_imports(name: str, tree: ast.Module, is_package: bool) -> set[str]:
    """The modules module ``name`` (its syntax ``tree``) imports when it runs, anywhere in it (in a
    function too), as absolute names: for ``from X import y`` both ``X`` and ``X.y`` (``y`` may be a
    submodule). Imports under ``if TYPE_CHECKING:`` never run and are left out."""
    package = name if is_package else name.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, (ast.Name, ast.Attribute)) \
                and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            skipped.update(id(inner) for inner in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom):
            anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)] if node.level else []
            base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def live_modules() -> dict[str, str]:
    """Path in Pyodide's file system -> module: every project module the live solver imports, at
    run time, at any depth (lazily too), up to :data:`LIVE_STOP`, so that a module the planner's
    model gains cannot be left out; the live solver itself as ``cellula_live.py``."""
    found: dict[str, str] = {}
    pending, seen = [LIVE_START], set()
    while pending:
        name = pending.pop()
        if name in seen or name in LIVE_STOP or name.startswith(("solver.game.", "solver.io.")):
            continue
        seen.add(name)
        path = _module_path(name)
        if path is None:
            continue
        rel = path.relative_to(ROOT).as_posix()
        found[rel] = rel
        pending.extend(runtime_imports(name, ast.parse(path.read_text(encoding="utf-8"), rel),
                                       path.name == "__init__.py"))
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    found["cellula_live.py"] = found.pop("generator/puzzles/live_solve.py")
    return found


def _module_path(name: str) -> Path | None:
    """The source file of project module ``name`` (a package's ``__init__.py``), or None."""
    if name.split(".")[0] not in ("solver", "generator"):
        return None
    base = ROOT.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else None


def live_sources() -> dict[str, str]:
    """Path in Pyodide's file system -> text: :func:`live_modules`, the puzzle reader with its data
    files and packages (:data:`READER_MODULES`, :data:`READER_DATA`, :func:`wheel_sources`, when the
    wheels are there), and the words of each language (:data:`VOCABULARY`)."""
    from generator.languages import SITE_LANGUAGES
    from .play_data import vocabulary
    sources = {path: (ROOT / module).read_text(encoding="utf-8") for path, module in live_modules().items()}
    if WHEELS_DIR.is_dir():
        sources.update(wheel_sources())
        sources.update({path: (ROOT / path).read_text(encoding="utf-8") for path in READER_MODULES + READER_DATA})
    sources[VOCABULARY] = json.dumps({lang: vocabulary(lang) for lang in SITE_LANGUAGES}, ensure_ascii=False)
    return sources


def write_live_assets(assets: Path, offline: bool) -> None:
    """The live solver's files (issue #70): its Python sources in ``assets/live-engine.js`` (a
    script, so they load from file:// too) and HiGHS in ``assets/highs/``; the offline build
    gets HiGHS as classic scripts (:func:`.play_offline.write_offline_highs`)."""
    script = f"window.CELLULA_LIVE_SOURCES = {json.dumps(live_sources(), ensure_ascii=False)};\n"
    if HIGHS_DIR.is_dir() and offline:
        script += f"window.CELLULA_HIGHS_BUNDLE = {json.dumps(write_offline_highs(assets, HIGHS_DIR))};\n"
    elif HIGHS_DIR.is_dir():
        target = assets / "highs"
        target.mkdir(exist_ok=True)
        for name in HIGHS_FILES:
            shutil.copy2(HIGHS_DIR / name, target / name)
    (assets / "live-engine.js").write_text(script, encoding="utf-8")


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
    write_live_assets(assets, is_offline_build(site_dir))
