"""The registry of site features: data loaders, page producers and CLI commands beyond the core.

A feature module, when imported, appends to ``LOADERS`` (``(name, loader)`` with
``loader(site, problems) -> data``), to ``PRODUCERS`` (``produce(site, lang) -> list[Page]``)
and to ``cli_extensions.COMMANDS``. ``MODULES`` lists them; keeping the list here keeps the
build a simple loop.
"""
from __future__ import annotations

import importlib

LOADERS: list = []
"""(name, loader) pairs run by ``load_site`` after rules and glossary."""

PRODUCERS: list = []
"""Page producers ``(site, lang) -> list[Page]`` run by ``generate`` after the core pages."""

SECTION_LINKS: list = []
"""Functions ``(site, game, section, lang, page) -> list[(label, href)]`` adding links under a rule
section's heading (cards that reference it, its edition differences...); ``page`` is the path of
the page the links appear on, for relative hrefs."""

BODY_FILTERS: list = []
"""Functions ``(site, game, section, lang, page, body) -> body`` applied to a rule section's text
before rendering (marking the card-table rows whose values the project inferred...)."""

MODULES = (
    "generator.bench",
    "generator.check",
    "generator.card_pages",
    "generator.puzzle_pages",
    "generator.audit_page",
    "generator.quickref",
)
"""Feature modules, imported once by :func:`load`."""

_loaded = False


def load() -> None:
    """Import every feature module once so that it registers itself."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in MODULES:
            importlib.import_module(name)
