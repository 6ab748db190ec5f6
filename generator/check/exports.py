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
  the 2nd edition changed); ``<game>.it-2e.xliff12.xlf`` and ``<game>.it-2e.changed.xliff12.xlf`` the same
  units in XLIFF 1.2, whose ``<note>`` of each ``<trans-unit>`` is where translate-toolkit (``xliff2po``,
  its XLIFF reader) and the common CAT tools (OmegaT, Trados, memoQ) read notes: XLIFF 2.0 keeps them in the
  unit's ``<notes>``, which translate-toolkit does not read;
- ``glossary.en-ru.tbx``, ``glossary.it-ru.tbx``: the Russian terms (Immune Response) in bilingual termbases,
  for tools that read one source and one target language (translate-toolkit's TBX reader, ``tbx2po``);
- ``<game>.findings.csv``: the edition check's findings (classification, check, section, texts); on the
  site (``<game>/differences.csv``) with its header and values in the page's language.

The TBX files name TBX-Basic's core structure DTD in their DOCTYPE and the XCS in their header; the site
serves both DTDs (:data:`SERVED_STANDARDS`) and the XCS beside them, so a checker finds them by file name.

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
XCS_DTD = "tbxxcsdtd.dtd"
"""The DTD of XCS files, which the XCS's DOCTYPE names."""
SERVED_STANDARDS = (TBX_BASIC_DTD, XCS_DTD)
"""The standards' files served beside the termbase (byte for byte from ``tools/standards/tbx-basic-2008/``):
the TBX Checker, and any validating reader, resolves the DOCTYPEs by file name next to the file."""
BILINGUAL_TBX: tuple[tuple[str, str], ...] = (("en", "ru"), ("it", "ru"))
"""The language pairs of the bilingual termbases (source, target): the Russian terms for tools that read
one source and one target language."""
XLIFF12_NS = "urn:oasis:names:tc:xliff:document:1.2"
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

    columns: Mapping[str, str]
    """The header: each of :data:`CSV_COLUMNS` named in the page's language."""
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


def tbx(glossary: list[Term], langs: tuple[str, ...] = tuple(TBX_LANGS), every_language: bool = False) -> str:
    """A TBX-Basic termbase (ISO 30042:2008 ``martif``) of every glossary term: one ``termEntry`` per term,
    one ``langSet`` per language with its forms (the first preferred, the others admitted) and the
    forbidden renderings (deprecated). The DOCTYPE names TBX-Basic's core structure DTD and the header
    the XCS (:func:`tbx_xcs`, which declares every language of :data:`TBX_LANGS`), as the TBX Checker
    requires. ``langs[0]`` is the header's language and the first ``langSet`` (the source language tools
    take); with ``every_language`` only the terms that have a form in each of ``langs`` (a bilingual
    termbase: :data:`BILINGUAL_TBX`)."""
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: langs[0]})
    header = etree.SubElement(root, "martifHeader")
    file_desc = etree.SubElement(header, "fileDesc")
    etree.SubElement(etree.SubElement(file_desc, "titleStmt"), "title").text = \
        "Cellula glossary" + (f" ({'-'.join(langs)})" if every_language else "")
    etree.SubElement(etree.SubElement(file_desc, "sourceDesc"), "p").text = (
        "Glossary of the Cellula project (data/glossary.yaml): official terms of the Italian and English "
        "rulebooks, and the project's translations where a side is not printed.")
    etree.SubElement(etree.SubElement(header, "encodingDesc"), "p", type="XCSURI").text = TBX_XCS
    body = etree.SubElement(etree.SubElement(root, "text"), "body")
    for term in glossary:
        if every_language and not all(term.forms.get(lang) for lang in langs):
            continue
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


@dataclass(frozen=True)
class DraftEntry:
    """One unit of the XLIFF exports, whatever the XLIFF version."""

    id: str
    """Unit id: ``section.position``."""
    section: str
    """Section id (the unit's name)."""
    source: str
    """The English 2nd-edition segment."""
    target: str | None
    """The draft's Italian (None: still to translate)."""
    translated: bool
    """True: the official Italian 1st edition, the rule unchanged; False: to review or translate."""
    changed: bool
    """The unit's section changed between the editions (a note of priority 1)."""
    notes: tuple[tuple[str, str], ...]
    """(category, text): where the source comes from, then why the target is what it is."""


