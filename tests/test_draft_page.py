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
from generator.check.model import CheckId, normalise
from generator.check.units import CHANGES, UnitState, game_units, step_mismatches
from generator.errors import Problems
from generator.rules import SITE_LANGUAGES
from generator.check.draft import DRAFT_TRANSLATIONS
from generator.check.editions import EDITION_REPORTS


@pytest.fixture(scope="module")
def units(real_site):
    return game_units(real_site.games["cytosis"], real_site.glossary, real_site.get(EDITION_REPORTS)["cytosis"].findings)


@pytest.fixture(scope="module")
def paragraphs(real_site, units):
    return draft.draft_paragraphs(units, real_site.get(DRAFT_TRANSLATIONS).get("cytosis", []))


def test_every_english_unit_is_in_the_draft_once(units, paragraphs):
    """Every English unit once, sections in the game's order, a section's units in its English order."""
    english = [u for u in units if u.en is not None]
    assert sorted(p.unit.ident for p in paragraphs) == sorted(u.ident for u in english)
    assert [p.unit.section for p in paragraphs] == [u.section for u in english]
    for before, after in zip(paragraphs, paragraphs[1:]):
        if before.unit.section == after.unit.section:
            assert (before.unit.en_order or 0) <= (after.unit.en_order or 0), after.unit.ident


def test_sources_follow_the_unit_state(paragraphs, real_site):
    own = {t.it for t in real_site.get(DRAFT_TRANSLATIONS)["cytosis"]}
    for p in paragraphs:
        if p.unit.state is UnitState.UNCHANGED:
            assert p.source in (DraftSource.OFFICIAL_IT, DraftSource.PROJECT_HEADING) and p.text == p.unit.it
        elif p.source is DraftSource.ENGLISH:
            assert p.text == p.unit.en
        else:
            assert p.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING)
            assert p.unit.state is not UnitState.UNCHANGED
            assert p.text == p.unit.translation or p.text in own
    assert {DraftSource.OFFICIAL_IT, DraftSource.PROJECT} <= {p.source for p in paragraphs}


def test_changed_paragraph_without_translation_stays_english_and_flagged(units):
    result = draft.draft_paragraphs(units, [])
    changed = [p for p in result if p.unit.state is UnitState.CHANGED]
    assert changed and all(p.source is DraftSource.ENGLISH and p.text == p.unit.en for p in changed)


def test_the_project_translates_every_changed_paragraph(real_site, units):
    """Every paragraph of the draft has Italian text: no English left (a new change needs a translation)."""
    translations = real_site.get(DRAFT_TRANSLATIONS)["cytosis"]
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
            assert p.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING), (p.unit.ident, p.text)
        else:
            assert p.source in (DraftSource.OFFICIAL_IT, DraftSource.PROJECT_HEADING) or p.unit.it is None, p.unit.ident


@pytest.mark.parametrize("note_id", NOTE_IDS)
def test_every_edition_note_is_reflected_in_the_draft(real_site, paragraphs, page, note_id):
    """Each curated note: its sections that the 2nd edition has are changed, translated by the project,
    keep every number of the English text, and say so with a link to the note."""
    note = next(n for n in real_site.get(EDITION_REPORTS)["cytosis"].notes if n.id == note_id)
    shown = [p for p in paragraphs if p.unit.section in note.sections]
    if note.kind.value == "terminology":
        pytest.skip("a terminology note leaves the rule and the 1st edition's text as they are")
    for p in shown:
        assert p.unit.change is not None and note_id in p.unit.change.notes
        assert p.source in (DraftSource.PROJECT, DraftSource.PROJECT_HEADING)
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
    ("setup.player-pieces", "6≠–"),      # the 1st edition's step 6; the 2nd edition numbers its card dealing 6
    ("spots.laureates", "1≠–"),          # 1st: may take 1 ATP (item 1); 2nd: must take the marker (1), then choose
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
    unnumbered = AlignedSection(None, [], [], [pair([(1, 6)], [])])
    unnumbered.pairs[0] = Pair(unnumbered.pairs[0].it, (Segment(1, SegmentKind.PARAGRAPH, "x", (), frozenset(), frozenset(), 1, ""),), 1.0)
    assert step_mismatches(unnumbered) == ("6≠–",)


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
    assert "cytosis.it-2e.changed.xliff12.xlf" in guide and "data/editions/cytosis.draft-it.yaml" in guide


