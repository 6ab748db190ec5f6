"""Translation units: the aligned IT/EN segments of a compared game, each with its provenance and
whether the rule it states changed between the editions. The exports (TMX, XLIFF) and the Italian
2nd-edition draft page are built from them."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..glossary import Term
from ..rules import Game
from .align import SegmentKind, plain
from .checks import align_section, matchers_for
from .model import AlignedSection
from .model import CheckId, Finding, SectionPair, Status, normalise


class UnitState(str, Enum):
    """What a 2nd-edition Italian text needs for one unit."""

    UNCHANGED = "unchanged"
    """Both official texts say the same: the Italian 1st-edition text serves as it is."""
    CHANGED = "changed"
    """The unit's section changed between the editions (:class:`SectionChange`): the Italian text must be
    redone from the English, whatever the 1st edition says beside it."""
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
    """The reviewed findings of the section whose texts touch this unit."""
    translation: str | None = None
    """This project's Italian translation of ``en`` where the section's Italian text is one."""
    change: SectionChange | None = None
    """Why the unit's section changed between the editions (None: it did not)."""
    en_order: int | None = None
    """Where the unit's English text starts in its section (the index of its first English block): the
    2nd-edition draft follows the English order, which pairing with the Italian may have changed."""
    project_heading: tuple[str, ...] = ()
    """Languages (``it``, ``en``) whose heading in this unit the source does not print: the project wrote
    it (``heading: project`` in the rules file)."""

    @property
    def ident(self) -> str:
        """Stable, readable id: section and position."""
        return f"{self.section}.{self.position}"


CHANGES = (Status.EDITION_CHANGE, Status.TRANSLATION_ERROR, Status.OPEN)
"""Review statuses that say the rule changed (or may have: still open). Terminology and typos leave the
rule as it is, and false positives are no difference."""

UNCHANGING_NOTES = ("terminology",)
"""Kinds of curated note that leave a section's rule and wording as the 1st edition has them (a
different name only: the glossary carries it). Every other note (an edition change, a translation
error, a typo in one edition, a rule of one edition only) makes the sections it names changed."""


@dataclass(frozen=True)
class SectionChange:
    """Why a section's 2nd-edition Italian text cannot be the 1st edition's: the causes found."""

    section: str
    """Section id."""
    notes: tuple[str, ...] = ()
    """Ids of the curated edition notes that name the section."""
    findings: tuple[Finding, ...] = ()
    """The reviewed findings of the section that say its rule changed (:data:`CHANGES`)."""
    steps: tuple[str, ...] = ()
    """Step numbers that do not line up: an Italian step paired with an English step of another number
    or with an English paragraph the 2nd edition does not number ('6≠–': the 2nd edition may number
    another step so, as it does its card dealing '6.'), or a number the official Italian paragraphs of
    the draft skip ('1, 2, 4'). The 1st edition's steps cannot stand for the 2nd edition's one by one
    there."""


def step_mismatches(section: AlignedSection) -> tuple[str, ...]:
    """The step numbers of an aligned section that do not line up (see :attr:`SectionChange.steps`):
    ``'3≠2'`` for an Italian step 3 paired with English step 2, ``'6≠–'`` for an Italian step 6 paired
    with an English paragraph without a number, ``'skips 3'`` when the Italian steps kept in the 2nd
    edition go 2, 4."""
    out: list[str] = []
    kept: list[int] = []
    for unit in section.pairs:
        if not (unit.it and unit.en):
            continue
        markers = {lang: [int(s.marker) for s in getattr(unit, lang)
                          if s.marker and s.kind is not SegmentKind.HEADING] for lang in ("it", "en")}
        if markers["it"] and markers["it"] != markers["en"]:
            out.append(f"{'+'.join(map(str, markers['it']))}≠{'+'.join(map(str, markers['en'])) or '–'}")
        kept += markers["it"]
    for before, after in zip(kept, kept[1:]):
        if after > before + 1 and before != 0:
            out += [f"skips {n}" for n in range(before + 1, after)]
    return tuple(out)


