"""The packages' layering (issue #14): the solver never imports the generator, and the generator
uses only the solver's public names (no ``_private`` ones), so the solver can change inside freely."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLVER_FILES = sorted((ROOT / "solver").rglob("*.py"))
GENERATOR_FILES = sorted((ROOT / "generator").rglob("*.py"))


def _imports(file: Path) -> list[tuple[int, str, list[str]]]:
    """Every import in ``file``: (line, module, names imported from it)."""
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("file", SOLVER_FILES, ids=lambda f: str(f.relative_to(ROOT)))
def test_solver_never_imports_the_generator(file: Path) -> None:
    bad = [f"{file.relative_to(ROOT)}:{line}: imports {module}"
           for line, module, _ in _imports(file) if module.split(".")[0] == "generator"]
    assert not bad, bad


def test_generator_uses_only_public_solver_names() -> None:
    bad = []
    for file in GENERATOR_FILES:
        for line, module, names in _imports(file):
            if module.split(".")[0] != "solver":
                continue
            private = [n for n in names if n.startswith("_")]
            private_module = [part for part in module.split(".")[1:] if part.startswith("_") and part != "__init__"]
            if private or private_module:
                bad.append(f"{file.relative_to(ROOT)}:{line}: from {module} import {', '.join(names)}")
    assert not bad, "\n".join(bad)


def test_solver_imports_and_runs_without_the_generator(tmp_path: Path) -> None:
    """Every solver module imports with the generator package made unimportable."""
    modules = sorted({".".join(f.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                      for f in SOLVER_FILES if f.name != "__main__.py"})
    script = (
        "import sys, importlib\n"
        "sys.modules['generator'] = None  # any 'import generator...' now raises ImportError\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "from solver.game.errors import CellulaError, SolverError\n"
        "assert issubclass(SolverError, CellulaError)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_one_base_class_for_both_packages() -> None:
    from generator.errors import CellulaError as generator_base, DataError
    from solver.game.errors import CellulaError as solver_base, PuzzleError

    assert generator_base is solver_base
    assert issubclass(DataError, solver_base) and issubclass(PuzzleError, solver_base)


def _module_graph(package: str, types: bool = False) -> dict[str, dict[str, int]]:
    """Module -> {module it imports: line}, inside ``package``; imports inside functions count (a
    lazy import is still a circle), ``if TYPE_CHECKING:`` ones only with ``types`` (they never run,
    but a module that names another's types for its own is tied to it all the same), and
    ``from . import sibling`` is an edge to the sibling, not to the package's ``__init__``."""
    files = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, dict[str, int]] = {name: {} for name in files}
    for name, path in files.items():
        base = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def visit(node: ast.AST, name: str = name, base: str = base) -> None:
            for child in ast.iter_child_nodes(node):
                if (not types and isinstance(child, ast.If) and isinstance(child.test, ast.Name)
                        and child.test.id == "TYPE_CHECKING"):
                    continue
                targets: list[str] = []
                if isinstance(child, ast.ImportFrom):
                    parts = base.split(".")[:len(base.split(".")) - max(0, child.level - 1)] if child.level else []
                    module = ".".join(parts + ([child.module] if child.module else []))
                    subs = [f"{module}.{a.name}" for a in child.names if f"{module}.{a.name}" in files]
                    targets = subs or [module]
                elif isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                for target in targets:
                    if target in files and target != name:
                        graph[name].setdefault(target, child.lineno)
                visit(child)
        visit(ast.parse(path.read_text(encoding="utf-8")))
    return graph


def _circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


@pytest.mark.parametrize("package", ["solver", "generator"])
def test_no_import_circle(package: str) -> None:
    """Issue #34: no circle of imports, lazy ones included (a function-level import that closes a
    circle only hides it); shared constants live in leaf modules such as ``generator.paths``."""
    graph = _module_graph(package)
    circles = _circles(graph)
    assert not circles, "\n".join(
        " -> ".join(circle) + ": " + "; ".join(f"{a} imports {b} (line {graph[a][b]})"
                                             for a in circle for b in graph[a] if b in circle)
        for circle in circles)


@pytest.mark.parametrize("package", ["solver", "solver/game", "generator", "generator/check"])
def test_no_import_circle_even_through_types(package: str) -> None:
    """Issue #68: no circle even through ``if TYPE_CHECKING:`` imports: a module that names another
    module's types while that one imports it is one unit cut in two (``generator/check/checks.py``
    and ``qa.py`` were, ten generator modules through ``SiteData`` and the rules engine with the
    planner, until this round)."""
    graph = _module_graph(package, types=True)
    circles = _circles(graph)
    assert not circles, "\n".join(
        " -> ".join(circle) + ": " + "; ".join(f"{a} imports {b} (line {graph[a][b]})"
                                             for a in circle for b in graph[a] if b in circle)
        for circle in circles)


def test_circle_finder_finds_a_lazy_circle(tmp_path: Path) -> None:
    graph = {"p.a": {"p.b": 3}, "p.b": {"p.a": 9}, "p.c": {"p.a": 1}}
    assert _circles(graph) == [["p.a", "p.b"]]


