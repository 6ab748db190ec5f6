"""Generate ``docs/<lang>/`` from ``data/``: load and validate everything, then render every page."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from . import features
from .pages import annotate_terms, core_pages, home_page
from .markdown_syntax import neutralise_markdown
from .render import Asset, Page, html_text
from .rules import SITE_LANGUAGES
from .paths import DATA_DIR, DOCS_DIR, GENERATED_DIR
from .site import SiteData, load_site


def all_pages(site: SiteData) -> list[Page]:
    """Every page of every language, core pages first, then the features' pages."""
    pages: list[Page] = []
    for lang in SITE_LANGUAGES:
        lang_pages = core_pages(site, lang)
        for feature in features.registered():
            for produce in feature.producers:
                lang_pages.extend(produce(site, lang))
        pages.append(home_page(site, lang, lang_pages))
        pages.extend(lang_pages)
    return pages


def _game_of(path: str, site: SiteData) -> set[str] | None:
    """The game a page belongs to (its glossary terms only); None for pages of every game."""
    parts = path[:-3].split("/")
    for part in parts[:2]:
        if part in site.games:
            return {part}
    return None


def check_same_pages(pages: list[Page]) -> None:
    """The language switcher lands on the same page: every language has the same page paths."""
    by_lang = {lang: {p.path for p in pages if p.lang == lang} for lang in SITE_LANGUAGES}
    reference = by_lang[SITE_LANGUAGES[0]]
    for lang, paths in by_lang.items():
        if paths != reference:
            raise RuntimeError(f"pages of {lang!r} differ from {SITE_LANGUAGES[0]!r}: "
                               f"missing {sorted(reference - paths)}, extra {sorted(paths - reference)}")


def all_assets(site: SiteData) -> list[Asset]:
    """Every feature's shared generated files; two features may not write the same path."""
    assets: list[Asset] = []
    for feature in features.registered():
        for produce in feature.assets:
            assets.extend(produce(site))
    paths = [a.path for a in assets]
    if len(set(paths)) != len(paths):
        raise RuntimeError(f"generated files written twice: {sorted({p for p in paths if paths.count(p) > 1})}")
    return assets


def write_folder(folder: Path, files: dict[Path, str]) -> None:
    """Make ``folder`` hold exactly ``files``: a file is rewritten only when its text changed (so
    ``mkdocs serve`` sees no change), and stale files and emptied folders go, so no page or data
    file outlives its data (a chapter or a puzzle removed from ``data/``)."""
    for out, content in files.items():
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists() or out.read_text(encoding="utf-8") != content:
            out.write_text(content, encoding="utf-8")
    if not folder.is_dir():
        return
    for old in folder.rglob("*"):
        if old.is_file() and old not in files:
            old.unlink()
    for sub in sorted(folder.rglob("*"), reverse=True):
        if sub.is_dir() and not any(sub.iterdir()):
            sub.rmdir()


def markdown_page(page: Page, site: SiteData) -> str:
    """A page's Markdown as written: glossary terms marked, and, the one boundary every page
    crosses whichever feature made it, no image, abbreviation or snippet include (the generator
    writes none; in a text from data each is an attack: :func:`~generator.markdown_syntax.neutralise_markdown`)."""
    return neutralise_markdown(annotate_terms(page.content, site.glossary, page.lang, _game_of(page.path, site),
                                              page.tooltips, page.path))


def generate(data_dir: Path = DATA_DIR, docs_dir: Path = DOCS_DIR) -> tuple[SiteData, list[Page]]:
    """Write every page, and the features' shared files under ``docs/generated/``; these folders
    are rebuilt from scratch (generated, not committed)."""
    site = load_site(data_dir)
    pages = all_pages(site)
    check_same_pages(pages)
    for lang in SITE_LANGUAGES:
        write_folder(docs_dir / lang, {
            docs_dir / lang / page.path:
                page.content if not page.path.endswith(".md") else markdown_page(page, site)
            for page in pages if page.lang == lang})
    write_folder(docs_dir / GENERATED_DIR, {docs_dir / GENERATED_DIR / a.path: a.content for a in all_assets(site)})
    return site, pages


def navigation(pages: list[Page], lang: str) -> list[dict[str, Any]]:
    """MkDocs ``nav`` for one language, in production order, grouped by each page's nav path.
    Material writes navigation titles into the page as they are (its templates do not escape), so
    every title, a section's or a page's, is HTML text here (:func:`~generator.render.html_text`)."""
    nav: list[dict[str, Any]] = []
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {(): nav}
    for page in pages:
        if page.lang != lang or not page.in_nav or not page.path.endswith(".md"):
            continue
        for depth in range(1, len(page.nav) + 1):
            key = page.nav[:depth]
            if key not in groups:
                children: list[dict[str, Any]] = []
                groups[key[:-1]].append({html_text(key[-1]): children})
                groups[key] = children
        groups[page.nav].append({html_text(page.title): f"{lang}/{page.path}"})
    return nav
