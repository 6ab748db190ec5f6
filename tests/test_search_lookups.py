"""The generated relevance set (generator/search_lookups.py) and the structure it is graded against:
each glossary term's defining rule section (generator/search_index.py)."""
from __future__ import annotations

import pytest

from generator.search_index import defining_sections
from generator.search_lookups import KINDS, SOURCES, facts, generated_lookups, inject_typo, other_number
from generator.cards import CARD_SETS

VOCABULARY = frozenset({"carta", "carte", "ormoni", "dischi", "grigie", "grigia"})


@pytest.mark.parametrize(("text", "lang", "other"), [
    ("Beuta Grigia", "it", "Beute Grigie"),
    ("Carte Evento", "it", "Carta Evento"),  # -e: carte -> carta, the texts have "carta"
    ("Ormone", "it", "Ormoni"),
    ("Disco", "it", "Dischi"),
    ("Ribosoma", "it", "Ribosomi"),
    ("Carta Componente Cellula", "it", "Carte Componente Cellula"),  # only the adjective right after agrees
    ("Grey Flask", "en", "Grey Flasks"),
    ("Flasks", "en", "Flask"),
    ("Mitochondrion", "en", "Mitochondria"),
    ("Enzyme Synthesis", "en", "Enzyme Syntheses"),
    ("Body", "en", "Bodies"),
    ("ATP", "en", None),
    ("mRNA", "it", None),
    ("Фагоцит", "ru", None),
])
def test_other_number(text, lang, other):
    assert other_number(text, lang, VOCABULARY) == other


def test_inject_typo_is_one_edit_in_the_longest_word_and_stable():
    for text in ("Esocitosi", "Grey Flask Area", "Carte Obiettivo", "фагоцитоз"):
        typo = inject_typo(text)
        assert typo is not None and typo != text and typo == inject_typo(text)
        assert typo[0] == text[0] and len(typo) - len(text) in (-1, 0, 1)
    assert inject_typo("ATP") is None and inject_typo("Die 4") is None


@pytest.fixture(scope="module")
def site():
    """The rules, glossary and cards (the puzzles loaded but not solved: none of this needs them)."""
    from generator.site import load_site
    return load_site(solve_puzzles=False)


@pytest.fixture(scope="module")
def lookups(site):
    from generator.quickref import QUICK_REFERENCES
    return generated_lookups(site.games, site.glossary, site.get(CARD_SETS), site.get(QUICK_REFERENCES))


def test_questions_and_numbers_from_the_rules_facts(lookups):
    """Issue #66: at least 300 questions and 200 lookups with numbers, from the numbers the rule texts state."""
    fact = [x for x in lookups if x.source == "fact"]
    assert sum(x.kind == "question" for x in fact) >= 300 and sum(x.kind == "number" for x in fact) >= 200
    assert all(any(c.isdigit() for c in x.query) for x in fact if x.kind == "number")
    assert {x.site for x in fact} == {"it", "en"}


@pytest.mark.parametrize(("text", "lang", "found"), [
    ("Nella partita a 4 giocatori, 3 Beute.", "it", ("3", "beute", ("4",))),
    ("| PARTITA A 4 GIOCATORI | 3 Beute |", "it", ("3", "beute", ("4",))),  # a table's row is one sentence
    ("Give each player 4 Flasks.", "en", ("4", "flasks", ())),
    ("In Step 2 of Base Game Setup", "en", None),  # a label, not a count
    ("In a 2 or 3 player game", "en", None),  # a player count counts players
])
def test_facts(text, lang, found):
    got = list(facts(text, lang))
    assert (got[0] if got else None) == found


def test_generated_set_is_large_and_covers_every_kind_and_source(lookups):
    assert len(lookups) >= 300
    assert {x.kind for x in lookups} == set(KINDS) and {x.source for x in lookups} == set(SOURCES)
    assert len({(x.site, x.query.lower()) for x in lookups}) == len(lookups)  # one lookup per site and query


def test_every_glossary_form_is_looked_up_on_both_sites(lookups, site):
    queries = {(x.site, x.query.lower()) for x in lookups}
    for term in site.glossary:
        for forms in term.forms.values():
            for form in forms:
                assert ("it", form.lower()) in queries and ("en", form.lower()) in queries, form


def test_right_pages_are_pages_of_the_site(lookups, site):
    chapters = {f"{g}/{c.id}/" for g, game in site.games.items() for c in game.chapters}
    cards = {f"cards/{g}/" for g in site.get(CARD_SETS)}
    quickrefs = {f"{g}/quickref/" for g in site.games}
    for lookup in lookups:
        assert lookup.right and set(lookup.right) <= chapters | cards | quickrefs | {"glossary/"}, lookup


@pytest.mark.parametrize(("term", "section"), [
    ("event-toxicity", "events.toxicity"),
    ("grey-flask", "components.grey-flasks"),  # its heading is the term
    ("exocytosis", "spots.exocytosis"),
    ("mitochondria", "spots.mitochondria"),
    ("free-ribosome", "spots.free-ribosome"),
    ("first-player-marker", "components.first-player-marker"),
    ("player-marker", "setup.player-pieces"),  # not "First Player Marker": a longer form of another term
])
def test_defining_sections(site, term, section):
    assert section in [s for _, s in defining_sections(site.games, site.glossary)[term]]
