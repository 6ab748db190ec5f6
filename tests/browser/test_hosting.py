"""The built site works wherever it is hosted: served at the web root and under a sub-path other
than its ``site_url``, the home pages' language switches lead to the other home page, and no
internal link of a page is absolute (which would leave the base path)."""
from __future__ import annotations

import re

import pytest

from helpers import SITE, serve_site, site_prefix
from helpers import switch_language

BASES = ["/", "/some/other/path/"]


@pytest.fixture(scope="module", params=BASES, ids=["web-root", "sub-path"])
def hosted_url(request):
    with serve_site(SITE, prefix=request.param) as url:
        yield url


def test_language_switches_from_both_home_pages(page, hosted_url):
    page.goto(hosted_url)
    assert page.locator("html").get_attribute("lang") == "it"
    switch_language(page, "en")
    assert page.url == hosted_url + "en/"
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("article h1").count() == 1
    switch_language(page, "it")
    assert page.url == hosted_url
    assert page.locator("html").get_attribute("lang") == "it"


@pytest.mark.parametrize("path", ["", "en/", "cytosis/setup/", "en/cards/ursuppe/", "ursuppe/genes/"])
def test_every_internal_link_stays_under_the_base(page, hosted_url, path):
    page.goto(hosted_url + path)
    origin = re.match(r"https?://[^/]+", hosted_url).group(0)
    hrefs = page.locator("a[href], link[href]").evaluate_all(
        "els => els.filter(e => e.rel !== 'canonical').map(e => e.href)")
    internal = [h for h in hrefs if h.startswith(origin)]
    assert internal, "no internal links found"
    outside = [h for h in internal if not h.startswith(hosted_url)]
    assert not outside, f"links leaving {hosted_url}: {outside[:5]}"


def test_built_pages_hold_no_absolute_internal_links():
    """Only the 404 page (served at any depth) may link by absolute path."""
    prefix = site_prefix()
    pattern = re.compile(r'(?:href|src)="' + re.escape(prefix))
    offenders = [p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html")
                 if p.name != "404.html" and pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"absolute links under {prefix} in {offenders[:5]}"
