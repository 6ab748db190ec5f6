"""Shape Material's search index after the build: one index per site language, ranked and clean.

Material's search plugin (with mkdocs-static-i18n's ``reconfigure_search``) writes one index of
every language's pages to ``search/search_index.json``. This step, run last in ``on_post_build``,
splits it into one index per language (``search/search_index.json`` for Italian, the default
language, and ``en/search/search_index.json``), so a reader downloads their language only, and
shapes every document:

* a **boost** per page kind (:data:`PAGE_BOOSTS`): the quick reference and rule chapters above the
  side-by-side, differences, puzzle and card pages that quote the same words;
* the hidden **counterpart terms** (glossary forms of the other language that a rule section uses,
  written by :func:`generator.pages.annotate_terms`) moved out of the snippet text into their own
  field ``terms``: a term typed in the other language finds the section, the snippet shows none of it;
* **clean snippets**: the provenance line (source label, compare link, difference count) and code
  spans holding internal keys (section, glossary, puzzle ids) or content hashes are dropped, so a
  hit shows rule text.

The index's ``config`` also carries the Italian and English stop words (``cellula_stopwords``, taken
from the lunr stop word filters Material ships); ``docs/assets/search.js`` drops them from a query,
since Material's trailing wildcard (``a*``) would otherwise match almost every word.

The offline build (``file://``) reads ``search/search_index.js``: it gets both languages, chosen
by the page's ``lang``, so the switch to the other language works without a server.
"""
from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from .glossary import Term
from .paths import DATA_DIR
from .rules import SITE_LANGUAGES, Game
from .search_paraphrases import Paraphrases, counted_words, load_paraphrases
from .site_data import SiteData

INDEX = Path("search") / "search_index.json"
"""Where Material writes (and reads) the index, relative to the site root or a language root."""


class PageKind(Enum):
    """What a page of the site is, for ranking."""
    QUICKREF = "quickref"
    RULES = "rules"
    ABOUT = "about"
    GLOSSARY = "glossary"
    HOME = "home"
    COMPARE = "compare"
    DIFFERENCES = "differences"
    PUZZLES = "puzzles"
    CARDS = "cards"
    OTHER = "other"


PAGE_BOOSTS: dict[PageKind, float] = {
    PageKind.QUICKREF: 6.0,
    PageKind.RULES: 2.0,
    PageKind.GLOSSARY: 1.0,
    PageKind.HOME: 1.0,
    PageKind.OTHER: 0.5,
    PageKind.ABOUT: 0.5,
    PageKind.COMPARE: 0.3,
    PageKind.DIFFERENCES: 0.3,
    PageKind.PUZZLES: 0.2,
    PageKind.CARDS: 0.3,
}
"""lunr document boost per page kind (multiplies a document's score). The values were tuned on the
relevance set (tests/search_relevance.yaml; README, "Measured figures")."""

ABOUT_CHAPTERS = frozenset({"about"})
"""Chapters that tell about the game rather than state its rules (Cytosis: the designer's letter,
credits, the game in a nutshell): ranked with the explanatory pages, below the rules they retell."""

TITLE_FIELD_BOOST = 5.0
"""Weight of titles (page titles and section headings) against body text (1). Material's default,
1000, lets one title word outweigh any body text: "beute 4 giocatori" then found the Ursuppe page
titled "... 5-6 giocatori" before the setup table."""

TERMS_FIELD_BOOST = 3.0
"""Weight of the counterpart-terms field: above body text, below titles."""

_KEY = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
"""An internal key in a code span: a section id (``setup.player-pieces``), a glossary, puzzle or board
id (``worker-placement``, ``grey-rush-2e``). Commands (``python -m solver bench``) have spaces."""
_HASH = re.compile(r"^[0-9a-f]{8,}$")
_CODE = re.compile(r"<code>([^<]*)</code>\s*(?:·\s*)?")
_LEADING_P = re.compile(r"^\s*<p>(.*?)</p>\s*", re.S)
_TAGS = re.compile(r"<[^>]+>")
_TAIL = re.compile(r"(?:^|(?<=>))([^<>]*)$")


