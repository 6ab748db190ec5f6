"""Translation-QA checks on real libraries: Hunspell spelling (through spylls, Debian's dictionaries),
fuzzy term variants (rapidfuzz), colours, names and spelled-out numbers compared between aligned
segments, clauses found in one aligned segment only, and translate-toolkit's pofilter checks
(brackets, repeated words, double spaces) on the aligned pairs.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
from collections import Counter, defaultdict
from functools import lru_cache
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz.distance import Levenshtein
from rapidfuzz import fuzz, process

from ..errors import DataError, Problems
from ..paths import ROOT
from ..glossary import Term
from .align import Segment, SegmentKind, plain
from .model import AlignedSection, CheckId, Finding
from .numbers import WORDS, extract_numbers
from .terms import TermMatcher, fold, tokens

if TYPE_CHECKING:
    from spylls.hunspell import Dictionary  # type: ignore[import-untyped]  # spylls ships no type information
    from translate.filters.checks import StandardChecker

    from ..rules import Game

Anchors = dict[str, list[tuple[str, frozenset[str]]]]
"""Per language, (section, strong anchors) of every segment of a game (:func:`segment_anchors`)."""

HUNSPELL_DIR = Path("/usr/share/hunspell")
"""Where Debian's hunspell-it, hunspell-en-us and hunspell-ru put their dictionaries."""
DICTIONARIES = {"it": "it_IT", "en": "en_US", "ru": "ru_RU"}
"""Hunspell dictionary of each language."""


@lru_cache(maxsize=None)
def dictionary(lang: str) -> Dictionary:
    """The Hunspell dictionary of ``lang`` (loaded once); a clear error when it is not installed."""
    from spylls.hunspell import Dictionary
    base = _dictionary_base(lang)
    return Dictionary.from_files(str(base))


def _dictionary_base(lang: str) -> Path:
    """The dictionary's files without their suffix (``.aff``, ``.dic``); a clear error when missing."""
    base = HUNSPELL_DIR / DICTIONARIES[lang]
    if not base.with_suffix(".dic").exists() or not base.with_suffix(".aff").exists():
        problems = Problems()
        problems.add(base.with_suffix(".dic"), "hunspell", f"expected Debian's Hunspell dictionary for {lang!r}: "
                     "run 'sh tools/ensure_debian.sh hunspell' (installs hunspell-it, hunspell-en-us, hunspell-ru)")
        raise DataError(problems.items)
    return base


SPELLING_CACHE = Path(os.environ.get("CELLULA_CACHE_DIR", ROOT / ".cache")) / "spelling"
"""Where the dictionaries' answers are kept between processes (not committed): spylls, a pure-Python
Hunspell, takes seconds to read a dictionary (3.4 s of a 20 s build for it_IT and en_US), while the
words a build asks about are the same few thousand from build to build. A file per language holds
every answer given so far, named by a digest of the dictionary's two files and of spylls' version, so
an updated dictionary or reader starts a new file; an answer missing from it loads the dictionary."""


class _Answers:
    """What ``lang``'s dictionary said of each word asked so far, in this process and in earlier ones
    (:data:`SPELLING_CACHE`); new answers are written back when the process ends."""

    def __init__(self, lang: str):
        self.lang = lang
        base = _dictionary_base(lang)
        digest = hashlib.sha256(f"spylls {_spylls_version()}\n".encode())
        for suffix in (".aff", ".dic"):
            digest.update(base.with_suffix(suffix).read_bytes())
        self.file = SPELLING_CACHE / f"{lang}-{digest.hexdigest()[:16]}.json"
        self.known: dict[str, bool] = self._read()
        self.new: dict[str, bool] = {}

    def _read(self) -> dict[str, bool]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or damaged: asked again
        return {w: v for w, v in data.items() if isinstance(w, str) and isinstance(v, bool)} if isinstance(data, dict) else {}

    def __call__(self, word: str) -> bool:
        answer = self.known.get(word)
        if answer is None:
            answer = self.known[word] = self.new[word] = bool(dictionary(self.lang).lookup(word))
        return answer

    def save(self) -> None:
        """Write the new answers, merged with the file as it is now (another process may have
        added some), atomically; a folder that cannot be written only costs the next process time."""
        if not self.new:
            return
        merged = {**self._read(), **self.new}
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.file.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(merged, ensure_ascii=False, sort_keys=True), encoding="utf-8")
            os.replace(temporary, self.file)
        except OSError:
            return
        self.new = {}


