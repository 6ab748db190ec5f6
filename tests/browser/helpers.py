"""Small helpers for driving the Material for MkDocs UI in the browser tests."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from site_server import OFFLINE_SITE, ROOT, SITE, serve_site, site_prefix  # noqa: F401 -- the tests' one import


def search(page, query: str, timeout: float = 15_000) -> list[str]:
    """Type ``query`` into the header search box and return the result links' paths (no query
    string or fragment), in order, without duplicates: every result Material lists, however many.
    Material listens for keyup: the query is typed, then a key (End) is pressed so the search runs.
    A query left in the box from before is cleared first and its results awaited gone, so the
    results read are the new query's."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow screens: the search opens from the header button
        page.locator("label.md-header__button[for=__search]").click()
    box.click()
    if box.input_value():
        box.fill("")
        box.press("End")
        # The count line goes back to the invitation ("Scrivi per iniziare a cercare"), no digits.
        page.wait_for_function(f"() => !{COUNT_SHOWN}", timeout=timeout)
    box.fill(query)
    box.press("End")
    # The result count line: "7 documenti trovati" / "Nessun documento trovato" (it),
    # "7 matching documents" / "No matching documents" (en); before that, an invitation or
    # "initializing" text without digits.
    page.wait_for_function(f"() => {COUNT_SHOWN}", timeout=timeout)
    page.locator(".md-search-result__meta").wait_for(state="visible", timeout=timeout)
    _show_every_result(page, timeout)
    return result_paths(page, ".md-search-result__item a.md-search-result__link")


COUNT_SHOWN = """(m => m && /\\d|Nessun|No matching/.test(m.textContent))(
    document.querySelector('.md-search-result__meta'))"""

_MORE_RESULTS = """
async ([before, timeout]) => {
  // Material's "more" trigger fires when the bottom of the result area is reached anew (read once a
  // frame): leave it for a frame, come back, and wait for the next results to be listed.
  const wrap = document.querySelector('.md-search__scrollwrap');
  const count = () => document.querySelectorAll('.md-search-result__item').length;
  const frame = () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  wrap.scrollTop = 0; wrap.dispatchEvent(new Event('scroll'));
  await frame();
  wrap.scrollTop = wrap.scrollHeight; wrap.dispatchEvent(new Event('scroll'));
  const end = performance.now() + timeout;
  while (count() === before && performance.now() < end) await frame();
  return count();
}
"""


def _show_every_result(page, timeout: float) -> None:
    """Scroll Material's result list until it lists every result its count line announces (the
    first 10 result pages, then 4 more each time the list's end is reached)."""
    meta = page.locator(".md-search-result__meta").inner_text()
    number = re.search(r"\d[\d.,]*k?", meta)
    if number is None:  # "Nessun documento trovato" / "No matching documents"
        return
    if number.group().endswith("k") or not number.group().isdigit():
        raise AssertionError(f"search result count {meta!r} is not a plain number of results")
    expected = int(number.group())
    items = page.locator(".md-search-result__item")
    shown = items.count()
    while shown < expected:
        now = page.evaluate(_MORE_RESULTS, [shown, timeout])
        if now == shown:
            raise AssertionError(f"the search list stopped at {shown} of {meta!r}")
        shown = now
    assert shown == expected, f"the search lists {shown} results, its count line says {meta!r}"


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


RUN_QUERIES = """
async ({indexUrl, queries, chunk}) => {
  // The search worker as Material starts it on this page (through docs/assets/search.js, which wraps
  // window.Worker): the same index, query shaping, ranking and grouping the search dialog shows. A
  // fresh worker every `chunk` queries: one worker asked thousands of queries in a row stalled.
  const config = JSON.parse(document.getElementById("__config").textContent);  // paths relative to the page
  const index = await (await fetch(indexUrl)).json();
  const pages = [];
  for (let start = 0; start < queries.length; start += chunk) {
    const batch = queries.slice(start, start + chunk);
    const worker = new Worker(new URL(config.search, location.href));
    await new Promise((resolve, reject) => {
      let next = 0, timer = null;
      const ask = () => {
        clearTimeout(timer);
        if (next >= batch.length) return resolve();
        const query = batch[next++];
        timer = setTimeout(() => reject(new Error("no answer to " + JSON.stringify(query))), 20000);
        worker.postMessage({type: 2, data: query});
      };
      worker.addEventListener("message", ev => {
        if (ev.data.type === 1) ask();
        else if (ev.data.type === 3) {
          pages.push(ev.data.data.items.map(group => group[0].location.split("#")[0]));
          ask();
        }
      });
      worker.addEventListener("error", ev => reject(new Error("search worker: " + (ev.message || ev.type) + " after " + JSON.stringify(batch[next - 1]))));
      worker.postMessage({type: 0, data: {config: index.config, docs: index.docs, options: {suggest: false}}});
    });
    worker.terminate();
  }
  return pages;
}
"""


