"""Quick-reference pages (generator/quickref.py): facts repeat the rules, never invent values."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import Problems
from generator.quickref import load_quickref, produce

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game_id", ["cytosis", "ursuppe", "immune-response"])
def test_real_quick_references_load(real_site, game_id):
    groups = real_site.quickref[game_id]
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
