"""The records' code fingerprint (generator/proofs/fingerprint.py): what does not change an answer
leaves it alone, what changes what the engine, the models or the searches compute changes it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.proofs.fingerprint import closure, code_fingerprint, normalised_tree

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A copy of the two packages, edited by each test's own copy of it."""
    copy = tmp_path_factory.mktemp("pristine")
    for package in ("solver", "generator"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    return copy


@pytest.fixture(scope="module")
def before(pristine) -> str:
    """The copy's fingerprint before any edit: each test's tree is a fresh copy of ``pristine``, so
    it is computed once (:func:`test_the_copy_has_the_projects_fingerprint`: the project's own)."""
    return code_fingerprint(root=pristine).digest


@pytest.fixture
def tree(pristine, tmp_path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(pristine, copy)
    return copy


def edit(root: Path, module: str, old: str, new: str) -> None:
    path = root / module
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {module}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_copy_has_the_projects_fingerprint(tree, before):
    assert code_fingerprint(root=tree).digest == code_fingerprint().digest == before


@pytest.mark.parametrize("module, old, new", [
    # a comment, anywhere
    ("solver/game/engine.py", "\ndef apply(", "\n# why: a comment changes no answer\ndef apply("),
    # a docstring changed
    ("solver/optimise/search.py", '"""', '"""Reworded. '),
    # a constant's docstring (the string under it) reworded
    ("generator/proofs/why.py", 'MAX_STATES = 30_000\n"""', 'MAX_STATES = 30_000\n"""Reworded. '),
    # a function's docstring removed altogether
    ("generator/proofs/why.py", '    """The puzzle with one more of each starting resource', '    """'),
    # layout: blank lines and a line broken differently
    ("solver/optimise/regret.py", "\n\n\n", "\n\n\n\n"),
    # the benchmark and the command line are not in the closure
    ("solver/benchmarks/scale.py", "\n\n", "\n\nBENCH_SETTING_NOBODY_READS = 12345\n\n"),
    ("solver/benchmarks/bounds.py", "\n\n", "\n\nBOUND_SETTING_NOBODY_READS = 1\n\n"),
    ("solver/cli.py", "\n\n", "\n\nCLI_SETTING_NOBODY_READS = 1\n\n"),
    # nor are the pages that put the answers into words
    ("generator/puzzles/why.py", "MAX_GRADE = 5", "MAX_GRADE = 6"),
])
def test_what_changes_no_answer_changes_no_fingerprint(tree, before, module, old, new):
    edit(tree, module, old, new)
    assert code_fingerprint(root=tree).digest == before


@pytest.mark.parametrize("module, old, new", [
    # a new function in the engine (code the answers may come to depend on)
    ("solver/game/engine.py", "def apply(", "def _new_rule_helper():\n    return 1\n\n\ndef apply("),
    # a budget of the why facts (a module constant: no version string to bump)
    ("generator/proofs/why.py", "MAX_STATES = 30_000", "MAX_STATES = 30_001"),
    # a budget of the regret values
    ("generator/proofs/regret.py", "LINE_STATES = 20_000", "LINE_STATES = 20_001"),
    # an operator in the search
    ("solver/optimise/search.py", " + ", " - "),
    # a parameter renamed (callers may pass it by keyword: not a local)
    ("generator/proofs/solution.py", "def greedy_record(puzzle: Puzzle)", "def greedy_record(the_puzzle: Puzzle)"),
])
def test_what_changes_what_is_computed_changes_the_fingerprint(tree, before, module, old, new):
    edit(tree, module, old, new)
    assert code_fingerprint(root=tree).digest != before


def test_a_local_renamed_changes_nothing(tree, before):
    """Every use of a local of greedy_record renamed (a pure rename, the kind a reviewer asks for)."""
    import re
    path = tree / "generator" / "proofs" / "solution.py"
    text = path.read_text(encoding="utf-8")
    start = text.index("def greedy_record(")
    end = text.index("\ndef ", start + 1)
    body = re.sub(r'(?<!")\bcomplete\b(?!")', "finished", text[start:end])
    body = re.sub(r'(?<!")\bbreakdown\b(?!")', "totals", body)
    assert body != text[start:end]
    path.write_text(text[:start] + body + text[end:], encoding="utf-8")
    assert code_fingerprint(root=tree).digest == before


def test_a_rules_effect_changed_by_one_line_changes_it(tree, before):
    """A one-line change to a rule's effect: the Free Ribosome gives one Protein more per mRNA."""
    edit(tree, "solver/game/rules/free_ribosome.py", "Stock(protein=amount)", "Stock(protein=amount + 1)")
    assert code_fingerprint(root=tree).digest != before


def test_the_closure_is_the_computing_code_only():
    modules = set(closure())
    assert {"solver.game.engine", "solver.optimise.planner", "solver.optimise.search", "solver.optimise.regret", "solver.optimise.explain",
            "solver.game.rules.virus", "generator.proofs.compute", "generator.proofs.why", "generator.puzzles.play_runtime"} <= modules
    assert not any(m == "solver.benchmarks" or m.startswith("solver.benchmarks.") for m in modules)
    assert not modules & {"solver.cli", "solver.__main__", "generator.puzzles.why",
                          "generator.puzzles.play_data", "generator.puzzles.play_assets", "generator.puzzles.feature",
                          "generator.puzzles.pages", "generator.proofs.cli", "generator.proofs.store",
                          "generator.proofs.record", "generator.build"}


def test_imports_under_type_checking_are_not_followed():
    tree = normalised_tree("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import solver.benchmarks\n")
    assert "TYPE_CHECKING" in tree      # the guard itself is code; what it guards never runs


@pytest.mark.parametrize("a, b", [
    ("def f(x):\n    y = x + 1\n    return y\n", "def f(x):\n    z = x + 1  # renamed\n    return z\n"),
    ("def f(x):\n    try:\n        pass\n    except E as e:\n        return e\n",
     "def f(x):\n    try:\n        pass\n    except E as err:\n        return err\n"),
    ("def f():\n    '''Doc.'''\n    return [v for v in range(3)]\n", "def f():\n    return [w for w in range(3)]\n"),
])
def test_normalisation_equal(a, b):
    assert normalised_tree(a) == normalised_tree(b)


@pytest.mark.parametrize("a, b", [
    ("def f(x):\n    return x + 1\n", "def f(x):\n    return x + 2\n"),
    ("X = 1\ndef f():\n    return X\n", "X = 1\ndef f():\n    X = 2\n    return X\n"),
    ("def f():\n    global G\n    G = 1\n", "def f():\n    global H\n    H = 1\n"),
])
def test_normalisation_different(a, b):
    assert normalised_tree(a) != normalised_tree(b)
