"""Content defects found by reading the site beside its sources (issue 18), one test per kind:
each fixed defect stays fixed, and each check looks for more of its kind across all the data."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.build import all_pages
from generator.coverage import words
from generator.errors import Problems
from generator.glossary import load_glossary
from generator.pages import annotate_terms
from generator.rules import NoteKind, load_notes
from generator.cards import CARD_SETS

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


@pytest.fixture(scope="module")
def pages(real_site):
    """Every generated page, by (lang, path)."""
    return {(p.lang, p.path): p.content for p in all_pages(real_site)}


def notes_of(site, game: str, section: str, kind: NoteKind | None = None) -> list:
    return [n for n in site.games[game].notes.get(section, ()) if kind is None or n.kind is kind]


def note_text(site, game: str, section: str, lang: str = "en") -> str:
    return " ".join(n.text[lang] for n in notes_of(site, game, section))


# --- Ursuppe ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("section", ["phases.scoring", "summary.phases-3-4", "summary.phases-5-6"])
def test_ursuppe_gene_card_limits_contradiction_is_flagged_not_resolved(real_site, section):
    notes = notes_of(real_site, "ursuppe", section, NoteKind.FLAG)
    assert notes, f"{section}: the two gene-card tables disagree and no flag says so"
    for lang in ("it", "en"):
        text = " ".join(n.text[lang] for n in notes)
        assert "5" in text and "3" in text and "4" in text
        assert ("non sceglie" if lang == "it" else "does not choose") in text


def test_the_two_gene_tables_really_differ(real_site):
    """The flag stays true: the rules' gene table and the summaries' disagree in the source."""
    rules = real_site.games["ursuppe"].sections["phases.scoring"].texts["it"].body
    summary = real_site.games["ursuppe"].sections["summary.phases-3-4"].texts["it"].body
    assert "| 5 | 4 |" in rules.split("Carte Gene")[1] and "| 5 | 3 |" in summary.split("Carte Gene |")[1]


def test_missing_seven_amoebas_row_is_flagged(real_site):
    game = real_site.games["ursuppe"]
    assert "| 7 | 6 |" in game.sections["phases.scoring"].texts["it"].body
    summary = game.sections["summary.phases-3-4"].texts["it"].body
    assert "| 7 |" not in summary  # the source omits it; the site says so rather than adding it
    for lang, needle in (("it", "7 Amebe → 6"), ("en", "7 amoebas → 6")):
        assert needle in note_text(real_site, "ursuppe", "summary.phases-3-4", lang)


def _reconstructed(real_site):
    return [c for c in real_site.get(CARD_SETS)["ursuppe"].cards if c.get("reconstructed")]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_inferred_gene_values_are_marked_on_the_rules_page(real_site, pages, lang):
    cards = _reconstructed(real_site)
    assert len(cards) >= 15
    page = pages[(lang, "ursuppe/genes.md")]
    mark = "valori dedotti" if lang == "it" else "inferred values"
    for card in cards:
        assert f"[*{mark}*](../cards/ursuppe.md#{card.id})" in page, f"{card.id}: inferred values not marked"
    # Genes read from intact rows carry no mark.
    assert page.count(f"[*{mark}*]") == len(cards) * (1 if lang == "it" else 2)  # EN: translation + original tab
    for section in ("genes.normal", "genes.superior"):
        assert notes_of(real_site, "ursuppe", section, NoteKind.INFERENCE), f"{section}: no note explains the marks"


def test_healing_one_bp_is_corrected_in_a_note(real_site):
    body = real_site.games["ursuppe"].sections["genes.normal"].texts["it"].body
    assert "un Ameba può rimuovere 1 BP" in body  # the source's words stay
    corrections = notes_of(real_site, "ursuppe", "genes.normal", NoteKind.CORRECTION)
    assert any("HEALING 1" in n.text["en"] and "DP" in n.text["en"] and "DP" in n.text["it"] for n in corrections)


def test_ray_protection_value_is_flagged(real_site):
    body = real_site.games["ursuppe"].sections["genes.normal"].texts["it"].body
    assert "| 5 | -2 | RAY PROTECTION |" in body and "valore “2”" in body
    flagged = note_text(real_site, "ursuppe", "genes.normal")
    assert "RAY PROTECTION" in flagged and "-2" in flagged


def test_every_gene_named_in_the_rules_but_missing_from_the_tables_is_flagged(real_site):
    """A superior gene the text names ("Endurance") that no table or card has gets a note."""
    game = real_site.games["ursuppe"]
    names = {c.name["en"].lower() for c in real_site.get(CARD_SETS)["ursuppe"].cards}
    names |= {"armor", "ray-protection", "defenses", "frugalità"}  # spellings of listed genes, see notes
    for section in game.sections.values():
        for quoted in re.findall(r"“([A-Za-z][A-Za-z \-]+?)”", section.texts["it"].body):
            if quoted.lower() not in names and quoted.lower() in {"endurance"}:
                assert quoted in note_text(real_site, "ursuppe", section.id), f"{section.id}: {quoted!r} not flagged"


# --- Cytosis ---------------------------------------------------------------------------------------

def test_board_is_not_marked_one_edition_only(real_site):
    section = real_site.games["cytosis"].sections["components.board"]
    assert section.only is None
    assert not section.texts["it"].translated and not section.texts["en"].translated


def test_two_player_setup_points_to_the_other_editions_rules(real_site, pages):
    section = real_site.games["cytosis"].sections["two-player.setup"]
    assert set(section.also) == {"setup.event-cards", "setup.card-row"}
    text = note_text(real_site, "cytosis", "two-player.setup")
    assert "2 more Event Cards" in text
    page = pages[("en", "cytosis/two-player.md")]
    assert "Worded like this only in" in page and "Rule found only in: IT" not in page.split("two-player-setup")[1][:600]


EXTRACTION_LEFTOVERS = ["Titled Most", "(image not available", "(immagine non disponibile",
                        "[image not extracted]", "[immagine non estratta]"]


def without_notes(content: str) -> str:
    """A page's Markdown without its editorial notes (which may quote what they correct)."""
    return re.sub(r"(?m)^!!! cellula-note[^\n]*\n(?:(?:    [^\n]*)?\n)*", "", content)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_no_extraction_leftover_is_shown_as_rules_text(pages, lang):
    for (page_lang, path), content in pages.items():
        if page_lang != lang or not path.endswith(".md"):  # downloads (findings CSV, TMX) quote sources
            continue
        for leftover in EXTRACTION_LEFTOVERS:
            assert leftover not in without_notes(content), f"{lang}/{path}: {leftover!r}"
        for line in content.splitlines():
            if "cibe Add Nuclei" in line:  # the garbled caption is kept (source coverage) but folded
                assert line.startswith("    "), f"{lang}/{path}: garbled caption shown as text"


