"""The rules audit's discriminating puzzles (``data/audit/puzzles/<row-id>.yaml``): each is a tiny
puzzle whose optimum under its row's reading (``# Optimum derived by hand: N``) differs from the
optimum under the other reading (``# Under the other reading: M, because ...``). The engines must
reproduce N (the exhaustive search always, CP-SAT where it models the puzzle) and, where the other
reading is a named ruling the engine plays, M too; the page shows these hand figures without
solving, so these tests are what makes them true. Loading errors name the file and the field."""
from __future__ import annotations

import pytest

from generator.audit import (PUZZLES_FOLDER, load_audit, load_audit_puzzle, load_audit_puzzles,
                             puzzle_comment_figures)
from generator.errors import Problems
from generator.site import DATA_DIR
from solver import solve
from solver.game.model import Ruling
from solver.optimise.search import exhaustive

AUDIT_FILE = DATA_DIR / "audit" / "cytosis.yaml"
FOLDER = DATA_DIR / "audit" / PUZZLES_FOLDER
FILES = sorted(FOLDER.glob("*.yaml"))
MAX_STATES = 2_000
"""Each reading of each puzzle is searched to the end within this many states (a deterministic
measure of "tiny": the largest, receptor-bonuses, takes 551)."""


@pytest.fixture(scope="module")
def puzzles(audit, game):
    problems = Problems()
    found = load_audit_puzzles(FOLDER, audit, game, problems)
    assert not problems, "\n".join(str(p) for p in problems.items)
    return found


def test_every_file_loads_and_names_a_row(puzzles):
    assert sorted(puzzles) == sorted(f.stem for f in FILES)


def test_every_named_ruling_row_has_a_puzzle_playing_its_ruling(audit, puzzles):
    """The rows whose other reading the engine plays (a named ruling) all have a puzzle that states
    the ruling, and together they cover every named ruling."""
    stated = {p.ruling for p in puzzles.values() if p.ruling is not None}
    assert stated == set(Ruling), f"rulings with no discriminating puzzle: {sorted(r.value for r in set(Ruling) - stated)}"
    for item in puzzles.values():
        row = next(r for r in audit.rows if r.id == item.row)
        assert row.status.takes_puzzle


@pytest.mark.parametrize("file", FILES, ids=[f.stem for f in FILES])
def test_hand_optimum_is_reproduced_by_the_engines(puzzles, file):
    item = puzzles[file.stem]
    best, _, stats = exhaustive(item.puzzle, max_nodes=MAX_STATES)
    assert stats.complete, f"{file.name}: keep discriminating puzzles tiny (over {MAX_STATES} search states)"
    assert best == item.optimum, f"{file.name}: exhaustive search {best}, hand {item.optimum}"
    sol = solve(item.puzzle, confirm=())
    if sol.engine == "cpsat":
        assert sol.status == "optimal" and sol.health == item.optimum, (file.name, sol.status, sol.health)


@pytest.mark.parametrize("file", [f for f in FILES if "rulings:" in f.read_text(encoding="utf-8")],
                         ids=lambda f: f.stem)
def test_other_reading_optimum_is_reproduced_by_the_engines(puzzles, file):
    item = puzzles[file.stem]
    assert item.ruling is not None and item.other_reading is not None
    other = item.puzzle.with_reading(item.ruling, item.other_reading)
    best, _, stats = exhaustive(other, max_nodes=MAX_STATES)
    assert stats.complete, f"{file.name} under {item.other_reading}: over {MAX_STATES} search states"
    assert best == item.other_optimum, f"{file.name} under {item.other_reading}: exhaustive {best}, hand {item.other_optimum}"
    assert best != item.optimum
    sol = solve(other, confirm=())
    if sol.engine == "cpsat":
        assert sol.status == "optimal" and sol.health == item.other_optimum, (file.name, sol.status, sol.health)


# --- the loader's errors --------------------------------------------------------------------------

