"""The vocabulary of the edition check: check ids, severities, review statuses and findings."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .align import Pair, Segment


class CheckId(str, Enum):
    """Every check the edition check runs."""

    NUM_MISMATCH = "NUM_MISMATCH"
    TERM_MISSING = "TERM_MISSING"
    TERM_FORBIDDEN = "TERM_FORBIDDEN"
    TERM_VARIANTS = "TERM_VARIANTS"
    ALIGN_ONLY_IT = "ALIGN_ONLY_IT"
    ALIGN_ONLY_EN = "ALIGN_ONLY_EN"
    SEG_INCONSISTENT = "SEG_INCONSISTENT"
    INTERNAL = "INTERNAL"
    SPELLING = "SPELLING"
    TERM_TYPO = "TERM_TYPO"
    COLOUR_MISMATCH = "COLOUR_MISMATCH"
    NAME_MISMATCH = "NAME_MISMATCH"
    NUMWORD_MISMATCH = "NUMWORD_MISMATCH"
    CLAUSE_ONLY = "CLAUSE_ONLY"
    QA_BRACKETS = "QA_BRACKETS"
    QA_REPEATED_WORD = "QA_REPEATED_WORD"
    QA_DOUBLE_SPACE = "QA_DOUBLE_SPACE"
    EDITION_NOTE = "EDITION_NOTE"


class Severity(str, Enum):
    """How much a finding matters to a player."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY = {
    CheckId.NUM_MISMATCH: Severity.ERROR,
    CheckId.TERM_MISSING: Severity.WARNING,
    CheckId.TERM_FORBIDDEN: Severity.ERROR,
    CheckId.TERM_VARIANTS: Severity.WARNING,
    CheckId.ALIGN_ONLY_IT: Severity.WARNING,
    CheckId.ALIGN_ONLY_EN: Severity.WARNING,
    CheckId.SEG_INCONSISTENT: Severity.WARNING,
    CheckId.INTERNAL: Severity.ERROR,
    CheckId.SPELLING: Severity.WARNING,
    CheckId.TERM_TYPO: Severity.WARNING,
    CheckId.COLOUR_MISMATCH: Severity.ERROR,
    CheckId.NAME_MISMATCH: Severity.WARNING,
    CheckId.NUMWORD_MISMATCH: Severity.ERROR,
    CheckId.CLAUSE_ONLY: Severity.WARNING,
    CheckId.QA_BRACKETS: Severity.INFO,
    CheckId.QA_REPEATED_WORD: Severity.WARNING,
    CheckId.QA_DOUBLE_SPACE: Severity.INFO,
    CheckId.EDITION_NOTE: Severity.INFO,
}
"""The severity of each check."""


class Status(str, Enum):
    """Review status of a finding: open until a person classifies it in the allowlist."""

    OPEN = "open"
    EDITION_CHANGE = "edition-change"
    TRANSLATION_ERROR = "translation-error"
    TERMINOLOGY = "terminology"
    TYPO = "typo"
    FALSE_POSITIVE = "false-positive"


REVIEWED = tuple(s for s in Status if s is not Status.OPEN)
"""The statuses an allowlist entry may give."""


@dataclass(frozen=True)
class Finding:
    """One difference found between (or inside) the texts of a game."""

    check: CheckId
    """Which check found it."""
    game: str
    """Game id."""
    section: str
    """Section id the finding belongs to."""
    it: str
    """The Italian text involved ('' when none)."""
    en: str
    """The English text involved ('' when none)."""
    evidence: dict[str, Any]
    """Machine-readable details (the differing numbers, the term and its forms, ...)."""
    message: str
    """One line for people."""
    key: str = ""
    """Discriminator between findings of one check on the same texts (a term id, a side)."""
    status: Status = Status.OPEN
    """Review status, from the allowlist."""
    note: str | None = None
    """Id of the curated note that explains it, when the allowlist links one."""

    @property
    def severity(self) -> Severity:
        return SEVERITY[self.check]

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.check, self.game, self.section, self.it, self.en, self.key)

    def as_json(self) -> dict[str, Any]:
        return {"check": self.check.value, "severity": self.severity.value, "game": self.game,
                "section": self.section, "it": self.it, "en": self.en, "evidence": self.evidence,
                "message": self.message, "status": self.status.value, "fingerprint": self.fingerprint,
                "note": self.note}


def normalise(text: str) -> str:
    """Text as compared and fingerprinted: no Markdown emphasis, accents folded, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"[*_`#>|]+", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def fingerprint(check: CheckId, game: str, section: str, it: str, en: str, key: str = "") -> str:
    """Stable 12-hex id of a finding: check, place, normalised texts and discriminator."""
    raw = "\x1f".join([check.value, game, section, normalise(it), normalise(en), key])
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class SectionPair:
    """The two official texts of one rule section (either side may be missing)."""

    game: str
    """Game id."""
    section: str
    """Section id."""
    it: str | None
    """Italian official text (heading line + body), None when the rule is English-only."""
    en: str | None
    """English official text (heading line + body), None when the rule is Italian-only."""
    chapter: str = ""
    """Chapter id, for grouping."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Free data for the benchmark (expected findings)."""


@dataclass(frozen=True)
class AlignedSection:
    """A section pair with its segments and their alignment."""

    pair: SectionPair
    """The texts."""
    it: list[Segment]
    """Italian segments."""
    en: list[Segment]
    """English segments."""
    pairs: list[Pair]
    """The alignment (empty when a side is missing)."""
