"""A puzzle's committed record: everything computed for it, with what it was computed from.

One JSON file beside each puzzle (``data/puzzles/<id>.record.json``; a whole game's beside its
file in ``games/``), written by ``python -m generator records`` (``make records``) and committed:

- ``inputs``: the SHA-256 of each data file the answers read (the puzzle, its board side, the
  rulebook cards, a whole game's recorded run), line endings normalised, and one digest over them;
  the puzzle's is of its play alone (:func:`play_bytes`: its readers' texts left out);
- ``keys``: what the answers depend on (:mod:`.keys`): the rules engine's behaviour on the
  puzzle, the planner's model of it, and the narrow fingerprint of each part's own searches;
- ``engines``: the libraries that proved and confirmed them, with their versions, and every budget;
- the answers (:mod:`.compute`): ``solution``, ``regret``, ``why``, ``level``;
- ``seconds``: what each part took where it was computed (information, never compared).

A record is *current* when its inputs, its keys and its budgets match today's; the build reads
current records, checks every field a page shows (:mod:`.certify`) and never proves (:mod:`.store`).
"""
from __future__ import annotations

import enum
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .fingerprint import ROOT

if TYPE_CHECKING:
    from solver.game.model import Puzzle

FORMAT = "cellula-record-2"
"""The layout of a record file; a file of another layout reads as damaged."""
SUFFIX = ".record.json"
ANSWER_PARTS = ("solution", "regret", "why", "level")
"""The computed parts of a record (:class:`.compute.Computed`), compared field by field on a re-proof."""
VOLATILE_KEYS = frozenset({"seconds", "wall_time"})
"""Keys whose values are timings of the machine that computed them: never compared (nor do they
decide anything a page shows as an answer). Keys ending in ``_seconds`` are timings too."""
REFRESH = "make records"
MAX_BYTES = 32 * 1024 * 1024
"""The largest record read (the largest is under 200 KB): past it, a damaged record."""
MAX_DEPTH = 24
"""The deepest nesting of objects and lists a record may have (records nest 8 deep)."""
"""The command that brings every record up to date (``python -m generator records``)."""


class RecordState(enum.Enum):
    """What a puzzle's record is, against today's data and code."""

    CURRENT = "current"
    MISSING = "missing"
    DAMAGED = "damaged"
    """Not readable as a record of this layout."""
    INPUTS_CHANGED = "inputs changed"
    CODE_CHANGED = "stale"
    """What an answer depends on changed (:mod:`.keys`): the engine's behaviour, the planner's model,
    a search's code or a budget."""


def record_path(puzzle_file: Path) -> Path:
    """Where the record of the puzzle in ``puzzle_file`` lives: beside it."""
    return Path(puzzle_file).with_name(Path(puzzle_file).stem + SUFFIX)


def canonical_bytes(path: Path) -> bytes:
    """A file's bytes with ``\\r\\n`` and ``\\r`` line endings turned into ``\\n`` (a checkout on
    Windows has the same digests)."""
    return Path(path).read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")


READERS_TEXTS = frozenset({"title", "story", "notes"})
"""A puzzle file's fields written for readers only (the title, the story, the notes, in every
language): no answer reads them, so a translator's edit of a story leaves the record current."""


def play_bytes(path: Path) -> bytes:
    """What a puzzle file says about the play: its YAML data without :data:`READERS_TEXTS`, as
    sorted JSON (comments, layout and quoting are not play either). The build validates every puzzle
    file before it reads a record, so the file parses here."""
    import yaml
    data = yaml.safe_load(canonical_bytes(path).decode("utf-8"))
    if not isinstance(data, dict):
        return canonical_bytes(path)
    play = {str(key): value for key, value in data.items() if key not in READERS_TEXTS}
    return json.dumps(_string_keys(play), sort_keys=True, ensure_ascii=False, default=str).encode()


def _string_keys(value: Any) -> Any:
    """``value`` with every mapping's keys as strings (YAML gives round numbers as int keys)."""
    if isinstance(value, dict):
        return {str(k): _string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_string_keys(v) for v in value]
    return value