# --- a label cannot say "unchanged" where the project records a difference ------------------------

def _words(text: str) -> str:
    return normalise(plain(text.replace("\n", " ")))


def _official(paragraphs: list[draft.DraftParagraph]) -> list[draft.DraftParagraph]:
    return [p for p in paragraphs if p.source is DraftSource.OFFICIAL_IT]


@pytest.mark.parametrize("note_id", NOTE_IDS)
def test_no_official_paragraph_states_a_changed_rule_of_a_note(real_site, paragraphs, note_id):
    """An edition note records the 1st edition's words for the rule it says changed (``it_wording``): no
    paragraph shown as unchanged official text holds them, in whatever section (the game summary restates
    Phase 2's order: 'verrà rivelata una Carta Evento e il tabellone sarà ripristinato')."""
    note = next(n for n in real_site.get(EDITION_REPORTS)["cytosis"].notes if n.id == note_id)
    if note.kind.value == "terminology" or not note.it_wording:
        pytest.skip("the note records no 1st-edition wording of a changed rule")
    for p in _official(paragraphs):
        for phrase in note.it_wording:
            assert _words(phrase) not in _words(p.text), (note_id, p.unit.ident, phrase)


def _engine_differences() -> dict[str, set[str]]:
    """The rules engine's edition differences: each method of :class:`solver.game.editions.Rules` that the
    1st or the 2nd edition overrides (their behaviours differ), with the rule sections its docstrings name."""
    from solver.game import editions
    out: dict[str, set[str]] = {}
    for name in set(vars(editions.FirstEdition)) | set(vars(editions.SecondEdition)):
        if name.startswith("_") or not callable(getattr(editions.Rules, name, None)):
            continue
        docs = " ".join(vars(cls)[name].__doc__ or "" for cls in (editions.FirstEdition, editions.SecondEdition)
                        if name in vars(cls))  # the overrides name the sections where the editions differ
        out[name] = set(re.findall(r"``([a-z0-9-]+\.[a-z0-9-]+)``", docs))
    return out


ENGINE_DIFFERENCES = _engine_differences()


@pytest.mark.parametrize("method", sorted(ENGINE_DIFFERENCES))
def test_no_official_paragraph_where_the_engine_plays_the_editions_differently(paragraphs, method):
    """Where the engine plays the two editions differently (a ruling's or an edition's method of
    ``solver.game.editions``: the Free Ribosome's 'at least 1 mRNA' in the 2nd edition against 'any number,
    none included' in the 1st), the sections it names show no paragraph as unchanged official text."""
    sections = ENGINE_DIFFERENCES[method]
    assert sections, f"{method}: its docstrings name no rule section"
    wrong = [(p.unit.ident, p.text[:80]) for p in _official(paragraphs) if p.unit.section in sections]
    assert not wrong, f"{method} plays the editions differently in {sorted(sections)}; labelled unchanged: {wrong}"


def test_no_official_paragraph_where_a_reviewed_finding_says_the_rule_changed(real_site, paragraphs):
    changing = {f.section for f in real_site.get(EDITION_REPORTS)["cytosis"].findings
                if f.status in CHANGES and f.check is not CheckId.EDITION_NOTE}
    assert changing
    wrong = [p.unit.ident for p in _official(paragraphs) if p.unit.section in changing]
    assert not wrong