def section_changes(game: Game, findings: list[Finding],
                    steps: dict[str, tuple[str, ...]] | None = None) -> dict[str, SectionChange]:
    """Every section of ``game`` that changed between the editions, by id: named by a curated edition
    note (not a terminology one), touched by a reviewed finding that says the rule changed, or with
    step numbers that do not line up (``steps``, from :func:`step_mismatches`)."""
    notes: dict[str, list[str]] = {}
    changing: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.check is CheckId.EDITION_NOTE:
            if finding.evidence.get("kind") not in UNCHANGING_NOTES:
                for section in finding.evidence.get("sections", [finding.section]):
                    notes.setdefault(section, []).append(finding.key)
        elif finding.status in CHANGES:
            changing.setdefault(finding.section, []).append(finding)
    out = {}
    for section in game.sections:
        cause = SectionChange(section, tuple(notes.get(section, ())), tuple(changing.get(section, ())),
                              (steps or {}).get(section, ()))
        if cause.notes or cause.findings or cause.steps:
            out[section] = cause
    return out


def _touches(finding: Finding, texts: list[str]) -> bool:
    haystack = normalise(plain(finding.it)) + "\n" + normalise(plain(finding.en))
    return any(t and t in haystack for t in texts)


def game_units(game: Game, glossary: list[Term], findings: list[Finding]) -> list[TranslationUnit]:
    """Every unit of ``game``, sections in reading order. Sections with both official texts are
    aligned as the edition check aligns them; a section with one official text gives one-sided units
    (with the project's translation beside an English-only text)."""
    matchers = matchers_for(glossary, game.id)
    aligned_sections: dict[str, AlignedSection] = {}
    for chapter in game.chapters:
        for section_id in chapter.sections:
            it, en = game.sections[section_id].texts.get("it"), game.sections[section_id].texts.get("en")
            if it and en and not it.translated and not en.translated:
                aligned_sections[section_id] = align_section(SectionPair(
                    game.id, section_id, f"## {it.title}\n{it.body}", f"## {en.title}\n{en.body}", chapter.id), matchers)
    changes = section_changes(game, findings, steps={s: step_mismatches(a) for s, a in aligned_sections.items()})
    relevant = [f for f in findings if f.check is not CheckId.EDITION_NOTE and f.status in CHANGES]
    by_section: dict[str, list[Finding]] = {}
    for finding in relevant:
        by_section.setdefault(finding.section, []).append(finding)
    out: list[TranslationUnit] = []
    for chapter in game.chapters:
        for section_id in chapter.sections:
            section = game.sections[section_id]
            change = changes.get(section_id)
            texts = section.texts
            it, en = texts.get("it"), texts.get("en")
            it_text = f"## {it.title}\n{it.body}" if it else None
            en_text = f"## {en.title}\n{en.body}" if en else None
            if section_id in aligned_sections:
                assert it and en, "aligned sections have both official texts"
                for position, unit in enumerate(aligned_sections[section_id].pairs):
                    seg_texts = [normalise(plain(s.text)) for s in unit.it + unit.en]
                    reasons = tuple(f for f in by_section.get(section_id, []) if _touches(f, seg_texts))
                    heading = any(s.index == 0 for s in unit.it + unit.en)
                    by_project = tuple(lang for lang, text, segs in (("it", it, unit.it), ("en", en, unit.en))
                                       if text.project_heading and any(s.index == 0 for s in segs))
                    if unit.it and unit.en:
                        state = UnitState.CHANGED if change else UnitState.UNCHANGED
                    else:
                        state = UnitState.IT_ONLY if unit.it else UnitState.EN_ONLY
                    out.append(TranslationUnit(
                        game.id, section_id, position, heading,
                        unit.text("it") if unit.it else None, unit.text("en") if unit.en else None,
                        it.source if unit.it else None, en.source if unit.en else None, state, reasons,
                        change=change, en_order=min((s.index for s in unit.en), default=None),
                        project_heading=by_project))
            elif en and not en.translated:
                translation = it_text if it and it.translated else None
                aligned = align_section(SectionPair(game.id, section_id, translation, en_text, chapter.id), matchers) \
                    if translation else None
                if aligned and all(u.it and u.en for u in aligned.pairs):
                    for position, unit in enumerate(aligned.pairs):
                        out.append(TranslationUnit(game.id, section_id, position, position == 0, None,
                                                   unit.text("en"), None, en.source, UnitState.EN_ONLY,
                                                   translation=unit.text("it"), change=change,
                                                   en_order=min((s.index for s in unit.en), default=None),
                                                   project_heading=("en",) if position == 0 and en.project_heading else ()))
                else:  # the translation does not split as the original: one unit for the section
                    out.append(TranslationUnit(game.id, section_id, 0, False, None, en_text, None, en.source,
                                               UnitState.EN_ONLY, translation=translation, change=change))
            elif it and not it.translated:
                out.append(TranslationUnit(game.id, section_id, 0, False, it_text, None, it.source, None,
                                           UnitState.IT_ONLY, change=change))
    return out

