"""The puzzles feature's interface strings (``puzzles.*`` of the catalogue) and the small text
helpers every puzzle page shares: amounts of resources, and data text escaped for Markdown."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import i18n
from .model import STOCK_FIELDS

if TYPE_CHECKING:
    from solver.game.model import Stock

UI = i18n.namespace("puzzles")
"""This feature's interface strings: ``puzzles.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""

CARD_TYPES = i18n.labels("puzzles.card_types")
"""Card type names (the rulebooks' terms, as on the card pages)."""

AREAS = i18n.labels("puzzles.areas")
"""Board areas (and the three vesicle areas), by id."""

RESOURCES = i18n.labels("puzzles.resources")
"""Resource names, singular."""

RESOURCES_PLURAL = i18n.labels("puzzles.resources_plural")
"""Resource names after a number other than 1."""


def amount(n: int, resource: str, lang: str) -> str:
    """``3 lipidi``, ``1 carboidrato``."""
    return f"{n} {(RESOURCES if n == 1 else RESOURCES_PLURAL)[resource][lang]}"


def stock_text(stock: Stock, lang: str) -> str:
    """A cost or gain in words (``2 ATP, 2 proteine, 1 carboidrato``); ``-`` when empty."""
    parts = [amount(getattr(stock, r), r, lang) for r in STOCK_FIELDS if getattr(stock, r)]
    return ", ".join(parts) or "-"


def md_inline(text: str) -> str:
    """Data text inside a Markdown table cell or link text: markup, pipes and ``<`` escaped."""
    for ch in "\\[]*_`|":
        text = text.replace(ch, "\\" + ch)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


ATTRIBUTE_ENTITIES = {"&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;",
                      "*": "&#42;", "_": "&#95;", "`": "&#96;", "[": "&#91;", "]": "&#93;", "\\": "&#92;"}
"""Characters written as entities in an attribute value inside Markdown: ``&``, quotes and angle
brackets for HTML, braces that would end an attribute list, and the characters Markdown's inline
syntax would act on (an attribute list is read after emphasis and links are)."""


def link_title(text: str) -> str:
    """Text for a quoted attribute value in Markdown: a link's tooltip (``{ data-tip="..." }``, read
    by assets/tips.js) or an HTML title. Every character of :data:`ATTRIBUTE_ENTITIES` is written as
    its entity, so the value reaches the page exactly as given."""
    return "".join(ATTRIBUTE_ENTITIES.get(ch, ch) for ch in text)
