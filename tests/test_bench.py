"""The planner benchmark's measuring rules: the exhaustive search's cap, CP-SAT over several seeds,
the printed table and the plot."""
from __future__ import annotations

import pytest

from solver.benchmarks import deck, plots, scale, suite, tables


@pytest.mark.parametrize("cap, cpsat_seconds, max_cap, expected", [
    (60.0, 0.5, 600.0, 60.0),      # fast CP-SAT: the plain cap
    (60.0, 10.0, 600.0, 100.0),    # slow CP-SAT: 10x its time, so a stopped run still shows 10x
    (60.0, 100.0, 600.0, 600.0),   # never past --max-cap
    (60.0, 100.0, 30.0, 60.0),     # a --max-cap under --cap leaves --cap
    (60.0, 10.312, 600.0, 103.2),  # rounded up: 103.2 / 10.312 >= 10 (103.1 would be 9.998)
])
def test_exhaustive_cap(cap, cpsat_seconds, max_cap, expected):
    assert scale.exhaustive_cap(cap, cpsat_seconds, max_cap) == expected


def test_cpsat_is_timed_on_every_seed_and_reports_the_median():
    row = scale.time_cpsat(scale.scale_puzzle(4), cap=30.0)
    assert row["cpsat_status"] == "optimal" and row["gap"] == 0
    assert len(row["cpsat_seconds_seeds"]) == len(scale.SEEDS)
    assert row["cpsat_seconds"] == sorted(row["cpsat_seconds_seeds"])[len(scale.SEEDS) // 2]


ROW = {"placements": 16, "optimum": 26, "cpsat_status": "optimal", "cpsat_seconds": 9.5, "gap": 0,
       "highs_seconds": 11.0, "exhaustive_seconds": None, "exhaustive_cap_seconds": 95.0,
       "exhaustive_capped": True, "ratio": 10.0, "ratio_is_lower_bound": True}


def test_table_shows_each_rows_own_cap():
    line = tables.puzzle_table([ROW], 60.0).splitlines()[-1]
    assert "| > 95 |" in line and "| ≥ 10×" in line


def test_plot_draws_a_stopped_run_at_its_own_cap():
    svg = plots.scale_svg([dict(ROW, placements=4), ROW], 60.0)
    assert "cap 60 s" in svg and ">10 s<" in svg        # the axis reaches past the 95 s cap
    assert svg.count('fill="white" stroke="#d62728"') == 2   # both exhaustive runs drawn open


# --------------------------------------------------------------------------- the deck series (#15)

DECK_ROW = {"placements": 24, "edition": "2e", "engine": "CP-SAT, 2 workers", "status": "feasible",
            "objective": 34, "bound": 40, "gap": 6, "gap_percent": 15.0, "seconds": 60.0}


@pytest.mark.parametrize("engine", ["CP-SAT, 1 worker", deck.BESIDE_SEARCH])
def test_deck_row_replays_the_plan_and_reports_the_gap(engine):
    from solver.benchmarks.deck_family import deck_puzzle
    row = deck.deck_row(deck_puzzle(8), engine, deck.DECK_ENGINES[engine], 30.0)
    assert row["status"] == "optimal" and row["gap"] == 0 and row["objective"] == row["bound"] == 17


@pytest.mark.parametrize("rows, message", [
    ([dict(DECK_ROW, status="optimal", objective=34, bound=34, engine="a"),
      dict(DECK_ROW, status="optimal", objective=35, bound=35, engine="b")], "prove different optima"),
    ([dict(DECK_ROW, engine="a", objective=34, bound=40), dict(DECK_ROW, engine="b", objective=20, bound=30)],
     "bound 30 below a plan of 34"),
])
def test_deck_engines_that_disagree_stop_the_benchmark(rows, message):
    with pytest.raises(RuntimeError, match=message):
        deck.check_deck_agreement(rows)


def test_plot_draws_the_deck_series_with_a_stopped_run_open():
    deck = [dict(DECK_ROW, placements=16, status="optimal", objective=26, bound=26, seconds=1.8), DECK_ROW]
    svg = plots.scale_svg([dict(ROW, placements=4), ROW], 60.0, deck_rows=deck)
    assert "CP-SAT, deck (2w)" in svg and svg.count('fill="white" stroke="#ff7f0e"') == 1
    assert ">24<" in svg                    # the axis reaches the deck series' longest puzzle


def test_deck_table_is_the_engine_table_with_the_deck_columns():
    head, rule, row = tables.engine_table([DECK_ROW], tables.DECK_COLUMNS).splitlines()
    assert head == "| placements | edition | engine | status | Health | bound | gap | seconds |"
    assert rule == "|" + "---|" * 8
    assert row == "| 24 | 2e | CP-SAT, 2 workers | feasible | 34 | 40 | 6 (15.0 %) | 60.00 |"


@pytest.mark.parametrize("sizes", ["8,x", "6", "48", ""])
def test_deck_sizes_are_checked(sizes, capsys, tmp_path):
    from solver.cli import main
    assert main(["bench", "--deck", "--deck-sizes", sizes, "--out", str(tmp_path)]) == 2
    assert "--deck-sizes: expected" in capsys.readouterr().err


@pytest.fixture
def earlier_deck(tmp_path, monkeypatch):
    """A ``bench.json`` with deck rows at 16, 24 and the whole game, and a deck series that answers
    at once (its rows: a plan one better than before, tagged ``new``)."""
    from solver.benchmarks import cli as bench_cli
    from solver.benchmarks.results import write_json
    rows = [dict(DECK_ROW, placements=n) for n in (16, 24, deck.WHOLE_GAME)]
    write_json(tmp_path / "bench.json", {"deck": rows, "deck_methods": [dict(DECK_ROW, engine="old")], "deck_cap_seconds": 60.0,
                                         "deck_whole_cap_seconds": 600.0})
    monkeypatch.setattr(bench_cli, "deck_series", lambda sizes, cap, whole: [
        dict(DECK_ROW, placements=n, objective=35, engine="new") for n in sizes])
    monkeypatch.setattr(bench_cli, "deck_methods", lambda cap, n: [dict(DECK_ROW, engine=f"methods {n}")])
    return tmp_path


@pytest.mark.parametrize("sizes, engines, methods", [
    ("24", {16: "CP-SAT, 2 workers", 24: "new", 44: "CP-SAT, 2 workers"}, "old"),
    ("16,32", {16: "new", 24: "CP-SAT, 2 workers", 32: "new", 44: "CP-SAT, 2 workers"}, "methods 16"),
])
def test_a_deck_run_replaces_its_sizes_and_keeps_the_others(earlier_deck, sizes, engines, methods):
    from solver.benchmarks.results import read_json
    from solver.cli import main
    assert main(["bench", "--deck", "--deck-sizes", sizes, "--out", str(earlier_deck)]) == 0
    now = read_json(earlier_deck / "bench.json")
    assert {r["placements"]: r["engine"] for r in now["deck"]} == engines
    assert [r["placements"] for r in now["deck"]] == sorted(engines)
    assert [r["engine"] for r in now["deck_methods"]] == [methods]


@pytest.mark.parametrize("options, message", [
    (["--deck-sizes", "24", "--cap", "30"], "--cap: the deck series' other sizes were measured with 60 s, got 30"),
    (["--deck-sizes", "24", "--whole-cap", "300"], "--whole-cap: the whole game was measured with 600 s, got 300"),
])
def test_a_deck_run_with_other_caps_does_not_mix_its_rows_with_the_kept_ones(earlier_deck, options, message, capsys):
    from solver.cli import main
    assert main(["bench", "--deck", *options, "--out", str(earlier_deck)]) == 2
    assert message in capsys.readouterr().err


# --------------------------------------------------------------------------- the deck suite (#35)

SUITE_ROWS = [
    {"id": "a", "placements": 16, "engine": "baseline", "status": "optimal", "objective": 20, "bound": 20, "gap": 0,
     "gap_percent": 0.0, "deterministic_seconds": 2.0, "cpu_seconds": 3.0, "trace": [[0.5, None, 30], [1.0, 18, 25], [3.0, 20, 20]]},
    {"id": "a", "placements": 16, "engine": "spot symmetry", "status": "feasible", "objective": 19, "bound": 22, "gap": 3,
     "gap_percent": 13.6, "deterministic_seconds": 10.0, "cpu_seconds": 12.0, "trace": [[1.0, 19, 22]]},
    {"id": "b", "placements": 16, "engine": "baseline", "status": "feasible", "objective": 10, "bound": 12, "gap": 2,
     "gap_percent": 16.7, "deterministic_seconds": 10.0, "cpu_seconds": 12.0, "trace": [[2.0, 10, 12]]},
]


def test_suite_summary_counts_an_unproven_run_as_not_proven():
    rows = {(s["placements"], s["engine"]): s for s in suite.suite_summary(SUITE_ROWS)}
    base = rows[16, "baseline"]
    assert base["instances"] == 2 and base["proven"] == 1 and base["worst_deterministic_seconds"] == float("inf")
    assert base["median_gap_percent"] == pytest.approx(8.35) and rows[16, "spot symmetry"]["proven"] == 0
    table = tables.suite_summary_table(suite.suite_summary(SUITE_ROWS))
    assert "| 16 | baseline | 1/2 |" in table
    # the seconds are the workers' total: a budget a worker would be no ceiling, so no "> 5" here
    assert "| 16 | baseline | 1/2 | not proven | not proven |" in table and ">" not in table


def test_suite_table_is_the_engine_table_with_the_suite_columns():
    lines = tables.engine_table(SUITE_ROWS, tables.SUITE_COLUMNS).splitlines()
    assert lines[0] == "| puzzle | method | status | Health | bound | gap | det s | CPU s |"
    assert lines[2] == "| a | baseline | optimal | 20 | 20 | 0 (0.0 %) | 2.00 | 3.00 |"
    assert lines[3] == "| a | spot symmetry | feasible | 19 | 22 | 3 (13.6 %) | 10.00 | 12.00 |" and len(lines) == 5


def test_suite_plot_names_each_method_and_escapes_it():
    svg = plots.suite_svg(SUITE_ROWS + [dict(SUITE_ROWS[2], engine="a<b")])
    assert "16 placements" in svg and ">spot symmetry<" in svg and "a&lt;b" in svg and "<polyline" in svg


def test_suite_plot_fits_a_legend_of_every_method_in_a_colour_of_its_own():
    import re
    from solver.benchmarks.bounds import METHODS
    assert len(METHODS) <= 20
    many = [dict(SUITE_ROWS[0], engine=f"method {k}") for k in range(20)]
    svg = plots.suite_svg(many)
    height = float(re.search(r'viewBox="0 0 [0-9.]+ ([0-9.]+)"', svg)[1])
    lowest_text = max(float(y) for y in re.findall(r'<text x="[0-9.]+" y="([0-9.]+)"', svg))
    assert lowest_text < height and ">method 19<" in svg
    legend = re.findall(r'<line x1="[0-9.]+" y1="[0-9.]+" x2="[0-9.]+" y2="[0-9.]+" stroke="(#[0-9a-f]+)" stroke-width="2"/>', svg)
    assert len(set(legend)) == 20


def test_suite_result_round_trips_with_its_traces(tmp_path):
    suite.write_suite_result(tmp_path, SUITE_ROWS, 5.0, 2)
    data = __import__("json").loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert data["suite_conditions"]["workers"] == 2 and "trace" not in data["suite"][0]
    assert data["suite_summary"][0]["worst_deterministic_seconds"] is None     # not proven: no infinity in JSON
    assert suite.read_suite_rows(tmp_path) == SUITE_ROWS and (tmp_path / "suite.svg").exists()


PROOF_ROWS = [dict({k: v for k, v in r.items() if k not in ("engine", "trace")}, wall_seconds=w, id=i)
              for r, w, i in ((SUITE_ROWS[0], 4.0, "a"), (dict(SUITE_ROWS[0], deterministic_seconds=8.0), 9.0, "c"),
                              (SUITE_ROWS[2], 11.0, "b"))]


def test_proof_summary_sets_each_size_beside_its_targets():
    """Two of three proven: the median is the slower proof; the worst is not proven (None), and the
    gap reported is the unproven run's. Rows from before seeds count as seed 0."""
    (row,) = suite.proof_summary(PROOF_ROWS)
    assert (row["placements"], row["instances"], row["runs"], row["proven"], row["seeds"]) == (16, 3, 3, 2, [0])
    assert row["median_wall_seconds"] == 9.0 and row["worst_wall_seconds"] is None
    assert row["median_wall_seconds_by_seed"] == [9.0]
    assert (row["target_median_seconds"], row["target_worst_seconds"]) == suite.PROOF_TARGETS[16]
    assert row["worst_gap_percent"] == 16.7
    table = tables.proof_summary_table([row]).splitlines()
    assert table[2] == "| 16 | 2/3 | 9.00 | 9.00 | < 10 | not proven | < 60 | 16.70 |"


def _seeded(seed: int, seconds: tuple[float, float, float]) -> list[dict]:
    """PROOF_ROWS run on ``seed``, every puzzle proven, in ``seconds``."""
    return [dict(r, seed=seed, status="optimal", bound=r["objective"], gap=0, gap_percent=0.0, wall_seconds=w)
            for r, w in zip(PROOF_ROWS, seconds)]


@pytest.mark.parametrize("runs, medians, median, worst", [
    ([(0, (1.0, 2.0, 3.0)), (1, (4.0, 5.0, 6.0)), (2, (7.0, 8.0, 90.0))], [2.0, 5.0, 8.0], 5.0, 90.0),
    ([(0, (1.0, 2.0, 3.0)), (5, (1.0, 1.0, 1.0))], [2.0, 1.0], 1.5, 3.0),
])
def test_the_targets_are_held_to_the_median_of_the_seeds_medians(runs, medians, median, worst):
    """One seed's median is one draw of a two-worker run: the summary keeps each seed's and their
    median; the worst is the slowest run of all."""
    rows = [r for seed, seconds in runs for r in _seeded(seed, seconds)]
    (row,) = suite.proof_summary(rows)
    assert row["seeds"] == [seed for seed, _ in runs] and row["runs"] == 3 * len(runs) and row["instances"] == 3
    assert row["median_wall_seconds_by_seed"] == medians and row["median_wall_seconds"] == median
    assert row["worst_wall_seconds"] == worst and row["proven"] == row["runs"]
    cells = tables.proof_summary_table([row]).splitlines()[2].split(" | ")
    assert cells[3] == " / ".join(f"{m:.2f}" for m in medians)


@pytest.mark.parametrize("text, seeds", [("0,1,2", [0, 1, 2]), ("7", [7]), (" 3, 1", [3, 1]),
                                         ("0,0", None), ("0,00", None), ("a", None), ("-1", None), ("", None),
                                         ("1,,2", None)])
def test_proof_seeds_are_checked(text, seeds, capsys):
    from solver.cli import build_parser
    if seeds is not None:
        assert build_parser().parse_args(["bench", "--proof-seeds", text]).proof_seeds == seeds
        return
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["bench", "--proof-seeds", text])
    assert exit_.value.code == 2
    assert f"--proof-seeds: expected distinct whole numbers separated by commas (e.g. 0,1,2), got {text!r}" \
        in capsys.readouterr().err


