"""The "Italian 2nd edition draft" page of each compared game: the English 2nd-edition rules in
Italian, paragraph by paragraph, from the official Italian 1st edition where the section did not change
and from this project's translation where it changed, each paragraph labelled with its source.

A section changed (:func:`.units.section_changes`) when a curated edition note names it, a reviewed
finding says its rule changed, or its step numbers do not line up with the English ones: all its
paragraphs, heading and charts are then the project's translation of the 2nd edition, never the 1st
edition's text, and the page says why above them (the notes' titles, linked to the differences page).

The project's translations of changed paragraphs live in ``data/editions/<game>.draft-it.yaml``
(``section``, the English text ``en`` they translate, the Italian ``it``); a changed paragraph
without one is shown in English, labelled as still to translate. Sections only the English has use
the project's translation of the whole section (``data/rules/<game>/translations.it.md``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from .. import i18n
from ..errors import Problems
from ..render import Page, escape_text, front_matter
from ..yamlio import load_yaml, yaml_path
from .align import plain
from .editions import EDITIONS_DIR
from .model import normalise
from .units import SectionChange, TranslationUnit, UnitState, game_units
from ..site_data import FeatureKey
from .editions import EDITION_REPORTS

if TYPE_CHECKING:
    from ..rules import Game
    from ..site_data import SiteData
    from .editions import Note


class DraftSource(str, Enum):
    """Where a paragraph of the draft comes from."""

    OFFICIAL_IT = "official-it"
    """The official Italian 1st edition, the rule unchanged."""
    PROJECT = "project"
    """This project's translation of the English 2nd edition."""
    PROJECT_HEADING = "project-heading"
    """A heading no rulebook prints: the project wrote it (``heading: project`` in the rules file)."""
    ENGLISH = "english"
    """Not translated yet: the English 2nd-edition text itself."""


@dataclass(frozen=True)
class DraftTranslation:
    """The project's Italian for one changed English paragraph."""

    section: str
    """Section id."""
    en: str
    """The English 2nd-edition text it translates (compared normalised, markup aside)."""
    it: str
    """The Italian translation."""
    line: int | None
    """Line in the file (None: not known)."""


DRAFT_TRANSLATIONS: FeatureKey[dict[str, list[DraftTranslation]]] = FeatureKey("draft_translations", dict)
"""The project's Italian translations of the English 2nd edition's paragraphs, by game id (the
``check`` feature's data; read after the edition reports, against which they are checked)."""


def load_draft_translations(file: Path, game: Game, problems: Problems) -> list[DraftTranslation]:
    """``data/editions/<game>.draft-it.yaml``: ``translations: [{section, en, it}, ...]``."""
    data, located = load_yaml(file)
    raw = data.get("translations") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        problems.add(file, "translations", "expected a list under 'translations:'", located.line("translations"))
        return []
    out = []
    for index, entry in enumerate(raw):
        where = ("translations", index)
        if not isinstance(entry, dict) or set(entry) != {"section", "en", "it"} or \
                not all(isinstance(entry[k], str) and entry[k].strip() for k in ("section", "en", "it")):
            problems.add(file, yaml_path(*where), f"expected {{section: id, en: English text, it: Italian text}}, "
                         f"got {entry!r}"[:200], located.line(*where))
            continue
        if entry["section"] not in game.sections:
            problems.add(file, yaml_path(*where, "section"), f"unknown section {entry['section']!r}: expected a "
                         f"section id of {game.id}", located.line(*where, "section"))
            continue
        out.append(DraftTranslation(entry["section"], entry["en"].strip(), entry["it"].strip(), located.line(*where)))
    return out


def _key(section: str, text: str) -> tuple[str, str]:
    return section, normalise(plain(text.replace("\n", " ")))


@dataclass(frozen=True)
class DraftParagraph:
    """One paragraph of the draft."""

    unit: TranslationUnit
    """The unit it renders."""
    source: DraftSource
    """Where its text comes from."""
    text: str
    """The text shown."""


