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
        "from solver.errors import CellulaError, SolverError\n"
        "assert issubclass(SolverError, CellulaError)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_one_base_class_for_both_packages() -> None:
    from generator.errors import CellulaError as generator_base, DataError
    from solver.errors import CellulaError as solver_base, PuzzleError

    assert generator_base is solver_base
    assert issubclass(DataError, solver_base) and issubclass(PuzzleError, solver_base)
