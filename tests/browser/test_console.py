"""No console errors, uncaught exceptions or failed requests on any built page (sitemap.xml
404s aside: Material asks for one per language folder and the static-i18n build has none there)."""
from __future__ import annotations

import pytest

from conftest import SITE


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
