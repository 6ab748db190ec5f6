"""The site languages, defined once: the locales of the i18n plugin's ``languages:`` in
``mkdocs.yml`` (the default language first). The generator, the hook and the catalogue check read
them from here; ``mkdocs-offline.yml`` inherits them (INHERIT)."""
from __future__ import annotations

import os
from pathlib import Path

import yaml

from .errors import DataError, Problem, display_path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = Path(os.environ.get("CELLULA_CONFIG", ROOT / "mkdocs.yml")).resolve()
"""The MkDocs configuration that lists the languages (tests may point ``CELLULA_CONFIG`` elsewhere)."""


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml for its plain values only: MkDocs tags (``!ENV``, ``!relative``) read as None."""


_ConfigLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def read_site_languages(config: Path = CONFIG) -> tuple[str, ...]:
    """The i18n plugin's locales in ``config``, the default one first; a configuration without
    them is an error naming the file and what is missing."""
    with open(config, encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=_ConfigLoader) or {}
    plugins = data.get("plugins") or {}
    i18n = plugins.get("i18n") if isinstance(plugins, dict) else None
    languages = (i18n or {}).get("languages") if isinstance(i18n, dict) else None
    if not isinstance(languages, list) or not languages or \
            not all(isinstance(item, dict) and isinstance(item.get("locale"), str) for item in languages):
        raise DataError([Problem(display_path(config), "plugins.i18n.languages",
                                 "expected a list of {locale: ...} entries (the site languages; plugins "
                                 f"written as a mapping), got {languages!r}")])
    default = [item["locale"] for item in languages if item.get("default")]
    others = [item["locale"] for item in languages if not item.get("default")]
    return tuple(default + others)


SITE_LANGUAGES: tuple[str, ...] = read_site_languages()
"""Site languages, the reference (default) language first."""
