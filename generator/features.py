"""The registry of site features: the parts of the site beyond the core rules pages.

A feature package describes itself once, as a :class:`Feature` (its data loader, page producers,
rule-section hooks and subcommands), and hands it to :func:`register` when imported, in the
manner of OpenSpiel's ``register_game``::

    features.register(features.Feature(name="quickref", loader=store, producers=(produce,)))

:data:`MODULES` lists the feature packages; the build, ``load_site`` and the command line loop
over :func:`registered` (in :data:`MODULES` order) and never name a feature themselves.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .errors import Problems
    from .render import Asset, Page
    from .rules import Game, Section
    from .site_data import SiteData


class Loader(Protocol):
    """Loads a feature's data files into its own field of :class:`~generator.site.SiteData`."""

    def __call__(self, site: SiteData, problems: Problems, /) -> None: ...


class Producer(Protocol):
    """The pages a feature adds, for one site language."""

    def __call__(self, site: SiteData, lang: str, /) -> list[Page]: ...


class AssetProducer(Protocol):
    """The shared files a feature adds (:class:`~generator.render.Asset`), once for all languages."""

    def __call__(self, site: SiteData, /) -> list[Asset]: ...


class SectionLinks(Protocol):
    """Links ``(label, href)`` under a rule section's heading (cards that reference it, its edition
    differences...); ``page`` is the path of the page the links appear on, for relative hrefs."""

    def __call__(self, site: SiteData, game: Game, section: Section, lang: str, page: str, /) -> list[tuple[str, str]]: ...


class BodyFilter(Protocol):
    """Rewrites a rule section's Markdown body before rendering (marking the card-table rows whose
    values the project inferred...); gets the body with the data text already escaped."""

    def __call__(self, site: SiteData, game: Game, section: Section, lang: str, page: str, body: str, /) -> str: ...


@dataclass(frozen=True)
class Command:
    """A ``python -m generator <name>`` subcommand contributed by a feature."""

    name: str
    """The subcommand's name on the command line."""
    configure: Callable[[argparse.ArgumentParser], None]
    """Adds the subcommand's description and options to its subparser."""
    run: Callable[[argparse.Namespace], int]
    """Runs it with the parsed arguments; returns the exit code (0, 1 open findings, 2 bad input)."""


@dataclass(frozen=True)
class Feature:
    """One optional part of the site, as its package registers it."""

    name: str
    """Unique name (:func:`find_feature`); a second registration under it is refused."""
    loader: Loader | None = None
    """Reads the feature's data into its :class:`~generator.site.SiteData` field, after the rules
    and the glossary and after the loaders of the features listed before it; None: no data."""
    producers: tuple[Producer, ...] = ()
    """Page producers, run in order after the core pages of each language."""
    assets: tuple[AssetProducer, ...] = ()
    """Producers of files shared by every language's pages (under ``docs/generated/``)."""
    section_links: tuple[SectionLinks, ...] = ()
    """Links added under every rule section's heading."""
    body_filters: tuple[BodyFilter, ...] = ()
    """Filters applied, in order, to every rule section's body."""
    commands: tuple[Command, ...] = ()
    """Subcommands of ``python -m generator``."""


class FeatureError(RuntimeError):
    """A feature registered twice, a subcommand name taken twice, or an unknown feature asked for."""


MODULES = (
    "generator.bench",
    "generator.check",
    "generator.card_pages",
    "generator.puzzles.feature",
    "generator.audit_page",
    "generator.quickref",
    "generator.figures",
)
"""Feature packages, imported once by :func:`load`. Their order is the build order: loaders run in
it (the ``check`` data before anything that might read it) and pages are produced in it, which
sets the navigation's order."""


@dataclass(frozen=True)
class _Registration:
    """A registered feature and where it came from."""

    feature: Feature
    """As registered."""
    module: str
    """The module that called :func:`register` (orders the feature by :data:`MODULES`)."""
    order: int
    """How many features were registered before it."""


_registry: dict[str, _Registration] = {}
_in_build_order: tuple[Feature, ...] | None = None
""":func:`registered`'s answer, kept: rule sections ask for it once each."""


def register(feature: Feature) -> Feature:
    """Add ``feature`` to the registry (call it once, at the bottom of the feature's package).
    Raises :class:`FeatureError` when its name, or one of its subcommands' names, is taken."""
    global _in_build_order
    # The caller's module, as collections.namedtuple finds it: a test that imports a feature
    # package before the build must not move that feature up the build order.
    module = sys._getframe(1).f_globals.get("__name__", "")
    taken = _registry.get(feature.name)
    if taken is not None:
        raise FeatureError(f"feature {feature.name!r} is already registered (by {taken.module}); "
                           f"{module} registers it again: expected a unique name")
    commands = {c.name: r for r in _registry.values() for c in r.feature.commands}
    for command in feature.commands:
        if command.name in commands:
            raise FeatureError(f"feature {feature.name!r}: subcommand {command.name!r} is already registered by "
                               f"feature {commands[command.name].feature.name!r}")
    _registry[feature.name] = _Registration(feature, module, len(_registry))
    _in_build_order = None
    return feature


def registered() -> tuple[Feature, ...]:
    """Every feature, after :func:`load`, in :data:`MODULES` order (then any registered elsewhere,
    in registration order)."""
    global _in_build_order
    load()
    if _in_build_order is None:
        position = {name: index for index, name in enumerate(MODULES)}

        def build_order(r: _Registration) -> tuple[int, int]:
            package = next((m for m in MODULES if r.module == m or r.module.startswith(m + ".")), None)
            return (position[package] if package is not None else len(MODULES), r.order)
        _in_build_order = tuple(r.feature for r in sorted(_registry.values(), key=build_order))
    return _in_build_order


def find_feature(name: str) -> Feature:
    """The registered feature called ``name``; :class:`FeatureError` naming the known ones if none is."""
    load()
    registration = _registry.get(name)
    if registration is None:
        raise FeatureError(f"no feature {name!r}: expected one of {sorted(_registry)}")
    return registration.feature


def commands() -> dict[str, Command]:
    """Every feature's subcommands by name, in build order."""
    return {command.name: command for feature in registered() for command in feature.commands}


_loaded = False


def load() -> None:
    """Import every feature package once, so that each registers itself."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in MODULES:
            importlib.import_module(name)
