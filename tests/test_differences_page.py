"""The "Edition differences" page: its summary counts the curated notes and the check's findings
by classification, and the page lists every note."""
from __future__ import annotations

import pytest

from generator.check import site_pages
from generator.check.model import CheckId, Status
from generator.rules import SITE_LANGUAGES
from generator.check.editions import EDITION_REPORTS


@pytest.fixture(scope="module")
def report(real_site):
    return real_site.get(EDITION_REPORTS)["cytosis"]


@pytest.fixture(scope="module")
def pages(real_site):
    return {p.lang: p for lang in SITE_LANGUAGES for p in site_pages.differences_pages(real_site, lang)
            if p.path == "cytosis/differences.md"}


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_summary_counts_notes_and_findings_by_classification(report, lang):
    rows = site_pages.summary_rows(report, lang)
    *kinds, (total_label, total_notes, total_findings) = rows
    assert total_label == site_pages.UI[lang]["total"]
    assert total_notes == len(report.notes) == sum(n or 0 for _, n, _ in kinds)
    assert dict((label, n) for label, n, _ in kinds)[site_pages.STATUS_LABEL[lang][Status.FALSE_POSITIVE]] is None
    checked = [f for f in report.findings if f.check is not CheckId.EDITION_NOTE]
    assert total_findings == len(checked) == sum(f for _, _, f in kinds)
    # Every note kind has a row, zeros included; classifications are named in the page's language.
    labels = [label for label, _, _ in kinds]
    assert set(site_pages.KIND_LABEL[lang].values()) <= set(labels)
    assert len(labels) == len(set(labels))


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_summary_table_is_on_the_page_with_named_columns(pages, report, lang):
    ui = site_pages.UI[lang]
    content = pages[lang].content
    assert f"| {ui['status']} | {ui['notes_column']} | {ui['findings_column']} |" in content
    assert f"| **{ui['total']}** | {len(report.notes)} |" in content
    for note in report.notes:
        assert f"#note-{note.id}" in content or f"{{ #note-{note.id} }}" in content


# --- the page for translators (issue 17) -----------------------------------------------------------

def _findings(report):
    return [f for f in report.findings if f.check is not CheckId.EDITION_NOTE]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_page_shows_no_hashes_nor_internal_keys(pages, report, lang):
    content = pages[lang].content
    for finding in _findings(report):
        assert finding.fingerprint not in content
    for check in CheckId:
        assert check.value not in content  # check ids appear as readable labels only
    assert "<code>" not in content.split("## ")[-1]  # no term ids or section ids in code spans


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_filters_cover_every_classification_check_and_section(pages, report, lang):
    content = pages[lang].content
    assert '<form class="cellula-diff-filters"' in content
    for name in ("classification", "check", "section"):
        assert f'<select name="{name}">' in content
    for finding in _findings(report):
        slug = finding.check.value.lower().replace("_", "-")
        assert f'<option value="{slug}">' in content
        assert f'<option value="{finding.status.value}">' in content
        anchor = finding.section.replace(".", "-")
        assert f'<option value="{anchor}">' in content
    assert content.count('<div class="cellula-finding"') == len(_findings(report))


def test_reasons_are_in_the_page_language(pages, report, real_site):
    from generator.check.reasons import reason
    terms = {t.id: t for t in real_site.glossary}
    italian = pages["it"].content
    for finding in _findings(report):
        assert finding.message not in italian
        it_reason, en_reason = reason(finding, "it", terms), reason(finding, "en", terms)
        assert it_reason != en_reason
    for english_phrase in ("found in the", "has no ", "is not in the Hunspell", "numbers differ"):
        assert english_phrase not in italian


@pytest.mark.parametrize("check", [c for c in CheckId if c is not CheckId.EDITION_NOTE])
def test_every_check_has_a_reason_in_both_languages(check):
    from generator.check.reasons import REASONS
    assert check in REASONS
    assert check in site_pages.CHECK_LABEL["it"] and check in site_pages.CHECK_LABEL["en"]


