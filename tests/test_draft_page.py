"""The "Italian 2nd edition draft" page: every English 2nd-edition paragraph in reading order, from
the official Italian 1st edition where the rule did not change, from the project's translation where
it changed or is new, in English (flagged) where no translation exists yet; each labelled."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.check import draft, qa
from generator.check.align import Pair, Segment, SegmentKind, plain
from generator.check.checks import align_section, matchers_for
from generator.check.model import AlignedSection
from generator.check.draft import DraftSource, DraftTranslation
from generator.check.editions import official_pairs
from generator.check.numbers import IGNORED, extract_numbers
from generator.check.units import UnitState, game_units, step_mismatches
from generator.errors import Problems
from generator.rules import SITE_LANGUAGES


@pytest.fixture(scope="module")
def units(real_site):
    return game_units(real_site.games["cytosis"], real_site.glossary, real_site.editions["cytosis"].findings)


@pytest.fixture(scope="module")
def paragraphs(real_site, units):
    return draft.draft_paragraphs(units, real_site.draft_translations.get("cytosis", []))


def test_every_english_unit_is_in_the_draft_once(units, paragraphs):
    assert [p.unit for p in paragraphs] == [u for u in units if u.en is not None]


def test_sources_follow_the_unit_state(paragraphs, real_site):
    own = {t.it for t in real_site.draft_translations["cytosis"]}
    for p in paragraphs:
        if p.unit.state is UnitState.UNCHANGED:
            assert p.source is DraftSource.OFFICIAL_IT and p.text == p.unit.it
        elif p.source is DraftSource.ENGLISH:
            assert p.text == p.unit.en
        else:
            assert p.source is DraftSource.PROJECT and p.unit.state is not UnitState.UNCHANGED
            assert p.text == p.unit.translation or p.text in own
    assert {DraftSource.OFFICIAL_IT, DraftSource.PROJECT} <= {p.source for p in paragraphs}


def test_changed_paragraph_without_translation_stays_english_and_flagged(units):
    result = draft.draft_paragraphs(units, [])
    changed = [p for p in result if p.unit.state is UnitState.CHANGED]
    assert changed and all(p.source is DraftSource.ENGLISH and p.text == p.unit.en for p in changed)


def test_the_project_translates_every_changed_paragraph(real_site, units):
    """Every paragraph of the draft has Italian text: no English left (a new change needs a translation)."""
    translations = real_site.draft_translations["cytosis"]
    assert not draft.unused_translations(units, translations)
    assert all(p.source is not DraftSource.ENGLISH for p in draft.draft_paragraphs(units, translations))


def test_project_translation_replaces_a_changed_paragraph(units):
    changed = next(u for u in units if u.state is UnitState.CHANGED)
    own = DraftTranslation(changed.section, changed.en, "Testo tradotto dal progetto.", 1)
    result = draft.draft_paragraphs(units, [own])
    paragraph = next(p for p in result if p.unit is changed)
    assert paragraph.source is DraftSource.PROJECT and paragraph.text == "Testo tradotto dal progetto."
    assert draft.unused_translations(units, [own]) == []
    stale = DraftTranslation(changed.section, "An English text no edition has.", "x", 2)
    assert draft.unused_translations(units, [stale]) == [stale]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_page_labels_every_paragraph(real_site, paragraphs, lang):
    page = next(p for p in draft.draft_pages(real_site, lang) if p.path == "cytosis/draft-it-2e.md")
    blocks = re.findall(r'<p class="cellula-draft" data-source="([a-z-]+)" lang="(it|en)"><span '
                        r'class="cellula-draft-source [a-z-]+" lang="' + lang + r'">([^<]+)</span>', page.content)
    assert len(blocks) == len(paragraphs)
    for (source, text_lang, label), paragraph in zip(blocks, paragraphs):
        assert source == paragraph.source.value
        assert label == draft.SOURCE_LABEL[lang][paragraph.source]
        assert text_lang == ("en" if paragraph.source is DraftSource.ENGLISH else "it")


def test_bad_translation_entries_are_reported(tmp_path, real_site):
    file = tmp_path / "cytosis.draft-it.yaml"
    file.write_text("translations:\n  - {section: nowhere.x, en: a, it: b}\n  - {section: setup.deal-cards, en: a}\n",
                    encoding="utf-8")
    problems = Problems()
    assert draft.load_draft_translations(file, real_site.games["cytosis"], problems) == []
    messages = [str(p) for p in problems.items]
    assert any("unknown section 'nowhere.x'" in m for m in messages)
    assert any("expected {section: id, en: English text, it: Italian text}" in m for m in messages)


# --- the draft follows the edition changes ---------------------------------------------------------

NOTES_FILE = Path(__file__).resolve().parent.parent / "data" / "editions" / "cytosis.yaml"
NOTE_IDS = [n["id"] for n in yaml.safe_load(NOTES_FILE.read_text(encoding="utf-8"))["notes"]]


def _figures(text: str | None, lang: str) -> Counter[str]:
    """The numbers a text states, as the edition check compares them: '1' is 'a' as often as one, and a
    step's number ('6. Deal…') says where it stands in a list, not what the rule counts."""
    unnumbered = re.sub(r"^\s*(?:[-*+]\s+)?\d{1,2}[.)]\s+", "", text or "", flags=re.M)
    return Counter(n for n in extract_numbers(plain(unnumbered), lang) if n not in IGNORED)


