"""``bench.json`` and its folder: where every benchmark run writes, and how a run reads the fields
the others wrote (a ``--deck`` or ``--suite`` run merges its own fields into the file).

``bench.json`` shape (the site's Benchmark page reads it)::

    {
      "solver_version": "2.1.0",
      "machine": {"cores": 2, "python": "3.11.x", "ortools": "9.15.6755"},
      "cap_seconds": 60.0,                 # CP-SAT runs stop here; exhaustive runs at least here
      "seeds": [0, 1, 2],                  # CP-SAT seeds (1 worker each)
      "targets": {"shipped_seconds": 5, "sixteen_placements_seconds": 60, "speedup_from_10": 10},
      "puzzles": [                         # one row per shipped puzzle, file order
        {"id": "market-day-2e", "grade": 2, "placements": 6, "optimum": 7,
         "cpsat_status": "optimal",        # optimal | feasible (not proven within the cap)
         "cpsat_seconds": 0.03,            # median over the seeds
         "cpsat_seconds_seeds": [0.03, 0.02, 0.04],
         "highs_seconds": 0.2,
         "exhaustive_seconds": 1.2,        # null when stopped at its cap
         "exhaustive_cap_seconds": 60.0,   # max(cap_seconds, 10 x cpsat_seconds), at most --max-cap
         "exhaustive_capped": false,
         "ratio": 40.0,                    # exhaustive / CP-SAT; with a capped exhaustive: its cap / CP-SAT
         "ratio_is_lower_bound": false}    # true when the exhaustive run was capped
      ],
      "scale": [                           # the scale curve, same fields without id/grade
        {"placements": 4, "optimum": 9, "cpsat_status": "optimal", "cpsat_seconds": 0.05, "gap": 0,
         "highs_seconds": 0.1, "exhaustive_seconds": 0.4, "exhaustive_capped": false,
         "ratio": 8.0, "ratio_is_lower_bound": false}
      ],
      "scale_grey": [                      # the same puzzles with 1 grey flask a round (CP-SAT, HiGHS;
        {"placements": 4, "grey_flasks": 1, "optimum": 9, "cpsat_status": "optimal",   # exhaustive
         "cpsat_seconds": 0.1, "gap": 0, "highs_seconds": 0.1}                        # not run)
      ]
    }

A ``--deck`` run writes :data:`solver.benchmarks.deck.DECK_KEYS` (``deck``: one row per engine and
size, ``deck_methods``: the methods tried) and a ``--suite`` run
:data:`solver.benchmarks.suite.SUITE_KEYS`; every run keeps the fields it does not write.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.io.puzzle import ROOT

OUT = ROOT / "docs" / "assets" / "bench"
"""The default output folder (``--out``): the site's Benchmark page reads ``bench.json`` there."""


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``, or an empty one when it is missing, unreadable or not an object
    (a first run, or one that was stopped while writing)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_json(path: Path, data: dict[str, Any] | list[Any], indent: int | None = 1) -> None:
    """``data`` written to ``path`` (its folder made first), UTF-8, one newline at the end."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