def draft_entries(units: list[TranslationUnit], translations: Sequence[DraftTranslation] = (),
                  changed_only: bool = False) -> list[DraftEntry]:
    """The units of the XLIFF exports: one per English segment, its target the paragraph of the Italian
    2nd-edition draft (:mod:`.draft`). Where the rule did not change the target is the aligned Italian
    1st-edition text; where it changed, or only the English has it, the project's translation with a
    review note naming the differences, or none when there is no translation yet. With ``changed_only``,
    the units of the changed sections alone (:func:`.units.section_changes`)."""
    from .draft import DraftSource, draft_paragraphs
    out = []
    for paragraph in draft_paragraphs(units, list(translations)):
        unit = paragraph.unit
        if changed_only and unit.change is None:
            continue
        source_note = ("source", f"source: {EDITION.get(unit.en_source, unit.en_source)}")
        target: str | None
        if paragraph.source is DraftSource.OFFICIAL_IT:
            target, translated = paragraph.text, True
            why = ("provenance", f"target: {EDITION.get(unit.it_source, unit.it_source)}, rule unchanged")
        else:
            target = paragraph.text if paragraph.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING) else None
            translated = False
            origin = ("target: a heading written by the Cellula project (no rulebook prints one here)"
                      if paragraph.source is DraftSource.PROJECT_HEADING else
                      "target: the Cellula project's translation" if target else "to translate")
            if unit.state is UnitState.CHANGED:
                text = " | ".join([f"review: the rule changed; {origin}; Italian 1st edition said: {segment_text(unit.it or '')}",
                                   *[_reason(f) for f in unit.reasons], *_change_reasons(unit)])
            else:
                text = f"review: not in the Italian 1st edition; {origin}"
            why = ("review", text)
        out.append(DraftEntry(f"{unit.section}.{unit.position}", unit.section, segment_text(unit.en or ""),
                              segment_text(target) if target is not None else None, translated,
                              unit.state is UnitState.CHANGED, (source_note, why)))
    return out


def xliff(game_id: str, units: list[TranslationUnit], translations: Sequence[DraftTranslation] = (),
          changed_only: bool = False) -> str:
    """XLIFF 2.0 preparing the Italian 2nd edition (:func:`draft_entries`): state ``translated`` where the
    target is the unchanged 1st-edition text, ``initial`` with a review note elsewhere; the notes in each
    unit's ``<notes>``, the one place the XLIFF 2 core schema allows them."""
    root = etree.Element(f"{{{XLIFF_NS}}}xliff", nsmap={None: XLIFF_NS}, version="2.0", srcLang="en", trgLang="it")
    file_el = etree.SubElement(root, f"{{{XLIFF_NS}}}file", id=game_id, original=f"data/rules/{game_id}")
    for entry in draft_entries(units, translations, changed_only):
        unit_el = etree.SubElement(file_el, f"{{{XLIFF_NS}}}unit", id=entry.id, name=entry.section)
        notes = etree.SubElement(unit_el, f"{{{XLIFF_NS}}}notes")
        for category, text in entry.notes:
            note = etree.SubElement(notes, f"{{{XLIFF_NS}}}note", category=category)
            if category != "source":
                note.set("priority", "1" if entry.changed else "5")
            note.text = text
        segment = etree.SubElement(unit_el, f"{{{XLIFF_NS}}}segment", state="translated" if entry.translated else "initial")
        etree.SubElement(segment, f"{{{XLIFF_NS}}}source").text = entry.source
        if entry.target is not None:
            etree.SubElement(segment, f"{{{XLIFF_NS}}}target").text = entry.target
    return _xml(root)


