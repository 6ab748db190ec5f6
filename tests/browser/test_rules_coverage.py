"""The rules-coverage page (``cytosis/rules-coverage/``): reached from the puzzle index, it shows a
status badge on every audit row, and a row link of a group table lands on the row's entry."""
from __future__ import annotations

import pytest

from helpers import SITE


@pytest.mark.parametrize("lang", ["it", "en"])
def test_rules_coverage_from_the_puzzle_index(page, site_url, lang):
    prefix = "en/" if lang == "en" else ""
    if not (SITE / prefix / "cytosis/rules-coverage/index.html").exists():
        pytest.skip("the rules-coverage page is not in the built site")
    page.goto(site_url + prefix + "cytosis/puzzles/")
    page.locator('article a[href$="rules-coverage/"]').first.click()
    page.wait_for_url("**/cytosis/rules-coverage/")
    entries = page.locator("article h3[id]")
    assert entries.count() > 40
    badges = page.locator("article h3[id] + p .cellula-audit")
    assert badges.count() == entries.count()
    wrong = page.locator("article .cellula-audit--wrong").first
    assert wrong.evaluate("e => getComputedStyle(e).color") == "rgb(183, 28, 28)"
    first_row = page.locator("article table a[href^='#']").first
    target = first_row.get_attribute("href")
    first_row.click()
    assert page.locator(f"article h3{target}").is_visible()