def display(path: Path) -> str:
    """``path`` relative to the repository when it is inside it (as records name their inputs)."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return Path(path).as_posix()


def input_files(puzzle: Puzzle, puzzle_file: Path, recording: Path | None) -> tuple[Path, ...]:
    """Every data file a record's answers are read from: the puzzle, its board side, the rulebook
    cards and, for a whole game, its recorded run."""
    from solver.io.puzzle import RULEBOOK_CARDS, board_path
    files = (Path(puzzle_file), board_path(puzzle.board.id), RULEBOOK_CARDS)
    return files + ((Path(recording),) if recording is not None else ())


@dataclass(frozen=True)
class Inputs:
    """The input files' digests."""

    files: dict[str, str]
    """Path (relative to the repository) -> SHA-256 of the canonical bytes (of the puzzle file,
    of its play: :func:`play_bytes`)."""

    @property
    def digest(self) -> str:
        """One SHA-256 over every (path, digest) pair, sorted by path."""
        return hashlib.sha256(json.dumps(sorted(self.files.items())).encode()).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        return {"digest": self.digest, "files": dict(sorted(self.files.items()))}

    @classmethod
    def of(cls, files: tuple[Path, ...], puzzle_file: Path | None = None) -> Inputs:
        """The digests of ``files``; ``puzzle_file`` (one of them) by its play alone."""
        def digest(file: Path) -> str:
            same = puzzle_file is not None and Path(file).resolve() == Path(puzzle_file).resolve()
            return hashlib.sha256(play_bytes(file) if same else canonical_bytes(file)).hexdigest()
        return cls({display(f): digest(f) for f in files})

    @classmethod
    def of_puzzle(cls, puzzle: Puzzle, puzzle_file: Path, recording: Path | None) -> Inputs:
        """The inputs of a puzzle's record (:func:`input_files`)."""
        return cls.of(input_files(puzzle, puzzle_file, recording), puzzle_file=puzzle_file)


def engine_versions() -> dict[str, str]:
    """The libraries that prove and confirm the answers (CP-SAT and HiGHS both come with OR-Tools)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        ortools = version("ortools")
    except PackageNotFoundError:
        ortools = "not installed"
    return {"cp-sat": f"OR-Tools {ortools}", "highs": f"OR-Tools {ortools} (linear_solver)"}


def budgets() -> dict[str, Any]:
    """Every budget and limit the answers were computed within (each also inside the code
    fingerprint: listed here so that a reader of the record sees them)."""
    from solver.solution import solve
    import inspect
    from . import regret, why
    confirm = inspect.signature(solve).parameters["confirm_time_limit"].default
    return {"solve": {"workers": 1, "confirm_time_limit_seconds": confirm},
            "regret": {"full_table_states": regret.FULL_TABLE_STATES, "line_states": regret.LINE_STATES,
                       "line_states_unplanned": regret.LINE_STATES_UNPLANNED,
                       "line_planner_deterministic_time": list(regret.LINE_PLANNER_TIME or ())},
            "why": {"max_states": why.MAX_STATES, "plan_cap": why.PLAN_CAP,
                    "probe_deterministic_time": why.PROBE_DETERMINISTIC_TIME, "probe_nodes": why.PROBE_NODES}}


def make_record(puzzle_id: str, inputs: Inputs, keys: Mapping[str, Any], answers: Mapping[str, Any],
                seconds: Mapping[str, float]) -> dict[str, Any]:
    """A record, ready to write (``keys``: :meth:`.keys.Keys.to_dict`)."""
    return {"format": FORMAT, "puzzle": puzzle_id, "inputs": inputs.to_dict(),
            "keys": dict(keys), "engines": {"versions": engine_versions(), "budgets": budgets()},
            **{part: answers[part] for part in ANSWER_PARTS}, "seconds": dict(seconds)}


def write(path: Path, record: Mapping[str, Any]) -> None:
    """Write ``record`` atomically (a concurrent reader never sees half a file), keys sorted and
    indented so that a re-proof's change reads as a small diff."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(record, out, ensure_ascii=False, indent=1, sort_keys=True)
            out.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def depth(value: Any) -> int:
    """How deep ``value`` nests objects and lists (iteratively: a deep one cannot overflow the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def read(path: Path) -> dict[str, Any] | None:
    """The record in ``path``; None when absent. Raises ``ValueError`` naming the file when it is
    not a record of this layout (too large, too deep, not JSON, a field of the wrong kind)."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_BYTES:
            raise ValueError(f"{display(path)}: {size} bytes, expected at most {MAX_BYTES}")
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{display(path)}: not readable ({exc})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"{display(path)}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise ValueError(f"{display(path)}: line {getattr(exc, 'lineno', '?')}: not JSON ({exc})") from None
    if depth(data) > MAX_DEPTH:
        raise ValueError(f"{display(path)}: nested deeper than {MAX_DEPTH} levels")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{display(path)}: format {found!r}, expected {FORMAT!r}")
    for key in ("inputs", "keys", "engines", "seconds", *ANSWER_PARTS):
        if not isinstance(data.get(key), dict):
            raise ValueError(f"{display(path)}: field {key!r} is {type(data.get(key)).__name__}, expected an object")
    if not isinstance(data["solution"].get("solution"), dict) or not isinstance(data["solution"]["solution"].get("plan"), list):
        raise ValueError(f"{display(path)}: field 'solution.solution.plan' is not a list of moves")
    if not isinstance(data["inputs"].get("files"), dict) or not isinstance(data["engines"].get("budgets"), dict):
        raise ValueError(f"{display(path)}: field 'inputs.files' or 'engines.budgets' is not an object")
    return data


