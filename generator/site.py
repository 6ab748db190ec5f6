"""Everything the site is built from, loaded and validated in one go."""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from pathlib import Path

from .errors import Problems
from .refs import check_refs
from .glossary import Term, load_glossary
from .rules import SITE_LANGUAGES, Game, load_games
from .yamlio import load_yaml

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
    ui: dict[str, dict[str, str]]
    """Interface strings per site language."""
    extras: dict[str, object] = field(default_factory=dict)
    """Data of the optional parts (cards, puzzles, edition notes), by name."""


def load_ui(file: Path, problems: Problems) -> dict[str, dict[str, str]]:
    """Interface strings; Italian defines the key set, every other language must match it."""
    data, located = load_yaml(file)
    reference = SITE_LANGUAGES[0]
    if not isinstance(data, dict) or not all(isinstance(data.get(l), dict) for l in SITE_LANGUAGES):
        problems.add(file, "", f"expected a mapping per language {list(SITE_LANGUAGES)}")
        return {}
    keys = set(data[reference])
    for lang in SITE_LANGUAGES[1:]:
        for key in sorted(keys - set(data[lang])):
            problems.add(file, f"{lang}.{key}", f"missing: the {reference!r} side has this key, {lang!r} lacks it",
                         located.line(reference, key))
        for key in sorted(set(data[lang]) - keys):
            problems.add(file, f"{lang}.{key}", f"unknown key: not in the reference language {reference!r}",
                         located.line(lang, key))
    for lang in SITE_LANGUAGES:
        for key, value in data[lang].items():
            if not isinstance(value, str) or not value.strip():
                problems.add(file, f"{lang}.{key}", f"expected a non-empty text, got {value!r}", located.line(lang, key))
    return {lang: {k: str(v) for k, v in data[lang].items()} for lang in SITE_LANGUAGES}


def load_site(data_dir: Path = DATA_DIR) -> SiteData:
    """Load every data file; raise one DataError listing every problem found."""
    problems = Problems()
    ui = load_ui(data_dir / "ui.yaml", problems)
    games = load_games(data_dir, problems)
    known = sorted(p.parent.name for p in (data_dir / "rules").glob("*/game.yaml"))
    glossary = load_glossary(data_dir / "glossary.yaml", known, problems) if os.path.lexists(
        data_dir / "glossary.yaml") else []
    site = SiteData(data_dir, games, glossary, ui)
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
