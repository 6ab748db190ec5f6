"""The in-process memos of the data load (``generator.check.checks`` ``run_checks`` and
``matchers_for``, ``generator.puzzles.loading.linkable_sections``): keyed by content, so that equal
inputs share an answer wherever they were loaded from, and any change of an input misses."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

import pytest

from generator.check import checks
from generator.check.checks import content_key, matchers_for, run_checks
from generator.check.model import SectionPair
from generator.glossary import Term
from generator.puzzles import loading

ROOT = Path(__file__).resolve().parent.parent

TERM = Term("ribosome", ("cytosis",), {"it": ("ribosoma",), "en": ("ribosome",)}, {}, {}, True)
PAIR = SectionPair("cytosis", "s1", "## Titolo\nIl ribosoma produce 2 proteine.", "## Title\nThe ribosome makes 3 proteins.")


class Colour(Enum):
    RED = "red"


@dataclass(frozen=True)
class Box:
    value: object


@pytest.mark.parametrize("a, b", [
    ({"x": {1, 2, 3}}, {"x": {3, 2, 1}}),           # sets: their order of insertion is no part of the key
    (Box((1, "a")), Box((1, "a"))),
    (Colour.RED, Colour("red")),
])
def test_equal_values_share_a_key(a, b):
    assert content_key(a) == content_key(b)


@pytest.mark.parametrize("a, b", [
    ("a", "b"), (1, True), (1, 1.5), ({"x": 1}, {"y": 1}), ({"x": 1, "y": 2}, {"y": 2, "x": 1}),
    ([1, 2], [2, 1]), (Box(1), Box(2)), (None, ""), ((1,), (1, None)),
    (TERM, replace(TERM, forms={"it": ("ribosomi",), "en": ("ribosome",)})),
    (TERM, replace(TERM, official=False)),
    (PAIR, replace(PAIR, en=PAIR.en + " ")),
    (PAIR, replace(PAIR, chapter="other")),
])
def test_any_difference_changes_the_key(a, b):
    assert content_key(a) != content_key(b)


def test_an_unknown_type_is_refused_not_guessed():
    with pytest.raises(TypeError, match="object"):
        content_key(object())


def test_run_checks_answers_equal_inputs_once_and_changed_inputs_anew(monkeypatch):
    glossary = [TERM]
    first = run_checks([PAIR], glossary, "cytosis")
    assert any(f.evidence for f in first)                # the numbers differ: a real finding
    calls = []
    monkeypatch.setattr(checks, "_run_checks", lambda *args: calls.append(args) or [])
    again = run_checks([replace(PAIR)], [replace(TERM)], "cytosis")    # equal copies: answered from the memo
    assert again == first and again is not first and not calls
    changed = replace(PAIR, it=PAIR.it.replace("2", "3"))
    assert run_checks([changed], glossary, "cytosis") == [] and len(calls) == 1   # a changed text is checked again


def test_equal_glossaries_share_their_matchers():
    assert matchers_for([TERM], "cytosis") is matchers_for([replace(TERM)], "cytosis")
    assert matchers_for([TERM], "cytosis") is not matchers_for([replace(TERM, official=False)], "cytosis")


def test_linkable_sections_are_shared_by_equal_puzzles_from_other_files(tmp_path, monkeypatch):
    from solver import load_puzzle
    original = ROOT / "data" / "puzzles" / "grey-rush-2e.yaml"
    copy = tmp_path / original.name
    copy.write_bytes(original.read_bytes())
    sections = loading.linkable_sections(load_puzzle(original))
    assert sections
    import solver
    monkeypatch.setattr(solver, "all_actions", lambda puzzle: pytest.fail("enumerated again"))
    assert loading.linkable_sections(load_puzzle(copy)) == sections
    changed = replace(load_puzzle(copy), rounds=load_puzzle(copy).rounds + 1)
    with pytest.raises(pytest.fail.Exception, match="enumerated again"):
        loading.linkable_sections(changed)


def test_a_puzzle_file_loads_once_and_each_copy_keeps_its_own_path(tmp_path, monkeypatch):
    import solver
    from solver.io.loading import display_path
    original = ROOT / "data" / "puzzles" / "grey-rush-2e.yaml"
    first = loading.load_puzzle_once(original)
    assert first == solver.load_puzzle(original)
    copy = tmp_path / original.name
    copy.write_bytes(original.read_bytes())
    monkeypatch.setattr(solver, "load_puzzle", lambda file: pytest.fail(f"loaded again: {file}"))
    again = loading.load_puzzle_once(copy)
    assert again == replace(first, source=display_path(copy)) and again.source != first.source


@pytest.mark.parametrize("change", ["bytes", "name", "symlink"])
def test_a_changed_puzzle_file_is_loaded_anew(tmp_path, change):
    from solver import PuzzleError
    original = ROOT / "data" / "puzzles" / "grey-rush-2e.yaml"
    loading.load_puzzle_once(original)
    if change == "bytes":
        copy = tmp_path / original.name
        copy.write_text(original.read_text(encoding="utf-8").replace("rounds:", "rounds: 0\nx_rounds:", 1),
                        encoding="utf-8")
    elif change == "name":           # the id must match the file's name
        copy = tmp_path / "other-name.yaml"
        copy.write_bytes(original.read_bytes())
    else:                            # a symlink loop: load_puzzle's own error, not the memo's bytes
        copy = tmp_path / original.name
        copy.symlink_to(copy)
    with pytest.raises(PuzzleError) as error:
        loading.load_puzzle_once(copy)
    assert copy.name in str(error.value)
