"""Everything the site is built from, loaded and validated in one go (:func:`load_site`): the
rules, the glossary and the interface strings, then each registered feature's own data
(:mod:`.site_data`)."""
from __future__ import annotations

import os
from pathlib import Path

from . import i18n
from .errors import Problems
from .paths import DATA_DIR
from .refs import check_refs
from .glossary import load_glossary
from .rules import SITE_LANGUAGES, load_games
from .site_data import SiteData

__all__ = ["SiteData", "load_site"]


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