def draft_paragraphs(units: list[TranslationUnit], translations: list[DraftTranslation]) -> list[DraftParagraph]:
    """The draft of a game: every unit the English 2nd edition has, in reading order: sections in the
    order of the game, a section's units in the order of its English text (pairing with the Italian
    can swap them: the 1st edition's Phase 2 steps 1, 3, 2). A heading the source does not print is
    labelled as the project's heading, not as a translation or as official text."""
    by_key = {_key(t.section, t.en): t for t in translations}
    sections: dict[str, list[TranslationUnit]] = {}
    for unit in units:
        if unit.en is not None:  # None: left out of the 2nd edition
            sections.setdefault(unit.section, []).append(unit)
    out = []
    for section_units in sections.values():
        for unit in sorted(section_units, key=lambda u: (u.en_order if u.en_order is not None else u.position,
                                                          u.position)):
            assert unit.en is not None
            own = by_key.get(_key(unit.section, unit.en))
            if unit.state is UnitState.UNCHANGED:
                source = DraftSource.PROJECT_HEADING if "it" in unit.project_heading else DraftSource.OFFICIAL_IT
                out.append(DraftParagraph(unit, source, unit.it or ""))  # unchanged: both sides exist
                continue
            if own is not None:
                text: str | None = own.it
            elif unit.state is UnitState.EN_ONLY and unit.translation:
                text = unit.translation
            else:
                out.append(DraftParagraph(unit, DraftSource.ENGLISH, unit.en))
                continue
            source = DraftSource.PROJECT_HEADING if "en" in unit.project_heading else DraftSource.PROJECT
            out.append(DraftParagraph(unit, source, text or ""))
    return out


def unused_translations(units: list[TranslationUnit], translations: list[DraftTranslation]) -> list[DraftTranslation]:
    """Translations whose English text no unit has any more (the text changed): stale."""
    keys = {_key(u.section, u.en) for u in units if u.en is not None}
    return [t for t in translations if _key(t.section, t.en) not in keys]


UI = i18n.namespace("draft")
"""This feature's interface strings: ``draft.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""

SOURCE_LABEL = i18n.enum_labels("draft.source_labels", DraftSource)
"""The label each paragraph carries, in the page's language."""

GUIDE_LABEL = i18n.enum_labels("draft.guide_labels", DraftSource)
"""What each label means, for the review guide, in the page's language."""

SOURCE_CLASS = {DraftSource.OFFICIAL_IT: "cellula-draft-official", DraftSource.PROJECT: "cellula-draft-project",
                DraftSource.PROJECT_HEADING: "cellula-draft-project", DraftSource.ENGLISH: "cellula-draft-english"}


def _line(line: str) -> str:
    raw = re.sub(r"[*_`]+", "", line)                              # emphasis dropped without leaving a space
    text = re.sub(r"^(?:[-+]\s+)", "", plain(raw).lstrip("# "))      # a list item's marker: one item per line already
    return escape_text(text).replace("<", "&lt;")


def _paragraph(paragraph: DraftParagraph, lang: str) -> str:
    lines = paragraph.text.split("\n")
    if any(line.lstrip().startswith("|") for line in lines):
        text = "<br>".join(_line(line) for line in lines)  # a chart's rows stay one per line
    else:
        text = _line(" ".join(lines))
    text_lang = "en" if paragraph.source is DraftSource.ENGLISH else "it"
    label = SOURCE_LABEL[lang][paragraph.source]
    return (f'<p class="cellula-draft" data-source="{paragraph.source.value}" lang="{text_lang}">'
            f'<span class="cellula-draft-source {SOURCE_CLASS[paragraph.source]}" lang="{lang}">{label}</span> '
            f"{text}</p>")


def section_title(game: Game, section_id: str, paragraphs: list[DraftParagraph]) -> str:
    """The heading the draft gives a section: in a changed section the project's translation of the
    English heading (never the 1st edition's, which may state the old rule: 'the 2 cheapest cards'),
    elsewhere the Italian text's own title."""
    section = game.sections[section_id]
    own = section.texts["it"].title if "it" in section.texts else section.texts["en"].title
    if not any(p.unit.change for p in paragraphs):
        return own
    heading = next((p for p in paragraphs if p.unit.heading
                    and p.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING) and "\n" not in p.text), None)
    if heading is not None:
        return plain(re.sub(r"[*_`]+", "", heading.text))
    return section.texts["it"].title if "it" in section.texts and section.texts["it"].translated else own


def _change_notice(change: SectionChange, notes: dict[str, Note], lang: str) -> str:
    """Why a changed section is translated from the 2nd edition: the curated notes (linked to the
    differences page), the number of reviewed findings, the step numbers that do not line up. A
    Markdown block (md_in_html), so MkDocs resolves the links in the online and offline builds alike."""
    ui = UI[lang]
    parts = []
    if change.notes:
        links = [f"[{_link_text(notes[n].title[lang] if n in notes else n)}](differences.md#note-{n})" for n in change.notes]
        parts.append(ui["changed_notes"].format(notes="; ".join(links)))
    if change.findings:
        parts.append(ui["changed_findings"].format(count=len(change.findings)))
    if change.steps:
        parts.append(ui["changed_steps"].format(steps=escape_text(", ".join(change.steps))))
    return (f'<div class="cellula-draft-change" data-section="{change.section}" markdown>\n'
            f'{ui["changed"]} {" ".join(parts)}\n</div>')


