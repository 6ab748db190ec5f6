"""The checks: every function takes aligned section pairs and yields findings."""
from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from ..glossary import Term
from .align import Pair, Segment, SegmentKind, align, make_segments, pair_moved, plain
from .model import AlignedSection, CheckId, Finding, SectionPair, normalise
from .numbers import IGNORED, multiset_difference, repeated_figures, sum_runs
from .terms import TermMatcher, inflection_key, stem, tokens

MIN_ONE_SIDED_WORDS = 3
"""A one-sided segment shorter than this (a stray label) is not reported."""
MIN_REPEATED_WORDS = 4
"""Segments shorter than this are too generic for the consistency check."""


def split_heading(text: str) -> tuple[str, str]:
    """'## Title\\nbody' -> ('Title', 'body')."""
    first, _, body = text.partition("\n")
    return first.lstrip("#").strip(), body


_ALIGNED: dict[tuple[str, str, str, str | None, str | None, int], tuple[AlignedSection, dict[str, TermMatcher]]] = {}
"""Alignments made in this process, by texts and matchers: the check, the exports and the draft page
align the same sections once."""


def align_section(pair: SectionPair, matchers: dict[str, TermMatcher]) -> AlignedSection:
    key = (pair.game, pair.section, pair.chapter, pair.it, pair.en, id(matchers))
    cached = _ALIGNED.get(key)
    if cached is not None and cached[1] is matchers:
        return cached[0]
    aligned = _align_section(pair, matchers)
    _ALIGNED[key] = (aligned, matchers)  # the matchers kept alive, so their id is not reused
    return aligned


def _align_section(pair: SectionPair, matchers: dict[str, TermMatcher]) -> AlignedSection:
    sides = {}
    for lang in ("it", "en"):
        text = getattr(pair, lang)
        sides[lang] = make_segments(*split_heading(text), lang, matchers[lang]) if text is not None else []
    pairs = pair_moved(align(sides["it"], sides["en"])) if pair.it is not None and pair.en is not None else []
    return AlignedSection(pair, sides["it"], sides["en"], pairs)


def _finding(check: CheckId, pair: SectionPair, it: str, en: str, evidence: dict[str, Any], message: str,
             key: str = "") -> Finding:
    return Finding(check, pair.game, pair.section, it, en, evidence, message, key)


# --- ALIGN_ONLY_IT / ALIGN_ONLY_EN ---------------------------------------------------------------

def _reportable_one_sided(segments: tuple[Segment, ...]) -> bool:
    return any(s.kind not in (SegmentKind.HEADING, SegmentKind.CAPTION)
               and len(tokens(plain(s.text))) >= MIN_ONE_SIDED_WORDS for s in segments)


def _restated_rows(segments: tuple[Segment, ...], other: list[Segment]) -> bool:
    """One-sided chart rows whose every number and term the other edition's section states (in its
    prose): the same figures as a table, not content of one edition only. Every number counts with
    its multiplicity in the row, and a row needs a number other than the ignored ones."""
    if not all(s.kind is SegmentKind.ROW for s in segments):
        return False
    numbers = Counter(n for s in segments for n in s.numbers if n not in IGNORED)
    other_numbers = Counter(n for s in other for n in s.numbers if n not in IGNORED)
    terms = frozenset().union(*(s.terms for s in segments))
    other_terms = frozenset().union(*(s.terms for s in other))
    return bool(numbers) and set(numbers) <= set(other_numbers) and terms <= other_terms


MIN_MERGED_STEP_TERMS = 2
"""A one-sided step counts as merged into a neighbouring step only with at least this many glossary
terms (other than :data:`GENERIC_TERMS`) to match: fewer match by chance."""


def _merged_step(units: list[Pair], at: int, lang: str, wider: dict[str, dict[str, set[str]]] | None = None) -> bool:
    """A one-sided list step whose glossary terms and numbers all stand in the other edition's step
    next to it (the step before or after, as aligned): one edition split a step the other merged
    ('place the Proteins on the disk' as step 3 in Italian, the end of step 2 in English). A term
    also stands there through a broader term of it (``wider``, :func:`broader_terms`: 'macromolecules'
    for 'Proteins and a Carbohydrate')."""
    segments = getattr(units[at], lang)
    if not all(s.kind is SegmentKind.ITEM for s in segments):
        return False
    other = "en" if lang == "it" else "it"
    terms = frozenset().union(*(s.terms for s in segments)) - GENERIC_TERMS
    numbers = {n for s in segments for n in s.numbers if n not in IGNORED}
    if len(terms) < MIN_MERGED_STEP_TERMS:
        return False
    for near in (at - 1, at + 1):
        if not 0 <= near < len(units) or not (units[near].it and units[near].en):
            continue
        neighbour = getattr(units[near], other)
        if not all(s.kind is SegmentKind.ITEM for s in neighbour):
            continue
        there = frozenset().union(*(s.terms for s in neighbour))
        broader = (wider or {}).get(other, {})
        if all(t in there or broader.get(t, set()) & there for t in terms) and \
                numbers <= {n for s in neighbour for n in s.numbers}:
            return True
    return False


