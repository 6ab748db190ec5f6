"""A cold build's per-puzzle computing, spread over the machine's processors.

Each puzzle's pages read three cached records: its solution (:mod:`.solving`), its regret values
(:func:`generator.puzzle_play.values_json`) and its "why it is optimal" facts
(:func:`generator.puzzle_why.why_cached`). Computing them is single-threaded and takes minutes for
the larger puzzles, so a cold build on a machine with several processors first computes the
missing ones, one puzzle per process, largest first; the pages then find every record on disk.

Nothing about the answers changes: each process makes the very calls the serial build makes, and
each computation is deterministic (the solver's engines run on one worker; the regret stage's
CP-SAT runs within a deterministic time and its searches within state budgets). A puzzle whose
computing fails here is simply left to the serial build, which computes it again and reports the
error where it always has, naming the file.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import solving
from .model import PuzzleEntry, PuzzleSource


@dataclass(frozen=True)
class Warmed:
    """What :func:`warm` did."""

    missing: int
    """Puzzles with at least one record not on disk."""
    processes: int
    """Processes that computed them (0: left to the serial build)."""
    failed: int
    """Puzzles whose computing raised (the serial build computes them again and reports why)."""
    seconds: float
    """Wall time of the whole."""


def processors() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether worker processes can start as copies of this one: they then see every setting
    this process holds (a test's cache folder or budgets), and nothing is imported again. Not
    when other threads run (``mkdocs serve`` after its first build): a copy could inherit a lock
    one of them holds."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def entry_of(source: PuzzleSource) -> PuzzleEntry | None:
    """The puzzle's entry as the loader makes it, from the cache only: None when its solution
    record is not on disk (or does not read back: the serial build reports that)."""
    from solver import PuzzleError, SolverError
    try:
        if not solving.is_cached(source.puzzle, source.file, source.recording):
            return None
        return solving.solved_entry(source)
    except (PuzzleError, SolverError, OSError):
        return None


def is_missing(source: PuzzleSource) -> bool:
    """Whether any of the puzzle's three records is not on disk."""
    from .pages import is_computed
    entry = entry_of(source)
    return entry is None or not is_computed(entry)


def compute_puzzle(file: Path, recording: Path | None) -> float:
    """Compute and cache the puzzle's three records (a worker process's job); its seconds. The
    worker loads the file again: a path crosses between processes, a loaded puzzle would have to
    be pickled."""
    from solver import load_puzzle
    from .pages import compute
    start = time.perf_counter()
    compute(solving.solved_entry(PuzzleSource(load_puzzle(file), file, recording)))
    return time.perf_counter() - start


def job(file: Path, recording: Path | None) -> tuple[float, str | None]:
    """A worker process's job: :func:`compute_puzzle`, and what went wrong as text (None: nothing).
    Text, because the solver's exceptions do not all survive the trip back between processes."""
    start = time.perf_counter()
    try:
        compute_puzzle(file, recording)
    except Exception as exc:    # noqa: BLE001 -- the serial build computes it again and reports it
        return time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    return time.perf_counter() - start, None


def size(source: PuzzleSource) -> tuple[int, int]:
    """How large the puzzle's search is, for the order of the jobs: flask placements, then the
    cards that may come to the row (the two figures its solving and valuing time grow with)."""
    return (solving.placements(source.puzzle), len(source.puzzle.deck))


def warm(sources: Sequence[PuzzleSource], workers: int | None = None) -> Warmed:
    """Compute the missing records of the loaded puzzles ``sources`` in up to ``workers`` processes (default: one per
    processor), largest puzzles first so that the longest job does not start last. Does nothing
    with one processor, one missing puzzle, or when processes cannot be forked (:func:`can_fork`):
    the serial build then computes as it always did."""
    start = time.perf_counter()
    missing = [s for s in sources if is_missing(s)]
    processes = min(workers if workers is not None else processors(), len(missing))
    if processes < 2 or not can_fork():
        return Warmed(len(missing), 0, 0, round(time.perf_counter() - start, 3))
    jobs = sorted(missing, key=size, reverse=True)      # sorted() is stable: file order among equals
    print(f"cellula: computing {len(jobs)} puzzles' solutions, regret values and why facts "
          f"in {processes} processes", file=sys.stderr, flush=True)
    failed = 0
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {pool.submit(job, source.file, source.recording): source.file for source in jobs}
        for future, file in futures.items():
            try:
                seconds, error = future.result()
            except Exception as exc:    # noqa: BLE001 -- a process lost (killed): the serial build computes it
                seconds, error = 0.0, f"{type(exc).__name__}: {exc}"
            failed += error is not None
            print(f"cellula: {file.stem}: computed in {seconds:.1f} s" if error is None else
                  f"cellula: {file.stem}: left to the serial build ({error})", file=sys.stderr, flush=True)
    seconds = round(time.perf_counter() - start, 3)
    print(f"cellula: {len(jobs)} puzzles computed in {seconds} s ({failed} left to the serial build)",
          file=sys.stderr, flush=True)
    return Warmed(len(missing), processes, failed, seconds)
