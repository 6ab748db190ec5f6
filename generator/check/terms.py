"""Glossary matching with light stemming and fuzzy tokens, so plurals, inflections and one-letter
typos of a term's forms are still found ('Beuta'/'Beute', 'Flask'/'Flasks', 'Mazza'/'Mazzo')."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..glossary import Term

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def fold(word: str) -> str:
    """Lowercase without accents."""
    word = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in word if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """A light stem: final vowels (it) or plural endings (en) removed; short words kept whole."""
    word = fold(word)
    if len(word) <= 3 or word.isupper() or any(ch.isdigit() for ch in word):
        return word
    if lang == "it":
        if word.endswith(("che", "chi", "ghe", "ghi")):
            return word[:-2]
        stemmed = re.sub(r"[aeiou]+$", "", word)
        return stemmed if len(stemmed) >= 3 else word
    if word.endswith("ed") and len(word) > 5 and not word.endswith("eed"):
        word = word[:-2]
    elif word.endswith("ing") and len(word) > 6:
        word = word[:-3]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


IRREGULAR_PLURALS = {"en": {"dice": "die", "men": "man", "women": "woman", "mice": "mouse", "children": "child",
                             "lives": "life", "halves": "half", "leaves": "leaf", "knives": "knife",
                             "feet": "foot", "teeth": "tooth", "geese": "goose", "people": "person"},
                      "it": {"uova": "uovo", "uomini": "uomo", "mani": "mano",
                             "paia": "paio", "centinaia": "centinaio", "migliaia": "migliaio"}}
"""Plurals a light stem cannot join to their singular ('dice'/'die'): one word, not two renderings."""


def inflection_key(word: str, lang: str) -> str:
    """The word as its singular stem, so singular and plural of one word compare equal."""
    folded = fold(word)
    return stem(IRREGULAR_PLURALS.get(lang, {}).get(folded, folded), lang)


def tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of every word of ``text``."""
    return [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]


def within_one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by at most one insertion, deletion or substitution."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = j = edits = 0
    while i < len(a) and j < len(b):
        if a[i] != b[j]:
            edits += 1
            if edits > 1:
                return False
            if len(a) == len(b):
                i += 1
            j += 1
            continue
        i += 1
        j += 1
    return edits + (len(b) - j) <= 1


def stems_match(text_stem: str, form_stem: str) -> bool:
    """Exact stems, or one edit apart when both are long enough for a typo to be told apart."""
    if text_stem == form_stem:
        return True
    return min(len(text_stem), len(form_stem)) >= 5 and within_one_edit(text_stem, form_stem)


@dataclass(frozen=True)
class TermHit:
    """One occurrence of a glossary term (or a forbidden rendering) in a text."""

    term: str
    """Term id (the first, when several terms share the matched form)."""
    form: str
    """The glossary form it matched."""
    surface: str
    """The words as written in the text."""
    start: int
    """Offset in the text."""
    end: int
    """End offset in the text."""
    forbidden: bool = False
    """True when the match is one of the term's forbidden renderings."""
    also: tuple[str, ...] = ()
    """Other terms with the same form ('Risposta Immunitaria': a card name and a game value)."""

    @property
    def terms(self) -> tuple[str, ...]:
        return (self.term, *self.also)


class TermMatcher:
    """Finds the glossary terms of one language in texts; longer forms win over shorter ones."""

    def __init__(self, terms: list[Term], lang: str, game: str | None = None):
        self.lang = lang
        patterns: list[tuple[tuple[str, ...], str, str, bool]] = []
        for term in terms:
            if game is not None and game not in term.games:
                continue
            for form in term.forms.get(lang, ()):
                patterns.append((self._stems(form), term.id, form, False))
            for form in term.forbidden.get(lang, ()):
                patterns.append((self._stems(form), term.id, form, True))
        patterns = [p for p in patterns if p[0]]
        self._shared: dict[tuple[tuple[str, ...], bool], tuple[str, ...]] = {}
        for stems_, term_id, _, forbidden in patterns:
            key = (stems_, forbidden)
            if term_id not in self._shared.get(key, ()):
                self._shared[key] = self._shared.get(key, ()) + (term_id,)
        patterns.sort(key=lambda p: (-len(p[0]), p[3] is False))
        self.patterns = patterns
        self._by_first: dict[str, list[tuple[tuple[str, ...], str, str, bool]]] = {}
        for pattern in patterns:
            self._by_first.setdefault(pattern[0][0][:2], []).append(pattern)

    def _stems(self, text: str) -> tuple[str, ...]:
        return tuple(stem(w, self.lang) for _, _, w in tokens(text))

    def find(self, text: str) -> list[TermHit]:
        """Every non-overlapping term occurrence in ``text``, left to right."""
        words = tokens(text)
        stems = [stem(w, self.lang) for _, _, w in words]
        hits: list[TermHit] = []
        index = 0
        while index < len(words):
            hit = None
            for pattern, term_id, form, forbidden in self._by_first.get(stems[index][:2], ()):
                size = len(pattern)
                # a forbidden rendering matches exactly (inflected): one edit off, 'fianco' is not 'fiasca'
                match = (lambda a, b: a == b) if forbidden else stems_match
                if index + size <= len(words) and all(
                        match(stems[index + k], pattern[k]) for k in range(size)):
                    start, end = words[index][0], words[index + size - 1][1]
                    shared = tuple(t for t in self._shared[(pattern, forbidden)] if t != term_id)
                    hit = TermHit(term_id, form, text[start:end], start, end, forbidden, shared)
                    break
            if hit:
                hits.append(hit)
                index += len(self._stems(hit.form))
            else:
                index += 1
        return hits
