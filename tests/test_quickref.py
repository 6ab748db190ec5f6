"""Quick-reference pages (generator/quickref.py): facts repeat the rules, never invent values."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.errors import Problems
from generator.quickref import load_quickref, produce
from generator.quickref import QUICK_REFERENCES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game_id", ["cytosis", "ursuppe", "immune-response"])
def test_real_quick_references_load(real_site, game_id):
    groups = real_site.get(QUICK_REFERENCES)[game_id]
    assert groups and all(g.lines for g in groups)


def _write(tmp_path: Path, body: str) -> Path:
    file = tmp_path / "quickref.yaml"
    file.write_text(body, encoding="utf-8")
    return file


GOOD_LINE = """groups:
  - id: players
    title: {it: "Giocatori", en: "Players"}
    lines:
      - refs: [setup.player-pieces]
        it: "%s"
        en: "Flasks per player: 4 in a 2 or 3 player game."
"""


def test_a_number_not_in_the_rule_text_is_refused(real_site, tmp_path):
    problems = Problems()
    file = _write(tmp_path, GOOD_LINE % "Beute per giocatore: 7 in una partita a 2 o 3 giocatori.")
    load_quickref(file, real_site.games["cytosis"], problems)
    message = str(problems.items[0])
    assert "['7']" in message and "groups[0].lines[0].it" in message and ":6" in message


def test_numbers_from_the_rule_text_are_accepted(real_site, tmp_path):
    problems = Problems()
    file = _write(tmp_path, GOOD_LINE % "Beute per giocatore: 4 in una partita a 2 o 3 giocatori.")
    groups = load_quickref(file, real_site.games["cytosis"], problems)
    assert not problems and groups[0].lines[0].refs == ("setup.player-pieces",)


def test_an_unknown_rule_section_is_refused(real_site, tmp_path):
    problems = Problems()
    file = _write(tmp_path, (GOOD_LINE % "Beute: 4.").replace("setup.player-pieces", "setup.nowhere"))
    load_quickref(file, real_site.games["cytosis"], problems)
    assert problems and "setup.nowhere" in str(problems.items[0])


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_line_links_to_its_numbered_rule_section(real_site, lang):
    pages = {p.path: p for p in produce(real_site, lang)}
    content = pages["cytosis/quickref.md"].content
    assert "](setup.md#setup-player-pieces)" in content
    assert "[§3.7 " in content  # the section's rule number, the same in both languages


# --- a quick reference carries its scope -----------------------------------------------------------

END_OF_GAME_TITLE = re.compile(r"\bfine (?:della partita|del gioco)\b", re.I)
"""Italian titles of the sections (or their chapter) that say how a game ends."""
WAY_TO_END = {"it": re.compile(r"\b(?:partita|gioco) (?:termina|finisce)\b|(?<!dell')(?<!nell')\bultimo (?:round|turno)\b", re.I),
              "en": re.compile(r"\bgame ends\b|(?<!of the )(?<!in the )\b(?:last|final) (?:round|turn)\b", re.I)}
"""A statement that the game ends (or enters its last round or turn): one per way a game can end ('of
the last turn' names the turn a statement already started)."""
PLAYER_COUNT = {"it": re.compile(r"giocator", re.I), "en": re.compile(r"player", re.I)}
PLAYER_SCOPED_CHAPTER = re.compile(r"\d\s*(?:[-–]\s*\d\s*)?giocatori", re.I)
"""An Italian chapter title naming a player count: its rules hold for those counts only."""


def _end_sections(game):
    chapters = {s: c for c in game.chapters for s in c.sections}
    return [s for s, section in game.sections.items() if "it" in section.texts
            and (END_OF_GAME_TITLE.search(section.texts["it"].title) or END_OF_GAME_TITLE.search(chapters[s].title["it"]))]


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("game_id", ["cytosis", "ursuppe", "immune-response"])
def test_every_way_the_game_ends_is_in_the_quick_reference(real_site, game_id, lang):
    """The quick reference states as many ways to end the game as the game's end-of-game section that
    states most (Ursuppe: a marker in the Finish Zone, or the round of the last Environment card)."""
    game = real_site.games[game_id]
    sections = _end_sections(game)
    assert sections, "every game has an end-of-game section"
    ways = max(len(WAY_TO_END[lang].findall(f"{game.sections[s].texts[lang].title}\n{game.sections[s].texts[lang].body}"))
               for s in sections if lang in game.sections[s].texts)
    lines = [line for group in real_site.get(QUICK_REFERENCES)[game_id] for line in group.lines if set(line.refs) & set(sections)]
    stated = sum(len(WAY_TO_END[lang].findall(line.text[lang])) for line in lines)
    assert ways and stated >= ways, (game_id, [line.text[lang] for line in lines])


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("game_id", ["cytosis", "ursuppe", "immune-response"])
def test_a_line_with_rules_for_some_player_counts_says_which(real_site, game_id, lang):
    """A line drawing on a chapter for some player counts (Ursuppe's 5-6 player expansion, Cytosis's
    2-player game) names the player counts, so a value never reads as if it held for every count."""
    game = real_site.games[game_id]
    scoped = {s for c in game.chapters if PLAYER_SCOPED_CHAPTER.search(c.title["it"]) for s in c.sections}
    for group in real_site.get(QUICK_REFERENCES)[game_id]:
        for line in group.lines:
            if set(line.refs) & scoped:
                assert PLAYER_COUNT[lang].search(line.text[lang]) and re.search(r"\d", line.text[lang]), line.text[lang]


def test_ursuppe_values_carry_their_player_counts(real_site):
    """The 3-4 player values (three Foodstuff cubes, 10 BP) beside the 5-6 player ones (four cubes of
    different colours, 11 BP): each line that changes with the expansion draws on it."""
    lines = {line.refs[0]: line for group in real_site.get(QUICK_REFERENCES)["ursuppe"] for line in group.lines}
    for base, expansion in (("phases.feeding", "expansion.feeding"), ("phases.cell-division", "expansion.cell-division"),
                            ("setup.first-player", "expansion.start")):
        assert expansion in lines[base].refs
