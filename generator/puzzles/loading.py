"""The puzzles feature's loader: every ``data/puzzles/*.yaml`` (then the whole games of
``games/``, replayed from their recorded runs) loaded with :func:`solver.load_puzzle`, with its
committed record read and checked (:mod:`generator.proofs.store`: never proved here, except a new
puzzle's missing record); every rule section a step links to must exist. Without records
(``generator validate``), the same files are only loaded and checked."""
from __future__ import annotations

from dataclasses import replace
import hashlib
import os
from pathlib import Path
import stat
from typing import TYPE_CHECKING, Any

from ..errors import Problems
from ..proofs.why import Difficulty
from .board import load_boards
from .model import GAME, PuzzleEntry, PuzzleSet, PuzzleSource

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.solution import Solution

    from ..rules import Game
    from ..site_data import SiteData


def puzzle_sources(puzzles_dir: Path) -> list[tuple[Path, Path | None]]:
    """(puzzle file, recording) for every puzzle: those solved at build time, then the whole games
    of ``games/`` with the recorded run each must have beside it (``solver.io.offline``)."""
    from solver.io.offline import GAMES_DIR, result_path
    games = puzzles_dir / GAMES_DIR.name
    return ([(f, None) for f in sorted(puzzles_dir.glob("*.yaml"))]
            + [(f, result_path(f)) for f in sorted(games.glob("*.yaml"))])


def step_sections(record: dict[str, Any]) -> list[str]:
    """Every rule section id the record's optimal and greedy steps link to."""
    steps = record["solution"].get("steps", []) + record["greedy"].get("steps", [])
    return [s for step in steps for s in step.get("sections", [])]


_LINKABLE: dict[Puzzle, tuple[str, ...]] = {}
""":func:`linkable_sections` by puzzle, its file name (``source``, which no rule reads) left out: a
frozen value, so equal puzzles loaded from equal files anywhere share the answer, and a process that
loads the same puzzles again (the bad-input corpus's children, forked after one load of the real
data) does not enumerate their actions again."""
LINKABLE_KEPT = 1000


def linkable_sections(puzzle: Puzzle) -> list[str]:
    """Every rule section id a step of any plan of ``puzzle`` may link to (no solving needed)."""
    from solver import action_sections, all_actions
    key = replace(puzzle, source="")
    known = _LINKABLE.get(key)
    if known is None:
        if len(_LINKABLE) >= LINKABLE_KEPT:
            _LINKABLE.clear()
        known = _LINKABLE[key] = tuple(dict.fromkeys(
            s for action in all_actions(puzzle) for s in action_sections(puzzle, action)))
    return list(known)


_PUZZLES: dict[tuple[str, str, str], Puzzle] = {}
"""Puzzles loaded in this process, by :func:`load_puzzle_once`'s key."""
PUZZLES_KEPT = 1000


def _fixed_inputs() -> str:
    """A digest of the other files :func:`solver.load_puzzle` reads: the board sides and the
    rulebook's cards, which it takes from the repository whatever folder the puzzle is in."""
    from solver.io.puzzle import BOARDS_DIR, RULEBOOK_CARDS
    digest = hashlib.sha256()
    for file in [*sorted(BOARDS_DIR.glob("*.yaml")), RULEBOOK_CARDS]:
        digest.update(f"{file}\0".encode())
        digest.update(file.read_bytes() if file.is_file() else b"\0missing")
    return digest.hexdigest()


def load_puzzle_once(file: Path) -> Puzzle:
    """:func:`solver.load_puzzle` of ``file``, answered from memory when a file of the same name and
    bytes (with the same board sides and rulebook cards) was loaded before in this process: a pure
    function of those, apart from the file's shown path, which the answer carries (``source``) as
    ``load_puzzle`` gives it. A file that is not a regular one within the size limit, and any file
    that does not load, goes to ``load_puzzle`` every time (its errors name this file)."""
    from solver import load_puzzle
    from solver.io.loading import MAX_BYTES, display_path
    try:
        info = os.stat(file)
        raw = file.read_bytes() if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_BYTES else None
    except OSError:
        raw = None
    if raw is None:
        return load_puzzle(file)
    key = (file.name, hashlib.sha256(raw).hexdigest(), _fixed_inputs())
    known = _PUZZLES.get(key)
    if known is None:
        if len(_PUZZLES) >= PUZZLES_KEPT:
            _PUZZLES.clear()
        known = _PUZZLES[key] = load_puzzle(file)
        return known
    return replace(known, source=display_path(file))


def load_sources(puzzles_dir: Path, problems: Problems) -> list[PuzzleSource]:
    """Every puzzle file of :func:`puzzle_sources` loaded and checked; what does not load (or a
    whole game without its recorded run) is reported to ``problems`` with its file, and left out."""
    from solver import SolverError
    loaded = []
    for file, recording in puzzle_sources(puzzles_dir):
        if recording is not None and not recording.is_file():
            problems.add(file, "", f"a whole game needs its recorded run {recording.name} "
                                   f"(python -m solver record {file.as_posix()})")
            continue
        try:
            loaded.append(PuzzleSource(load_puzzle_once(file), file, recording))
        except SolverError as exc:      # PuzzleError among them
            problems.add(file, "", f"puzzle not loaded: {exc}")
    return loaded


def check_linkable(sources: list[PuzzleSource], game: Game, problems: Problems) -> None:
    """Without solving (``generator validate``): every rule section any action of a puzzle may
    link to exists, and every whole game's recorded run replays."""
    from solver import PuzzleError, SolverError
    from solver.io.offline import load_recording
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
    """Load every puzzle with its committed record; None when the data set has no Cytosis puzzles.
    Each file is loaded once; every record is checked against today's data and code and replayed
    (:func:`generator.proofs.store.read_records`); a new puzzle's missing record is computed.
    When ``site.solve_puzzles`` is False (``generator validate``), every puzzle and board side is
    loaded and checked (every rule section any of its actions may link to must exist) without
    reading records, and the answer is None: no puzzle page is produced."""
    from ..proofs.store import read_records
    puzzles_dir = Path(site.data_dir) / "puzzles"
    if GAME not in site.games or not puzzles_dir.is_dir():
        return None
    game = site.games[GAME]
    sources = load_sources(puzzles_dir, problems)
    if not getattr(site, "solve_puzzles", True):
        check_linkable(sources, game, problems)
        load_boards(puzzles_dir, problems)
        return None
    boards = load_boards(puzzles_dir, problems)
    if problems:        # every data error reported before anything is computed
        return None
    proofs = read_records(sources, lambda file, message: problems.add(file, "", message))
    entries = []
    for source in sources:
        proof = proofs.get(source.file)
        if proof is None:
            continue
        entry = entry_of(source, proof.record, proof.solution, proof.computed_now)
        for section in dict.fromkeys(step_sections(entry.record)):
            if section not in game.sections:
                problems.add(source.file, "", f"a plan step links rule section {section!r}, which {GAME} does not have")
        entries.append(entry)
    if not entries:
        return None
    return PuzzleSet(tuple(entries), boards)


def entry_of(source: PuzzleSource, record: dict[str, Any], solution: Solution, computed_now: bool) -> PuzzleEntry:
    """The pages' entry of a puzzle and its checked record."""
    return PuzzleEntry(source.puzzle, source.file, {**record["solution"], "seconds": record["seconds"].get("solution")},
                       computed_now, solution, record["why"], Difficulty(**record["level"]),
                       record["regret"].get("values"))