@pytest.mark.parametrize("text, shown", [("2147483648", "2147483648"), ("0,99999999999", "99999999999")])
def test_proof_seeds_are_bounded_as_the_seed_option(text, shown, capsys):
    """CP-SAT's seed is a 32-bit integer: a larger one is refused as ``--seed`` refuses it, not
    passed on to CP-SAT (which would stop with a traceback)."""
    from solver.cli import MAX_SEED, build_parser
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["bench", "--proof-seeds", text])
    assert exit_.value.code == 2
    assert f"--proof-seeds: expected an integer from 0 to {MAX_SEED}, got {shown!r}" in capsys.readouterr().err


def test_a_proofs_run_merges_its_fields_and_keeps_the_others(tmp_path):
    """Another benchmark's fields stay; a run of one size replaces that size's rows only."""
    json = __import__("json")
    other = dict(PROOF_ROWS[0], id="z", placements=24)
    (tmp_path / "bench.json").write_text(json.dumps({"suite": [{"id": "x"}], "proofs": [other, PROOF_ROWS[0]],
                                                     "proof_summary": suite.proof_summary([other])}), encoding="utf-8")
    suite.write_proof_result(tmp_path, PROOF_ROWS, 60.0, 2, {16: (1.5, 2.25)})
    data = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert data["suite"] == [{"id": "x"}] and data["proofs"] == sorted(PROOF_ROWS, key=lambda r: r["id"]) + [other]
    assert data["proof_conditions"]["workers"] == 2 and [s["placements"] for s in data["proof_summary"]] == [16, 24]
    assert data["proof_summary"][0]["proven"] == 2 and data["proof_runs"][0]["load_before"] == 1.5
    assert [r["placements"] for r in data["proof_runs"]] == [16]


