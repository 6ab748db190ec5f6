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

After rendering, it makes every page's internal links relative (the i18n plugin writes the home
pages' language links as absolute paths under ``site_url``, which break wherever else the site is
served) and gives the 404 page language links to the two home pages.
"""
from __future__ import annotations

import logging
import posixpath
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import material
from markupsafe import Markup, escape
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from generator import asset_bundle, serving
from generator.tables import label_table_cells
from generator.build import generate, navigation
from generator.errors import DataError
from generator.i18n import has, t
from generator.search_index import write_indexes
from generator.search_paraphrases import load_paraphrases
from generator.rules import SITE_LANGUAGES
from generator.sanitize import page_markup_faults, sanitize_html
from generator.puzzles import play_assets  # issue #19 hook: play assets
from generator.paths import DATA_DIR, ROOT
from generator.site_url import SiteUrlError, checked_site_url

if TYPE_CHECKING:
    from collections.abc import Callable

    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.cellula")
_state = serving.STATE


def on_startup(command: str, **kwargs: Any) -> None:
    _state["serving"] = command == "serve"


@event_priority(100)
def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    try:  # first: a wrong address is reported before anything is generated
        config.site_url = checked_site_url(config.site_url)
    except SiteUrlError as exc:
        raise PluginError(str(exc)) from None
    docs_dir = Path(config.docs_dir)  # DOCS_DIR unless a config of its own names another (a test's site)
    fingerprint = serving.fingerprint(DATA_DIR, ROOT)
    if _state.get("fingerprint") != fingerprint:
        _state["fingerprint"] = fingerprint
        try:
            _site, pages = generate(DATA_DIR, docs_dir)
            load_paraphrases(DATA_DIR, SITE_LANGUAGES)  # the search's table: checked here, used on_post_build
        except DataError as exc:
            if not _state.get("serving"):
                _state.pop("fingerprint")
                raise PluginError(str(exc)) from None
            _state["error"] = str(exc)
            serving.placeholder_pages(docs_dir, SITE_LANGUAGES)
            # printed, not logged: under --strict a logged error would abort the rebuild, and the
            # browser would wait for it forever
            print(f"cellula: data error, shown on every page until fixed:\n{exc}", file=sys.stderr, flush=True)
        else:
            _state.pop("error", None)
            _state["site"] = _site
            _state["nav"] = {lang: navigation(pages, lang) for lang in SITE_LANGUAGES}
            log.info("cellula: generated %d pages from data/", len(pages))
    bundle_assets(config)
    i18n = config.plugins.get("i18n")
    if i18n is not None and _state.get("nav"):
        for language in i18n.config.languages:
            if language.locale in _state["nav"]:
                language.nav = _state["nav"][language.locale]
    return config


def bundle_assets(config: MkDocsConfig) -> None:
    """Link the project's stylesheets and scripts as one file each (:mod:`generator.asset_bundle`);
    on_post_build writes them. A config already bundled (no source entries left) is left alone."""
    docs = Path(config.docs_dir)
    css = asset_bundle.split(config.extra_css, docs)
    js = asset_bundle.split(config.extra_javascript, docs)
    if not css.bundled and not js.bundled:
        return
    _state["bundle"] = (css.bundled, js.bundled)
    config.extra_css = ([asset_bundle.BUNDLE_CSS] if css.bundled else []) + list(css.kept)
    config.extra_javascript = ([asset_bundle.BUNDLE_JS] if js.bundled else []) + list(js.kept)


def theme_text(key: str, lang: str, **params: object) -> Markup:
    """A catalogue string for the theme's templates, HTML-escaped: MkDocs' template environment
    does not autoescape, and a catalogue string is contributed text."""
    return escape(t(key, lang, **params))


def on_env(env: Environment, config: MkDocsConfig, files: Files, **kwargs: Any) -> Environment:
    """The theme overrides (404 page, footer) read the catalogue too, escaped (:func:`theme_text`)."""
    env.globals["cellula_t"] = theme_text
    env.globals["cellula_languages"] = SITE_LANGUAGES
    return env


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: Callable[..., Any],
             **kwargs: Any) -> LiveReloadServer:
    serving.watch_sources_only(server, config.docs_dir, SITE_LANGUAGES)
    return server


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files, **kwargs: Any) -> str:
    site = _state.get("site")
    hosts = frozenset(h for game in site.games.values() for h in game.link_hosts) if site is not None else frozenset()
    html = sanitize_html(html, hosts)
    if _state.get("error"):
        html = serving.error_banner(_state["error"]) + html
    return html


def _site_path(config: MkDocsConfig) -> str:
    """The path of ``site_url`` (``/cellula/``); ``/`` when unset (the offline build)."""
    path = urlsplit(config.get("site_url") or "").path or "/"
    return path if path.endswith("/") else path + "/"


def relative_link(target: str, page_url: str) -> str:
    """``target`` (a path under the site root, ``en/`` or ``cytosis/setup/#x``) as a link relative to
    the page at ``page_url`` (``en/cytosis/setup/``, or ``cytosis/setup.html`` offline)."""
    path, sep, rest = target.partition("#")
    path, qsep, query = path.partition("?")
    folder = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url) + "/"
    rel = posixpath.relpath("/" + path, "/" + folder)
    if path.endswith("/") or not path:
        rel = "./" if rel == "." else rel + "/"
    return rel + qsep + query + sep + rest


def _absolute_links(prefix: str) -> re.Pattern[str]:
    # href="/cellula/..." or src="/cellula/..." (not protocol-relative "//host/...")
    return re.compile(r'(?P<attr>\b(?:href|src))="' + re.escape(prefix) + r'(?P<target>(?!/)[^"]*)"')


def check_final_page(output: str, where: str) -> None:
    """Stop the build on a page holding markup no template writes (:func:`generator.sanitize.page_markup_faults`):
    data text reached a region of the page (the theme's head, navigation, header or footer, which
    the content sanitiser does not see) without being escaped."""
    faults = page_markup_faults(output)
    if faults:
        more = f" (and {len(faults) - 5} more)" if len(faults) > 5 else ""
        raise PluginError(f"{where}: the page holds markup no template writes, so text from data/ reached it "
                          f"unescaped: {'; '.join(faults[:5])}{more}")


def on_post_page(output: str, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    check_final_page(output, page.url or "index")
    pattern = _absolute_links(_site_path(config))
    output = pattern.sub(lambda m: f'{m.group("attr")}="{relative_link(m.group("target"), page.url)}"', output)
    return label_table_cells(output)


LANGUAGE_LINK = re.compile(r'href="[^"]*"(?P<rest> hreflang="(?P<lang>[a-z]{2})")')


def on_post_template(output: str, template_name: str, config: MkDocsConfig, **kwargs: Any) -> str:
    """The 404 page is one file for every missing address: its language links (which the i18n plugin
    fills with the last page built) lead to the two home pages, absolute as all of its links."""
    if template_name != "404.html":
        return output
    check_final_page(output, template_name)
    prefix = _site_path(config)
    default = SITE_LANGUAGES[0]
    return LANGUAGE_LINK.sub(
        lambda m: f'href="{prefix}{"" if m.group("lang") == default else m.group("lang") + "/"}"{m.group("rest")}', output)


@event_priority(-200)
def on_post_build(config: MkDocsConfig, **kwargs: Any) -> None:
    """The joined stylesheets and scripts (:func:`bundle_assets`). After the i18n plugin has
    written the combined search index (and the offline plugin its script copy): one shaped index
    per language (generator/search_index.py). The i18n plugin
    builds the other languages inside its own on_post_build; only the outermost call shapes."""
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return
    if _state.get("bundle"):
        asset_bundle.write(Path(config.site_dir), Path(config.docs_dir), *_state["bundle"])
    if not config.site_url:  # a sitemap lists absolute addresses: without site_url it had <loc>None./</loc>
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (Path(config.site_dir) / name).unlink(missing_ok=True)
    if _state.get("site") is None or _state.get("error"):
        return
    play_assets.write_play_assets(Path(config.site_dir))  # issue #19 hook: Pyodide + engine for play mode
    for figures in write_indexes(Path(config.site_dir), _state["site"], Path(material.__file__).parent):
        log.info("cellula: search index %s: %d documents, %d bytes (%d gzipped)", figures.lang,
                 figures.documents, figures.raw_bytes, figures.gzip_bytes)


CLIENT_KEYS = ("search_include_other", "search_result_language", "search_did_you_mean", "search_nearest_terms",
               "italian", "english", "copy_link", "link_copied")
"""``core.*`` strings that docs/assets/search.js and permalink.js show."""


def client_strings(lang: str) -> dict[str, Any]:
    """The strings of :data:`CLIENT_KEYS` in ``lang`` (the catalogue check counts them as used), with
    the site languages (the default first) and their names in ``lang`` (``core.lang_names``; a
    language the catalogue does not name is shown by its code), for docs/assets/search.js."""
    names = {code: t(f"core.lang_names.{code}", lang) for code in SITE_LANGUAGES if has(f"core.lang_names.{code}", lang)}
    return {**{key: t(f"core.{key}", lang) for key in CLIENT_KEYS},
            "languages": list(SITE_LANGUAGES), "language_names": names}


def on_page_context(context: dict[str, Any], page: Page, config: MkDocsConfig, **kwargs: Any) -> dict[str, Any]:
    """The interface strings of docs/assets/search.js and permalink.js in the page's language, for
    the theme override (main.html writes them into the page as JSON). ``context`` is MkDocs'
    TemplateContext, given a key of the theme's own (a TypedDict would refuse it)."""
    lang = context.get("i18n_page_locale") or config.theme.get("language", "it")
    if _state.get("site") is not None and lang in SITE_LANGUAGES:
        context["cellula_ui"] = client_strings(lang)
    return context
