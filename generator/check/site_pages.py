"""The "Edition differences" page of each compared game, and the per-section counts the side-by-side
view shows as badges."""
from __future__ import annotations

from ..refs import relative

import re


from .. import features
from ..render import Page, escape_text, render
from .model import CheckId, Finding, Status

UI = {
    "it": {
        "title": "Differenze tra edizioni",
        "intro": "Ogni differenza tra il regolamento ufficiale italiano (1ª edizione) e quello inglese "
                 "(2ª edizione, con le regole dell'Espansione Virus), sezione per sezione: le note curate "
                 "dal progetto e le differenze trovate dal controllo automatico (`python -m generator check`), "
                 "ciascuna con la sua classificazione. I numeri e i termini che differiscono sono evidenziati.",
        "summary": "Riepilogo", "status": "Classificazione", "notes_column": "Note curate",
        "findings_column": "Segnalazioni del controllo", "total": "Totale",
        "note": "Nota", "follow": "Quale regola seguire", "found": "Differenze trovate dal controllo",
        "compare": "Confronto IT/EN", "rules": "Leggi nelle regole", "it_text": "Testo italiano",
        "en_text": "Testo inglese", "it_only": "solo IT", "en_only": "solo EN", "none": "(nessun testo)",
        "differences_badge": "differenze", "notes": "Note curate", "by_section": "Differenze per sezione",
        "false_positives": "Falsi positivi del controllo", "fp_intro": "Segnalazioni del controllo automatico che, rilette una per una, non sono differenze (il controllo sbaglia): elencate per trasparenza.",
        "why": "Motivo", "no_findings": "Nessuna differenza trovata dal controllo oltre alle note.",
    },
    "en": {
        "title": "Edition differences",
        "intro": "Every difference between the official Italian rulebook (1st edition) and the English one "
                 "(2nd edition, with the Virus expansion rules), section by section: the project's curated "
                 "notes and the differences found by the automatic check (`python -m generator check`), each "
                 "with its classification. Differing numbers and terms are highlighted.",
        "summary": "Summary", "status": "Classification", "notes_column": "Curated notes",
        "findings_column": "Findings of the check", "total": "Total",
        "note": "Note", "follow": "Which rule to follow", "found": "Differences found by the check",
        "compare": "IT/EN side by side", "rules": "Read in the rules", "it_text": "Italian text",
        "en_text": "English text", "it_only": "IT only", "en_only": "EN only", "none": "(no text)",
        "differences_badge": "differences", "notes": "Curated notes", "by_section": "Differences by section",
        "false_positives": "False positives of the check", "fp_intro": "Findings of the automatic check that, read one by one, are not differences (the check is wrong): listed for transparency.",
        "why": "Reason", "no_findings": "No difference found by the check beyond the notes.",
    },
}
"""This page's interface strings (kept here: data/ui.yaml belongs to the core pages)."""

STATUS_LABEL = {
    "it": {Status.OPEN: "da rivedere", Status.EDITION_CHANGE: "cambio di edizione",
           Status.TRANSLATION_ERROR: "errore di traduzione", Status.TERMINOLOGY: "terminologia",
           Status.TYPO: "refuso", Status.FALSE_POSITIVE: "falso positivo"},
    "en": {Status.OPEN: "to review", Status.EDITION_CHANGE: "edition change",
           Status.TRANSLATION_ERROR: "translation error", Status.TERMINOLOGY: "terminology",
           Status.TYPO: "typo", Status.FALSE_POSITIVE: "false positive"},
}
"""How each review status is named on the page."""

KIND_LABEL = {
    "it": {"edition-change": "cambio di edizione", "translation-error": "errore di traduzione",
           "terminology": "terminologia", "typo": "refuso", "one-sided": "regola di una sola edizione"},
    "en": {"edition-change": "edition change", "translation-error": "translation error",
           "terminology": "terminology", "typo": "typo", "one-sided": "one-sided rule"},
}
"""How each note kind is named on the page."""

