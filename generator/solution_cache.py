"""On-disk cache of solved puzzles, so the site build does not search again.

A record is the JSON the puzzle pages render from (the solver's ``Solution.to_dict()`` plus the
greedy contrast and the proof details), stored as ``.cache/solutions/<key>.json``. The key is the
SHA-256 of:

- the puzzle file's bytes (line endings normalised to ``\\n``, so a checkout on Windows hits
  the same entry);
- the bytes of the other data files the solution depends on (the board side and the rulebook
  cards: an assumed count changed in ``data/boards`` changes the optimum);
- the solver version: ``solver.__version__`` or ``solver.SOLVER_VERSION`` when present, and
  always the hash of the solver package's Python source, so any engine change invalidates;
- the engine name.

A file that is not valid JSON, is not a record of this format or was written under another
key is ignored (and overwritten by the caller's fresh result).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / ".cache" / "solutions"
"""Default cache folder (ignored by git)."""
SOLVER_DIR = ROOT / "solver"
"""The solver package whose source is hashed into every key."""
FORMAT = 2
"""Version of the record layout; bump it when the pages need new fields."""


@dataclass(frozen=True)
class Lookup:
    """The answer of :func:`cached`."""

    record: dict[str, Any]
    """The stored or freshly computed record."""
    hit: bool
    """True when it came from the cache."""
    key: str
    """The cache key (file stem)."""


def canonical_bytes(path: Path) -> bytes:
    """A file's bytes with ``\\r\\n`` and ``\\r`` line endings turned into ``\\n``."""
    return Path(path).read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def source_hash(package_dir: Path = SOLVER_DIR) -> str:
    """SHA-256 over the package's ``*.py`` files (relative path and canonical bytes, sorted)."""
    digest = hashlib.sha256()
    for file in sorted(package_dir.rglob("*.py")):
        if "__pycache__" in file.parts:
            continue
        digest.update(file.relative_to(package_dir).as_posix().encode() + b"\0")
        digest.update(canonical_bytes(file) + b"\0")
    return digest.hexdigest()


_pinned_versions: dict[Path, str] = {}
_pin_depth = 0


@contextmanager
def solver_version_pinned() -> Iterator[None]:
    """Within the block, :func:`solver_version` reads each solver folder once. A build asks for
    it with every record's key (about 170 keys, each hashing the solver's whole source: 0.4 s),
    and the solver does not change while the site is built; a change takes effect at the next
    build. Outside any such block every call reads the source again."""
    global _pin_depth
    _pin_depth += 1
    try:
        yield
    finally:
        _pin_depth -= 1
        if not _pin_depth:
            _pinned_versions.clear()


def solver_version(package_dir: Path = SOLVER_DIR) -> str:
    """The declared solver version (if the package declares one) plus its source hash."""
    if _pin_depth and package_dir in _pinned_versions:
        return _pinned_versions[package_dir]
    import solver
    declared = getattr(solver, "__version__", None) or getattr(solver, "SOLVER_VERSION", None) or "-"
    version = f"{declared}+src.{source_hash(package_dir)[:16]}"
    if _pin_depth:
        _pinned_versions[package_dir] = version
    return version


def cache_key(puzzle_file: Path, engine: str, depends_on: Iterable[Path] = (), version: str | None = None) -> str:
    """The SHA-256 naming a puzzle's record (see the module docstring)."""
    digest = hashlib.sha256()
    digest.update(b"cellula-solution\0" + str(FORMAT).encode() + b"\0")
    digest.update(canonical_bytes(puzzle_file) + b"\0")
    for extra in depends_on:
        digest.update(Path(extra).name.encode() + b"\0" + canonical_bytes(extra) + b"\0")
    digest.update((version if version is not None else solver_version()).encode() + b"\0")
    digest.update(engine.encode())
    return digest.hexdigest()


SOLUTION_PARTS = ("solution", "greedy")
"""The parts a solution record must hold (mappings) to be read back."""


def read(cache_dir: Path, key: str, parts: tuple[str, ...] = SOLUTION_PARTS) -> dict[str, Any] | None:
    """The record stored under ``key``, or None when absent, unreadable or not a valid record:
    ``parts`` names the keys it must hold (a solution record's ``solution`` and ``greedy`` are
    mappings; another kind of record, such as the "why" facts, names its own)."""
    path = Path(cache_dir) / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    if parts == SOLUTION_PARTS and not all(isinstance(data.get(part), dict) for part in parts):
        return None
    if not all(part in data for part in parts):
        return None
    return data


def write(cache_dir: Path, key: str, record: dict[str, Any]) -> Path:
    """Store ``record`` under ``key`` atomically (a concurrent build never reads half a file)."""
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / f"{key}.json"
    record = {**record, "format": FORMAT, "key": key}
    fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=f".{key[:12]}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(record, out, ensure_ascii=False, indent=1, sort_keys=True)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def cached(key: str, compute: Callable[[], dict[str, Any]], cache_dir: Path | None = None,
           parts: tuple[str, ...] = SOLUTION_PARTS,
           accept: Callable[[dict[str, Any]], bool] | None = None) -> Lookup:
    """The record for ``key``: from the cache when valid (holding ``parts``, see :func:`read`, and
    passing ``accept`` when given), else ``compute()`` stored and returned."""
    folder = Path(cache_dir) if cache_dir is not None else CACHE_DIR
    record = read(folder, key, parts)
    if record is not None and (accept is None or accept(record)):
        return Lookup(record, True, key)
    fresh = compute()
    write(folder, key, fresh)
    return Lookup({**fresh, "format": FORMAT, "key": key}, False, key)
