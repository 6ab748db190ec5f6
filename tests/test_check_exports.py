"""The translators' exports: each file is valid against its schema (the project's structural RELAX NG
schemas in tests/schemas/), reads back with translate-toolkit, and says what the issue asks of it
(TMX provenance, TBX forms per language, XLIFF draft targets and review states, CSV columns)."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from lxml import etree
from translate.storage import tbx as tk_tbx
from translate.storage import tmx as tk_tmx
from translate.storage import xliff2 as tk_xliff2

from generator.check import exports
from generator.check.model import CheckId, Status
from generator.check.units import UnitState, game_units, section_changes

SCHEMAS = Path(__file__).parent / "schemas"


@pytest.fixture(scope="module")
def files(real_site, tmp_path_factory):
    folder = tmp_path_factory.mktemp("exports")
    return {p.name: p for p in exports.write_exports(real_site, folder)}


@pytest.fixture(scope="module")
def units(real_site):
    return game_units(real_site.games["cytosis"], real_site.glossary, real_site.editions["cytosis"].findings)


def _valid(schema: str, path: Path) -> None:
    rng = etree.RelaxNG(etree.parse(str(SCHEMAS / schema)))
    assert rng.validate(etree.parse(str(path))), rng.error_log.last_error


@pytest.mark.parametrize("schema, name", [("tmx14.rng", "cytosis.tmx"), ("tbx-basic.rng", "glossary.tbx"),
                                          ("xliff20-core.rng", "cytosis.it-2e.xlf")])
def test_export_is_valid_against_its_schema(files, schema, name):
    _valid(schema, files[name])


@pytest.mark.parametrize("schema, broken", [
    ("tmx14.rng", b'<tmx version="1.4"><header creationtool="x" creationtoolversion="1" segtype="paragraph" '
                  b'o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body><tu><tuv><seg>a</seg></tuv></tu></body></tmx>'),
    ("xliff20-core.rng", b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">'
                         b'<file id="f"><unit id="u"><segment state="draft"><source>a</source></segment></unit></file></xliff>'),
])
def test_schemas_reject_broken_files(tmp_path, schema, broken):
    """The schemas can fail: a tuv without xml:lang, an XLIFF state outside the standard's list."""
    path = tmp_path / "broken.xml"
    path.write_bytes(broken)
    rng = etree.RelaxNG(etree.parse(str(SCHEMAS / schema)))
    assert not rng.validate(etree.parse(str(path)))


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


def test_tbx_reads_back_every_term_in_three_languages(files, real_site):
    store = tk_tbx.tbxfile.parsefile(str(files["glossary.tbx"]))
    assert len(store.units) == len(real_site.glossary)
    tree = etree.parse(str(files["glossary.tbx"]))
    xml_lang = "{http://www.w3.org/XML/1998/namespace}lang"
    langs = {e.get(xml_lang) for e in tree.iter("langSet")}
    assert langs == {"it", "en", "ru"}
    flask = tree.xpath("//termEntry[@id='term-flask']/langSet[@xml:lang='it']/tig/term/text()",
                       namespaces={"xml": "http://www.w3.org/XML/1998/namespace"})
    assert flask[:2] == ["Beuta", "Beute"]
    statuses = set(tree.xpath("//termNote[@type='administrativeStatus']/text()"))
    assert {"preferredTerm-admn-sts", "admittedTerm-admn-sts"} <= statuses


def test_tbx_marks_forbidden_renderings_deprecated(tmp_path):
    from generator.check.bench import load_corpus
    glossary = load_corpus()[1]
    path = tmp_path / "synth.tbx"
    path.write_text(exports.tbx(glossary), encoding="utf-8")
    _valid("tbx-basic.rng", path)
    tree = etree.parse(str(path))
    bottle = tree.xpath("//termEntry[@id='term-flask']/langSet/tig[term='Bottle']/termNote/text()")
    assert bottle == ["deprecatedTerm-admn-sts"]


def test_xliff_drafts_unchanged_rules_and_flags_changed_ones(files, units, real_site):
    from generator.check.draft import DraftSource, draft_paragraphs
    store = tk_xliff2.Xliff2File.parsefile(str(files["cytosis.it-2e.xlf"]))
    paragraphs = draft_paragraphs(units, real_site.draft_translations.get("cytosis", []))
    assert len(store.units) == len(paragraphs) == len([u for u in units if u.en is not None])
    ns = {"x": exports.XLIFF_NS}
    tree = etree.parse(str(files["cytosis.it-2e.xlf"]))
    by_id = {u.get("id"): u for u in tree.xpath("//x:unit", namespaces=ns)}
    for paragraph in paragraphs:
        unit = paragraph.unit
        element = by_id[f"{unit.section}.{unit.position}"]
        segment = element.find("x:segment", ns)
        target = segment.find("x:target", ns)
        if unit.state is UnitState.UNCHANGED:
            assert segment.get("state") == "translated"
            assert target.text == exports.segment_text(unit.it)
        else:
            assert segment.get("state") == "initial"
            assert element.xpath("x:notes/x:note[@category='review']", namespaces=ns)
            if paragraph.source is DraftSource.PROJECT:
                assert target.text == exports.segment_text(paragraph.text)
            else:
                assert target is None
        if unit.state is UnitState.CHANGED:
            note = element.xpath("x:notes/x:note[@category='review']/text()", namespaces=ns)[0]
            assert all(r.check.value in note for r in unit.reasons)
    states = {u.state for u in units if u.en is not None}
    assert {UnitState.UNCHANGED, UnitState.CHANGED, UnitState.EN_ONLY} <= states


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
    report = real_site.editions["cytosis"]
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
    tree = etree.fromstring(exports.xliff("cytosis", units, real_site.draft_translations["cytosis"],
                                          changed_only=True).encode("utf-8"))
    ns = {"x": exports.XLIFF_NS}
    ids = [u.get("id") for u in tree.xpath("//x:unit", namespaces=ns)]
    expected = [f"{u.section}.{u.position}" for u in units if u.en is not None and u.change is not None]
    assert ids == expected and ids
    note = tree.xpath("//x:unit[@id='gameplay.phase-2.0']/x:notes/x:note[@category='review']/text()", namespaces=ns)[0]
    assert "card-row-discard" in note


def test_findings_csv_has_one_row_per_check_finding(files, real_site):
    rows = list(csv.DictReader(io.StringIO(files["cytosis.findings.csv"].read_text(encoding="utf-8"))))
    findings = [f for f in real_site.editions["cytosis"].findings if f.check is not CheckId.EDITION_NOTE]
    assert len(rows) == len(findings)
    assert tuple(rows[0]) == exports.CSV_COLUMNS
    assert {r["classification"] for r in rows} <= {s.value for s in Status}


def test_cli_writes_the_exports(tmp_path, capsys):
    from generator.__main__ import main
    code = main(["check", "--export", str(tmp_path / "out"), "--format", "json"])
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "cytosis.findings.csv", "cytosis.it-2e.changed.xlf", "cytosis.it-2e.xlf", "cytosis.tmx", "glossary.tbx"]


def test_cli_refuses_an_export_path_that_is_a_file(tmp_path, capsys):
    from generator.__main__ import main
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main(["check", "--export", str(target)]) == 2
    assert "expected a folder" in capsys.readouterr().err