# --------------------------------------------------------------------------- the benchmarks (issue #34)

BENCHMARKS = "solver.benchmarks"
BENCH_COMMAND = ("solver/cli.py", "_cmd_bench")
"""The one function outside the package that imports it: the command line's ``bench``, when it runs."""


def _benchmark_imports(file: Path, root: Path = ROOT) -> list[tuple[int, str | None]]:
    """Every import of ``solver.benchmarks`` (or of a module in it) in ``file``, relative ones
    resolved: (line, the function it is in, None at module level). ``if TYPE_CHECKING:`` blocks are
    left out (they never run)."""
    package = file.relative_to(root).with_suffix("").parts[:-1]    # a module's package, or __init__'s own
    found: list[tuple[int, str | None]] = []

    def targets(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        if isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            return [module] + [f"{module}.{alias.name}" for alias in node.names]
        return []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                continue
            if any(t == BENCHMARKS or t.startswith(BENCHMARKS + ".") for t in targets(child)):
                found.append((child.lineno, function))
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            visit(child, inner)
    visit(ast.parse(file.read_text(encoding="utf-8"), str(file)), None)
    return found


OUTSIDE_BENCHMARKS = [f for f in SOLVER_FILES + GENERATOR_FILES + sorted((ROOT / "tools").rglob("*.py"))
                      if (ROOT / "solver" / "benchmarks") not in f.parents]


def test_only_the_bench_command_imports_the_benchmarks() -> None:
    """Issue #34: the benchmarks are outside the runtime's import path. No module outside
    ``solver/benchmarks/`` imports them when it is imported, and in the packages only the
    command line's ``bench`` function imports them at all (tools may, inside a function)."""
    bad = []
    for file in OUTSIDE_BENCHMARKS:
        name = str(file.relative_to(ROOT))
        for line, function in _benchmark_imports(file):
            allowed = function is not None and (name.startswith("tools/") or (name, function) == BENCH_COMMAND)
            if not allowed:
                bad.append(f"{name}:{line}: imports {BENCHMARKS}" + (f" in {function}()" if function else " at module level"))
    assert not bad, "\n".join(bad)
    assert (1, None) not in _benchmark_imports(ROOT / BENCH_COMMAND[0])
    assert [f for _, f in _benchmark_imports(ROOT / BENCH_COMMAND[0])] == [BENCH_COMMAND[1]]


@pytest.mark.parametrize("source, expected", [
    ("from solver.benchmarks import scale\n", [(1, None)]),
    ("import solver.benchmarks.cli\n", [(1, None)]),
    ("from .benchmarks.cli import main\n", [(1, None)]),                     # relative, from solver/x.py
    ("from . import benchmarks\n", [(1, None)]),
    ("def f():\n    from .benchmarks import deck\n", [(2, "f")]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .benchmarks import deck\n", []),
    ("from .bench import x\nfrom solver import benchmarking\n", []),
])
def test_benchmark_imports_are_found(tmp_path: Path, source: str, expected: list[tuple[int, str | None]]) -> None:
    (tmp_path / "solver").mkdir()
    file = tmp_path / "solver" / "x.py"
    file.write_text(source, encoding="utf-8")
    assert _benchmark_imports(file, root=tmp_path) == expected


def test_the_runtime_does_not_load_the_benchmarks() -> None:
    """Importing the runtime and building the command line's parser (what every command does) loads
    no benchmark module."""
    script = (
        "import sys\n"
        "import solver, solver.cli, solver.solution, solver.optimise.planner, solver.optimise.search, solver.optimise.warm_start, solver.io.offline\n"
        "solver.cli.build_parser().parse_args(['bench', '--deck'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('solver.benchmarks')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "[]", (done.stdout, done.stderr[-2000:])


# --------------------------------------------------------------------------- the game package (issue #34)

GAME = "solver.game"
GAME_FILES = sorted((ROOT / "solver" / "game").rglob("*.py"))
ENCODING_LINEAR = "solver.encoding.linear"
"""What a rule group's ``encode_*`` function (its encoding, kept beside the rule) may import
inside the function: the solver-neutral linear model. Never at module level, so the browser never
loads it."""


def _module_name(file: Path, root: Path = ROOT) -> str:
    parts = file.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _game_imports(file: Path, root: Path = ROOT) -> list[tuple[int, str, str | None]]:
    """Every import of ``file`` that runs (``if TYPE_CHECKING:`` blocks left out), relative ones
    resolved: (line, module, the function it is in or None at module level). For ``from X import
    y`` the module is ``X.y`` when that is a module of the project, else ``X``."""
    name = _module_name(file, root)
    package = name if file.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                visit(ast.Module(body=child.orelse, type_ignores=[]), function)
                continue
            if isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    anchor = package.split(".")
                    base = ".".join(anchor[:len(anchor) - child.level + 1] + ([child.module] if child.module else []))
                else:
                    base = child.module or ""
                for alias in child.names:
                    sub = root.joinpath(*f"{base}.{alias.name}".split("."))
                    is_module = sub.with_suffix(".py").is_file() or (sub / "__init__.py").is_file()
                    found.append((child.lineno, f"{base}.{alias.name}" if is_module else base, function))
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            visit(child, inner)
    visit(ast.parse(file.read_text(encoding="utf-8"), str(file)), None)
    return found


def _in_game_or_stdlib(module: str) -> bool:
    return module == GAME or module.startswith(GAME + ".") or module.split(".")[0] in sys.stdlib_module_names


@pytest.mark.parametrize("file", GAME_FILES, ids=lambda f: str(f.relative_to(ROOT)))
def test_the_game_imports_only_the_standard_library_and_itself(file: Path) -> None:
    """Issue #34: ``solver/game/`` is what the browser runs (every ``.py`` under it goes to Pyodide,
    ``generator/puzzles/play_assets.py``), so the "standard library only" rule is the package's. A
    module-level import (outside ``if TYPE_CHECKING:``) must be the standard library
    (``sys.stdlib_module_names``) or ``solver.game`` itself. One exception, inside a function only:
    a rule group's ``encode_*`` function (its CP-SAT encoding, kept beside the rule as the project
    requires) may import the solver-neutral linear model, ``solver.encoding.linear``; the browser
    never calls an encoding."""
    bad = [f"{file.relative_to(ROOT)}:{line}: imports {module}" + (f" in {function}()" if function else " at module level")
           for line, module, function in _game_imports(file)
           if not _in_game_or_stdlib(module)
           and not (function is not None and module == ENCODING_LINEAR)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("source, expected", [
    ("import json\nfrom . import engine\n", []),
    ("import yaml\n", ["yaml"]),
    ("from solver.io import loading\n", ["solver.io.loading"]),
    ("from ..encoding.linear import total\n", ["solver.encoding.linear"]),
    ("def encode_x():\n    from solver.encoding.linear import total\n", []),              # the one exception
    ("def encode_x():\n    from solver.optimise.planner import Act\n", ["solver.optimise.planner"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from solver.encoding.acts import Act\n", []),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n    import yaml\n", ["yaml"]),
])
def test_the_game_import_check_finds_what_it_should(tmp_path: Path, source: str, expected: list[str]) -> None:
    for module in ("game", "io", "optimise", "encoding"):
        (tmp_path / "solver" / module).mkdir(parents=True)
    (tmp_path / "solver" / "io" / "loading.py").write_text("", encoding="utf-8")
    (tmp_path / "solver" / "game" / "engine.py").write_text("", encoding="utf-8")
    file = tmp_path / "solver" / "game" / "x.py"
    file.write_text(source, encoding="utf-8")
    refused = [module for _, module, function in _game_imports(file, root=tmp_path)
               if not _in_game_or_stdlib(module) and not (function is not None and module == ENCODING_LINEAR)]
    assert refused == expected


def test_the_game_runs_with_nothing_but_the_standard_library(tmp_path: Path) -> None:
    """The browser's view, in CPython: ``solver/game/`` alone (no ``solver/__init__.py``, which
    loads the optimisers, yaml and jsonschema: ``solver`` is then a namespace package, as in
    Pyodide), imported under a finder that refuses every module neither standard library nor
    ``solver.game``, and a small puzzle (handed over pickled, as the page hands it) played through
    it: its best value searched, the best line played, replayed into steps and told in words."""
    import base64
    import pickle
    import shutil

    from solver import load_puzzle, solve
    shutil.copytree(ROOT / "solver" / "game", tmp_path / "solver" / "game",
                    ignore=shutil.ignore_patterns("__pycache__"))
    puzzle = load_puzzle(ROOT / "data" / "puzzles" / "rulebook-protein-hormone-2e.yaml")
    (tmp_path / "puzzle.txt").write_text(base64.b64encode(pickle.dumps(puzzle)).decode("ascii"), encoding="utf-8")
    optimum = solve(puzzle, "exhaustive").health
    script = f'''
import base64, pickle, sys
from importlib.abc import MetaPathFinder

class Refuse(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in sys.stdlib_module_names or name in ("solver", "solver.game") \\
                or name.startswith("solver.game."):
            return None
        raise ImportError(f"the game imported {{name}}: neither the standard library nor solver.game")

sys.meta_path.insert(0, Refuse())
sys.path[:0] = ["."]
from solver.game import engine
from solver.game.replay import replay
from solver.game.steps import render
from solver.game.values import ValueSearch

puzzle = pickle.loads(base64.b64decode(open("puzzle.txt").read()))
start = engine.initial_state(puzzle)
search = ValueSearch(200_000)
best = search.value(start)
plan = list(search.continuation(start))
steps, final = replay(puzzle, plan)
assert engine.is_terminal(final) and engine.returns(final) == best == {optimum!r}, (best, engine.returns(final))
texts = [render(step.events, lambda key, **values: key + repr(sorted(values))) for step in steps]
assert len(texts) == len(plan) and all(texts)
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "solver")
assert "solver.game.engine" in loaded and all(m == "solver" or m.startswith("solver.game") for m in loaded), loaded
print("ok", best, len(plan))
'''
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr[-3000:]
