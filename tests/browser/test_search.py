"""Search (one combined index for it+en, stemmers for it, en and ru) finds the expected pages."""
from __future__ import annotations

import pytest

from conftest import SITE
from helpers import search

# (page the search starts from, query, a page that must be among the results)
CASES = [
    pytest.param("", "ribosoma", "cytosis/spots/", id="it-ribosoma"),
    pytest.param("", "beute", "cytosis/setup/", id="it-beute-plural"),
    pytest.param("en/", "ribosome", "en/cytosis/spots/", id="en-ribosome"),
    pytest.param("en/", "flasks", "en/cytosis/setup/", id="en-flasks"),
    # The Russian original of Immune Response is on the chapter pages (original-text tabs).
    pytest.param("", "Глюкоза", "immune-response/components/", id="ru-on-it-site"),
    pytest.param("en/", "фагоцитоз", "en/immune-response/intro/", id="ru-stemmed-on-en-site"),
]


def _need(path: str) -> None:
    if not (SITE / path / "index.html").exists():
        pytest.fail(f"expected page {path} is not in the built site")


@pytest.mark.parametrize(("start", "query", "expected"), CASES)
def test_search_finds_expected_page(page, site_url, prefix, start, query, expected):
    _need(expected)
    page.goto(site_url + start)
    results = search(page, query)
    assert prefix + expected in results, f"{query!r} from /{start}: {expected} not in {results}"


@pytest.mark.parametrize(("start", "query", "expected", "shown"), [
    # An English glossary term finds an Italian rules page that only shows the Italian form
    # (through the hidden counterpart text), and the other way round.
    pytest.param("", "Flask", "cytosis/setup/", "Beut", id="en-term-on-it-site"),
    pytest.param("en/", "Beuta", "en/cytosis/setup/", "Flask", id="it-term-on-en-site"),
    pytest.param("", "Exocytosis", "cytosis/spots/", "Esocitosi", id="en-term-on-it-site-2"),
])
def test_cross_language_search(page, site_url, prefix, start, query, expected, shown):
    _need(expected)
    page.goto(site_url + start)
    results = search(page, query)
    assert prefix + expected in results, f"{query!r} on /{start}: {expected} not in {results}"
    page.goto(site_url + expected)
    visible = page.locator("article").inner_text()
    assert shown in visible, f"{expected} does not show {shown!r}"
    assert query not in visible, f"{expected} shows {query!r} itself: not a cross-language match"


def test_search_highlight_lands_on_section(page, site_url, prefix):
    page.goto(site_url)
    search(page, "ribosoma")
    page.locator(".md-search-result__item a.md-search-result__link[href*='#']").first.click()
    page.wait_for_load_state()
    assert "h=ribosoma" in page.url
    page.locator("article mark").first.wait_for(state="attached", timeout=5_000)  # search.highlight


def test_search_index_is_requested_after_the_page_has_loaded(page, site_url):
    """The index is most of a page's weight: it must not compete with the page's own resources (the
    theme override holds Material's request back until the load event), and search still works."""
    page.goto(site_url + "en/cytosis/setup/")
    page.wait_for_function(
        "performance.getEntriesByType('resource').some(e => e.name.endsWith('/search/search_index.json'))",
        timeout=15_000)
    index_start, load_start = page.evaluate(
        "[performance.getEntriesByType('resource').find(e => e.name.endsWith('/search/search_index.json')).startTime,"
        " performance.getEntriesByType('navigation')[0].loadEventStart]")
    assert load_start > 0 and index_start >= load_start, (index_start, load_start)
    assert "en/cytosis/spots/" in " ".join(search(page, "ribosome"))
