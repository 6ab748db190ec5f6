"""The translators' exports: each file passes the standards' own validators (tools/standards/: LISA's
TMX 1.4b DTD, the OASIS XLIFF 2.1 core XSD, the TBX-Basic package's DTD, RELAX NG schema with its Schematron
patterns, XCS and TBX Checker), reads back with translate-toolkit, and says what the issue asks of it (TMX
provenance, TBX forms per language, XLIFF draft targets, review states and notes, CSV columns)."""
from __future__ import annotations

import copy
import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree, isoschematron
from translate.storage import tbx as tk_tbx
from translate.storage import tmx as tk_tmx
from translate.storage import xliff2 as tk_xliff2

from generator.check import exports
from generator.check.model import CheckId, Status
from generator.check.units import UnitState, game_units, section_changes
from generator.check.draft import DRAFT_TRANSLATIONS
from generator.check.editions import EDITION_REPORTS

STANDARDS = exports.STANDARDS
TBX_BASIC = STANDARDS / "tbx-basic-2008"
TMX_DTD = STANDARDS / "tmx-1.4b" / "tmx14.dtd"
XLIFF_XSD = STANDARDS / "xliff-2.1" / "xliff_core_2.0.xsd"
CHECKER = TBX_BASIC / "tbxcheck-1.2.9.jar"
RNG_NS = "http://relaxng.org/ns/structure/1.0"
SCH_15 = "http://www.ascc.net/xml/schematron"
SCH_ISO = "http://purl.oclc.org/dsdl/schematron"
XML_NS = {"xml": "http://www.w3.org/XML/1998/namespace"}
SAFE = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
"""Exports are parsed without reading the DTD their DOCTYPE names (validation brings its own)."""


@pytest.fixture(scope="module")
def files(real_site, tmp_path_factory):
    folder = tmp_path_factory.mktemp("exports")
    return {p.name: p for p in exports.write_exports(real_site, folder)}


@pytest.fixture(scope="module")
def units(real_site):
    return game_units(real_site.games["cytosis"], real_site.glossary, real_site.get(EDITION_REPORTS)["cytosis"].findings)


def tbx_rng(langs: tuple[str, ...] = tuple(exports.TBX_LANGS)) -> etree.RelaxNG:
    """TBX-Basic's integrated RELAX NG schema with the document's languages declared where its comment
    says (the ``<text/>`` of ``langSet/@xml:lang`` replaced by a choice of the language codes)."""
    tree = etree.parse(str(TBX_BASIC / "TBXBasicRNGV02.rng"))
    attribute = tree.xpath("//rng:define[@name='langSet.localattributes']/rng:attribute", namespaces={"rng": RNG_NS})[0]
    text = attribute.find(f"{{{RNG_NS}}}text")
    choice = etree.Element(f"{{{RNG_NS}}}choice")
    for lang in langs:
        etree.SubElement(choice, f"{{{RNG_NS}}}value").text = lang
    attribute.replace(text, choice)
    return etree.RelaxNG(tree)


def tbx_schematron() -> isoschematron.Schematron:
    """The Schematron patterns embedded in TBX-Basic's RELAX NG schema (Schematron 1.5), run by lxml's ISO
    Schematron: the same patterns, rules and assertions with the namespace and ``name`` -> ``id`` renamed."""
    rng = etree.parse(str(TBX_BASIC / "TBXBasicRNGV02.rng"))
    schema = etree.Element(f"{{{SCH_ISO}}}schema", nsmap={"sch": SCH_ISO})
    for pattern in rng.iter(f"{{{SCH_15}}}pattern"):
        iso = etree.SubElement(schema, f"{{{SCH_ISO}}}pattern", id=pattern.get("name"))
        for rule in pattern.iter(f"{{{SCH_15}}}rule"):
            iso_rule = etree.SubElement(iso, f"{{{SCH_ISO}}}rule", context=rule.get("context"))
            for test in rule:
                if not isinstance(test.tag, str):
                    continue
                kind = etree.QName(test).localname
                etree.SubElement(iso_rule, f"{{{SCH_ISO}}}{kind}", test=test.get("test")).text = \
                    " ".join("".join(test.itertext()).split())
    assert len(schema) >= 15, "TBX-Basic's schema should carry its Schematron patterns"
    return isoschematron.Schematron(schema, store_report=True)