@dataclass(frozen=True)
class IndexFigures:
    """Size of one written index."""
    lang: str
    """Site language of the index (``it``, ``en``)."""
    documents: int
    """Number of search documents (pages and their sections)."""
    raw_bytes: int
    """Size of the JSON file."""
    gzip_bytes: int
    """Size once gzipped (level 9), what a server with compression sends."""


def doc_lang(location: str, languages: tuple[str, ...] = SITE_LANGUAGES) -> str:
    """The site language of a search location: each language but the default (the first) has its
    pages under ``<lang>/``; the default's are at the root."""
    for lang in languages[1:]:
        if location == f"{lang}/" or location.startswith((f"{lang}/", f"{lang}#")):
            return lang
    return languages[0]


def _chrome(site: SiteData) -> tuple[str, ...]:
    """Texts that mark a provenance line (source labels, compare link, counts) in either language."""
    marks = {"⇄", "≠"}
    for game in site.games.values():
        for source in game.sources:
            marks.update((source.label.it, source.label.en))
    for ui in site.ui.values():
        marks.update(ui[k] for k in ("translation_of", "translation_badge", "compare_link") if ui.get(k))
    return tuple(sorted(marks))


def _glossary_forms(site: SiteData) -> set[str]:
    return {form.lower() for term in site.glossary for forms in term.forms.values() for form in forms}


def clean_text(text: str, chrome: tuple[str, ...], forms: set[str]) -> tuple[str, str]:
    """(snippet text, counterpart terms) of one document's text."""
    terms = ""
    tail = _TAIL.search(text)
    if tail and tail.group(1).strip():
        parts = [p.strip() for p in tail.group(1).split(" · ")]
        if all(p.lower().replace("&lt;", "<") in forms for p in parts):
            terms = " · ".join(parts)
            text = text[:tail.start(1)].rstrip()
    text = _CODE.sub(lambda m: "" if _KEY.match(m[1].strip()) or _HASH.match(m[1].strip()) else m[0], text)
    lead = _LEADING_P.match(text)
    if lead and any(mark in _TAGS.sub("", lead.group(1)) for mark in chrome):
        text = text[lead.end():]
    return text.strip(), terms


def _stopwords(material_dir: Path) -> list[str]:
    """Italian and English stop words of the lunr filters Material ships (the index drops them too)."""
    scripts = material_dir / "templates" / "assets" / "javascripts"
    words: set[str] = set()
    italian = (scripts / "lunr" / "min" / "lunr.it.min.js").read_text(encoding="utf-8")
    match = re.search(r'generateStopWordFilter\("([^"]+)"', italian)
    if match:
        words.update(match.group(1).split())
    for worker in (scripts / "workers").glob("search.*.min.js"):
        match = re.search(r"generateStopWordFilter\(\[([^\]]+)\]", worker.read_text(encoding="utf-8"))
        if match:
            words.update(json.loads(f"[{match.group(1)}]"))
    if not words:
        raise RuntimeError(f"no lunr stop word lists found under {scripts}")
    return sorted(words)


def _forms_pattern(forms: Iterable[str]) -> re.Pattern[str] | None:
    """Any of ``forms`` as a whole word (or words), case-insensitive, the longest first: where a
    longer form matches ("Beute Grigie") its shorter part ("Beute") does not; None for no form."""
    alternatives = sorted({re.escape(f.strip()) for f in forms if f.strip()}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.I) if alternatives else None


TITLE_COVERAGE = 1 / 3
"""A heading names a term when the term's form is at least this share of the heading's letters:
"Beute Grigie" names the grey flask; "Detailed example of how to complete a Protein Hormone Card"
only mentions the card."""


