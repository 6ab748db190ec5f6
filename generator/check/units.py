"""Translation units: the aligned IT/EN segments of a compared game, each with its provenance and
whether the rule it states changed between the editions. The exports (TMX, XLIFF) and the Italian
2nd-edition draft page are built from them."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..glossary import Term
from ..rules import Game
from .align import plain
from .checks import align_section, matchers_for
from .model import CheckId, Finding, SectionPair, Status, normalise


class UnitState(str, Enum):
    """What a 2nd-edition Italian text needs for one unit."""

    UNCHANGED = "unchanged"
    """Both official texts say the same: the Italian 1st-edition text serves as it is."""
    CHANGED = "changed"
    """An edition change or translation error touches the unit: the Italian text must be redone from the English."""
    EN_ONLY = "en-only"
    """The English 2nd edition has it, the Italian 1st edition does not."""
    IT_ONLY = "it-only"
    """Only the Italian 1st edition has it (left out of the 2nd edition)."""


@dataclass(frozen=True)
class TranslationUnit:
    """One aligned unit of a game's rules, in reading order."""

    game: str
    """Game id."""
    section: str
    """Section id."""
    position: int
    """Position of the unit in its section (0 = the heading)."""
    heading: bool
    """The unit is the section heading."""
    it: str | None
    """The official Italian 1st-edition Markdown (None when the unit has no Italian official text)."""
    en: str | None
    """The official English Markdown (None when the English texts do not have it)."""
    it_source: str | None
    """Source id of ``it`` (``it-1e``)."""
    en_source: str | None
    """Source id of ``en`` (``en-2e``, ``en-virus``)."""
    state: UnitState
    """Whether the rule changed."""
    reasons: tuple[Finding, ...] = ()
    """The reviewed findings that make the unit CHANGED."""
    translation: str | None = None
    """This project's Italian translation of ``en`` where the section's Italian text is one."""

    @property
    def ident(self) -> str:
        """Stable, readable id: section and position."""
        return f"{self.section}.{self.position}"


CHANGES = (Status.EDITION_CHANGE, Status.TRANSLATION_ERROR, Status.OPEN)
"""Review statuses that say the rule changed (or may have: still open). Terminology and typos leave the
rule as it is, and false positives are no difference."""


def _touches(finding: Finding, texts: list[str]) -> bool:
    haystack = normalise(plain(finding.it)) + "\n" + normalise(plain(finding.en))
    return any(t and t in haystack for t in texts)


def game_units(game: Game, glossary: list[Term], findings: list[Finding]) -> list[TranslationUnit]:
    """Every unit of ``game``, sections in reading order. Sections with both official texts are
    aligned as the edition check aligns them; a section with one official text gives one-sided units
    (with the project's translation beside an English-only text)."""
    matchers = matchers_for(glossary, game.id)
    relevant = [f for f in findings if f.check is not CheckId.EDITION_NOTE and f.status in CHANGES]
    by_section: dict[str, list[Finding]] = {}
    for finding in relevant:
        by_section.setdefault(finding.section, []).append(finding)
    out: list[TranslationUnit] = []
    for chapter in game.chapters:
        for section_id in chapter.sections:
            section = game.sections[section_id]
            texts = section.texts
            it, en = texts.get("it"), texts.get("en")
            it_text = f"## {it.title}\n{it.body}" if it else None
            en_text = f"## {en.title}\n{en.body}" if en else None
            if it and en and not it.translated and not en.translated:
                aligned = align_section(SectionPair(game.id, section_id, it_text, en_text, chapter.id), matchers)
                for position, unit in enumerate(aligned.pairs):
                    seg_texts = [normalise(plain(s.text)) for s in unit.it + unit.en]
                    reasons = tuple(f for f in by_section.get(section_id, []) if _touches(f, seg_texts))
                    heading = any(s.index == 0 for s in unit.it + unit.en)
                    if unit.it and unit.en:
                        state = UnitState.CHANGED if reasons else UnitState.UNCHANGED
                    else:
                        state = UnitState.IT_ONLY if unit.it else UnitState.EN_ONLY
                    out.append(TranslationUnit(
                        game.id, section_id, position, heading,
                        unit.text("it") if unit.it else None, unit.text("en") if unit.en else None,
                        it.source if unit.it else None, en.source if unit.en else None, state, reasons))
            elif en and not en.translated:
                translation = it_text if it and it.translated else None
                aligned = align_section(SectionPair(game.id, section_id, translation, en_text, chapter.id), matchers) \
                    if translation else None
                if aligned and all(u.it and u.en for u in aligned.pairs):
                    for position, unit in enumerate(aligned.pairs):
                        out.append(TranslationUnit(game.id, section_id, position, position == 0, None,
                                                   unit.text("en"), None, en.source, UnitState.EN_ONLY,
                                                   translation=unit.text("it")))
                else:  # the translation does not split as the original: one unit for the section
                    out.append(TranslationUnit(game.id, section_id, 0, False, None, en_text, None, en.source,
                                               UnitState.EN_ONLY, translation=translation))
            elif it and not it.translated:
                out.append(TranslationUnit(game.id, section_id, 0, False, it_text, None, it.source, None,
                                           UnitState.IT_ONLY))
    return out

