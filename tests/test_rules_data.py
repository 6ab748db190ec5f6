"""Rulebook data: loading, validation messages for every kind of bad input, one-sided sections."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import DataError
from generator.site import load_site


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture changed: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems_of(data_dir: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        load_site(data_dir)
    return [str(p) for p in info.value.problems]


def test_fixture_loads(data_dir):
    site = load_site(data_dir)
    game = site.games["mini"]
    assert [c.id for c in game.chapters] == ["play"]
    place = game.sections["play.place"]
    assert place.texts["it"].source == "it-1e" and not place.texts["it"].translated
    assert place.texts["en"].lines == ((1, 3),)
    exhaust = game.sections["play.exhaust"]
    assert exhaust.only == "en" and exhaust.texts["it"].translated and exhaust.texts["it"].source == "en-2e"


@pytest.mark.parametrize("file, old, new, expected", [
    ("rules/mini/game.yaml", "sections:\n", "sections: [\n",
     ["rules/mini/game.yaml:", "YAML syntax error"]),
    ("rules/mini/it-1e.md", "section: play.end |", "section: play.place |",
     ["it-1e.md:5: play.place: duplicate section id 'play.place'"]),
    ("rules/mini/game.yaml", "{id: play.end, only: it}", "play.end",
     ["game.yaml:", "play.end: found in the official 'it' text only: declare it as {id: play.end, only: it}"]),
    ("rules/mini/game.yaml", "{id: play.exhaust, only: en}", "{id: play.exhaust, only: it}",
     ["game.yaml:13: play.exhaust: found in the official 'en' text only: declare it as {id: play.exhaust, only: en}"]),
    ("rules/mini/translations.en.md", "The game ends after 3 rounds.", "",
     ["translations.en.md:1: play.end: empty text"]),
    ("rules/mini/translations.it.md", "from: en-2e", "from: en-3e",
     ["translations.it.md:1: play.exhaust: expected 'from:' naming a source", "got 'en-3e'"]),
    ("rules/mini/it-1e.md", "lines: 5-7", "lines: 7-5",
     ["it-1e.md:5: play.end: expected 'lines: a-b, c'", "got '7-5'"]),
    ("rules/mini/it-1e.md", "section: play.end |", "section: Play_End |",
     ["bad section id 'Play_End'"]),
    ("rules/mini/en-2e.md", "## Exhausting\n", "",
     ["en-2e.md:5: play.exhaust: expected a Markdown heading"]),
    ("rules/mini/game.yaml", "title: {it: \"Mini\", en: \"Mini\"}", "title: {it: \"Mini\"}",
     ["game.yaml:2: title: missing translation 'en'"]),
    ("rules/mini/game.yaml", "title: {it: \"Mini\", en: \"Mini\"}", "title: {it: \"Mini\", en: \"  \"}",
     ["game.yaml:2: title.en: expected visible text, got only spaces '  '"]),
    ("rules/mini/game.yaml", "compare_editions: true", "compare_editions: yes please",
     ["game.yaml:3: compare_editions: expected true or false, got 'yes please'"]),
    ("rules/mini/game.yaml", "compare_editions: true", "compare_editions: true\nsubtitle: x",
     ["game.yaml:4: subtitle: unknown field 'subtitle': expected one of chapters, compare_editions, id, link_hosts, sources, title"]),
    ("glossary.yaml", "en: [Flask]", "en: []",
     ["glossary.yaml:2: terms[0].en: term 'flask' has an empty 'en' side"]),
    ("glossary.yaml", "games: [mini]", "games: [chess]",
     ["glossary.yaml:2: terms[0].games[0]: expected a game id among ['mini'], got 'chess'"]),
    ("i18n/en.yaml", "  glossary: Glossary\n", "",
     ["i18n/en.yaml: core.glossary: missing: it.yaml has this key, en.yaml lacks it"]),
])
def test_bad_input_is_reported_with_file_line_and_value(data_dir, file, old, new, expected):
    edit(data_dir / file, old, new)
    report = "\n".join(problems_of(data_dir))
    for fragment in expected:
        assert fragment in report


def test_unlisted_section_and_missing_translation_are_both_reported(data_dir):
    """Validation reports every problem at once, not just the first."""
    edit(data_dir / "rules/mini/translations.en.md", "section: play.end", "section: play.ending")
    report = "\n".join(problems_of(data_dir))
    assert "play.ending: section 'play.ending' is not listed in any chapter" in report
    assert "play.end: no 'en' text" in report


def test_duplicate_glossary_id(data_dir):
    with (data_dir / "glossary.yaml").open("a", encoding="utf-8") as out:
        out.write("  - {id: flask, games: [mini], it: [Beuta], en: [Flask]}\n")
    assert any("terms[1].id: duplicate term id 'flask' (first at line 2)" in p for p in problems_of(data_dir))


def test_unknown_section_reference_in_text(data_dir):
    edit(data_dir / "rules/mini/it-1e.md", "spazio libero.", "spazio libero (vedi [[play.nowhere]]).")
    assert any("it-1e.md:1: play.place: unknown section reference [[play.nowhere]]" in p for p in problems_of(data_dir))


def test_unknown_term_reference_in_text(data_dir):
    edit(data_dir / "rules/mini/it-1e.md", "spazio libero.", "spazio [[term:spot]] libero.")
    assert any("unknown glossary reference [[term:spot]]" in p for p in problems_of(data_dir))
