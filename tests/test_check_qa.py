"""The translation-QA checks on real libraries, concept by concept: Hunspell spelling (spylls over
Debian's dictionaries) with the project's word list, one-letter variants (rapidfuzz), colours, names
and spelled-out numbers between aligned segments, one-sided clauses, translate-toolkit's filters."""
from __future__ import annotations

import pytest

from generator.check import qa
from generator.check.bench import SYNTH_GAME, load_corpus
from generator.check.checks import align_section, matchers_for, run_checks
from generator.check.model import SectionPair


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def _run(corpus, it: str, en: str) -> list:
    pairs, glossary, broader, implied, words = corpus
    pair = SectionPair(SYNTH_GAME, "t.one", it, en, "t")
    return run_checks([pair], glossary, SYNTH_GAME, broader, implied, qa.project_words(glossary, [], words))


def _checks(findings) -> set[str]:
    return {f.check.value for f in findings}


@pytest.mark.parametrize("lang, word, known", [
    ("it", "giocatore", True), ("it", "gioctore", False), ("en", "player", True), ("en", "plyer", False),
    ("ru", "клетка", True), ("ru", "клеткаа", False),
])
def test_hunspell_dictionaries_know_the_languages(lang, word, known):
    assert qa.known(word, lang) is known


def test_missing_dictionary_is_a_clear_error(monkeypatch, tmp_path):
    from generator.errors import DataError
    monkeypatch.setattr(qa, "HUNSPELL_DIR", tmp_path)
    qa.dictionary.cache_clear()
    try:
        with pytest.raises(DataError, match="ensure_debian.sh hunspell"):
            qa.dictionary("it")
    finally:
        monkeypatch.undo()
        qa.dictionary.cache_clear()


@pytest.mark.parametrize("it, en, expected", [
    ("## Turno\nIl giocatore piazzà la Beuta sul tabellone.", "## Turn\nThe player places the Flask on the board.", {"SPELLING"}),
    ("## Turno\nIl giocatore piazza la Beuta nell'area del tabellone.", "## Turn\nThe player places the Flask in the board's area.", set()),
    ("## Turno\nIl giocatore piazza la Beuta sul tabellone.", "## Turn\nThe player places the Flask on the bord.", {"SPELLING"}),
    ("## Turno\nIl giocatore piazza la Beutta sul tabellone.", "## Turn\nThe player places the Flask on the board.", {"TERM_TYPO"}),
    ("## Crediti\nUn grazie a Zorbalik per le prove.", "## Credits\nThanks to Zorbalik for the tests.", set()),
])
def test_spelling_and_one_letter_variants(corpus, it, en, expected):
    found = _checks(_run(corpus, it, en)) & {"SPELLING", "TERM_TYPO"}
    assert found == expected


def test_project_word_list_silences_a_word():
    words = qa.project_words([], ["Cytosis"], {"en": {"unchosen"}})
    assert "cytosis" in words["it"] and "unchosen" in words["en"]


@pytest.mark.parametrize("text, lang, colours", [
    ("3 Proteine rosse e 2 Lipidi gialli", "it", {"red", "yellow"}),
    ("Beute Grigie", "it", {"grey"}), ("segnalini marrone chiaro", "it", {"brown"}),
    ("black mRNA and grey flasks", "en", {"black", "grey"}), ("the rosso", "en", set()),
    ("Nerina rossetto", "it", set()),
])
def test_colour_words(text, lang, colours):
    assert set(qa.colours(text, lang)) == colours


@pytest.mark.parametrize("it, en, expected", [
    ("## Risorse\nPrendi 2 Proteine rosse.", "## Resources\nTake 2 red Proteins.", set()),
    ("## Risorse\nPrendi 2 Proteine rosse.", "## Resources\nTake 2 green Proteins.", {"COLOUR_MISMATCH"}),
    ("## Crediti\nIdea di Zorbalik.", "## Credits\nIdea by Zorbalak.", {"NAME_MISMATCH"}),
    ("## Crediti\nIdea di Zorbalik.", "## Credits\nIdea by Zorbalik.", set()),
])
def test_colours_and_names_between_aligned_segments(corpus, it, en, expected):
    assert _checks(_run(corpus, it, en)) & {"COLOUR_MISMATCH", "NAME_MISMATCH"} == expected


def test_spelled_number_is_compared_inside_its_aligned_unit(corpus):
    swapped = _run(corpus, "## Pesca\nPesca tre Carte Evento.\n\nScarta due Carte Obiettivo.",
                   "## Draw\nDraw two Event Cards.\n\nDiscard three Goal Cards.")
    assert "NUMWORD_MISMATCH" in _checks(swapped) and "NUM_MISMATCH" not in _checks(swapped)
    same = _run(corpus, "## Pesca\nPesca tre Carte Evento.", "## Draw\nDraw 3 Event Cards.")
    assert not _checks(same) & {"NUMWORD_MISMATCH", "NUM_MISMATCH"}