def _one_sided_units(section: AlignedSection, restated: bool = False,
                     wider: dict[str, dict[str, set[str]]] | None = None) -> Iterator[tuple[str, Pair]]:
    """(language, unit) of each reportable one-sided unit of an aligned section; with ``restated``,
    also the chart rows that restate the other edition's prose (left out of number comparisons, as
    the one-sided units are: their figures are already counted in that prose)."""
    units = list(section.pairs)
    for at, unit in enumerate(units):
        if unit.it and unit.en:
            continue
        lang = "it" if unit.it else "en"
        segments = getattr(unit, lang)
        if not _reportable_one_sided(segments) or _merged_step(units, at, lang, wider):
            continue
        if not restated and _restated_rows(segments, getattr(section, "en" if lang == "it" else "it")):
            continue
        yield lang, unit


def check_alignment(section: AlignedSection, wider: dict[str, dict[str, set[str]]] | None = None) -> list[Finding]:
    """Sections and paragraphs found in one official text only (``wider``: see :func:`_merged_step`)."""
    pair = section.pair
    if pair.it is None or pair.en is None:
        lang = "en" if pair.it is None else "it"
        check = CheckId.ALIGN_ONLY_EN if lang == "en" else CheckId.ALIGN_ONLY_IT
        text = getattr(pair, lang)
        return [_finding(check, pair, pair.it or "", pair.en or "", {"scope": "section"},
                         f"section found in the official {lang.upper()} text only: "
                         f"{split_heading(text)[0]!r}")]
    out = []
    for lang, unit in _one_sided_units(section, wider=wider):
        check = CheckId.ALIGN_ONLY_IT if lang == "it" else CheckId.ALIGN_ONLY_EN
        text = unit.text(lang)
        out.append(_finding(check, pair, text if lang == "it" else "", text if lang == "en" else "",
                            {"scope": "paragraph"},
                            f"paragraph found in the {lang.upper()} text only: {plain(text)[:70]!r}"))
    return out


# --- NUM_MISMATCH ---------------------------------------------------------------------------------

def _compared(segments: list[Segment], one_sided: set[int]) -> list[Segment]:
    return [s for s in segments if s.index not in one_sided]


def _one_sided_reported(section: AlignedSection, lang: str,
                        wider: dict[str, dict[str, set[str]]] | None = None) -> set[int]:
    return {s.index for side, unit in _one_sided_units(section, restated=True, wider=wider) if side == lang for s in getattr(unit, lang)}


def _statement_groups(segments: list[Segment]) -> list[list[Segment]]:
    """Each paragraph alone, the consecutive rows of a chart together: where a figure said twice is a repeat."""
    groups: list[list[Segment]] = []
    for segment in segments:
        if segment.kind is SegmentKind.ROW and groups and groups[-1][-1].kind is SegmentKind.ROW:
            groups[-1].append(segment)
        else:
            groups.append([segment])
    return groups


def _sums(segments: list[Segment]) -> list[tuple[str, list[str]]]:
    """(total, parts) stated by one edition: numbers adding up to an earlier one of the same segment, or
    the leading numbers of the list items right after a segment adding up to its last number
    ('45 PLAYER PIECES' over '20 Flasks', '10 Disks', '15 Markers')."""
    out = []
    for at, segment in enumerate(segments):
        out.extend(sum_runs(list(segment.numbers)))
        items = []
        for following in segments[at + 1:]:
            if following.kind is not SegmentKind.ITEM or not following.numbers:
                break
            items.append(following.numbers[0])
        if segment.numbers and len(items) >= 2 and sum(map(float, items)) == float(segment.numbers[-1]):
            out.append((segment.numbers[-1], items))
    return out