def defining_sections(games: dict[str, Game], glossary: list[Term]) -> dict[str, tuple[tuple[str, str], ...]]:
    """The rule section that defines each glossary term, per game of the term: ``{term id: ((game id,
    section id), ...)}``; a term no rule section of a game uses has none there.

    Read from the rules' structure, in any language the section has: a section whose heading is one of
    the term's forms, else one whose heading names it (:data:`TITLE_COVERAGE`; the shortest such
    heading), else the section whose text uses its forms most, counted over all the section's languages
    (the earliest on a tie): the Italian 2-player rules repeat "beuta" more than any one text of the
    flask's own rules, which name it in both languages. A form counts
    only where no longer form of another term covers it ("Beuta" in "Beuta Grigia" is the grey flask)."""
    ranks: dict[tuple[str, str], tuple[tuple[int, int, int], str]] = {}
    for game_id, game in games.items():
        terms = [t for t in glossary if game_id in t.games]
        rule_sections = (s for chapter in game.chapters if chapter.id not in ABOUT_CHAPTERS for s in chapter.sections)
        for order, section_id in enumerate(rule_sections):
            uses: dict[str, int] = {}
            found: dict[str, tuple[int, int, int]] = {}
            for lang, text in game.sections[section_id].texts.items():
                owner = {form.strip().lower(): term.id for term in terms for form in term.own_forms(lang)}
                pattern = _forms_pattern(owner)
                if pattern is None:
                    continue
                title = text.title.strip(" .:*")
                letters = sum(c.isalnum() for c in title) or 1
                for match in pattern.finditer(title):
                    term_id = owner[match.group().lower()]
                    if match.span() == (0, len(title)):
                        rank = (0, len(title), order)
                    elif sum(c.isalnum() for c in match.group()) >= TITLE_COVERAGE * letters:
                        rank = (1, len(title), order)
                    else:
                        continue
                    found[term_id] = min(rank, found.get(term_id, rank))
                for match in pattern.finditer(text.body):
                    term_id = owner[match.group().lower()]
                    uses[term_id] = uses.get(term_id, 0) + 1
            for term_id, count in uses.items():
                found.setdefault(term_id, (2, -count, order))
            for term_id, rank in found.items():
                key = (term_id, game_id)
                if key not in ranks or rank < ranks[key][0]:
                    ranks[key] = (rank, section_id)
    defining: dict[str, tuple[tuple[str, str], ...]] = {}
    for term in glossary:
        found_in = tuple((g, ranks[(term.id, g)][1]) for g in term.games if (term.id, g) in ranks)
        if found_in:
            defining[term.id] = found_in
    return defining


DEFINES_FIELD_BOOST = 12.0
"""Weight of the defining-terms field (:func:`defining_sections`): a term's every form, in every
language and each as one word (:func:`joined`), on the section that defines it, above titles, so that
section comes first for the term."""

ASKS_FIELD_BOOST = 1.0
"""Weight of the question-words field (:data:`ASKS`): as much as body text, so it ranks a section that
states a cost among those matching the thing asked about, without raising it above them."""

ASKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:cost[aoi]|costano|costo|pag(?:a|ano|are|ando|ato|herà|heranno)|spend(?:e|ere|ono)|prezzo"
                r"|costs?|costing|pay(?:s|ing)?|paid|spend(?:s|ing)?|spent|price)\b", re.I),
     "costo costa prezzo pagare paga cost costs price pay"),
    (re.compile(r"\b(?:scambi\w*|convert\w*|trad(?:e|es|ing)|exchang\w*|swap\w*)\b", re.I),
     "scambio scambiare scambia convertire trade exchange swap convert"),
)
"""Words a reader asks a question with, given to the sections whose text states such a rule in other
words: "quanto costa una beuta grigia" finds the section where a player "paga 4 ATP" for one, "can I
trade carbohydrates for lipids" the section that allows or forbids exchanging them. Each pattern
(Italian and English forms of the verb) adds its question words, in both languages."""

CATALOGUE = 160
"""A section counting more words than this is a list (Ursuppe's gene cards, the phase summaries, a
worked example), not the rule a count question asks for: it gets no counted-words field (its numbers
are still found in its text). The rules that state counts count 1 to 60 words; a component list
or a scoring table up to 160."""

COUNTS_FIELD_BOOST = 3.0
"""Weight of the counted-words field (:func:`generator.search_paraphrases.counted_words`): what a
section states a number of ("4 Beute", "2 OR 3 PLAYER GAME"), looked up by the words after "quante" /
"how many" and by a number typed with a word ("beute 4 giocatori" -> "4giocatori"), above titles: the
rule that states the number, before the pages that name the thing."""


