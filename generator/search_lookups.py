"""The generated relevance set of the site search: lookups derived from the data, not hand-picked.

Every glossary form (IT, EN, RU), every card name and every rule section title becomes a lookup on
both sites (Italian and English), and each of them also comes with one injected typo and in the other
number (singular/plural); every card also gives a cost question, every glossary term a "what is"
question; and every number a rule text states (:func:`_fact_lookups`: "4 Beute", "3 Cell Component
Cards", with the player count its sentence gives) gives a question asking for it ("quante beute con 4
giocatori", "how many flasks grey flasks") and a lookup typed with the number ("beute 4 giocatori",
"4 ATP grey flasks"), on the site of the text's language. A lookup passes when one of its right pages (in the reader's language) is among the first
three result pages:

* a glossary term: its defining rule sections (:func:`generator.search_index.defining_sections`),
  or the glossary page for a term no rule section uses;
* a card name: the game's card database and the chapters of the sections the card's ``rules`` list;
* a section title: the chapter of every section of that title (titles like "Preparazione" repeat);
* a fact: the chapter of the section stating it, and the game's quick reference when one of its
  lines comes from that section.

The browser test (tests/browser/test_search_relevance.py) and tools/search_relevance.py run it.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pathlib import Path

from .cards import CardSet, load_cards
from .errors import Problems
from .glossary import Term, load_glossary
from .quickref import FILE_NAME as QUICKREF_FILE, QuickGroup, load_quickref
from .rules import SITE_LANGUAGES, Game, load_games
from .search_index import ABOUT_CHAPTERS, defining_sections

KINDS = ("exact", "other-language", "typo", "plural", "question", "number")
"""Kinds of lookup, the figures' rows: a form in the site's language as written, a form of another
language, one injected typo, the other number, a question, a lookup typed with a number."""

SOURCES = ("glossary", "card", "section", "fact")

TYPO_MIN_LETTERS = 5
"""Typos are injected into words of at least this many letters: the search forgives one edit there
(docs/assets/search.js), not in shorter words, where one edit makes another word."""

QUESTIONS: dict[str, tuple[str, str]] = {
    "it": ("quanto costa {name}", "cos'è {name}"),
    "en": ("how much does {name} cost", "what is {name}"),
}
"""Per site language: the cost question asked of a card, the definition question asked of a term."""


@dataclass(frozen=True)
class Lookup:
    """One generated lookup."""

    site: str
    """Site language it is typed on (``it``: the Italian site, ``en``: the English one)."""
    kind: str
    """One of :data:`KINDS`."""
    source: str
    """What it was derived from: one of :data:`SOURCES`."""
    query: str
    """What the reader types."""
    right: tuple[str, ...]
    """Pages that answer it, relative to the language root (``cytosis/spots/``, no ``en/``)."""


_WORD = re.compile(r"[^\W\d_]+")

FACT_QUESTIONS: dict[str, tuple[str, str]] = {
    "it": ("{how} {thing} {about}", "{how} {thing} con {players} giocatori"),
    "en": ("how many {thing} {about}", "how many {thing} with {players} players"),
}
"""Per site language: the question asking for a number a rule states, about the section's subject
(its title's words) or for a player count its sentence gives. ``{how}`` is "quanti"/"quante" by the
counted word's ending."""
FACT_NUMBERS: dict[str, tuple[str, str]] = {
    "it": ("{number} {thing} {about}", "{thing} {players} giocatori"),
    "en": ("{number} {thing} {about}", "{thing} {players} players"),
}
"""Per site language: the lookup typed with the number itself, or with the player count."""
PLAYER_WORDS = {"it": ("giocatori", "giocatore", "persone"), "en": ("players", "player", "people")}
"""The words a player count is followed by, per language ("2 o 3 giocatori", "4 PLAYER GAME")."""
FACTS_PER_SECTION = 8
"""Facts taken from one section's text in one language (the first ones it states)."""
STOPWORDS = {
    "it": frozenset("a ad al alla alle ai agli all con col da dal dalla dei degli delle del della di e ed il in la le lo "
                    "gli i l un una uno per su sul sulla tra fra o che non si ne ciascun ciascuna ogni".split()),
    "en": frozenset("a an and the of to in on at by for from with or each per their its any all".split()),
}
"""Small words a counted thing is not (a number is followed by "of each", "in a", "di ciascun")."""
LABELS = frozenset("passo step fase phase pagina page pag capitolo chapter sezione section".split())
"""Words before a number that make it a label, not a count ("Passo 1", "Phase 2", "page 14")."""


def other_number(text: str, lang: str, vocabulary: frozenset[str] = frozenset()) -> str | None:
    """``text`` in the other number (singular <-> plural) by the regular endings: the head noun (the
    first word in Italian, the last in English), and in Italian the words after it that agree with it
    (those whose changed form ``vocabulary``, the lowercase words of the texts, has). Where an ending
    can go two ways (Italian -e: carte -> carta, ormone -> ormoni) the one ``vocabulary`` has wins.
    None for Russian, acronyms and words with no regular ending."""
    words = text.split(" ")
    if lang == "it":
        head = _italian_other_number(words[0], vocabulary)
        if head is None:
            return None
        was, now = words[0][-1:].lower(), head[-1:].lower()
        after = words[1:2]  # the adjective right after the noun: "Beute Grigie", not "Carta Componente Cellula"
        agreed = [w[:-1] + now if w[-1:].lower() == was and (w[:-1] + now).lower() in vocabulary else w
                  for w in after]
        return " ".join([head, *agreed, *words[2:]])
    if lang == "en":
        head = _english_other_number(words[-1])
        return None if head is None else " ".join([*words[:-1], head])
    return None


def _italian_other_number(word: str, vocabulary: frozenset[str]) -> str | None:
    if len(word) < 3 or not word.isalpha() or word.isupper() or any(c.isupper() for c in word[1:]):
        return None
    low, stem = word.lower(), word[:-1]
    if low.endswith("ma"):  # ribosoma, cromosoma: Greek neuters, plural in -i
        return stem + "i"
    if low.endswith(("ca", "ga")):
        return stem + "he"
    if low.endswith(("che", "ghe")):
        return word[:-2] + "a"
    if low.endswith(("chi", "ghi")):
        return word[:-2] + "o"
    if low.endswith(("co", "go")):  # disco -> dischi, but medico -> medici: the texts say which
        return stem + ("hi" if (stem + "hi").lower() in vocabulary or (stem + "i").lower() not in vocabulary else "i")
    ways = {"a": ("e",), "o": ("i",), "e": ("i", "a"), "i": ("o", "e")}.get(low[-1])
    if ways is None:
        return None
    known = [w for w in ways if (stem + w).lower() in vocabulary]
    return stem + (known[0] if known else ways[0])


def _english_other_number(word: str) -> str | None:
    if len(word) < 3 or not word.isalpha() or word.isupper() or any(c.isupper() for c in word[1:]):
        return None
    low = word.lower()
    if low.endswith("ies"):
        return word[:-3] + "y"
    if low.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if low.endswith("is"):  # synthesis -> syntheses
        return word[:-2] + "es"
    if low.endswith(("ss", "us")):
        return word + "es"
    if low.endswith("s"):
        return word[:-1]
    if low.endswith(("drion", "hedron")):  # mitochondrion: Greek, plural in -a
        return word[:-2] + "a"
    if low.endswith("y") and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    if low.endswith(("x", "ch", "sh")):
        return word + "es"
    return word + "s"


def inject_typo(text: str) -> str | None:
    """``text`` with one typing slip in its longest word of :data:`TYPO_MIN_LETTERS` letters or more:
    a letter dropped, doubled, replaced by its neighbour on the keyboard row, or two letters
    swapped, at a place and of a kind drawn from the text itself (the same text, the same typo).
    None when no word is long enough. The first letter is kept: readers rarely miss it."""
    words = [m for m in _WORD.finditer(text) if len(m.group()) >= TYPO_MIN_LETTERS]
    if not words:
        return None
    target = max(words, key=lambda m: len(m.group()))
    word = target.group()
    seed = zlib.crc32(text.encode("utf-8"))
    at = 1 + seed % (len(word) - 2)  # an inner letter: not the first, not the last
    kind = (seed >> 8) % 4
    if kind == 0 and len(word) == TYPO_MIN_LETTERS:  # a letter dropped would leave a word too short to forgive
        kind = 2
    if kind == 0:
        slipped = word[:at] + word[at + 1:]
    elif kind == 1:
        slipped = word[:at] + word[at] + word[at:]
    elif kind == 2:
        slipped = word[:at] + _neighbour(word[at]) + word[at + 1:]
    else:
        slipped = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    if slipped == word:  # swapping two equal letters changes nothing: drop one instead
        slipped = word[:at] + word[at + 1:]
    return text[:target.start()] + slipped + text[target.end():]


_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю")


def _neighbour(letter: str) -> str:
    low = letter.lower()
    for row in _ROWS:
        at = row.find(low)
        if at >= 0:
            near = row[at + 1] if at + 1 < len(row) else row[at - 1]
            return near.upper() if letter.isupper() else near
    return letter


def _page(game: str, chapter: str) -> str:
    return f"{game}/{chapter}/"


def _variants(site: str, source: str, form: str, form_lang: str, right: tuple[str, ...],
              vocabulary: frozenset[str]) -> Iterator[Lookup]:
    """The lookup of ``form`` as written, with a typo, and in the other number."""
    yield Lookup(site, "exact" if form_lang == site else "other-language", source, form, right)
    typo = inject_typo(form)
    if typo is not None:
        yield Lookup(site, "typo", source, typo, right)
    plural = other_number(form, form_lang, vocabulary)
    if plural is not None and plural.lower() != form.lower():
        yield Lookup(site, "plural", source, plural, right)


def _glossary_lookups(games: dict[str, Game], glossary: list[Term], vocabulary: frozenset[str]) -> Iterator[Lookup]:
    defining = defining_sections(games, glossary)
    for term in glossary:
        pages = tuple(sorted({_page(game, games[game].sections[sid].chapter)
                              for game, sid in defining.get(term.id, ())}))
        right = pages or ("glossary/",)
        for site in SITE_LANGUAGES:
            for form_lang, forms in term.forms.items():
                for form in forms:
                    yield from _variants(site, "glossary", form, form_lang, right, vocabulary)
            preferred = term.preferred(site)
            if preferred:
                yield Lookup(site, "question", "glossary", QUESTIONS[site][1].format(name=preferred), right)


def _card_lookups(games: dict[str, Game], cards: dict[str, CardSet], vocabulary: frozenset[str]) -> Iterator[Lookup]:
    for game, card_set in cards.items():
        sections = games[game].sections
        for card in card_set.cards:
            chapters = {sections[s].chapter for s in card.rules if s in sections}
            right = tuple(sorted({f"cards/{game}/", *(_page(game, c) for c in chapters)}))
            names = dict(card.name.values)
            for site in SITE_LANGUAGES:
                for name_lang, name in names.items():
                    yield from _variants(site, "card", name, name_lang, right, vocabulary)
                if names.get(site):
                    yield Lookup(site, "question", "card", QUESTIONS[site][0].format(name=names[site]), right)


def _section_lookups(games: dict[str, Game], vocabulary: frozenset[str]) -> Iterator[Lookup]:
    pages_of_title: dict[str, set[str]] = {}
    titles: list[tuple[str, str]] = []
    for game_id, game in games.items():
        for section in game.sections.values():
            for lang, text in section.texts.items():
                key = text.title.strip().lower()
                pages_of_title.setdefault(key, set()).add(_page(game_id, section.chapter))
                titles.append((text.title.strip(), lang))
    for site in SITE_LANGUAGES:
        for title, lang in titles:
            yield from _variants(site, "section", title, lang, tuple(sorted(pages_of_title[title.lower()])), vocabulary)


_SENTENCE = re.compile(r"[^.;:\n]+")
_PLAYER_COUNT = {lang: re.compile(r"(\d+)((?:\s*(?:o|or|e|and|-|–|to)\s*\d+)*)\+?\s+(?:" + "|".join(words) + r")\b", re.I)
                 for lang, words in PLAYER_WORDS.items()}
_COUNTED = re.compile(r"(?<![\w.])(\d+)\s+((?:[^\W\d_]+['’]?\s*){1,3})")


def _about(title: str, lang: str) -> str:
    """The subject of a section: its title's first three words that are not numbers or small words."""
    words = [w for w in _WORD.findall(title.lower()) if w not in STOPWORDS.get(lang, frozenset()) and len(w) > 1]
    return " ".join(words[:3])


def facts(text: str, lang: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(number, counted thing, player counts of its sentence) for each number ``text`` states before a
    word, in reading order: "Give each player 4 Flasks" -> ("4", "flasks", ()); "in a 4 player game,
    3 Flasks" -> ("3", "flasks", ("4",)). A number counting players is a player count, not a fact;
    a sentence ends at . ; : and a line's end (a table's row is one)."""
    stop = STOPWORDS.get(lang, frozenset())
    players = PLAYER_WORDS.get(lang, ())
    for sentence in _SENTENCE.findall(re.sub(r"[*_`#>\[\]()]", " ", text)):
        counts = tuple(dict.fromkeys(n for m in _PLAYER_COUNT[lang].finditer(sentence) if lang in _PLAYER_COUNT
                                     for n in [m.group(1), *re.findall(r"\d+", m.group(2))]))
        for match in _COUNTED.finditer(sentence):
            before = _WORD.findall(sentence[:match.start()].lower())[-1:]
            if before and before[0] in LABELS:
                continue
            words = [w.strip("'’ ").lower() for w in re.findall(r"[^\W\d_]+['’]?", match.group(2))]
            if not words or words[0] in players or words[0] in stop:
                continue
            thing = words[0] if lang == "it" or len(words) == 1 or words[1] in stop else " ".join(words[:2])
            if len(thing) < 3:
                continue
            yield match.group(1), thing, counts


def _fact_lookups(games: dict[str, Game], quickrefs: dict[str, tuple[QuickGroup, ...]],
                  glossary: list[Term]) -> Iterator[Lookup]:
    """Questions and number lookups of the numbers the rule texts state (:func:`facts`), each on the
    site of its text's language; only numbers of a game's things, whose first word is a word of a
    glossary form ("4 Beute", "2 ATP", not "5 anni", "2 would")."""
    things = {w.lower() for term in glossary for forms in term.forms.values() for f in forms for w in _WORD.findall(f)}
    for game_id, game in games.items():
        in_quickref = {ref for group in quickrefs.get(game_id, ()) for line in group.lines for ref in line.refs}
        for section in game.sections.values():
            if section.chapter in ABOUT_CHAPTERS:  # the designer's letter and "in a nutshell" retell the rules
                continue
            right = tuple(sorted({_page(game_id, section.chapter),
                                  *([f"{game_id}/quickref/"] if section.id in in_quickref else [])}))
            for lang in SITE_LANGUAGES:
                text = section.texts.get(lang)
                if text is None or lang not in FACT_QUESTIONS:
                    continue
                title_about = _about(text.title, lang)
                taken = list(dict.fromkeys((n, thing, counts) for n, thing, counts in facts(text.body, lang)
                                           if thing.split()[0] in things))
                for number, thing, counts in taken[:FACTS_PER_SECTION]:
                    about = " ".join(w for w in title_about.split() if w not in thing.split())
                    how = "quante" if thing.split()[0].endswith(("a", "e")) else "quanti"
                    ask, ask_players = FACT_QUESTIONS[lang]
                    typed, typed_players = FACT_NUMBERS[lang]
                    if counts:
                        players = counts[-1] if counts[-1] != number else counts[0]
                        yield Lookup(lang, "question", "fact", ask_players.format(how=how, thing=thing, players=players), right)
                        yield Lookup(lang, "number", "fact", typed_players.format(thing=thing, players=players), right)
                    yield Lookup(lang, "question", "fact", ask.format(how=how, thing=thing, about=about).strip(), right)
                    yield Lookup(lang, "number", "fact", typed.format(number=number, thing=thing, about=about).strip(), right)


def _merged(lookups: Iterable[Lookup]) -> list[Lookup]:
    """One lookup per site and query (case-insensitive): the first one's kind and source, the right
    pages of all (a card called like a glossary term is answered by either's pages)."""
    merged: dict[tuple[str, str], Lookup] = {}
    for lookup in lookups:
        key = (lookup.site, " ".join(lookup.query.lower().split()))
        first = merged.get(key)
        if first is None:
            merged[key] = lookup
        else:
            right = tuple(sorted(set(first.right) | set(lookup.right)))
            merged[key] = Lookup(first.site, first.kind, first.source, first.query, right)
    return list(merged.values())


def generated_lookups(games: dict[str, Game], glossary: list[Term], cards: dict[str, CardSet],
                      quickrefs: dict[str, tuple[QuickGroup, ...]] | None = None) -> list[Lookup]:
    """The whole generated relevance set, in a stable order (glossary, cards, section titles, facts)."""
    vocabulary = frozenset(word.lower() for game in games.values() for section in game.sections.values()
                           for text in section.texts.values() for word in _WORD.findall(text.title + " " + text.body))
    return _merged([*_glossary_lookups(games, glossary, vocabulary), *_card_lookups(games, cards, vocabulary),
                    *_section_lookups(games, vocabulary), *_fact_lookups(games, quickrefs or {}, glossary)])


def load_generated_lookups(data_dir: Path) -> list[Lookup]:
    """:func:`generated_lookups` of the data in ``data_dir`` (rules, glossary and cards only: a
    fraction of a second, where the whole site's data takes seconds)."""
    problems = Problems()
    games = load_games(data_dir, problems)
    glossary = load_glossary(data_dir / "glossary.yaml", sorted(games), problems)
    quickrefs = {game_id: load_quickref(data_dir / "rules" / game_id / QUICKREF_FILE, game, problems)
                 for game_id, game in games.items() if (data_dir / "rules" / game_id / QUICKREF_FILE).exists()}
    problems.raise_if_any()
    return generated_lookups(games, glossary, load_cards(data_dir), quickrefs)
