"""The "Edition differences" page of each compared game, and the per-section counts the side-by-side
view shows as badges."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..refs import relative
from ..render import Page, escape_text, render
from .align import plain
from .model import CheckId, Finding, Status
from .editions import EDITION_REPORTS

if TYPE_CHECKING:
    from ..glossary import Term
    from ..rules import Game, Section
    from ..site_data import SiteData
    from .editions import GameReport
    from .exports import CsvLabels
    from .terms import TermMatcher

UI = i18n.namespace("check")
"""This feature's interface strings: ``check.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""

STATUS_LABEL = i18n.enum_labels("check.status_labels", Status)
"""How each review status is named on the page."""

KIND_LABEL = i18n.namespace("check.kind_labels")
"""How each note kind is named on the page."""

CHECK_LABEL = i18n.enum_labels("check.check_labels", CheckId)
"""How each check is named on the page."""

SHOWN = tuple(s for s in Status if s is not Status.FALSE_POSITIVE)
"""Findings reviewed as false positives are not differences: folded away at the end of the page."""


def highlight(text: str, needles: Sequence[str], numbers: Sequence[str] = ()) -> str:
    """Escape ``text`` for the page and wrap each word-level difference in <mark>: ``needles`` (words
    or phrases, matched case-insensitively from a word start) and ``numbers`` (whole numbers)."""
    text = escape_text(re.sub(r"\s*\n\s*", " ", text)).replace("<", "&lt;")
    text = re.sub(r"[*_`]+", "", text)
    patterns = [r"(?<![\d.,])" + re.escape(n) + r"(?![\d])" for n in sorted(set(numbers), key=len, reverse=True) if n]
    patterns += [r"(?<!\w)" + re.escape(n) + r"\w*" for n in sorted(set(needles), key=len, reverse=True) if n]
    if not patterns:
        return text
    return re.sub("(?i)" + "|".join(f"(?:{p})" for p in patterns), lambda m: f"<mark>{m.group(0)}</mark>", text)


def _side_numbers(finding: Finding) -> dict[str, list[str]]:
    """Numbers one side of the finding states and the other does not (multisets)."""
    from .numbers import multiset_difference, number_counter
    if not finding.it or not finding.en:
        return {"it": [], "en": []}
    it_only, en_only = multiset_difference(number_counter(plain(finding.it), "it"), number_counter(plain(finding.en), "en"))
    return {"it": it_only, "en": en_only}


def _side_terms(finding: Finding, matchers: dict[str, TermMatcher] | None) -> dict[str, list[str]]:
    """Glossary terms written on one side of the finding whose term the other side lacks."""
    if not finding.it or not finding.en or matchers is None:
        return {"it": [], "en": []}
    hits = {lang: matchers[lang].find(plain(getattr(finding, lang))) for lang in ("it", "en")}
    ids = {lang: {t for h in hits[lang] for t in h.terms} for lang in hits}
    return {lang: [h.surface for h in hits[lang] if not set(h.terms) & ids["en" if lang == "it" else "it"]]
            for lang in hits}


def word_differences(finding: Finding, matchers: dict[str, TermMatcher] | None = None) -> dict[str, tuple[list[str], list[str]]]:
    """lang -> (words, numbers) to mark in that side's text: what the check found (the misspelt word,
    the colours, the names, the one-sided clause...) and, where both sides are shown, the numbers and
    glossary terms one side has and the other lacks."""
    from .qa import COLOURS
    ev = finding.evidence
    words: dict[str, list[str]] = {"it": [], "en": []}
    numbers = _side_numbers(finding)
    for lang, surfaces in _side_terms(finding, matchers).items():
        words[lang] += surfaces
    check = finding.check
    if check is CheckId.NUM_MISMATCH:
        numbers = {"it": ev.get("it_only", []), "en": ev.get("en_only", [])}
    elif check is CheckId.INTERNAL:
        numbers = {ev["lang"]: ev["text"] + ev["captions"], "en" if ev["lang"] == "it" else "it": []}
    elif check is CheckId.TERM_MISSING:
        words[ev["found_in"]].append(ev.get("found", ""))
    elif check in (CheckId.TERM_FORBIDDEN, CheckId.SPELLING, CheckId.TERM_TYPO, CheckId.QA_REPEATED_WORD):
        side = ev.get("lang", "it")
        words[side].append(ev.get("found") or ev.get("word") or "")
        if check is CheckId.QA_REPEATED_WORD:
            found = re.search(r"'([^']+)'", ev.get("detail", ""))
            words[side].append(found.group(1) if found else "")
    elif check is CheckId.TERM_VARIANTS:
        words[ev["lang"]] += list(ev.get("variants", {}))
    elif check is CheckId.COLOUR_MISMATCH:
        for lang, key in (("it", "it_only"), ("en", "en_only")):
            words[lang] += [w for w, c in COLOURS[lang].items() if c in ev.get(key, []) and len(w) > 2]
    elif check is CheckId.NAME_MISMATCH:
        words["it"].append(ev["it"])
        words["en"].append(ev["en"])
    elif check is CheckId.NUMWORD_MISMATCH:
        from .numbers import WORDS
        words[ev["lang"]] += [w for w, v in WORDS[ev["lang"]].items() if str(v) == ev["value"]]
    elif check is CheckId.CLAUSE_ONLY:
        words[ev["lang"]].append(ev["clause"])
    return {lang: (words[lang], numbers.get(lang, [])) for lang in ("it", "en")}


