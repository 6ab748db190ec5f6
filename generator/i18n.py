"""The message catalogue: every interface string of the site, one YAML file per UI language
(``data/i18n/<lang>.yaml``), read through one function, :func:`t`.

Keys are dotted: a top-level mapping of the file is a namespace (``core``, ``puzzles``, ``cards``,
``audit``, ``check``, ``draft``), a nested mapping adds a level (``puzzles.breakdown.detox``);
every leaf is a non-empty text, ``{name}`` a placeholder filled by ``t(key, lang, name=value)``.
The reference language (the first site language, Italian) defines the key set: every other file
has exactly its keys, with the same placeholders. :func:`read_catalogue` reports every missing,
extra or empty key and every placeholder mismatch, :func:`unused_problems` every unused key, all at
once and naming the file and the key (``python -m generator validate``, ``tests/test_ui_strings.py``).

A text that states a count has its plural forms as a mapping of CLDR plural categories
(``plans: {one: "{count} piano migliore", other: "{count} piani migliori"}``: ``other`` always,
``one``/``many`` where the language has them), read by :func:`plural`, which picks the form the
language's plural rule gives the count and fills ``{count}`` in the language's number format.
Numbers shown in a text go through :func:`number` (decimal comma and thousands separator from the
locale: ``1.234,5`` in Italian, ``1,234.5`` in English), never formatted by hand.

Templates call the same function (a Jinja global: ``{{ t("puzzles.nav", lang) }}``). Page code
that reads many keys of one namespace may take ``namespace("puzzles")[lang]``, a mapping whose
lookups go through the same catalogue (and count as uses); ``ui.key`` works in templates on it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from enum import Enum
from typing import Any, TypeVar
from pathlib import Path
from urllib.parse import urlsplit

from babel import Locale, numbers as babel_numbers

from solver.game.messages import format_message, placeholder_fault, placeholders
from solver.game.steps import declared_placeholders

from .errors import DataError, Problems
from .markdown_syntax import ABBREVIATION_DEFINITION, ADMONITION, IMAGE
from .paths import DATA_DIR, ROOT
from .rules import SITE_LANGUAGES
from .yamlio import Located, load_yaml

CATALOGUE_FOLDER = "i18n"
"""Folder of the catalogue files under the data folder."""

_catalogue: dict[str, dict[str, str]] = {}
"""Loaded texts: language -> dotted key -> text."""
_loaded_from: Path | None = None
_used: set[str] = set()
"""Keys looked up since the catalogue was loaded (for the unused-key check)."""


def _flatten(value: object, prefix: str, located: Located, path: tuple[str | int, ...], file: Path,
             problems: Problems, out: dict[str, str], refused: set[str]) -> None:
    """The texts of one catalogue file into ``out`` by dotted key; a text refused (its problem
    reported) goes into ``refused``, so that it does not count as missing too."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not key or "." in key:
                problems.add(file, prefix, f"expected a key without dots, got {key!r}", located.line(path))
                continue
            _flatten(item, f"{prefix}.{key}" if prefix else key, located, path + (key,), file, problems, out, refused)
    elif isinstance(value, str) and value.strip() and prefix.count(".") >= 1:
        fault = _placeholder_fault(value, prefix) or _markup_fault(value)
        if fault:
            problems.add(file, prefix, fault, located.line(path))
            refused.add(prefix)
        else:
            out[prefix] = value
    elif prefix.count(".") == 0:
        problems.add(file, prefix, f"expected a namespace (a mapping of keys to texts), got {value!r}",
                     located.line(path))
    else:
        problems.add(file, prefix, f"expected a non-empty text, got {value!r}", located.line(path))
        refused.add(prefix)


def _placeholder_fault(text: str, key: str = "") -> str | None:
    """Why ``text`` is not a catalogue text :func:`t` can fill, or None: the message format of
    :mod:`solver.game.messages` (named placeholders only, no attribute or index access, no conversion,
    a bounded width and precision, no literal brace: in Markdown an attribute list); a key whose
    placeholders the code declares (the step texts) may use only those."""
    return placeholder_fault(text, _DECLARED.get(key))


_DECLARED = declared_placeholders()
"""Placeholders declared by the code for some keys (``steps.*``); the others' come from the
reference language (checked in :func:`read_catalogue`)."""


_LINK_TARGET = re.compile(r"\]\(\s*([^)\s]*)")
_LINK_SCHEMES = ("http:", "https:", "mailto:")