def test_proof_rows_time_the_shipped_planner_and_replay_its_plans():
    from solver.benchmarks.deck_suite import suite_files
    first, second = suite.proof_rows(suite_files(small=True)[:1], 5.0, 1, seeds=(0, 3))
    for row in (first, second):
        assert row["status"] == "optimal" and row["objective"] == row["bound"] and row["wall_seconds"] > 0
        assert "engine" not in row and "trace" not in row
    assert (first["seed"], second["seed"]) == (0, 3) and first["objective"] == second["objective"]


# --------------------------------------------------------------------------- the command line

def test_the_command_lines_defaults_are_the_benchmarks(capsys):
    """``solver/cli.py`` writes the bench options' defaults out (building its parser imports no
    benchmark): they must be the benchmarks' own, in the values and in the help."""
    from solver.cli import build_parser
    args = build_parser().parse_args(["bench"])
    assert args.deck_sizes == ",".join(map(str, deck.DECK_SIZES)) and args.whole_cap == deck.WHOLE_GAME_CAP
    assert args.max_cap == scale.MAX_CAP and args.det == suite.SUITE_DETERMINISTIC
    assert args.workers == suite.SUITE_WORKERS and args.proof_det == suite.PROOF_DETERMINISTIC
    assert args.proof_seeds == list(suite.PROOF_SEEDS)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"whole game ({deck.WHOLE_GAME} placements)" in help_text
    assert f"(default {','.join(map(str, deck.DECK_SIZES))}: up to a whole game)" in help_text
    assert f"(default {deck.WHOLE_GAME_CAP:g})" in help_text and f"(default {scale.MAX_CAP:g})" in help_text