def test_word_level_marks_show_what_differs(report):
    number = next(f for f in _findings(report) if f.check is CheckId.NUM_MISMATCH and f.evidence["it_only"])
    view = site_pages.finding_view(number, "en")
    assert f"<mark>{number.evidence['it_only'][0]}</mark>" in view["it"]
    marks = site_pages.word_differences(number)
    assert marks["it"][1] == number.evidence["it_only"]


def test_highlight_marks_words_and_numbers_and_escapes():
    html = site_pages.highlight("Pay 2 <b>ATP</b> for 12 Lipids", ["lipid"], ["2"])
    assert "<mark>2</mark>" in html and "12" in html and "<mark>12</mark>" not in html
    assert "<mark>Lipids</mark>" in html and "<b>" not in html and "&lt;b&gt;" in html


@pytest.fixture(scope="module")
def all_pages(real_site):
    return [p for lang in SITE_LANGUAGES for p in site_pages.differences_pages(real_site, lang)]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_csv_export_is_on_the_site_in_the_page_language(all_pages, report, lang):
    """The CSV starts with a byte-order mark (spreadsheet programs read its accents right) and reads back
    with every finding, its classification in the page language and the reviewer's reason in it too."""
    import csv
    import io
    page = next(p for p in all_pages if p.lang == lang and p.path == "cytosis/differences.csv")
    raw = page.content.encode("utf-8")  # as the build writes it
    assert raw.startswith(b"\xef\xbb\xbf") and not raw[3:].startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    findings = _findings(report)
    from generator import i18n
    from generator.check.exports import CSV_COLUMNS
    column = {c: i18n.t(f"check.csv_columns.{c}", lang) for c in CSV_COLUMNS}  # the header in the page language
    assert len(rows) == len(findings) and list(rows[0]) == [column[c] for c in CSV_COLUMNS]
    labels = set(site_pages.STATUS_LABEL[lang].values())
    assert {r[column["classification"]] for r in rows} <= labels
    reasons = report.reasons_it if lang == "it" else report.reasons
    assert [r[column["review"]] for r in rows] == [reasons[f.fingerprint] for f in findings]
    assert all(r[column["review"]] for r in rows)
    if lang == "it":
        assert any("à" in r[column["review"]] or "è" in r[column["review"]] for r in rows)
    assert "cytosis/differences.csv" in [p.path for p in all_pages]
    assert {"cytosis/cytosis.tmx", "cytosis/cytosis.it-2e.xlf", "cytosis/cytosis.it-2e.xliff12.xlf", "glossary.tbx",
            "glossary.en-ru.tbx", "glossary.it-ru.tbx", "glossary.xcs", "TBXBasiccoreStructV02.dtd", "tbxxcsdtd.dtd"} <= \
        {p.path for p in all_pages if p.lang == lang}
    assert "(differences.csv){ download }" in next(p for p in all_pages if p.lang == lang and p.path.endswith(".md")).content


def test_every_reviewed_finding_has_its_reason_in_both_languages(report):
    """The Italian side is as complete as the English one: every finding's reviewer reason exists in
    English and in the project's Italian translation, and the two differ (no copied English)."""
    findings = _findings(report)
    assert len(findings) >= 130
    for finding in findings:
        assert report.reasons.get(finding.fingerprint), finding.fingerprint
        assert report.reasons_it.get(finding.fingerprint), finding.fingerprint
        assert report.reasons_it[finding.fingerprint] != report.reasons[finding.fingerprint]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_every_finding_shows_its_reason_and_says_where_it_comes_from(pages, report, lang):
    from generator.render import escape_text
    content = pages[lang].content
    reasons = report.reasons_it if lang == "it" else report.reasons
    label = site_pages.UI[lang]["why"]
    assert content.count(f"<em>{label}:</em>") == len(_findings(report))
    assert site_pages.UI[lang]["why_source"] in content
    if lang == "it":
        assert "traduzione del progetto" in label
    for finding in _findings(report):
        assert escape_text(reasons[finding.fingerprint]).split("«")[0][:30] in content