def _markup_fault(text: str) -> str | None:
    """Why ``text`` carries markup a catalogue text may not, or None. A catalogue text is Markdown
    written into pages, headers and the navigation: emphasis, code and links to pages or e-mail
    addresses, never raw HTML (``<``: a script or an event handler), a literal brace (an attribute
    list), an image (loaded from any host by every reader), an abbreviation definition (it relabels
    a word on the whole page), an admonition (a box of any kind), a link to another host (the
    sanitiser keeps those only for the hosts a game declares) or of another scheme (``javascript:``)."""
    if "<" in text:
        return f"expected no HTML (a catalogue text is Markdown: **bold**, `code`, [text](link)), got {text!r}"
    if IMAGE.search(text):
        return f"expected no image (![...](...)): a catalogue text cannot load a picture, got {text!r}"
    if ABBREVIATION_DEFINITION.search(text):
        return f"expected no abbreviation definition (*[word]: ...): it relabels the word on the whole page, got {text!r}"
    if ADMONITION.search(text):
        return f"expected no admonition (!!! kind): a catalogue text opens no box of its own, got {text!r}"
    for target in _LINK_TARGET.findall(text):
        if re.match(r"[a-zA-Z][\w+.-]*:", target) and not target.lower().startswith(_LINK_SCHEMES):
            return f"expected links to pages or mailto addresses, got the target {target!r} in {text!r}"
        if urlsplit(target).netloc:     # the site's sanitiser would drop it: no host is declared for the catalogue
            return (f"expected links to pages of the site or mailto addresses, got a link to another host "
                    f"{target!r} in {text!r}")
    return None


def _placeholders(text: str) -> set[str]:
    return set(placeholders(text))


def read_catalogue(data_dir: Path, languages: tuple[str, ...], problems: Problems) -> dict[str, dict[str, str]]:
    """Every language's catalogue file, flattened; missing and extra keys (against the first
    language, the reference) are added to ``problems``, all of them."""
    texts: dict[str, dict[str, str]] = {}
    lines: dict[str, Located] = {}
    refused: set[str] = set()
    """Keys whose text a file has but its problem is reported: not missing in the other files too."""
    for lang in languages:
        file = data_dir / CATALOGUE_FOLDER / f"{lang}.yaml"
        if not file.is_file():
            problems.add(file, "", f"missing: the catalogue of site language {lang!r}")
            texts[lang] = {}
            continue
        try:
            data, located = load_yaml(file)
        except DataError as exc:
            problems.items.extend(exc.problems)
            texts[lang] = {}
            continue
        lines[lang] = located
        flat: dict[str, str] = {}
        if not isinstance(data, dict):
            problems.add(file, "", f"expected a mapping of namespaces, got {type(data).__name__}")
        else:
            _flatten(data, "", located, (), file, problems, flat, refused)
        texts[lang] = flat
        _plural_problems(flat, file, located, problems)
    reference = languages[0]
    for lang in languages[1:]:
        file = data_dir / CATALOGUE_FOLDER / f"{lang}.yaml"
        if lang not in lines or reference not in lines:
            continue
        for key in sorted(set(texts[reference]) - set(texts[lang]) - refused):
            problems.add(file, key, f"missing: {reference}.yaml has this key, {lang}.yaml lacks it")
        extra = sorted(set(texts[lang]) - set(texts[reference]) - refused)
        for key in extra:
            problems.add(file, key, f"extra key: not in the reference catalogue {reference}.yaml",
                         lines[lang].line(tuple(key.split("."))))
        if extra:       # the reference may be the file that lost them (a cut or a bad merge): name it too
            problems.add(data_dir / CATALOGUE_FOLDER / f"{reference}.yaml", extra[0],
                         f"missing from the reference catalogue, which defines the key set; {lang}.yaml has it"
                         + (f" and {len(extra) - 1} more key(s) this file lacks" if len(extra) > 1 else ""))
        for key in sorted(set(texts[lang]) & set(texts[reference])):
            wanted, found = _placeholders(texts[reference][key]), _placeholders(texts[lang][key])
            if wanted != found:
                problems.add(file, key, f"expected the placeholders {sorted(wanted)} of {reference}.yaml, "
                             f"got {sorted(found)}", lines[lang].line(tuple(key.split("."))))
    return texts


PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""CLDR plural categories: the keys of a text's plural forms (``other`` required)."""


def _plural_problems(flat: dict[str, str], file: Path, located: Located, problems: Problems) -> None:
    """A mapping of plural forms (a key with a ``one``/``few``/``many`` form) needs its ``other``
    form, which every count without a form of its own takes."""
    groups = {key.rsplit(".", 1)[0] for key in flat if key.rsplit(".", 1)[-1] in PLURAL_CATEGORIES[:-1]}
    for group in sorted(groups):
        if f"{group}.other" not in flat:
            problems.add(file, group, "plural forms without 'other': expected {one: ..., other: ...} "
                         "('other' is the form of every count the language has no other form for)",
                         located.line(tuple(group.split("."))))