def _without_restated_sums(only: list[str], segments: list[Segment]) -> list[str]:
    """A total and its parts say the same thing twice: a total left unmatched whose parts all match the
    other edition is not a difference, nor are parts left unmatched of a total that matches."""
    left = Counter(only)
    for total, parts in _sums(segments):
        if left[total] and not any(left[p] for p in parts):
            left[total] -= 1
        elif not left[total]:
            for part in parts:
                if left[part]:
                    left[part] -= 1
    kept = []
    for number in only:  # keep the sorted order, each value as often as it is left
        if left[number] > 0:
            kept.append(number)
            left[number] -= 1
    return kept


def check_numbers(section: AlignedSection, wider: dict[str, dict[str, set[str]]] | None = None) -> list[Finding]:
    """The numbers of the two texts as multisets, less the paragraphs reported as one-sided."""
    pair = section.pair
    if pair.it is None or pair.en is None:
        return []
    it_segments = _compared(section.it, _one_sided_reported(section, "it", wider))
    en_segments = _compared(section.en, _one_sided_reported(section, "en", wider))
    if not any(s.kind is SegmentKind.CAPTION for s in en_segments):  # captions lost in one extraction
        it_segments = [s for s in it_segments if s.kind is not SegmentKind.CAPTION]
    if not any(s.kind is SegmentKind.CAPTION for s in section.it):
        en_segments = [s for s in en_segments if s.kind is not SegmentKind.CAPTION]
    counts: dict[str, Counter[str]] = {"it": Counter(), "en": Counter()}
    for lang, segments in (("it", it_segments), ("en", en_segments)):
        for segment in segments:
            counts[lang].update(n for n in segment.numbers if n not in IGNORED)
        for group in _statement_groups(segments):
            counts[lang] -= repeated_figures([s.text for s in group], group[0].kind is SegmentKind.ROW)
    it_only, en_only = multiset_difference(counts["it"], counts["en"])
    it_only = _without_restated_sums(it_only, it_segments)
    en_only = _without_restated_sums(en_only, en_segments)
    if not it_only and not en_only:
        return []
    it_text = "\n".join(s.text for s in it_segments if set(s.numbers) & set(it_only))
    en_text = "\n".join(s.text for s in en_segments if set(s.numbers) & set(en_only))
    parts = []
    if it_only:
        parts.append(f"IT only: {', '.join(it_only)}")
    if en_only:
        parts.append(f"EN only: {', '.join(en_only)}")
    return [_finding(CheckId.NUM_MISMATCH, pair, it_text, en_text, {"it_only": it_only, "en_only": en_only},
                     "numbers differ: " + "; ".join(parts))]


# --- TERM_MISSING / TERM_FORBIDDEN / TERM_VARIANTS -------------------------------------------------

DEFERS_TO_PRINTED_TEXT = {
    "en": re.compile(r"\b(?:resources indicated|indicated (?:on|by)|according to the description on|"
                     r"as (?:shown|described|printed) on)\b", re.IGNORECASE),
    "it": re.compile(r"\b(?:risorse indicate|indicat[oaie] (?:su|sul|sulla|dal|dalla|da)|secondo la descrizione|"
                     r"come (?:mostrato|descritto|stampato) su)\b", re.IGNORECASE),
}
"""A segment that leaves the detail to the card's own printed text ('all resources indicated',
'according to the description on that Goal Card'): a term the other edition spells out in a
condition there is not missing from it (TERM_MISSING is not reported)."""

CONDITION_OPENERS = {"en": re.compile(r"\b(?:if|once|when)\b", re.IGNORECASE),
                     "it": re.compile(r"\b(?:se|quando|una volta)\b", re.IGNORECASE)}
"""Words that open a condition ('if a player has completed ...')."""


def _in_condition(text: str, start: int, lang: str) -> bool:
    """Whether the term at ``start`` lies in a condition: its clause (from the last sentence end,
    bracket or semicolon) opens one before it."""
    clause_start = max(text.rfind(mark, 0, start) for mark in (". ", "? ", "(", ";")) + 1
    return bool(CONDITION_OPENERS[lang].search(text, clause_start, start))

GENERIC_TERMS = frozenset({"flask", "game-board", "components", "scoring", "hormone", "spot", "resource", "cell",
                           "face-up", "face-down"})
"""Glossary terms too common to be checked for a missing rendering: the worker ('Beuta'/'Flask',
rewritten as 'worker', 'one', 'it'), the board, section words ('Componenti', 'Scoring'), and
'face up'/'face down', which Italian says as 'scoperta'/'coperta' as often as 'a faccia in su'."""

HEAD_WORDS = frozenset({"card", "cart", "token", "segnalin", "disk", "disc"})
"""Stems of head nouns a rendering may leave out ('Protein Hormone' for 'Carta Ormone Proteico')."""

