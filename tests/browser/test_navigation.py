"""The language switcher keeps the page; glossary tooltips; the side-by-side view."""
from __future__ import annotations

import pytest

from helpers import SITE, pages_under
from helpers import switch_language

SWITCH_PAGES = ["", "cytosis/", "cytosis/setup/", "cytosis/compare/setup/", "glossary/"]


def _switch_pages() -> list[str]:
    extra = []
    for folder in ("cytosis/puzzles", "cards"):
        extra += pages_under(folder)[:1]
    return SWITCH_PAGES + extra


@pytest.mark.parametrize("path", _switch_pages())
def test_language_switcher_keeps_the_page(page, site_url, path):
    assert (SITE / path / "index.html").exists(), f"{path or 'home'} missing from the built site"
    page.goto(site_url + path)
    assert page.locator("html").get_attribute("lang") == "it"
    switch_language(page, "en")
    assert page.url.split("#")[0] == site_url + "en/" + path
    assert page.locator("html").get_attribute("lang") == "en"
    switch_language(page, "it")
    assert page.url.split("#")[0] == site_url + path
    assert page.locator("html").get_attribute("lang") == "it"


def _term_with(page, text: str):
    term = page.locator(f"article a.cellula-term[data-tip*='{text}']").first
    assert term.count() == 1, f"no glossary mark with {text!r} on {page.url}"
    return term


TIP = "#cellula-tip"


@pytest.mark.parametrize(("path", "tip"), [
    ("cytosis/setup/", "EN: Virus Expansion"),
    ("en/cytosis/setup/", "IT: Beuta"),
])
def test_glossary_tooltip_appears_on_hover(page, site_url, path, tip):
    page.goto(site_url + path)
    term = _term_with(page, tip)
    term.scroll_into_view_if_needed()
    assert page.locator(f"{TIP}:visible").count() == 0
    term.hover()
    page.locator(TIP).wait_for(state="visible", timeout=5_000)
    text = page.locator(TIP).inner_text()
    assert tip in text and " — " in text, "the tooltip gives the counterpart and the definition"
    font_px = float(page.locator(TIP).evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert font_px >= 14, f"tooltip type too small: {font_px}px"
    page.mouse.move(1, 1)  # leaving hides it again
    page.locator(TIP).wait_for(state="hidden", timeout=5_000)
    # The mark is a link to the glossary entry.
    href = term.get_attribute("href")
    assert "glossary/#term-" in href


def test_glossary_tooltip_is_reachable_and_dismissable_by_keyboard(page, site_url):
    page.goto(site_url + "cytosis/setup/")
    term = _term_with(page, "EN: Virus Expansion")
    term.focus()
    tip = page.locator(TIP)
    tip.wait_for(state="visible", timeout=5_000)
    assert term.get_attribute("aria-describedby") == "cellula-tip"
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden", timeout=5_000)
    assert term.get_attribute("aria-describedby") is None
    # Tab reaches the glossary marks in reading order.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "A"


def test_glossary_marks_only_the_first_occurrence_per_section(page, site_url):
    page.goto(site_url + "cytosis/setup/")
    per_section = page.evaluate("""() => {
        const out = {};
        let current = 'top';
        for (const el of document.querySelectorAll('article h2, article a.cellula-term')) {
          if (el.tagName === 'H2') { current = el.id; continue; }
          const key = current + '|' + el.getAttribute('href');
          out[key] = (out[key] || 0) + 1;
        }
        return out; }""")
    assert per_section, "no glossary marks on the page"
    repeated = {k: n for k, n in per_section.items() if n > 1}
    assert not repeated, f"a term is marked more than once in a section: {repeated}"


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


@pytest.mark.parametrize(("path", "lang"), [("cytosis/puzzles/whole-game-2e/", "it"), ("en/cytosis/puzzles/whole-game-2e/", "en")])
def test_a_step_tables_rule_link_shows_its_rule_on_focus_and_hover(page, site_url, path, lang):
    """The step tables' rule links carry their tooltip in data-tip (no title for Material to mount
    per element); the project's tooltip shows it on keyboard focus and on hover."""
    if not (SITE / path / "index.html").exists():
        pytest.skip(f"{path} is not in the built site")
    page.goto(site_url + path)
    link = page.locator("article table.cellula-steps a[data-tip]").first
    expected = link.get_attribute("data-tip")
    assert expected and link.get_attribute("title") is None
    link.focus()
    tip = page.locator(TIP)
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text() == expected
    assert link.get_attribute("aria-describedby") == "cellula-tip"
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden", timeout=5_000)
    link.hover()
    tip.wait_for(state="visible", timeout=5_000)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_heading_below_the_long_tables_is_reached_by_its_link(page, site_url, width):
    """A link to a heading below a whole game's long step and card tables lands on it, and once the
    reader has scrolled through a table nothing overlaps it."""
    path = "en/cytosis/puzzles/whole-game-2e/"
    if not (SITE / path / "index.html").exists():
        pytest.skip(f"{path} is not in the built site")
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site_url + path + "#assumptions")
    heading = page.locator("#assumptions")
    page.wait_for_function("() => { const r = document.getElementById('assumptions').getBoundingClientRect();"
                           " return r.top >= 0 && r.top < innerHeight / 2; }", timeout=5_000)
    assert heading.is_visible()
    steps = page.locator("article table.cellula-steps").first
    steps.scroll_into_view_if_needed()
    last_row = steps.locator("tbody > tr").last
    last_row.scroll_into_view_if_needed()
    table_bottom = steps.evaluate("t => t.getBoundingClientRect().bottom")
    row_bottom = last_row.evaluate("r => r.getBoundingClientRect().bottom")
    assert row_bottom <= table_bottom + 1, "the step table is drawn taller than its box"
    following = steps.evaluate("t => { let e = t.closest('.md-typeset__scrollwrap') || t;"
                               " e = e.nextElementSibling; return e ? e.getBoundingClientRect().top : null; }")
    assert following is None or following >= table_bottom - 1, "what follows the table overlaps it"
