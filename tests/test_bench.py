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