CONTENT_STOPWORDS = frozenset({"a", "di", "del", "dei", "della", "delle", "dell", "degli", "il", "la", "le", "lo",
                               "l", "in", "su", "per", "da", "e", "the", "of", "an", "to", "on", "from", "and"})
"""Function words, not counted when telling a multi-word term from a single word."""


def _content(form: str) -> list[str]:
    return [w for _, _, w in tokens(form) if w.lower() not in CONTENT_STOPWORDS]


def is_specific(term: Term, form: str, surface: str) -> bool:
    """A term worth a TERM_MISSING finding where it was matched as ``form`` (written ``surface``):
    a multi-word game term, or a single word capitalised as a proper game term in both languages'
    glossary forms and in the text (not 'carta', 'spazio', 'risorsa'); never one of
    :data:`GENERIC_TERMS`."""
    if term.id in GENERIC_TERMS:
        return False
    capitalised = all(term.forms.get(lang) and term.forms[lang][0][:1].isupper() for lang in ("it", "en"))
    if len(_content(form)) >= 2:
        # A capitalised multi-word name written in lower case is ordinary words ('collect resources' is
        # not the section title 'Collecting Resources', 'completed Cell Component Cards' not 'Completing …').
        return not capitalised or surface[:1].isupper()
    return capitalised and not surface.islower()


def _rendered(term: Term, lang: str, target_terms: set[str], target_stems: set[str]) -> bool:
    """The term is rendered in the target: matched as a term there, or every content word of one of
    its forms is there (stemmed), head nouns such as 'Card'/'Carta' optional."""
    if term.id in target_terms:
        return True
    for form in term.forms.get(lang, ()):
        needed = {stem(w, lang) for w in _content(form)} - HEAD_WORDS
        if needed and needed <= target_stems:
            return True
    return False


NOT_BROADER = frozenset({"components", "resource"})
"""Terms that share a head word with card names without naming a kind of them: 'Componenti' (the box
contents) in 'Carta Componente Cellula', 'risorsa' in 'Carte Risorsa Addizionale'."""


def _head(form: str, lang: str) -> str | None:
    """The head noun of a term form as a stem, head words such as 'Card' aside: the last content word
    in English ('Protein Hormone Card' -> hormone), the first in Italian ('Carta Ormone Proteico' ->
    ormone)."""
    words = [stem(w, lang) for w in _content(form)]
    words = [w for w in words if w not in HEAD_WORDS]
    if not words:
        return None
    return words[-1] if lang == "en" else words[0]


def broader_terms(glossary: list[Term], curated: dict[str, list[str]] | None = None) -> dict[str, dict[str, set[str]]]:
    """lang -> term id -> ids of the terms broader than it, which render it where an edition generalises
    ('Hormone or Receptor Card' for 'Carta Ormone Proteico, Ormone Steroideo, Recettore ...').

    A term is broader than another when one of its forms has the same head noun (:func:`_head`) and a
    strict subset of the other's content words ('Hormone' < 'Protein Hormone Card', 'Receptor Card' <
    'Steroid Hormone Receptor Card'); a sibling ('Protein Hormone' for 'Steroid Hormone') or a word that
    is not the head ('Cell' in 'Cell Component Card') never is. ``curated`` adds the relations words
    cannot show (macromolecule -> protein, carbohydrate, ...), from ``data/editions/<game>.yaml``."""
    lexical: dict[str, set[tuple[str, str]]] = {}
    for lang in ("it", "en"):
        shapes = []
        for term in glossary:
            if term.id in NOT_BROADER:
                continue
            for form in term.forms.get(lang, ()):
                words = frozenset(stem(w, lang) for w in _content(form)) - HEAD_WORDS
                head = _head(form, lang)
                if words and head:
                    shapes.append((term.id, head, words))
        lexical[lang] = {(narrow, wide) for narrow, head, words in shapes for wide, wide_head, wide_words in shapes
                         if wide != narrow and wide_head == head and wide_words < words}
    out: dict[str, dict[str, set[str]]] = {"it": {}, "en": {}}
    for lang in out:
        for narrow, wide in lexical["it"] & lexical["en"]:  # both languages agree: not an accident of wording
            out[lang].setdefault(narrow, set()).add(wide)
        for wide, narrows in (curated or {}).items():
            for narrow in narrows:
                out[lang].setdefault(narrow, set()).add(wide)
    return out


