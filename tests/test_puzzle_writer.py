"""The puzzle-file writer (solver/io/writer.py): its text reads back to the same data and the same
puzzle, on every shipped puzzle and on positions made from them (issue #70: the analysis board's
download is a file the CLI accepts)."""
from __future__ import annotations

import copy
import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.io.loading import load_yaml, parse_yaml
from solver.io.puzzle import load_puzzle, puzzle_files
from solver.io.writer import FIELD_ORDER, puzzle_text, scalar

ROOT = Path(__file__).resolve().parents[1]
FILES = puzzle_files()
RESOURCES = ("atp", "mrna", "protein", "carb", "lipid")


def _data(path: Path) -> dict[str, Any]:
    data, _ = load_yaml(path)
    return data


def _same_puzzle(a: Path, b: Path) -> bool:
    return dataclasses.replace(load_puzzle(a), source="") == dataclasses.replace(load_puzzle(b), source="")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_shipped_puzzle_round_trips(path: Path, tmp_path: Path) -> None:
    data = _data(path)
    text = puzzle_text(data)
    assert parse_yaml(text)[0] == data
    written = tmp_path / path.name
    written.write_text(text, encoding="utf-8")
    assert _same_puzzle(path, written)
    assert puzzle_text(parse_yaml(text)[0]) == text        # canonical: writing again changes nothing


def test_fields_in_schema_order() -> None:
    from solver.io.puzzle import PUZZLE_SCHEMA
    assert set(FIELD_ORDER) == set(PUZZLE_SCHEMA["properties"])


@given(st.one_of(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Co", "Cn")), max_size=30), st.from_regex(r"[a-z0-9_-]{1,8}", fullmatch=True),
                 st.sampled_from(["null", "yes", "no", "on", "off", "true", "1e5", "0x1f", "1_0e3", "2e", "12",
                                  "1e", "~", "", "a: b", "- x", "#x", "é"])))
def test_any_text_reads_back_as_itself(text: str) -> None:
    assert yaml.safe_load(f"k: {scalar(text)}") == {"k": text}
    assert yaml.safe_load(f"k: [{scalar(text)}]") == {"k": [text]}


@st.composite
def positions(draw: st.DrawFn) -> tuple[Path, dict[str, Any]]:
    """A shipped puzzle with another start: stock, Health, rounds, hand and row changed as a player
    of the analysis board would change them."""
    path = draw(st.sampled_from(FILES))
    data = copy.deepcopy(_data(path))
    data["start"] = {r: draw(st.integers(0, 12)) for r in RESOURCES if draw(st.booleans())}
    data["start"]["health"] = draw(st.integers(0, 60))
    data["rounds"] = draw(st.integers(max(1, len(data.get("events") or [])), 6))
    ids = [c["id"] for c in data["cards"]]
    placed = [c for c in data.get("hand", []) + [c for c in data.get("row", []) if c] + data.get("deck", [])]
    free = [c for c in ids if c not in placed]
    data["hand"] = sorted(set(data.get("hand", [])) | set(draw(st.lists(st.sampled_from(free), unique=True)) if free else []))
    return path, data


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(positions())
def test_changed_position_round_trips(tmp_path: Path, case: tuple[Path, dict[str, Any]]) -> None:
    path, data = case
    text = puzzle_text(data)
    assert parse_yaml(text)[0] == data
    written = tmp_path / path.name
    written.write_text(text, encoding="utf-8")
    try:
        load_puzzle(written)
    except Exception as exc:      # a changed position may break a rule (too few rounds for its occupied spots)
        assert type(exc).__name__ == "PuzzleError", exc


@pytest.mark.parametrize("name", ["market-day-2e", "rule-free-ribosome-must-2e"])
def test_written_file_solves_with_the_cli(name: str, tmp_path: Path) -> None:
    """The written text through ``python -m solver solve``: the recorded optimum."""
    source = ROOT / "data" / "puzzles" / f"{name}.yaml"
    written = tmp_path / f"{name}.yaml"
    written.write_text(puzzle_text(_data(source)), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "solver", "solve", str(written), "--no-confirm"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    expected = _data(source)["expected"]["health"]
    assert f"Final score: {expected}\n" in out.stdout
