"""The rules audit (``data/audit/cytosis.yaml``) is complete and every reference in it holds:
each section of the Cytosis rules is classified, each plan-relevant one has a row, quotes are
verbatim, engine/planner paths import, tests exist, and ``wrong`` rows match the strict xfails."""
from __future__ import annotations

import ast
import re

import pytest
import yaml

from generator.audit import ROOT, Status, load_audit, plain, planner_blocks, resolve_code, section_source_text
from generator.audit import test_functions as defined_tests
from generator.errors import Problems
from generator.paths import DATA_DIR
from generator.audit import AUDITS

AUDIT_FILE = DATA_DIR / "audit" / "cytosis.yaml"
ROWS_TESTS = ROOT / "tests" / "test_rules_audit_rows.py"


def test_every_section_is_classified_once(game, audit):
    relevant, excluded = set(audit.plan_relevant), {e.id for e in audit.excluded}
    every = {s for c in game.chapters for s in c.sections}
    assert not relevant & excluded
    assert relevant | excluded == every


def test_every_plan_relevant_section_has_a_row(audit):
    covered = {s for r in audit.rows for s in r.sections}
    assert [s for s in audit.plan_relevant if s not in covered] == []


def test_quotes_are_verbatim(game, audit):
    for row in audit.rows:
        for quote in row.quotes:
            assert plain(quote.text) in plain(section_source_text(game, quote.section, quote.source)), (row.id, quote)


def test_code_references_resolve(audit):
    for row in audit.rows:
        for path in row.engine:
            resolve_code(path)
        for ref in row.planner:
            function = resolve_code(ref.function)
            assert ref.block is None or ref.block in planner_blocks(function), (row.id, str(ref))


def test_test_references_exist(audit):
    for row in audit.rows:
        assert row.tests, row.id
        for ref in row.tests:
            file, name = ref.split("::")
            assert name in defined_tests(ROOT / file), ref


def test_rows_have_both_languages_and_rulings_both_readings(audit):
    for row in audit.rows:
        assert row.explanation.it and row.explanation.en
        assert (row.chosen is not None and row.other is not None) == (row.status is Status.RULING), row.id


def test_modelled_rows_name_engine_and_planner(audit):
    for row in audit.rows:
        if row.status in (Status.IMPLEMENTED, Status.RULING, Status.WRONG):
            assert row.engine and row.planner, row.id


def _wrong_marks() -> dict[str, str]:
    """Test function name -> row id of its ``@wrong("row-id")`` mark in the row tests."""
    tree = ast.parse(ROWS_TESTS.read_text(encoding="utf-8"))
    marks = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and getattr(dec.func, "id", None) == "wrong":
                    marks[node.name] = dec.args[0].value
    return marks


def test_wrong_rows_and_strict_xfails_match(audit):
    """A ``wrong`` row has a strict-xfail test of the rulebook's reading, and an xfail names a
    ``wrong`` row: when the fix lands, the mark and the status change together."""
    marks = _wrong_marks()
    wrong_rows = {r.id for r in audit.rows if r.status is Status.WRONG}
    assert set(marks.values()) == wrong_rows
    for row in audit.rows:
        if row.status is Status.WRONG:
            named = {ref.split("::")[1] for ref in row.tests if ref.startswith("tests/test_rules_audit_rows.py::")}
            assert any(marks.get(n) == row.id for n in named), row.id


# --- the validator reports every problem with file and line --------------------------------------

def _mutate(data: dict, change) -> dict:
    change(data)
    return data


def _row(data, row_id):
    return next(r for r in data["rows"] if r["id"] == row_id)


