"""The one computing pipeline: puzzles' records computed in parallel, with progress.

Started only by the commands about computing: ``python -m generator records`` (``make records``,
``make reprove``) and the build, for a puzzle that has no record yet. Each puzzle is computed in a
worker process (one per processor, longest first, so that the longest job does not start last),
always a fresh interpreter with Python's string hashing seed fixed (:data:`HASH_SEED`): every
answer is then deterministic (CP-SAT on one worker within deterministic limits, searches within
state budgets, ties met in the same order), so any run on any machine writes the same record.

On a terminal a progress bar shows which puzzles are running, how many are left, the elapsed time
and an estimate; elsewhere (a log, CI) each finished puzzle is one plain line with the same figures.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from .compute import Computed, compute

HASH_SEED = "0"
"""``PYTHONHASHSEED`` of the worker processes. The regret values' searches meet equally good
continuations in the order of sets of states, which follows the hash of the states' strings: with
a random seed per process, two runs stored different (equally optimal) continuations for a few
states (measured on deck-two-player-1e: 9 of 153 between seeds 0 and 7, none between two runs
with seed 0)."""


@dataclass(frozen=True)
class Job:
    """One puzzle to compute: its file and, for a whole game, its recorded run."""

    puzzle_id: str
    file: Path
    recording: Path | None
    size: tuple[int, int]
    """How large its search is (flask placements, then deck cards): the order of the jobs when
    their times are not known."""
    expected: float | None = None
    """Seconds it took when last recorded (None: a new puzzle): the order of the jobs and the estimate."""
    kept: dict[str, Any] | None = None
    """Answer parts of its record still current, reused (:func:`.compute.compute`)."""


@dataclass(frozen=True)
class Outcome:
    """A job's result: what it computed, or what went wrong as text."""

    job: Job
    computed: Computed | None
    error: str | None
    seconds: float


def processors() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not on Linux
        return os.cpu_count() or 1


@contextmanager
def hash_seed_for_workers() -> Iterator[None]:
    """Within the block, processes started inherit ``PYTHONHASHSEED`` = :data:`HASH_SEED`."""
    old = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = HASH_SEED
    try:
        yield
    finally:
        if old is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = old


def run_job(job: Job) -> Outcome:
    """Load and compute one puzzle (in a worker process, or in this one). The solver's exceptions
    do not all survive the trip between processes, so an error travels as text."""
    from solver import load_puzzle
    start = time.perf_counter()
    try:
        computed = compute(load_puzzle(job.file), job.recording, job.kept)
    except Exception as exc:    # noqa: BLE001 -- reported with the puzzle's file by the caller
        return Outcome(job, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - start)
    return Outcome(job, computed, None, time.perf_counter() - start)


def clock(seconds: float) -> str:
    """``seconds`` as m:ss (or h:mm:ss)."""
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


HEARTBEAT_SECONDS = 60.0
"""Off a terminal, a line saying what is still running after this long without news."""


