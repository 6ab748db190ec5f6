"""Why a finding was reported, said in a site language from its evidence (the check's own
``message`` is English, for the command line)."""
from __future__ import annotations

from typing import Callable

from .model import CheckId, Finding

COLOUR_NAMES = {
    "it": {"red": "rosso", "yellow": "giallo", "blue": "blu", "green": "verde", "black": "nero", "white": "bianco",
           "grey": "grigio", "purple": "viola", "orange": "arancione", "brown": "marrone", "light-blue": "azzurro",
           "pink": "rosa"},
    "en": {"light-blue": "light blue"},
}
"""Colour ids as each language names them (English: the id itself unless listed)."""

SIDE = {"it": {"it": "italiano", "en": "inglese"}, "en": {"it": "Italian", "en": "English"}}
"""The two texts named in each site language (as adjectives: 'testo italiano', 'Italian text')."""


def _q(text: str, lang: str) -> str:
    return f"«{text}»" if lang == "it" else f"“{text}”"


def _colour(colour: str, lang: str) -> str:
    return COLOUR_NAMES.get(lang, {}).get(colour, colour)


def _term(term_id: str, lang: str, terms: dict) -> str:
    """A glossary term by its preferred form in ``lang`` (never its internal id)."""
    term = terms.get(term_id)
    form = term.preferred(lang) if term is not None else None
    return form or (term.preferred("en") if term is not None else term_id.replace("-", " "))


