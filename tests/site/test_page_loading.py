"""How the built pages load: nothing holds back their first paint, and the longest puzzle pages do
not pay per element for what the reader has not reached (issue #19: interactive within 2 s on a
slow phone)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_server import SITE

SCRIPT = re.compile(r"<script\b(?P<attrs>[^>]*)>", re.S)


def built_pages() -> list[Path]:
    if not (SITE / "index.html").exists():
        pytest.fail("site/ is not built: run `make site` (make test builds it before these tests)")
    return sorted(SITE.rglob("*.html"))


def puzzle_pages() -> list[Path]:
    return [p for p in SITE.glob("**/cytosis/puzzles/*/index.html") if 'class="cellula-steps"' in p.read_text(encoding="utf-8")]


def test_every_script_file_is_deferred():
    """A script file that is not deferred stops the page from painting until it has downloaded and
    run: Material's bundle and the project's scripts run once the page is parsed, in order."""
    blocking = [f"{page.relative_to(SITE)}: <script{m.group('attrs')}>"
                for page in built_pages() for m in SCRIPT.finditer(page.read_text(encoding="utf-8"))
                if " src=" in m.group("attrs") and not re.search(r"\b(defer|async)\b|type=\"module\"", m.group("attrs"))]
    assert not blocking, f"{len(blocking)} scripts block the first paint, e.g. {blocking[:3]}"


def test_rule_links_of_the_step_tables_have_the_projects_tooltip_not_a_title():
    """Material mounts observers on every element with a title as the page loads; a whole game's
    step tables have about 200 rule links, so their tooltips are data-tip (assets/tips.js)."""
    pages = puzzle_pages()
    assert pages, "no puzzle page with a step table in the built site"
    for page in pages:
        html = page.read_text(encoding="utf-8")
        tables = re.findall(r'<table class="cellula-steps".*?</table>', html, re.S)
        links = [a for t in tables for a in re.findall(r"<a\b[^>]*>", t)]
        assert links, f"{page.relative_to(SITE)}: the step tables link no rule"
        titled = [a for a in links if " title=" in a]
        assert not titled, f"{page.relative_to(SITE)}: {titled[:2]}"
        assert all(re.search(r'data-tip="[^"]+"', a) for a in links), page.relative_to(SITE)