def _spylls_version() -> str:
    from importlib.metadata import version
    return version("spylls")


@lru_cache(maxsize=None)
def _answers(lang: str) -> _Answers:
    answers = _Answers(lang)
    atexit.register(answers.save)
    return answers


@lru_cache(maxsize=200_000)
def known(word: str, lang: str) -> bool:
    """The dictionary knows ``word`` as written or in lower case."""
    answers = _answers(lang)
    return answers(word) or answers(word.lower())


OTHER = {"it": "en", "en": "it"}

MIN_SPELL_LENGTH = 3
"""Shorter words (articles, elisions, unit letters) are not spell-checked."""
VOCABULARY_USES = 3
"""A word the texts of one language use this many times is their vocabulary, not a slip (a term of art
the dictionary lacks: 'possiede' in spylls' reading of it_IT, 'mRNA')."""
_ELIDED = re.compile(r"[’']")


def project_words(glossary: list[Term], game_names: list[str], extra: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """The project's word list per language: every word of the glossary's forms, the game names and
    the reviewed words of ``data/editions/words.yaml``, folded to lower case."""
    out: dict[str, set[str]] = defaultdict(set)
    for term in glossary:
        for lang, forms in term.forms.items():
            for form in forms:
                out[lang].update(w.lower() for _, _, w in tokens(form))
    for name in game_names:
        for lang in ("it", "en", "ru"):
            out[lang].update(w.lower() for _, _, w in tokens(name))
    for lang, words in (extra or {}).items():
        out[lang].update(w.lower() for w in words)
    return out


def _words(segment: Segment) -> list[tuple[str, str, bool]]:
    """(word, elision, sentence-initial) of a segment; ``elision`` is the word with its apostrophe and
    the next word ("nell'area" for 'nell'), as Hunspell's Italian dictionary spells elided forms, or ''."""
    text = plain(segment.text)
    words = tokens(text)
    out = []
    previous_end = 0
    for index, (start, end, word) in enumerate(words):
        elided = end < len(text) and _ELIDED.match(text[end]) and index + 1 < len(words) and words[index + 1][0] == end + 1
        elision = f"{word}'{words[index + 1][2]}" if elided else ""
        between = text[previous_end:start]
        initial = previous_end == 0 or bool(re.search(r"[.!?:]\s*$", between)) or between.strip().startswith(("-", "·"))
        out.append((word, elision, initial))
        previous_end = end
    return out


def _spellable(word: str) -> bool:
    return len(word) >= MIN_SPELL_LENGTH and not any(c.isdigit() for c in word) and not word.isupper() \
        and not (word[:1].islower() and any(c.isupper() for c in word[1:]))  # mRNA, eBook


def unknown_words(sections: Iterable[AlignedSection], lang: str, words: set[str]) -> list[tuple[AlignedSection, Segment, str]]:
    """(section, segment, word) for each word of ``lang``'s texts that neither Hunspell nor the project's
    word list knows; words of the other site language (card text printed in English in the Italian
    rulebook) aside, and words used :data:`VOCABULARY_USES` times."""
    found = []
    uses: Counter[str] = Counter()
    for section in sections:
        for segment in getattr(section, lang):
            for word, elided, initial in _words(segment):
                uses[word.lower()] += 1
                if not _spellable(word) or word.lower() in words:
                    continue
                if elided and known(elided, lang):
                    continue  # Italian elision: "nell'area" is one word to Hunspell
                if known(word, lang) or known(word, OTHER[lang]):
                    continue
                found.append((section, segment, word))
    return [f for f in found if uses[f[2].lower()] < VOCABULARY_USES]


def vocabulary(sections: Iterable[AlignedSection], lang: str) -> Counter[str]:
    """How often each folded word (5 letters or more) occurs in ``lang``'s texts."""
    counts: Counter[str] = Counter()
    for section in sections:
        for segment in getattr(section, lang):
            counts.update(fold(w) for _, _, w in tokens(plain(segment.text)) if len(w) >= 5 and w.isalpha())
    return counts


FUZZY_MIN_LENGTH = 5
"""Shorter words have too many one-edit neighbours to call one a variant of another."""
FUZZY_COMMON = 3
"""A word is a variant of a neighbour the texts use at least this many times."""


def fuzzy_neighbour(word: str, candidates: list[str]) -> str | None:
    """The candidate one edit away from ``word`` (rapidfuzz Levenshtein), None when there is none."""
    hit = process.extractOne(fold(word), candidates, scorer=Levenshtein.distance, score_cutoff=1)
    return hit[0] if hit and hit[0] != fold(word) else None


def check_spelling(sections: list[AlignedSection], glossary: list[Term], words: dict[str, set[str]], game: str) -> list[Finding]:
    """SPELLING: a word Hunspell and the project's word list do not know; TERM_TYPO instead when it is one
    edit from a glossary form's word or a word the texts use often (a one-letter variant of a game term)."""
    out = []
    for lang in ("it", "en"):
        counts = vocabulary(sections, lang)
        common = [w for w, n in counts.items() if n >= FUZZY_COMMON]
        glossary_words = sorted({fold(w) for t in glossary for f in t.forms.get(lang, ()) for _, _, w in tokens(f)
                                 if len(w) >= FUZZY_MIN_LENGTH})
        seen: set[tuple[str, str]] = set()
        for section, segment, word in unknown_words(sections, lang, words[lang]):
            key = (section.pair.section, word.lower())
            if key in seen:
                continue
            seen.add(key)
            text = segment.text
            it, en = (text, "") if lang == "it" else ("", text)
            neighbour = None
            if len(word) >= FUZZY_MIN_LENGTH:
                neighbour = fuzzy_neighbour(word, glossary_words)
                if not neighbour and not word[:1].isupper():  # a capitalised word near a common one is a name
                    neighbour = fuzzy_neighbour(word, common)
            if not neighbour and word[:1].isupper():
                continue  # a capitalised word no neighbour explains: a name (NAME_MISMATCH compares those)
            if neighbour:
                out.append(Finding(CheckId.TERM_TYPO, game, section.pair.section, it, en,
                                   {"lang": lang, "word": word, "neighbour": neighbour},
                                   f"{word!r} ({lang.upper()}) is one letter from {neighbour!r}, used elsewhere",
                                   key=f"{lang}:{word.lower()}"))
            else:
                out.append(Finding(CheckId.SPELLING, game, section.pair.section, it, en,
                                   {"lang": lang, "word": word},
                                   f"{word!r} ({lang.upper()}) is not in the Hunspell dictionary nor the glossary",
                                   key=f"{lang}:{word.lower()}"))
    return out


# --- colours, names, spelled-out numbers between aligned segments -----------------------------------

COLOURS = {
    "it": {"ross": "red", "giall": "yellow", "blu": "blue", "verd": "green", "ner": "black", "bianc": "white",
           "grigi": "grey", "grig": "grey", "viola": "purple", "arancion": "orange", "marron": "brown",
           "azzurr": "light-blue", "rosa": "pink"},
    "en": {"red": "red", "yellow": "yellow", "blue": "blue", "green": "green", "black": "black", "white": "white",
           "grey": "grey", "gray": "grey", "purple": "purple", "violet": "purple", "orange": "orange",
           "brown": "brown", "pink": "pink"},
}
"""Colour words (Italian as stems before the gender/number ending) -> colour id."""
_IT_ENDINGS = ("o", "a", "i", "e", "he", "hi", "")


def colours(text: str, lang: str) -> Counter[str]:
    """The colours named in ``text`` (ids)."""
    out: Counter[str] = Counter()
    for _, _, word in tokens(plain(text)):
        w = fold(word)
        if lang == "en":
            if w in COLOURS["en"]:
                out[COLOURS["en"][w]] += 1
            continue
        for stem_, colour in COLOURS["it"].items():
            ending = w[len(stem_):] if w.startswith(stem_) else None
            # 'blu', 'viola', 'rosa' do not inflect; 'ner-' is the one short stem that does ('nero', 'nere')
            invariable = stem_ in ("blu", "viola", "rosa")
            if ending is not None and (ending == "" if invariable else ending in _IT_ENDINGS):
                out[colour] += 1
                break
    return out


def names(text: str, lang: str, words: set[str]) -> set[str]:
    """Proper names of ``text``: capitalised words inside a sentence that no dictionary of the two site
    languages nor the project's word list knows (people, places, viruses), folded."""
    out = set()
    for word, _, initial in _words_of(text):
        if initial or not word[:1].isupper() or len(word) < 3 or word.isupper() or word.lower() in words:
            continue
        if known(word, lang) or known(word, OTHER[lang]):
            continue
        out.add(fold(word))
    return out


def _words_of(text: str) -> list[tuple[str, str, bool]]:
    from .align import Segment as _S  # local: a bare text has no segment
    return _words(_S(0, SegmentKind.PARAGRAPH, text, (), frozenset(), frozenset(), len(text)))


def spelled_numbers(text: str, lang: str) -> Counter[str]:
    """Values written out as words in ``text`` ('tre', 'three')."""
    words = WORDS[lang]
    return Counter(str(words[fold(w)]) for _, _, w in tokens(plain(text)) if fold(w) in words)


def check_entities(section: AlignedSection, words: dict[str, set[str]], flagged_numbers: bool) -> list[Finding]:
    """COLOUR_MISMATCH, NAME_MISMATCH, NUMWORD_MISMATCH between the two sides of each aligned unit:
    colours named on both sides but not the same; a name on one side whose nearest name on the other
    is a different spelling; a number spelled out on one side that the other does not state (in
    digits or words) anywhere in the unit, when the section's numbers otherwise agree."""
    out = []
    pair = section.pair
    for unit in section.pairs:
        if not unit.it or not unit.en:
            continue
        it_text, en_text = unit.text("it"), unit.text("en")
        c_it, c_en = colours(it_text, "it"), colours(en_text, "en")
        if c_it and c_en and set(c_it) != set(c_en):
            only_it, only_en = sorted(set(c_it) - set(c_en)), sorted(set(c_en) - set(c_it))
            out.append(Finding(CheckId.COLOUR_MISMATCH, pair.game, pair.section, it_text, en_text,
                               {"it_only": only_it, "en_only": only_en},
                               f"colours differ: IT {'/'.join(sorted(c_it))}, EN {'/'.join(sorted(c_en))}",
                               key="/".join(only_it) + ">" + "/".join(only_en)))
        n_it, n_en = names(it_text, "it", words["it"]), names(en_text, "en", words["en"])
        for name in sorted(n_it ^ n_en):
            other = sorted(n_en if name in n_it else n_it)
            near = process.extractOne(name, other, scorer=fuzz.ratio, score_cutoff=70) if other else None
            side = "it" if name in n_it else "en"
            if near and side == "it":  # report each differing pair once, from the Italian side
                out.append(Finding(CheckId.NAME_MISMATCH, pair.game, pair.section, it_text, en_text,
                                   {"it": name, "en": near[0]},
                                   f"name spelled differently: IT {name!r}, EN {near[0]!r}", key=f"{name}>{near[0]}"))
        if flagged_numbers:
            continue
        all_it = Counter(extract_numbers(plain(it_text), "it"))
        all_en = Counter(extract_numbers(plain(en_text), "en"))
        for lang, spelled, other in (("it", spelled_numbers(it_text, "it"), all_en),
                                     ("en", spelled_numbers(en_text, "en"), all_it)):
            for value in sorted(v for v in spelled if v not in other):
                out.append(Finding(CheckId.NUMWORD_MISMATCH, pair.game, pair.section, it_text, en_text,
                                   {"lang": lang, "value": value},
                                   f"{lang.upper()} spells out {value}, which the aligned "
                                   f"{OTHER[lang].upper()} text does not state", key=f"{lang}:{value}"))
    return out


# --- one-sided clauses ------------------------------------------------------------------------------

_PAREN = re.compile(r"\(([^()]{3,})\)")
MIN_CLAUSE_WORDS = 4
"""A parenthetical or sentence shorter than this is not reported."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý*])")


def _anchors(text: str, lang: str, matcher: TermMatcher | None = None) -> tuple[set[str], set[str]]:
    """Language-independent anchors of a text: strong ones (numbers, glossary term ids) and weak ones
    (cognate prefixes of its longer words)."""
    numbers = {n for n in extract_numbers(text, lang) if n != "1"}
    # a capitalised multi-word name matched in lower case ('collect resources' for the section title
    # 'Collecting Resources') is ordinary words, as TERM_MISSING treats it
    terms = {"term:" + t for h in matcher.find(text) for t in h.terms
             if not (h.surface[:1].islower() and h.form[:1].isupper() and len(tokens(h.form)) > 1)} if matcher else set()
    prefixes = {fold(w)[:4] for _, _, w in tokens(text) if len(w) >= 5 and not w.isdigit()}
    return numbers | terms, prefixes


STRONG_OVERLAP = 0.5
"""A clause is one-sided when fewer than this share of its numbers and glossary terms is on the other
side; a clause with neither is not judged."""


def _overlap(clause: str, lang: str, other: str, other_lang: str, matchers: dict[str, TermMatcher] | None = None,
             other_section: str | None = None) -> float | None:
    """Share of the clause's anchors found on the other side, scaled so that 1.0 is the one-sided bar;
    None when the clause has too few anchors to judge. Numbers and terms are looked for in the whole
    ``other_section`` when given: an edition that states them in the next paragraph has the clause."""
    strong, weak = _anchors(clause, lang, matchers[lang] if matchers else None)
    other_strong, other_weak = _anchors(other, other_lang, matchers[other_lang] if matchers else None)
    if other_section:
        other_strong |= _anchors(other_section, other_lang, matchers[other_lang] if matchers else None)[0]
    if strong:
        return len(strong & other_strong) / len(strong) / STRONG_OVERLAP
    return None  # cognate prefixes alone tell a rewording from an addition too poorly across IT/EN


MIN_RESTATED_ANCHORS = 3
"""A clause is looked for in the other edition's other sections only when it has at least this many
strong anchors, a number and a glossary term among them: fewer match by chance."""


def segment_anchors(sections: list[AlignedSection], matchers: dict[str, TermMatcher] | None = None) -> Anchors:
    """Per language, (section, strong anchors) of every segment of a game: where a clause missing from
    its aligned unit may be stated elsewhere in the same edition."""
    return {lang: [(section.pair.section, frozenset(_anchors(plain(s.text), lang, matchers[lang] if matchers else None)[0]))
                   for section in sections for s in getattr(section, lang)] for lang in ("it", "en")}


def _restated_elsewhere(clause: str, lang: str, section: str, elsewhere: Anchors | None,
                        matchers: dict[str, TermMatcher] | None = None) -> bool:
    """The clause's numbers and terms all stand in one segment of another section of the other
    edition: the rule is stated there (the 1st edition's 2-player removal in its 2-player chapter),
    not missing."""
    if not elsewhere:
        return False
    strong = _anchors(clause, lang, matchers[lang] if matchers else None)[0]
    has_number = any(not a.startswith("term:") for a in strong)
    has_term = any(a.startswith("term:") for a in strong)
    if len(strong) < MIN_RESTATED_ANCHORS or not (has_number and has_term):
        return False
    return any(name != section and strong <= anchors for name, anchors in elsewhere[OTHER[lang]])


def check_clauses(section: AlignedSection, matchers: dict[str, TermMatcher] | None = None,
                  elsewhere: Anchors | None = None, restated: list[tuple[str, str]] | None = None) -> list[Finding]:
    """CLAUSE_ONLY: a parenthetical, or a sentence of a multi-sentence segment, in one side of an
    aligned unit whose anchors the other side mostly lacks (:data:`STRONG_OVERLAP`), while the
    rest of the unit does pair: an addition or an omission inside a paragraph. ``elsewhere``
    (:func:`segment_anchors`) lets a clause stated in another section of the other edition pass;
    ``restated``, when given, receives each clause let pass so, as (language, clause): what the
    Italian 2nd-edition draft must still say somewhere."""
    out = []
    pair = section.pair
    for unit in section.pairs:
        if not unit.it or not unit.en or any(s.kind in (SegmentKind.HEADING, SegmentKind.ROW) for s in unit.it + unit.en):
            continue
        texts = {"it": plain(unit.text("it")), "en": plain(unit.text("en"))}
        whole = {lang: plain("\n".join(s.text for s in getattr(section, lang))) for lang in ("it", "en")}
        for lang in ("it", "en"):
            other = OTHER[lang]
            clauses = [("parenthetical", m.group(1)) for m in _PAREN.finditer(texts[lang])
                       if not _PAREN.search(texts[other])]
            sentences = _SENTENCE.split(_PAREN.sub(" ", texts[lang]))
            if len(unit.it) == len(unit.en) == 1 and len(sentences) > len(_SENTENCE.split(texts[other])):
                # sentences of a 1-1 pair only: a merged unit (steps against a paragraph) splits differently
                clauses += [("sentence", s) for s in sentences]
            for kind, clause in clauses:
                if len(tokens(clause)) < MIN_CLAUSE_WORDS:
                    continue
                share = _overlap(clause, lang, texts[other], other, matchers, whole[other])
                if share is None or share >= 1.0:
                    continue
                rest = _overlap(texts[lang].replace(clause, " "), lang, texts[other], other, matchers)
                if rest is not None and rest < 1.0:
                    continue  # the unit as a whole pairs weakly: not a clause-level difference
                if _restated_elsewhere(clause, lang, pair.section, elsewhere, matchers):
                    if restated is not None:
                        restated.append((lang, clause.strip()))
                    continue
                it, en = (unit.text("it"), unit.text("en"))
                out.append(Finding(CheckId.CLAUSE_ONLY, pair.game, pair.section, it, en,
                                   {"lang": lang, "kind": kind, "clause": clause.strip()},
                                   f"{kind} found in the {lang.upper()} segment only: {clause.strip()[:70]!r}",
                                   key=f"{lang}:{fold(clause)[:40]}"))
    return out


# --- translate-toolkit's pofilter checks ------------------------------------------------------------

POFILTERS = {"brackets": CheckId.QA_BRACKETS, "doublewords": CheckId.QA_REPEATED_WORD,
             "doublespacing": CheckId.QA_DOUBLE_SPACE}
"""translate-toolkit StandardChecker tests run on every aligned 1-1 unit (English as source, Italian
as target), and the check each failure becomes."""


@lru_cache(maxsize=1)
def _checker() -> StandardChecker:
    from translate.filters import checks
    return checks.StandardChecker()


def _pofilter_text(text: str) -> str:
    """A segment as translate-toolkit sees it: Markdown emphasis and list markers removed, line breaks
    as spaces (a double space inside a line stays)."""
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.M)
    return re.sub(r"\s*\n\s*", " ", re.sub(r"[*_`]+", "", text)).strip()


def check_pofilters(section: AlignedSection) -> list[Finding]:
    """QA_BRACKETS, QA_REPEATED_WORD, QA_DOUBLE_SPACE: translate-toolkit's filters on each 1-1 pair."""
    from translate.filters.checks import FilterFailure as Failure
    out = []
    pair = section.pair
    checker = _checker()
    for unit in section.pairs:
        if len(unit.it) != 1 or len(unit.en) != 1 or SegmentKind.CAPTION in (unit.it[0].kind, unit.en[0].kind):
            continue  # captions are labels of a picture ('Protein Lipid Lipid'), not sentences
        source, target = _pofilter_text(unit.en[0].text), _pofilter_text(unit.it[0].text)
        for name, check in POFILTERS.items():
            try:
                passed = getattr(checker, name)(source, target)
            except Failure as failure:
                passed, message = False, str(failure)
            else:
                message = ""
            if passed:
                continue
            if name == "brackets" and "'(', ')'" in message:
                continue  # a whole parenthetical added or left out: CLAUSE_ONLY judges its content
            out.append(Finding(check, pair.game, pair.section, unit.it[0].text, unit.en[0].text,
                               {"filter": name, "detail": message},
                               f"translate-toolkit {name}: {message or 'failed'}", key=name))
        # repeated words in the English text: the filter checks targets only, so swap the roles
        try:
            checker.doublewords(target, source)
        except Failure as failure:
            out.append(Finding(CheckId.QA_REPEATED_WORD, pair.game, pair.section, unit.it[0].text, unit.en[0].text,
                               {"filter": "doublewords", "detail": str(failure), "lang": "en"},
                               f"translate-toolkit doublewords (EN): {failure}", key="doublewords:en"))
    return out


def original_spelling(game: Game, lang: str, words: set[str]) -> list[tuple[str, str]]:
    """(section id, word) for each word of ``game``'s original ``lang`` text (not a translation) that
    neither Hunspell nor the project's word list knows: the spelling check of a single-language
    original (the Russian Immune Response rules), which has no other edition to be aligned with."""
    out = []
    for section_id, section in game.sections.items():
        text = section.texts.get(lang)
        if text is None or text.translated:
            continue
        segment = Segment(0, SegmentKind.PARAGRAPH, f"{text.title}\n{text.body}", (), frozenset(), frozenset(), 0)
        for word, elided, _ in _words(segment):
            if not _spellable(word) or word.lower() in words or (elided and known(elided, lang)):
                continue
            if not known(word, lang):
                out.append((section_id, word))
    return out
