"""The last gate between data text and the built HTML: every page's content is cleaned by
``nh3`` (the Ammonia HTML sanitiser) before MkDocs writes it.

Data text is escaped where it enters the Markdown (``render.escape_text``/``escape_md``), but
Markdown itself makes markup from plain text: an attribute list ``{: onclick="..." }`` becomes
an attribute, ``[x](javascript:...)`` a script link. So the HTML of every page goes through an
allow-list: the elements and attributes the project's own templates produce, no event handler
(``on*``), no ``style`` except table alignment, and link targets that are relative or
``http``/``https``/``mailto``; an image only from the site itself (a relative ``src``: an image
from another host would be loaded by every reader). The project's own inline scripts (written in
``generator/templates``) are kept; any other ``<script>`` is removed.

The theme's regions (the ``<head>``, the navigation, the header, the footer) are not page content:
data reaches them escaped (navigation titles and front matter by the generator, catalogue strings
by the hook's ``cellula_t``), and :func:`page_markup_faults` checks the whole final page, theme
included, against what the templates write: a build whose page holds more fails.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import material
import nh3

TEMPLATES = Path(__file__).resolve().parent / "templates"

TAGS = {
    "a", "abbr", "article", "b", "blockquote", "br", "button", "caption", "cite", "code", "col", "colgroup",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "label", "legend", "li",
    "mark", "nav", "ol", "optgroup", "option", "output", "p", "pre", "q", "s", "samp", "section", "select", "small",
    "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr",
    "u", "ul", "var", "wbr",
    # the inline charts (benchmark plot)
    "svg", "g", "circle", "line", "polyline", "polygon", "path", "rect", "text", "title", "desc",
}
"""Elements the pages may hold (everything the templates and Markdown extensions produce)."""

_SVG_ATTRIBUTES = {"cx", "cy", "r", "x", "y", "x1", "x2", "y1", "y2", "width", "height", "points", "d",
                   "fill", "stroke", "stroke-width", "stroke-dasharray", "text-anchor", "font-family",
                   "font-size", "viewBox", "viewbox", "xmlns", "transform", "opacity"}

ATTRIBUTES = {
    "*": {"class", "id", "title", "lang", "role", "hidden", "dir", "tabindex"},
    "a": {"href", "name"},
    "abbr": set(),
    "img": {"src", "alt", "width", "height", "loading"},
    "input": {"type", "name", "value", "checked", "autocomplete", "inputmode", "step", "min", "max",
              "placeholder", "disabled"},
    "label": {"for"},
    "option": {"value", "selected"},
    "output": {"for", "name"},
    "select": {"name", "multiple"},
    "button": {"type", "disabled"},
    "form": set(),
    "td": {"colspan", "rowspan", "style"},
    "th": {"colspan", "rowspan", "scope", "style"},
    "ol": {"start", "type"},
    "details": {"open"},
    "time": {"datetime"},
    **{tag: _SVG_ATTRIBUTES for tag in ("svg", "g", "circle", "line", "polyline", "polygon", "path", "rect", "text")},
}
"""Attributes per element; ``data-*`` and ``aria-*`` are allowed everywhere (they run nothing)."""

URL_SCHEMES = {"http", "https", "mailto"}
"""Link schemes kept (relative links are kept too); ``javascript:``, ``data:``… are dropped."""

STYLE_PROPERTIES = {"text-align"}
"""The only CSS a ``style`` attribute may carry (Markdown tables align their columns with it)."""

_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


@lru_cache(maxsize=1)
def trusted_scripts() -> frozenset[str]:
    """The bodies of the inline scripts written in the project's templates."""
    bodies = set()
    for template in TEMPLATES.rglob("*.j2"):
        bodies.update(_SCRIPT.findall(template.read_text(encoding="utf-8")))
    return frozenset(bodies)


def _link_filter(link_hosts: frozenset[str]) -> Callable[[str, str, str], str | None]:
    """nh3's attribute filter: an image's ``src`` is kept only when it points into the site; a
    link's ``href`` only when it is relative, an e-mail address, or on a host of ``link_hosts``
    (the hosts the data declares: ``link_hosts`` of a game's ``game.yaml``); a link whose target
    hides a scheme the sanitiser would drop (``<javascript:...>``, read as a relative address) is
    dropped too."""
    def keep(element: str, attribute: str, value: str) -> str | None:
        if element == "img" and attribute == "src" and _is_external(value):
            return None
        if attribute == "href":
            bare = "".join(ch for ch in unescape(value) if ch.isprintable() and not ch.isspace())
            if "<" in bare or ">" in bare or "\\" in bare:
                return None
            parts = urlsplit(bare.lstrip("<\"'`"))
            if parts.scheme and parts.scheme.lower() not in URL_SCHEMES:
                return None
            if parts.netloc and (parts.hostname or "").lower() not in link_hosts:
                return None
        return value
    return keep