def _broader_rendered(wide: str, lang: str, target_terms: set[str], terms: dict[str, Term],
                      broader: dict[str, dict[str, set[str]]]) -> bool:
    """The broader term ``wide`` is in the target: matched as a term, or its words inside a longer term
    matched there that is not one of its narrower terms ('completed Cell Component Cards', matched as
    the title 'Completing Cell Component Cards', says 'Cell Component Cards'; 'Protein Hormone Card'
    does not say 'Hormone' for 'Steroid Hormone Card': it is a sibling)."""
    if wide in target_terms:
        return True
    if wide not in terms:
        return False
    needed = [{stem(w, lang) for w in _content(f)} - HEAD_WORDS for f in terms[wide].forms.get(lang, ())]
    for other in target_terms:
        if other not in terms or wide in broader[lang].get(other, set()):
            continue
        words = {stem(w, lang) for f in terms[other].forms.get(lang, ()) for w in _content(f)}
        if any(n and n <= words for n in needed):
            return True
    return False


WINDOW = 1
"""Aligned units on each side of a unit also searched for a term's rendering: a rewritten edition moves
a term to the neighbouring sentence, and a 2-1 split the aligner missed leaves it there."""


def check_terms_missing(section: AlignedSection, matchers: dict[str, TermMatcher],
                        terms: dict[str, Term], broader: dict[str, dict[str, set[str]]] | None = None,
                        implied: dict[str, set[str]] | None = None) -> list[Finding]:
    """A specific glossary term in one side of an aligned pair (paragraph, item, merged group) whose
    counterpart, in any of its forms, is absent from the other side of that pair.

    Checked per aligned unit as QA tools do (with a window of :data:`WINDOW` units for moved
    words); against the whole section only for a term this side repeats in several segments (the
    other edition may state it once: 'Protein Hormone Card' in its title, then 'the card'); not when
    a broader term renders it (:func:`broader_terms`); not for a term ``implied`` (chapter -> term ids,
    curated in ``data/editions/<game>.yaml``) in the section's chapter. Paragraphs found in one text only are reported
    by the alignment check instead."""
    if section.pair.it is None or section.pair.en is None:
        return []
    out = []
    units = section.pairs
    section_terms = {lang: {t for s in getattr(section, lang) for t in s.terms} for lang in ("it", "en")}
    repeated = {lang: {t for t, n in Counter(t for s in getattr(section, lang) for t in s.terms).items() if n >= 2}
                for lang in ("it", "en")}
    rows = [k for k, u in enumerate(units) if any(s.kind is SegmentKind.ROW for s in u.it + u.en)]
    for index, unit in enumerate(units):
        if not unit.it or not unit.en:
            continue
        low, high = index - WINDOW, index + WINDOW
        if index in rows:  # a table is one unit: editions split its columns differently
            low, high = min(low, rows[0] - WINDOW), max(high, rows[-1] + WINDOW)
        for present, absent in (("it", "en"), ("en", "it")):
            target = [s for u in units[max(low, 0):high + 1] for s in getattr(u, absent)]
            target_terms = {t for s in target for t in s.terms}
            target_stems = {stem(w, absent) for s in target for _, _, w in tokens(plain(s.text))}
            seen = set()
            for segment in getattr(unit, present):
                if segment.kind is SegmentKind.CAPTION:
                    continue
                for hit in matchers[present].find(plain(segment.text)):
                    term = terms.get(hit.term)
                    if hit.forbidden or term is None or hit.term in seen:
                        continue
                    seen.add(hit.term)
                    if not term.official or not term.forms.get(absent) or not is_specific(term, hit.form, hit.surface):
                        continue
                    if any(_rendered(terms[t], absent, target_terms, target_stems) for t in hit.terms if t in terms):
                        continue
                    if implied and any(t in implied.get(section.pair.chapter, ()) for t in hit.terms):
                        continue  # curated: the chapter implies it wherever one edition leaves it out
                    if any(t in repeated[present] and t in section_terms[absent] for t in hit.terms):
                        continue  # said once in the other edition's section, repeated per step in this one
                    if broader and any(_broader_rendered(w, absent, target_terms, terms, broader)
                                       for t in hit.terms for w in broader[absent].get(t, set())):
                        continue  # the other edition generalises: 'Hormone Card' for 'Carta Ormone Proteico'
                    if _in_condition(plain(segment.text), hit.start, present) and \
                            DEFERS_TO_PRINTED_TEXT[absent].search(plain(unit.text(absent))):
                        continue  # a condition the other edition leaves to the card: 'as indicated'
                    out.append(_finding(
                        CheckId.TERM_MISSING, section.pair, unit.text("it"), unit.text("en"),
                        {"term": hit.term, "found_in": present, "found": hit.surface,
                         "expected": list(term.forms[absent])},
                        f"{hit.surface!r} ({present.upper()}) has no {term.preferred(absent)!r} "
                        f"in the aligned {absent.upper()} text", key=f"{hit.term}>{absent}"))
    return out


