"""The planner benchmark's measuring rules: the exhaustive search's cap, CP-SAT over several seeds,
the printed table and the plot."""
from __future__ import annotations

import pytest

from solver import bench


@pytest.mark.parametrize("cap, cpsat_seconds, max_cap, expected", [
    (60.0, 0.5, 600.0, 60.0),      # fast CP-SAT: the plain cap
    (60.0, 10.0, 600.0, 100.0),    # slow CP-SAT: 10x its time, so a stopped run still shows 10x
    (60.0, 100.0, 600.0, 600.0),   # never past --max-cap
    (60.0, 100.0, 30.0, 60.0),     # a --max-cap under --cap leaves --cap
    (60.0, 10.312, 600.0, 103.2),  # rounded up: 103.2 / 10.312 >= 10 (103.1 would be 9.998)
])
def test_exhaustive_cap(cap, cpsat_seconds, max_cap, expected):
    assert bench.exhaustive_cap(cap, cpsat_seconds, max_cap) == expected


def test_cpsat_is_timed_on_every_seed_and_reports_the_median():
    row = bench.time_cpsat(bench.scale_puzzle(4), cap=30.0)
    assert row["cpsat_status"] == "optimal" and row["gap"] == 0
    assert len(row["cpsat_seconds_seeds"]) == len(bench.SEEDS)
    assert row["cpsat_seconds"] == sorted(row["cpsat_seconds_seeds"])[len(bench.SEEDS) // 2]


ROW = {"placements": 16, "optimum": 26, "cpsat_status": "optimal", "cpsat_seconds": 9.5, "gap": 0,
       "highs_seconds": 11.0, "exhaustive_seconds": None, "exhaustive_cap_seconds": 95.0,
       "exhaustive_capped": True, "ratio": 10.0, "ratio_is_lower_bound": True}


def test_table_shows_each_rows_own_cap():
    line = bench.table([ROW], "placements", 60.0).splitlines()[-1]
    assert "| > 95 |" in line and "| ≥ 10×" in line


def test_plot_draws_a_stopped_run_at_its_own_cap():
    svg = bench.scale_svg([dict(ROW, placements=4), ROW], 60.0)
    assert "cap 60 s" in svg and ">10 s<" in svg        # the axis reaches past the 95 s cap
    assert svg.count('fill="white" stroke="#d62728"') == 2   # both exhaustive runs drawn open


# --------------------------------------------------------------------------- the deck series (#15)

DECK_ROW = {"placements": 24, "edition": "2e", "engine": "CP-SAT, 2 workers", "status": "feasible",
            "objective": 34, "bound": 40, "gap": 6, "gap_percent": 15.0, "seconds": 60.0}


def test_deck_row_replays_the_plan_and_reports_the_gap():
    from solver.market import deck_puzzle
    row = bench.deck_row(deck_puzzle(8), "CP-SAT, 1 worker", bench.DECK_ENGINES["CP-SAT, 1 worker"], 30.0)
    assert row["status"] == "optimal" and row["gap"] == 0 and row["objective"] == row["bound"] == 17


@pytest.mark.parametrize("rows, message", [
    ([dict(DECK_ROW, status="optimal", objective=34, bound=34, engine="a"),
      dict(DECK_ROW, status="optimal", objective=35, bound=35, engine="b")], "prove different optima"),
    ([dict(DECK_ROW, engine="a", objective=34, bound=40), dict(DECK_ROW, engine="b", objective=20, bound=30)],
     "bound 30 below a plan of 34"),
])
def test_deck_engines_that_disagree_stop_the_benchmark(rows, message):
    with pytest.raises(RuntimeError, match=message):
        bench.check_deck_agreement(rows)


def test_plot_draws_the_deck_series_with_a_stopped_run_open():
    deck = [dict(DECK_ROW, placements=16, status="optimal", objective=26, bound=26, seconds=1.8), DECK_ROW]
    svg = bench.scale_svg([dict(ROW, placements=4), ROW], 60.0, deck_rows=deck)
    assert "CP-SAT, deck (2w)" in svg and svg.count('fill="white" stroke="#ff7f0e"') == 1
    assert ">24<" in svg                    # the axis reaches the deck series' longest puzzle


@pytest.mark.parametrize("sizes", ["8,x", "6", "48", ""])
def test_deck_sizes_are_checked(sizes, capsys, tmp_path):
    from solver.cli import main
    assert main(["bench", "--deck", "--deck-sizes", sizes, "--out", str(tmp_path)]) == 2
    assert "--deck-sizes: expected" in capsys.readouterr().err
