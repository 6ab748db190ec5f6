"""The puzzles feature's loader: every ``data/puzzles/*.yaml`` (then the whole games of
``games/``, replayed from their recorded runs) loaded with :func:`solver.load_puzzle` and solved
through :mod:`.solving`'s cache; every rule section a step links to must exist. Without solving
(``generator validate``), the same files are only loaded and checked."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Problems
from . import solving, warming
from .board import load_boards
from .model import GAME, PuzzleEntry, PuzzleSet

if TYPE_CHECKING:
    from solver.model import Puzzle

    from ..site import SiteData


def puzzle_sources(puzzles_dir: Path) -> list[tuple[Path, Path | None]]:
    """(puzzle file, recording) for every puzzle: those solved at build time, then the whole games
    of ``games/`` with the recorded run each must have beside it (``solver.offline``)."""
    from solver.offline import GAMES_DIR, result_path
    games = puzzles_dir / GAMES_DIR.name
    return ([(f, None) for f in sorted(puzzles_dir.glob("*.yaml"))]
            + [(f, result_path(f)) for f in sorted(games.glob("*.yaml"))])


def step_sections(record: dict[str, Any]) -> list[str]:
    """Every rule section id the record's optimal and greedy steps link to."""
    steps = record["solution"].get("steps", []) + record["greedy"].get("steps", [])
    return [s for step in steps for s in step.get("sections", [])]


def linkable_sections(puzzle: Puzzle) -> list[str]:
    """Every rule section id a step of any plan of ``puzzle`` may link to (no solving needed)."""
    from solver import action_sections, all_actions
    return list(dict.fromkeys(s for action in all_actions(puzzle) for s in action_sections(puzzle, action)))


def load(site: SiteData, problems: Problems) -> PuzzleSet | None:
    """Load and solve every puzzle (cached); None when the data set has no Cytosis puzzles.
    When ``site.solve_puzzles`` is False (``generator validate``), every puzzle and board side is
    loaded and checked (every rule section any of its actions may link to must exist) without
    solving, and the answer is None: no puzzle page is produced."""
    puzzles_dir = Path(site.data_dir) / "puzzles"
    if GAME not in site.games or not puzzles_dir.is_dir():
        return None
    from solver import PuzzleError, SolverError, load_puzzle
    game = site.games[GAME]
    entries = []
    sources = puzzle_sources(puzzles_dir)
    if getattr(site, "solve_puzzles", True):    # a cold build's solving, spread over the processors
        warming.warm([(file, recording) for file, recording in sources if recording is None or recording.is_file()])
    for file, recording in sources:
        if recording is not None and not recording.is_file():
            problems.add(file, "", f"a whole game needs its recorded run {recording.name} "
                                   f"(python -m solver record {file.as_posix()})")
            continue
        if not getattr(site, "solve_puzzles", True):
            try:
                puzzle = load_puzzle(file)
                sections = linkable_sections(puzzle)
                if recording is not None:       # replayed, not solved: cheap enough to validate
                    from solver.offline import load_recording
                    load_recording(recording, puzzle)
            except (PuzzleError, SolverError) as exc:
                problems.add(file, "", f"puzzle not loaded: {exc}")
                continue
            for section in sections:
                if section not in game.sections:
                    problems.add(file, "", f"a plan step may link rule section {section!r}, which {GAME} does not have")
            continue
        try:
            puzzle = load_puzzle(file)
            lookup = solving.solve_cached(puzzle, file, recording)
        except (PuzzleError, SolverError) as exc:
            problems.add(file, "", f"puzzle not loaded or not solved: {exc}")
            continue
        for section in dict.fromkeys(step_sections(lookup.record)):
            if section not in game.sections:
                problems.add(file, "", f"a plan step links rule section {section!r}, which {GAME} does not have")
        entries.append(PuzzleEntry(puzzle, file, lookup.record, lookup.hit, lookup.solution))
    if not getattr(site, "solve_puzzles", True):
        load_boards(puzzles_dir, problems)
        return None
    if not entries:
        return None
    return PuzzleSet(tuple(entries), load_boards(puzzles_dir, problems))
