"""The site languages, defined once: the locales of the i18n plugin's ``languages:`` in
``mkdocs.yml`` (the default language first). The generator, the hook and the catalogue check read
them from here; ``mkdocs-offline.yml`` inherits them (INHERIT)."""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

import yaml

from .errors import DataError, Problem, display_path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = Path(os.environ.get("CELLULA_CONFIG", ROOT / "mkdocs.yml")).resolve()
"""The MkDocs configuration that lists the languages (tests may point ``CELLULA_CONFIG`` elsewhere)."""
T = TypeVar("T")


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

CONTENT_LANGUAGES: tuple[str, ...] = ("it", "en")
"""The languages the data gives every text in: the two Cytosis editions' languages. Rule sections,
titles, notes and labels are required in each (a source or this project's translation); a text in
another site language is optional, and a page in that language shows it when the data has it."""
FALLBACK_LANGUAGE = "en"
"""The language a missing text falls back to first, as Material's own language files fall back to
English: for a third site language, the English text, then the reference (Italian) one."""


def fallback_chain(lang: str) -> tuple[str, ...]:
    """Where a page in ``lang`` looks for a data text, in order: ``lang`` itself, then
    :data:`FALLBACK_LANGUAGE`, then the other content languages (``de`` -> de, en, it; ``it`` -> it, en)."""
    return tuple(dict.fromkeys((lang, FALLBACK_LANGUAGE, *CONTENT_LANGUAGES)))


def in_chain(texts: Mapping[str, T], lang: str) -> T:
    """``texts[lang]``, or for a site language the data gives no text in, the first of ``texts``
    along its :func:`fallback_chain`; KeyError naming the language when there is none (a language
    that is not a site language, Russian say, does not fall back: the caller asked for that text)."""
    if lang in texts:
        return texts[lang]
    if lang in SITE_LANGUAGES:
        for candidate in fallback_chain(lang)[1:]:
            if candidate in texts:
                return texts[candidate]
    raise KeyError(lang)


class FallbackTexts(dict[str, T]):
    """Texts by language (a section's text in each language the data gives) whose ``[lang]``, for a
    site language the data has no text in, is the first text along :func:`fallback_chain`. ``in``,
    ``get`` and iteration see only the languages the data gives (the edition check compares those)."""

    def __missing__(self, lang: str) -> T:
        if lang in SITE_LANGUAGES:
            for candidate in fallback_chain(lang)[1:]:
                if dict.__contains__(self, candidate):
                    return dict.__getitem__(self, candidate)
        raise KeyError(lang)
