"""The "Edition differences" page: its summary counts the curated notes and the check's findings
by classification, and the page lists every note."""
from __future__ import annotations

import pytest

from generator.check import site_pages
from generator.check.model import CheckId, Status
from generator.rules import SITE_LANGUAGES


@pytest.fixture(scope="module")
def report(real_site):
    return real_site.extras["editions"]["cytosis"]


@pytest.fixture(scope="module")
def pages(real_site):
    return {p.lang: p for lang in SITE_LANGUAGES for p in site_pages.differences_pages(real_site, lang)}


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