def _is_external(url: str) -> bool:
    """A URL with a scheme (``https:``, ``data:``) or a host (``//host/x``): not a file of the site."""
    parts = urlsplit(url.strip())
    return bool(parts.scheme or parts.netloc)


def sanitize_html(html: str, link_hosts: frozenset[str] = frozenset()) -> str:
    """``html`` with every element, attribute and URL outside the allow-lists removed; a link to
    another host only to one of ``link_hosts``."""
    kept: list[str] = []

    def park(match: re.Match[str]) -> str:
        if match.group(1) not in trusted_scripts():
            return ""
        kept.append(match.group(0))
        return f"<span data-cellula-script=\"{len(kept) - 1}\"></span>"

    html = _SCRIPT.sub(park, html)
    clean = nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, link_rel=None,
                      strip_comments=False, generic_attribute_prefixes={"data-", "aria-"},
                      filter_style_properties=STYLE_PROPERTIES,
                      attribute_filter=_link_filter(frozenset(h.lower() for h in link_hosts)))
    for index, script in enumerate(kept):
        clean = clean.replace(f"<span data-cellula-script=\"{index}\"></span>", script, 1)
    return clean


# --- the whole page, theme regions included -------------------------------------------------------

MATERIAL_TEMPLATES = Path(material.__file__).resolve().parent / "templates"

FORBIDDEN_ELEMENTS = frozenset({"iframe", "frame", "frameset", "object", "embed", "applet", "base", "portal"})
"""Elements no template of the project or the theme writes: each runs or frames foreign content."""

URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "poster", "srcset", "data", "xlink:href"})
PAGE_URL_SCHEMES = frozenset({"", "http", "https", "mailto"})
"""Schemes a page's links and resources may use ('' is a relative link)."""

_STRING_LITERAL = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")


def script_shape(body: str) -> str:
    """An inline script's body with its string literals emptied and whitespace collapsed: the
    theme fills page-dependent values (the site's relative root) into string literals only, so a
    trusted script keeps its shape on every page."""
    return " ".join(_STRING_LITERAL.sub('""', body).split())


@lru_cache(maxsize=1)
def trusted_script_shapes() -> frozenset[str]:
    """The shapes of every inline script the project's templates and the theme's write."""
    shapes = set()
    for folder, pattern in ((TEMPLATES, "*"), (MATERIAL_TEMPLATES, "*.html")):
        for template in folder.rglob(pattern):
            if template.is_file() and template.suffix in {".html", ".j2"}:
                for body in _SCRIPT.findall(template.read_text(encoding="utf-8")):
                    shapes.add(script_shape(body))
    return frozenset(shapes)


class _PageAudit(HTMLParser):
    """Collects what a final page holds beyond what the templates write."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.faults: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in FORBIDDEN_ELEMENTS:
            self.faults.append(f"a <{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.faults.append(f"an event handler {name}={value!r} on <{tag}>")
            elif name in URL_ATTRIBUTES and value is not None:
                url = urlsplit(value.strip())
                if url.scheme.lower() not in PAGE_URL_SCHEMES:
                    self.faults.append(f"a {url.scheme}: URL in {name} of <{tag}>: {value[:60]!r}")
                elif name == "src" and _is_external(value):
                    self.faults.append(f"a resource loaded from another host, {name} of <{tag}>: {value[:60]!r}")
        attributes = dict(attrs)
        if tag == "script" and "src" not in attributes and attributes.get("type") != "application/json":
            self._script = []

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            body = "".join(self._script)
            self._script = None
            if body.strip() and script_shape(body) not in trusted_script_shapes():
                self.faults.append(f"an inline script no template writes: {' '.join(body.split())[:60]!r}")


def page_markup_faults(html: str) -> list[str]:
    """What the final page ``html`` holds that no template of the project or the theme writes: a
    framing element, an event handler, a link or resource URL of another scheme, an image or
    script from another host, an inline script of unknown shape. Data text that reached a page
    region unescaped shows up here (the build stops on it: :mod:`generator.mkdocs_hook`)."""
    audit = _PageAudit()
    audit.feed(html)
    audit.close()
    return audit.faults