def _location_key(location: str) -> str:
    """A search location without its language folder and page suffix, the form
    ``cytosis/setup/#setup-player-pieces`` in the served and the offline (``setup.html#``) build."""
    page, _, anchor = location.partition("#")
    parts = [p for p in page.split("/") if p]
    if parts[:1] and parts[0] in SITE_LANGUAGES[1:]:
        parts = parts[1:]
    parts = [p[:-5] if p.endswith(".html") else p for p in parts]
    if parts and parts[-1] == "index":
        parts = parts[:-1]
    return "/".join(parts) + "/" + (f"#{anchor}" if anchor else "")


def joined(form: str, stopwords: frozenset[str]) -> str:
    """A glossary form as one word, its stop words left out ("Tabellone per 2 giocatori" ->
    "tabellone2giocatori"): the defining field holds forms so, and docs/assets/search.js adds the
    same joined runs of the words typed, so "grey flask" meets the grey flask's section and a lone
    "flask" does not."""
    return "".join(w for w in re.findall(r"\w+", form.lower()) if w not in stopwords)


def _defined_terms(site: SiteData, stopwords: frozenset[str]) -> dict[str, str]:
    """The ``defines`` text of every section that defines glossary terms, by location key: each such
    term's forms in every language, each as one word (:func:`joined`). Only the whole form: with its
    words apart, "flask" alone found the grey flask's section above the flask's own rules."""
    texts: dict[str, list[str]] = {}
    for term_id, places in defining_sections(site.games, site.glossary).items():
        term = next(t for t in site.glossary if t.id == term_id)
        forms = [joined(f, stopwords) for lang in term.forms for f in term.own_forms(lang)]
        for game_id, section_id in places:
            section = site.games[game_id].sections[section_id]
            texts.setdefault(f"{game_id}/{section.chapter}/#{section.anchor}", []).extend(f for f in forms if f)
    return {key: " ".join(dict.fromkeys(forms)) for key, forms in texts.items()}


def _asks(text: str) -> str:
    """The question words of :data:`ASKS` that ``text`` states a rule for."""
    plain = _TAGS.sub(" ", text)
    return " ".join(words for pattern, words in ASKS if pattern.search(plain))


def glossary_suggestions(site: SiteData, lang: str) -> list[list[str]]:
    """The glossary forms the search offers in ``lang`` when a lookup finds nothing or looks
    mistyped (docs/assets/search.js): ``[form, glossary anchor]`` for each form of each term in
    ``lang``, the preferred form first."""
    return [[form, term.anchor] for term in site.glossary for form in term.own_forms(lang)]


def split_index(index: dict[str, Any], site: SiteData, stopwords: list[str],
                paraphrases: dict[str, Paraphrases]) -> dict[str, dict[str, Any]]:
    """One shaped index per site language from Material's combined index.

    A rule section's hidden fields (``defines``, ``asks``, ``counts``) go on the search document that
    shows its text: a section whose heading is followed at once by a subheading ("2 PLAYER RULE
    MODIFICATIONS" / "GAME BOARD") is two documents, the first with no text, and a document a reader
    sees empty must not win a lookup on words it holds hidden."""
    chrome, forms = _chrome(site), _glossary_forms(site)
    words = frozenset(stopwords)
    chapters = {gid: {c.id for c in game.chapters} for gid, game in site.games.items()}
    defined = _defined_terms(site, frozenset(stopwords))
    config = dict(index["config"])
    config["fields"] = dict(config["fields"]) | {"title": {"boost": TITLE_FIELD_BOOST},
                                                 "terms": {"boost": TERMS_FIELD_BOOST},
                                                 "defines": {"boost": DEFINES_FIELD_BOOST},
                                                 "asks": {"boost": ASKS_FIELD_BOOST},
                                                 "counts": {"boost": COUNTS_FIELD_BOOST}}
    config["cellula_stopwords"] = sorted(stopwords)
    out: dict[str, dict[str, Any]] = {
        lang: {"config": config | {"cellula_glossary": glossary_suggestions(site, lang),
                                   "cellula_paraphrases": paraphrases[lang].for_client()}, "docs": []}
        for lang in SITE_LANGUAGES}
    carried: dict[str, str] = {}  # page -> the defines of an empty section document, for the next one with text
    for doc in index["docs"]:
        doc = dict(doc)
        doc["text"], terms = clean_text(doc.get("text", ""), chrome, forms)
        if terms:
            doc["terms"] = terms
        kind = page_kind_of(doc["location"], chapters)
        page = doc["location"].partition("#")[0]
        lang = doc_lang(doc["location"])
        if kind is PageKind.RULES:
            defines = " ".join(filter(None, (carried.pop(page, ""), defined.get(_location_key(doc["location"]), ""))))
            if defines and not doc["text"]:
                carried[page] = defines
            elif defines:
                doc["defines"] = " ".join(dict.fromkeys(defines.split()))
            asks = _asks(doc["text"])
            if asks:
                doc["asks"] = asks
        if kind is PageKind.RULES and (doc["text"] or "#" not in doc["location"]):
            # the quick reference (x6) restates the rules' numbers: it would outrank the rule; a page
            # entry counts what its title does ("Partita a 2 giocatori")
            counts = counted_words(doc["title"] + " " + _TAGS.sub(" ", doc["text"]), paraphrases[lang], words)
            if counts and len(counts.split()) <= CATALOGUE:
                doc["counts"] = counts
        boost = PAGE_BOOSTS[kind]
        if boost != 1.0:
            doc["boost"] = boost
        out[lang]["docs"].append(doc)
    return out


