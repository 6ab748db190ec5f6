"""End-to-end tests in Debian's Chromium (driven by Playwright for Python) against the built site.

The site is served on loopback under the ``site_url`` path of mkdocs.yml (``/cellula/``), by the
same server as the link crawl (``tests/site_server.py``). Chromium is ``/usr/bin/chromium``
(``tools/ensure_debian.sh chromium`` installs it with apt-get; ``playwright install`` cannot
download browsers here), started headless with a fresh user-data dir.
"""
from __future__ import annotations

import contextlib

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from site_server import OFFLINE_SITE, ROOT, SITE, serve_site, site_prefix  # noqa: E402,F401
from helpers import built_page, pages_under  # noqa: E402,F401

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}

# No failed request is allowed on the served site: Material's sitemap.xml requests (one beside
# every language link) are answered in the page without the network (theme override, main.html).
# From file:// (the offline build) nothing is requested either.
ALLOWED_FAILURES = re.compile(r"(?!)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: end-to-end test in Chromium")


@pytest.fixture(scope="session")
def playwright_instance():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a setup problem, said plainly
        pytest.fail("playwright is not installed: `make setup` installs the test extras")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run tools/ensure_debian.sh chromium (make test does)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def context(playwright_instance, tmp_path_factory):
    """One Chromium with a fresh user-data dir for the whole session."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    ctx = playwright_instance.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport=VIEWPORT, locale="it-IT", service_workers="block",
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()
    shutil.rmtree(profile, ignore_errors=True)


class ConsoleLog:
    """Console errors, uncaught exceptions and failed requests seen by one page."""

    def __init__(self, page):
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.problems.append(f"uncaught: {exc}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", lambda res: res.status >= 400 and self._failed(res.url, str(res.status)))

    def _console(self, msg):
        if msg.type == "error":
            url = (msg.location or {}).get("url", "")
            if "Failed to load resource" in msg.text and ALLOWED_FAILURES.search(url):
                return
            self.problems.append(f"console.error: {msg.text} ({url})")

    def _request_failed(self, request):
        # Leaving a page aborts what it was still loading (e.g. the search worker's scripts).
        if request.failure != "net::ERR_ABORTED":
            self._failed(request.url, request.failure or "failed")

    def _failed(self, url: str, why: str) -> None:
        if not ALLOWED_FAILURES.search(url.split("?")[0]):
            self.problems.append(f"request {url}: {why}")


@contextlib.contextmanager
def checked_tab(ctx):
    """A fresh tab of ``ctx``; ``tab.console`` collects its errors, and it must end with none."""
    tab = ctx.new_page()
    tab.console = ConsoleLog(tab)
    yield tab
    problems = list(tab.console.problems)
    tab.close()
    assert not problems, "console errors or failed requests:\n" + "\n".join(problems)


@pytest.fixture
def page(context):
    """A fresh tab of the session's browser. Every test ends with no console errors."""
    with checked_tab(context) as tab:
        yield tab


@pytest.fixture(scope="module")
def _module_tabs(context):
    tabs: dict[str, object] = {}
    yield tabs
    late = _take_problems(tabs)  # seen after the module's last test that used them
    for tab in tabs.values():
        tab.close()
    assert not late, "console errors or failed requests:\n" + "\n".join(late)


def _take_problems(tabs: dict) -> list[str]:
    problems = [problem for tab in tabs.values() for problem in tab.console.problems]
    for tab in tabs.values():
        tab.console.problems.clear()
    return problems


@pytest.fixture
def kept_tab(_module_tabs, context):
    """``kept_tab(url)``: a tab of the session's browser kept for the rest of the test module, opened
    at ``url`` the first time a test asks for it and handed as it is to the next test that asks for the
    same ``url`` (for tests that only read or search a page they do not change: a page's set-up, such
    as indexing the whole site for search, happens once). A test ends with no console errors or failed
    requests in the kept tabs, none since the previous test's end included."""

    def open_at(url: str):
        tab = _module_tabs.get(url)
        if tab is None:
            tab = _module_tabs[url] = context.new_page()
            tab.console = ConsoleLog(tab)
            tab.goto(url)
        # The tab in front: a tab behind another gets no animation frames (Material reads scrolling
        # and renders results on them).
        tab.bring_to_front()
        return tab

    yield open_at
    problems = _take_problems(_module_tabs)
    assert not problems, "console errors or failed requests:\n" + "\n".join(problems)


@pytest.fixture
def own_page(playwright_instance):
    """A tab in a browser of its own, for a test that changes what a context shares: the clock
    (``page.clock`` is the context's), which left the session's context with a fixed time that
    stalled Material's search in every later test."""
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    ctx = browser.new_context(viewport=VIEWPORT, locale="it-IT", service_workers="block")
    ctx.set_default_timeout(15_000)
    try:
        with checked_tab(ctx) as tab:
            yield tab
    finally:
        browser.close()


@pytest.fixture(scope="session")
def prefix() -> str:
    return site_prefix()