def xliff12(game_id: str, units: list[TranslationUnit], translations: Sequence[DraftTranslation] = (),
            changed_only: bool = False) -> str:
    """The same units (:func:`draft_entries`) in XLIFF 1.2: a ``<trans-unit>`` per segment, its notes as
    ``<note from="developer">`` elements after the target (where translate-toolkit, OmegaT, Trados and memoQ
    read them; the category starts the text: ``source:``, ``review:``, ``target:``), the target's ``state`` ``translated`` where the 1st edition serves unchanged,
    ``needs-review-translation`` for the project's translation and no target where none exists yet."""
    root = etree.Element(f"{{{XLIFF12_NS}}}xliff", nsmap={None: XLIFF12_NS}, version="1.2")
    file_el = etree.SubElement(root, f"{{{XLIFF12_NS}}}file", {"original": f"data/rules/{game_id}", "datatype": "plaintext",
                               "source-language": "en", "target-language": "it", "tool-id": "cellula"})
    header = etree.SubElement(file_el, f"{{{XLIFF12_NS}}}header")
    etree.SubElement(header, f"{{{XLIFF12_NS}}}tool", {"tool-id": "cellula", "tool-name": TOOL})
    body = etree.SubElement(file_el, f"{{{XLIFF12_NS}}}body")
    for entry in draft_entries(units, translations, changed_only):
        unit_el = etree.SubElement(body, f"{{{XLIFF12_NS}}}trans-unit", id=entry.id, resname=entry.section)
        etree.SubElement(unit_el, f"{{{XLIFF12_NS}}}source", {XML_LANG: "en"}).text = entry.source
        if entry.target is not None:
            etree.SubElement(unit_el, f"{{{XLIFF12_NS}}}target", {XML_LANG: "it", "state": "translated" if entry.translated
                             else "needs-review-translation"}).text = entry.target
        # the unit's place (section.position) as its location: a PO made by xliff2po keeps units of one
        # English text apart (msgctxt) and says where each stands
        group = etree.SubElement(unit_el, f"{{{XLIFF12_NS}}}context-group", name="location", purpose="location")
        etree.SubElement(group, f"{{{XLIFF12_NS}}}context", {"context-type": "sourcefile"}).text = entry.id
        for category, text in entry.notes:  # from="developer": the notes xliff2po and CAT tools show to translators
            etree.SubElement(unit_el, f"{{{XLIFF12_NS}}}note", {"from": "developer", "priority": "1" if entry.changed and
                             category != "source" else "5", "annotates": "source" if category == "source" else "target"}).text = text
    return _xml(root)


BOM = "\ufeff"
"""The byte-order mark the CSV exports start with (UTF-8: EF BB BF)."""

CSV_COLUMNS = ("classification", "check", "severity", "section", "message", "review", "italian_text", "english_text",
               "note")


def findings_csv(findings: list[Finding], labels: CsvLabels | None = None, sections: dict[str, str] | None = None,
                 reviews: dict[str, str] | None = None) -> str:
    """The findings as CSV (one row each, header first). ``labels`` (column names, status -> name,
    check -> name) and ``sections`` (id -> title) put the page's language in the header and in the
    classification, check and section columns; the column ids and raw values otherwise. ``reviews`` (fingerprint -> text) fills the reviewer's reason.
    The text starts with a byte-order mark: spreadsheet programs read a CSV without one in the system's
    legacy code page and garble the accents."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([labels["columns"][c] for c in CSV_COLUMNS] if labels else CSV_COLUMNS)
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
            ExportFile(f"{game_id}.it-2e.xliff12.xlf", xliff12(game_id, units, translations), "application/xliff+xml"),
            ExportFile(f"{game_id}.it-2e.changed.xliff12.xlf", xliff12(game_id, units, translations, changed_only=True),
                       "application/xliff+xml"),
            ExportFile(f"{game_id}.findings.csv", findings_csv(report.findings, reviews=report.reasons), "text/csv")]


def all_exports(site: SiteData) -> list[ExportFile]:
    """Every export: the glossary's TBX, its bilingual Russian ones, the XCS and the two DTDs they name,
    then each compared game's files."""
    files = [ExportFile("glossary.tbx", tbx(site.glossary), "application/x-tbx+xml"),
             *[ExportFile(bilingual_tbx_name(pair), tbx(site.glossary, pair, every_language=True), "application/x-tbx+xml")
               for pair in BILINGUAL_TBX],
             ExportFile(TBX_XCS, tbx_xcs(), "application/xml"),
             *[ExportFile(name, served_standard(name), "application/xml-dtd") for name in SERVED_STANDARDS]]
    for game_id in site.get(EDITION_REPORTS):
        files += game_exports(site, game_id)
    return files


def served_standard(name: str) -> str:
    """A file of :data:`SERVED_STANDARDS`, byte for byte (its CRLF line ends kept)."""
    return (STANDARDS / "tbx-basic-2008" / name).read_bytes().decode("utf-8")


def bilingual_tbx_name(pair: tuple[str, str]) -> str:
    """``glossary.en-ru.tbx``: the file name of a bilingual termbase."""
    return f"glossary.{pair[0]}-{pair[1]}.tbx"


def write_exports(site: SiteData, folder: Path) -> list[Path]:
    """Write :func:`all_exports` into ``folder`` (created); the written paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for export in all_exports(site):
        path = folder / export.name
        path.write_bytes(export.content.encode("utf-8"))
        written.append(path)
    return written