def page_kind_of(location: str, chapters: dict[str, set[str]]) -> PageKind:
    """The kind of page of a search location, given each game's chapter ids."""
    parts = [p for p in location.split("#")[0].split("/") if p]
    if parts[:1] == ["en"]:
        parts = parts[1:]
    parts = [p[:-5] if p.endswith(".html") else p for p in parts]  # offline build: no directory URLs
    if parts and parts[-1] == "index":
        parts = parts[:-1]
    if not parts:
        return PageKind.HOME
    head = parts[0]
    if head == "glossary":
        return PageKind.GLOSSARY
    if head == "cards":
        return PageKind.CARDS
    if head not in chapters:
        return PageKind.OTHER
    if len(parts) == 1:
        return PageKind.HOME
    if parts[1] in chapters[head]:  # before the named pages: Cytosis has a rules chapter called "cards"
        return PageKind.ABOUT if parts[1] in ABOUT_CHAPTERS else PageKind.RULES
    named = {"quickref": PageKind.QUICKREF, "compare": PageKind.COMPARE, "differences": PageKind.DIFFERENCES,
             "puzzles": PageKind.PUZZLES, "cards": PageKind.CARDS}
    return named.get(parts[1], PageKind.OTHER)


def _dump(index: dict[str, Any]) -> str:
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"))


def write_indexes(site_dir: Path, site: SiteData, material_dir: Path, data_dir: Path = DATA_DIR) -> list[IndexFigures]:
    """Replace the combined index in ``site_dir`` by one index per language; return their sizes and,
    for comparison, that of the same documents in one combined index (``it+en``, not written)."""
    combined_file = site_dir / INDEX
    if not combined_file.exists():
        return []
    indexes = split_index(json.loads(combined_file.read_text(encoding="utf-8")), site, _stopwords(material_dir),
                          load_paraphrases(data_dir, SITE_LANGUAGES))
    figures = []
    for lang, index in indexes.items():
        target = site_dir / INDEX if lang == SITE_LANGUAGES[0] else site_dir / lang / INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _dump(index).encode("utf-8")
        target.write_bytes(data)
        figures.append(IndexFigures(lang, len(index["docs"]), len(data), len(gzip.compress(data, 9))))
    both = _dump({"config": indexes["it"]["config"],
                  "docs": indexes["it"]["docs"] + indexes["en"]["docs"]}).encode("utf-8")
    figures.append(IndexFigures("it+en", len(indexes["it"]["docs"]) + len(indexes["en"]["docs"]),
                                len(both), len(gzip.compress(both, 9))))
    script = site_dir / "search" / "search_index.js"
    if script.exists():  # the offline build: Material loads this with a script tag from file://
        script.write_text(
            "var __cellula_index = " + _dump(indexes) + ";\n"
            "var __index = __cellula_index[document.documentElement.lang === \"en\" ? \"en\" : \"it\"];\n",
            encoding="utf-8")
    return figures