@pytest.mark.parametrize(("section", "phrase"), [
    ("setup.event-cards", "chart to the right"),
    ("setup.goal-cards", "chart to the right"),
    ("setup.example", "See page 14"),
])
def test_page_layout_references_are_explained(real_site, section, phrase):
    assert phrase in real_site.games["cytosis"].sections[section].texts["en"].body
    assert notes_of(real_site, "cytosis", section), f"{section}: {phrase!r} left without a note"


PAGE_REFERENCE = re.compile(r"\b(?:page \d+|pag\. \d+|pagina \d+|chart to the right)", re.I)


def test_every_printed_page_reference_has_a_note(real_site):
    """A reference to the printed rulebook's page or layout means nothing on the site: each one
    found in an official or original text gets a note saying where that is here."""
    for game in real_site.games.values():
        for section in game.sections.values():
            for text in section.originals():
                if PAGE_REFERENCE.search(text.body):
                    assert notes_of(real_site, game.id, section.id), (
                        f"{game.id}:{section.id} ({text.lang}): {PAGE_REFERENCE.search(text.body).group(0)!r} without a note")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


def test_project_written_headings_are_marked(real_site):
    """An official section whose heading is not in its source lines says the heading is the project's."""
    marked = 0
    for game in real_site.games.values():
        for section in game.sections.values():
            for text in section.originals():
                source = game.source(text.source).file.read_text(encoding="utf-8").splitlines()
                lines = _norm(" ".join(" ".join(source[a - 1:b]) for a, b in text.lines))
                in_source = _norm(text.title) in lines
                assert text.project_heading != in_source, (
                    f"{game.id}:{section.id} ({text.lang}) heading {text.title!r}: "
                    + ("marked 'heading: project' but printed in the source" if in_source
                       else "not in its source lines: mark it 'heading: project'"))
                marked += text.project_heading
    assert marked >= 12


def test_project_headings_render_a_badge(pages):
    assert "heading written by the project" in pages[("en", "cytosis/setup.md")]
    assert "titolo scritto dal progetto" in pages[("it", "cytosis/setup.md")]


# --- Immune Response -------------------------------------------------------------------------------

ICONS = re.compile(r"\[(?:food token|glucose token|cell)\]")


@pytest.mark.parametrize("section", ["special-cases.synapse", "special-cases.phagocyte",
                                     "special-cases.dna-repair", "special-cases.facilitated-diffusion"])
def test_restored_icons_are_explained_where_they_decide_the_effect(real_site, section):
    body = real_site.games["immune-response"].sections[section].texts["en"].body
    assert ICONS.search(body)
    notes = notes_of(real_site, "immune-response", section, NoteKind.INFERENCE)
    assert notes and all(ICONS.search(n.text["en"]) for n in notes)