def run_checker(folder: Path, name: str) -> str:
    """The TBX Checker's output for ``folder/name``, the two TBX-Basic DTDs copied beside it (its DOCTYPE and
    its XCS's name them by file name)."""
    if shutil.which("java") is None:
        pytest.fail("java is missing: the TBX Checker (tools/standards/tbx-basic-2008/tbxcheck-1.2.9.jar) needs it")
    for dtd in (exports.TBX_BASIC_DTD, "tbxxcsdtd.dtd"):
        shutil.copy(TBX_BASIC / dtd, folder / dtd)
    done = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", str(CHECKER), "org.ttt.salt.Main", name],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    return (done.stdout + done.stderr).strip()


def _errors(log) -> str:
    return "\n".join(f"{e.line}: {e.message}" for e in log.filter_from_errors()[:5])


def test_tmx_is_valid_against_lisa_tmx14_dtd(files):
    dtd = etree.DTD(str(TMX_DTD))
    assert dtd.validate(etree.parse(str(files["cytosis.tmx"]), SAFE)), _errors(dtd.error_log)


@pytest.mark.parametrize("name", ["cytosis.it-2e.xlf", "cytosis.it-2e.changed.xlf"])
def test_xliff_is_valid_against_the_oasis_core_xsd(files, name):
    xsd = etree.XMLSchema(etree.parse(str(XLIFF_XSD)))
    tree = etree.parse(str(files[name]), SAFE)
    assert tree.getroot().get("version") == "2.0"
    assert xsd.validate(tree), _errors(xsd.error_log)
    as_21 = copy.deepcopy(tree)  # the 2.1 core schema is the 2.0 one with 2.1's additions: valid as 2.1 too
    as_21.getroot().set("version", "2.1")
    assert xsd.validate(as_21), _errors(xsd.error_log)


def test_tbx_is_valid_against_tbx_basic_dtd_rng_and_schematron(files):
    tree = etree.parse(str(files["glossary.tbx"]), SAFE)
    assert tree.docinfo.doctype == f'<!DOCTYPE martif SYSTEM "{exports.TBX_BASIC_DTD}">'
    dtd = etree.DTD(str(TBX_BASIC / exports.TBX_BASIC_DTD))
    assert dtd.validate(tree), _errors(dtd.error_log)
    rng = tbx_rng()
    assert rng.validate(tree), _errors(rng.error_log)
    schematron = tbx_schematron()
    assert schematron.validate(tree), etree.tostring(schematron.validation_report)[:2000]


def test_xcs_declares_every_language_the_tbx_uses(files):
    tbx_tree = etree.parse(str(files["glossary.tbx"]), SAFE)
    assert tbx_tree.xpath("string(//encodingDesc/p[@type='XCSURI'])") == exports.TBX_XCS == "glossary.xcs"
    xcs = etree.parse(str(files[exports.TBX_XCS]), SAFE)
    dtd = etree.DTD(str(TBX_BASIC / "tbxxcsdtd.dtd"))
    assert dtd.validate(xcs), _errors(dtd.error_log)
    declared = xcs.xpath("//languages/langInfo/langCode/text()")
    used = {e.get(f"{{{XML_NS['xml']}}}lang") for e in tbx_tree.iter("langSet")}
    assert declared == ["en", "it", "ru"] and used == set(declared)
    official = etree.parse(str(TBX_BASIC / "TBXBasicXCSV02.xcs"), SAFE)
    # the data categories are TBX-Basic's own, untouched
    assert etree.tostring(xcs.find("datCatSet")) == etree.tostring(official.find("datCatSet"))


def test_tbx_passes_the_tbx_checker(files, tmp_path):
    for name in ("glossary.tbx", exports.TBX_XCS):
        shutil.copy(files[name], tmp_path / name)
    output = run_checker(tmp_path, "glossary.tbx")
    assert output.splitlines() == [f"Valid file: {tmp_path / 'glossary.tbx'}"], output


