"""The live solver in the page (issue #70): positions answered in headless Chromium by HiGHS on the
planner's model (docs/assets/live-solve.js, generator/puzzles/live_solve.py) give the same answers as
``python -m solver solve --after MOVES``, and play mode shows them where no table holds a position.

The sample here runs with the browser tests; every position of the comparison (at least 200:
random walks off the best line of every shipped puzzle, and composed positions) runs with
``CELLULA_LIVE_SOLVE_ALL=1`` or through ``tools/live_solve_bench.py``, which also writes the answer
times per puzzle (``data/figures/live-solve.json``).
"""
from __future__ import annotations

import os

import pytest

import live_positions as lp

SAMPLE = ("market-day-2e", "laureate-goal-2e", "rule-held-card-last-flask-2e", "rule-epigenetic-exchange-1e",
          "deck-refill-2e")
"""A fast sample: a table-less 2e puzzle, a goal puzzle, a card played after the last flask, an
Epigenetic trade, a deck."""


@pytest.fixture(scope="module")
def solver_tab(context, site_url):
    tab = context.new_page()
    tab.set_default_timeout(240_000)
    solver = lp.PageSolver(tab, site_url)
    solver.warm()
    yield solver
    tab.close()


@pytest.fixture(scope="module")
def site_url():
    from site_server import SITE, serve_site
    with serve_site(SITE) as url:
        yield url


def _compare(solver: lp.PageSolver, positions: list[lp.LivePosition]) -> list[str]:
    faults = []
    for position in positions:
        page = solver.answer(position)
        cli = lp.cli_answer(position)
        why = lp.agreement(position, page, cli)
        if why is not None:
            faults.append(f"{position.puzzle} after {list(position.moves)}: {why}")
    return faults


def test_sample_positions_agree_with_the_command_line(solver_tab):
    positions = lp.positions(list(SAMPLE), 2)
    assert len(positions) >= 8
    assert _compare(solver_tab, positions) == []


@pytest.mark.skipif(not os.environ.get("CELLULA_LIVE_SOLVE_ALL"),
                    reason="every position (minutes): CELLULA_LIVE_SOLVE_ALL=1, or tools/live_solve_bench.py")
def test_every_position_agrees_with_the_command_line(solver_tab):
    positions = lp.positions(lp.shipped(), lp.PER_PUZZLE)
    assert len(positions) >= 200
    assert _compare(solver_tab, positions) == []


def test_a_bad_move_list_is_an_answer_not_a_crash(solver_tab):
    position = lp.LivePosition("market-day-2e", ("place(spot=no-such-spot)",), "composed")
    answer = solver_tab.answer(position)
    assert answer["ok"] is False
    assert "move 1 (place(spot=no-such-spot))" in answer["errors"][0]


@pytest.mark.parametrize("lang, words", [("en", "computed now in your browser"), ("it", "calcolato ora nel tuo browser")])
def test_play_mode_answers_a_position_off_the_tables(page, site_url, lang, words):
    """Two moves off the best line (the last offered move each time), where the build's line values
    stop: the page answers with the live solver, in the page's language, never "not shown"."""
    prefix = "" if lang == "it" else "en/"
    page.set_default_timeout(240_000)
    page.goto(f"{site_url}{prefix}cytosis/puzzles/market-day-2e/")
    page.click(".cellula-board__play")
    page.wait_for_selector(".cellula-play__action")
    regret = page.locator(".cellula-play__regret")
    for _ in range(3):
        page.locator(".cellula-play__action").last.click()
        page.wait_for_function("""() => {
            const r = document.querySelector('.cellula-play__regret');
            return r && r.getAttribute('data-regret') !== 'computing'; }""")
        assert regret.get_attribute("data-regret") not in ("too_far", "not_computed", "live-failed")
    assert regret.get_attribute("data-regret") in ("known", "live", "live-not-proven", "dead_end")
    if regret.get_attribute("data-regret").startswith("live"):
        assert words in regret.inner_text()


def test_a_pasted_puzzle_is_read_and_solved_in_the_page(solver_tab):
    """CellulaAnalysis.analyse: the command line's reader (its messages) and the solver, in the page."""
    text = (lp.PUZZLES / "market-day-2e.yaml").read_text(encoding="utf-8")
    ask = "([t, l]) => window.CellulaAnalysis.analyse(t, l)"
    answer = solver_tab.page.evaluate(ask, [text, "it"])
    assert answer["ok"] and answer["proven"] and answer["health"] == 7
    assert any("Ormone Proteico" in step["text"] for step in answer["plan"])
    broken = solver_tab.page.evaluate(ask, [text.replace("rounds: 2", "rounds: zero"), "en"])
    assert broken["ok"] is False
    assert broken["errors"] == ["market-day-2e.yaml:18: rounds: expected an integer 1..12, got 'zero'"]


def test_play_mode_answers_live_from_file_url(page):
    """The offline build (file://): no worker from a file, so the same host runs in the page, HiGHS
    from classic scripts; nothing is requested outside file://."""
    from site_server import OFFLINE_SITE
    if not (OFFLINE_SITE / "index.html").exists():
        pytest.fail("site-offline/ is not built: run `make site-offline` (make test builds it first)")
    outside: list[str] = []
    page.on("request", lambda r: r.url.startswith("file://") or outside.append(r.url))
    page.set_default_timeout(240_000)
    page.goto(OFFLINE_SITE.resolve().as_uri() + "/en/cytosis/puzzles/market-day-2e.html")
    page.click(".cellula-board__play")
    page.wait_for_selector(".cellula-play__action")
    regret = page.locator(".cellula-play__regret")
    seen = []
    for _ in range(3):
        page.locator(".cellula-play__action").last.click()
        page.wait_for_function("""() => {
            const r = document.querySelector('.cellula-play__regret');
            return r && r.getAttribute('data-regret') !== 'computing'; }""")
        seen.append(regret.get_attribute("data-regret"))
    assert "live" in seen and "live-failed" not in seen, seen
    assert outside == [], outside
