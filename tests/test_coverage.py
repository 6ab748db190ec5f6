"""Every heading and paragraph of every source text ends up in exactly one rule section."""
from __future__ import annotations

import pytest

from generator.coverage import check_coverage
from generator.errors import Problems

EXPECTED_SOURCES = {
    "cytosis": {"it-1e", "en-2e", "en-virus"},
    "ursuppe": {"it-gylas"},
    "immune-response": {"ru"},
}


@pytest.mark.parametrize("game_id", sorted(EXPECTED_SOURCES))
def test_no_source_line_dropped_or_claimed_twice(real_site, game_id):
    game = real_site.games[game_id]
    assert {s.id for s in game.sources} == EXPECTED_SOURCES[game_id]
    problems = Problems()
    report = check_coverage(game, problems)
    assert not problems.items, "\n".join(map(str, problems.items[:20]))
    for row in report:
        assert row.covered == row.lines
        assert row.word_share >= 0.95, f"{row.source}: {row.word_share:.1%} of words kept"


def test_dropped_line_is_reported(data_dir):
    from generator.site import load_site
    path = data_dir / "rules/mini/it-1e.md"
    path.write_text(path.read_text(encoding="utf-8").replace("lines: 5-7", "lines: 5"), encoding="utf-8")
    problems = Problems()
    check_coverage(load_site(data_dir).games["mini"], problems)
    assert [str(p).split("data/", 1)[-1] for p in problems.items] == [
        "sources/mini-it.txt:7: line 7: dropped: not in any section of it-1e.md (starts 'La partita finisce dopo 3 round.')"]


def test_cleaning_that_loses_words_is_reported(data_dir):
    from generator.site import load_site
    path = data_dir / "rules/mini/en-2e.md"
    path.write_text(path.read_text(encoding="utf-8").replace("you have no Flask left, you are exhausted", "out"),
                    encoding="utf-8")
    problems = Problems()
    check_coverage(load_site(data_dir).games["mini"], problems)
    assert len(problems.items) == 1 and "play.exhaust: only" in str(problems.items[0])


def test_every_cytosis_edition_has_its_one_sided_rules(real_site):
    game = real_site.games["cytosis"]
    assert game.sections["gameplay.exhaust-flask"].only == "en"
    assert game.sections["events.toxicity"].only == "it"
    for section in game.sections.values():
        for lang in ("it", "en"):
            assert section.texts[lang].body.strip()
