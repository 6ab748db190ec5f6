"""The deck suite (issue #35): every bounding method of :mod:`solver.benchmarks.bounds` on every
puzzle of :mod:`solver.benchmarks.deck_suite`, under one budget of CP-SAT deterministic time, and
the rows kept in ``bench.json`` (traces in ``suite_traces.json``, the plot in ``suite.svg``)."""
from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from solver.io.progress import note, over
from solver.io.puzzle import load_puzzle
from .deck import check_deck_agreement
from .plots import suite_svg
from .results import read_json, write_json

SUITE_DETERMINISTIC = 10.0
"""CP-SAT deterministic seconds per method and suite puzzle (``--det``)."""
SUITE_WORKERS = 2
"""CP-SAT workers of the suite runs (``--workers``), recorded in ``bench.json``."""
SUITE_KEYS = ("suite_conditions", "suite_summary", "suite")
"""The fields of ``bench.json`` a ``--suite`` run writes (the traces go to ``suite_traces.json``,
the plot to ``suite.svg``)."""


def suite_rows(files: Sequence[Path], methods: Sequence[Any], deterministic: float, workers: int,
               on_row: Callable[[dict[str, Any]], None] | None = None,
               done: dict[tuple[str, str], dict[str, Any]] | None = None,
               wall: bool = False, seed: int = 0) -> list[dict[str, Any]]:
    """Every method of ``methods`` (:class:`solver.benchmarks.bounds.BoundMethod`) on every suite puzzle, at most
    ``deterministic`` deterministic seconds each; every plan replayed by the rules engine, and every
    puzzle's proven optima, plans and bounds checked against each other (a contradiction stops).
    ``wall``: each row also keeps its wall-clock seconds and ``seed`` (:func:`proof_rows`)."""
    from .bounds import run_method
    from ..solution import _verified
    rows: list[dict[str, Any]] = []
    for path in over(list(files), "deck suite"):
        puzzle = load_puzzle(path)
        mine = []
        for method in methods:
            if done and (puzzle.id, method.name) in done:      # --resume: measured by an earlier run
                mine.append(done[puzzle.id, method.name])
                if on_row is not None:
                    on_row(done[puzzle.id, method.name])
                continue
            res = run_method(method.model(puzzle), method, deterministic, workers, seed)
            if res.plan:
                _verified(puzzle, res.plan, res.objective, method.name)  # type: ignore[arg-type]
            gap = None if res.bound is None or res.objective is None else res.bound - res.objective
            row = {"id": puzzle.id, "placements": puzzle.rounds * puzzle.flasks, "edition": puzzle.edition.value,
                   "players": puzzle.players, "deck_cards": len(puzzle.deck), "engine": method.name,
                   "status": res.status, "objective": res.objective, "bound": res.bound, "gap": gap,
                   "gap_percent": None if gap is None or not res.bound else round(100 * gap / res.bound, 1),
                   "deterministic_seconds": res.deterministic_seconds, "cpu_seconds": res.cpu_seconds,
                   "trace": res.trace}
            if wall:
                row["wall_seconds"], row["seed"] = res.wall_seconds, seed
            mine.append(row)
            if on_row is not None:
                on_row(row)
            note(f"  {puzzle.id} {method.name}: {res.status} {res.objective} bound {res.bound} "
                 f"({res.deterministic_seconds} det s, {res.cpu_seconds} CPU s)")
        check_deck_agreement(mine)
        rows += mine
    return rows