def inputs_state(record: Mapping[str, Any], inputs: Inputs) -> bool:
    """Whether ``record`` (as :func:`read` gives it) was computed from ``inputs``: every file's
    digest and the digest over them."""
    return bool(record["inputs"].get("digest") == inputs.digest and record["inputs"].get("files") == inputs.files)


def stale_budgets(record: Mapping[str, Any]) -> list[str]:
    """The parts whose budgets differ from today's (``solve`` is the solution's)."""
    today = budgets()
    recorded = record["engines"].get("budgets") or {}
    return [{"solve": "solution"}.get(part, part) for part in sorted(today) if recorded.get(part) != today[part]]


def changed_inputs(record: Mapping[str, Any], inputs: Inputs) -> list[str]:
    """The input files whose digest differs from the record's (added and removed ones included)."""
    recorded = record["inputs"].get("files") or {}
    return sorted(f for f in set(recorded) | set(inputs.files) if recorded.get(f) != inputs.files.get(f))


WALL_CLOCK_FIELDS = ("confirmed_by",)
"""Fields decided within a wall-clock budget: the HiGHS confirmation of an optimum (60 s; 43 s for
deck-season-1e on an idle machine, past 60 s on a loaded one). A confirmation adds to a proof and
never changes a value: a re-proof reports its difference without failing."""


def is_wall_clock(path: str) -> bool:
    """Whether the dotted field ``path`` is one of :data:`WALL_CLOCK_FIELDS`."""
    return path.rsplit(".", 1)[-1].split("[")[0] in WALL_CLOCK_FIELDS


def is_volatile(key: str) -> bool:
    return key in VOLATILE_KEYS or key.endswith("_seconds")


def differences(committed: Any, fresh: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every field where ``fresh`` differs from ``committed``: (dotted path, committed, fresh);
    timings (:func:`is_volatile`) left out. Lists are compared item by item."""
    if isinstance(committed, dict) and isinstance(fresh, dict):
        for key in sorted(set(committed) | set(fresh)):
            if is_volatile(key):
                continue
            where = f"{path}.{key}" if path else key
            if key not in committed or key not in fresh:
                yield where, committed.get(key, "(absent)"), fresh.get(key, "(absent)")
            else:
                yield from differences(committed[key], fresh[key], where)
    elif isinstance(committed, list) and isinstance(fresh, list) and len(committed) == len(fresh):
        for index, (old, new) in enumerate(zip(committed, fresh)):
            yield from differences(old, new, f"{path}[{index}]")
    elif committed != fresh or type(committed) is not type(fresh):
        yield path, committed, fresh
