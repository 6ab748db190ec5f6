"""The edition differences page for translators: filters by classification, check and section keep
their state in the URL (a shared address shows the same selection), false positives stay folded
until asked for, and the downloads are served."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from helpers import SITE

PATH = "cytosis/differences/"


@pytest.fixture(autouse=True)
def _built():
    if not (SITE / PATH / "index.html").exists():
        pytest.fail(f"{PATH} is not in the built site: run `mkdocs build` (make test does)")


def _shown(page) -> list:
    return page.locator(".cellula-finding:visible").all()


def _query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


@pytest.mark.parametrize("lang", ["", "en/"])
def test_filters_filter_and_live_in_the_url(page, site_url, lang):
    page.goto(site_url + lang + PATH)
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    everything = page.locator(".cellula-finding").count()
    false_positives = page.locator(".cellula-finding[data-classification='false-positive']").count()
    assert len(_shown(page)) == everything - false_positives > 0
    page.select_option("select[name=classification]", "edition-change")
    shown = _shown(page)
    assert 0 < len(shown) < everything - false_positives
    assert all(f.get_attribute("data-classification") == "edition-change" for f in shown)
    assert _query(page)["classification"] == ["edition-change"]
    page.select_option("select[name=check]", "num-mismatch")
    shown = _shown(page)
    assert shown and all(f.get_attribute("data-check") == "num-mismatch" for f in shown)
    assert str(len(shown)) in page.locator(".cellula-diff-count").inner_text()
    # Every visible finding sits in a visible section; sections without one are hidden.
    assert page.locator(".cellula-diff-section:visible").count() == page.locator(
        ".cellula-diff-section:visible:has(.cellula-finding:visible)").count()
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    assert page.locator("select[name=check]").input_value() == "num-mismatch"
    assert len(_shown(page)) == len(shown)
    page.locator("form.cellula-diff-filters button[type=reset]").click()
    page.wait_for_function("() => !location.search.includes('check=')")
    assert len(_shown(page)) == everything - false_positives


def test_section_filter_and_false_positives_on_request(page, site_url):
    page.goto(site_url + "en/" + PATH + "?classification=false-positive")
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    shown = _shown(page)
    assert shown and all(f.get_attribute("data-classification") == "false-positive" for f in shown)
    section = page.locator(".cellula-diff-section:has(.cellula-finding:visible)").first.get_attribute("data-section")
    page.select_option("select[name=section]", section)
    assert page.locator(".cellula-diff-section:visible").count() == 1
    assert _query(page)["section"] == [section]
    # An unknown value in a shared address is ignored, not applied.
    page.goto(site_url + "en/" + PATH + "?check=NOPE")
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    assert page.locator("select[name=check]").input_value() == ""


@pytest.mark.parametrize("name", ["differences.csv", "cytosis.tmx", "cytosis.it-2e.xlf", "../glossary.tbx"])
def test_downloads_are_served(page, site_url, name):
    page.goto(site_url + "en/" + PATH)
    link = page.locator(f"a[href$='{name.split('/')[-1]}']").first
    href = link.get_attribute("href")
    response = page.request.get(page.url.rsplit("/", 1)[0] + "/" + href)
    assert response.ok, href
    assert len(response.body()) > 1000


@pytest.mark.parametrize("lang", ["", "en/"])
def test_no_sideways_scroll_on_a_phone(page, site_url, lang):
    """At 390 px the page scrolls only down: no element sticks out to the right, with the filters and
    the false positives shown too (their texts are the longest)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + lang + PATH + "?classification=all")
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5
                     && !e.closest('.md-sidebar, .md-search, [hidden]'))
        .map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' ' + Math.round(e.getBoundingClientRect().right))
        .slice(0, 10)""")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide: {wide}"


@pytest.mark.parametrize("lang, everything, some", [("", "{n} segnalazioni", "{shown} di {n} segnalazioni"),
                                                    ("en/", "{n} findings", "{shown} of {n} findings")])
def test_the_count_never_shows_more_than_its_total(page, site_url, lang, everything, some):
    """Without filters the count is the differences (false positives left out); with every classification
    it is all the findings, never "130 of 120"; a narrower choice is counted against the same total."""
    page.goto(site_url + lang + PATH)
    page.locator("form.cellula-diff-filters:not([data-pending])").wait_for()
    count = page.locator(".cellula-diff-count")
    findings = page.locator(".cellula-finding").count()
    differences = findings - page.locator(".cellula-finding[data-classification='false-positive']").count()
    assert count.inner_text() == everything.format(n=differences)
    page.select_option("select[name=classification]", "all")
    assert count.inner_text() == everything.format(n=findings)
    page.select_option("select[name=classification]", "false-positive")
    shown = len(_shown(page))
    assert count.inner_text() == some.format(shown=shown, n=findings) and 0 < shown < findings
