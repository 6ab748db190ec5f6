"""The build's side of the records: read every puzzle's record, check it, never prove.

For each puzzle the loader hands over (:func:`read_records`):

- a *current* record (its inputs, its keys and its budgets all match today's: :mod:`.keys`) is
  read and every field a page shows is checked (:mod:`.certify`);
- a *missing* record (a new puzzle) is computed by the one pipeline (:mod:`.pipeline`, with
  progress) and written beside the puzzle for its author to commit;
- a *stale* or damaged record is an error naming the puzzle, what changed and the command that
  refreshes it (``make records``): the build does not quietly re-prove.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import record as records
from .fingerprint import ROOT
from .keys import DESCRIBED, KeyCache, Keys, code_keys, keys_of, stale_parts
from .pipeline import Job, Outcome, run
from .record import Inputs, RecordState

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.solution import Solution


@dataclass(frozen=True)
class Source:
    """A loaded puzzle the records are about (the puzzles feature's :class:`PuzzleSource` fits)."""

    puzzle: Puzzle
    file: Path
    recording: Path | None


@dataclass(frozen=True)
class Status:
    """One puzzle's record against today's data and code."""

    source: Source
    path: Path
    state: RecordState
    record: dict[str, Any] | None
    inputs: Inputs
    detail: str
    """What is wrong, in words ("" when current)."""
    stale: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    """Stale answer part -> what it depends on that changed (:func:`.keys.stale_parts`)."""
    keys: Keys | None = None
    """Today's keys (None: not computed, for a missing, damaged or edited record)."""

    @property
    def refresh(self) -> str:
        """The command that recomputes this record."""
        return f"python -m generator records {records.display(self.source.file)}"


@dataclass(frozen=True)
class Proof:
    """A puzzle's record as the pages read it."""

    record: dict[str, Any]
    """The whole record (:mod:`.record`)."""
    solution: Solution
    """``record["solution"]["solution"]`` read back: its plan replayed in the rules engine."""
    computed_now: bool
    """Whether this build computed it (a new puzzle): the file is then written for its author to commit."""


PREVIEW_VARIABLE = "CELLULA_PREVIEW_CODE_CHANGES"
"""Set to 1 while editing computing code, to preview the site with the records of the code before the
edit: a record stale only by its keys or budgets is used with a warning (still certified by today's
engine). Never set in ``make test``, so CI refuses stale records."""


def code_changes_allowed() -> bool:
    """Whether :data:`PREVIEW_VARIABLE` asks to use records made by earlier code."""
    return os.environ.get(PREVIEW_VARIABLE, "") == "1"


def preview_status(status: Status) -> Status:
    """``status``, read as current when only the code changed and :data:`PREVIEW_VARIABLE` is set
    (with a warning on standard error)."""
    if status.state is not RecordState.CODE_CHANGED or not code_changes_allowed():
        return status
    print(f"warning: {records.display(status.path)}: {status.detail}; used anyway because "
          f"{PREVIEW_VARIABLE}=1 (a preview: run `{records.REFRESH}` before committing)", file=sys.stderr)
    return dataclasses.replace(status, state=RecordState.CURRENT)


@functools.lru_cache(maxsize=1)
def key_cache() -> KeyCache:
    """The digests computed before, on this machine, for today's code (:class:`.keys.KeyCache`)."""
    return KeyCache()


def code() -> dict[str, str]:
    """Today's narrow fingerprints (kept in the cache: parsed once per edit of the code)."""
    cache = key_cache()
    found = cache.get("code")
    if not isinstance(found, dict):
        found = code_keys()
        cache.put("code", found)
    return dict(found)


def today_keys(source: Source, inputs: Inputs, plan: list[dict[str, Any]]) -> Keys:
    """Today's keys of ``source`` whose worked example plays ``plan``."""
    return keys_of(source.puzzle, inputs.digest, plan, key_cache(), code())


def _stale_detail(stale: dict[str, list[str]]) -> str:
    causes = dict.fromkeys(c for changed in stale.values() for c in changed)
    words = [DESCRIBED.get(c, f"the {c.split('.')[-1]} budgets" if c.startswith("budgets") else c) for c in causes]
    return f"{', '.join(words)} changed since it was recorded: {', '.join(stale)} to recompute"


def status_of(source: Source) -> Status:
    """Read ``source``'s record and compare it with today's inputs, keys and budgets."""
    path = records.record_path(source.file)
    inputs = Inputs.of_puzzle(source.puzzle, source.file, source.recording)
    try:
        record = records.read(path)
    except ValueError as exc:
        return Status(source, path, RecordState.DAMAGED, None, inputs, str(exc))
    if record is None:
        return Status(source, path, RecordState.MISSING, None, inputs, "no record yet")
    if not records.inputs_state(record, inputs):
        return Status(source, path, RecordState.INPUTS_CHANGED, record, inputs,
                      "changed since it was recorded: " + (", ".join(records.changed_inputs(record, inputs))
                                                           or "the digest over the files"))
    try:
        keys = today_keys(source, inputs, record["solution"]["solution"]["plan"])
    except Exception as exc:    # noqa: BLE001 -- a plan that does not read as moves: the record is damaged
        return Status(source, path, RecordState.DAMAGED, None, inputs,
                      f"{records.display(path)}: field 'solution.solution.plan': {type(exc).__name__}: {exc}")
    stale = stale_parts(record["keys"], keys)
    for part in records.stale_budgets(record):
        stale.setdefault(part, []).append(f"budgets.{part}")
    if "solution" in stale:
        for part in ("regret", "why"):
            stale.setdefault(part, ["solution"])
    if stale:
        return Status(source, path, RecordState.CODE_CHANGED, record, inputs, _stale_detail(stale), stale, keys)
    return Status(source, path, RecordState.CURRENT, record, inputs, "", {}, keys)


def stray_records(folders: Iterable[Path], puzzle_files: Iterable[Path]) -> list[Path]:
    """The records in ``folders`` beside no puzzle file of ``puzzle_files``."""
    owned = {records.record_path(f).resolve() for f in puzzle_files}
    return sorted(p for folder in folders for p in Path(folder).glob(f"*{records.SUFFIX}") if p.resolve() not in owned)


def job_of(source: Source, previous: dict[str, Any] | None = None, stale: dict[str, list[str]] | None = None) -> Job:
    """The pipeline job that computes ``source``'s record (``previous``: its last record, whose
    times order the jobs and estimate what is left; ``stale``: when given, only these parts of
    it are recomputed, the others reused)."""
    seconds = (previous or {}).get("seconds") or {}
    kept = None
    if previous is not None and stale is not None:
        kept = {part: previous[part] for part in ("solution", "regret", "why") if part not in stale}
        kept["seconds"] = dict(seconds)
    expected = float(sum(v for k, v in seconds.items() if kept is None or k not in kept)) if seconds else None
    return Job(source.puzzle.id, source.file, source.recording,
               (source.puzzle.rounds * source.puzzle.flasks, len(source.puzzle.deck)), expected, kept)


def fresh_record(status: Status, outcome: Outcome) -> dict[str, Any]:
    """The record an outcome computed, with today's keys for its plan."""
    assert outcome.computed is not None
    plan = outcome.computed.answers["solution"]["solution"]["plan"]
    keys = today_keys(status.source, status.inputs, plan)
    return records.make_record(status.source.puzzle.id, status.inputs, keys.to_dict(), outcome.computed.answers,
                               outcome.computed.seconds)


def compute_records(statuses: Sequence[Status], what: str, workers: int | None = None) -> tuple[dict[Path, dict[str, Any]], list[tuple[Status, str]]]:
    """Compute and write the records of ``statuses``: (written records by puzzle file, failures).
    A record stale by its keys or budgets (:attr:`Status.stale`) has only its stale parts
    recomputed; any other (missing, damaged, inputs changed) is computed whole. Each written
    record's answers go into the ledger (:mod:`.ledger`) when every part was computed now or was
    already in it."""
    from .ledger import Ledger
    by_id = {s.source.puzzle.id: s for s in statuses}
    written: dict[Path, dict[str, Any]] = {}
    failed: list[tuple[Status, str]] = []
    ledger = Ledger.load()
    try:
        jobs = [job_of(s.source, s.record, s.stale if s.state is RecordState.CODE_CHANGED else None) for s in statuses]
        for outcome in run(jobs, what, workers):
            status = by_id[outcome.job.puzzle_id]
            if outcome.computed is None:
                failed.append((status, outcome.error or "failed"))
                continue
            record = fresh_record(status, outcome)
            records.write(status.path, record)
            if outcome.job.kept is None or (status.record is not None and ledger.vouches_for(status.record)):
                ledger.proved(record)
            written[status.source.file] = record
    finally:
        ledger.save()
        key_cache().save()
    return written, failed


CHECK_CACHE_FORMAT = "certified-1"


def check_record(source: Source, record: dict[str, Any]) -> Solution:
    """Every field of the record a page shows checked (:func:`.certify.certify`): the typed
    solution. Raises :class:`.certify.RecordCheckError` naming the field. A record certified
    before with the same bytes and the same code is answered from the cache (the table check
    alone takes seconds)."""
    import hashlib
    import json
    from solver.solution import Solution
    from .certify import certify
    cache = key_cache()
    digest = hashlib.sha256(json.dumps([CHECK_CACHE_FORMAT, records.display(source.file), record],
                                       sort_keys=True).encode()).hexdigest()
    if cache.get(f"certified:{digest}") is True:
        return Solution.from_dict(source.puzzle, record["solution"]["solution"])
    solution = certify(source.puzzle, source.file, record)
    cache.put(f"certified:{digest}", True)
    return solution


def _failure(exc: Exception) -> str:
    from .certify import RecordCheckError
    return str(exc) if isinstance(exc, RecordCheckError) else f"{type(exc).__name__}: {exc}"


def certification_failure(status: Status) -> str:
    """For a stale record, what of it does not check out today too (" and does not check out
    (field: ...)"), or "": a plan edited by hand reads as stale (its line is in the behaviour
    key), and the field that betrays it is the more useful half of the message."""
    assert status.record is not None
    try:
        check_record(status.source, status.record)
    except Exception as exc:    # noqa: BLE001 -- reported with the staleness
        return f" and does not check out ({_failure(exc)})"
    return ""


def read_records(sources: Iterable[Source], report: Callable[[Path, str], None], workers: int | None = None) -> dict[Path, Proof]:
    """Every source's :class:`Proof`, by puzzle file. ``report(file, message)`` receives each
    problem (a stale, damaged or failing record, a new puzzle whose computing failed); those
    puzzles are left out."""
    sources = list(sources)
    for stray in stray_records({s.file.parent for s in sources}, [s.file for s in sources]):
        report(stray, f"record {records.display(stray)} is the record of no puzzle (no "
                      f"{stray.name.removesuffix(records.SUFFIX)}.yaml beside it): delete it, or restore its puzzle")
    statuses = [preview_status(status_of(s)) for s in sources]
    for status in statuses:
        if status.state not in (RecordState.CURRENT, RecordState.MISSING):
            failing = "" if status.record is None else certification_failure(status)
            report(status.source.file, f"record {records.display(status.path)}: {status.state.value} "
                                       f"({status.detail}){failing}: refresh it with `{records.REFRESH}` "
                                       f"(this puzzle alone: `{status.refresh}`)")
    missing = [s for s in statuses if s.state is RecordState.MISSING]
    computed: dict[Path, dict[str, Any]] = {}
    if missing:
        computed, failed = compute_records(missing, "computing the records of new puzzles", workers)
        for status, error in failed:
            report(status.source.file, f"puzzle not solved: {error}")
    proofs: dict[Path, Proof] = {}
    for status in statuses:
        record = computed.get(status.source.file) if status.state is RecordState.MISSING else (
            status.record if status.state is RecordState.CURRENT else None)
        if record is None:
            continue
        try:
            solution = check_record(status.source, record)
        except Exception as exc:    # noqa: BLE001 -- any failure is this record's, named with its file
            report(status.source.file, f"record {records.display(status.path)} does not check out ({_failure(exc)}): "
                                       f"recompute it with `{status.refresh}`")
            continue
        proofs[status.source.file] = Proof(record, solution, status.state is RecordState.MISSING)
    key_cache().save()
    return proofs


def reprove(statuses: Sequence[Status], workers: int | None = None, notes: list[str] | None = None) -> list[str]:
    """Recompute each record from nothing and compare it with the committed one, field by field
    (timings left out); one line per difference, per failure and per missing record. A difference
    in a field decided within a wall-clock budget (:data:`.record.WALL_CLOCK_FIELDS`) goes to
    ``notes`` instead, when given."""
    out: list[str] = []
    present = [s for s in statuses if s.record is not None]
    out += [f"{records.display(s.path)}: {s.state.value} ({s.detail})" for s in statuses if s.record is None]
    from .ledger import Ledger
    ledger = Ledger.load()
    by_id = {s.source.puzzle.id: s for s in present}
    for outcome in run([job_of(s.source, s.record) for s in present], "re-proving records", workers):
        status = by_id[outcome.job.puzzle_id]
        assert status.record is not None
        if outcome.computed is None:
            out.append(f"{records.display(status.path)}: recomputing failed: {outcome.error}")
            continue
        fresh = fresh_record(status, outcome)
        differing = False
        for where, old, new in records.differences(status.record, fresh):
            line = f"{records.display(status.path)}: {where}: committed {_short(old)}, recomputed {_short(new)}"
            if notes is not None and records.is_wall_clock(where):
                notes.append(line + " (decided within a wall-clock budget: not an answer)")
            else:
                out.append(line)
                differing = True
        if not differing:
            ledger.proved(status.record)
    ledger.save()
    key_cache().save()
    return out


def _short(value: Any, limit: int = 120) -> str:
    import json
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


def unproved(statuses: Sequence[Status]) -> list[Status]:
    """The records whose answers the ledger has not seen proved (:mod:`.ledger`)."""
    from .ledger import Ledger
    ledger = Ledger.load()
    return [s for s in statuses if s.record is not None and not ledger.vouches_for(s.record)]


def recorded_seconds(status: Status) -> float:
    """What computing the record took when it was recorded (infinite when unknown)."""
    seconds = (status.record or {}).get("seconds") or {}
    return float(sum(seconds.values())) if seconds else float("inf")


def head_commit() -> str:
    """The commit checked out (what the sample of :func:`sample` varies with); "" outside git."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=ROOT, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return str(done.stdout).strip()


def sample(statuses: Sequence[Status], smallest: int, varying: int, max_seconds: float,
           seed: str | None = None) -> list[Status]:
    """The records a test run re-proves: the ``smallest`` quickest to compute, plus ``varying``
    more drawn with the commit as seed (a different few on every commit, so a stale or hand-edited
    record cannot stand for long) among those recorded within ``max_seconds``."""
    present = sorted((s for s in statuses if s.record is not None), key=lambda s: (recorded_seconds(s), s.source.puzzle.id))
    chosen = present[:smallest]
    rest = [s for s in present[smallest:] if recorded_seconds(s) <= max_seconds]
    rng = random.Random(seed if seed is not None else head_commit())
    chosen += rng.sample(rest, min(varying, len(rest)))
    return chosen
