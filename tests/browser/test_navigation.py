"""The language switcher keeps the page; glossary tooltips; the side-by-side view."""
from __future__ import annotations

import pytest

from conftest import SITE, pages_under

SWITCH_PAGES = ["", "cytosis/", "cytosis/setup/", "cytosis/compare/setup/", "glossary/"]


def _switch_pages() -> list[str]:
    extra = []
    for folder in ("cytosis/puzzles", "cards"):
        extra += pages_under(folder)[:1]
    return SWITCH_PAGES + extra


def _switch(page, hreflang: str) -> None:
    page.locator(".md-header .md-select").hover()
    link = page.locator(f".md-select__link[hreflang={hreflang}]")
    link.wait_for(state="visible")
    with page.expect_navigation():
        link.click()


@pytest.mark.parametrize("path", _switch_pages())
def test_language_switcher_keeps_the_page(page, site_url, path):
    assert (SITE / path / "index.html").exists(), f"{path or 'home'} missing from the built site"
    page.goto(site_url + path)
    assert page.locator("html").get_attribute("lang") == "it"
    _switch(page, "en")
    assert page.url.split("#")[0] == site_url + "en/" + path
    assert page.locator("html").get_attribute("lang") == "en"
    _switch(page, "it")
    assert page.url.split("#")[0] == site_url + path
    assert page.locator("html").get_attribute("lang") == "it"


def _abbr_with(page, text: str):
    abbr = page.locator(f"article abbr[title*='{text}']").first
    assert abbr.count() == 1, f"no glossary <abbr> with {text!r} on {page.url}"
    return abbr


@pytest.mark.parametrize(("path", "tip"), [
    ("cytosis/setup/", "EN: Flask"),
    ("en/cytosis/setup/", "IT: Beuta"),
])
def test_glossary_tooltip_appears_on_hover(page, site_url, path, tip):
    page.goto(site_url + path)
    abbr = _abbr_with(page, tip)
    abbr.scroll_into_view_if_needed()
    tooltip = page.locator(".md-tooltip2--active .md-tooltip2__inner")
    assert tooltip.count() == 0
    abbr.hover()
    tooltip.wait_for(state="visible", timeout=5_000)
    assert tip in tooltip.inner_text()
    page.mouse.move(1, 1)  # leaving hides it again
    page.locator(".md-tooltip2--active").wait_for(state="detached", timeout=5_000)


def test_cross_language_text_is_hidden(page, site_url):
    page.goto(site_url + "cytosis/setup/")
    hidden = page.locator(".cellula-xlang")
    assert hidden.count() > 0
    assert all(not el.is_visible() for el in hidden.all())


@pytest.mark.parametrize("lang", ["", "en/"])
def test_side_by_side_view(page, site_url, lang):
    page.goto(site_url + lang + "cytosis/compare/setup/")
    rows = page.locator(".cellula-sbs")
    assert rows.count() > 0
    for row in rows.all()[:5]:
        cols = row.locator(":scope > .cellula-sbs__col")
        assert cols.count() == 2
        assert [c.get_attribute("lang") for c in cols.all()] == ["it", "en"]
        left, right = (c.bounding_box() for c in cols.all())
        assert abs(left["y"] - right["y"]) < 2, "columns do not start on the same line"
        assert right["x"] >= left["x"] + left["width"], "columns overlap"
        assert min(left["width"], right["width"]) > 250, "a column is too narrow to read"
    # Phones: the two texts stack.
    page.set_viewport_size({"width": 400, "height": 800})
    left, right = (c.bounding_box() for c in rows.first.locator(":scope > .cellula-sbs__col").all())
    assert right["y"] >= left["y"] + left["height"] - 1
    assert abs(left["x"] - right["x"]) < 2


def test_rules_page_links_to_side_by_side(page, site_url):
    page.goto(site_url + "cytosis/setup/")
    link = page.locator("a.cellula-compare-link").first
    href = link.get_attribute("href")
    link.click()
    page.wait_for_load_state()
    assert "/cytosis/compare/setup/" in page.url
    anchor = href.split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1


@pytest.mark.parametrize("path", ["ursuppe/genes/", "en/ursuppe/genes/", "cytosis/benchmark/", "en/cytosis/benchmark/"])
def test_wide_tables_fit_a_desktop_window(page, site_url, path):
    """Tables of six or more columns fit the content column at 1280px: no column (the genes'
    descriptions) hidden behind a horizontal scroll."""
    if not (SITE / path / "index.html").exists():
        pytest.skip(f"{path} is not in the built site")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + path)
    wrappers = page.locator("article .md-typeset__scrollwrap")
    wrappers.first.wait_for(state="attached")
    overflowing = wrappers.evaluate_all("""ws => ws.filter(w => w.querySelectorAll('thead th').length >= 6)
        .map(w => [w.querySelector('th').textContent, w.scrollWidth - w.clientWidth]).filter(([, extra]) => extra > 1)""")
    assert not overflowing, f"tables wider than the page: {overflowing}"
