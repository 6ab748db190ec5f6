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
from .model import GAME, PuzzleSet, PuzzleSource

if TYPE_CHECKING:
    from solver.model import Puzzle

    from ..rules import Game
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


def load_sources(puzzles_dir: Path, problems: Problems) -> list[PuzzleSource]:
    """Every puzzle file of :func:`puzzle_sources` loaded and checked; what does not load (or a
    whole game without its recorded run) is reported to ``problems`` with its file, and left out."""
    from solver import SolverError, load_puzzle
    loaded = []
    for file, recording in puzzle_sources(puzzles_dir):
        if recording is not None and not recording.is_file():
            problems.add(file, "", f"a whole game needs its recorded run {recording.name} "
                                   f"(python -m solver record {file.as_posix()})")
            continue
        try:
            loaded.append(PuzzleSource(load_puzzle(file), file, recording))
        except SolverError as exc:      # PuzzleError among them
            problems.add(file, "", f"puzzle not loaded: {exc}")
    return loaded


def check_linkable(sources: list[PuzzleSource], game: Game, problems: Problems) -> None:
    """Without solving (``generator validate``): every rule section any action of a puzzle may
    link to exists, and every whole game's recorded run replays."""
    from solver import PuzzleError, SolverError
    from solver.offline import load_recording
    for source in sources:
        try:
            sections = linkable_sections(source.puzzle)
            if source.recording is not None:       # replayed, not solved: cheap enough to validate
                load_recording(source.recording, source.puzzle)
        except (PuzzleError, SolverError) as exc:
            problems.add(source.file, "", f"puzzle not loaded: {exc}")
            continue
        for section in sections:
            if section not in game.sections:
                problems.add(source.file, "", f"a plan step may link rule section {section!r}, which {GAME} does not have")


def load(site: SiteData, problems: Problems) -> PuzzleSet | None:
    """Load and solve every puzzle (cached); None when the data set has no Cytosis puzzles.
    Each file is loaded once; a cold build then computes the missing records in several processes
    (:mod:`.warming`), and each puzzle is solved, from the cache when it can be.
    When ``site.solve_puzzles`` is False (``generator validate``), every puzzle and board side is
    loaded and checked (every rule section any of its actions may link to must exist) without
    solving, and the answer is None: no puzzle page is produced."""
    puzzles_dir = Path(site.data_dir) / "puzzles"
    if GAME not in site.games or not puzzles_dir.is_dir():
        return None
    from solver import PuzzleError, SolverError
    game = site.games[GAME]
    sources = load_sources(puzzles_dir, problems)
    if not getattr(site, "solve_puzzles", True):
        check_linkable(sources, game, problems)
        load_boards(puzzles_dir, problems)
        return None
    warming.warm(sources)       # a cold build's solving, spread over the processors
    entries = []
    for source in sources:
        try:
            entry = solving.solved_entry(source)
        except (PuzzleError, SolverError) as exc:
            problems.add(source.file, "", f"puzzle not solved: {exc}")
            continue
        for section in dict.fromkeys(step_sections(entry.record)):
            if section not in game.sections:
                problems.add(source.file, "", f"a plan step links rule section {section!r}, which {GAME} does not have")
        entries.append(entry)
    if not entries:
        return None
    return PuzzleSet(tuple(entries), load_boards(puzzles_dir, problems))