def check_terms_forbidden(section: AlignedSection, matchers: dict[str, TermMatcher],
                          terms: dict[str, Term]) -> list[Finding]:
    """A rendering the glossary marks as wrong."""
    out = []
    for lang in ("it", "en"):
        for segment in getattr(section, lang):
            for hit in matchers[lang].find(plain(segment.text)):
                if not hit.forbidden:
                    continue
                term = terms[hit.term]
                out.append(_finding(
                    CheckId.TERM_FORBIDDEN, section.pair, segment.text if lang == "it" else "",
                    segment.text if lang == "en" else "",
                    {"term": hit.term, "lang": lang, "found": hit.surface, "expected": term.preferred(lang)},
                    f"{hit.surface!r} ({lang.upper()}) is a forbidden rendering of {term.id!r}: "
                    f"use {term.preferred(lang)!r}", key=f"{hit.term}:{lang}:{hit.form}"))
    return out


STOPWORDS = frozenset({"a", "di", "del", "dei", "della", "delle", "dell", "degli", "il", "la", "le", "lo", "l",
                       "the", "of", "a", "an"})
"""Function words left out when telling a term's renderings apart ('Traccia della Salute' = 'Traccia Salute')."""


def _variant_key(form: str, lang: str) -> str:
    """A rendering as compared: its content words as singular stems, so inflections of one word
    ('die'/'dice', 'Beuta'/'Beute') are one rendering."""
    return " ".join(inflection_key(w, lang) for _, _, w in tokens(form) if w.lower() not in STOPWORDS)


def _contains(longer: str, shorter: str) -> bool:
    return f" {shorter} " in f" {longer} "


def merge_variants(keys: list[str]) -> dict[str, str]:
    """Variant key -> group key: a form contained in a longer one ('Dischi' in 'Dischi Trasporto
    Vescicolare') is a short form of it, not another rendering."""
    group: dict[str, str] = {}
    for key in sorted(keys, key=len, reverse=True):
        group[key] = next((g for g in dict.fromkeys(group.values()) if _contains(g, key)), key)
    return group