@pytest.mark.parametrize("change, message", [
    (lambda text: text.replace('<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">\n', ""),
     "TBX file may be missing a DOCTYPE declaration"),
    (lambda text: text.replace('xml:lang="ru"', 'xml:lang="fr"', 1), "INVALID FILE"),
    (lambda text: text.replace("<term>", "<terme>", 1).replace("</term>", "</terme>", 1), "INVALID FILE"),
], ids=["no-doctype", "undeclared-language", "unknown-element"])
def test_tbx_checker_rejects_broken_files(real_site, tmp_path, change, message):
    """The Checker can fail: no DOCTYPE, a language the XCS does not declare, an element TBX lacks."""
    (tmp_path / "glossary.tbx").write_text(change(exports.tbx(real_site.glossary)), encoding="utf-8")
    (tmp_path / exports.TBX_XCS).write_text(exports.tbx_xcs(), encoding="utf-8")
    output = run_checker(tmp_path, "glossary.tbx")
    assert message in output and "Valid file" not in output, output


@pytest.mark.parametrize("validator, broken", [
    ("tmx", b'<tmx version="1.4"><header creationtool="x" creationtoolversion="1" segtype="paragraph" '
            b'o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body><tu><tuv><seg>a</seg></tuv></tu></body></tmx>'),
    ("xliff", b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">'
              b'<file id="f"><unit id="u"><segment state="draft"><source>a</source></segment></unit></file></xliff>'),
    ("xliff", b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"><file id="f">'
              b'<unit id="u"><segment><notes><note>n</note></notes><source>a</source></segment></unit></file></xliff>'),
    ("tbx-rng", b'<martif type="TBX-Basic" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc>'
                b'</fileDesc></martifHeader><text><body><termEntry id="t"><langSet xml:lang="fr"><tig><term>a</term>'
                b'</tig></langSet></termEntry></body></text></martif>'),
    ("tbx-schematron", b'<martif type="TBX-Basic" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p>'
                       b'</sourceDesc></fileDesc></martifHeader><text><body><termEntry id="t"><langSet xml:lang="en">'
                       b'<descrip type="subjectField">s</descrip><tig><term>a</term></tig></langSet></termEntry>'
                       b'</body></text></martif>'),
], ids=["tmx-tuv-without-lang", "xliff-unknown-state", "xliff-notes-in-segment", "tbx-undeclared-language",
        "tbx-subject-field-on-langset"])
def test_validators_reject_broken_files(validator, broken):
    """Each validator can fail: a tuv without xml:lang, an XLIFF state outside the standard's list, notes
    inside a segment (where translate-toolkit's XLIFF 2 writer puts them; the core schema does not allow
    it), a language the TBX does not declare, a subject field below the entry level."""
    tree = etree.fromstring(broken).getroottree()
    if validator == "tmx":
        assert not etree.DTD(str(TMX_DTD)).validate(tree)
    elif validator == "xliff":
        assert not etree.XMLSchema(etree.parse(str(XLIFF_XSD))).validate(tree)
    elif validator == "tbx-rng":
        assert not tbx_rng().validate(tree)
    else:
        assert tbx_rng().validate(tree) and not tbx_schematron().validate(tree)


def test_tmx_reads_back_with_every_aligned_pair_and_its_provenance(files, units):
    store = tk_tmx.tmxfile.parsefile(str(files["cytosis.tmx"]))
    paired = [u for u in units if u.it and u.en]
    assert len(store.units) == len(paired) > 200
    first = paired[0]
    assert store.units[0].source == exports.segment_text(first.en)
    assert store.units[0].target == exports.segment_text(first.it)
    tree = etree.parse(str(files["cytosis.tmx"]))
    editions = set(tree.xpath("//tuv/prop[@type='x-edition']/text()"))
    assert {"Italian 1st edition (official)", "English 2nd edition (official)"} <= editions
    assert set(tree.xpath("//tu/prop[@type='x-state']/text()")) == {"unchanged", "changed"}


