"""Unit tests of the edition check: numbers, glossary matching, the aligner, fingerprints."""
from __future__ import annotations

import pytest

from generator.check.align import align, make_segments
from generator.check.checks import merge_variants
from generator.check.model import CheckId, fingerprint
from generator.check.numbers import extract_numbers, multiset_difference, number_counter
from generator.check.terms import TermMatcher, stem, within_one_edit
from generator.glossary import Term


@pytest.mark.parametrize("text, lang, expected", [
    ("per 2 - 5 giocatori", "it", ["2", "5"]),
    ("for 2-5 players", "en", ["2", "5"]),
    ("dura 1,5 ore", "it", ["1.5"]),
    ("lasts 1.5 hours", "en", ["1.5"]),
    ("1,000 cubes", "en", ["1000"]),
    ("tre carte e dodici eventi", "it", ["3", "12"]),
    ("two cards and twelve events", "en", ["2", "12"]),
    ("sei carte", "it", ["6"]),
    ("Ora sei pronto", "it", []),
    ("the 5x Multipliers", "en", ["5"]),
    ("uno spazio [3]", "it", ["3"]),
    ("Fase 1: 12 CARTE", "it", ["1", "12"]),
])
def test_extract_numbers(text, lang, expected):
    assert extract_numbers(text, lang) == expected


def test_numbers_compared_as_multisets_both_ways():
    it_only, en_only = multiset_difference(number_counter("2 o 3 ATP, 3 carte", "it"),
                                           number_counter("2 or 3 ATP, 4 cards", "en"))
    assert (it_only, en_only) == (["3"], ["4"])


def test_one_is_not_compared():
    assert number_counter("prendi 1 ATP", "it") == number_counter("take an ATP", "en")


@pytest.fixture
def glossary() -> list[Term]:
    def term(id_, it, en, forbidden=None):
        return Term(id_, ("g",), {"it": tuple(it), "en": tuple(en)}, forbidden or {}, {}, True)
    return [term("flask", ["Beuta"], ["Flask"], {"it": ("Fiasca",)}),
            term("grey-flask", ["Beuta Grigia"], ["Grey Flask"]),
            term("event-deck", ["Mazzo Eventi"], ["Event Deck"])]


@pytest.mark.parametrize("lang, text, terms", [
    ("it", "piazza le Beute", ["flask"]),                       # plural
    ("it", "due Beute Grigie", ["grey-flask"]),                 # longest form wins, inflected
    ("it", "dal Mazza Eventi", ["event-deck"]),                 # one-letter typo
    ("it", "la fiasca", ["flask"]),                             # forbidden form still names the term
    ("en", "two Grey Flasks and a flask", ["grey-flask", "flask"]),
    ("en", "from the event decks", ["event-deck"]),
    ("en", "a flashlight", []),
])
def test_glossary_matching(glossary, lang, text, terms):
    assert [h.term for h in TermMatcher(glossary, lang).find(text)] == terms


def test_forbidden_hits_are_marked(glossary):
    hits = TermMatcher(glossary, "it").find("una Fiasca e una Beuta")
    assert [(h.term, h.forbidden) for h in hits] == [("flask", True), ("flask", False)]


@pytest.mark.parametrize("word, lang, expected", [
    ("Beute", "it", "beut"), ("Beuta", "it", "beut"), ("Flasks", "en", "flask"),
    ("Bodies", "en", "body"), ("exhausted", "en", "exhaust"), ("ATP", "en", "atp"),
])
def test_stem(word, lang, expected):
    assert stem(word, lang) == expected


@pytest.mark.parametrize("a, b, close", [("mazzo", "mazza", True), ("grigie", "grige", True),
                                         ("beuta", "beute", True), ("lipid", "liquid", False)])
def test_within_one_edit(a, b, close):
    assert within_one_edit(a, b) is close


def test_variant_short_forms_merge():
    group = merge_variants(["disch trasport vescicolar", "disch", "cilindr"])
    assert group["disch"] == "disch trasport vescicolar"
    assert group["cilindr"] == "cilindr"