CHECK_LABEL = {
    "it": {CheckId.NUM_MISMATCH: "Numeri diversi", CheckId.TERM_MISSING: "Termine non reso",
           CheckId.TERM_FORBIDDEN: "Termine sconsigliato", CheckId.TERM_VARIANTS: "Termine reso in più modi",
           CheckId.ALIGN_ONLY_IT: "Solo nel testo italiano", CheckId.ALIGN_ONLY_EN: "Solo nel testo inglese",
           CheckId.SEG_INCONSISTENT: "Stesso testo reso in modi diversi", CheckId.INTERNAL: "Testo in contraddizione con sé stesso",
           CheckId.EDITION_NOTE: "Nota"},
    "en": {CheckId.NUM_MISMATCH: "Numbers differ", CheckId.TERM_MISSING: "Term not rendered",
           CheckId.TERM_FORBIDDEN: "Forbidden term", CheckId.TERM_VARIANTS: "Term written several ways",
           CheckId.ALIGN_ONLY_IT: "Italian text only", CheckId.ALIGN_ONLY_EN: "English text only",
           CheckId.SEG_INCONSISTENT: "Same text rendered differently", CheckId.INTERNAL: "Text contradicts itself",
           CheckId.EDITION_NOTE: "Note"},
}
"""How each check is named on the page."""

SHOWN = tuple(s for s in Status if s is not Status.FALSE_POSITIVE)
"""Findings reviewed as false positives are not differences: folded away at the end of the page."""


def highlight(text: str, needles: list[str], numbers: bool) -> str:
    """Escape ``text`` for the page and wrap each needle (a number, or a term's words) in <mark>."""
    text = escape_text(re.sub(r"\s*\n\s*", " ", text)).replace("<", "&lt;")
    text = re.sub(r"[*_`]+", "", text)
    for needle in sorted(set(needles), key=len, reverse=True):
        if not needle:
            continue
        pattern = (r"(?<![\d.,])" + re.escape(needle) + r"(?![\d])") if numbers else \
            r"(?i)(?<!\w)" + re.escape(needle) + r"\w*"
        text = re.sub(pattern, lambda m: f"<mark>{m.group(0)}</mark>", text)
    return text


def finding_view(finding: Finding, lang: str, why: str | None = None) -> dict:
    """What the template shows of one finding."""
    ev = finding.evidence
    chips, needles_it, needles_en, numbers = [], [], [], False
    if finding.check is CheckId.NUM_MISMATCH:
        numbers = True
        needles_it, needles_en = ev.get("it_only", []), ev.get("en_only", [])
        if needles_it:
            chips.append(f"{UI[lang]['it_only']}: " + ", ".join(f"<mark>{n}</mark>" for n in needles_it))
        if needles_en:
            chips.append(f"{UI[lang]['en_only']}: " + ", ".join(f"<mark>{n}</mark>" for n in needles_en))
    elif finding.check is CheckId.TERM_MISSING:
        side = ev.get("found_in")
        chips.append(f"<code>{ev['term']}</code>: <mark>{escape_text(ev.get('found', ''))}</mark> ≠ "
                     + " / ".join(escape_text(e) for e in ev.get("expected", [])[:2]))
        (needles_it if side == "it" else needles_en).append(ev.get("found", ""))
    elif "term" in ev:
        chips.append(f"<code>{ev['term']}</code>")
        for key in ("found", "expected"):
            if isinstance(ev.get(key), str):
                (needles_it if ev.get("lang") == "it" else needles_en).append(ev[key])
        if finding.check is CheckId.TERM_VARIANTS:
            variants = list(ev.get("variants", {}))
            chips.append(" · ".join(f"<mark>{escape_text(v)}</mark> ×{ev['variants'][v]['count']}" for v in variants))
    elif finding.check is CheckId.INTERNAL:
        chips.append(f"{ev['subject']}: {'/'.join(ev['text'])} ≠ {'/'.join(ev['captions'])}")
        needles = ev["text"] + ev["captions"]
        numbers = True
        needles_it, needles_en = (needles, []) if ev.get("lang") == "it" else ([], needles)
    return {
        "label": CHECK_LABEL[lang][finding.check], "check": finding.check.value,
        "status": STATUS_LABEL[lang][finding.status], "chips": chips, "message": finding.message,
        "it": highlight(finding.it, needles_it, numbers) if finding.it else "",
        "en": highlight(finding.en, needles_en, numbers) if finding.en else "",
        "fingerprint": finding.fingerprint, "why": why or "",
    }


SUMMARY_ORDER = ("edition-change", "translation-error", "one-sided", "terminology", "typo", "false-positive", "open")
"""Rows of the page's summary: note kinds and review statuses share their names."""