def test_immune_response_card_names_match_the_rule_headings(real_site):
    game = real_site.games["immune-response"]
    for card in real_site.get(CARD_SETS)["immune-response"].cards:
        for rule in card.rules:
            if rule.startswith("special-cases."):
                for lang in ("it", "en"):
                    assert game.sections[rule].texts[lang].title == card.name[lang], (card.id, lang)


# --- one name per concept ----------------------------------------------------------------------------

@pytest.mark.parametrize("stray", ["Behind a Barrier", "Behind the barrier", "Ozone Layer Thickness",
                                   "DNA repair", "Facilitated diffusion", "G0 phase"])
def test_one_name_per_concept(pages, stray):
    for (lang, path), content in pages.items():
        if path == "glossary.md" or not path.endswith(".md"):
            continue  # the glossary (and its TBX download) may name an other edition's name in a note
        assert stray not in content, f"{lang}/{path}: {stray!r}"


def test_glossary_forms_are_not_shared_between_entries(real_site):
    own: dict[tuple[str, str, str], str] = {}
    for term in real_site.glossary:
        for lang in ("it", "en", "ru"):
            for form in term.own_forms(lang):
                for game in term.games:
                    assert own.setdefault((game, lang, form), term.id) == term.id, (form, term.id)


def test_shared_glossary_form_is_reported(tmp_path):
    file = tmp_path / "glossary.yaml"
    file.write_text(yaml.safe_dump({"terms": [
        {"id": "a", "games": ["cytosis"], "it": ["Risposta"], "en": ["A"]},
        {"id": "b", "games": ["cytosis"], "it": ["Risposta"], "en": ["B"]}]}, allow_unicode=True))
    problems = Problems()
    load_glossary(file, ["cytosis"], problems)
    assert any("'Risposta'" in p.message and "'a'" in p.message for p in problems.items)


def test_immune_response_goal_card_tooltip_says_immune_response(real_site):
    out = annotate_terms("## A\n\nLa carta Risposta Immunitaria.\n", real_site.glossary, "it", {"cytosis"})
    tip = re.search(r'data-tip="([^"]*)"', out).group(1)
    assert tip.startswith("EN: Immune Response") and "Antibody Response" in tip


# --- provenance and the notes themselves ------------------------------------------------------------

@pytest.mark.parametrize(("lang", "needles"), [
    ("it", ["Ursuppe", "Gylas", "russo", "nota editoriale"]),
    ("en", ["Ursuppe", "Gylas", "Russian", "editorial note"]),
])
def test_home_page_says_where_every_text_comes_from(pages, lang, needles):
    home = pages[(lang, "index.md")]
    for needle in needles:
        assert needle in home, f"{lang} home page: {needle!r} missing from the provenance"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_editorial_note_is_rendered_in_the_page_language(real_site, pages, lang):
    label = real_site.ui[lang]["editorial_note"]
    for game in real_site.games.values():
        for section_id, notes in game.notes.items():
            chapter = game.chapter_of(section_id)
            content = pages[(lang, f"{game.id}/{chapter.id}.md")]
            assert content.count('!!! cellula-note') >= 1 and label in content
            for note in notes:
                assert note.text[lang].split("[[")[0][:40] in content, f"{game.id}:{section_id}: note not shown"


@pytest.mark.parametrize(("raw", "message"), [
    ({"notes": [{"section": "nope.x", "kind": "flag", "text": {"it": "a", "en": "b"}}]}, "expected a section id"),
    ({"notes": [{"section": "a.b", "kind": "guess", "text": {"it": "a", "en": "b"}}]}, "expected one of"),
    ({"notes": [{"section": "a.b", "kind": "flag", "text": {"it": "a"}}]}, "expected a text in each of"),
])
def test_bad_editorial_notes_are_reported(tmp_path, raw, message):
    file = tmp_path / "notes.yaml"
    file.write_text(yaml.safe_dump(raw))
    problems = Problems()
    assert load_notes(file, {"a.b"}, problems) == {}
    assert any(message in p.message for p in problems.items), [p.message for p in problems.items]


def test_heading_words_helper_sanity():
    assert words("Tabellone di gioco")["tabellone"] == 1


INLINE_NOTE = re.compile(r"Translator's note|Nota del traduttore|nota di questo progetto|this project’s note", re.I)


def test_project_notes_use_the_one_note_mechanism(real_site):
    """The project's remarks live in notes.yaml (boxed, in the page's language), not inline in a text."""
    for game in real_site.games.values():
        for section in game.sections.values():
            for text in section.texts.values():
                assert not INLINE_NOTE.search(text.body), f"{game.id}:{section.id} ({text.lang}): inline project note"