GOOD = (FOLDER / "grey-flask-then-exhaust.yaml")


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("# Optimum derived by hand: 2\n", ""), "'# Optimum derived by hand: N', found 0"),
    (lambda t: t.replace("# Under the other reading: 1,", "# Under the other reading is 1,"),
     "'# Under the other reading: M, because ...', found 0"),
    (lambda t: t.replace("# Under the other reading: 1,", "# Under the other reading: 2,"), "under both readings"),
    (lambda t: t.replace("# Rule:", "# The rule:"), "'# Rule: ...' quoting the rule"),
    (lambda t: t.replace("A player will then take their normal", "A player will then make their normal"),
     "quotes words found in no official text"),
    (lambda t: t.replace("expected: {health: 2}", "expected: {health: 3}"), "expected the hand optimum 2"),
    (lambda t: t.replace("rulings: {grey-then-exhaust: allowed}",
                         "rulings: {grey-then-exhaust: allowed, free-ribosome-zero: at-least-one}"),
     "expected one comment line \"# Row's ruling"),
    (lambda t: t.replace("flasks: 1\n", "flasks: 9\n", 1), "puzzle not loaded"),
])
def test_a_broken_puzzle_file_is_a_clear_error(audit, game, tmp_path, edit, message):
    file = tmp_path / GOOD.name
    file.write_text(edit(GOOD.read_text(encoding="utf-8")), encoding="utf-8")
    problems = Problems()
    assert load_audit_puzzle(file, audit, game, problems) is None
    assert len(problems.items) == 1 and message in str(problems.items[0]), [str(p) for p in problems.items]
    assert GOOD.name in str(problems.items[0])


@pytest.mark.parametrize("name, message", [("no-such-row", "names no row"),
                                           ("other-players-placements-given", "'outside'")])
def test_a_file_naming_no_row_or_an_outside_row_is_an_error(audit, game, tmp_path, name, message):
    file = tmp_path / f"{name}.yaml"
    file.write_text(GOOD.read_text(encoding="utf-8").replace("id: grey-flask-then-exhaust", f"id: {name}"),
                    encoding="utf-8")
    problems = Problems()
    assert load_audit_puzzle(file, audit, game, problems) is None
    assert message in str(problems.items[0]) and name in str(problems.items[0])


def test_a_row_saying_no_puzzle_can_exist_has_no_file(audit, game):
    from dataclasses import replace
    rows = tuple(replace(r, no_puzzle=r.explanation) if r.id == "grey-flask-then-exhaust" else r for r in audit.rows)
    problems = Problems()
    assert load_audit_puzzle(GOOD, replace(audit, rows=rows), game, problems) is None
    assert "no_puzzle" in str(problems.items[0]) and "grey-flask-then-exhaust" in str(problems.items[0])


def test_no_puzzle_is_refused_on_rows_that_take_none(game, tmp_path):
    text = AUDIT_FILE.read_text(encoding="utf-8").replace(
        "  - id: other-players-placements-given\n",
        "  - id: other-players-placements-given\n    no_puzzle: {it: perché, en: because}\n")
    file = tmp_path / "cytosis.yaml"
    file.write_text(text, encoding="utf-8")
    problems = Problems()
    load_audit(file, game, problems)
    assert any("takes no discriminating puzzle" in str(p) and "no_puzzle" in str(p) for p in problems.items), \
        [str(p) for p in problems.items]


def test_the_rows_saying_no_puzzle_can_exist_have_none(audit, puzzles):
    said = [r.id for r in audit.rows if r.no_puzzle is not None]
    assert said and not set(said) & set(puzzles)


def test_a_file_whose_id_is_not_its_name_is_an_error(audit, game, tmp_path):
    file = tmp_path / GOOD.name
    file.write_text(GOOD.read_text(encoding="utf-8").replace("id: grey-flask-then-exhaust", "id: other-id"),
                    encoding="utf-8")
    problems = Problems()
    assert load_audit_puzzle(file, audit, game, problems) is None
    assert "expected the file name" in str(problems.items[0])


def test_comment_figures_parse():
    text = '# Rule: x "a rule quoted at length"\n# Optimum derived by hand: 3\n# Under the other reading: 1, because y\n'
    assert puzzle_comment_figures(text) == (3, 1, "y")
