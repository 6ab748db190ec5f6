"""The validated data of the whole site: the core every page needs (rules, glossary, interface
strings) and, beside it, each feature's own data under a typed key the feature declares.

A feature keeps its data behind its own :class:`FeatureKey` (``CARD_SETS = FeatureKey("cards",
dict)`` in its package), stores it from its loader (``site.put(CARD_SETS, sets)``) and reads it
back, typed, with ``site.get(CARD_SETS)``. This module imports no feature, so every feature can
import it and none is tied to the others through the site object.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from . import i18n
    from .glossary import Term
    from .rules import Game

T = TypeVar("T")


@dataclass(frozen=True)
class FeatureKey(Generic[T]):
    """Where one feature's data lives in :class:`SiteData`: a unique name and the value read
    before the feature's loader stored any (an empty data set)."""

    name: str
    default: Callable[[], T]
    """Makes the value of a site without this feature's data (``dict``: an empty mapping)."""


@dataclass
class SiteData:
    """The validated data of the whole site."""

    data_dir: Path
    """Where it was loaded from."""
    games: dict[str, Game]
    """Rules references by game id."""
    glossary: list[Term]
    """Glossary terms."""
    ui: dict[str, i18n.Strings]
    """The core interface strings per site language (``core.*`` of :mod:`generator.i18n`'s catalogue)."""
    solve_puzzles: bool = True
    """False: puzzles are loaded and checked but not solved (``python -m generator validate``), so
    the puzzles feature stores none and no puzzle page is produced."""
    _features: dict[str, Any] = field(default_factory=dict, repr=False)
    """Each feature's data by its key's name (:meth:`get`, :meth:`put`)."""

    def get(self, key: FeatureKey[T]) -> T:
        """The data ``key``'s feature stored; its default when it stored none."""
        if key.name not in self._features:
            return key.default()
        value: T = self._features[key.name]
        return value

    def put(self, key: FeatureKey[T], value: T) -> None:
        """Store a feature's data (its loader does, once)."""
        self._features[key.name] = value