@pytest.fixture(scope="module")
def page(real_site):
    return next(p for p in draft.draft_pages(real_site, "it") if p.path == "cytosis/draft-it-2e.md").content


def test_a_changed_section_takes_nothing_from_the_first_edition(paragraphs):
    """Every paragraph (heading and chart rows included) of a changed section is the project's
    translation of the 2nd edition; every unchanged paragraph the official 1st edition."""
    assert any(p.unit.change for p in paragraphs)
    for p in paragraphs:
        if p.unit.change is not None:
            assert p.source is DraftSource.PROJECT, (p.unit.ident, p.text)
        else:
            assert p.source is DraftSource.OFFICIAL_IT or p.unit.it is None, p.unit.ident


@pytest.mark.parametrize("note_id", NOTE_IDS)
def test_every_edition_note_is_reflected_in_the_draft(real_site, paragraphs, page, note_id):
    """Each curated note: its sections that the 2nd edition has are changed, translated by the project,
    keep every number of the English text, and say so with a link to the note."""
    note = next(n for n in real_site.editions["cytosis"].notes if n.id == note_id)
    shown = [p for p in paragraphs if p.unit.section in note.sections]
    if note.kind.value == "terminology":
        pytest.skip("a terminology note leaves the rule and the 1st edition's text as they are")
    for p in shown:
        assert p.unit.change is not None and note_id in p.unit.change.notes
        assert p.source is DraftSource.PROJECT
        assert not _figures(p.unit.en, "en") - _figures(p.text, "it"), (p.unit.ident, p.text)
    for section in {p.unit.section for p in shown}:
        notice = re.search(rf'<div class="cellula-draft-change" data-section="{re.escape(section)}" markdown>\n(.*)\n',
                           page)
        assert notice and f"(differences.md#note-{note_id})" in notice.group(1)


def test_a_clause_stated_in_another_section_is_in_the_draft(real_site, paragraphs):
    """The edition check lets a clause pass when the other edition states it in another section (the
    1st edition's 2-player Detox removal in its 2-player chapter); the draft, which has the 2nd
    edition's sections only, must still state it somewhere."""
    game = real_site.games["cytosis"]
    matchers = matchers_for(real_site.glossary, "cytosis")
    sections = [align_section(pair, matchers) for pair in official_pairs(game)]
    elsewhere = qa.segment_anchors(sections, matchers)
    restated: list[tuple[str, str]] = []
    for section in sections:
        qa.check_clauses(section, matchers, elsewhere, restated)
    assert restated, "the check lets at least the 2-player Detox removal pass"
    drafted = [qa._anchors(plain(p.text), "it", matchers["it"])[0] for p in paragraphs]
    for lang, clause in restated:
        anchors = qa._anchors(clause, lang, matchers[lang])[0]
        assert any(anchors <= there for there in drafted), (lang, clause)


@pytest.mark.parametrize("section, mismatch", [
    ("spots.cytoplasm", "skips 3"),      # the 1st edition's step 3 (pay the macromolecules) has no 2nd-edition number
    ("spots.exocytosis", "2≠1"),         # the 1st edition reveals the card first: every later step shifts by one
    ("gameplay.phase-2", "3≠2"),         # discard-then-event in the 1st edition, refill-then-event in the 2nd
])
def test_steps_that_do_not_line_up_make_the_section_changed(units, section, mismatch):
    change = next(u.change for u in units if u.section == section)
    assert change is not None and mismatch in change.steps