IT_BODY = ("Piazza 3 beute sul tabellone.\n\n"
           "Questo paragrafo manca in inglese: scarta 4 carte tossicità alla fine del round.\n\n"
           "Mescola le 12 carte evento.\n\n"
           "Alla fine conta 20 punti salute.")
EN_BODY = "Place 3 flasks on the board.\n\nShuffle the 12 event cards.\n\nAt the end count 20 health points."


@pytest.mark.parametrize("it_body, en_body, one_sided", [
    (IT_BODY, EN_BODY, ("it", 2)),
    (EN_BODY.replace("flasks", "beute"), IT_BODY.replace("beute", "flasks"), ("en", 2)),
])
def test_aligner_places_a_missing_paragraph(it_body, en_body, one_sided):
    it = make_segments("Regole", it_body, "it", None)
    en = make_segments("Rules", en_body, "en", None)
    pairs = align(it, en)
    lonely = [(("it" if p.it else "en"), (p.it or p.en)[0].index) for p in pairs if not (p.it and p.en)]
    assert lonely == [one_sided]
    # every other paragraph keeps its partner: nothing after the gap is shifted
    matched = [(p.it[0].index, p.en[0].index) for p in pairs if p.it and p.en]
    assert len(matched) == 4 and all(abs(a - b) <= 1 for a, b in matched)


def test_aligner_merges_a_split_paragraph():
    it = make_segments("T", "Paga 4 ATP per una Beuta Grigia e piazzala su uno spazio qualsiasi, anche occupato, "
                       "poi esegui l'azione dello spazio.", "it", None)
    en = make_segments("T", "Pay 4 ATP for a Grey Flask.\n\nPlace it on any spot, even an occupied one, "
                       "then take that spot's action.", "en", None)
    shapes = [(len(p.it), len(p.en)) for p in align(it, en)]
    assert (1, 2) in shapes


def test_fingerprint_ignores_markup_and_spacing():
    a = fingerprint(CheckId.NUM_MISMATCH, "g", "s", "**Tre** carte", "Three  cards")
    assert a == fingerprint(CheckId.NUM_MISMATCH, "g", "s", "Tre carte", "three cards")
    assert a != fingerprint(CheckId.NUM_MISMATCH, "g", "s", "Quattro carte", "three cards")


def test_term_missing_only_for_specific_terms():
    from generator.check.checks import is_specific
    from generator.glossary import Term
    def term(id_, it, en):
        return Term(id_, ("x",), {"it": (it,), "en": (en,)}, {}, {}, True)
    assert is_specific(term("goal-card", "Carta Obiettivo", "Goal Card"), "Carta Obiettivo", "Carta Obiettivo")
    assert is_specific(term("nucleus", "Nucleo", "Nucleus"), "Nucleo", "Nucleo")
    assert not is_specific(term("nucleus", "Nucleo", "Nucleus"), "Nucleo", "nucleo")
    assert not is_specific(term("resource", "risorsa", "resource"), "risorsa", "Risorsa")
    assert not is_specific(term("flask", "Beuta", "Flask"), "Beuta", "Beuta")


def test_aligner_pairs_a_paragraph_with_the_list_it_became():
    from generator.check.align import align, make_segments
    from generator.check.bench import load_corpus
    from generator.check.checks import matchers_for
    matchers = matchers_for(load_corpus()[1], "synth")
    it = make_segments("Punti", "Le risorse valgono 1 punto ogni 4 Lipidi, 1 punto ogni 3 Proteine e 1 punto ogni 2 "
                       "Carboidrati.", "it", matchers["it"])
    en = make_segments("Points", "Resources score points for each set of:\n\n- 4 Lipids: 1 POINT\n- 3 Proteins: 1 POINT\n"
                       "- 2 Carbohydrates: 1 POINT", "en", matchers["en"])
    pairs = align(it, en)
    assert all(p.it and p.en for p in pairs), [(len(p.it), len(p.en)) for p in pairs]
