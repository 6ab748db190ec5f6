"""MkDocs hook: ``mkdocs build`` and ``mkdocs serve`` regenerate the pages from ``data/`` first.

Runs before the i18n plugin configures each language build (priority above its -100) and hands
it each language's navigation. Unchanged pages are not rewritten, so ``serve`` does not loop.
"""
from __future__ import annotations

import logging

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from generator.build import generate, navigation
from generator.errors import DataError
from generator.rules import SITE_LANGUAGES
from generator.site import DATA_DIR, DOCS_DIR

log = logging.getLogger("mkdocs.hooks.cellula")
_state: dict = {}


def _fingerprint() -> tuple:
    roots = [DATA_DIR, DOCS_DIR.parent / "generator", DOCS_DIR.parent / "solver"]
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for root in roots if root.exists()
                        for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts))


@event_priority(100)
def on_config(config, **kwargs):
    fingerprint = _fingerprint()
    if _state.get("fingerprint") != fingerprint:
        try:
            _site, pages = generate(DATA_DIR, DOCS_DIR)
        except DataError as exc:
            raise PluginError(str(exc)) from None
        _state["nav"] = {lang: navigation(pages, lang) for lang in SITE_LANGUAGES}
        _state["fingerprint"] = fingerprint
        log.info("cellula: generated %d pages from data/", len(pages))
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        for language in i18n.config.languages:
            if language.locale in _state["nav"]:
                language.nav = _state["nav"][language.locale]
    return config