def test_no_official_paragraph_quotes_a_first_edition_only_rule_of_the_audit(paragraphs):
    """The rules audit's rows of one edition's rule (``…-1e``) quote the 1st edition where the 2nd says
    otherwise: those quotes are not unchanged official text of the draft."""
    audit = yaml.safe_load((NOTES_FILE.parent.parent / "audit" / "cytosis.yaml").read_text(encoding="utf-8"))
    quotes = [(row["id"], q["text"]) for row in audit["rows"] if row["id"].endswith("-1e")
              for q in row["quotes"] if q["source"] == "it-1e"]
    assert quotes
    for row, quote in quotes:
        for p in _official(paragraphs):
            assert _words(quote) not in _words(p.text), (row, p.unit.ident)


def test_step_numbers_do_not_repeat_within_a_chapter(real_site, paragraphs):
    """A chapter's numbered steps, as the draft shows them, never give one number twice before the list
    starts again at 1 (the 1st edition's step '6.' beside the 2nd edition's '6.')."""
    chapter_of = {s: c.id for c in real_site.games["cytosis"].chapters for s in c.sections}
    seen: dict[str, set[str]] = {}
    for p in paragraphs:
        if p.unit.heading:
            continue
        for match in re.finditer(r"^\s*(?:[-*+]\s+)?\**(\d{1,2})[.)]\s", p.text, re.M):
            numbers = seen.setdefault(chapter_of[p.unit.section], set())
            if match.group(1) == "1":
                numbers.clear()
            assert match.group(1) not in numbers, (p.unit.ident, p.text[:60])
            numbers.add(match.group(1))


def test_the_second_edition_order_is_kept(paragraphs):
    """A section's paragraphs follow the English text: Phase 2's steps 1, 2, 3; the Detox chart's header,
    then most, second and third."""
    phase_2 = [re.match(r"(\d)\.", p.text) for p in paragraphs if p.unit.section == "gameplay.phase-2"]
    assert [m.group(1) for m in phase_2 if m] == ["1", "2", "3"]
    chart = [p.text for p in paragraphs if p.unit.section == "scoring.detox" and p.text.startswith("|")]
    assert [row.split("|")[1].strip().upper() for row in chart] == [
        "ALCOL DETOSSIFICATO", "MAGGIOR QUANTITÀ", "SECONDA MAGGIOR QUANTITÀ", "TERZA MAGGIOR QUANTITÀ"]


def test_a_heading_the_project_wrote_is_labelled_so(real_site, paragraphs):
    headings = [p for p in paragraphs if p.unit.heading and p.unit.project_heading]
    assert {p.unit.section for p in headings} >= {"setup.deal-cards", "components.grey-flasks"}
    for p in paragraphs:
        project_written = p.unit.heading and (("it" in p.unit.project_heading and p.source is not DraftSource.PROJECT
                                               and p.unit.state is UnitState.UNCHANGED)
                                              or ("en" in p.unit.project_heading and p.unit.state is not UnitState.UNCHANGED))
        assert (p.source is DraftSource.PROJECT_HEADING) == project_written, p.unit.ident


def test_a_note_wording_must_be_quoted_from_the_italian_text(tmp_path, real_site):
    from generator.check.editions import load_notes
    file = tmp_path / "cytosis.yaml"
    both = "{it: x, en: x}"
    file.write_text(f"game: cytosis\nnotes:\n  - id: n\n    sections: [spots.free-ribosome]\n    kind: edition-change\n"
                    f"    title: {both}\n    text: {both}\n    follow: {both}\n"
                    f"    it_wording: [possono scambiare qualsiasi numero, una frase che non c'è]\n", encoding="utf-8")
    problems = Problems()
    notes = load_notes(file, real_site.games["cytosis"], problems)
    messages = [str(p) for p in problems.items]
    assert len(messages) == 1 and "\"una frase che non c'è\" is not in the Italian official text" in messages[0]
    assert "notes[0].it_wording[1]" in messages[0] and notes[0].it_wording[0] == "possono scambiare qualsiasi numero"