def check_term_variants(sections: list[AlignedSection], matchers: dict[str, TermMatcher],
                        terms: dict[str, Term]) -> list[Finding]:
    """One term rendered in several ways (not inflections of one form) within one language."""
    out = []
    for lang in ("it", "en"):
        uses: dict[str, dict[str, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
        first: dict[str, AlignedSection] = {}
        order: dict[str, int] = {}
        for section in sections:
            for segment in getattr(section, lang):
                for hit in matchers[lang].find(plain(segment.text)):
                    if hit.forbidden:
                        continue
                    variant = _variant_key(hit.form, lang)
                    uses[hit.term][variant].append((section.pair.section, hit.surface))
                    first.setdefault(f"{hit.term}/{variant}", section)
                    order.setdefault(f"{hit.term}/{variant}", len(order))
        for term_id, raw_variants in uses.items():
            group = merge_variants(list(raw_variants))
            variants: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for key, occurrences in raw_variants.items():
                variants[group[key]].extend(occurrences)
                order.setdefault(f"{term_id}/{group[key]}", order[f"{term_id}/{key}"])
                order[f"{term_id}/{group[key]}"] = min(order[f"{term_id}/{group[key]}"], order[f"{term_id}/{key}"])
                if f"{term_id}/{group[key]}" not in first or order[f"{term_id}/{key}"] <= order[f"{term_id}/{group[key]}"]:
                    first[f"{term_id}/{group[key]}"] = first[f"{term_id}/{key}"]
            if len(variants) < 2:
                continue
            ranked = sorted(variants.items(), key=lambda kv: order[f"{term_id}/{kv[0]}"])
            section = first[f"{term_id}/{ranked[1][0]}"]  # where a second rendering first appears
            names = [occurrences[0][1] for _, occurrences in ranked]
            listing = " / ".join(sorted(names, key=str.lower))
            evidence = {"term": term_id, "lang": lang,
                        "variants": {occ[0][1]: {"count": len(occ), "sections": sorted({s for s, _ in occ})}
                                     for _, occ in ranked}}
            out.append(Finding(CheckId.TERM_VARIANTS, section.pair.game, section.pair.section,
                               listing if lang == "it" else "", listing if lang == "en" else "", evidence,
                               f"{terms[term_id].id!r} is written in {len(variants)} ways in the "
                               f"{lang.upper()} texts: {listing}", key=f"{term_id}:{lang}"))
    return out


# --- SEG_INCONSISTENT -----------------------------------------------------------------------------

def check_consistency(sections: list[AlignedSection]) -> list[Finding]:
    """The same sentence rendered differently in the other language (in either direction)."""
    out = []
    for source, target in (("it", "en"), ("en", "it")):
        renderings: dict[str, dict[str, tuple[AlignedSection, str, str]]] = defaultdict(dict)
        for section in sections:
            for unit in section.pairs:
                if len(unit.it) != 1 or len(unit.en) != 1 or unit.it[0].kind is SegmentKind.HEADING:
                    continue
                text = unit.text(source)
                if len(tokens(plain(text))) < MIN_REPEATED_WORDS:
                    continue
                rendering = unit.text(target)
                renderings[normalise(plain(text))].setdefault(normalise(plain(rendering)), (section, text, rendering))
        for variants in renderings.values():
            if len(variants) < 2:
                continue
            items = list(variants.values())
            section, text, _ = items[0]
            joined = "\n‖\n".join(r for _, _, r in items)
            it, en = (text, joined) if source == "it" else (joined, text)
            out.append(Finding(CheckId.SEG_INCONSISTENT, section.pair.game, section.pair.section, it, en,
                               {"source_lang": source, "renderings": len(items),
                                "sections": sorted({s.pair.section for s, _, _ in items})},
                               f"the same {source.upper()} text is rendered in {len(items)} different ways",
                               key=source))
    return out


# --- INTERNAL --------------------------------------------------------------------------------------

_SUBJECT = re.compile(r"\b(giocatore|giocatrice|player)\s+(\d+)(?:'s)?\b", re.I)
_VALUE_CUE = re.compile(r"(?:=|\bè\b|\bis\b|\bpari a\b|\bof\b|\ba\b|\bequals?\b)\s*(\d+)\s*[.!)*]*\s*$", re.I)
_CLAUSE = re.compile(r"(?<=[.;:!?])\s+|,?\s+\b(?:e|and)\b\s+|,\s+(?=(?:la|il|lo|the)\b)", re.I)


def _facts(segments: list[Segment]) -> list[tuple[str, str, str, bool]]:
    """(subject, value, segment text, from caption) of 'Player N … is/= V' statements."""
    facts = []
    for segment in segments:
        caption = segment.kind is SegmentKind.CAPTION
        subject = None
        for clause in _CLAUSE.split(plain(segment.text)):
            if not clause:
                continue
            subjects = {f"{m.group(1).lower()} {m.group(2)}" for m in _SUBJECT.finditer(clause)}
            if len(subjects) == 1:
                subject = subjects.pop()
            elif len(subjects) > 1:
                subject = None
                continue
            value = _VALUE_CUE.search(clause)
            if subject and value and not subject.endswith(" " + value.group(1)):
                facts.append((subject, value.group(1), segment.text, caption))
            if caption:
                subject = None
    return facts


def check_internal(section: AlignedSection) -> list[Finding]:
    """An example's figures stated one way in the text and another in its captions."""
    out = []
    for lang in ("it", "en"):
        facts = _facts(getattr(section, lang))
        body: defaultdict[str, set[str]] = defaultdict(set)
        captions: defaultdict[str, set[str]] = defaultdict(set)
        texts = defaultdict(list)
        for subject, value, text, caption in facts:
            (captions if caption else body)[subject].add(value)
            texts[subject].append(text)
        for subject in sorted(set(body) & set(captions)):
            if body[subject] & captions[subject] or not body[subject] or not captions[subject]:
                continue
            text = "\n".join(dict.fromkeys(texts[subject]))
            out.append(_finding(
                CheckId.INTERNAL, section.pair, text if lang == "it" else "", text if lang == "en" else "",
                {"lang": lang, "subject": subject, "text": sorted(body[subject]),
                 "captions": sorted(captions[subject])},
                f"{lang.upper()} text contradicts itself: {subject!r} is "
                f"{'/'.join(sorted(body[subject]))} in the text, {'/'.join(sorted(captions[subject]))} "
                "in the captions", key=f"{lang}:{subject}"))
    return out


# --- all together ---------------------------------------------------------------------------------

def _canonical(value: object) -> object:
    """``value`` as nested tuples of plain values, equal exactly when the values are equal: every
    dataclass field, dicts in their order, sets sorted. A type it does not know is an error, so that a
    new kind of input cannot slip past the memo's key unseen."""
    if isinstance(value, Enum):
        return (type(value).__name__, value.value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, _canonical(getattr(value, f.name))) for f in fields(value)))
    if isinstance(value, dict):
        return ("dict", tuple((_canonical(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((_canonical(v) for v in value), key=repr)))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_canonical(v) for v in value))
    raise TypeError(f"content_key: no canonical form for a {type(value).__name__}")