def load(data_dir: Path, problems: Problems, languages: tuple[str, ...] = SITE_LANGUAGES) -> None:
    """Load the catalogue of ``data_dir`` as the one :func:`t` reads; problems go to ``problems``."""
    global _loaded_from
    found = Problems()
    texts = read_catalogue(data_dir, languages, found)
    problems.extend(found)
    if found:
        return  # keep the last good catalogue (or none: t() then loads data/): the caller raises anyway
    _catalogue.clear()
    _catalogue.update(texts)
    _loaded_from = data_dir
    _used.clear()


def _ensure_loaded() -> None:
    if _loaded_from is None:
        problems = Problems()
        load(DATA_DIR, problems)
        problems.raise_if_any()


def t(key: str, lang: str, **params: object) -> str:
    """The text of ``key`` in ``lang``, placeholders filled from ``params``. An unknown key or
    language raises KeyError naming it (the catalogue check makes that a data error first)."""
    _ensure_loaded()
    try:
        text = _catalogue[lang][key]
    except KeyError:
        raise KeyError(f"interface string {key!r} not in data/{CATALOGUE_FOLDER}/{lang}.yaml") from None
    _used.add(key)
    # no values: the text as it is, to be filled later by its ``.format`` (the same safe formatter)
    return format_message(text, params) if params else CatalogueText(text)


def plural_category(count: int | float, lang: str) -> str:
    """The CLDR plural category of ``count`` in ``lang`` (``one`` for 1 in Italian and English,
    ``other`` for 0, 2, 1.5 ...), from the locale's plural rule."""
    return str(Locale.parse(lang).plural_form(abs(count)))


def plural(key: str, lang: str, count: int | float, **params: object) -> str:
    """The plural form of ``key`` for ``count`` (``key.one``, ``key.other`` ...: see the module's
    documentation), ``{count}`` filled with :func:`number` and the other placeholders from ``params``.
    A form the catalogue does not give falls back to ``other``."""
    category = plural_category(count, lang)
    name = f"{key}.{category}" if has(f"{key}.{category}", lang) else f"{key}.other"
    return t(name, lang, count=number(count, lang), **params)


def number(value: int | float, lang: str, decimals: int | None = None) -> str:
    """``value`` in ``lang``'s number format: its decimal sign and thousands separator (``12.345,5``
    in Italian, ``12,345.5`` in English); ``decimals`` fixes the number of decimal places
    (rounded), otherwise an integer has none and a fraction up to three."""
    if decimals is None:
        return str(babel_numbers.format_decimal(value, locale=lang))
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return str(babel_numbers.format_decimal(value, format=pattern, locale=lang, decimal_quantization=True))


class CatalogueText(str):
    """A catalogue text returned unfilled: its :meth:`format` is :func:`solver.game.messages.format_message`
    (named values only), so that page code filling it later (``ui["x"].format(n=3)``) never
    evaluates a translator's text with Python's ``str.format``."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        if args:
            raise TypeError(f"catalogue texts take named values only, got {len(args)} positional")
        return format_message(str(self), kwargs)


def has(key: str, lang: str) -> bool:
    """Whether the catalogue has ``key`` (for optional labels such as a per-engine note)."""
    _ensure_loaded()
    return key in _catalogue.get(lang, {})


def keys(prefix: str, lang: str) -> list[str]:
    """The keys directly under ``prefix`` (``keys("puzzles.breakdown", lang)``), in file order."""
    _ensure_loaded()
    start = prefix + "."
    return list(dict.fromkeys(k[len(start):].split(".")[0] for k in _catalogue.get(lang, {}) if k.startswith(start)))


class Strings(Mapping[str, Any]):
    """The texts under one key prefix in one language, as a read-only mapping: ``ui["nav"]`` is
    ``t(prefix + ".nav", lang)``; a nested namespace gives another :class:`Strings`. Values are
    typed Any: a string or a nested Strings by the catalogue's shape, which the caller knows and
    the type checker cannot."""

    def __init__(self, prefix: str, lang: str):
        self._prefix = prefix
        self._lang = lang

    def __getitem__(self, key: str) -> Any:
        full = f"{self._prefix}.{key}"
        if has(full, self._lang):
            return t(full, self._lang)
        if keys(full, self._lang):
            return Strings(full, self._lang)
        raise KeyError(f"interface string {full!r} not in data/{CATALOGUE_FOLDER}/{self._lang}.yaml")

    def __iter__(self) -> Iterator[str]:
        return iter(keys(self._prefix, self._lang))

    def __len__(self) -> int:
        return len(keys(self._prefix, self._lang))

    def __getattr__(self, key: str) -> Any:
        # templates write ui.key; Jinja tries the attribute first
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError as exc:
            raise AttributeError(str(exc)) from None


class Namespace(Mapping[str, Strings]):
    """One namespace in every site language: ``namespace("puzzles")[lang]`` is its
    :class:`Strings`; iterating gives the site languages."""

    def __init__(self, name: str):
        self.name = name

    def __getitem__(self, lang: str) -> Strings:
        if lang not in SITE_LANGUAGES:
            raise KeyError(lang)
        return Strings(self.name, lang)

    def __iter__(self) -> Iterator[str]:
        return iter(SITE_LANGUAGES)

    def __len__(self) -> int:
        return len(SITE_LANGUAGES)


class Labels(Mapping[str | Enum, dict[str, str]]):
    """A table of names (``labels("puzzles.areas")["golgi"]["it"]``): key (a string or an Enum,
    read by its value) -> language -> ``t(prefix + "." + key, lang)``."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def __getitem__(self, key: str | Enum) -> dict[str, str]:
        name = key.value if isinstance(key, Enum) else key
        full = f"{self.prefix}.{name}"
        if not isinstance(name, str) or not has(full, SITE_LANGUAGES[0]):
            raise KeyError(key)
        return {lang: t(full, lang) for lang in SITE_LANGUAGES}

    def __iter__(self) -> Iterator[str]:
        return iter(keys(self.prefix, SITE_LANGUAGES[0]))

    def __len__(self) -> int:
        return len(keys(self.prefix, SITE_LANGUAGES[0]))


