"""Worked-example pages: one per puzzle and language, step tables that match the solution, labelled
illustrative values, the greedy contrast, rule links, assumptions, benchmark."""
from __future__ import annotations

import html as html_lib
import json
import posixpath
import re
from pathlib import Path

import markdown
import pytest

from generator import i18n
from generator.puzzles import feature as puzzle_pages
from generator.puzzles.texts import link_title
from generator.puzzles.play_data import names_of
from generator.rules import SITE_LANGUAGES
from generator.puzzles.model import PUZZLES as PUZZLE_SET

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = sorted((ROOT / "data" / "puzzles").glob("*.yaml"))
PUZZLE_IDS = [p.stem for p in PUZZLES]

TABLE = re.compile(r'<table class="cellula-steps".*?</table>', re.S)
ROW = re.compile(r'<tr markdown="block">(.*?)</tr>', re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
FINAL = re.compile(r'<td class="cellula-steps__final">(-?\d+)</td>')
MD_LINK = re.compile(r"\]\(([^)\s]+)(?: \"[^\"]*\")?\)")


@pytest.fixture(scope="module")
def puzzle_set(real_site):
    loaded = real_site.get(PUZZLE_SET)
    assert isinstance(loaded, puzzle_pages.PuzzleSet)
    return loaded


@pytest.fixture(scope="module")
def pages(real_site):
    """The puzzle pages and the rules-coverage page they link to (generator.audit_page)."""
    from generator import audit_page
    return {(p.lang, p.path): p for lang in SITE_LANGUAGES
            for p in puzzle_pages.produce(real_site, lang) + audit_page.produce(real_site, lang)}


@pytest.fixture(scope="module")
def entries(puzzle_set):
    return {e.puzzle.id: e for e in puzzle_set.entries}


def step_tables(content: str) -> list[str]:
    return TABLE.findall(content)


# --------------------------------------------------------------------------- pages


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_a_page_per_puzzle_in_each_language(pages, puzzle_id, lang):
    page = pages[(lang, f"cytosis/puzzles/{puzzle_id}.md")]
    assert page.title in page.content
    index = pages[(lang, puzzle_pages.INDEX_PAGE)].content
    assert f"({puzzle_id}.md)" in index


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_step_table_has_a_row_per_step_and_the_solution_health(pages, entries, puzzle_id, lang):
    solution = entries[puzzle_id].record["solution"]
    tables = step_tables(pages[(lang, f"cytosis/puzzles/{puzzle_id}.md")].content)
    assert tables, "no step table"
    optimal = tables[0]
    rows = ROW.findall(optimal)
    assert len(rows) == len(solution["plan"]) == len(solution["steps"])
    for row, step in zip(rows, solution["steps"]):
        cells = CELL.findall(row)
        number, _, mark = cells[0].partition(" ")    # "9 <abbr ...>!</abbr>" on an only move
        assert int(number) == step["index"] and (not mark or 'class="cellula-only"' in mark)
        assert int(cells[-1]) == step["state"]["health"]
        assert [int(c) for c in cells[-6:-1]] == [step["state"]["stock"][f] for f in puzzle_pages.STOCK_FIELDS]
    assert int(FINAL.search(optimal).group(1)) == solution["health"]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("path", [f"cytosis/puzzles/{p}.md" for p in PUZZLE_IDS] + [puzzle_pages.BENCH_PAGE])
def test_every_markdown_table_has_named_columns(pages, path, lang):
    """An empty header cell reads as a blank row on screen and means nothing to a screen reader."""
    content = pages[(lang, path)].content.splitlines()
    tables = 0
    for number, line in enumerate(content[1:], start=1):
        if re.fullmatch(r"\|(?:-+\|)+", line.strip()):
            tables += 1
            headers = content[number - 1].strip().strip("|").split("|")
            assert all(h.strip() for h in headers), f"{path} ({lang}): unnamed column in {content[number - 1]!r}"
    assert tables > 0


@pytest.mark.parametrize("lang, one, wrong", [("en", "3 ATP on 1 card;", "1 cards"), ("it", "3 ATP su 1 carta;", "1 carte")])
def test_opponent_detox_figures_agree_in_number(pages, entries, lang, one, wrong):
    assert [d.cards for d in entries["long-game-1e"].puzzle.detox_opponents] == [1, 1]
    content = pages[(lang, "cytosis/puzzles/long-game-1e.md")].content
    assert one in content and wrong not in content


@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_recorded_optimum_matches_the_puzzle_expectation(entries, puzzle_id):
    import yaml
    expected = (yaml.safe_load((ROOT / "data" / "puzzles" / f"{puzzle_id}.yaml").read_text()).get("expected") or {})
    record = entries[puzzle_id].record
    assert record["solution"]["status"] == "optimal"
    if "health" in expected:
        assert record["solution"]["health"] == expected["health"]


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_card_values_are_labelled(pages, entries, puzzle_id, lang):
    content = pages[(lang, f"cytosis/puzzles/{puzzle_id}.md")].content
    badge = puzzle_pages.UI[lang]["illustrative"]
    names = names_of(entries[puzzle_id].puzzle, lang)
    for card in entries[puzzle_id].puzzle.cards:
        # a card's row starts with its name (never its data id)
        row = next(line for line in content.splitlines() if line.startswith(f"| {puzzle_pages.md_inline(names[card.id])} |"))
        if card.illustrative:
            assert f'cellula-badge--illustrative">{badge}<' in row
        else:
            assert "cellula-badge--rulebook" in row and badge not in row
    if any(c.illustrative for c in entries[puzzle_id].puzzle.cards):
        assert puzzle_pages.UI[lang]["illustrative_note"] in content


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_steps_with_illustrative_cards_carry_the_badge(pages, entries, lang):
    entry = entries["two-player-detox-2e"]
    used = [s for s in entry.record["solution"]["steps"]
            if s["action"].get("card") and entry.puzzle.card(s["action"]["card"]).illustrative]
    assert used, "the fixture puzzle should complete an illustrative card"
    rows = ROW.findall(step_tables(pages[(lang, "cytosis/puzzles/two-player-detox-2e.md")].content)[0])
    for step in used:
        assert "cellula-badge--illustrative" in rows[step["index"] - 1]


def section_anchors(site) -> dict[str, set[str]]:
    game = site.games["cytosis"]
    return {f"cytosis/{c.id}.md": {game.sections[s].anchor for s in c.sections} for c in game.chapters}


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_rule_links_resolve_to_section_anchors(real_site, pages, lang):
    anchors = section_anchors(real_site)
    own = {path for (l, path) in pages if l == lang}
    checked = 0
    for (page_lang, path), page in pages.items():
        if page_lang != lang:
            continue
        for href in MD_LINK.findall(page.content):
            target, _, anchor = href.partition("#")
            if not target:              # same-page anchor: a heading id of this page
                assert f"{{ #{anchor} }}" in page.content, f"{path}: {href}"
                continue
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if resolved in anchors:
                assert anchor in anchors[resolved], f"{path}: {href}"
                checked += 1
            else:
                assert resolved in own, f"{path}: {href} leads nowhere"
    assert checked > 0


@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_every_step_links_its_rule_sections(real_site, pages, entries, puzzle_id):
    page = pages[("en", f"cytosis/puzzles/{puzzle_id}.md")]
    rows = ROW.findall(step_tables(page.content)[0])
    for row, step in zip(rows, entries[puzzle_id].record["solution"]["steps"]):
        for section in step["sections"]:
            anchor = real_site.games["cytosis"].sections[section].anchor
            assert re.search(f"#{re.escape(anchor)}[ )]", row), (section, row)


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_puzzle_pages_link_the_board_assumptions(pages, entries, lang):
    for puzzle_id, entry in entries.items():
        content = pages[(lang, f"cytosis/puzzles/{puzzle_id}.md")].content
        assert f"(../assumptions.md#board-{entry.puzzle.board.id})" in content
        assert f"{{ #board-{entry.puzzle.board.id} }}" in pages[(lang, puzzle_pages.ASSUMPTIONS_PAGE)].content


@pytest.mark.parametrize("side", ["3-5p", "2p"])
@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_assumptions_page_lists_every_board_value_with_its_source(pages, side, lang):
    from solver import load_board
    board = load_board(side)
    content = pages[(lang, puzzle_pages.ASSUMPTIONS_PAGE)].content
    section = content.split(f"{{ #board-{side} }}", 1)[1].split("\n## ", 1)[0]
    for spot in board.spots:
        row = next(line for line in section.splitlines() if f"| `{spot.id}` |" in line)
        assert f"cellula-badge--{spot.provenance}" in row
    rows = {line.split("`")[1]: line for line in section.splitlines() if line.count("`") >= 2}
    for area, provenance in board.vesicle_provenance:
        assert f"cellula-badge--{provenance}" in rows[area.value]
    for boost in board.boosts:
        assert f"cellula-badge--{boost.provenance}" in rows[boost.event]
    assumed = (sum(s.provenance == "assumed" for s in board.spots) + sum(p == "assumed" for _, p in board.vesicle_provenance)
               + sum(b.provenance == "assumed" for b in board.boosts))
    assert section.count("cellula-badge--assumed") == assumed


def test_plan_assumptions_are_the_non_rulebook_values_the_plan_uses(entries):
    entry = entries["market-day-2e"]
    items = puzzle_pages.plan_assumptions(entry.puzzle, entry.record["solution"]["plan"])
    keys = {i.key for i in items}
    assert "spot:card-row-2" in keys and "vesicles:rough-er" in keys
    assert all(i.provenance is not puzzle_pages.Provenance.RULEBOOK for i in items)
    assert "spot:glucose-1" not in keys  # used, but from the rulebook


# --------------------------------------------------------------------------- greedy


@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_the_greedy_contrast_is_the_solvers_policy_below_the_optimum(entries, puzzle_id):
    """The record's greedy contrast is ``solver.greedy_plan`` replayed (its own tests:
    tests/test_greedy.py), scoring at most the optimum the page shows."""
    from solver import greedy_plan, replay, score
    entry = entries[puzzle_id]
    plan, complete = greedy_plan(entry.puzzle)
    _steps, final = replay(entry.puzzle, plan)
    assert entry.record["greedy"]["plan"] == [a.to_dict() for a in plan]
    assert entry.record["greedy"]["complete"] == complete
    if complete:
        assert entry.record["greedy"]["health"] == score(final).total <= entry.record["solution"]["health"]


# --------------------------------------------------------------------------- engines and proof


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("record, must, must_not", [
    ({"solution": {"status": "optimal", "engine": "cpsat", "stats": {}}, "confirmed_by": ["exhaustive"]},
     ["`cpsat`", "`exhaustive`"], ["proof_unconfirmed", "proof_unknown"]),
    ({"solution": {"status": "optimal", "engine": "exhaustive", "stats": {"nodes": 12}}, "confirmed_by": []},
     ["`exhaustive`", "12", "proof_unconfirmed"], []),
    ({"solution": {"status": "feasible", "engine": "cpsat", "stats": {}}, "bound": 11, "gap": 2},
     ["11", "proof_feasible"], ["proof_optimal"]),
    ({"solution": {"status": "optimal", "engine": "cpsat", "stats": {"highs_seconds": 60.0}}, "confirmed_by": []},
     ["proof_one_engine", "60.0"], ["proof_unconfirmed", "proof_unknown"]),
    ({"solution": {"status": "feasible", "engine": "cpsat", "stats": {"recorded": {"seconds": 601.9, "workers": 2}}},
      "bound": 183, "gap": 129, "other_readings_skipped": True},
     ["proof_feasible", "601.9", "other_readings_skipped"], ["proof_unknown", "proof_optimal"]),
    ({"solution": {"status": "optimal", "engine": "cpsat", "stats": {"completions_cap": True}}, "confirmed_by": ["highs"]},
     ["proof_completions_cap", "`highs`"], ["proof_unconfirmed"]),
    ({"solution": {"status": "optimal", "engine": "cpsat", "stats": {"completions_cap": False}}, "confirmed_by": ["highs"]},
     ["`highs`"], ["proof_completions_cap"]),
])
def test_proof_lines_say_which_engine_and_whether_proven(record, must, must_not, lang):
    ui = puzzle_pages.UI[lang]
    text = "\n".join(puzzle_pages.proof_lines(record, lang))
    for word in must:
        expected = ui[word].split("{")[0] if word in ui else word
        if re.fullmatch(r"[0-9.]+", word):       # a figure, as the page's language writes numbers
            expected = i18n.number(float(word), lang)
        assert expected in text
    for word in must_not:
        assert ui[word].split("{")[0] not in text


# --------------------------------------------------------------------------- benchmark and escaping


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_benchmark_page_says_when_not_run(tmp_path, lang):
    page = puzzle_pages.bench_page(tmp_path, lang, ())
    assert puzzle_pages.UI[lang]["bench_missing"] in page.content and "scale.svg)" not in page.content


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_benchmark_page_embeds_chart_and_table(tmp_path, lang):
    bench = tmp_path / "assets" / "bench"
    bench.mkdir(parents=True)
    (bench / "scale.svg").write_text("<?xml version='1.0'?>\n<svg xmlns='http://www.w3.org/2000/svg'>\n<rect/>\n</svg>\n")
    (bench / "bench.json").write_text(json.dumps({"puzzles": [{"id": "p-1", "cpsat_seconds": 1.5, "capped": True},
                                                               {"id": "gone", "cpsat_seconds": 2, "capped": False}]}))
    page = puzzle_pages.bench_page(tmp_path, lang, (), ("p-1",))
    # The plot is inlined (no image file to publish per language), without its XML declaration.
    assert "<svg xmlns='http://www.w3.org/2000/svg'> <rect/> </svg>" in page.content
    assert "<?xml" not in page.content
    ui = puzzle_pages.UI[lang]
    assert f"| [p-1](puzzles/p-1.md) | 1.5 | {ui['yes']} |" in page.content
    assert f"| gone | 2 | {ui['no']} |" in page.content
    assert puzzle_pages.UI[lang]["bench_missing"] not in page.content


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_benchmark_page_embeds_the_suites_plot_with_its_caption(tmp_path, lang):
    bench = tmp_path / "assets" / "bench"
    bench.mkdir(parents=True)
    (bench / "suite.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'>\n<text>suite</text>\n</svg>\n")
    (bench / "bench.json").write_text(json.dumps({"suite_summary": [{"placements": 16, "engine": "baseline"}]}))
    page = puzzle_pages.bench_page(tmp_path, lang, ())
    ui = puzzle_pages.UI[lang]
    assert "<text>suite</text>" in page.content and ui["bench_suite_chart"] in page.content
    assert f"## {ui['bench_labels']['suite_summary']}" in page.content


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_every_field_of_the_committed_benchmark_has_a_name(lang):
    """The page names each list and column from the catalogue; a field a benchmark run adds without
    a name would show as its raw key."""
    from generator.puzzles.bench_page import BENCH_LABELS
    data = json.loads((Path(__file__).parents[1] / "docs" / "assets" / "bench" / "bench.json").read_text(encoding="utf-8"))
    keys = set()
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            keys |= {key, *(k for row in value for k in row)}
        elif not isinstance(value, dict):
            keys.add(key)
    assert sorted(k for k in keys if lang not in BENCH_LABELS.get(k, {})) == []


@pytest.mark.parametrize("data, titles, rows, facts", [
    ([{"a": 1, "b": 2}, {"a": 3, "c": None}], [""], [[("1", "2", "–"), ("3", "–", "–")]], []),
    ({"solver_version": "2.0.0", "machine": {"cores": 2}, "puzzles": [{"id": "p", "cpsat_seconds": 0.1}],
      "scale": [{"placements": 4}]}, ["The site's puzzles", "Scale curve (generated puzzles)"],
     [[("p", "0.1")], [("4",)]], [("Planner version", "2.0.0"), ("machine.cores", "2")]),
    ({"total": 3}, [], [], [("total", "3")]),
    ([{"cpsat_seconds_seeds": [0.5, 1.25, 2]}, {"cpsat_seconds_seeds": [{"x": 1}]}], [""],
     [[("0.5 / 1.25 / 2",), ('\\[{"x": 1}\\]',)]], []),
    # Each seed's median, one of them not proven.
    ([{"median_wall_seconds_by_seed": [13.82, None, 12.5]}], [""], [[("13.82 / – / 12.5",)]], []),
    # Proof times over seeds: runs proven of all runs, the median of the seeds' medians with each
    # seed's; one seed shows its median alone; a run before seeds shows its fields as they are.
    ([{"runs": 36, "proven": 30, "seeds": [0, 1, 2], "median_wall_seconds": 13.07,
       "median_wall_seconds_by_seed": [12.52, 13.88, 13.07]},
      {"runs": 36, "proven": 9, "seeds": [0, 1, 2], "median_wall_seconds": None,
       "median_wall_seconds_by_seed": [None, None, 40.1]},
      {"runs": 12, "proven": 3, "seeds": [0], "median_wall_seconds": None, "median_wall_seconds_by_seed": [None]}],
     [""], [[("30 / 36", "13.07 (12.52 / 13.88 / 13.07)"), ("9 / 36", "– (– / – / 40.1)"), ("3 / 12", "–")]], []),
    ([{"proven": 3, "instances": 12}], [""], [[("3", "12")]], []),
    # Read together: CP-SAT's median with its range over seeds, the exhaustive time or its cap, the ratio.
    ([{"cpsat_seconds": 1.4, "cpsat_seconds_seeds": [1.7, 1.4, 0.6], "exhaustive_seconds": None,
       "exhaustive_cap_seconds": 60.0, "exhaustive_capped": True, "ratio": 42.9, "ratio_is_lower_bound": True},
      {"cpsat_seconds": 0.03, "cpsat_seconds_seeds": [0.03], "exhaustive_seconds": 24.7,
       "exhaustive_cap_seconds": 60.0, "exhaustive_capped": False, "ratio": 823.3, "ratio_is_lower_bound": False},
      {"cpsat_seconds": None, "exhaustive_seconds": None, "ratio": None}], [""],
     [[("1.4 (0.6–1.7)", "&gt; 60.0", "≥ 42.9×"), ("0.03", "24.7", "823.3×"), ("–", "–", "–")]], []),
    # The gap with its share of the bound in one cell; a table without the share keeps the plain gap.
    ({"proofs": [{"gap": 2, "gap_percent": 8.0}, {"gap": 0, "gap_percent": 0.0}, {"gap": None, "gap_percent": None}],
      "puzzles": [{"gap": 3}]}, ["Deck suite, the planner as it ships: each puzzle's proof, with wall-clock seconds (bench --proofs)", "The site's puzzles"],
     [[("2 (8.0 %)",), ("0 (0.0 %)",), ("–",)], [("3",)]], []),
])
def test_bench_tables_shapes(data, titles, rows, facts):
    got_facts, tables = puzzle_pages.bench_tables(data, "en")
    assert [t.title for t in tables] == titles
    assert [list(t.rows) for t in tables] == rows
    assert got_facts == facts


@pytest.mark.parametrize("lang, headers", [
    ("en", ("Puzzle", "CP-SAT (s): median (min–max)", "Exhaustive (s)", "Exhaustive / CP-SAT")),
    ("it", ("Rompicapo", "CP-SAT (s): mediana (min–max)", "Esaustiva (s)", "Esaustiva / CP-SAT")),
])
def test_bench_composite_cells_replace_their_fields(lang, headers):
    _, [table] = puzzle_pages.bench_tables({"puzzles": [
        {"id": "p", "cpsat_seconds": 1, "cpsat_seconds_seeds": [1, 2], "exhaustive_seconds": 3,
         "exhaustive_capped": False, "exhaustive_cap_seconds": 60, "ratio": 3, "ratio_is_lower_bound": False}]},
        lang, {"p": "puzzles/p.md"})
    assert table.headers == headers
    assert table.rows == (("[p](puzzles/p.md)", "1 (1–2)", "3", "3×"),)


@pytest.mark.parametrize("raw, escaped", [
    ("<script>", "&lt;script&gt;"), ("a|b", "a\\|b"), ("[x](y)", "\\[x\\](y)"), ("*_`", "\\*\\_\\`"),
])
def test_md_inline_escapes_markup(raw, escaped):
    assert puzzle_pages.md_inline(raw) == escaped


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("status, health, must", [
    ("feasible", 5, ["proof_feasible", "greedy_score"]),
    ("infeasible", None, ["proof_infeasible", "no_plan", "greedy_alone"]),
    ("unknown", None, ["proof_unknown", "no_plan_unknown", "greedy_alone"]),
])
def test_pages_for_unproven_or_unsolved_records(real_site, puzzle_set, entries, status, health, lang, must):
    from dataclasses import replace
    entry = entries["market-day-2e"]
    solution = dict(entry.record["solution"], status=status, health=health)
    if health is None:
        solution.update(plan=[], steps=[], breakdown=None)
    record = dict(entry.record, solution=solution, bound=9 if status == "feasible" else None,
                  gap=4 if status == "feasible" else None)
    typed = replace(entry.solution, status=status, health=health, proven=False, bound=record["bound"],
                    **({} if health is not None else {"plan": (), "steps": (), "breakdown": None}))
    page = puzzle_pages.puzzle_page(real_site, puzzle_set, replace(entry, record=record, solution=typed), lang, ())
    ui = puzzle_pages.UI[lang]
    for key in must:
        assert ui[key].split("{")[0] in page.content, key
    assert ("cellula-steps__final" in page.content) == (health is not None or entry.record["greedy"]["complete"])


# --------------------------------------------------------------------------- other readings


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_worked_example_shows_the_optimum_under_the_other_reading(pages, entries, lang):
    """rule-disk-named-at-exocytosis-1e scores 3 under disk-card: at-exocytosis and 0 under at-er
    (its twin rule-disk-card-at-er-1e): the page says so and shows the other plan."""
    record = entries["rule-disk-named-at-exocytosis-1e"].record
    others = {(o["ruling"], o["reading"]): o for o in record["other_readings"]}
    other = others[("disk-card", "at-er")]
    assert other["health"] == 0 and not other["same"] and other["steps"]
    content = pages[(lang, "cytosis/puzzles/rule-disk-named-at-exocytosis-1e.md")].content
    assert puzzle_pages.UI[lang]["other_readings"] in content
    assert i18n.plural("puzzles.other_differs", lang, 0, this=3) in content
    words = puzzle_pages.UI[lang]["ruling_names"]["disk-card"]
    assert f"{puzzle_pages.md_inline(words['name'])}: {puzzle_pages.md_inline(words['at-er'])}" in content
    assert "disk-card" not in content


def test_other_readings_only_for_rulings_in_play(entries):
    """No grey flask, no other readings of the grey-flask rulings; one vesicle card, no disk-card."""
    for entry in entries.values():
        asked = {o["ruling"] for o in entry.record["other_readings"]}
        puzzle = entry.puzzle
        if puzzle.grey_flasks == 0:
            assert not asked & {"grey-then-exhaust", "grey-flask-area-limit"}, puzzle.id
        assert asked <= set(puzzle.readings()), puzzle.id
        for other in entry.record["other_readings"]:
            assert other["reading"] != puzzle.readings()[other["ruling"]]


def test_same_optimum_is_said_and_no_plan_repeated(entries):
    same = [o for e in entries.values() for o in e.record["other_readings"] if o["same"]]
    assert same and all("steps" not in o for o in same)


@pytest.mark.parametrize("tip", [
    "MITOCHONDRIA (MITOCONDRIO - Produzione ATP)",
    "CARTA ATTACCO VIRALE DALL'AREA",
    'a "quoted" {braced} <b>bold</b> & more',
    "*not emphasis* _nor this_ `nor code` [nor a link](x) back\\slash",
])
def test_a_link_tooltip_reaches_the_page_exactly_as_given(tip):
    """Rule links carry their tooltip in data-tip through Markdown's attribute lists, which are read
    after Markdown's inline syntax: nothing in the text may act as markup or end the list."""
    out = markdown.markdown(f'[label](x.md#y){{ data-tip="{link_title(tip)}" }}', extensions=["attr_list"])
    match = re.search(r'data-tip="([^"]*)"', out)
    assert match, out
    assert html_lib.unescape(match.group(1)) == tip
    assert ">label</a>" in out and "{" not in out.split("</a>")[1]


def _reader_text(content: str) -> str:
    """What a reader reads of a page's Markdown: without the proof details block (engines and
    budgets, folded on purpose), data attributes, code and link targets."""
    content = re.sub(r'<details class="cellula-proof__details".*?</details>', "", content, flags=re.S)
    content = re.sub(r'\s(?:data-[\w-]+|class|id|href)="[^"]*"', "", content)
    content = re.sub(r"\]\([^)]*\)", "]", content)
    return content


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_no_internal_ids_or_solver_names_in_reader_text(pages, entries, lang):
    """Issue #36: cards, spots, goals and rulings by their names on every puzzle page (step texts,
    vesicles, why, other readings, statement), and the solvers' names only in the folded proof
    details."""
    from solver.game.model import Ruling
    found: dict[str, list[str]] = {}
    for puzzle_id, entry in entries.items():
        puzzle = entry.puzzle
        ids = {i for i in [c.id for c in puzzle.cards] + [s.id for s in puzzle.board.spots] + [g.id for g in puzzle.goals]
               + [r.value for r in Ruling] if "-" in i}
        pattern = re.compile(r"(?<![\w/#.-])(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
                             + r"|CP-SAT|HiGHS)(?![\w-])")
        text = _reader_text(pages[(lang, f"cytosis/puzzles/{puzzle_id}.md")].content)
        hits = pattern.findall(text)
        if hits:
            found[puzzle_id] = sorted(set(hits))
    assert found == {}