@pytest.mark.parametrize("lang", ["it", "ru"])
def test_tbx_reads_back_every_term_in_every_language(files, real_site, lang):
    """translate-toolkit reads English as the source (the first langSet) and each other language as a
    target: every term's forms there, preferred first, the forbidden ones last and deprecated."""
    store = tk_tbx.tbxfile(files["glossary.tbx"].open("rb"), targetlanguage=lang)
    assert len(store.units) == len(real_site.glossary)
    by_id = {unit.getid(): unit for unit in store.units}
    with_lang = 0
    for term in real_site.glossary:
        unit = by_id[f"term-{term.id}"]
        assert [t.text for t in unit.get_source_terms()] == list(term.forms["en"]) + list(term.forbidden.get("en", ()))
        assert unit.source == term.forms["en"][0]
        expected = list(term.forms.get(lang, ())) + list(term.forbidden.get(lang, ()))
        read = unit.get_target_terms(lang)
        assert [t.text for t in read] == expected, term.id
        assert [t.deprecated for t in read] == [False] * len(term.forms.get(lang, ())) + [True] * len(term.forbidden.get(lang, ()))
        if term.forms.get(lang):
            with_lang += 1
            assert unit.target == term.forms[lang][0]
    assert with_lang == sum(1 for t in real_site.glossary if t.forms.get(lang))
    assert with_lang >= (45 if lang == "ru" else 200)


OMEGAT_JAR = Path("/usr/share/omegat/OmegaT.jar")
OMEGAT_READER = Path(__file__).parent / "fixtures" / "omegat" / "ReadTbx.java"


@pytest.mark.parametrize("lang", ["it", "ru"])
def test_tbx_imports_into_omegat_with_every_term(files, real_site, tmp_path, lang):
    """A CAT tool's termbase import: OmegaT (Debian's omegat, installed by tools/ensure_debian.sh omegat) reads the
    TBX with its own TBX reader, English to ``lang``, and finds every term of that language, each under
    the English terms of its entry (Russian: the 45 entries that have it)."""
    if shutil.which("java") is None or not OMEGAT_JAR.exists():
        pytest.fail(f"OmegaT is missing ({OMEGAT_JAR}): run `sh tools/ensure_debian.sh omegat` (make setup does)")
    shutil.copy(files["glossary.tbx"], tmp_path / "glossary.tbx")  # alone: no DTD beside it
    done = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", str(OMEGAT_JAR), str(OMEGAT_READER),
                           str(tmp_path / "glossary.tbx"), "en", lang], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    read: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        source, _, targets = line.partition("\t")
        read.setdefault(source, set()).update(t for t in targets.split("|") if t)
    expected: dict[str, set[str]] = {}
    for term in real_site.glossary:
        targets = set(term.forms.get(lang, ())) | set(term.forbidden.get(lang, ()))
        if targets:
            for source in list(term.forms["en"]) + list(term.forbidden.get("en", ())):
                expected.setdefault(source, set()).update(targets)
    assert {s: t for s, t in read.items() if t} == expected
    entries = sum(1 for t in real_site.glossary if t.forms.get(lang))
    assert entries >= (45 if lang == "ru" else 200)


def test_tbx_flask_entry(files):
    tree = etree.parse(str(files["glossary.tbx"]), SAFE)
    entry = tree.xpath("//termEntry[@id='term-flask']")[0]
    assert [e.get(f"{{{XML_NS['xml']}}}lang") for e in entry.iter("langSet")][:2] == ["en", "it"]
    flask = entry.xpath("langSet[@xml:lang='it']/tig/term/text()", namespaces=XML_NS)
    assert flask[:2] == ["Beuta", "Beute"]
    statuses = set(tree.xpath("//termNote[@type='administrativeStatus']/text()"))
    assert {"preferredTerm-admn-sts", "admittedTerm-admn-sts"} <= statuses


def test_tbx_marks_forbidden_renderings_deprecated(tmp_path):
    from generator.check.bench import load_corpus
    glossary = load_corpus()[1]
    path = tmp_path / "synth.tbx"
    path.write_text(exports.tbx(glossary), encoding="utf-8")
    tree = etree.parse(str(path), SAFE)
    rng = tbx_rng()
    assert rng.validate(tree), _errors(rng.error_log)
    bottle = tree.xpath("//termEntry[@id='term-flask']/langSet/tig[term='Bottle']/termNote/text()")
    assert bottle == ["deprecatedTerm-admn-sts"]


