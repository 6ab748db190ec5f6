"""The analysis board (issue #70) and play that keeps the board in view, in Chromium: on phones
(iPhone 13, Pixel 7 emulation) and a desktop.

The solver in the page (``window.CellulaAnalysis.analyse``) is built by another part of the
project; until a build ships it, these tests stand in for it with the command line itself
(``python -m solver solve --json`` on the page's text, through ``page.expose_function``): what the
board hands the solver is then exactly what a player downloading the file would run. The stand-in
is installed by the tests only; the site never carries it."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import wait_for_first_move
from site_server import ROOT

ANALYSIS = "cytosis/analysis/"
TABLE_PUZZLE = "rulebook-protein-hormone-2e"    # a move table: play without Python in the browser
ROUND_TWO_PUZZLE = "rule-reshuffle-one-card-2e"  # its worked example reaches a round start a puzzle file can hold
PHONES = ["iPhone 13", "Pixel 7"]
SHOTS = Path("/tmp/board-shots")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
STAND_IN = """window.CellulaAnalysis = window.CellulaAnalysis || {
  analyse: function (text, lang) { return window.cellulaCliSolve(text, lang); } };"""


def cli_solve(text: str, lang: str) -> dict:
    """What ``python -m solver solve`` says of ``text``, in the interface the page codes against."""
    match = re.search(r"^id:\s*\"?([a-z0-9][a-z0-9-]*)", text, re.M)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{match.group(1) if match else 'position'}.yaml"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "solver", "solve", str(path), "--json", "--lang", lang, "--no-confirm"],
                              capture_output=True, text=True, cwd=ROOT, timeout=300)
    if done.returncode != 0:
        lines = [line.replace(str(path), path.name) for line in done.stderr.strip().splitlines() if line.strip()]
        return {"ok": False, "errors": lines[-3:], "status": None, "plan": []}
    out = json.loads(done.stdout)
    return {"ok": True, "errors": [], "status": out["status"], "health": out["health"], "bound": out["bound"],
            "proven": out["proven"], "seconds": out.get("wall_time"),
            "plan": [{"round": s["round"], "text": s["text"][lang]} for s in out["steps"]]}


@pytest.fixture
def solver_page(page):
    """A tab whose page gets the command line as its solver (see the module docstring)."""
    page.expose_function("cellulaCliSolve", cli_solve)
    page.add_init_script(STAND_IN)
    return page


def _record(puzzle: str) -> dict:
    return json.loads((ROOT / "data" / "puzzles" / f"{puzzle}.record.json").read_text(encoding="utf-8"))


def _solve(page) -> None:
    page.locator(".cellula-analysis__solve").click()
    page.wait_for_function("() => !['', 'solving'].includes(document.querySelector('.cellula-analysis__result')"
                           ".getAttribute('data-status') || '')", timeout=300_000)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_pasted_puzzle_solves_to_its_record(solver_page, site_url, lang):
    page = solver_page
    page.goto(site_url + ("en/" if lang == "en" else "") + ANALYSIS)
    text = (ROOT / "data" / "puzzles" / "rule-free-ribosome-must-2e.yaml").read_text(encoding="utf-8")
    page.locator(".cellula-analysis textarea").fill(text)
    page.get_by_role("button", name=re.compile("Leggi nel modulo|Read into the form")).click()
    assert page.locator(".cellula-analysis__form").get_attribute("data-unread") is None
    _solve(page)
    result = page.locator(".cellula-analysis__result")
    assert result.get_attribute("data-status") == "optimal"
    health = _record("rule-free-ribosome-must-2e")["solution"]["solution"]["health"]
    assert page.locator(".cellula-analysis__health").get_attribute("data-health") == str(health)
    assert page.locator(".cellula-analysis__plan li").count() > 0
    assert page.locator(".cellula-analysis__why").inner_text()


def test_form_changes_the_file_and_the_link_reloads_it(solver_page, site_url):
    page = solver_page
    page.goto(site_url + "en/" + ANALYSIS)
    box = page.locator(".cellula-analysis textarea")
    box.wait_for()
    atp = page.get_by_label("ATP", exact=True)
    atp.fill("4")
    atp.dispatch_event("change")
    assert re.search(r"^start: \{atp: 4,", box.input_value(), re.M)
    # a spot another player takes, by touching the board
    spot = page.locator(".cellula-analysis__board [data-spot='glucose-1']")
    spot.click()
    assert "glucose-1" in re.search(r"^occupied: .*$", box.input_value(), re.M).group(0)
    page.wait_for_function("() => location.hash.startsWith('#puzzle=')")
    text, link = box.input_value(), page.url
    other = page.context.new_page()
    other.expose_function("cellulaCliSolve", cli_solve)
    other.add_init_script(STAND_IN)
    other.goto(link)
    other.wait_for_function("() => document.querySelector('.cellula-analysis textarea') && "
                            "document.querySelector('.cellula-analysis textarea').value.length > 0")
    assert other.locator(".cellula-analysis textarea").input_value() == text
    other.close()
    # the same text through the command line: a file it accepts (download = this text)
    with page.expect_download() as got:
        page.get_by_role("button", name="Download the file").click()
    download = got.value
    assert download.suggested_filename == "market-day-2e.yaml"
    assert Path(download.path()).read_text(encoding="utf-8") == text
    answer = cli_solve(text, "en")
    assert answer["ok"], answer["errors"]


@pytest.mark.parametrize("bad, expect", [
    ("id: market-day-2e\nrounds: 0\n", "rounds"),
    ("id: [broken\n", "YAML syntax error"),
])
def test_bad_input_says_what_is_wrong(solver_page, site_url, bad, expect):
    page = solver_page
    page.goto(site_url + "en/" + ANALYSIS)
    page.locator(".cellula-analysis textarea").fill(bad)
    _solve(page)
    result = page.locator(".cellula-analysis__result")
    assert result.get_attribute("data-status") == "error"
    assert expect in page.locator(".cellula-analysis__errors").inner_text()
    # the page is alive: the form still reads a good text
    page.locator(".cellula-analysis textarea").fill((ROOT / "data/puzzles/market-day-2e.yaml").read_text(encoding="utf-8"))
    page.get_by_role("button", name="Read into the form").click()
    assert page.locator(".cellula-analysis__form").get_attribute("data-unread") is None


def test_damaged_link_keeps_the_starting_position(page, site_url):
    page.goto(site_url + "en/" + ANALYSIS + "#puzzle=AAAA")
    page.wait_for_function("() => (document.querySelector('.cellula-analysis__note') || {}).textContent")
    assert "no readable position" in page.locator(".cellula-analysis__note").inner_text()
    assert "id: market-day-2e" in page.locator(".cellula-analysis textarea").input_value()


def test_without_the_solver_the_page_says_how_to_solve(page, site_url):
    page.goto(site_url + "en/" + ANALYSIS)
    page.locator(".cellula-analysis__solve").click()
    result = page.locator(".cellula-analysis__result")
    assert result.get_attribute("data-status") in ("unavailable", "optimal", "solving")


def test_puzzle_page_links_to_the_board_with_its_start(page, site_url):
    page.goto(site_url + f"en/cytosis/puzzles/{TABLE_PUZZLE}/")
    link = page.locator("a.cellula-analyse-link")
    href = link.get_attribute("href")
    assert "analysis/#puzzle=" in href
    link.click()
    page.wait_for_function("id => (document.querySelector('.cellula-analysis textarea') || {value: ''}).value"
                           ".includes('id: ' + id)", arg=TABLE_PUZZLE)


# --------------------------------------------------------------------------- play keeps the board in view

def _start_play(page, url: str):
    page.goto(url)
    page.locator(".cellula-board__play").click()
    wait_for_first_move(page, timeout=60_000)
    return page.locator(".cellula-play .cellula-board__drawing")


def _tap_keeps_board(page, drawing, shot: str | None = None) -> tuple[float, float]:
    spot = page.locator(".cellula-play .cb-spot--legal").first
    spot.scroll_into_view_if_needed()
    before_scroll, before_top = page.evaluate("window.scrollY"), drawing.bounding_box()["y"]
    if shot:
        page.screenshot(path=str(SHOTS / f"{shot}-before-tap.png"))
    spot.click()
    page.wait_for_function("() => document.querySelector('.cellula-play__said').textContent.length > 0")
    after_scroll, after_top = page.evaluate("window.scrollY"), drawing.bounding_box()["y"]
    if shot:
        page.screenshot(path=str(SHOTS / f"{shot}-after-tap.png"))
    assert after_scroll == before_scroll, (before_scroll, after_scroll)
    assert abs(after_top - before_top) < 1, (before_top, after_top)
    viewport = page.viewport_size["height"]
    assert -drawing.bounding_box()["height"] < after_top < viewport, "the board left the screen"
    return before_top, after_top


@pytest.mark.parametrize("device", PHONES)
def test_a_tap_keeps_the_board_in_view_on_a_phone(playwright_instance, site_url, device):
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        ctx = browser.new_context(**playwright_instance.devices[device], locale="it-IT", service_workers="block")
        page = ctx.new_page()
        problems: list[str] = []
        page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        drawing = _start_play(page, site_url + f"cytosis/puzzles/{TABLE_PUZZLE}/")
        name = device.lower().replace(" ", "-")
        _tap_keeps_board(page, drawing, shot=name)
        # the answer is on screen, under the board or in the bar at the bottom of the window
        said = page.locator(".cellula-play__said").bounding_box()
        assert said["y"] + said["height"] <= page.viewport_size["height"] + 1
        # a second tap too
        _tap_keeps_board(page, drawing)
        assert not problems, problems
    finally:
        browser.close()


def test_a_tap_keeps_the_board_in_view_on_a_desktop(page, site_url):
    drawing = _start_play(page, site_url + f"en/cytosis/puzzles/{TABLE_PUZZLE}/")
    _tap_keeps_board(page, drawing)
    focused = page.evaluate("document.activeElement && (document.activeElement.getAttribute('data-spot') || "
                            "document.activeElement.className)")
    assert focused, "focus went nowhere after the move"


def test_worked_example_controls_hidden_in_play_and_legend_present(page, site_url):
    page.goto(site_url + f"en/cytosis/puzzles/{TABLE_PUZZLE}/")
    board = page.locator(".cellula-board")
    assert board.locator(".cellula-board__legend").first.is_visible()
    page.locator(".cellula-board__play").click()
    wait_for_first_move(page, timeout=60_000)
    for selector in (".cellula-board__prev", ".cellula-board__next", ".cellula-board__steps", ".cellula-board__play",
                     ".cellula-board__hint"):
        assert not board.locator(selector).first.is_visible(), selector
    legend = page.locator(".cellula-play .cellula-board__legend")
    assert legend.is_visible()
    text = legend.inner_text()
    assert "blue ring" in text and "dashed orange" in text and "free spot" in text


@pytest.mark.parametrize(("touch", "shown"), [(True, False), (False, True)])
def test_arrow_key_hint_only_with_a_keyboard(playwright_instance, site_url, touch, shown):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        options = dict(playwright_instance.devices["Pixel 7"]) if touch else {"viewport": {"width": 1280, "height": 900}}
        page = browser.new_context(**options, service_workers="block").new_page()
        page.goto(site_url + f"en/cytosis/puzzles/{TABLE_PUZZLE}/")
        page.locator(".cellula-board__drawing").first.wait_for()
        assert page.locator(".cellula-board__hint").is_visible() is shown
    finally:
        browser.close()


def test_play_position_analysed_from_here_has_the_same_best_score(solver_page, site_url):
    """Play along the worked example to the first round start a puzzle file can hold: "Analyse from
    here" opens the board with that position, and the command line's optimum for it is the best
    score play mode shows there."""
    page = solver_page
    page.goto(site_url + f"en/cytosis/puzzles/{ROUND_TWO_PUZZLE}/")
    frames = json.loads(page.locator(".cellula-board").get_attribute("data-board"))["frames"]
    page.locator(".cellula-board__play").click()
    wait_for_first_move(page, timeout=60_000)
    link = page.locator(".cellula-play .cellula-board__analyse")
    assert link.get_attribute("aria-disabled") is None        # the start itself
    for frame in frames[1:]:
        page.locator(".cellula-play__action", has_text=frame["text"]).first.click()
        if isinstance(frame["position"], dict):
            break
    else:
        pytest.fail("the worked example never reaches a round start a puzzle file can hold")
    page.wait_for_function("() => (document.querySelector('.cellula-play .cellula-board__analyse').getAttribute('href') || '')"
                           ".includes('#puzzle=')")
    best = page.locator(".cellula-play__regret").get_attribute("data-best")
    assert best
    link.click()
    page.wait_for_function("() => (document.querySelector('.cellula-analysis textarea') || {value: ''}).value"
                           f".includes('{ROUND_TWO_PUZZLE}-round-')")
    _solve(page)
    assert page.locator(".cellula-analysis__health").get_attribute("data-health") == best
