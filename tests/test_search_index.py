"""The search index shaping (generator/search_index.py) and the rule numbers it and the pages show."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.rules import rule_numbers
from generator.errors import DataError
from generator.paths import DATA_DIR
from generator.rules import SITE_LANGUAGES
from generator.search_index import PAGE_BOOSTS, PageKind, clean_text, doc_lang, joined, page_kind_of, split_index
from generator.search_paraphrases import PARAPHRASES, counted_words, load_paraphrases

GOLDEN = Path(__file__).parent / "golden" / "rule_numbers.json"
PARA = load_paraphrases(DATA_DIR, SITE_LANGUAGES)
REGEN = os.environ.get("CELLULA_REGEN_GOLDEN") == "1"
CHAPTERS = {"cytosis": {"setup", "spots", "scoring", "cards", "about"}, "ursuppe": {"phases"}}


@pytest.mark.parametrize(("location", "kind"), [
    ("", PageKind.HOME),
    ("en/", PageKind.HOME),
    ("cytosis/", PageKind.HOME),
    ("cytosis/setup/#setup-player-pieces", PageKind.RULES),
    ("en/cytosis/setup/", PageKind.RULES),
    ("cytosis/setup.html#setup-player-pieces", PageKind.RULES),  # offline build
    ("cytosis/quickref/", PageKind.QUICKREF),
    ("en/cytosis/compare/setup/#x", PageKind.COMPARE),
    ("cytosis/differences/#x", PageKind.DIFFERENCES),
    ("cytosis/puzzles/grey-rush-2e/", PageKind.PUZZLES),
    ("cytosis/puzzles/index.html", PageKind.PUZZLES),
    ("cards/cytosis/#c1", PageKind.CARDS),
    ("en/glossary/#flask", PageKind.GLOSSARY),
    ("cytosis/benchmark/", PageKind.OTHER),
    ("cytosis/cards/#cards-hormones", PageKind.RULES),  # the rules chapter called "cards", not the card database
    ("en/cytosis/about/#about-designer-letter", PageKind.ABOUT),
])
def test_page_kind(location, kind):
    assert page_kind_of(location, CHAPTERS) is kind


def test_rule_pages_rank_above_compare_differences_puzzle_about_and_card_pages():
    for lower in (PageKind.COMPARE, PageKind.DIFFERENCES, PageKind.PUZZLES, PageKind.CARDS, PageKind.ABOUT,
                  PageKind.OTHER):
        assert PAGE_BOOSTS[PageKind.RULES] > PAGE_BOOSTS[lower]
    assert PAGE_BOOSTS[PageKind.QUICKREF] >= PAGE_BOOSTS[PageKind.RULES]


@pytest.mark.parametrize(("location", "lang"), [("", "it"), ("cytosis/", "it"), ("en/", "en"), ("en/cytosis/x/", "en")])
def test_doc_lang(location, lang):
    assert doc_lang(location) == lang


@pytest.mark.parametrize(("location", "lang"), [("", "it"), ("en/x/", "en"), ("xx/", "xx"), ("xx#top", "xx"),
                                                ("xxl/", "it"), ("cytosis/en/", "it")])
def test_doc_lang_of_a_third_language(location, lang):
    """A UI language added in mkdocs.yml gets its own search documents, not the default's."""
    assert doc_lang(location, ("it", "en", "xx")) == lang


CHROME = ("Regolamento ufficiale italiano, 1ª edizione", "⇄", "≠")
FORMS = {"flask", "grey flask", "atp"}


def test_clean_text_moves_counterpart_terms_out_of_the_snippet():
    text, terms = clean_text("<p>Piazza le 2 Beute Grigie.</p> Flask · Grey Flask · ATP", CHROME, FORMS)
    assert text == "<p>Piazza le 2 Beute Grigie.</p>"
    assert terms == "Flask · Grey Flask · ATP"


def test_clean_text_keeps_a_tail_that_is_not_all_glossary_forms():
    text, terms = clean_text("<p>Rule.</p> Flask · something else", CHROME, FORMS)
    assert terms == "" and text.endswith("Flask · something else")