def test_step_mismatches_pair_numbers_and_find_gaps():
    def segment(index, marker):
        return Segment(index, SegmentKind.ITEM, f"{marker}. x", (), frozenset(), frozenset(), 4, str(marker))
    def pair(it, en):
        return Pair(tuple(segment(i, m) for i, m in it), tuple(segment(i, m) for i, m in en), 1.0)
    lined_up = AlignedSection(None, [], [], [pair([(1, 1)], [(1, 1)]), pair([(2, 2)], [(2, 2)])])
    shifted = AlignedSection(None, [], [], [pair([(1, 2)], [(1, 1)]), pair([(2, 3)], [(2, 2)])])
    gap = AlignedSection(None, [], [], [pair([(1, 1)], [(1, 1)]), pair([(3, 4)], [(2, 3)]), Pair((segment(2, 3),), (), 0.0)])
    assert step_mismatches(lined_up) == ()
    assert step_mismatches(shifted) == ("2≠1", "3≠2")
    assert step_mismatches(gap) == ("4≠3", "skips 2", "skips 3")


def test_a_changed_section_is_headed_by_the_second_edition(real_site, paragraphs, page):
    """The 2-player gameplay section's 1st-edition heading says 'the 2 cheapest cards' above a 2nd-edition
    text that discards the 2 left-most: the draft heads it with the 2nd edition's heading, translated,
    and its paragraphs (the 2nd edition's sub-heading among them) say 'left-most'."""
    game = real_site.games["cytosis"]
    section = game.sections["two-player.gameplay"]
    assert "ECONOMICHE" in section.texts["it"].title
    heading = re.search(rf"^### (.*) {{ #{section.anchor} }}$", page, re.M)
    shown = [p for p in paragraphs if p.unit.section == section.id]
    assert heading and heading.group(1) == next(p.text for p in shown if p.unit.heading)
    assert "ECONOMICH" not in page.split(heading.group(0), 1)[1].split("\n### ", 1)[0]
    assert sum("PIÙ A SINISTRA" in p.text.upper() for p in shown) == 2


@pytest.mark.parametrize("phrase", [
    "più a sinistra",                        # Phase 2: the left-most card is discarded (not the cheapest)
    "rimuovi a caso 3 Carte Detossificazione Alcolica",  # the 2-player setup removes 3 Detox cards
    "| 2 GIOCATORI | 10 | 3 |",             # the setup chart keeps the 2- and 3-player Goal Card counts
    "guardato in un microscopio",           # the 2nd edition's first player
])
def test_the_draft_states_the_second_edition_rules(paragraphs, phrase):
    assert any(phrase in p.text for p in paragraphs)


@pytest.mark.parametrize("phrase", ["più economica", "più economiche", "malato più di recente"])
def test_the_draft_no_longer_states_the_first_edition_rules(paragraphs, phrase):
    assert not any(phrase in p.text.lower() for p in paragraphs)


def _statements(paragraphs: list[draft.DraftParagraph]) -> list[list[draft.DraftParagraph]]:
    """Each paragraph alone, the consecutive rows of one chart together: editions transpose charts."""
    groups: list[list[draft.DraftParagraph]] = []
    for p in paragraphs:
        row = p.text.lstrip().startswith("|")
        if row and groups and groups[-1][-1].text.lstrip().startswith("|") and groups[-1][-1].unit.section == p.unit.section:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def test_official_paragraphs_state_the_second_edition_figures(real_site, paragraphs):
    """The labels re-checked through the aligned texts: a paragraph (or chart) labelled official Italian
    1st edition states every figure of the English 2nd-edition text aligned with it, and no figure the
    2nd edition's section does not state (a chart may spread a row's figures over the section)."""
    sections = real_site.games["cytosis"].sections
    official = [p for p in paragraphs if p.source is DraftSource.OFFICIAL_IT]
    for group in _statements(official):
        it = set().union(*(_figures(p.unit.it, "it") for p in group))
        en = set().union(*(_figures(p.unit.en, "en") for p in group))
        en_section = set(_figures(sections[group[0].unit.section].texts["en"].body, "en"))
        assert en <= it <= en_section | en, [(p.unit.ident, p.unit.it, p.unit.en) for p in group]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_the_page_carries_the_review_guide(real_site, lang):
    content = next(p for p in draft.draft_pages(real_site, lang) if p.path == "cytosis/draft-it-2e.md").content
    guide = content.split("{ #review-guide }", 1)[1].split("\n## ", 1)[0]
    for source in DraftSource:
        assert f"**{draft.SOURCE_LABEL[lang][source]}**" in guide
    assert "cytosis.it-2e.changed.xlf" in guide and "data/editions/cytosis.draft-it.yaml" in guide
