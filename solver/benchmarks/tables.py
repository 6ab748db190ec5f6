"""The benchmark's printed tables (Markdown, as pasted into notes and reviews).

:func:`markdown` writes every table; the deck series and the deck suite share one row shape (an
engine's plan, bound and gap on one puzzle, :func:`engine_table`), told apart only by the columns
that name the puzzle and the columns of time (:data:`DECK_COLUMNS`, :data:`SUITE_COLUMNS`).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


def fmt(value: object, unit: str = "") -> str:
    """A cell: ``-`` for a missing value, floats to two decimals."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}{unit}"
    return f"{value}{unit}"


def markdown(head: Sequence[str], body: Iterable[Sequence[str]]) -> str:
    """A Markdown table of the header ``head`` and the rows of cells ``body``."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


# --------------------------------------------------------------------------- one engine, one puzzle

@dataclass(frozen=True)
class EngineColumns:
    """What sets a table of engine rows apart: the columns naming the puzzle and the engine
    (header, row field), and the columns of seconds (header, row field; two decimals)."""

    names: tuple[tuple[str, str], ...]
    seconds: tuple[tuple[str, str], ...]


DECK_COLUMNS = EngineColumns(names=(("placements", "placements"), ("edition", "edition"), ("engine", "engine")),
                             seconds=(("seconds", "seconds"),))
"""The deck series (``bench --deck``): wall-clock seconds."""
SUITE_COLUMNS = EngineColumns(names=(("puzzle", "id"), ("method", "engine")),
                              seconds=(("det s", "deterministic_seconds"), ("CPU s", "cpu_seconds")))
"""The deck suite (``bench --suite``): CP-SAT deterministic seconds and process CPU seconds."""


def engine_table(rows: Sequence[dict[str, Any]], columns: EngineColumns) -> str:
    """One row per engine run: ``columns``' names, the status, the plan's Health, the proven bound,
    the gap (and its share of the bound), then ``columns``' seconds."""
    head = [h for h, _ in columns.names] + ["status", "Health", "bound", "gap"] + [h for h, _ in columns.seconds]

    def cells(r: dict[str, Any]) -> list[str]:
        gap = "-" if r["gap"] is None else f"{r['gap']} ({r['gap_percent']} %)"
        return ([str(r[k]) for _, k in columns.names] + [r["status"], fmt(r["objective"]), fmt(r["bound"]), gap]
                + [f"{r[k]:.2f}" for _, k in columns.seconds])
    return markdown(head, map(cells, rows))


# --------------------------------------------------------------------------- the other tables

def puzzle_table(rows: Sequence[dict[str, Any]], cap: float) -> str:
    """The shipped puzzles (rows with an ``id``) or the scale curve: CP-SAT, HiGHS and the
    exhaustive search's seconds and their ratio (``> cap`` and ``≥`` for a stopped exhaustive run)."""
    named = any("id" in r for r in rows)
    head = (["puzzle"] if named else []) + ["placements", "optimum", "CP-SAT s", "status", "HiGHS s",
                                            "exhaustive s", "exhaustive / CP-SAT"]

    def cells(r: dict[str, Any]) -> list[str]:
        ex = f"> {r.get('exhaustive_cap_seconds', cap):g}" if r["exhaustive_capped"] else fmt(r["exhaustive_seconds"])
        ratio = "-" if r["ratio"] is None else ("≥ " if r["ratio_is_lower_bound"] else "") + f"{r['ratio']:g}×"
        status = (r["cpsat_status"] if r["cpsat_status"] in ("optimal", "unsupported")
                  else f"{r['cpsat_status']} (gap {r['gap']})")
        return (([r["id"]] if named else []) + [str(r["placements"]), fmt(r["optimum"]), fmt(r["cpsat_seconds"]),
                                                status, fmt(r["highs_seconds"]), ex, ratio])
    return markdown(head, map(cells, rows))


def grey_table(rows: Sequence[dict[str, Any]]) -> str:
    """The scale curve with a grey flask a round: CP-SAT and HiGHS only."""
    return markdown(["placements", "optimum", "CP-SAT s", "status", "HiGHS s"],
                    ([str(r["placements"]), fmt(r["optimum"]), fmt(r["cpsat_seconds"]), r["cpsat_status"],
                      fmt(r["highs_seconds"])] for r in rows))


def ablation_table(rows: Sequence[dict[str, Any]], cap: float) -> str:
    """Seconds to a proven optimum per puzzle and model option (``> cap``: not proven)."""
    keys = [k for k in rows[0] if k != "puzzle"]
    return markdown(["puzzle"] + keys,
                    ([r["puzzle"]] + [f"> {cap:g}" if r[k] is None else f"{r[k]:.2f}" for k in keys] for r in rows))


def suite_summary_table(summary: Sequence[dict[str, Any]]) -> str:
    """The suite per size and method (:func:`solver.benchmarks.suite.suite_summary`). The seconds
    are CP-SAT's total over its workers, so a budget a worker is no ceiling for them: a median or
    worst that includes a run not proven reads ``not proven``."""
    def det(v: float) -> str:
        return "not proven" if v == math.inf else f"{v:.2f}"
    return markdown(["placements", "method", "proven", "median det s (all workers)", "worst det s (all workers)",
                     "median gap %", "worst gap %"],
                    ([str(s["placements"]), s["engine"], f"{s['proven']}/{s['instances']}",
                      det(s["median_deterministic_seconds"]), det(s["worst_deterministic_seconds"]),
                      fmt(s["median_gap_percent"]), fmt(s["worst_gap_percent"])] for s in summary))


def proof_summary_table(summary: Sequence[dict[str, Any]]) -> str:
    """The shipped planner's proof times per size (:func:`solver.benchmarks.suite.proof_summary`)
    beside issue #35's targets: runs proven, the median of the seeds' medians and each seed's;
    ``not proven`` where that many runs stopped at the budget."""
    def sec(v: float | None) -> str:
        return "not proven" if v is None else f"{v:.2f}"

    def target(v: float | None) -> str:
        return "-" if v is None else f"< {v:g}"
    return markdown(["placements", "runs proven", "median wall s", "per seed", "target", "worst wall s", "target",
                     "worst gap % (not proven)"],
                    ([str(s["placements"]), f"{s['proven']}/{s['runs']}", sec(s["median_wall_seconds"]),
                      " / ".join(sec(m) for m in s["median_wall_seconds_by_seed"]),
                      target(s["target_median_seconds"]), sec(s["worst_wall_seconds"]), target(s["target_worst_seconds"]),
                      fmt(s["worst_gap_percent"])] for s in summary))
