"""Everything the site is built from, loaded and validated in one go."""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from pathlib import Path

from . import i18n
from .errors import Problems
from .refs import check_refs
from .glossary import Term, load_glossary
from .rules import SITE_LANGUAGES, Game, load_games

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("CELLULA_DATA", ROOT / "data")).resolve()
"""The data folder; tests point ``CELLULA_DATA`` at a fixture set."""
DOCS_DIR = ROOT / "docs"


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
    extras: dict[str, object] = field(default_factory=dict)
    """Data of the optional parts (cards, puzzles, edition notes), by name."""
    solve_puzzles: bool = True
    """False: puzzles are loaded and checked but not solved (``python -m generator validate``),
    so ``extras`` has no puzzle set and no puzzle page is produced."""


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
    for name, loader in extra_loaders():
        value = loader(site, problems)
        if value is not None:
            site.extras[name] = value
    problems.raise_if_any()
    return site


def extra_loaders():
    """Loaders of the optional data sets, each ``(site, problems) -> value``; added as features land."""
    from . import features
    features.load()
    return features.LOADERS
