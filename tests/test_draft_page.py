"""The "Italian 2nd edition draft" page: every English 2nd-edition paragraph in reading order, from
the official Italian 1st edition where the rule did not change, from the project's translation where
it changed or is new, in English (flagged) where no translation exists yet; each labelled."""
from __future__ import annotations

import re

import pytest

from generator.check import draft
from generator.check.draft import DraftSource, DraftTranslation
from generator.check.units import UnitState, game_units
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
