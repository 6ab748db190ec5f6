"""Everything the site is built from, loaded and validated in one go."""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from pathlib import Path
from typing import TYPE_CHECKING

from . import i18n
from .errors import Problems
from .paths import DATA_DIR
from .refs import check_refs
from .glossary import Term, load_glossary
from .rules import SITE_LANGUAGES, Game, load_games

if TYPE_CHECKING:   # the features' own data types; their packages import this module
    from .audit import Audit
    from .cards import CardSet
    from .check.draft import DraftTranslation
    from .check.editions import GameReport
    from .puzzles.model import PuzzleSet
    from .quickref import QuickGroup
    from .figures import FigureSet



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
    """False: puzzles are loaded and checked but not solved (``python -m generator validate``),
    so :attr:`puzzles` stays None and no puzzle page is produced."""

    # The features' data, each filled by its feature's loader (generator.features); empty when the
    # data set has none of it.
    editions: dict[str, GameReport] = field(default_factory=dict)
    """The edition check's report of every game whose Italian and English official texts are
    compared, by game id (``check`` feature)."""
    draft_translations: dict[str, list[DraftTranslation]] = field(default_factory=dict)
    """The project's Italian translations of the English 2nd edition's paragraphs, by game id
    (``check`` feature; read after :attr:`editions`, against which they are checked)."""
    cards: dict[str, CardSet] = field(default_factory=dict)
    """The card database of ``data/cards/``, by game id (``cards`` feature)."""
    puzzles: PuzzleSet | None = None
    """The Cytosis puzzles, solved, with the board sides' values (``puzzles`` feature); None when
    there are none or they were only checked (:attr:`solve_puzzles` False)."""
    audit: dict[str, Audit] = field(default_factory=dict)
    """The rules audit of ``data/audit/<game>.yaml``, by game id (``audit`` feature)."""
    quickref: dict[str, tuple[QuickGroup, ...]] = field(default_factory=dict)
    """The quick reference of every game that has one, by game id (``quickref`` feature)."""
    figures: dict[str, FigureSet] = field(default_factory=dict)
    """The measured figures of ``data/figures/``, by set id (``figures`` feature)."""


def load_site(data_dir: Path = DATA_DIR, *, solve_puzzles: bool = True) -> SiteData:
    """Load every data file; raise one DataError listing every problem found. With
    ``solve_puzzles=False`` the puzzles are checked without solving them (see :class:`SiteData`)."""
    problems = Problems()
    i18n.load(data_dir, problems)
    ui = {lang: i18n.Strings("core", lang) for lang in SITE_LANGUAGES}
    games = load_games(data_dir, problems)
    known = sorted(p.parent.name for p in (data_dir / "rules").glob("*/game.yaml"))
    glossary = load_glossary(data_dir / "glossary.yaml", known, problems) if os.path.lexists(
        data_dir / "glossary.yaml") else []
    site = SiteData(data_dir, games, glossary, ui, solve_puzzles=solve_puzzles)
    check_refs(site, problems)
    from . import features
    for feature in features.registered():
        if feature.loader is not None:
            feature.loader(site, problems)
    problems.raise_if_any()
    return site
