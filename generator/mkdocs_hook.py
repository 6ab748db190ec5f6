"""MkDocs hook: ``mkdocs build`` and ``mkdocs serve`` regenerate the pages from ``data/`` first.

Runs before the i18n plugin configures each language build (priority above its -100) and hands
it each language's navigation. Unchanged pages are not rewritten, so ``serve`` does not loop.
"""
from __future__ import annotations

import logging
from pathlib import Path

import material
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from generator.build import generate, navigation
from generator.errors import DataError
from generator.search_index import write_indexes
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
        _state["site"] = _site
        _state["nav"] = {lang: navigation(pages, lang) for lang in SITE_LANGUAGES}
        _state["fingerprint"] = fingerprint
        log.info("cellula: generated %d pages from data/", len(pages))
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        for language in i18n.config.languages:
            if language.locale in _state["nav"]:
                language.nav = _state["nav"][language.locale]
    return config


@event_priority(-200)
def on_post_build(config, **kwargs):
    """After the i18n plugin has written the combined search index (and the offline plugin its
    script copy): one shaped index per language (generator/search_index.py). The i18n plugin
    builds the other languages inside its own on_post_build; only the outermost call shapes."""
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return
    for figures in write_indexes(Path(config.site_dir), _state["site"], Path(material.__file__).parent):
        log.info("cellula: search index %s: %d documents, %d bytes (%d gzipped)", figures.lang,
                 figures.documents, figures.raw_bytes, figures.gzip_bytes)


UI_KEYS = ("search_include_other", "search_result_language", "italian", "english", "copy_link", "link_copied")
"""data/ui.yaml strings that docs/assets/search.js and permalink.js show."""


def on_page_context(context, page, config, **kwargs):
    """The interface strings of docs/assets/search.js and permalink.js in the page's language, for
    the theme override (main.html writes them into the page as JSON)."""
    lang = context.get("i18n_page_locale") or config.theme.get("language", "it")
    site = _state.get("site")
    if site is not None and lang in site.ui:
        context["cellula_ui"] = {k: site.ui[lang][k] for k in UI_KEYS if k in site.ui[lang]}
    return context
