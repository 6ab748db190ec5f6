"""Exchange files for translators' CAT tools (OmegaT, Trados, memoQ), written by
``python -m generator check --export DIR`` and offered for download on the site:

- ``<game>.tmx``: a TMX 1.4 translation memory of the aligned IT/EN official segments, with the
  edition and provenance of each side as properties;
- ``glossary.tbx``: a TBX-Basic termbase (ISO 30042:2008 ``martif``, with the DOCTYPE of TBX-Basic's core
  structure DTD) of the glossary, EN/IT/RU, and ``glossary.xcs``, the TBX-Basic constraint specification it
  names (TBX-Basic's own XCS with the three languages declared, as TBX-Basic asks);
- ``<game>.it-2e.xlf``: an XLIFF 2.0 file preparing an Italian 2nd-edition text: the English 2nd-edition
  segments as source, the aligned Italian 1st-edition text as target where the rule did not change,
  the segment marked for review (with the project's translation as draft target) where it changed;
  ``<game>.it-2e.changed.xlf`` the same for the changed sections only (a translator's review of what
  the 2nd edition changed);
- ``<game>.findings.csv``: the edition check's findings (classification, check, section, texts).

Every file is plain text (UTF-8 XML, or CSV with a byte-order mark so that spreadsheet programs read its
accents), deterministic for the same data. ``tools/standards/`` holds the standards' own schemas and the TBX
Checker the test suite validates these files with (``tests/test_check_exports.py``).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from lxml import etree  # type: ignore[import-untyped]  # no stubs pinned

from .align import plain
from .model import CheckId, Finding, Status
from .units import TranslationUnit, UnitState, game_units
from .editions import EDITION_REPORTS
from .draft import DRAFT_TRANSLATIONS

if TYPE_CHECKING:
    from ..glossary import Term
    from ..site_data import SiteData
    from .draft import DraftTranslation

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
STANDARDS = Path(__file__).resolve().parents[2] / "tools" / "standards"
"""The standards' own artefacts (schemas, DTDs, the TBX-Basic XCS and Checker), vendored with their licences."""
TBX_BASIC_DTD = "TBXBasiccoreStructV02.dtd"
"""The TBX-Basic core structure DTD the termbase's DOCTYPE names (``tools/standards/tbx-basic-2008/``)."""
TBX_XCS = "glossary.xcs"
"""The termbase's XCS, written beside it and named by its header (``encodingDesc/p[@type='XCSURI']``)."""
TBX_LANGS: dict[str, str] = {"en": "English", "it": "Italian", "ru": "Russian"}
"""The termbase's languages in ``langSet`` order (English first: the header's language and the source
language CAT tools take from the first ``langSet``), with the names the XCS gives them."""
XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
TOOL = "Cellula edition check"
EDITION: dict[str | None, str] = {"it-1e": "Italian 1st edition (official)", "en-2e": "English 2nd edition (official)",
           "en-virus": "English Virus expansion rules (official)"}
"""How the properties name each source; other sources are named by their id."""


class CsvLabels(TypedDict):
    """The findings CSV's labels in one language (:func:`generator.check.site_pages.csv_labels`)."""

    status: Mapping[Status, str]
    check: Mapping[CheckId, str]
    message: Callable[[Finding], str]


@dataclass(frozen=True)
class ExportFile:
    """One export: its file name and content."""

    name: str
    """File name (no folder)."""
    content: str
    """UTF-8 text."""
    media: str
    """MIME type, for the download links."""


def _xml(root: etree._Element, doctype: str | None = None) -> str:
    # lxml is untyped here (etree is Any): tostring with an encoding gives bytes
    return cast(bytes, etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True,
                                      doctype=doctype)).decode("utf-8")


def segment_text(markdown: str) -> str:
    """A unit's Markdown as CAT tools want it: markup removed, one line."""
    return plain(markdown.replace("\n", " "))


def _prop(parent: etree._Element, kind: str, value: str | None) -> None:
    etree.SubElement(parent, "prop", type=kind).text = value


def tmx(game_id: str, units: list[TranslationUnit]) -> str:
    """TMX 1.4 of every unit with both official sides; source language English (the 2nd edition)."""
    root = etree.Element("tmx", version="1.4")
    etree.SubElement(root, "header", creationtool=TOOL, creationtoolversion="1", segtype="paragraph",
                     **{"o-tmf": "cellula-markdown", "adminlang": "en", "srclang": "en", "datatype": "plaintext"})
    body = etree.SubElement(root, "body")
    for unit in units:
        if unit.it is None or unit.en is None:
            continue
        tu = etree.SubElement(body, "tu", tuid=f"{game_id}.{unit.ident}")
        _prop(tu, "x-game", game_id)
        _prop(tu, "x-section", unit.section)
        _prop(tu, "x-state", unit.state.value)
        for lang, text, source in (("en", unit.en, unit.en_source), ("it", unit.it, unit.it_source)):
            tuv = etree.SubElement(tu, "tuv", {XML_LANG: lang})
            _prop(tuv, "x-edition", EDITION.get(source, source))
            _prop(tuv, "x-provenance", "official rulebook text, as extracted and sectioned by the Cellula project")
            etree.SubElement(tuv, "seg").text = segment_text(text)
    return _xml(root)