def _slug(value: str) -> str:
    return value.lower().replace("_", "-")


def finding_view(finding: Finding, lang: str, why: str | None = None, terms: dict[str, Term] | None = None,
                 matchers: dict[str, TermMatcher] | None = None) -> dict[str, Any]:
    """What the template shows of one finding: labels and reason in ``lang``, texts with their
    word-level differences marked, the filter values (classification, check, section)."""
    from .reasons import reason
    marks = word_differences(finding, matchers)
    return {
        "label": CHECK_LABEL[lang][finding.check], "check": _slug(finding.check.value),
        "classification": finding.status.value,
        "status": STATUS_LABEL[lang][finding.status], "reason": escape_text(reason(finding, lang, terms or {})),
        "it": highlight(finding.it, *marks["it"]) if finding.it else "",
        "en": highlight(finding.en, *marks["en"]) if finding.en else "",
        "why": why or "",
    }


SUMMARY_ORDER = ("edition-change", "translation-error", "one-sided", "terminology", "typo", "false-positive", "open")
"""Rows of the page's summary: note kinds and review statuses share their names."""


def summary_rows(report: GameReport, lang: str) -> list[tuple[str, int | None, int]]:
    """(classification, curated notes, check findings) per classification, then the totals. Every
    kind a note can have is listed, zeros included ("no translation error" is a finding in itself);
    findings still open appear only when there are some."""
    notes = {kind: sum(1 for n in report.notes if n.kind.value == kind) if kind in KIND_LABEL[lang] else None
             for kind in SUMMARY_ORDER}     # None: not a kind a note can have (false positive, open)
    checked = [f for f in report.findings if f.check is not CheckId.EDITION_NOTE]
    findings = {kind: sum(1 for f in checked if f.status.value == kind) for kind in SUMMARY_ORDER}
    labels = dict(KIND_LABEL[lang]) | {s.value: label for s, label in STATUS_LABEL[lang].items()}
    rows = [(labels[kind], notes[kind], findings[kind]) for kind in SUMMARY_ORDER
            if kind != "open" or findings[kind]]
    return rows + [(UI[lang]["total"], len(report.notes), len(checked))]


def section_counts(report: GameReport) -> dict[str, int]:
    """How many differences (notes and shown findings) each section has."""
    counts: dict[str, int] = {}
    for finding in report.findings:
        if finding.status in SHOWN and finding.check is not CheckId.EDITION_NOTE:
            counts[finding.section] = counts.get(finding.section, 0) + 1
    for note in report.notes:
        for section in note.sections:
            counts[section] = counts.get(section, 0) + 1
    return counts


def differences_links(site: SiteData, game: Game, section: Section, lang: str, page: str) -> list[tuple[str, str]]:
    """Section link hook: "≠ N differences" under a section that has notes or shown findings."""
    report = site.get(EDITION_REPORTS).get(game.id)
    if report is None:
        return []
    count = section_counts(report).get(section.id, 0)
    if not count:
        return []
    href = relative(page, f"{game.id}/differences.md") + "#" + section.anchor
    word = UI[lang]["differences_badge_one" if count == 1 else "differences_badge"]
    return [(f"≠ {count} {word}", href)]


def _empty() -> dict[str, Any]:
    return {"notes": [], "findings": [], "refs": []}


def review_reason(report: GameReport, finding: Finding, lang: str) -> str:
    """The reviewer's reason for a finding in ``lang``: ``why`` (English) or ``why_it`` of its allowlist
    entry; '' when the entry gives none in that language (the page never mixes languages)."""
    return (report.reasons_it if lang == "it" else report.reasons).get(finding.fingerprint, "")


def _section_titles(game: Game, lang: str) -> dict[str, str]:
    return {sid: section.texts[lang].title for sid, section in game.sections.items() if lang in section.texts}


def csv_labels(lang: str, terms: dict[str, Term]) -> CsvLabels:
    """The CSV export's labels in ``lang``: classification, check and reason as on the page."""
    from .reasons import reason
    from .exports import CSV_COLUMNS
    columns = {c: UI[lang]["csv_columns"][c] for c in CSV_COLUMNS}
    return {"columns": columns, "status": STATUS_LABEL[lang], "check": CHECK_LABEL[lang],
            "message": lambda f: reason(f, lang, terms)}