def test_xliff_drafts_unchanged_rules_and_flags_changed_ones(files, units, real_site):
    from generator.check.draft import DraftSource, draft_paragraphs
    store = tk_xliff2.Xliff2File.parsefile(str(files["cytosis.it-2e.xlf"]))
    paragraphs = draft_paragraphs(units, real_site.get(DRAFT_TRANSLATIONS).get("cytosis", []))
    assert len(store.units) == len(paragraphs) == len([u for u in units if u.en is not None])
    ns = {"x": exports.XLIFF_NS}
    tree = etree.parse(str(files["cytosis.it-2e.xlf"]))
    by_id = {u.get("id"): u for u in tree.xpath("//x:unit", namespaces=ns)}
    for paragraph in paragraphs:
        unit = paragraph.unit
        element = by_id[f"{unit.section}.{unit.position}"]
        segment = element.find("x:segment", ns)
        target = segment.find("x:target", ns)
        if paragraph.source is DraftSource.OFFICIAL_IT:
            assert unit.state is UnitState.UNCHANGED
            assert segment.get("state") == "translated"
            assert target.text == exports.segment_text(unit.it)
        else:
            assert segment.get("state") == "initial"
            assert element.xpath("x:notes/x:note[@category='review']", namespaces=ns)
            if paragraph.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING):
                assert target.text == exports.segment_text(paragraph.text)
            else:
                assert target is None
        if unit.state is UnitState.CHANGED:
            note = element.xpath("x:notes/x:note[@category='review']/text()", namespaces=ns)[0]
            assert all(r.check.value in note for r in unit.reasons)
    states = {u.state for u in units if u.en is not None}
    assert {UnitState.UNCHANGED, UnitState.CHANGED, UnitState.EN_ONLY} <= states


@pytest.mark.parametrize("name", ["cytosis.it-2e.xlf", "cytosis.it-2e.changed.xlf"])
def test_xliff_notes_read_back_with_translate_toolkit(files, name):
    """Every unit's notes are in the unit's <notes> (the one place the XLIFF 2 core schema allows them) and
    read back through translate-toolkit's units, one per segment: a source note for every unit, a review
    note for every unit still to translate or review, a provenance note for the others."""
    store = tk_xliff2.Xliff2File.parsefile(str(files[name]))
    ns = {"x": exports.XLIFF_NS}
    tree = etree.parse(str(files[name]), SAFE)
    written = {u.get("id"): [(n.get("category"), n.text) for n in u.xpath("x:notes/x:note", namespaces=ns)]
               for u in tree.xpath("//x:unit", namespaces=ns)}
    read = {}
    for unit in store.units:
        element = unit.getunitelement()  # translate-toolkit's own link from a segment to its unit
        read[element.get("id")] = [(n.get("category"), n.text) for n in element.iterfind("x:notes/x:note", ns)]
        categories = [c for c, _ in read[element.get("id")]]
        assert categories[0] == "source"
        assert categories[1] == ("review" if unit.xmlelement.get("state") == "initial" else "provenance")
    assert read == written
    reviews = sum(1 for notes in read.values() for c, _ in notes if c == "review")
    assert reviews > 50 and all(text for notes in read.values() for _, text in notes)


def test_xliff_without_translations_leaves_changed_targets_empty(units):
    path_text = exports.xliff("cytosis", units, ())
    tree = etree.fromstring(path_text.encode("utf-8"))
    ns = {"x": exports.XLIFF_NS}
    changed = [u for u in units if u.state is UnitState.CHANGED]
    element = tree.xpath(f"//x:unit[@id='{changed[0].section}.{changed[0].position}']", namespaces=ns)[0]
    assert element.find("x:segment/x:target", ns) is None
    assert "review: the rule changed; to translate" in element.find("x:notes/x:note[@category='review']", ns).text


