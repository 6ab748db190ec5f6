"""Search (one combined index for it+en, stemmers for it, en and ru) finds the expected pages."""
from __future__ import annotations

import pytest

from conftest import SITE
from helpers import search

# (page the search starts from, query, a page that must be among the results)
CASES = [
    pytest.param("", "ribosoma", "cytosis/spots/", id="it-ribosoma"),
    pytest.param("", "beute", "cytosis/components/", id="it-beute-plural"),
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


@pytest.mark.parametrize(("start", "query", "counterpart"), [
    # An English glossary term finds the Italian pages that use its Italian form (hidden
    # counterpart text), and the other way round.
    pytest.param("", "Flask", "Beuta", id="en-term-on-it-site"),
    pytest.param("en/", "Beuta", "Flask", id="it-term-on-en-site"),
])
def test_cross_language_search(page, site_url, prefix, start, query, counterpart):
    page.goto(site_url + start)
    results = search(page, query)
    own = [r for r in results if r.startswith(prefix + start) and (start or not r.startswith(prefix + "en/"))]
    assert own, f"{query!r} on /{start} found no page of that language: {results}"
    # The page found really uses the counterpart term in its visible text.
    page.goto(own[0].replace(prefix, site_url, 1))
    visible = page.locator("article").inner_text()
    assert counterpart in visible, f"{own[0]} does not show {counterpart!r}"


def test_search_highlight_lands_on_section(page, site_url, prefix):
    page.goto(site_url)
    search(page, "ribosoma")
    page.locator(".md-search-result__item a.md-search-result__link[href*='#']").first.click()
    page.wait_for_load_state()
    assert "h=ribosoma" in page.url
    assert page.locator("article mark").count() > 0, "search.highlight marked nothing"
