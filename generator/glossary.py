"""The multilingual glossary: term pairs with the variant spellings the sources use."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import schema
from .languages import FallbackTexts
from .errors import Problems
from .schema import Schema
from .yamlio import load_yaml, yaml_path

if TYPE_CHECKING:
    from solver.io.loading import Located

TERM_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
LANGS = ("it", "en", "ru")


@dataclass(frozen=True)
class Term:
    """One glossary entry: the same concept in each language."""

    id: str
    """Stable id, also the anchor on the glossary page."""
    games: tuple[str, ...]
    """Games the term belongs to."""
    forms: dict[str, tuple[str, ...]]
    """Forms per language (``it``, ``en``, ``ru``); the first is the preferred form."""
    forbidden: dict[str, tuple[str, ...]]
    """Renderings reported as wrong by the edition check, per language."""
    note: dict[str, str]
    """Optional note per site language."""
    official: bool
    """True when both sides are printed in official rulebooks; False for project translations."""
    shared: dict[str, tuple[str, ...]] | None = None
    """Forms (per language, also listed last in ``forms``) that a source uses for this concept but
    that another entry owns: the edition check matches them, the pages' tooltips do not."""

    def own_forms(self, lang: str) -> tuple[str, ...]:
        """The forms a page marks with this term's tooltip (``forms`` without the shared ones)."""
        shared = (self.shared or {}).get(lang, ())
        return tuple(f for f in self.forms.get(lang, ()) if f not in shared)

    def preferred(self, lang: str) -> str | None:
        forms = self.forms.get(lang) or ()
        return forms[0] if forms else None

    @property
    def anchor(self) -> str:
        return f"term-{self.id}"


_FORMS = {"type": ["string", "array", "null"], "pattern": r"\S", "items": {"type": "string", "pattern": r"\S", "expected": "a non-empty string"},
          "expected": "a list of non-empty strings"}
_PER_LANGUAGE = {"type": "object", "additionalProperties": False, "properties": {lang: _FORMS for lang in LANGS},
                 "expected": "{it: [...], en: [...]}"}


def schema_for(games_known: list[str]) -> Schema:
    """The shape of ``data/glossary.yaml`` for a site with ``games_known``; :func:`load_glossary`
    adds what needs more than one value (ids once, a side not empty, forms forbidden or shared)."""
    return _schema_for(tuple(games_known))


@functools.cache
def _schema_for(games_known: tuple[str, ...]) -> Schema:
    return {
        "type": "object", "required": ["terms"], "additionalProperties": False,
        "properties": {"terms": {"type": "array", "expected": "a list of terms", "items": {
            "type": "object", "required": ["id", "games"], "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": TERM_ID.pattern, "expected": "an id of a-z0-9 and '-'"},
                "games": {"type": "array", "minItems": 1, "items": {"enum": list(games_known), "expected": f"a game id among {list(games_known)}"},
                          "expected": f"a non-empty list of game ids {list(games_known)}"},
                **{lang: _FORMS for lang in LANGS},
                "shared": _PER_LANGUAGE, "forbidden": _PER_LANGUAGE,
                "note": {"type": "object", "additionalProperties": {"type": "string", "expected": "a text"},
                         "expected": "{it: text, en: text}"},
                "source": {"enum": ["official", "project"]}}}}}}


def _forms(value: str | list[str] | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in ([value] if isinstance(value, str) else value or []))


def load_glossary(file: Path, games_known: list[str], problems: Problems) -> list[Term]:
    """Load and validate ``data/glossary.yaml``; problems are collected."""
    data, located = load_yaml(file)
    faults = schema.check(data, located, file, schema_for(games_known), problems)
    if not faults.usable("terms"):
        return []
    terms: list[Term] = []
    seen: dict[str, int | None] = {}
    for index, raw in enumerate(data["terms"]):
        where = ("terms", index)
        line = located.line(*where)
        if not faults.usable(*where, "id"):
            continue
        term_id = raw["id"]
        if term_id in seen:
            problems.add(file, yaml_path(*where, "id"), f"duplicate term id {term_id!r} (first at line {seen[term_id]})", line)
            continue
        seen[term_id] = line
        if not faults.clean(*where):
            continue
        games = raw["games"]
        forms = {lang: _forms(raw.get(lang)) for lang in LANGS}
        shared = {lang: _forms(value) for lang, value in (raw.get("shared") or {}).items()}
        for lang, extra in shared.items():
            forms[lang] = forms[lang] + tuple(f for f in extra if f not in forms[lang])
        for lang in ("it", "en"):
            if not forms[lang]:
                problems.add(file, yaml_path(*where, lang), f"term {term_id!r} has an empty {lang!r} side: "
                             "expected at least one form", located.line(*where, lang) or line)
        if games == ["immune-response"] and not forms["ru"]:
            problems.add(file, yaml_path(*where, "ru"), f"Immune Response term {term_id!r} needs its Russian form", line)
        forbidden = {lang: _forms(value) for lang, value in (raw.get("forbidden") or {}).items()}
        for lang, wrong in forbidden.items():
            # a form both used and forbidden: the wording check would flag every use of the term
            own = {f.casefold(): f for f in forms[lang]}
            for form in wrong:
                if form.casefold() in own:
                    which = "preferred" if own[form.casefold()] == forms[lang][0] else "own"
                    problems.add(file, yaml_path(*where, "forbidden", lang),
                                 f"term {term_id!r}: {form!r} is its {which} {lang} form and also forbidden: "
                                 "expected a forbidden form the term does not use",
                                 located.line(*where, "forbidden", lang) or line)
        terms.append(Term(term_id, tuple(games), forms, forbidden, FallbackTexts(raw.get("note") or {}),
                          raw.get("source", "official") == "official", shared))
    _check_shared_forms(terms, file, located, problems)
    return terms


def _check_shared_forms(terms: list[Term], file: Path, located: Located, problems: Problems) -> None:
    """One form, one concept: two entries of the same game may not share a form in one language
    (a page's tooltip could only give one of them)."""
    owner: dict[tuple[str, str, str], str] = {}
    for index, term in enumerate(terms):
        for lang in LANGS:
            for form in term.own_forms(lang):
                for game in term.games:
                    first = owner.setdefault((game, lang, form), term.id)
                    if first != term.id:
                        problems.add(file, yaml_path("terms", index, lang), f"form {form!r} ({lang}, {game}) is "
                                     f"also a form of term {first!r}: expected each form in one entry only "
                                     "(list it under 'shared:' in the other entry)", located.line("terms", index, lang))