def test_a_plain_run_keeps_the_deck_series_and_the_suite(tmp_path, monkeypatch):
    """``bench`` (shipped puzzles and scale curve) rewrites its own fields of ``bench.json`` and
    keeps what ``--deck`` and ``--suite`` runs wrote there."""
    from solver.benchmarks import cli as bench_cli
    from solver.benchmarks.results import read_json, write_json
    from solver.cli import build_parser
    earlier = {"solver_version": "0", "puzzles": [{"id": "gone"}], "deck": [DECK_ROW], "deck_cap_seconds": 60.0,
               "suite": [{"id": "a"}], "suite_summary": [], "suite_conditions": {"workers": 2}}
    write_json(tmp_path / "bench.json", earlier)
    monkeypatch.setattr(bench_cli, "puzzle_files", lambda: [])
    assert bench_cli.main(build_parser().parse_args(["bench", "--quick", "--out", str(tmp_path)])) == 0
    now = read_json(tmp_path / "bench.json")
    assert now["puzzles"] == [] and now["solver_version"] != "0"
    assert {k: now[k] for k in ("deck", "deck_cap_seconds", "suite", "suite_summary", "suite_conditions")} == \
        {k: earlier[k] for k in ("deck", "deck_cap_seconds", "suite", "suite_summary", "suite_conditions")}


