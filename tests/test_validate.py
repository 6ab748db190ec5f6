"""``python -m generator validate`` loads and checks every data file without solving a puzzle:
puzzles and board sides are loaded (the solver's loader and schema), and every rule section any
action of a puzzle may link to must exist; records are the build's (generator/proofs)."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.puzzles import feature as puzzle_pages
from generator.proofs import compute, store
from generator.puzzles import loading
from generator.__main__ import main
from generator.errors import Problems
from generator.paths import DATA_DIR
from generator.site import load_site
from generator.puzzles.model import PUZZLES


def _forbid_solving(monkeypatch) -> None:
    import solver
    import solver.solution

    def refuse(*args, **kwargs):
        raise AssertionError("a puzzle was solved during validation")
    for module, name in ((solver, "solve"), (solver.solution, "solve"), (compute, "compute_solution"), (store, "read_records")):
        monkeypatch.setattr(module, name, refuse)


@pytest.fixture(scope="module")
def checked_site():
    return load_site(DATA_DIR, solve_puzzles=False)


def test_validate_passes_on_the_shipped_data_without_solving(monkeypatch, capsys):
    _forbid_solving(monkeypatch)
    assert main(["validate"]) == 0
    assert "data valid" in capsys.readouterr().out


def test_the_checking_loader_sees_every_puzzle_and_yields_no_puzzle_set(checked_site, monkeypatch):
    _forbid_solving(monkeypatch)
    assert checked_site.get(PUZZLES) is None
    seen = []
    real = loading.linkable_sections
    monkeypatch.setattr(loading, "linkable_sections", lambda p: seen.append(p.id) or real(p))
    problems = Problems()
    assert puzzle_pages.load(checked_site, problems) is None
    assert not problems
    puzzles = DATA_DIR / "puzzles"
    assert sorted(seen) == sorted([p.stem for p in puzzles.glob("*.yaml")] + [p.stem for p in (puzzles / "games").glob("*.yaml")])


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "puzzles"
    shutil.copytree(DATA_DIR / "puzzles", folder)
    return tmp_path


def test_a_bad_puzzle_is_reported_without_solving(checked_site, data_copy, monkeypatch):
    _forbid_solving(monkeypatch)
    bad = data_copy / "puzzles" / "rulebook-protein-hormone-2e.yaml"
    bad.write_text(bad.read_text(encoding="utf-8").replace("edition: 2e", "edition: 9e"), encoding="utf-8")
    problems = Problems()
    puzzle_pages.load(replace(checked_site, data_dir=data_copy), problems)
    assert [p for p in problems.items if "rulebook-protein-hormone-2e.yaml" in str(p)]


def test_a_missing_rule_section_is_reported_without_solving(checked_site, data_copy, monkeypatch):
    _forbid_solving(monkeypatch)
    game = checked_site.games[puzzle_pages.GAME]
    assert "spots.nucleus" in game.sections
    without = replace(game, sections={k: v for k, v in game.sections.items() if k != "spots.nucleus"})
    site = replace(checked_site, data_dir=data_copy, games={**checked_site.games, puzzle_pages.GAME: without})
    problems = Problems()
    puzzle_pages.load(site, problems)
    assert any("spots.nucleus" in str(p) for p in problems.items)
