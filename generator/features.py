"""The registry of site features: data loaders and page producers beyond the rules chapters.

Each feature module contributes a loader ``(site, problems) -> data`` and a producer
``(site, lang) -> list[Page]``; keeping the list here keeps the build a simple loop.
"""
from __future__ import annotations

LOADERS: list = []
"""(name, loader) pairs run by ``load_site`` after rules and glossary."""

PRODUCERS: list = []
"""Page producers ``(site, lang) -> list[Page]`` run by ``generate`` after the core pages."""