def tbx(glossary: list[Term], langs: tuple[str, ...] = tuple(TBX_LANGS)) -> str:
    """A TBX-Basic termbase (ISO 30042:2008 ``martif``) of every glossary term: one ``termEntry`` per term,
    one ``langSet`` per language with its forms (the first preferred, the others admitted) and the
    forbidden renderings (deprecated). The DOCTYPE names TBX-Basic's core structure DTD and the header
    the XCS (:func:`tbx_xcs`, which declares ``langs``), as the TBX Checker requires."""
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = etree.SubElement(root, "martifHeader")
    file_desc = etree.SubElement(header, "fileDesc")
    etree.SubElement(etree.SubElement(file_desc, "titleStmt"), "title").text = "Cellula glossary"
    etree.SubElement(etree.SubElement(file_desc, "sourceDesc"), "p").text = (
        "Glossary of the Cellula project (data/glossary.yaml): official terms of the Italian and English "
        "rulebooks, and the project's translations where a side is not printed.")
    etree.SubElement(etree.SubElement(header, "encodingDesc"), "p", type="XCSURI").text = TBX_XCS
    body = etree.SubElement(etree.SubElement(root, "text"), "body")
    for term in glossary:
        entry = etree.SubElement(body, "termEntry", id=f"term-{term.id}")
        etree.SubElement(entry, "descrip", type="subjectField").text = ", ".join(term.games)
        etree.SubElement(entry, "admin", type="source").text = "official" if term.official else "project"
        for lang in langs:
            forms = term.forms.get(lang, ())
            forbidden = term.forbidden.get(lang, ())
            if not forms and not forbidden:
                continue
            lang_set = etree.SubElement(entry, "langSet", {XML_LANG: lang})
            if term.note.get(lang):
                etree.SubElement(lang_set, "descrip", type="definition").text = term.note[lang]
            for index, form in enumerate(forms):
                tig = etree.SubElement(lang_set, "tig")
                etree.SubElement(tig, "term").text = form
                etree.SubElement(tig, "termNote", type="administrativeStatus").text = \
                    "preferredTerm-admn-sts" if index == 0 else "admittedTerm-admn-sts"
            for form in forbidden:
                tig = etree.SubElement(lang_set, "tig")
                etree.SubElement(tig, "term").text = form
                etree.SubElement(tig, "termNote", type="administrativeStatus").text = "deprecatedTerm-admn-sts"
    return _xml(root, f'<!DOCTYPE martif SYSTEM "{TBX_BASIC_DTD}">')


def tbx_xcs(langs: tuple[str, ...] = tuple(TBX_LANGS)) -> str:
    """The termbase's XCS: TBX-Basic's own (``TBXBasicXCSV02.xcs``, whose languages are a demonstration
    to replace) with ``langs`` declared; its data categories unchanged, so files using it stay TBX-Basic."""
    parser = etree.XMLParser(remove_blank_text=False, load_dtd=False, resolve_entities=False, no_network=True)
    tree = etree.parse(str(STANDARDS / "tbx-basic-2008" / "TBXBasicXCSV02.xcs"), parser)
    languages = tree.getroot().find("languages")
    for child in list(languages):
        languages.remove(child)
    languages.text = "\n        "
    for index, lang in enumerate(langs):
        info = etree.SubElement(languages, "langInfo")
        etree.SubElement(info, "langCode").text = lang
        etree.SubElement(info, "langName").text = TBX_LANGS.get(lang, lang)
        info.tail = "\n    " if index == len(langs) - 1 else "\n        "
    comment = etree.Comment(" Cellula's copy of TBX-Basic's XCS (TBXBasicXCSV02.xcs): the languages of "
                            "glossary.tbx declared, everything else as published ")
    comment.tail = "\n    "
    tree.getroot().insert(0, comment)
    return cast(bytes, etree.tostring(tree, xml_declaration=True, encoding="UTF-8")).decode("utf-8")


def _reason(finding: Finding) -> str:
    return f"{finding.check.value} ({finding.status.value}): {finding.message}"


def _change_reasons(unit: TranslationUnit) -> list[str]:
    """Why the unit's section changed beyond the findings that touch the unit itself."""
    change = unit.change
    if change is None:
        return []
    return ([f"edition notes: {', '.join(change.notes)}"] if change.notes else []) + \
        ([f"steps do not match: {', '.join(change.steps)}"] if change.steps else [])


