"""Phone width (390 px): no table hides a column. Wide tables (puzzle steps, Ursuppe's gene tables,
the setup charts of the side-by-side view) read as one block per row, each value after its column's
name; every cell, the final score included, lies inside the screen without a sideways scroll."""
from __future__ import annotations

import pytest

from helpers import SITE, pages_under

PHONE = {"width": 390, "height": 844}


def _first_puzzle(lang: str) -> str:
    pages = [p for p in pages_under("cytosis/puzzles", lang)
             if '<table class="cellula-steps' in (SITE / p / "index.html").read_text(encoding="utf-8")]
    assert pages, "no puzzle page with a step table"
    return pages[0]


HIDDEN_CELLS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const table of document.querySelectorAll('article table')) {
    for (const cell of table.querySelectorAll('tbody td, tfoot td')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -1 || r.right > width + 1) out.push(cell.textContent.trim().slice(0, 30) + ' @' + Math.round(r.right));
    }
  }
  return out; }"""


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("kind", ["puzzle", "genes", "compare"])
def test_no_table_hides_columns_on_a_phone(page, site_url, lang, kind):
    path = {"puzzle": _first_puzzle(lang), "genes": ("en/" if lang == "en" else "") + "ursuppe/genes/",
            "compare": ("en/" if lang == "en" else "") + "cytosis/compare/setup/"}[kind]
    page.set_viewport_size(PHONE)
    page.goto(site_url + path)
    page.locator("article table").first.wait_for(state="attached")
    assert page.locator("article table").count() > 0
    hidden = page.evaluate(HIDDEN_CELLS)
    assert not hidden, f"cells outside a {PHONE['width']}px screen on {path}: {hidden[:5]}"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"] + 1


@pytest.mark.parametrize("lang", ["it", "en"])
def test_stacked_step_rows_name_their_columns_and_show_the_final_score(page, site_url, lang):
    path = _first_puzzle(lang)
    page.set_viewport_size(PHONE)
    page.goto(site_url + path)
    table = page.locator("article table.cellula-steps").first
    headers = table.locator("thead th").evaluate_all("ths => ths.map(t => (t.querySelector('abbr[title]') || {}).title || t.textContent.trim())")
    cells = table.locator("tbody tr").first.locator("td").all()
    labels = [c.evaluate("c => JSON.parse(getComputedStyle(c, '::before').content)") for c in cells]
    assert labels == headers, "a stacked cell does not name its column"
    final = table.locator("tfoot td").last
    if final.count():
        assert final.is_visible()
        box = final.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"] + 1