CHUNK = 1000
"""Queries asked of one search worker before a fresh one takes over (setting one up indexes every
document again, about a second)."""


def result_pages(page, site_url: str, lang: str, queries: list[str]) -> list[list[str]]:
    """Every result page of each query on the ``lang`` site, in the order the search dialog lists them,
    as site paths (``en/cytosis/spots/``). All queries run in one page, against the search worker,
    without typing: a few milliseconds a query."""
    return results_in_tabs({lang: page}, site_url, {lang: queries})[lang]


def results_in_tabs(tabs: dict, site_url: str, queries: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    """:func:`result_pages` of each language's ``queries`` in that language's tab, the tabs running
    at once (each has its own search worker: on two cores, twice as fast)."""
    for lang, tab in tabs.items():
        lang_root = "en/" if lang == "en" else ""
        tab.goto(site_url + lang_root)
        tab.evaluate("([run, args]) => { window.__cellulaRelevance = eval(run)(args); }",
                     [RUN_QUERIES, {"indexUrl": site_url + lang_root + "search/search_index.json",
                                    "queries": queries[lang], "chunk": CHUNK}])
    return {lang: tab.evaluate("window.__cellulaRelevance") for lang, tab in tabs.items()}


def is_right(top: list[str], right: list[str] | tuple[str, ...], lang_root: str) -> bool:
    """Whether one of the ``top`` pages (site paths) is one of the ``right`` ones (relative to the
    language root; a trailing * accepts any page below)."""
    rights = [lang_root + r for r in right]
    return any(t == r or (r.endswith("*") and t.startswith(r[:-1])) for t in top for r in rights)


def relevance_rows(page, site_url: str, prefix: str, lookups: list[dict]) -> list[dict]:
    """Run the relevance set (tests/search_relevance.yaml): one row per lookup with the top 3 result
    pages (site paths, language prefix kept) and whether one of them is a right page."""
    rows = []
    for lang in ("it", "en"):
        mine = [item for item in lookups if item["lang"] == lang]
        if not mine:
            continue
        found = result_pages(page, site_url, lang, [item["query"] for item in mine])
        for item, pages in zip(mine, found):
            top = pages[:3]
            rows.append({**item, "top": top, "count": len(pages),
                         "ok": is_right(top, item["right"], "en/" if lang == "en" else "")})
    return rows


def generated_rows(tabs: dict, site_url: str, lookups: list) -> list[dict]:
    """Run the generated relevance set (generator.search_lookups.Lookup items) in ``tabs`` (one per site
    language, see :func:`results_in_tabs`): one row per lookup with its fields, the top 3 result pages,
    the number of result pages and whether a right page is among the top 3."""
    mine = {lang: [lookup for lookup in lookups if lookup.site == lang] for lang in tabs}
    found = results_in_tabs(tabs, site_url, {lang: [lookup.query for lookup in items] for lang, items in mine.items()})
    return [lookup_row(lookup, pages[:3], len(pages)) for lang, items in mine.items()
            for lookup, pages in zip(items, found[lang])]


def lookup_row(lookup, top: list[str], count: int) -> dict:
    """The row of one generated lookup whose first result pages are ``top`` of ``count``."""
    return {"site": lookup.site, "kind": lookup.kind, "source": lookup.source, "query": lookup.query,
            "right": lookup.right, "top": top, "count": count,
            "ok": is_right(top, lookup.right, "en/" if lookup.site == "en" else "")}


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


def wait_for_first_move(page, timeout: float = 120_000) -> None:
    """Wait for play's first legal move after "Try it yourself" (120 s by default: Pyodide may load
    first). Past ``timeout`` ms, fail saying what the page said: the play status line (a failed
    start says why there) and the console's errors and failed requests, which the fixture reports
    only for a test that ends."""
    try:
        page.locator(".cellula-play__action").first.wait_for(state="visible", timeout=timeout)
    except PlaywrightTimeout:
        status = page.locator(".cellula-play__status").all_inner_texts()
        raise AssertionError(f"no move to play after {timeout / 1000:g} s; play status {status!r}; "
                             f"console: {getattr(page, 'console', None) and page.console.problems!r}") from None