def differences_pages(site: SiteData, lang: str) -> list[Page]:
    """Page producer: ``<game>/differences.md`` for every compared game (curated notes, then the
    findings by chapter and section with filters kept in the URL), the page's CSV export
    ``<game>/differences.csv``, and the translators' files (``<game>/<game>.tmx``, ``.it-2e.xlf``,
    ``glossary.tbx`` with the ``glossary.xcs`` its header names) beside it."""
    from .checks import matchers_for
    from .exports import (BILINGUAL_TBX, SERVED_STANDARDS, TBX_XCS, bilingual_tbx_name, findings_csv, game_exports,
                          served_standard, tbx, tbx_xcs)
    reports = site.get(EDITION_REPORTS)
    terms = {t.id: t for t in site.glossary}
    pages = []
    for game_id, report in reports.items():
        game = site.games[game_id]
        ui = UI[lang]
        matchers = matchers_for(site.glossary, game_id)

        def where(section_id: str) -> dict[str, Any]:
            section = game.sections[section_id]
            chapter = next(c for c in game.chapters if section_id in c.sections)
            return {"id": section_id, "anchor": section.anchor, "title": section.texts[lang].title,
                    "chapter": chapter.id}

        notes = [{"id": n.id, "kind": KIND_LABEL[lang][n.kind.value], "title": n.title[lang], "text": n.text[lang],
                  "follow": n.follow[lang], "sections": [where(s) for s in n.sections]} for n in report.notes]
        shown: dict[str, list[dict[str, Any]]] = {}
        checked = [f for f in report.findings if f.check is not CheckId.EDITION_NOTE]
        for finding in checked:
            view = finding_view(finding, lang, review_reason(report, finding, lang), terms, matchers)
            shown.setdefault(finding.section, []).append(view)
        note_refs: dict[str, list[dict[str, Any]]] = {}
        for note in notes:
            for s in note["sections"]:
                note_refs.setdefault(s["id"], []).append({"id": note["id"], "title": note["title"]})
        chapters: list[dict[str, Any]] = []  # the template's context: mixed values by key
        for chapter in game.chapters:
            # Every section a badge points to gets a heading here, notes-only sections included.
            sections = [where(s) | {"findings": shown.get(s, []), "notes": note_refs.get(s, [])}
                        for s in chapter.sections if s in shown or s in note_refs]
            if sections:
                chapters.append({"id": chapter.id, "title": chapter.title[lang], "sections": sections})
        present = {f.status for f in checked}
        classifications = [(s.value, STATUS_LABEL[lang][s]) for s in Status if s in present]
        used = {f.check for f in checked}
        checks = [(_slug(c.value), CHECK_LABEL[lang][c]) for c in CheckId if c in used]
        section_options = [(s["anchor"], f"{c['title']} › {s['title']}") for c in chapters for s in c["sections"]]
        exports = {e.name: e for e in game_exports(site, game_id)}
        downloads = [("differences.csv", ui["csv"]),
                     (f"{game_id}.tmx", ui["tmx"]), (f"{game_id}.it-2e.xliff12.xlf", ui["xliff12"]),
                     (f"{game_id}.it-2e.xlf", ui["xliff"]),
                     ("../glossary.tbx", ui["tbx"]),
                     *[(f"../{bilingual_tbx_name(pair)}", ui["tbx_pair"].format(
                         source=ui["lang_codes"][pair[0]], target=ui["lang_codes"][pair[1]])) for pair in BILINGUAL_TBX],
                     (f"../{TBX_XCS}", ui["xcs"]),
                     *[(f"../{name}", ui["dtd"].format(name=name)) for name in SERVED_STANDARDS]]
        summary = summary_rows(report, lang)
        title = game.title[lang]
        pages.append(Page(lang, f"{game_id}/differences.md", ui["title"], render(
            "differences.md.j2", ui=ui, lang=lang, game_title=title, chapters=chapters, notes=notes,
            summary=summary, classifications=classifications, checks=checks, sections=section_options,
            total=len(checked), downloads=downloads, draft="draft-it-2e.md",
        ), nav=(title,)))
        pages.append(Page(lang, f"{game_id}/differences.csv", ui["title"],
                          findings_csv(report.findings, csv_labels(lang, terms), _section_titles(game, lang),
                                       report.reasons_it if lang == "it" else report.reasons),
                          in_nav=False))
        for name in (f"{game_id}.tmx", f"{game_id}.it-2e.xlf", f"{game_id}.it-2e.changed.xlf",
                     f"{game_id}.it-2e.xliff12.xlf", f"{game_id}.it-2e.changed.xliff12.xlf"):
            pages.append(Page(lang, f"{game_id}/{name}", name, exports[name].content, in_nav=False))
    if reports:
        pages.append(Page(lang, "glossary.tbx", "glossary.tbx", tbx(site.glossary), in_nav=False))
        for pair in BILINGUAL_TBX:
            name = bilingual_tbx_name(pair)
            pages.append(Page(lang, name, name, tbx(site.glossary, pair, every_language=True), in_nav=False))
        pages.append(Page(lang, TBX_XCS, TBX_XCS, tbx_xcs(), in_nav=False))
        for name in SERVED_STANDARDS:  # the DTDs the TBX and the XCS name, beside them as a checker looks for them
            pages.append(Page(lang, name, name, served_standard(name), in_nav=False))
    return pages