@pytest.mark.parametrize("it, en, expected", [
    ("## Fine\nAlla fine del round, scarta le Carte Evento.",
     "## End\nAt the end of the round, discard the Event Cards (keep every Goal Card and the Health Track).",
     {"CLAUSE_ONLY"}),
    ("## Fine\nAlla fine del round, scarta le Carte Evento (tieni ogni Carta Obiettivo).",
     "## End\nAt the end of the round, discard the Event Cards (keep every Goal Card).", set()),
    ("## Fine\nAlla fine del round, scarta le Carte Evento. Poi tieni ogni Carta Obiettivo.",
     "## End\nAt the end of the round, discard the Event Cards and keep every Goal Card.", set()),
])
def test_one_sided_clauses(corpus, it, en, expected):
    assert _checks(_run(corpus, it, en)) & {"CLAUSE_ONLY"} == expected


@pytest.mark.parametrize("it, en, expected", [
    ("## Dado\nTira il dado (uno per turno.", "## Die\nRoll the die (one each turn).", {"QA_BRACKETS"}),
    ("## Dado\nTira il dado (uno per turno).", "## Die\nRoll the die, one each turn.", set()),
    ("## Dado\nTira il il dado.", "## Die\nRoll the die.", {"QA_REPEATED_WORD"}),
    ("## Dado\nTira il dado.", "## Die\nRoll the the die.", {"QA_REPEATED_WORD"}),
    ("## Dado\nTira il  dado.", "## Die\nRoll the die.", {"QA_DOUBLE_SPACE"}),
])
def test_translate_toolkit_filters(corpus, it, en, expected):
    assert _checks(_run(corpus, it, en)) & {"QA_BRACKETS", "QA_REPEATED_WORD", "QA_DOUBLE_SPACE"} == expected


def test_qa_findings_carry_the_aligned_texts(corpus):
    pairs, glossary, *_ = corpus
    section = align_section(SectionPair(SYNTH_GAME, "t.one", "## Dado\nTira il il dado.", "## Die\nRoll the die.", "t"),
                            matchers_for(glossary, SYNTH_GAME))
    [finding] = qa.check_pofilters(section)
    assert finding.it == "Tira il il dado." and finding.en == "Roll the die."
    assert finding.evidence["filter"] == "doublewords"


def test_russian_original_is_spelled_as_hunspell_and_the_word_list_know(real_site):
    """The Russian Immune Response rules have no other edition: Hunspell's ru_RU and the project's
    word list (glossary, game names, data/editions/words.yaml) check them on their own."""
    from generator.check.editions import spelling_words
    from generator.errors import Problems
    words = spelling_words(real_site, real_site.data_dir, Problems())
    assert qa.original_spelling(real_site.games["immune-response"], "ru", words["ru"]) == []


def test_russian_misspelling_is_found(real_site):
    from dataclasses import replace
    game = real_site.games["immune-response"]
    section_id, section = next((k, s) for k, s in game.sections.items() if "ru" in s.texts and not s.texts["ru"].translated)
    broken = replace(section.texts["ru"], body=section.texts["ru"].body + "\n\nКлеткаа делится.")
    game = replace(game, sections={**game.sections, section_id: replace(section, texts={**section.texts, "ru": broken})})
    assert (section_id, "Клеткаа") in qa.original_spelling(game, "ru", set())


@pytest.mark.parametrize("lang, words", [
    ("it", ["giocatore", "gioctore", "nell'area", "dell'azione", "nell'aera", "Beuta"]),
    ("en", ["player", "plyer", "board's", "Flask"]),
])
def test_remembered_answers_are_the_dictionarys(monkeypatch, tmp_path, lang, words):
    """The answers kept between processes (qa.SPELLING_CACHE) are the dictionary's own, elided Italian
    forms included; a later process reads them without loading the dictionary, and a damaged file is
    asked again."""
    monkeypatch.setattr(qa, "SPELLING_CACHE", tmp_path)
    first = qa._Answers(lang)
    said = {word: first(word) for word in words}
    assert said == {word: bool(qa.dictionary(lang).lookup(word)) for word in words}
    first.save()
    (file,) = tmp_path.glob(f"{lang}-*.json")
    later = qa._Answers(lang)
    assert later.known == said
    monkeypatch.setattr(qa, "dictionary", lambda _lang: pytest.fail("a remembered answer loaded the dictionary"))
    assert {word: later(word) for word in words} == said
    file.write_text("{not json", encoding="utf-8")
    assert qa._Answers(lang).known == {}