def labels(prefix: str) -> Labels:
    """A table of names under ``prefix``, by key then language (see :class:`Labels`)."""
    return Labels(prefix)


E = TypeVar("E", bound=Enum)


class EnumLabels(Mapping[str, dict[E, str]]):
    """Names of an Enum's members, by language: ``[lang]`` is a dict member -> text
    (``t(prefix + "." + member.value, lang)``), every member named."""

    def __init__(self, prefix: str, members: type[E]):
        self.prefix = prefix
        self.members = members

    def __getitem__(self, lang: str) -> dict[E, str]:
        if lang not in SITE_LANGUAGES:
            raise KeyError(lang)
        return {m: t(f"{self.prefix}.{m.value}", lang) for m in self.members}

    def __iter__(self) -> Iterator[str]:
        return iter(SITE_LANGUAGES)

    def __len__(self) -> int:
        return len(SITE_LANGUAGES)


def enum_labels(prefix: str, members: type[E]) -> EnumLabels[E]:
    """The names of ``members`` under ``prefix``, by language (see :class:`EnumLabels`)."""
    return EnumLabels(prefix, members)


def namespace(name: str) -> Namespace:
    """The texts of one namespace, by language (see :class:`Namespace`)."""
    return Namespace(name)


SOURCE_ROOTS = ("generator", "solver", "docs/assets")
"""Where code that reads interface strings, or defines the values a table of names is keyed by
(the solver's card types and areas), lives (relative to the repository root)."""
SOURCE_SUFFIXES = (".py", ".j2", ".html", ".js")


def _source_text(root: Path) -> str:
    parts = []
    for folder in SOURCE_ROOTS:
        for file in sorted((root / folder).rglob("*")):
            if file.suffix in SOURCE_SUFFIXES and file.is_file() and file.name != "i18n.py":
                parts.append(file.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


class _SourceNames:
    """What the source files name, scanned once: the words and the computed keys' literal heads."""

    def __init__(self, source: str):
        self.source = source
        self.words = set(re.findall(r"\w+", source))
        self.heads = tuple(set(re.findall(r"[\"'.]([a-z][a-z0-9_]*_)(?:\{|[\"']\s*\+)", source)))


def _named_in(key: str, names: _SourceNames) -> bool:
    """Whether the source names ``key``: its full dotted name, its last part as a word, or a
    computed key's literal head (``f"status_{...}"``, ``"confirm_" + engine``)."""
    last = key.rsplit(".", 1)[-1]
    if key in names.source:
        return True
    # a \w+ run is a word between word boundaries; other names (``card-row``) need the search
    if last in names.words or (not re.fullmatch(r"\w+", last)
                               and re.search(rf"\b{re.escape(last)}\b", names.source)):
        return True
    return any(last.startswith(head) for head in names.heads)


def unused_problems(data_dir: Path, problems: Problems, root: Path | None = None) -> None:
    """Every reference key that no lookup has read since loading (call after rendering every
    page) and that no source file names either (a key read only on some data, such as an error
    state, counts as used through its name in the code)."""
    names = _SourceNames(_source_text(root or ROOT))
    reference = SITE_LANGUAGES[0]
    file = data_dir / CATALOGUE_FOLDER / f"{reference}.yaml"
    for key in sorted(set(_catalogue.get(reference, {})) - _used):
        if not _named_in(key, names):
            problems.add(file, key, "unused: no page, template or script reads this key (remove it, or use it)")

