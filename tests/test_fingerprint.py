"""The records' keys (generator/proofs/keys.py, generator/proofs/fingerprint.py), both directions:
an edit that changes no answer (a comment, a reworded message, a renamed function, an unused
function, in the engine, the planner or the searches) leaves every key alone; a change of what is
computed (a rule's effect, a budget, an operator in a search) moves the keys of exactly the
puzzles it can change."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.proofs.fingerprint import normalised_tree
from generator.proofs.keys import CODE_PARTS, code_keys

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ("rule-free-ribosome-must-2e", "rule-row-refresh-2e", "rule-epigenetic-income-1e")
"""Small puzzles whose behaviour and model digests the tests take in a copy of the code: the first
plays the Free Ribosome, the last (1st edition, no Free Ribosome in reach) does not."""
DIGESTS = """
import json, sys
from solver import load_puzzle
from solver.game.engine import Action
from generator.proofs.keys import behaviour_digest, model_digest
out = {}
for name in sys.argv[1:]:
    puzzle = load_puzzle(f"data/puzzles/{name}.yaml")
    record = json.load(open(f"data/puzzles/{name}.record.json"))
    plan = [Action.from_dict(a) for a in record["solution"]["solution"]["plan"]]
    out[name] = [behaviour_digest(puzzle, plan), model_digest(puzzle)]
assert not any(m.startswith("generator.puzzles") for m in sys.modules), "page code reached by the keys"
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A copy of the code (and the data, read by the puzzles), edited by each test's own copy."""
    copy = tmp_path_factory.mktemp("pristine")
    for package in ("solver", "generator", "data"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    return copy


def digests(root: Path) -> dict[str, list[str]]:
    """Behaviour and model digests of :data:`PUZZLES` computed by the code under ``root``."""
    done = subprocess.run([sys.executable, "-c", DIGESTS, *PUZZLES], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def before(pristine) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The copy's keys before any edit (the project's own: :func:`test_the_copy_has_the_projects_keys`)."""
    return code_keys(root=pristine), digests(pristine)


@pytest.fixture
def tree(pristine, tmp_path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(pristine, copy)
    return copy


def edit(root: Path, module: str, old: str, new: str, every: bool = False) -> None:
    path = root / module
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {module}"
    path.write_text(text.replace(old, new) if every else text.replace(old, new, 1), encoding="utf-8")


def test_the_copy_has_the_projects_keys(before):
    assert before[0] == code_keys()


UNCHANGED = {
    "a comment in the engine": [("solver/game/engine.py", "\ndef apply(", "\n# why: a comment changes no answer\ndef apply(")],
    "a comment in the planner": [("solver/optimise/model/build.py", "\ndef build_model(", "\n# a comment\ndef build_model(")],
    "a docstring reworded in a search": [("solver/optimise/regret.py", '"""', '"""Reworded. ')],
    "a budget's docstring reworded": [("generator/proofs/why.py", 'MAX_STATES = 30_000\n"""', 'MAX_STATES = 30_000\n"""Reworded. ')],
    "a message reworded in the value search": [("solver/game/values.py", '"memo inconsistent: no move keeps the value"',
                                                '"the memo is inconsistent: no move keeps its value"')],
    "a message reworded in the engine": [("solver/game/engine.py", "needs a card (which card the action is for)",
                                          "needs to be told which card the action is for")],
    "a function renamed in the value search": [("solver/game/values.py", "_toxicity_ahead", "_toxicity_to_come", True)],
    "a function renamed in the engine": [("solver/game/engine.py", "_remove_one", "_without_one", True)],
    "a function renamed in the why facts": [("generator/proofs/why.py", "_probes", "_probed_puzzles", True)],
    "an unused function in the engine and the planner": [
        ("solver/game/engine.py", "\ndef apply(", "\ndef unused_helper(state):\n    return state.round + 1\n\n\ndef apply("),
        ("solver/optimise/model/build.py", "\ndef build_model(", "\ndef unused_helper(x):\n    return x * 2\n\n\ndef build_model(")],
    "an unused function in a search": [("solver/optimise/explain.py", "\ndef line_facts(",
                                        "\ndef unused_helper(x):\n    return x - 1\n\n\ndef line_facts(")],
    "an annotation changed": [("generator/proofs/why.py", "def probe_limits(puzzle: Puzzle, searchable: bool)",
                               "def probe_limits(puzzle: Puzzle, searchable: bool | int)")],
    "the page code, the command lines, the benchmark": [
        ("generator/puzzles/why.py", "MAX_GRADE = 5", "MAX_GRADE = 6"),
        ("generator/puzzles/play_runtime.py", "\nclass Session:", "\nPAGE_SETTING = 1\n\n\nclass Session:"),
        ("solver/cli.py", "\n\n", "\n\nCLI_SETTING_NOBODY_READS = 1\n\n"),
        ("solver/benchmarks/scale.py", "\n\n", "\n\nBENCH_SETTING_NOBODY_READS = 12345\n\n")],
}


@pytest.mark.parametrize("what", list(UNCHANGED))
def test_what_changes_no_answer_changes_no_key(tree, before, what):
    for change in UNCHANGED[what]:
        edit(tree, *change)
    assert code_keys(root=tree) == before[0]
    if any(m.startswith("solver/") for m, *_ in UNCHANGED[what]):
        assert digests(tree) == before[1]


@pytest.mark.parametrize("module, old, new, parts", [
    ("generator/proofs/why.py", "MAX_STATES = 30_000", "MAX_STATES = 30_001", {"why"}),
    ("generator/proofs/regret.py", "LINE_STATES = 20_000", "LINE_STATES = 20_001", {"regret", "why"}),
    ("solver/optimise/search.py", " + ", " - ", {"solution"}),
    ("solver/optimise/explain.py", "return LineFacts(plans, tuple(only)", "return LineFacts(plans + 1, tuple(only)", {"why"}),
])
def test_what_changes_a_search_changes_the_keys_of_its_parts(tree, before, module, old, new, parts):
    edit(tree, module, old, new)
    after = code_keys(root=tree)
    assert {part for part in CODE_PARTS if after[part] != before[0][part]} == parts


def test_a_rules_effect_changed_by_one_line_moves_the_puzzles_it_reaches_only(tree, before):
    """A one-line change to a rule's effect: the Free Ribosome gives one Protein more per mRNA."""
    edit(tree, "solver/game/rules/free_ribosome.py", "Stock(protein=amount)", "Stock(protein=amount + 1)")
    after = digests(tree)
    assert code_keys(root=tree) == before[0]
    moved = {name for name in PUZZLES if after[name][0] != before[1][name][0]}
    assert moved == {"rule-free-ribosome-must-2e"}
    assert all(after[name][1] == before[1][name][1] for name in PUZZLES)     # the planner's model: its own code


def test_a_model_change_moves_the_model_digest_only(tree, before):
    edit(tree, "solver/optimise/model/scoring.py", "    lm.maximize(", "    lm.bool('one more variable')\n    lm.maximize(")
    after = digests(tree)
    assert all(after[name][1] != before[1][name][1] for name in PUZZLES)
    assert all(after[name][0] == before[1][name][0] for name in PUZZLES)


def test_the_narrow_modules_leave_the_page_out():
    modules = {m for ms, _ in CODE_PARTS.values() for m in ms}
    assert not any(m.startswith("generator.puzzles") for m in modules)
    assert "solver.game.engine" not in modules and "solver.optimise.planner" not in modules


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