def test_clean_text_drops_provenance_line_internal_keys_and_hashes():
    raw = ("<p>Regolamento ufficiale italiano, 1ª edizione ⇄ Confronto IT/EN · ≠ 4 differenze</p> "
           "<p>Leggi · <code>setup.player-pieces</code> · cambio <code>88aefdd681eb</code>Motivo: testo "
           "<code>worker-placement</code>: Piazzamento ≠ worker placement <code>ATP</code> "
           "<code>python -m solver bench</code></p>")
    text, _ = clean_text(raw, CHROME, FORMS)
    assert "Regolamento" not in text and "setup.player-pieces" not in text and "88aefdd681eb" not in text
    assert "worker-placement</code>" not in text and "Piazzamento ≠ worker placement" in text
    assert "<code>ATP</code>" in text and "<code>python -m solver bench</code>" in text  # not keys: they stay


def test_clean_text_keeps_a_leading_paragraph_of_rule_text():
    text, _ = clean_text("<p>Ogni giocatore riceve 4 beute.</p>", CHROME, FORMS)
    assert text == "<p>Ogni giocatore riceve 4 beute.</p>"


@pytest.fixture(scope="module")
def unsolved_site():
    """The site's data with its puzzles loaded but not solved: the index shaping does not need them."""
    from generator.site import load_site
    return load_site(solve_puzzles=False)


def test_joined_forms_leave_stop_words_and_punctuation_out():
    assert joined("Tabellone per 2 giocatori", frozenset({"per"})) == "tabellone2giocatori"
    assert joined("Grey Flask", frozenset()) == "greyflask"
    assert joined("Tossicità", frozenset()) == "tossicità"