def suite_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per method and size: puzzles proven, median and worst deterministic seconds to the proof
    (a run not proven counts as its budget, and the worst is then "not proven"), median gap."""
    out = []
    for key in sorted({(r["placements"], r["engine"]) for r in rows}, key=lambda k: (k[0], [r["engine"] for r in rows].index(k[1]))):
        rs = [r for r in rows if (r["placements"], r["engine"]) == key]
        proven = [r for r in rs if r["status"] == "optimal"]
        det = [r["deterministic_seconds"] if r["status"] == "optimal" else math.inf for r in rs]
        gaps = [r["gap_percent"] for r in rs if r["gap_percent"] is not None]
        out.append({"placements": key[0], "engine": key[1], "instances": len(rs), "proven": len(proven),
                    # rounded as the runs' own figures are: a median of two is their mean, 15.785499999999999
                    "median_deterministic_seconds": round(statistics.median(det), 3),
                    "worst_deterministic_seconds": max(det),
                    "median_gap_percent": round(statistics.median(gaps), 2) if gaps else None,
                    "worst_gap_percent": max(gaps) if gaps else None})
    return out


def write_suite_result(out: Path, rows: list[dict[str, Any]], deterministic: float, workers: int) -> None:
    """Merge the suite's rows into ``out/bench.json`` (:data:`SUITE_KEYS`), their traces into
    ``out/suite_traces.json`` and the plot into ``out/suite.svg``."""
    import ortools
    result = read_json(out / "bench.json")
    result["suite_conditions"] = {
        "measure": "CP-SAT deterministic time, not wall-clock (comparable however loaded the machine)",
        "deterministic_seconds_per_worker": deterministic, "workers": workers, "seed": 0,
        "ortools": ortools.__version__, "cores": os.cpu_count(),
        "reported_deterministic_seconds": "CP-SAT's total over its workers (up to about workers x the budget)",
        "plot_time": "process CPU seconds, all workers"}
    result["suite_summary"] = suite_summary(rows)
    for s in result["suite_summary"]:      # JSON has no infinity: a run not proven is null there
        for k in ("median_deterministic_seconds", "worst_deterministic_seconds"):
            if s[k] == math.inf:
                s[k] = None
    result["suite"] = [{k: v for k, v in r.items() if k != "trace"} for r in rows]
    write_json(out / "bench.json", result)
    traces = {f"{r['id']} | {r['engine']}": r["trace"] for r in rows}
    write_json(out / "suite_traces.json", traces, indent=None)
    (out / "suite.svg").write_text(suite_svg(rows), encoding="utf-8")


def read_suite_rows(out: Path) -> list[dict[str, Any]]:
    """The suite's rows as written by :func:`write_suite_result`, their traces put back."""
    rows = read_json(out / "bench.json").get("suite", [])
    traces = read_json(out / "suite_traces.json")
    return [dict(r, trace=traces.get(f"{r['id']} | {r['engine']}", [])) for r in rows if isinstance(r, dict)]


# --------------------------------------------------------------------------- proof times (#35 targets)

PROOF_DETERMINISTIC = 60.0
"""CP-SAT deterministic seconds a worker of a ``--proofs`` run (``--proof-det``)."""
PROOF_SEEDS = (0, 1, 2)
"""The seeds of a ``--proofs`` run (``--proof-seeds``). Two workers do not repeat a run: the same
16-placement suite gave medians of 12.9, 14.2 and 13.7 s on seeds 0, 1 and 2, and one puzzle
(suite-12) 34.7, 24.7 and 58.5 s, so one seed's median is one draw, not the planner's speed."""
PROOF_TARGETS: dict[int, tuple[float | None, float | None]] = {16: (10.0, 60.0), 24: (60.0, None)}
"""Issue #35's targets per size: (median, worst) seconds to the proof on an idle 2-core machine."""
PROOF_KEYS = ("proof_conditions", "proof_summary", "proof_runs", "proofs")
"""The fields of ``bench.json`` a ``--proofs`` run writes."""


