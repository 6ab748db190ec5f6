"""The last gate between data text and the built HTML: every page's content is cleaned by
``nh3`` (the Ammonia HTML sanitiser) before MkDocs writes it.

Data text is escaped where it enters the Markdown (``render.escape_text``/``escape_md``), but
Markdown itself makes markup from plain text: an attribute list ``{: onclick="..." }`` becomes
an attribute, ``[x](javascript:...)`` a script link. So the HTML of every page goes through an
allow-list: the elements and attributes the project's own templates produce, no event handler
(``on*``), no ``style`` except table alignment, and link targets that are relative or
``http``/``https``/``mailto``. The project's own inline scripts (written in
``generator/templates``) are kept; any other ``<script>`` is removed.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

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


def sanitize_html(html: str) -> str:
    """``html`` with every element, attribute and URL outside the allow-lists removed."""
    kept: list[str] = []

    def park(match: re.Match[str]) -> str:
        if match.group(1) not in trusted_scripts():
            return ""
        kept.append(match.group(0))
        return f"<span data-cellula-script=\"{len(kept) - 1}\"></span>"

    html = _SCRIPT.sub(park, html)
    clean = nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, link_rel=None,
                      strip_comments=False, generic_attribute_prefixes={"data-", "aria-"},
                      filter_style_properties=STYLE_PROPERTIES)
    for index, script in enumerate(kept):
        clean = clean.replace(f"<span data-cellula-script=\"{index}\"></span>", script, 1)
    return clean