def test_a_suite_run_does_not_merge_rows_of_another_budget(tmp_path, monkeypatch, capsys):
    """``bench --suite --methods`` at another deterministic budget than the rows it would keep is
    refused before anything is computed, naming both budgets and the kept methods; at the same
    budget, or with nothing kept, it may merge."""
    from solver.benchmarks import cli as bench_cli
    from solver.cli import build_parser
    suite.write_suite_result(tmp_path, SUITE_ROWS, 5.0, 2)
    monkeypatch.setattr(bench_cli, "suite_rows", lambda *a, **k: pytest.fail("a run was started"))
    args = build_parser().parse_args(["bench", "--suite", "--methods", "baseline", "--det", "10", "--out", str(tmp_path)])
    assert bench_cli.main(args) == 2
    err = capsys.readouterr().err
    assert "--det 10" in err and "--det 5.0" in err and "spot symmetry" in err
    assert bench_cli.mixed_suite_budget({"deterministic_seconds_per_worker": 5.0, "workers": 2}, SUITE_ROWS, 5.0, 2) is None
    assert bench_cli.mixed_suite_budget({"deterministic_seconds_per_worker": 5.0, "workers": 2}, [], 10.0, 2) is None
    assert "--workers 1" in bench_cli.mixed_suite_budget({"deterministic_seconds_per_worker": 5.0, "workers": 2},
                                                         SUITE_ROWS, 5.0, 1)
