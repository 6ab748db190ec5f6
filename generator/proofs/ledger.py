"""The ledger of re-proofs: for each puzzle, the digest of its record's answers as they were last
computed or re-proved from nothing (``data/puzzles/reproved.json``, committed).

Only the commands that compute write it (``make records``, ``make reprove``, the build for a new
puzzle): each record they compute, and each they re-prove field by field, goes in. ``make test``
re-proves every record whose answers differ from their ledger entry, besides its sample
(``python -m generator records --reprove --sample``), so an answer changed by hand cannot land
even when every field agrees with the others: it was never proved.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fingerprint import ROOT
from .record import ANSWER_PARTS, is_volatile, write

PATH = ROOT / "data" / "puzzles" / "reproved.json"
FORMAT = "cellula-reproved-1"


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if not is_volatile(k)}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def answers_digest(record: Mapping[str, Any]) -> str:
    """SHA-256 over a record's answers (:data:`.record.ANSWER_PARTS`) and the puzzle they answer,
    timings left out."""
    answers = {"puzzle": record.get("puzzle"), **{part: _without_timings(record.get(part)) for part in ANSWER_PARTS}}
    return hashlib.sha256(json.dumps(answers, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass
class Ledger:
    """Puzzle id -> the digest of its answers when last proved."""

    answers: dict[str, str] = field(default_factory=dict)
    path: Path = PATH
    dirty: bool = False

    @classmethod
    def load(cls, path: Path | None = None) -> Ledger:
        """The ledger in ``path`` (default :data:`PATH`; empty when absent, and an unreadable one is
        empty too: everything it would have vouched for is then re-proved)."""
        path = path if path is not None else PATH
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return cls({}, path)
        answers = data.get("answers") if isinstance(data, dict) and data.get("format") == FORMAT else None
        if not isinstance(answers, dict):
            return cls({}, path)
        return cls({str(k): str(v) for k, v in answers.items() if isinstance(v, str)}, path)

    def vouches_for(self, record: Mapping[str, Any]) -> bool:
        """Whether ``record``'s answers are the ones last proved for its puzzle."""
        return self.answers.get(str(record.get("puzzle"))) == answers_digest(record)

    def proved(self, record: Mapping[str, Any]) -> None:
        """``record``'s answers were computed or re-proved from nothing."""
        puzzle, digest = str(record.get("puzzle")), answers_digest(record)
        if self.answers.get(puzzle) != digest:
            self.answers[puzzle] = digest
            self.dirty = True

    def save(self) -> None:
        if self.dirty:
            write(self.path, {"format": FORMAT, "answers": dict(sorted(self.answers.items()))})
            self.dirty = False