def proof_rows(files: Sequence[Path], deterministic: float, workers: int, seeds: Sequence[int] = (0,),
               on_row: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """The planner as it ships (the ``baseline`` method: its model, its two workers) on every suite
    puzzle, once per seed of ``seeds`` (all puzzles on one seed, then the next), at most
    ``deterministic`` deterministic seconds a worker, with wall-clock seconds: how long a user waits
    for each proof, against the targets of :data:`PROOF_TARGETS`."""
    from .bounds import METHODS
    baseline = [m for m in METHODS if m.name == "baseline"]
    return [{k: v for k, v in r.items() if k not in ("engine", "trace")}
            for seed in seeds
            for r in suite_rows(files, baseline, deterministic, workers, on_row, wall=True, seed=seed)]


def _seed_of(row: dict[str, Any]) -> int:
    """A proof row's seed: rows measured before runs had seeds ran on seed 0."""
    return int(row.get("seed", 0))


def _finite(v: float) -> float | None:
    """``v`` rounded for JSON, None where infinite (not proven)."""
    return None if v == math.inf else round(v, 2)


def proof_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per size: puzzles, runs (a puzzle per seed) and runs proven; each seed's median wall-clock
    seconds to the proof and their median (the figure the targets are held to; None when more than
    half a seed's runs are not proven); the worst run's seconds (None when one is not proven) and
    the worst gap of the runs not proven (each run's deterministic seconds are in its row)."""
    out = []
    for n in sorted({r["placements"] for r in rows}):
        rs = [r for r in rows if r["placements"] == n]
        def to_proof(runs: list[dict[str, Any]]) -> list[float]:
            return [r["wall_seconds"] if r["status"] == "optimal" else math.inf for r in runs]
        seeds = sorted({_seed_of(r) for r in rs})
        medians = [statistics.median(to_proof([r for r in rs if _seed_of(r) == seed])) for seed in seeds]
        target_median, target_worst = PROOF_TARGETS.get(n, (None, None))
        gaps = [r["gap_percent"] for r in rs if r["status"] != "optimal" and r["gap_percent"] is not None]
        out.append({"placements": n, "instances": len({r["id"] for r in rs}), "runs": len(rs),
                    "proven": sum(r["status"] == "optimal" for r in rs), "seeds": seeds,
                    "median_wall_seconds_by_seed": [_finite(m) for m in medians],
                    "median_wall_seconds": _finite(statistics.median(medians)),
                    "target_median_seconds": target_median,
                    "worst_wall_seconds": _finite(max(to_proof(rs))), "target_worst_seconds": target_worst,
                    "worst_gap_percent": max(gaps) if gaps else None})
    return out


def write_proof_result(out: Path, rows: list[dict[str, Any]], deterministic: float, workers: int,
                       loads: dict[int, tuple[float, float]]) -> None:
    """Merge a ``--proofs`` run into ``out/bench.json`` (:data:`PROOF_KEYS`): its sizes replace
    those sizes' earlier rows, other sizes' rows stay. ``loads``: the load average before and after
    each size's runs, kept with its day in ``proof_runs`` (wall-clock seconds depend on it)."""
    import datetime
    import ortools
    result = read_json(out / "bench.json")
    sizes = {r["placements"] for r in rows}
    def others(key: str) -> list[dict[str, Any]]:
        return [s for s in result.get(key, []) if isinstance(s, dict) and s.get("placements") not in sizes]
    today = datetime.date.today().isoformat()
    runs = [{"placements": n, "measured": today, "load_before": round(a, 2), "load_after": round(b, 2)}
            for n, (a, b) in sorted(loads.items())]
    result["proof_conditions"] = {
        "planner": "as it ships (baseline: max_lp + pseudo_costs)", "workers": workers,
        "seeds": sorted({_seed_of(r) for r in rows}),
        "deterministic_seconds_per_worker": deterministic, "cores": os.cpu_count(), "ortools": ortools.__version__,
        "targets": "seconds on an idle 2-core machine, wall-clock; a loaded machine's wall-clock is longer"}
    summary = sorted(others("proof_summary") + proof_summary(rows), key=lambda s: s["placements"])
    all_runs = sorted(others("proof_runs") + runs, key=lambda s: s["placements"])
    proofs = sorted(others("proofs") + rows, key=lambda r: (r["placements"], r["id"], _seed_of(r)))
    for key in ("proof_summary", "proof_runs", "proofs"):      # the page shows them in this order
        result.pop(key, None)
    result["proof_summary"], result["proof_runs"], result["proofs"] = summary, all_runs, proofs
    write_json(out / "bench.json", result)