def _link_text(text: str) -> str:
    """Data text as a link's text: escaped, without the brackets that would end it."""
    return escape_text(text).replace("[", "(").replace("]", ")")


def review_guide(game: Game, lang: str) -> list[str]:
    """The translator's review guide: what each label means, how to report a wrong one, how to take
    only the changed sections into a CAT tool."""
    ui = UI[lang]
    return [f"## {ui['guide_title']} {{ #review-guide }}", "",
            *[f"- **{SOURCE_LABEL[lang][source]}**: {GUIDE_LABEL[lang][source]}" for source in DraftSource],
            f"- {ui['guide_changed']}", "",
            ui["guide_report"].format(game=game.id), "",
            ui["guide_xliff"].format(changed=f"{game.id}.it-2e.changed.xliff12.xlf", full=f"{game.id}.it-2e.xliff12.xlf"), ""]


def draft_markdown(game: Game, paragraphs: list[DraftParagraph], lang: str,
                   notes: dict[str, Note] | None = None) -> str:
    """The page's Markdown: intro, counts, review guide, then chapters and sections with labelled
    paragraphs, each changed section with the reasons it changed."""
    ui = UI[lang]
    counts = {s.value: sum(p.source is s for p in paragraphs) for s in DraftSource}
    counts["project"] += counts["project-heading"]
    lines = [front_matter({"title": f"{ui['title']} · {game.title[lang]}"}), "",
             f"# {ui['title']}: {escape_text(game.title[lang])}", "",
             ui["intro"], "",
             ui["counts"].format(official=counts["official-it"], project=counts["project"], english=counts["english"]),
             "", f"[{ui['xliff12']}]({game.id}.it-2e.xliff12.xlf) · [{ui['xliff12_changed']}]({game.id}.it-2e.changed.xliff12.xlf) · "
             f"[{ui['xliff']}]({game.id}.it-2e.xlf) · [{ui['xliff_changed']}]({game.id}.it-2e.changed.xlf) · "
             f"[{ui['differences']}](differences.md)", "", *review_guide(game, lang)]
    by_section: dict[str, list[DraftParagraph]] = {}
    for paragraph in paragraphs:
        by_section.setdefault(paragraph.unit.section, []).append(paragraph)
    for chapter in game.chapters:
        sections = [s for s in chapter.sections if s in by_section]
        if not sections:
            continue
        lines += [f"## {escape_text(chapter.title['it'])}", ""]
        for section_id in sections:
            section = game.sections[section_id]
            title = section_title(game, section_id, by_section[section_id])
            lines += [f"### {escape_text(title)} {{ #{section.anchor} }}", ""]
            change = by_section[section_id][0].unit.change
            if change is not None:
                lines += [_change_notice(change, notes or {}, lang), ""]
            for paragraph in by_section[section_id]:
                lines += [_paragraph(paragraph, lang), ""]
    return "\n".join(lines)


def draft_pages(site: SiteData, lang: str) -> list[Page]:
    """Page producer: ``<game>/draft-it-2e.md`` for every compared game."""
    reports = site.get(EDITION_REPORTS)
    pages = []
    for game_id, report in reports.items():
        game = site.games[game_id]
        units = game_units(game, site.glossary, report.findings)
        translations = site.get(DRAFT_TRANSLATIONS).get(game_id, [])
        paragraphs = draft_paragraphs(units, translations)
        notes = {n.id: n for n in report.notes}
        pages.append(Page(lang, f"{game_id}/draft-it-2e.md", UI[lang]["title"],
                          draft_markdown(game, paragraphs, lang, notes), nav=(game.title[lang],), tooltips=False))
    return pages


def load_drafts(site: SiteData, problems: Problems) -> dict[str, list[DraftTranslation]]:
    """Feature loader: each compared game's draft translations (stale ones reported)."""
    out = {}
    for game_id, report in site.get(EDITION_REPORTS).items():
        game = site.games[game_id]
        file = site.data_dir / EDITIONS_DIR / f"{game_id}.draft-it.yaml"
        if not file.exists():
            continue
        translations = load_draft_translations(file, game, problems)
        units = game_units(game, site.glossary, report.findings)
        for stale in unused_translations(units, translations):
            problems.add(file, f"translations ({stale.section})", "stale: no paragraph of the English 2nd edition "
                         "has this 'en' text any more: expected it updated or removed", stale.line)
        out[game_id] = translations
    return out

