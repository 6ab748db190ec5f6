"""A cold build's per-puzzle computing in several processes (generator/puzzle_pages/warming.py):
the records are those the serial build computes, the pages then find all of them, and it stands
aside when there is nothing to gain or it cannot fork safely."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from generator import puzzle_play
from generator.puzzle_pages import solving, warming
from generator.puzzle_pages.model import PuzzleSource
from solver import load_puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = [ROOT / "data" / "puzzles" / f"{name}.yaml"
           for name in ("rulebook-protein-hormone-1e", "rulebook-protein-hormone-2e", "rule-row-refresh-2e")]
SOURCES = [PuzzleSource(load_puzzle(file), file, None) for file in PUZZLES]


@pytest.fixture
def caches(tmp_path: Path, monkeypatch) -> Path:
    """Empty solution, why and regret caches under ``tmp_path`` (a cold build)."""
    monkeypatch.setattr(solving, "CACHE_DIR", tmp_path / "solutions")
    monkeypatch.setattr(puzzle_play, "VALUES_DIR", tmp_path / "regret")
    return tmp_path


def records(folder: Path) -> dict[str, dict]:
    """Every cached record under ``folder``, by path."""
    return {file.relative_to(folder).as_posix(): json.loads(file.read_text(encoding="utf-8"))
            for file in sorted(folder.rglob("*.json"))}


def without_timings(data):
    """``data`` with every timing field dropped (wall and CPU seconds differ from run to run)."""
    if isinstance(data, dict):
        return {k: without_timings(v) for k, v in data.items()
                if k not in ("seconds", "wall", "wall_time") and not k.endswith("_seconds")}
    if isinstance(data, list):
        return [without_timings(v) for v in data]
    return data


def test_cold_puzzles_are_computed_in_processes_and_then_all_found(caches):
    done = warming.warm(SOURCES, workers=2)
    assert (done.missing, done.processes, done.failed) == (3, 2, 0)
    assert not any(warming.is_missing(source) for source in SOURCES)
    assert len(list((caches / "solutions").glob("*.json"))) == 3
    assert len(list((caches / "solutions" / "why").glob("*.json"))) == 3
    assert len(list((caches / "regret").glob("*.json"))) == 3


def test_the_processes_compute_what_the_serial_build_computes(caches, monkeypatch, tmp_path):
    warming.warm(SOURCES, workers=2)
    parallel = records(caches)
    serial_dir = tmp_path / "serial"
    monkeypatch.setattr(solving, "CACHE_DIR", serial_dir / "solutions")
    monkeypatch.setattr(puzzle_play, "VALUES_DIR", serial_dir / "regret")
    for source in SOURCES:
        warming.compute_puzzle(source.file, source.recording)      # in this process, one after the other
    assert without_timings(records(serial_dir)) == without_timings(parallel)


def test_nothing_is_done_when_every_record_is_on_disk(caches):
    warming.warm(SOURCES, workers=2)
    again = warming.warm(SOURCES, workers=2)
    assert (again.missing, again.processes) == (0, 0)


def test_one_processor_leaves_the_computing_to_the_serial_build(caches):
    done = warming.warm(SOURCES, workers=1)
    assert (done.missing, done.processes) == (3, 0)
    assert all(warming.is_missing(source) for source in SOURCES)


def test_no_fork_while_other_threads_run(caches):
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not warming.can_fork()
        done = warming.warm(SOURCES, workers=2)
    finally:
        stop.set()
        other.join()
    assert (done.missing, done.processes) == (3, 0)


def test_a_puzzle_that_fails_is_left_to_the_serial_build(caches, tmp_path):
    """A whole game whose recorded run is damaged loads, but its computing raises."""
    game = ROOT / "data" / "puzzles" / "games" / "whole-game-2e.yaml"
    damaged = tmp_path / "whole-game-2e.result.json"
    damaged.write_text("{}", encoding="utf-8")
    broken = PuzzleSource(load_puzzle(game), game, damaged)
    done = warming.warm(SOURCES[:1] + [broken], workers=2)
    assert (done.missing, done.processes, done.failed) == (2, 2, 1)
    assert not warming.is_missing(SOURCES[0])


def test_larger_puzzles_are_larger_jobs():
    small = max(warming.size(source) for source in SOURCES)
    large = ROOT / "data" / "puzzles" / "deck-season-1e.yaml"
    assert warming.size(PuzzleSource(load_puzzle(large), large, None)) > small