def test_split_index_one_index_per_language(unsolved_site):
    combined = {"config": {"lang": ["it", "en", "ru"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"],
                           "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}},
                "docs": [{"location": "cytosis/setup/", "title": "Preparazione", "text": ""},
                         {"location": "cytosis/compare/setup/", "title": "Preparazione", "text": ""},
                         {"location": "en/cytosis/setup/", "title": "Game setup", "text": ""}]}
    out = split_index(combined, unsolved_site, ["a", "il"], PARA)
    assert [d["location"] for d in out["it"]["docs"]] == ["cytosis/setup/", "cytosis/compare/setup/"]
    assert [d["location"] for d in out["en"]["docs"]] == ["en/cytosis/setup/"]
    assert out["it"]["docs"][0]["boost"] > out["it"]["docs"][1]["boost"]
    fields = out["en"]["config"]["fields"]
    assert fields["title"]["boost"] > fields["terms"]["boost"] > fields["text"]["boost"]
    assert out["it"]["config"]["cellula_stopwords"] == ["a", "il"]
    assert "quante" in out["it"]["config"]["cellula_paraphrases"]["counts"]
    assert "how many" in out["en"]["config"]["cellula_paraphrases"]["counts"]


def test_split_index_gives_defining_sections_their_terms_and_cost_rules_their_question_words(unsolved_site):
    combined = {"config": {"lang": ["it", "en", "ru"], "separator": "[\\s\\-]+", "pipeline": ["stemmer"],
                           "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}},
                "docs": [{"location": "cytosis/events/#events-toxicity", "title": "TOSSICITA'", "text": "<p>...</p>"},
                         {"location": "en/cytosis/gameplay/#gameplay-grey-flasks", "title": "GREY FLASKS",
                          "text": "<p>they may pay 4 <strong>ATP</strong> to take a Grey Flask</p>"},
                         {"location": "cytosis/puzzles/grey-rush-2e/", "title": "x", "text": "<p>pay 4 ATP</p>"}]}
    out = split_index(combined, unsolved_site, [], PARA)
    toxicity, grey, puzzle = out["it"]["docs"][0], out["en"]["docs"][0], out["it"]["docs"][1]
    assert {"tossicità", "toxicity"} <= set(toxicity["defines"].split())  # every language's forms
    assert "cost" in grey["asks"].split() and "costa" in grey["asks"].split()
    assert "asks" not in puzzle and "defines" not in puzzle  # rule sections only
    fields = out["it"]["config"]["fields"]
    assert fields["defines"]["boost"] > fields["title"]["boost"]
    forms = {form for form, _ in out["en"]["config"]["cellula_glossary"]}
    assert "Grey Flask" in forms and "Beuta Grigia" not in forms  # the reader's language only


def test_rule_numbers_are_pinned(real_site):
    """Rule numbers are shown and linked: a change must be deliberate (CELLULA_REGEN_GOLDEN=1)."""
    numbers = {game_id: rule_numbers(game) for game_id, game in sorted(real_site.games.items())}
    if REGEN:
        GOLDEN.write_text(json.dumps(numbers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert numbers == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_rule_numbers_are_unique_and_short(real_site):
    for game in real_site.games.values():
        numbers = list(rule_numbers(game).values())
        assert len(numbers) == len(set(numbers)) == len(game.sections)
        assert all(len(n) <= 5 for n in numbers)


def test_hidden_fields_go_on_the_section_document_that_shows_text(unsolved_site):
    """A section heading followed at once by a subheading is an empty document: the section's
    defining terms go on the next document of the page that shows text, never on the empty one."""
    combined = {"config": {"lang": ["it", "en"], "separator": "[\\s\\-]+", "pipeline": ["stemmer"],
                           "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}},
                "docs": [{"location": "cytosis/events/", "title": "Carte Evento", "text": ""},
                         {"location": "cytosis/events/#events-toxicity", "title": "TOSSICITA'", "text": ""},
                         {"location": "cytosis/events/#sub", "title": "Sub", "text": "<p>Se ne possiede 5 o più ne perde 1.</p>"}]}
    docs = split_index(combined, unsolved_site, [], PARA)["it"]["docs"]
    assert "defines" not in docs[1] and "counts" not in docs[1]
    assert "toxicity" in docs[2]["defines"].split()


@pytest.mark.parametrize(("text", "lang", "words"), [
    ("PARTITA A 2 O 3 GIOCATORI | 4 Beute", "it", {"2giocatori", "3giocatori", "4beute", "beute", "giocatori"}),
    ("4 PLAYER GAME | 3 Flasks", "en", {"4player", "4playergame", "3flasks", "flasks"}),
    ("according to the number of players", "en", {"players"}),
    ("they may pay 4 ATP to take a Grey Flask", "en", {"4atp", "atp"}),
    ("Nessun numero qui.", "it", set()),
])
def test_counted_words(text, lang, words):
    assert words <= set(counted_words(text, PARA[lang], frozenset({"a", "of", "the", "to"})).split())
    if not words:
        assert counted_words(text, PARA[lang], frozenset()) == ""


def test_paraphrase_table_covers_every_site_language():
    assert set(PARA) == set(SITE_LANGUAGES)
    for part in PARA.values():
        assert part.counts and part.frames and part.players and part.numbers


@pytest.mark.parametrize(("text", "message"), [
    ("languages: {it: {frames: [x], counts: [y], numbers: {due: 2}, players: [g], phrases: []}}", "'en'"),
    ("languages: []", "expected a mapping of site languages"),
    ("languages:\n  it: {frames: [], counts: [y], numbers: {due: 2}, players: [g]}\n"
     "  en: {frames: [x], counts: [y], numbers: {two: 2}, players: [p]}", "languages.it.frames"),
    ("languages:\n  it: {frames: [x], counts: [y], numbers: {due: zero}, players: [g]}\n"
     "  en: {frames: [x], counts: [y], numbers: {two: 2}, players: [p]}", "languages.it.numbers"),
    ("languages:\n  it: {frames: [x], counts: [y], numbers: {due: 2}, players: [g], phrases: [{asks: ['in {n}'], means: x}]}\n"
     "  en: {frames: [x], counts: [y], numbers: {two: 2}, players: [p]}", "{n}"),
])
def test_bad_paraphrase_table_names_field_and_value(tmp_path, text, message):
    (tmp_path / PARAPHRASES).parent.mkdir(parents=True)
    (tmp_path / PARAPHRASES).write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_paraphrases(tmp_path, ("it", "en"))
    assert message in str(err.value) and "paraphrases.yaml" in str(err.value)


def test_a_data_set_without_the_table_is_searched_without_paraphrases(tmp_path):
    """A minimal data set (a test's, a new game's first steps) has no paraphrase table: every site
    language gets an empty one, so the index is built (it was a KeyError in the hostile build)."""
    table = load_paraphrases(tmp_path, ("it", "en"))
    assert set(table) == {"it", "en"} and all(not p.phrases and not p.numbers for p in table.values())
    assert counted_words("quante beute con 3 giocatori", table["it"], frozenset()) is not None
