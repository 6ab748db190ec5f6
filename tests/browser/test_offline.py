"""The offline build (``make site-offline``) works straight from disk: search included."""
from __future__ import annotations

import pytest

from helpers import OFFLINE_SITE
from helpers import search


@pytest.fixture(scope="module")
def offline_root():
    if not (OFFLINE_SITE / "index.html").exists():
        pytest.fail("site-offline/ is not built: run `make site-offline` (make test builds it first)")
    return OFFLINE_SITE.resolve().as_uri() + "/"


@pytest.mark.parametrize(("start", "query", "expected"), [
    ("index.html", "ribosoma", "cytosis/spots.html"),
    ("en/index.html", "ribosome", "en/cytosis/spots.html"),
    ("index.html", "Flask", "cytosis/setup.html"),
    ("index.html", "ribosomi", "cytosis/spots.html"),  # stemmed, as served (issue 32)
    ("en/index.html", "exocitosis", "en/cytosis/spots.html"),  # a typo
])
def test_offline_search_from_file_url(page, offline_root, start, query, expected):
    page.goto(offline_root + start)
    assert page.url.startswith("file://")
    results = search(page, query)
    root_path = offline_root[len("file://"):]
    assert root_path + expected in results, f"{query!r}: {expected} not in {results}"
    # And the result opens from disk.
    page.goto(offline_root + expected)
    assert page.locator("article h1").count() == 1


def test_offline_pages_link_to_html_files(page, offline_root):
    page.goto(offline_root + "index.html")
    hrefs = page.locator("nav.md-nav--primary a.md-nav__link[href]").evaluate_all("a => a.map(x => x.href)")
    assert hrefs and all(h.startswith("file://") and h.split("#")[0].endswith(".html") for h in hrefs), hrefs[:5]


def test_offline_search_switch_adds_the_other_language(page, offline_root):
    """From file:// search_index.js holds both languages: the switch works without a server."""
    page.goto(offline_root + "en/index.html")
    page.evaluate("localStorage.removeItem('cellula.search.other')")
    try:
        search(page, "ribosome")
        before = page.locator(".md-search-result__meta").inner_text().strip()
        page.locator(".cellula-search-other input[type=checkbox]").check()
        page.wait_for_function(
            "before => document.querySelector('.md-search-result__meta').textContent.trim() !== before",
            arg=before, timeout=20_000)
        results = search(page, "ribosome")
        root_path = offline_root[len("file://"):]
        assert root_path + "en/cytosis/spots.html" in results and root_path + "cytosis/spots.html" in results
        assert results.index(root_path + "en/cytosis/spots.html") < results.index(root_path + "cytosis/spots.html")
    finally:
        page.evaluate("localStorage.removeItem('cellula.search.other')")