class Progress:
    """Progress over a set of jobs: a tqdm bar on a terminal, plain lines elsewhere. The estimate of
    the time left comes from each job's recorded time when known (scaled by how this run compares
    with it so far), else from the mean time of the jobs done."""

    def __init__(self, jobs: Sequence[Job], what: str, processes: int = 1, stream: IO[str] | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total, self.done, self.start = len(jobs), 0, time.perf_counter()
        self.processes = max(1, processes)
        self.expected = {job.puzzle_id: job.expected for job in jobs}
        self.finished_expected = self.finished_actual = 0.0
        self.last_line = self.last_finish = self.start
        self.running: list[str] = []
        total = self.total
        self.bar = tqdm(total=total, desc=what, unit="puzzle", file=self.stream, dynamic_ncols=True,
                        disable=not self.stream.isatty(), bar_format="{desc}: {n}/{total} |{bar}| {elapsed} elapsed, "
                        "about {remaining} left {postfix}")
        if self.bar.disable:
            print(f"cellula: {what}: {total} puzzles in {self.processes} "
                  f"process{'es' if self.processes > 1 else ''}", file=self.stream, flush=True)

    def left(self, elapsed: float) -> float | None:
        """Seconds still to go, estimated (None: nothing to go by yet)."""
        known = [v for v in self.expected.values() if v is not None]     # the jobs not finished
        if known and len(known) == len(self.expected):
            scale = self.finished_actual / self.finished_expected if self.finished_expected > 0.5 else 1.0
            since = time.perf_counter() - self.last_finish      # the running jobs' share already done
            return max(0.0, sum(v for v in known if v is not None) * scale / self.processes - since)
        if not self.done:
            return None
        return elapsed / self.done * (self.total - self.done)

    def started(self, name: str) -> None:
        self.running.append(name)
        self.bar.set_postfix_str(f"[{', '.join(self.running)}]")
        if self.bar.disable:
            guess = self.expected.get(name)
            self._line(f"started {name}" + (f" (last recorded in {clock(guess)})" if guess is not None else ""))

    def heartbeat(self) -> None:
        """Off a terminal, say what is still running when nothing was said for a while."""
        if self.bar.disable and self.running and time.perf_counter() - self.last_line >= HEARTBEAT_SECONDS:
            self._line(f"still computing {', '.join(self.running)}")

    def finished(self, name: str, line: str, seconds: float) -> None:
        """One job done in ``seconds``: ``line`` says how it went."""
        if name in self.running:
            self.running.remove(name)
        self.done += 1
        self.last_finish = time.perf_counter()
        expected = self.expected.pop(name, None)
        if expected is not None:
            self.finished_expected += expected
            self.finished_actual += seconds
        self.bar.set_postfix_str(f"[{', '.join(self.running)}]")
        self.bar.update(1)
        self._line(f"[{self.done}/{self.total}] {name}: {line}")

    def _line(self, text: str) -> None:
        # a plain line either way: above the bar on a terminal, the only output in a log
        elapsed = time.perf_counter() - self.start
        self.last_line = time.perf_counter()
        left = self.left(elapsed)
        estimate = "no estimate yet" if left is None else f"about {clock(left)} left"
        self.bar.write(f"cellula: {text} (elapsed {clock(elapsed)}, {estimate})", file=self.stream)

    def close(self) -> None:
        self.bar.close()


def run(jobs: Sequence[Job], what: str, workers: int | None = None) -> Iterator[Outcome]:
    """Compute ``jobs`` in up to ``workers`` worker processes (default: one per processor), longest
    first, showing progress as ``what``; yields each outcome as it finishes. Workers are started
    afresh (``spawn``: safe whatever threads this process runs, ``mkdocs serve`` among them) with
    the fixed hash seed; a setting changed in this process does not reach them."""
    ordered = sorted(jobs, key=order, reverse=True)    # stable: file order among equals
    if not ordered:
        return
    processes = max(1, min(workers if workers is not None else processors(), len(ordered)))
    progress = Progress(ordered, what, processes)
    try:
        with hash_seed_for_workers(), ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
            pending: dict[Future[Outcome], Job] = {}
            queue = list(ordered)
            while queue or pending:
                while queue and len(pending) < processes:
                    job = queue.pop(0)
                    pending[pool.submit(run_job, job)] = job
                    progress.started(job.puzzle_id)
                done, _ = wait(pending, timeout=HEARTBEAT_SECONDS / 4, return_when=FIRST_COMPLETED)
                progress.heartbeat()
                for future in done:
                    job = pending.pop(future)
                    try:
                        outcome = future.result()
                    except Exception as exc:    # noqa: BLE001 -- a worker lost (killed)
                        outcome = Outcome(job, None, f"{type(exc).__name__}: {exc}", 0.0)
                    progress.finished(job.puzzle_id, describe(outcome), outcome.seconds)
                    yield outcome
    finally:
        progress.close()


def order(job: Job) -> tuple[float, tuple[int, int]]:
    """Longest first: by the recorded time when known (a new puzzle counts as long), then by size."""
    return (job.expected if job.expected is not None else float("inf"), job.size)


def describe(outcome: Outcome) -> str:
    """One job's result in a few words."""
    if outcome.computed is None:
        return f"failed after {outcome.seconds:.1f} s ({outcome.error})"
    solution = outcome.computed.answers["solution"]["solution"]
    return f"{solution.get('status')}, Health {solution.get('health')}, {outcome.seconds:.1f} s"