def xliff(game_id: str, units: list[TranslationUnit], translations: Sequence[DraftTranslation] = (),
          changed_only: bool = False) -> str:
    """XLIFF 2.0 preparing the Italian 2nd edition: one ``unit`` per English segment, its target the
    paragraph of the Italian 2nd-edition draft (:mod:`.draft`). Where the rule did not change the target
    is the aligned Italian 1st-edition text (state ``translated``); where it changed, or only the English
    has it, the target is the project's translation (state ``initial``, with a review note naming the
    differences), or none when there is no translation yet. With ``changed_only``, the units of the
    changed sections alone (:func:`.units.section_changes`)."""
    from .draft import DraftSource, draft_paragraphs
    root = etree.Element(f"{{{XLIFF_NS}}}xliff", nsmap={None: XLIFF_NS}, version="2.0", srcLang="en", trgLang="it")
    file_el = etree.SubElement(root, f"{{{XLIFF_NS}}}file", id=game_id, original=f"data/rules/{game_id}")
    target: str | None
    for paragraph in draft_paragraphs(units, list(translations)):
        unit = paragraph.unit
        if changed_only and unit.change is None:
            continue
        unit_el = etree.SubElement(file_el, f"{{{XLIFF_NS}}}unit", id=f"{unit.section}.{unit.position}",
                                   name=unit.section)
        notes = etree.SubElement(unit_el, f"{{{XLIFF_NS}}}notes")
        etree.SubElement(notes, f"{{{XLIFF_NS}}}note", category="source").text = \
            f"source: {EDITION.get(unit.en_source, unit.en_source)}"
        if paragraph.source is DraftSource.OFFICIAL_IT:
            target, state = paragraph.text, "translated"
            why = f"target: {EDITION.get(unit.it_source, unit.it_source)}, rule unchanged"
        else:
            target = paragraph.text if paragraph.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING) else None
            state = "initial"
            origin = "target: the Cellula project's translation" if target else "to translate"
            if unit.state is UnitState.CHANGED:
                why = f"review: the rule changed; {origin}; Italian 1st edition said: {segment_text(unit.it or '')} | " + \
                      " | ".join([_reason(f) for f in unit.reasons] + _change_reasons(unit))
            else:
                why = f"review: not in the Italian 1st edition; {origin}"
        etree.SubElement(notes, f"{{{XLIFF_NS}}}note", category="review" if state == "initial" else "provenance",
                         priority="1" if unit.state is UnitState.CHANGED else "5").text = why
        segment = etree.SubElement(unit_el, f"{{{XLIFF_NS}}}segment", state=state)
        etree.SubElement(segment, f"{{{XLIFF_NS}}}source").text = segment_text(unit.en or "")  # the draft has 2nd-edition units only
        if target is not None:
            etree.SubElement(segment, f"{{{XLIFF_NS}}}target").text = segment_text(target)
    return _xml(root)


BOM = "\ufeff"
"""The byte-order mark the CSV exports start with (UTF-8: EF BB BF)."""

CSV_COLUMNS = ("classification", "check", "severity", "section", "message", "review", "italian_text", "english_text",
               "note")


def findings_csv(findings: list[Finding], labels: CsvLabels | None = None, sections: dict[str, str] | None = None,
                 reviews: dict[str, str] | None = None) -> str:
    """The findings as CSV (one row each, header first). ``labels`` (status -> name, check -> name) and
    ``sections`` (id -> title) put the page's language in the classification, check and section
    columns; the raw values otherwise. ``reviews`` (fingerprint -> text) fills the reviewer's reason.
    The text starts with a byte-order mark: spreadsheet programs read a CSV without one in the system's
    legacy code page and garble the accents."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for f in findings:
        if f.check is CheckId.EDITION_NOTE:
            continue
        status = labels["status"][f.status] if labels else f.status.value
        check = labels["check"][f.check] if labels else f.check.value
        section = sections.get(f.section, f.section) if sections else f.section
        message = labels["message"](f) if labels else f.message
        review = (reviews or {}).get(f.fingerprint, "")
        writer.writerow((status, check, f.severity.value, section, message, review, segment_text(f.it),
                         segment_text(f.en), f.note or ""))
    return out.getvalue()


def game_exports(site: SiteData, game_id: str) -> list[ExportFile]:
    """The TMX, XLIFF and findings CSV of one compared game."""
    report = site.get(EDITION_REPORTS)[game_id]
    units = game_units(site.games[game_id], site.glossary, report.findings)
    translations = site.get(DRAFT_TRANSLATIONS).get(game_id, [])
    return [ExportFile(f"{game_id}.tmx", tmx(game_id, units), "application/x-tmx+xml"),
            ExportFile(f"{game_id}.it-2e.xlf", xliff(game_id, units, translations), "application/xliff+xml"),
            ExportFile(f"{game_id}.it-2e.changed.xlf", xliff(game_id, units, translations, changed_only=True),
                       "application/xliff+xml"),
            ExportFile(f"{game_id}.findings.csv", findings_csv(report.findings, reviews=report.reasons), "text/csv")]


def all_exports(site: SiteData) -> list[ExportFile]:
    """Every export: the glossary's TBX and its XCS, then each compared game's files."""
    files = [ExportFile("glossary.tbx", tbx(site.glossary), "application/x-tbx+xml"),
             ExportFile(TBX_XCS, tbx_xcs(), "application/xml")]
    for game_id in site.get(EDITION_REPORTS):
        files += game_exports(site, game_id)
    return files


def write_exports(site: SiteData, folder: Path) -> list[Path]:
    """Write :func:`all_exports` into ``folder`` (created); the written paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for export in all_exports(site):
        path = folder / export.name
        path.write_text(export.content, encoding="utf-8")
        written.append(path)
    return written
