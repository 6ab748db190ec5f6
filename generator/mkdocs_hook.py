"""MkDocs hook: ``mkdocs build`` and ``mkdocs serve`` regenerate the pages from ``data/`` first.

Runs before the i18n plugin configures each language build (priority above its -100) and hands
it each language's navigation. Unchanged pages are not rewritten.

What outlives a rebuild of ``serve`` (the data fingerprint, the navigation, the last data error)
lives in :mod:`generator.serving`, next to the helpers.

``mkdocs build``: a data error fails the build. ``mkdocs serve``: a data error is shown at the
top of every page (the browser reloads to it instead of waiting for a build that never comes),
and the next save that fixes it rebuilds as usual. The generated ``docs/<lang>/`` folders are not
watched (the data they come from is), so one save makes one rebuild. Every page's HTML goes
through :func:`generator.sanitize.sanitize_html`.
"""
from __future__ import annotations

import logging
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from generator import serving
from generator.build import generate, navigation
from generator.errors import DataError
from generator.rules import SITE_LANGUAGES
from generator.sanitize import sanitize_html
from generator.site import DATA_DIR, DOCS_DIR

log = logging.getLogger("mkdocs.hooks.cellula")
_state = serving.STATE


def on_startup(command, **kwargs):
    _state["serving"] = command == "serve"


@event_priority(100)
def on_config(config, **kwargs):
    fingerprint = serving.fingerprint(DATA_DIR, DOCS_DIR.parent)
    if _state.get("fingerprint") != fingerprint:
        _state["fingerprint"] = fingerprint
        try:
            _site, pages = generate(DATA_DIR, DOCS_DIR)
        except DataError as exc:
            if not _state.get("serving"):
                _state.pop("fingerprint")
                raise PluginError(str(exc)) from None
            _state["error"] = str(exc)
            serving.placeholder_pages(DOCS_DIR, SITE_LANGUAGES)
            # printed, not logged: under --strict a logged error would abort the rebuild, and the
            # browser would wait for it forever
            print(f"cellula: data error, shown on every page until fixed:\n{exc}", file=sys.stderr, flush=True)
        else:
            _state.pop("error", None)
            _state["nav"] = {lang: navigation(pages, lang) for lang in SITE_LANGUAGES}
            log.info("cellula: generated %d pages from data/", len(pages))
    i18n = config.plugins.get("i18n")
    if i18n is not None and _state.get("nav"):
        for language in i18n.config.languages:
            if language.locale in _state["nav"]:
                language.nav = _state["nav"][language.locale]
    return config


def on_serve(server, config, builder, **kwargs):
    serving.watch_sources_only(server, config.docs_dir, SITE_LANGUAGES)
    return server


def on_page_content(html, page, config, files, **kwargs):
    html = sanitize_html(html)
    if _state.get("error"):
        html = serving.error_banner(_state["error"]) + html
    return html
