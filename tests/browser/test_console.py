"""No console errors, uncaught exceptions or failed requests on any built page, none allowed
(Material's sitemap.xml requests are answered in the page, see the theme override)."""
from __future__ import annotations

import pytest

from helpers import SITE


def _all_pages() -> list[str]:
    pages = sorted(p.parent.relative_to(SITE).as_posix() + "/" for p in SITE.rglob("index.html"))
    return [("" if p == "./" else p) for p in pages] or [""]


@pytest.mark.parametrize("path", _all_pages())
def test_no_console_errors(page, site_url, path):
    page.goto(site_url + path, wait_until="load")
    # Scripts run on DOMContentLoaded / load; the search worker starts right after: give it a moment.
    page.wait_for_timeout(250)
    # The `page` fixture fails the test on any console error or failed request.


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