def test_changed_units_are_the_ones_of_changed_sections(units, real_site):
    """A unit is changed when its section is (a curated note, a reviewed edition-change finding, steps
    that do not line up), whichever of its paragraphs the findings touch."""
    report = real_site.get(EDITION_REPORTS)["cytosis"]
    changes = section_changes(real_site.games["cytosis"], report.findings)
    for unit in units:
        assert all(r.status is not Status.FALSE_POSITIVE and r.check is not CheckId.EDITION_NOTE for r in unit.reasons)
        assert (unit.state is UnitState.CHANGED) == bool(unit.it and unit.en and unit.change)
        if unit.reasons:
            assert unit.change is not None
        if unit.section in changes:  # the notes and findings alone; the steps are found on the aligned texts
            assert unit.change is not None and set(changes[unit.section].notes) <= set(unit.change.notes)
    assert any(u.state is UnitState.CHANGED for u in units) and report.findings


def test_changed_only_xliff_has_the_changed_sections_alone(units, real_site):
    tree = etree.fromstring(exports.xliff("cytosis", units, real_site.get(DRAFT_TRANSLATIONS)["cytosis"],
                                          changed_only=True).encode("utf-8"))
    ns = {"x": exports.XLIFF_NS}
    ids = [u.get("id") for u in tree.xpath("//x:unit", namespaces=ns)]
    from generator.check.draft import draft_paragraphs
    expected = [p.unit.ident for p in draft_paragraphs(units, real_site.get(DRAFT_TRANSLATIONS)["cytosis"])
                if p.unit.change is not None]
    assert ids == expected and ids
    note = tree.xpath("//x:unit[@id='gameplay.phase-2.0']/x:notes/x:note[@category='review']/text()", namespaces=ns)[0]
    assert "card-row-discard" in note


def test_findings_csv_has_one_row_per_check_finding(files, real_site):
    raw = files["cytosis.findings.csv"].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte-order mark, once
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    findings = [f for f in real_site.get(EDITION_REPORTS)["cytosis"].findings if f.check is not CheckId.EDITION_NOTE]
    assert len(rows) == len(findings)
    assert tuple(rows[0]) == exports.CSV_COLUMNS
    assert {r["classification"] for r in rows} <= {s.value for s in Status}
    assert all(r["review"] for r in rows)  # every finding is reviewed, with its reason


def test_cli_writes_the_exports(tmp_path, capsys):
    from generator.__main__ import main
    code = main(["check", "--export", str(tmp_path / "out"), "--format", "json"])
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted([
        "cytosis.findings.csv", "cytosis.it-2e.changed.xlf", "cytosis.it-2e.xlf", "cytosis.it-2e.changed.xliff12.xlf",
        "cytosis.it-2e.xliff12.xlf", "cytosis.tmx", "glossary.tbx", "glossary.en-ru.tbx", "glossary.it-ru.tbx",
        "glossary.xcs", "TBXBasiccoreStructV02.dtd", "tbxxcsdtd.dtd"])


def test_cli_refuses_an_export_path_that_is_a_file(tmp_path, capsys):
    from generator.__main__ import main
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main(["check", "--export", str(target)]) == 2
    assert "expected a folder" in capsys.readouterr().err


# --- the files as the site serves them (issue #67: exports that work as downloaded) -------------------

@pytest.fixture(scope="module")
def served(real_site, tmp_path_factory):
    """The differences pages' files of the Italian site, written as the build writes them (``site/`` root:
    the termbases, their XCS and DTDs; ``cytosis/``: the game's files), nothing copied from tools/."""
    from generator.check.site_pages import differences_pages
    root = tmp_path_factory.mktemp("served")
    for page in differences_pages(real_site, "it"):
        if not page.path.endswith(".md"):
            (root / page.path).parent.mkdir(parents=True, exist_ok=True)
            (root / page.path).write_bytes(page.content.encode("utf-8"))
    return root


@pytest.mark.parametrize("name", ["glossary.tbx", "glossary.en-ru.tbx", "glossary.it-ru.tbx"])
def test_served_termbases_pass_the_tbx_checker_as_downloaded(served, name):
    """The TBX Checker run in the folder the site serves, with nothing added: the DOCTYPE's DTD, the XCS and
    the XCS's DTD are served beside the termbase."""
    if shutil.which("java") is None:
        pytest.fail("java is missing: the TBX Checker needs it")
    for needed in (exports.TBX_BASIC_DTD, exports.XCS_DTD, exports.TBX_XCS):
        assert (served / needed).is_file(), needed
    done = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", str(CHECKER), "org.ttt.salt.Main", name],
                          cwd=served, capture_output=True, text=True, timeout=300)
    output = (done.stdout + done.stderr).strip()
    assert output.splitlines() == [f"Valid file: {served / name}"], output


