"""Puzzle worked examples (``cytosis/puzzles/<id>/``): the index lists them, and each page's step
table (the optimal sequence) is well formed and readable, on a desktop and on a phone."""
from __future__ import annotations

import pytest

from helpers import SITE, pages_under


def _puzzle_pages(lang: str) -> list[str]:
    return [p for p in pages_under("cytosis/puzzles", lang) if p.count("/") == (4 if lang == "en" else 3)]


def _first_puzzle_or_skip(lang: str) -> str:
    pages = [p for p in _puzzle_pages(lang) if "<table class=\"cellula-steps\"" in
             (SITE / p / "index.html").read_text(encoding="utf-8")]
    if not (SITE / ("en/" if lang == "en" else "") / "cytosis/puzzles/index.html").exists():
        pytest.skip("the puzzle pages (cytosis/puzzles/) are not in the built site yet")
    assert pages, "no puzzle page has a step table"
    return pages[0]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_puzzle_index_lists_the_puzzles(page, site_url, lang):
    _first_puzzle_or_skip(lang)
    prefix = "en/" if lang == "en" else ""
    page.goto(site_url + prefix + "cytosis/puzzles/")
    hrefs = page.locator("article a[href]").evaluate_all("as => as.map(a => a.href)")
    for path in _puzzle_pages(lang):
        if path.rstrip("/").endswith(("assumptions", "bench")):
            continue
        assert site_url + path in hrefs, f"{path} not linked from the puzzle index"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_puzzle_step_table(page, site_url, lang):
    path = _first_puzzle_or_skip(lang)
    page.goto(site_url + path)
    table = page.locator("article table.cellula-steps").first
    table.wait_for(state="visible")
    headers = table.locator("thead th").all_inner_texts()
    assert len(headers) >= 6 and all(h.strip() for h in headers)
    rows = table.locator("tbody > tr").all()
    assert rows, "the step table has no steps"
    for number, row in enumerate(rows, start=1):
        cells = row.locator(":scope > td").all_inner_texts()
        assert len(cells) == len(headers), f"step {number}: {len(cells)} cells for {len(headers)} columns"
        # an only move carries a "!" after its number (an <abbr> with its meaning as title)
        assert cells[0].strip().removesuffix("!").strip() == str(number), f"steps not numbered in order: {cells[0]!r}"
        if cells[0].strip().endswith("!"):
            assert row.locator("td abbr.cellula-only").first.get_attribute("title")
        assert all(c.strip() for c in cells[:4]), f"step {number} has an empty cell: {cells}"
    final = table.locator("tfoot td").last
    if final.count():
        assert final.inner_text().strip().lstrip("-").isdigit()
    # The spot links of a step lead to the rules.
    link = table.locator("tbody a[href]").first
    if link.count():
        assert "/cytosis/" in link.get_attribute("href") or link.get_attribute("href").startswith("../")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_puzzle_step_table_fits_a_phone(page, site_url, lang):
    path = _first_puzzle_or_skip(lang)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + path)
    table = page.locator("article table.cellula-steps").first
    table.wait_for(state="visible")
    page_width = page.evaluate("document.scrollingElement.scrollWidth")
    assert page_width <= 391, f"the step table widens the whole page to {page_width}px (it should scroll itself)"


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("viewport_width, min_plot_width", [(1280, 500), (390, 300)])
def test_benchmark_plot_is_drawn_at_a_readable_size(page, site_url, lang, viewport_width, min_plot_width):
    """The plots are inline SVG with a viewBox only: each must fill the content column (on a
    desktop and on a phone), not shrink to the browser's 300 x 150 default."""
    prefix = "en/" if lang == "en" else ""
    if not (SITE / prefix / "cytosis/benchmark/index.html").exists():
        pytest.skip("the benchmark page is not in the built site")
    page.set_viewport_size({"width": viewport_width, "height": 900})
    page.goto(site_url + prefix + "cytosis/benchmark/")
    plots = page.locator("article figure.cellula-bench-plot svg")
    plots.first.wait_for(state="visible")
    assert plots.count() >= 1
    for plot in plots.all():    # the scale plot and the deck suite's (issue #35)
        plot.scroll_into_view_if_needed()
        box = plot.bounding_box()
        _x, _y, width, height = map(float, plot.get_attribute("viewBox").split())
        assert box["width"] >= min_plot_width, f"a plot is {box['width']:.0f}px wide at a {viewport_width}px window"
        assert abs(box["height"] / box["width"] - height / width) < 0.02, "a plot lost its aspect ratio"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport_width + 1
