"""No console errors, uncaught exceptions or failed requests on any built page, none allowed
(Material's sitemap.xml requests are answered in the page, see the theme override)."""
from __future__ import annotations

import pytest

from helpers import SITE


def _all_pages() -> list[str]:
    pages = sorted(p.parent.relative_to(SITE).as_posix() + "/" for p in SITE.rglob("index.html"))
    return [("" if p == "./" else p) for p in pages] or [""]


SETTLED = """async () => {
  // What a page starts by itself has run and been answered. Its idle-time work first: idle callbacks
  // run in the order they were asked for, so the page's own (a puzzle page's table preload) run
  // before this one.
  await new Promise(resolve => requestIdleCallback(resolve, {timeout: 5000}));
  // Then the answers: the play tables a puzzle page preloads (the search index is asked for only
  // when the reader goes to search, below); a resource entry is written once the response has
  // arrived, an error status included.
  const wanted = [...document.querySelectorAll('[data-table]:not([data-table=""])')].map(
    box => '/' + box.getAttribute('data-table'));
  const arrived = end => performance.getEntriesByType('resource').some(e => e.name.split('?')[0].endsWith(end));
  const deadline = performance.now() + 15000;
  while (!wanted.every(arrived)) {
    if (performance.now() > deadline) throw new Error('never answered: ' + wanted.filter(w => !arrived(w)).join(', '));
    await new Promise(resolve => setTimeout(resolve, 10));
  }
  // And the handlers of those answers (the table's script runs).
  await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}"""


@pytest.mark.parametrize("path", _all_pages())
def test_no_console_errors(page, site_url, path):
    page.goto(site_url + path, wait_until="load")
    # Scripts run on DOMContentLoaded / load, idle-time work comes after: wait until all of it has
    # run and been answered (the search worker's set-up, the same on every page of a language and
    # started when the reader goes to search, is awaited to the end below).
    page.evaluate(SETTLED)
    # The `page` fixture fails the test on any console error or failed request.


@pytest.mark.parametrize("path", ["", "en/"])
def test_search_worker_sets_up_without_console_errors(page, site_url, path):
    """The search worker's whole set-up (its lunr language scripts, indexing every document), which
    is the same on every page of a language, until it says it is ready (docs/assets/search.js marks
    ``cellula-search-ready``) once the reader goes to search: no console error on the way."""
    page.goto(site_url + path, wait_until="load")
    page.locator("input.md-search__input").focus()
    page.wait_for_function("performance.getEntriesByName('cellula-search-ready').length > 0", timeout=30_000)


def test_404_page_has_no_console_errors(page, site_url):
    response = page.goto(site_url + "no-such-page/")
    assert response.status == 404
    page.wait_for_load_state("networkidle")
    page.console.problems = [p for p in page.console.problems if "/no-such-page/" not in p]


@pytest.mark.parametrize("missing", ["no-such-page/", "en/cytosis/no-such-page/"])
def test_404_page_speaks_both_languages_and_leads_home(page, site_url, missing):
    response = page.goto(site_url + missing)
    assert response.status == 404
    page.wait_for_load_state("networkidle")
    page.console.problems = [p for p in page.console.problems if missing not in p]
    assert page.locator("article [lang=it]").inner_text().startswith("Pagina non trovata")
    assert page.locator("article [lang=en]").inner_text().startswith("Page not found")
    footer = page.locator(".md-copyright").inner_text()
    assert "Realizzato con" in footer and "Made with" in footer
    homes = page.locator("article a").evaluate_all("as => as.map(a => a.href)")
    assert homes == [site_url, site_url + "en/"]
    switch = page.locator(".md-select__link[hreflang]").evaluate_all(
        "as => as.map(a => [a.getAttribute('hreflang'), a.href])")
    assert sorted(switch) == [["en", site_url + "en/"], ["it", site_url]]


@pytest.mark.parametrize(("path", "credit"), [("", "Realizzato con"), ("en/", "Made with"),
                                              ("cytosis/setup/", "Realizzato con"), ("en/cytosis/setup/", "Made with")])
def test_footer_is_in_the_page_language(page, site_url, path, credit):
    page.goto(site_url + path)
    footer = page.locator(".md-copyright").inner_text()
    assert credit in footer
    other = "Made with" if credit == "Realizzato con" else "Realizzato con"
    assert other not in footer
    assert ("I testi dei regolamenti" in footer) == (credit == "Realizzato con")


@pytest.mark.parametrize("path", ["", "en/"])
def test_home_title_is_the_site_name_once(page, site_url, path):
    page.goto(site_url + path)
    assert page.title() == "Cellula"
