"""Reading details met by a player on the way (issue #36, item 6), one test each: a glossary mark
tapped on a phone shows its tooltip first; switching language after scrolling keeps the reading
place; the copy-link button is drawn, not a character fonts lack; tooltips open quotes with an
opening quote; "≠ 1" is followed by the singular."""
from __future__ import annotations

import os
import re

import pytest

RULES_PAGE = "cytosis/gameplay/"
"""A long rules page with glossary marks, numbered sections and both languages."""


@pytest.fixture
def phone(playwright_instance):
    """A tab in a touch phone's browser (390 x 844)."""
    browser = playwright_instance.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                                  headless=True, args=["--no-sandbox", "--disable-gpu"])
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="it-IT", service_workers="block")
    try:
        yield context.new_page()
    finally:
        browser.close()


def test_a_glossary_mark_tapped_on_a_phone_shows_its_tooltip(phone, site_url):
    phone.goto(site_url + RULES_PAGE)
    mark = phone.locator("article a.cellula-term[data-tip]").first
    mark.scroll_into_view_if_needed()
    address = phone.url
    mark.tap()
    tip = phone.locator("#cellula-tip")
    tip.wait_for(state="visible")
    assert tip.inner_text() == mark.get_attribute("data-tip")
    assert phone.url == address, "the first tap left the page"
    # a second tap on the same mark follows it to the glossary
    with phone.expect_navigation():
        mark.tap()
    assert "/glossary/" in phone.url


@pytest.mark.parametrize("target", ["en", "it"])
def test_switching_language_after_scrolling_keeps_the_place(page, site_url, target):
    start = site_url + ("" if target == "en" else "en/") + RULES_PAGE
    page.goto(start)
    heads = page.locator("article h2[id]")
    heading = heads.nth(heads.count() // 2)
    heading_id = heading.get_attribute("id")
    heading.evaluate("h => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 10)")
    assert "#" not in page.url
    with page.expect_navigation():
        page.evaluate("lang => document.querySelector(`a.md-select__link[hreflang=${lang}]`).click()", target)
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang").startswith(target)
    top = page.locator(f"#{heading_id}").evaluate("h => h.getBoundingClientRect().top")
    assert 0 <= top <= 120, f"{heading_id} is at {top} px from the top"


def test_the_copy_link_button_is_drawn(page, site_url):
    page.goto(site_url + RULES_PAGE)
    button = page.locator("article .cellula-copy-link").first
    button.wait_for(state="attached")
    assert button.locator("svg path").count() == 1
    assert button.inner_text().strip() == ""
    assert button.get_attribute("aria-label").strip()
    box = button.locator("svg").bounding_box()
    assert box and box["width"] >= 12 and box["height"] >= 12


CLOSING_FIRST = re.compile(r"(^|[\s(])”\w")
"""A quotation opened with a closing quote (``”mRnA”``)."""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_tooltips_open_quotes_with_an_opening_quote(page, site_url, lang):
    page.goto(site_url + ("en/" if lang == "en" else "") + RULES_PAGE)
    tips = page.locator("[data-tip]").evaluate_all("els => els.map(e => e.getAttribute('data-tip'))")
    assert tips
    wrong = [t for t in tips if CLOSING_FIRST.search(t)]
    assert wrong == []
    quoted = [t for t in tips if "“" in t]
    assert all(t.count("“") == t.count("”") for t in quoted), quoted


@pytest.mark.parametrize("lang", ["en", "it"])
def test_one_difference_is_singular(page, site_url, lang):
    page.goto(site_url + ("en/" if lang == "en" else "") + "cytosis/overview/")
    texts = page.locator("article a").all_inner_texts()
    ones = [t for t in texts if t.startswith("≠ 1 ")]
    assert ones, "no section with one difference on this page: pick another"
    assert all(t in ("≠ 1 difference", "≠ 1 differenza") for t in ones), ones