def content_key(*inputs: object) -> str:
    """A digest of everything ``inputs`` hold (see :func:`_canonical`)."""
    return hashlib.sha256(repr(_canonical(inputs)).encode("utf-8")).hexdigest()


_MATCHERS: dict[str, dict[str, TermMatcher]] = {}
"""Term matchers by :func:`content_key` of their glossary and game: an equal glossary loaded again in
the same process (the bad-input corpus's children, forked after one load of the real data; tests that
load the data more than once) gets the same matchers, and with them the alignments
:func:`align_section` keeps."""


def matchers_for(glossary: list[Term], game: str | None) -> dict[str, TermMatcher]:
    """The IT and EN term matchers of a glossary for one game (made once per glossary content and game)."""
    key = content_key(glossary, game)
    cached = _MATCHERS.get(key)
    if cached is None:
        cached = _MATCHERS[key] = {lang: TermMatcher(glossary, lang, game) for lang in ("it", "en")}
    return cached


_REPORTS: dict[str, list[Finding]] = {}
"""The findings of the last :data:`REPORTS_KEPT` distinct inputs of :func:`run_checks`, by
:func:`content_key`: a process that loads the same texts again (the bad-input corpus's children, forked
after one load of the real data; tests that load the data more than once) does not re-run the checks."""
REPORTS_KEPT = 8


def run_checks(pairs: list[SectionPair], glossary: list[Term], game: str | None = None,
               broader: dict[str, list[str]] | None = None,
               implied: dict[str, set[str]] | None = None,
               words: dict[str, set[str]] | None = None) -> list[Finding]:
    """Every automatic finding over the section pairs of one game, in section order; ``broader`` is the
    curated term -> narrower terms relation of the game (see :func:`broader_terms`), ``implied`` the
    curated chapter -> terms its sections imply (TERM_MISSING does not report them there), ``words``
    the project's word list per language for spelling (:func:`qa.project_words`; the glossary's alone
    when None).

    A pure function of its arguments (and of the system's Hunspell dictionaries, read once per
    process): the findings of inputs seen before in this process are handed back from :data:`_REPORTS`
    (a new list of the same frozen findings; no file is written)."""
    key = content_key(pairs, glossary, game, broader, implied, words)
    cached = _REPORTS.get(key)
    if cached is None:
        cached = _run_checks(pairs, glossary, game, broader, implied, words)
        while len(_REPORTS) >= REPORTS_KEPT:
            del _REPORTS[next(iter(_REPORTS))]
        _REPORTS[key] = cached
    return list(cached)


def _run_checks(pairs: list[SectionPair], glossary: list[Term], game: str | None,
                broader: dict[str, list[str]] | None, implied: dict[str, set[str]] | None,
                words: dict[str, set[str]] | None) -> list[Finding]:
    from . import qa
    matchers = matchers_for(glossary, game)
    terms = {t.id: t for t in glossary}
    wider = broader_terms([t for t in glossary if game is None or game in t.games], broader)
    sections = [align_section(pair, matchers) for pair in pairs]
    if words is None:
        words = qa.project_words(glossary, [])
    findings: list[Finding] = []
    elsewhere = qa.segment_anchors(sections, matchers)
    for section in sections:
        findings += check_alignment(section, wider)
        numbers = check_numbers(section, wider)
        findings += numbers
        findings += qa.check_entities(section, words, bool(numbers))
        findings += qa.check_clauses(section, matchers, elsewhere)
        findings += qa.check_pofilters(section)
        findings += check_terms_missing(section, matchers, terms, wider, implied)
        findings += check_terms_forbidden(section, matchers, terms)
        findings += check_internal(section)
    findings += check_term_variants(sections, matchers, terms)
    findings += check_consistency(sections)
    findings += qa.check_spelling(sections, glossary, words, game or "")
    order = {pair.section: index for index, pair in enumerate(pairs)}
    return sorted(findings, key=lambda f: (order.get(f.section, 0), list(CheckId).index(f.check)))
