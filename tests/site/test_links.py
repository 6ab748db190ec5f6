"""Crawl the built site over HTTP: no broken link, no missing anchor, every page reachable."""
from __future__ import annotations

import re
import urllib.error
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if tag in ("a", "link", "script", "img") and attrs.get(key):
                self.links.append(attrs[key])


def fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = response.read()
            kind = response.headers.get_content_type()
            return response.status, kind, body.decode("utf-8", "replace") if kind == "text/html" else ""
    except urllib.error.HTTPError as exc:
        return exc.code, "", ""


@pytest.fixture(scope="module")
def crawl(site_url):
    """Every page and asset reachable from the home pages of both languages."""
    pages: dict[str, _Links] = {}
    status: dict[str, int] = {}
    anchors_wanted: list[tuple[str, str, str]] = []
    queue = [site_url, site_url + "en/"]
    while queue:
        url = queue.pop()
        if url in status:
            continue
        code, kind, body = fetch(url)
        status[url] = code
        if code != 200 or kind != "text/html":
            continue
        parser = _Links()
        parser.feed(body)
        pages[url] = parser
        for link in parser.links:
            target, fragment = urldefrag(urljoin(url, link))
            if urlsplit(target).netloc != urlsplit(site_url).netloc:
                continue  # nothing external should exist; checked separately
            if fragment:
                anchors_wanted.append((url, target, fragment))
            if target.startswith(site_url) and target not in status:
                queue.append(target)
    return pages, status, anchors_wanted


def test_no_broken_links(crawl):
    _pages, status, _ = crawl
    broken = sorted(url for url, code in status.items() if code != 200)
    assert not broken, f"{len(broken)} broken: {broken[:15]}"


POSITION_FRAGMENT = "puzzle="
"""The analysis board's links carry a position in their fragment (``#puzzle=...``, docs/assets/analysis.js
reads it): data for the page's script, not an anchor."""


def test_no_missing_anchors(crawl):
    pages, _status, wanted = crawl
    missing = sorted({(src, f"{target}#{fragment}") for src, target, fragment in wanted
                      if target in pages and fragment not in pages[target].ids
                      and not (target.endswith("/cytosis/analysis/") and fragment.startswith(POSITION_FRAGMENT))})
    assert not missing, f"{len(missing)} missing anchors, e.g. {missing[:10]}"


def test_site_is_large_and_bilingual(crawl):
    pages, _status, _ = crawl
    english = [u for u in pages if "/en/" in u]
    assert len(pages) > 40 and len(english) * 2 >= len(pages) - 2


def test_nothing_fetched_from_the_internet(crawl):
    pages, _status, _ = crawl
    external = sorted({link for parser in pages.values() for link in parser.links
                       if re.match(r"^(https?:)?//", link) and not link.startswith("http://127.0.0.1")})
    # Links to other sites are fine as <a href>, but no script, style or font may come from outside.
    assert not [l for l in external if re.search(r"\.(js|css|woff2?)(\?|$)", l)], external
