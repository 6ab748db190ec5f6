"""Jinja2 rendering of Markdown pages: strict (an unknown marker fails the build), data escaped."""
from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import markupsafe
import yaml

from . import i18n
from .markdown_syntax import neutralise_markdown

TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class Asset:
    """A generated file the pages of every language share (the same bytes in each), written under
    ``docs/generated/`` and served from ``generated/`` at the site's root: data a page's script
    loads only when a reader asks for it, so that the page itself stays small."""

    path: str
    """Path under ``docs/generated/`` (``play/<puzzle id>.js``)."""
    content: str
    """The file's text."""


@dataclass(frozen=True)
class Page:
    """One generated Markdown page of one language."""

    lang: str
    """Site language."""
    path: str
    """Path under ``docs/<lang>/`` (``cytosis/setup.md``); the same in every language. A path not ending
    in ``.md`` is a download (an export file), written as it is and left out of the navigation."""
    title: str
    """Navigation title."""
    content: str
    """Markdown source."""
    nav: tuple[str, ...] = ()
    """Navigation section titles the page sits under (outermost first); () for top level."""
    in_nav: bool = True
    """False for leaf pages reached through links only (keeps the nav small)."""
    tooltips: bool = True
    """False where hundreds of glossary tooltips would slow the page down (the card lists); the
    hidden cross-language search text is added either way."""


def _no_attribute_lists(text: str) -> str:
    """``{`` as a character reference: an attribute list (``{: onclick=... }``, ``{ #id }``) in
    data text stays text instead of becoming attributes of the element before it."""
    return text.replace("{", "&#123;")


def escape_text(text: str) -> str:
    """Data text as Markdown: ``<`` is escaped so no markup from data reaches the HTML, ``{``
    so that no attribute list does, and images, abbreviations and snippets stay text
    (:func:`neutralise_markdown`)."""
    if "<" in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return neutralise_markdown(_no_attribute_lists(text))


def escape_md(text: str) -> str:
    """Markdown body from data: raw HTML and attribute lists neutralised, block quotes kept, no
    image, abbreviation or snippet (:func:`neutralise_markdown`). (Link targets are checked on the
    built HTML: :mod:`generator.sanitize`.)"""
    return neutralise_markdown(_no_attribute_lists(text.replace("<", "&lt;")))


def html_text(text: str) -> str:
    """A title as HTML text, for the places the theme writes it as it is (the navigation, the
    ``<title>``, the header): every ``&``, ``<`` and ``>`` escaped. Character references already in
    ``text`` (a title that went through :func:`escape_text`) are read first, so none is escaped
    twice."""
    return html.escape(html.unescape(text), quote=False)


def front_matter(fields: dict[str, Any]) -> str:
    """A page's YAML front matter, written by the YAML dumper (a title holding ``: `` or ``#``
    stays a title). Material writes ``page.meta.title`` into the ``<title>`` and the header as it
    is, so the title is HTML text (:func:`html_text`) whatever the template gave."""
    texts = {key: str(value) for key, value in fields.items()}  # str() of an undefined marker raises
    if "title" in texts:
        texts["title"] = html_text(texts["title"])
    body = yaml.safe_dump(texts, allow_unicode=True, sort_keys=False, width=10 ** 6)
    return f"---\n{body}---"


def demote_headings(body: str, level: int = 4) -> str:
    """Headings inside a section body sit below the section heading."""
    return re.sub(r"(?m)^#{1,6}\s+", "#" * level + " ", body)


def indent(text: str, width: int = 4) -> str:
    """Indent every non-blank line (content tabs and admonitions need it)."""
    pad = " " * width
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())


def attr_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def escaped(escape: Callable[[str], str]) -> Callable[[object], markupsafe.Markup]:
    """``escape`` (a function that escapes data text for its place) with its output marked final,
    so that an HTML template (autoescaped) does not escape it a second time."""
    def filter_(text: object) -> markupsafe.Markup:
        return markupsafe.Markup(escape(str(text)))
    filter_.__doc__ = escape.__doc__
    return filter_


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        # HTML templates (*.html.j2) escape every value not marked safe; Markdown templates cannot
        # (Markdown is not HTML): their data goes through the text/md/attr filters instead
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False, default=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # the escaping filters' output is final: marked safe so an HTML template does not escape it twice
    env.filters["text"] = escaped(escape_text)
    env.filters["md"] = escaped(escape_md)
    env.filters["demote"] = demote_headings
    env.filters["indent4"] = indent
    env.filters["attr"] = escaped(attr_escape)
    env.filters["front_matter"] = front_matter
    env.globals["t"] = i18n.t
    return env


_ENV: jinja2.Environment | None = None


def render(template: str, **context: object) -> str:
    """Render ``templates/<template>``; an undefined name raises (StrictUndefined)."""
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV.get_template(template).render(**context)