def test_served_dtds_are_the_standards_byte_for_byte(served):
    for name in exports.SERVED_STANDARDS:
        assert (served / name).read_bytes() == (TBX_BASIC / name).read_bytes()


@pytest.mark.parametrize("pair", exports.BILINGUAL_TBX)
def test_bilingual_termbases_carry_the_russian_terms_to_a_bilingual_reader(served, real_site, pair):
    """translate-toolkit's TBX reader, left to its defaults (the first language the source, the other the
    target), finds every term that has both languages, Russian included."""
    source, target = pair
    store = tk_tbx.tbxfile((served / exports.bilingual_tbx_name(pair)).open("rb"))
    expected = {f"term-{t.id}": t for t in real_site.glossary if t.forms.get(source) and t.forms.get(target)}
    assert len(expected) >= 45
    assert {u.getid() for u in store.units} == set(expected)
    for unit in store.units:
        term = expected[unit.getid()]
        assert unit.source == term.forms[source][0] and unit.target == term.forms[target][0]
    tree = etree.parse(str(served / exports.bilingual_tbx_name(pair)), SAFE)
    assert tbx_rng().validate(tree), _errors(tbx_rng().error_log)


@pytest.mark.parametrize("name", ["cytosis.it-2e.xliff12.xlf", "cytosis.it-2e.changed.xliff12.xlf"])
def test_xliff12_notes_are_where_translate_toolkit_reads_them(served, units, real_site, name):
    """translate-toolkit's XLIFF reader (the one its xliff2po uses) gives every unit its notes: the source
    note, then the review or provenance note, as the XLIFF 2.0 file has them; states and targets too."""
    from translate.storage import factory
    store = factory.getobject(str(served / "cytosis" / name))
    entries = {e.id: e for e in exports.draft_entries(units, real_site.get(DRAFT_TRANSLATIONS)["cytosis"],
                                                        changed_only="changed" in name)}
    read = [u for u in store.units if not u.isheader()]
    assert [u.getid().split("\x04")[-1] for u in read] == list(entries)  # the file's name, then the unit id
    for unit in read:
        entry = entries[unit.getid().split("\x04")[-1]]
        assert unit.getlocations() == [entry.id]
        assert unit.getnotes() == "\n".join(text for _, text in entry.notes)
        assert unit.source == entry.source and (unit.target or None) == entry.target
        assert unit.isapproved() is False
        assert unit.xmlelement.find(f"{{{exports.XLIFF12_NS}}}target") is not None or entry.target is None
    assert sum("review:" in u.getnotes() for u in read) > 50


def test_xliff2po_turns_every_note_into_a_translator_comment(served, tmp_path):
    """translate-toolkit's converter, run on the served file: one PO entry per unit, its notes as comments."""
    out = tmp_path / "draft.po"
    done = subprocess.run([str(Path(sys.executable).parent / "xliff2po"), str(served / "cytosis" / "cytosis.it-2e.xliff12.xlf"),
                           str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    from translate.storage import po
    entries = [u for u in po.pofile(out.open("rb")).units if not u.isheader()]
    assert len(entries) == len(etree.parse(str(served / "cytosis" / "cytosis.it-2e.xliff12.xlf"), SAFE).xpath(
        "//x:trans-unit", namespaces={"x": exports.XLIFF12_NS})) > 300
    assert all("source: English" in u.getnotes() for u in entries)
    assert sum("review:" in u.getnotes() for u in entries) > 50


@pytest.mark.parametrize("lang", ["it", "en"])
def test_served_findings_csv_header_is_in_the_page_language(real_site, lang):
    from generator import i18n
    from generator.check.site_pages import differences_pages
    page = next(p for p in differences_pages(real_site, lang) if p.path == "cytosis/differences.csv")
    header = next(csv.reader(io.StringIO(page.content.lstrip(exports.BOM))))
    assert header == [i18n.t(f"check.csv_columns.{c}", lang) for c in exports.CSV_COLUMNS]
    assert page.content.startswith(exports.BOM) and len(header) == 9