def summary_rows(report, lang: str) -> list[tuple[str, int | None, int]]:
    """(classification, curated notes, check findings) per classification, then the totals. Every
    kind a note can have is listed, zeros included ("no translation error" is a finding in itself);
    findings still open appear only when there are some."""
    notes = {kind: sum(1 for n in report.notes if n.kind.value == kind) if kind in KIND_LABEL[lang] else None
             for kind in SUMMARY_ORDER}     # None: not a kind a note can have (false positive, open)
    checked = [f for f in report.findings if f.check is not CheckId.EDITION_NOTE]
    findings = {kind: sum(1 for f in checked if f.status.value == kind) for kind in SUMMARY_ORDER}
    labels = KIND_LABEL[lang] | {s.value: label for s, label in STATUS_LABEL[lang].items()}
    rows = [(labels[kind], notes[kind], findings[kind]) for kind in SUMMARY_ORDER
            if kind != "open" or findings[kind]]
    return rows + [(UI[lang]["total"], len(report.notes), len(checked))]


def section_counts(report) -> dict[str, int]:
    """How many differences (notes and shown findings) each section has."""
    counts: dict[str, int] = {}
    for finding in report.findings:
        if finding.status in SHOWN and finding.check is not CheckId.EDITION_NOTE:
            counts[finding.section] = counts.get(finding.section, 0) + 1
    for note in report.notes:
        for section in note.sections:
            counts[section] = counts.get(section, 0) + 1
    return counts


def differences_links(site, game, section, lang: str, page: str) -> list[tuple[str, str]]:
    """Section link hook: "≠ N differences" under a section that has notes or shown findings."""
    report = (site.extras.get("editions") or {}).get(game.id)
    if report is None:
        return []
    count = section_counts(report).get(section.id, 0)
    if not count:
        return []
    href = relative(page, f"{game.id}/differences.md") + "#" + section.anchor
    return [(f"≠ {count} {UI[lang]['differences_badge']}", href)]


def _empty() -> dict:
    return {"notes": [], "findings": [], "refs": []}


def differences_pages(site, lang: str) -> list[Page]:
    """Page producer: ``<game>/differences.md`` for every compared game: the curated notes first,
    then the findings grouped by chapter and section, the false positives folded away at the end."""
    reports = site.extras.get("editions") or {}
    pages = []
    for game_id, report in reports.items():
        game = site.games[game_id]
        ui = UI[lang]
        why = report.reasons

        def where(section_id: str) -> dict:
            section = game.sections[section_id]
            chapter = next(c for c in game.chapters if section_id in c.sections)
            return {"id": section_id, "anchor": section.anchor, "title": section.texts[lang].title,
                    "chapter": chapter.id}

        notes = [{"id": n.id, "kind": KIND_LABEL[lang][n.kind.value], "title": n.title[lang], "text": n.text[lang],
                  "follow": n.follow[lang], "sections": [where(s) for s in n.sections]} for n in report.notes]
        shown: dict[str, list] = {}
        false_positives = []
        for finding in report.findings:
            if finding.check is CheckId.EDITION_NOTE:
                continue
            view = finding_view(finding, lang, why.get(finding.fingerprint))
            if finding.status in SHOWN:
                shown.setdefault(finding.section, []).append(view)
            else:
                false_positives.append(where(finding.section) | {"finding": view})
        note_refs: dict[str, list] = {}
        for note in notes:
            for s in note["sections"]:
                note_refs.setdefault(s["id"], []).append({"id": note["id"], "title": note["title"]})
        chapters = []
        for chapter in game.chapters:
            # Every section a badge points to gets a heading here, notes-only sections included.
            sections = [where(s) | {"findings": shown.get(s, []), "notes": note_refs.get(s, [])}
                        for s in chapter.sections if s in shown or s in note_refs]
            if sections:
                chapters.append({"id": chapter.id, "title": chapter.title[lang], "sections": sections})
        summary = summary_rows(report, lang)
        title = game.title[lang]
        pages.append(Page(lang, f"{game_id}/differences.md", ui["title"], render(
            "differences.md.j2", ui=ui, lang=lang, game_title=title, chapters=chapters, notes=notes,
            summary=summary, false_positives=false_positives,
        ), nav=(title,)))
    return pages


if differences_links not in features.SECTION_LINKS:
    features.SECTION_LINKS.append(differences_links)
