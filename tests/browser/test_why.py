"""Why a puzzle's optimum is optimal, its computed level, and the puzzle of the day (issue #19,
items 3-4), in a real browser, served and from file://."""
from __future__ import annotations

import json
import re
from pathlib import Path
from datetime import date
from html import unescape

import pytest

from helpers import OFFLINE_SITE, SITE
from generator import i18n

INDEX = "cytosis/puzzles/"
PUZZLE = "cytosis/puzzles/rulebook-protein-hormone-2e/"


def _prefix(lang: str) -> str:
    return "en/" if lang == "en" else ""


def _daily_list(lang: str) -> list[dict]:
    html = (SITE / _prefix(lang) / INDEX / "index.html").read_text(encoding="utf-8")
    found = re.search(r'class="cellula-daily" data-puzzles="([^"]*)"', html)
    assert found, "the puzzle index has no puzzle of the day: rebuild the site"
    return json.loads(unescape(found.group(1)))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_index_is_ordered_by_computed_level(page, site_url, lang):
    page.goto(site_url + _prefix(lang) + INDEX)
    cells = page.locator("article table tbody tr td:first-child span[title]")
    cells.first.wait_for()
    levels = [text.count("★") for text in cells.all_inner_texts()]
    assert len(levels) >= 40 and levels == sorted(levels), levels
    assert all(1 <= n <= 5 for n in levels)
    # Every level says its figures in its tooltip, and the formula is printed under the table.
    titles = cells.evaluate_all("spans => spans.map(s => s.title)")
    ui = i18n.namespace("puzzles")[lang]
    assert all(ui["grade_of"].format(n=n) in t for n, t in zip(levels, titles))
    assert page.get_by_role("heading", name=ui["grade_formula_title"]).count() == 1


@pytest.mark.parametrize("lang", ["it", "en"])
def test_puzzle_of_the_day_follows_the_readers_date(page, site_url, lang):
    listed = _daily_list(lang)
    page.goto(site_url + _prefix(lang) + INDEX)
    box = page.locator(".cellula-daily")
    box.wait_for()
    expected = listed[date.today().toordinal() % len(listed)]
    page.wait_for_function("() => document.querySelector('.cellula-daily').dataset.chosen")
    assert box.get_attribute("data-chosen") == expected["id"]
    link = box.locator("a")
    assert link.inner_text() == expected["title"]
    link.click()
    page.wait_for_url(re.compile(re.escape(expected["id"]) + r"/$"))
    assert page.locator("article h1").inner_text().strip()


@pytest.mark.parametrize("days, lang", [(0, "it"), (1, "en"), (17, "it")])
def test_puzzle_of_the_day_changes_with_the_date(own_page, site_url, days, lang):
    """The pick is the reader's date, not the build's: a clock set ahead picks the listed one."""
    page = own_page
    listed = _daily_list(lang)
    when = date.fromordinal(date.today().toordinal() + days)
    page.clock.set_fixed_time(f"{when.isoformat()}T12:00:00")
    page.goto(site_url + _prefix(lang) + INDEX)
    page.wait_for_function("() => document.querySelector('.cellula-daily').dataset.chosen")
    assert page.locator(".cellula-daily").get_attribute("data-chosen") == listed[when.toordinal() % len(listed)]["id"]


def test_puzzle_of_the_day_works_from_file_url(page):
    if not (OFFLINE_SITE / "index.html").exists():
        pytest.fail("site-offline/ is not built: run `make site-offline` (make test builds it first)")
    page.goto((OFFLINE_SITE / INDEX / "index.html").resolve().as_uri())
    page.wait_for_function("() => document.querySelector('.cellula-daily').dataset.chosen")
    href = page.locator(".cellula-daily a").evaluate("a => a.href")
    # the offline build's links name the page's file (use_directory_urls: false), which must exist
    from urllib.parse import unquote, urlparse
    assert href.startswith("file://") and href.endswith(".html") and Path(unquote(urlparse(href).path)).is_file(), href
    with page.expect_navigation():
        page.locator(".cellula-daily a").click()
    page.wait_for_selector("article h1")
    assert page.locator("article h1").count() == 1 and page.url == href


@pytest.mark.parametrize("lang", ["it", "en"])
def test_why_section_and_only_move_marks(page, site_url, lang):
    ui = i18n.namespace("puzzles")[lang]
    page.goto(site_url + _prefix(lang) + PUZZLE)
    heading = page.get_by_role("heading", name=ui["why_title"])
    assert heading.count() == 1
    section = page.locator(".cellula-why")
    items = section.locator(":scope > ul > li").all_inner_texts()
    assert len(items) >= 5, items
    assert items[0].startswith(ui["grade"])
    # Only moves are marked in the worked example's table, and listed by number in the section.
    marks = page.locator("article table.cellula-steps").first.locator("abbr.cellula-only")
    steps = [int(m.evaluate("a => a.closest('tr').firstElementChild.firstChild.textContent.trim()"))
             for m in marks.all()]
    if not steps:
        assert ui["why_only_none"] in items or ui["why_only_over"] in items, items
    else:
        key = "why_only_one" if len(steps) == 1 else "why_only"
        assert ui[key].format(steps=", ".join(map(str, steps))) in items, items
    assert marks.count() == 0 or marks.first.get_attribute("title") == ui["only_move"]
