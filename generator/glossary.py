"""The multilingual glossary: term pairs with the variant spellings the sources use."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Problems
from .yamlio import load_yaml, yaml_path

if TYPE_CHECKING:
    from solver.loading import Located

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


def _forms(value: object, file: Path, located: Located, path: tuple[str | int, ...], problems: Problems) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.add(file, yaml_path(*path), f"expected a list of non-empty strings, got {value!r}",
                     located.line(*path))
        return ()
    return tuple(v.strip() for v in value)


def load_glossary(file: Path, games_known: list[str], problems: Problems) -> list[Term]:
    """Load and validate ``data/glossary.yaml``; problems are collected."""
    data, located = load_yaml(file)
    raw_terms = data.get("terms") if isinstance(data, dict) else None
    if not isinstance(raw_terms, list):
        problems.add(file, "terms", f"expected a list of terms, got {type(raw_terms).__name__}", located.line("terms"))
        return []
    terms: list[Term] = []
    seen: dict[str, int | None] = {}
    for index, raw in enumerate(raw_terms):
        where = ("terms", index)
        line = located.line(*where)
        if not isinstance(raw, dict):
            problems.add(file, yaml_path(*where), f"expected a mapping, got {raw!r}", line)
            continue
        unknown = set(raw) - {"id", "games", "it", "en", "ru", "forbidden", "note", "source", "shared"}
        if unknown:
            problems.add(file, yaml_path(*where), f"unknown keys {sorted(unknown)}: expected id, games, it, en, "
                         "ru, forbidden, note, source", line)
        term_id = raw.get("id")
        if not isinstance(term_id, str) or not TERM_ID.match(term_id):
            problems.add(file, yaml_path(*where, "id"), f"expected an id of a-z0-9 and '-', got {term_id!r}", line)
            continue
        if term_id in seen:
            problems.add(file, yaml_path(*where, "id"), f"duplicate term id {term_id!r} (first at line {seen[term_id]})", line)
            continue
        seen[term_id] = line
        games = raw.get("games")
        if not isinstance(games, list) or not games or any(g not in games_known for g in games):
            problems.add(file, yaml_path(*where, "games"), f"expected a non-empty list of game ids {games_known}, got {games!r}",
                         located.line(*where, "games"))
            games = []
        forms = {lang: _forms(raw.get(lang), file, located, (*where, lang), problems) for lang in LANGS}
        shared_raw = raw.get("shared") or {}
        shared: dict[str, tuple[str, ...]] = {}
        if not isinstance(shared_raw, dict) or any(lang not in LANGS for lang in shared_raw):
            problems.add(file, yaml_path(*where, "shared"), f"expected {{it: [...], en: [...]}}, got {shared_raw!r}", line)
        else:
            for lang, value in shared_raw.items():
                shared[lang] = _forms(value, file, located, (*where, "shared", lang), problems)
                forms[lang] = forms[lang] + tuple(f for f in shared[lang] if f not in forms[lang])
        for lang in ("it", "en"):
            if not forms[lang]:
                problems.add(file, yaml_path(*where, lang), f"term {term_id!r} has an empty {lang!r} side: "
                             "expected at least one form", located.line(*where, lang) or line)
        if "immune-response" in games and games == ["immune-response"] and not forms["ru"]:
            problems.add(file, yaml_path(*where, "ru"), f"Immune Response term {term_id!r} needs its Russian form", line)
        forbidden_raw = raw.get("forbidden") or {}
        forbidden = {}
        if not isinstance(forbidden_raw, dict):
            problems.add(file, yaml_path(*where, "forbidden"), f"expected {{it: [...], en: [...]}}, got {forbidden_raw!r}", line)
        else:
            for lang, value in forbidden_raw.items():
                if lang not in LANGS:
                    problems.add(file, yaml_path(*where, "forbidden", lang), f"expected a language among {list(LANGS)}, "
                                 f"got {lang!r}", located.line(*where, "forbidden", lang) or line)
                    continue
                forbidden[lang] = _forms(value, file, located, (*where, "forbidden", lang), problems)
                # a form both used and forbidden: the wording check would flag every use of the term
                own = {f.casefold(): f for f in forms.get(lang, ())}
                for form in forbidden[lang]:
                    if form.casefold() in own:
                        which = "preferred" if forms[lang] and own[form.casefold()] == forms[lang][0] else "own"
                        problems.add(file, yaml_path(*where, "forbidden", lang),
                                     f"term {term_id!r}: {form!r} is its {which} {lang} form and also forbidden: "
                                     "expected a forbidden form the term does not use",
                                     located.line(*where, "forbidden", lang) or line)
        note = raw.get("note") or {}
        if not isinstance(note, dict) or any(not isinstance(v, str) for v in note.values()):
            problems.add(file, yaml_path(*where, "note"), f"expected {{it: text, en: text}}, got {note!r}", line)
            note = {}
        source = raw.get("source", "official")
        if source not in ("official", "project"):
            problems.add(file, yaml_path(*where, "source"), f"expected 'official' or 'project', got {source!r}", line)
        terms.append(Term(term_id, tuple(games), forms, forbidden, dict(note), source == "official", shared))
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
