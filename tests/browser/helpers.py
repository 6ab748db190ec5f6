"""Small helpers for driving the Material for MkDocs UI in the browser tests."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from site_server import OFFLINE_SITE, ROOT, SITE, serve_site, site_prefix  # noqa: F401 -- the tests' one import


def search(page, query: str, timeout: float = 15_000) -> list[str]:
    """Type ``query`` into the header search box and return the result links' paths (no query
    string or fragment), in order, without duplicates. Material listens for keyup: the query is
    typed, then a key (End) is pressed so the search runs."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow screens: the search opens from the header button
        page.locator("label.md-header__button[for=__search]").click()
    box.click()
    box.fill(query)
    box.press("End")
    meta = page.locator(".md-search-result__meta")
    # The result count line: "7 documenti trovati" / "Nessun documento trovato" (it),
    # "7 matching documents" / "No matching documents" (en); before that, an invitation or
    # "initializing" text without digits.
    page.wait_for_function(
        """() => { const m = document.querySelector('.md-search-result__meta');
                   return m && /\\d|Nessun|No matching/.test(m.textContent); }""",
        timeout=timeout)
    meta.wait_for(state="visible", timeout=timeout)
    # Material renders the first 10 result pages, then 4 more each time the list reaches its end.
    items = page.locator(".md-search-result__item")
    wrap = page.locator(".md-search__scrollwrap")
    stable = 0
    while stable < 3:
        before = items.count()
        # The "more" trigger fires when the bottom is reached anew: leave it, then come back.
        wrap.evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }")
        page.wait_for_timeout(50)
        wrap.evaluate("el => { el.scrollTop = el.scrollHeight; el.dispatchEvent(new Event('scroll')); }")
        page.wait_for_timeout(100)
        stable = stable + 1 if items.count() == before else 0
    return result_paths(page, ".md-search-result__item a.md-search-result__link")


def result_paths(page, selector: str) -> list[str]:
    """The distinct page paths of the search result links ``selector`` matches, in result order."""
    hrefs = page.locator(selector).evaluate_all("links => links.map(a => a.href)")
    paths: list[str] = []
    for href in hrefs:
        path = urlsplit(href).path
        if path not in paths:
            paths.append(path)
    return paths


def search_count_text(page) -> str:
    return page.locator(".md-search-result__meta").inner_text().strip()


def top_pages(page, query: str, count: int = 3, timeout: float = 20_000) -> list[str]:
    """The paths of the first ``count`` result pages for ``query`` (one search box, reused): the box
    is emptied first and the placeholder awaited, so the results read are the new query's."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():
        page.locator("label.md-header__button[for=__search]").click()
    box.click()
    box.fill("")
    box.press("End")
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__list .md-search-result__item')", timeout=timeout)
    box.fill(query)
    box.press("End")
    page.wait_for_function(
        """() => document.querySelector('.md-search-result__list .md-search-result__item')
                 || /Nessun|No matching/.test(document.querySelector('.md-search-result__meta')?.textContent)""",
        timeout=timeout)
    return result_paths(page, ".md-search-result__item > a.md-search-result__link")[:count]


def relevance_rows(page, site_url: str, prefix: str, lookups: list[dict]) -> list[dict]:
    """Run the relevance set (tests/search_relevance.yaml): one row per lookup with the top 3 result
    pages (site paths, language prefix kept) and whether one of them is a right page."""
    rows = []
    current = None
    for item in lookups:
        lang_root = "en/" if item["lang"] == "en" else ""
        if current != item["lang"]:
            page.goto(site_url + lang_root)
            current = item["lang"]
        top = [p[len(prefix):] if p.startswith(prefix) else p for p in top_pages(page, item["query"])]
        right = [lang_root + r for r in item["right"]]
        ok = any(t == r or (r.endswith("*") and t.startswith(r[:-1])) for t in top for r in right)
        rows.append({**item, "top": top, "ok": ok})
    return rows


def switch_language(page, hreflang: str) -> None:
    """Follow the header's language switch to ``hreflang`` and wait for the new page."""
    page.locator(".md-header .md-select").hover()
    link = page.locator(f".md-select__link[hreflang={hreflang}]")
    link.wait_for(state="visible")
    with page.expect_navigation():
        link.click()


def built_page(path: str) -> Path:
    """The built file of a site path like ``cytosis/setup/`` (in ``site/``)."""
    return SITE / path / "index.html" if path.endswith("/") or not path else SITE / path


def pages_under(folder: str, lang: str = "it") -> list[str]:
    """Site paths (``cytosis/puzzles/x/``) of the built pages under ``folder`` for ``lang``."""
    base = SITE / ("en/" if lang == "en" else "") / folder
    if not base.is_dir():
        return []
    found = []
    for index in sorted(base.rglob("index.html")):
        rel = index.parent.relative_to(SITE).as_posix()
        if rel != base.relative_to(SITE).as_posix():
            found.append(rel + "/")
    return found
