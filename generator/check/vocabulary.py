"""The official vocabulary, checked over the texts the site shows: a glossary term's forbidden
renderings (``forbidden:`` in ``data/glossary.yaml``: "Reticolo Liscio" where the official Italian is
"Reticolo Endoplasmatico Liscio") and a count of one followed by a plural ("1 Punti Salute"), whose
plurals come from the glossary's singular/plural pairs and the catalogue's plural forms
(:func:`generator.i18n.plural`). The deny-list is data, never a list kept here.

``tests/test_vocabulary.py`` runs it over every page the generator renders (the Markdown written to
``docs/<lang>/``: rules, cards, puzzles and their steps, the rules coverage, the differences page, the
draft, captions and tooltips) and requires no offence; :func:`count_offences` counts them per term."""
from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from ..glossary import Term
from .align import plain
from .terms import TermMatcher, tokens


class OffenceKind(str, Enum):
    """What is wrong with a phrase of a shown text."""

    FORBIDDEN = "forbidden"
    """A glossary term's forbidden rendering (the official form is the term's first)."""
    AGREEMENT = "agreement"
    """A count of one followed by a plural ("1 Punti Salute")."""


@dataclass(frozen=True)
class Offence:
    """One wrong phrase in a text."""

    kind: OffenceKind
    """What is wrong."""
    term: str
    """The glossary term id, or ``catalogue:<key>`` for a plural of the catalogue."""
    surface: str
    """The phrase as written."""
    expected: str
    """What the text should say instead: the official form, or the singular."""
    start: int
    """Offset in the checked text."""


@dataclass(frozen=True)
class Plural:
    """A plural phrase and its singular, for the agreement check."""

    plural: str
    """The plural, as the glossary or the catalogue writes it."""
    singular: str
    """Its singular."""
    source: str
    """Where the pair comes from: a term id or ``catalogue:<key>``."""


_ENDINGS = {"it": (("i", "o"), ("i", "e"), ("e", "a"), ("i", "a"), ("che", "ca"), ("ghe", "ga"), ("chi", "co")),
            "en": (("s", ""), ("es", ""), ("ies", "y"))}
"""(plural ending, singular ending) of a word's regular inflection, per language."""


def _plural_of(plural: str, singular: str, lang: str) -> bool:
    """True when ``plural`` is the plural of ``singular`` word by word (one word at least changing)."""
    a, b = plural.split(), singular.split()
    if len(a) != len(b) or a == b:
        return False
    for p, s in zip(a, b):
        if p.lower() == s.lower():
            continue
        if not any(p.lower().endswith(pe) and s.lower().endswith(se) and p.lower()[:len(p) - len(pe)] == s.lower()[:len(s) - len(se)]
                   for pe, se in _ENDINGS.get(lang, ())):
            return False
    return True


def glossary_plurals(glossary: Iterable[Term], lang: str) -> list[Plural]:
    """The plural forms of the glossary's terms in ``lang`` that have their singular among the forms."""
    out = []
    for term in glossary:
        forms = term.forms.get(lang, ())
        for plural in forms:
            singular = next((s for s in forms if _plural_of(plural, s, lang)), None)
            if singular is not None:
                out.append(Plural(plural, singular, term.id))
    return out


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def catalogue_plurals(texts: Mapping[str, str]) -> list[Plural]:
    """The words a catalogue's plural forms give a count: ``{count} piani migliori`` against
    ``{count} piano migliore`` (``key.other`` against ``key.one``), the words right after ``{count}``."""
    out = []
    for key, other in texts.items():
        if not key.endswith(".other") or f"{key[:-6]}.one" not in texts:
            continue
        one = texts[f"{key[:-6]}.one"]
        after = [re.split(r"\{count[^}]*\}", text, maxsplit=1) for text in (other, one)]
        if any(len(parts) < 2 for parts in after):
            continue
        words = [[w for _, _, w in tokens(_PLACEHOLDER.sub(" ", parts[1]))] for parts in after]
        plural: list[str] = []
        singular: list[str] = []
        for p, s in zip(*words):
            if p == s and plural:
                break
            plural.append(p)
            singular.append(s)
        if plural and plural != singular:
            out.append(Plural(" ".join(plural), " ".join(singular), f"catalogue:{key[:-6]}"))
    return out


class VocabularyCheck:
    """Finds the offences of one language in texts (see the module's documentation)."""

    def __init__(self, glossary: list[Term], lang: str, plurals: Iterable[Plural] = ()):
        self.lang = lang
        self.matcher = TermMatcher(glossary, lang)
        self.official = {term.id: term.preferred(lang) or "" for term in glossary}
        self.plurals = [(re.compile(r"(?<![\w.,])1\s+" + r"\s+".join(re.escape(w) for w in p.plural.split())
                                    + r"(?!\w)", re.IGNORECASE), p)
                        for p in sorted(plurals, key=lambda p: -len(p.plural.split()))]

    def find(self, text: str) -> list[Offence]:
        """Every offence in ``text`` (plain text: :func:`visible_text` of a page), left to right."""
        out = [Offence(OffenceKind.FORBIDDEN, hit.term, hit.surface, self.official.get(hit.term, ""), hit.start)
               for hit in self.matcher.find(text) if hit.forbidden]
        agreement: dict[int, Offence] = {}
        for pattern, plural in self.plurals:  # longest plural first: '1 Punti Salute', not '1 Punti'
            for match in pattern.finditer(text):
                agreement.setdefault(match.start(), Offence(OffenceKind.AGREEMENT, plural.source, match.group(0),
                                                            f"1 {plural.singular}", match.start()))
        out += agreement.values()
        return sorted(out, key=lambda o: o.start)


_ATTRIBUTE_LIST = re.compile(r"\{:?\s*[.#][^{}\n]*\}|\{\s*[.#:][^{}\n]*\}")
_LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_SHOWN_ATTRIBUTES = re.compile(r"\b(?:title|aria-label|alt|data-tip|placeholder)=\"([^\"]*)\"")
_TAG = re.compile(r"<[^>]*>")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def visible_text(markdown: str) -> str:
    """The words a reader sees of a generated page (Markdown with HTML): the text, the titles and
    labels of its elements (tooltips are read too), the front matter's title; without link targets,
    attribute lists, tags and markup characters. A ``.`` ends each block, so a phrase cannot run on
    from one element into the next."""
    title = re.search(r"^title:\s*(.*)$", markdown[:500], re.M) if markdown.startswith("---") else None
    text = _FRONT_MATTER.sub("", markdown)
    shown = [html.unescape(value) for value in _SHOWN_ATTRIBUTES.findall(text)]
    text = _ATTRIBUTE_LIST.sub(" ", _LINK_TARGET.sub("]", text))
    text = _TAG.sub(" . ", text).replace("|", " . ").replace("\n", " . ")
    text = html.unescape(text.replace("[", " ").replace("]", " "))
    return plain(" . ".join([*(t.strip("'\"") for t in ([title.group(1)] if title else [])), text, *shown]))


def count_offences(offences: Iterable[Offence]) -> Counter[tuple[str, str]]:
    """Offences counted per (term, phrase as written, case folded)."""
    return Counter((o.term, o.surface.casefold()) for o in offences)