MUTATIONS = {
    "unclassified section": (lambda d: d["excluded"].pop(0), "is not classified"),
    "plan-relevant section without a row": (
        lambda d: d.update(rows=[r for r in d["rows"] if "spots.nucleus" not in r["sections"]]),
        "'spots.nucleus' has no audit row"),
    "quote not verbatim": (lambda d: _row(d, "one-flask-per-spot")["quotes"][0].update(text="Due beute per spazio."),
                           "not found verbatim"),
    "quote from a section not in the row": (
        lambda d: _row(d, "one-flask-per-spot")["quotes"][0].update(section="spots.nucleus"),
        "is not one of the row's sections"),
    "engine path does not import": (lambda d: _row(d, "mitochondria")["engine"].append("solver.game.engine.no_such_rule"),
                                    "has no attribute 'no_such_rule'"),
    "planner block missing": (lambda d: _row(d, "mitochondria")["planner"].append("solver.optimise.planner.build_model#spots.nowhere"),
                              "opens no block"),
    "test function missing": (lambda d: _row(d, "mitochondria")["tests"].append("tests/test_engine.py::test_nothing"),
                              "has no function 'test_nothing'"),
    "ruling without the other reading": (lambda d: _row(d, "supply-unlimited").pop("other"), "missing 'other'"),
    "unknown status": (lambda d: _row(d, "mitochondria").update(status="done"), "expected one of"),
    "explanation in one language": (lambda d: _row(d, "mitochondria").update(explanation={"en": "x"}),
                                    "expected {it: text, en: text}"),
    "duplicate row id": (lambda d: d["rows"].append(dict(_row(d, "mitochondria"))), "duplicate row id"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_validator_reports_bad_audit(game, tmp_path, name):
    change, message = MUTATIONS[name]
    data = _mutate(yaml.safe_load(AUDIT_FILE.read_text(encoding="utf-8")), change)
    file = tmp_path / "cytosis.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    problems = Problems()
    load_audit(file, game, problems)
    texts = [str(p) for p in problems.items]
    assert any(message in t for t in texts), texts
    assert all(t.startswith(f"{file}:") for t in texts), texts      # file:line on every problem


def test_validator_reports_all_problems_at_once(game, tmp_path):
    data = yaml.safe_load(AUDIT_FILE.read_text(encoding="utf-8"))
    together = {k: v for k, v in MUTATIONS.items() if k != "duplicate row id"}   # that one needs a valid row
    for change, _ in together.values():
        change(data)
    file = tmp_path / "cytosis.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    problems = Problems()
    load_audit(file, game, problems)
    texts = "\n".join(str(p) for p in problems.items)
    assert all(message in texts for _, message in together.values()), texts


# --- the rules-coverage page ---------------------------------------------------------------------

LANGS = ("it", "en")


@pytest.fixture(scope="module")
def coverage_pages(real_site):
    from generator import audit_page
    return {lang: audit_page.produce(real_site, lang) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_coverage_page_has_every_row_and_the_counts(real_site, coverage_pages, lang):
    from generator import audit_page
    [page] = coverage_pages[lang]
    audit = real_site.get(AUDITS)["cytosis"]
    assert page.path == audit_page.PAGE and page.title == audit_page.UI[lang]["title"]
    for row in audit.rows:
        assert f"{{ #{row.id} }}" in page.content, row.id
        assert f"cellula-audit--{row.status.value}" in page.content
    for status, count in audit.counts().items():
        label = audit_page.UI[lang][f"status_{status.value}"]
        assert re.search(rf">{re.escape(label)}</span> [^|]+\| {count} \|", page.content), (status, count)
    assert f"| **{len(audit.rows)}** |" in page.content


@pytest.mark.parametrize("lang", LANGS)
def test_coverage_page_labels_quotes_and_project_notes(real_site, coverage_pages, lang):
    from generator import audit_page
    [page] = coverage_pages[lang]
    audit = real_site.get(AUDITS)["cytosis"]
    game = real_site.games["cytosis"]
    quotes = sum(len(r.quotes) for r in audit.rows)
    labels = {s.id: s.label[lang] for s in game.sources}
    official = re.findall(r'<span class="cellula-badge cellula-prov--official">([^<]+)</span> <span lang=', page.content)
    assert len(official) == quotes and set(official) <= set(labels.values())
    assert page.content.count(f'cellula-prov--project">{audit_page.UI[lang]["project_note"]}</span>') == len(audit.rows)
    rulings = [r for r in audit.rows if r.status is Status.RULING]
    assert page.content.count(f"**{audit_page.UI[lang]['other']}:**") == len(rulings)


@pytest.mark.parametrize("lang", LANGS)
def test_coverage_page_shows_each_discriminating_puzzle_beside_its_row(real_site, coverage_pages, lang):
    """Each row's puzzle sits in the row's own section with its title, both optima and its
    derivation in the page's language; rows without one say why; the summary counts them."""
    from generator import audit_page
    [page] = coverage_pages[lang]
    audit = real_site.get(AUDITS)["cytosis"]
    ui = audit_page.UI[lang]
    assert audit.puzzles, "expected discriminating puzzles under data/audit/puzzles"
    for row in audit.rows:
        section = page.content.split(f"{{ #{row.id} }}", 1)[1].split("\n### ", 1)[0]
        item = audit.puzzles.get(row.id)
        if item is None:
            assert f'!!! example "{ui["puzzle_heading"]}"' not in section, row.id
            expected = (ui["puzzle_impossible"] if row.no_puzzle else ui["puzzle_none"] if row.status.takes_puzzle
                        else ui["puzzle_not_applicable"])
            assert f"**{ui['puzzle_heading']}:** {expected}" in section, row.id
            continue
        assert f'!!! example "{ui["puzzle_heading"]}"' in section, row.id
        assert audit_page.md_inline(dict(item.puzzle.title)[lang]) in section, row.id
        assert ui["puzzle_optimum"].format(n=item.optimum) in section, row.id
        assert f"{ui['puzzle_other']}:** " in section and f": {item.other_optimum}" in section, row.id
        story = audit_page.md_inline(" ".join(dict(item.puzzle.story)[lang].split()))
        assert story in section, row.id
    eligible = [r for r in audit.rows if r.status.takes_puzzle]
    impossible = sum(1 for r in eligible if r.no_puzzle)
    assert ui["puzzle_summary"].format(n=len(audit.puzzles), eligible=len(eligible), impossible=impossible,
                                       others=len(audit.rows) - len(eligible)) in page.content


@pytest.mark.parametrize("lang", LANGS)
def test_puzzle_index_links_the_coverage_page(real_site, lang):
    from generator.puzzles import feature as puzzle_pages
    index = next(p for p in puzzle_pages.produce(real_site, lang) if p.path == puzzle_pages.INDEX_PAGE)
    assert f"[{puzzle_pages.UI[lang]['rules_coverage']}](../rules-coverage.md)" in index.content


@pytest.mark.parametrize("lang", LANGS)
def test_rule_sections_link_their_audit_rows(real_site, lang):
    """Each covered rule section links its first row on the coverage page, naming the statuses."""
    from generator import audit_page
    game = real_site.games["cytosis"]
    audit = real_site.get(AUDITS)["cytosis"]
    for section_id in audit.plan_relevant:
        [(label, href)] = audit_page.audit_links(real_site, game, game.sections[section_id], lang, "cytosis/spots.md")
        first = next(r for r in audit.rows if section_id in r.sections)
        assert href == f"rules-coverage.md#{first.id}" and label.startswith(audit_page.UI[lang]["title"])
    for exclusion in audit.excluded:
        assert audit_page.audit_links(real_site, game, game.sections[exclusion.id], lang, "cytosis/spots.md") == []