def _num_mismatch(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    parts = []
    if ev.get("it_only"):
        parts.append(("solo nel testo italiano: " if lang == "it" else "in the Italian text only: ") + ", ".join(ev["it_only"]))
    if ev.get("en_only"):
        parts.append(("solo nel testo inglese: " if lang == "it" else "in the English text only: ") + ", ".join(ev["en_only"]))
    return ("Numeri diversi; " if lang == "it" else "The numbers differ; ") + "; ".join(parts) + "."


def _term_missing(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    present, absent = ev["found_in"], "en" if ev["found_in"] == "it" else "it"
    expected = " / ".join(_q(e, lang) for e in ev.get("expected", [])[:2])
    if lang == "it":
        return (f"{_q(ev['found'], lang)} (testo {SIDE[lang][present]}) non ha {expected} "
                f"nel testo {SIDE[lang][absent]} allineato.")
    return f"{_q(ev['found'], lang)} ({SIDE[lang][present]} text) has no {expected} in the aligned {SIDE[lang][absent]} text."


def _term_forbidden(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return f"{_q(ev['found'], lang)} è una resa sconsigliata dal glossario: usare {_q(ev['expected'], lang)}."
    return f"{_q(ev['found'], lang)} is a rendering the glossary rules out: use {_q(ev['expected'], lang)}."


def _term_variants(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    listing = ", ".join(f"{_q(v, lang)} ×{d['count']}" for v, d in ev.get("variants", {}).items())
    name = _q(_term(ev["term"], lang, terms), lang)
    if lang == "it":
        return f"Il termine {name} è scritto in {len(ev.get('variants', {}))} modi nei testi in {SIDE[lang][ev['lang']]}: {listing}."
    return f"The term {name} is written {len(ev.get('variants', {}))} ways in the {SIDE[lang][ev['lang']]} texts: {listing}."


def _align_only(f: Finding, lang: str, terms: dict) -> str:
    side = "it" if f.check is CheckId.ALIGN_ONLY_IT else "en"
    section = f.evidence.get("scope") == "section"
    if lang == "it":
        return f"{'Sezione' if section else 'Paragrafo'} presente solo nel testo {SIDE[lang][side]}."
    return f"{'Section' if section else 'Paragraph'} found in the {SIDE[lang][side]} text only."


def _inconsistent(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return f"Lo stesso testo {SIDE[lang][ev['source_lang']]} è reso in {ev['renderings']} modi diversi."
    return f"The same {SIDE[lang][ev['source_lang']]} text is rendered in {ev['renderings']} different ways."


def _internal(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return (f"Il testo {SIDE[lang][ev['lang']]} si contraddice: {ev['subject']} ha {'/'.join(ev['text'])} nel testo, "
                f"{'/'.join(ev['captions'])} nelle didascalie.")
    return (f"The {SIDE[lang][ev['lang']]} text contradicts itself: {ev['subject']} is {'/'.join(ev['text'])} in the "
            f"text, {'/'.join(ev['captions'])} in the captions.")


def _spelling(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return f"{_q(ev['word'], lang)} non è nel dizionario Hunspell {SIDE[lang][ev['lang']]} né nel glossario."
    return f"{_q(ev['word'], lang)} is in neither the {SIDE[lang][ev['lang']]} Hunspell dictionary nor the glossary."


def _typo(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return f"{_q(ev['word'], lang)} differisce di una lettera da {_q(ev['neighbour'], lang)}, usato altrove."
    return f"{_q(ev['word'], lang)} is one letter from {_q(ev['neighbour'], lang)}, used elsewhere."


def _colours(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    it = ", ".join(_colour(c, lang) for c in ev.get("it_only", [])) or "–"
    en = ", ".join(_colour(c, lang) for c in ev.get("en_only", [])) or "–"
    if lang == "it":
        return f"Colori diversi nei segmenti allineati: solo nel testo italiano {it}; solo nel testo inglese {en}."
    return f"The aligned segments name different colours: Italian text only {it}; English text only {en}."


def _names(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    if lang == "it":
        return f"Nome scritto in modo diverso: {_q(ev['it'], lang)} nel testo italiano, {_q(ev['en'], lang)} in quello inglese."
    return f"A name spelled differently: {_q(ev['it'], lang)} in the Italian text, {_q(ev['en'], lang)} in the English one."


def _numword(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    other = "en" if ev["lang"] == "it" else "it"
    if lang == "it":
        return f"Il testo {SIDE[lang][ev['lang']]} scrive in lettere {ev['value']}, che il testo {SIDE[lang][other]} allineato non indica."
    return f"The {SIDE[lang][ev['lang']]} text spells out {ev['value']}, which the aligned {SIDE[lang][other]} text does not state."


def _clause(f: Finding, lang: str, terms: dict) -> str:
    ev = f.evidence
    kind = {"it": {"parenthetical": "Inciso tra parentesi", "sentence": "Frase"},
            "en": {"parenthetical": "Parenthetical", "sentence": "Sentence"}}[lang][ev["kind"]]
    if lang == "it":
        return f"{kind} presente solo nel segmento {SIDE[lang][ev['lang']]}: {_q(ev['clause'], lang)}."
    return f"{kind} found in the {SIDE[lang][ev['lang']]} segment only: {_q(ev['clause'], lang)}."


def _pofilter(f: Finding, lang: str, terms: dict) -> str:
    what = {CheckId.QA_BRACKETS: ("Parentesi non bilanciate tra i due testi", "Brackets do not balance between the two texts"),
            CheckId.QA_REPEATED_WORD: ("Una parola ripetuta due volte di seguito", "A word repeated twice in a row"),
            CheckId.QA_DOUBLE_SPACE: ("Doppi spazi in un solo testo", "Double spaces in one text only")}[f.check]
    tool = " (controllo di translate-toolkit)." if lang == "it" else " (translate-toolkit check)."
    return what[0 if lang == "it" else 1] + tool


REASONS: dict[CheckId, Callable[[Finding, str, dict], str]] = {
    CheckId.NUM_MISMATCH: _num_mismatch, CheckId.TERM_MISSING: _term_missing,
    CheckId.TERM_FORBIDDEN: _term_forbidden, CheckId.TERM_VARIANTS: _term_variants,
    CheckId.ALIGN_ONLY_IT: _align_only, CheckId.ALIGN_ONLY_EN: _align_only,
    CheckId.SEG_INCONSISTENT: _inconsistent, CheckId.INTERNAL: _internal,
    CheckId.SPELLING: _spelling, CheckId.TERM_TYPO: _typo, CheckId.COLOUR_MISMATCH: _colours,
    CheckId.NAME_MISMATCH: _names, CheckId.NUMWORD_MISMATCH: _numword, CheckId.CLAUSE_ONLY: _clause,
    CheckId.QA_BRACKETS: _pofilter, CheckId.QA_REPEATED_WORD: _pofilter, CheckId.QA_DOUBLE_SPACE: _pofilter,
}
"""One function per check: the finding's reason in a site language."""


def reason(finding: Finding, lang: str, terms: dict) -> str:
    """Why ``finding`` was reported, in ``lang`` (``terms``: glossary id -> Term)."""
    return REASONS[finding.check](finding, lang, terms)
