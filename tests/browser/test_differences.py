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
