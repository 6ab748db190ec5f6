"""``python -m solver bench``: the benchmark's command. :func:`main` is all the runtime's command
line imports (and only when ``bench`` runs); it dispatches to the shipped puzzles and scale curve
(the default), the deck series (``--deck``), the deck suite (``--suite``), the shipped planner's
proof times on that suite (``--proofs``), the bound by completion sets on it (``--completion-sets``)
or the ablation (``--ablation``), prints the tables and writes ``bench.json`` and the plots (see
:mod:`solver.benchmarks.results`)."""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.io.progress import note, over
from solver.io.puzzle import load_puzzle, puzzle_files
from .deck import DECK_KEYS, METHODS_PLACEMENTS, WHOLE_GAME, deck_methods, deck_series
from .plots import scale_svg
from .results import OUT, read_json, write_json
from .scale import MAX_PLACEMENTS, SEEDS, TARGETS, ablation, measure, scale_puzzle, time_cpsat
from .suite import SUITE_KEYS, read_suite_rows, suite_rows, suite_summary, write_suite_result
from .tables import (DECK_COLUMNS, SUITE_COLUMNS, ablation_table, engine_table, grey_table, proof_summary_table,
                     puzzle_table, suite_summary_table)

if TYPE_CHECKING:
    import argparse


def parse_placements(text: str, option: str, most: int | None = None) -> list[int]:
    """The placements of a series (``--sizes``, ``--deck-sizes``): multiples of 4, comma-separated;
    with ``most``, at least one and none above it. ValueError naming ``option`` otherwise."""
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"{option}: expected placements like 4,8,12, got {text!r}") from None
    if any(s <= 0 or s % 4 for s in sizes) or (most is not None and (not sizes or max(sizes) > most)):
        span = "" if most is None else f" from 4 to {most}"
        raise ValueError(f"{option}: expected multiples of 4{span}, got {text!r}")
    return sizes


def main(args: argparse.Namespace) -> int:
    """``python -m solver bench`` with the options of :func:`solver.cli.build_parser`: 0 when done,
    2 (after an ``error:`` line) on a bad option value."""
    try:
        sizes = parse_placements(args.sizes, "--sizes", most=MAX_PLACEMENTS)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else OUT
    if getattr(args, "deck", False):
        return deck_main(args, out)
    if getattr(args, "proofs", False):
        return proofs_main(args, out)
    if getattr(args, "suite", False):
        return suite_main(args, out)
    if getattr(args, "completion_sets", False):
        return completion_sets_main(args)
    if getattr(args, "ablation", False):
        print("CP-SAT seconds to a proven optimum (1 worker unless said)\n\n" + ablation_table(ablation(args.cap), args.cap))
        return 0
    return scale_main(args, sizes, out)


def scale_main(args: argparse.Namespace, sizes: list[int], out: Path) -> int:
    """``bench`` (and ``--quick``): the shipped puzzles and the scale curve (``sizes``), written to
    ``bench.json`` (the deck series' and the suite's fields kept) and ``scale.svg``."""
    import ortools

    from .. import SOLVER_VERSION
    cap = args.cap
    max_cap = args.max_cap
    result: dict[str, Any] = {"solver_version": SOLVER_VERSION,
              "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "ortools": ortools.__version__},
              "cap_seconds": cap, "seeds": list(SEEDS), "targets": TARGETS, "puzzles": [], "scale": [], "scale_grey": []}
    previous = read_json(out / "bench.json")
    for key in DECK_KEYS + SUITE_KEYS:     # a plain run keeps the last deck series and deck suite
        if key in previous:
            result[key] = previous[key]
    for path in over(puzzle_files(), "shipped puzzles"):
        p = load_puzzle(path)
        row = {"id": p.id, "grade": p.grade, "placements": p.rounds * p.flasks, **measure(p, cap, max_cap)}
        result["puzzles"].append(row)
        note(f"  {p.id}: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']}), exhaustive "
             f"{'capped' if row['exhaustive_capped'] else row['exhaustive_seconds']}")
    if not args.quick:
        for n in over(sizes, "scale curve"):
            row = {"placements": n, **measure(scale_puzzle(n), cap, max_cap)}
            result["scale"].append(row)
            note(f"  scale {n}: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']}), exhaustive "
                 f"{'capped' if row['exhaustive_capped'] else row['exhaustive_seconds']}")
        for n in over(sizes, "scale curve, grey flasks"):      # with a grey flask a round: CP-SAT and HiGHS only
            row = {"placements": n, "grey_flasks": 1, **time_cpsat(scale_puzzle(n, grey=1), cap)}
            result["scale_grey"].append(row)
            note(f"  scale {n} grey: CP-SAT {row['cpsat_seconds']} s ({row['cpsat_status']})")
    print("Shipped puzzles\n\n" + puzzle_table(result["puzzles"], cap))
    if result["scale"]:
        print("\nScale curve\n\n" + puzzle_table(result["scale"], cap))
        print("\nScale curve, 1 grey flask a round\n\n" + grey_table(result["scale_grey"]))
    write_json(out / "bench.json", result)
    if result["scale"]:
        (out / "scale.svg").write_text(scale_svg(result["scale"], cap, result["scale_grey"], result.get("deck")),
                                       encoding="utf-8")
    print(f"\nwrote {out / 'bench.json'}" + (f" and {out / 'scale.svg'}" if result["scale"] else ""))
    return 0


def kept_caps_fault(result: dict[str, Any], kept: list[dict[str, Any]], cap: float, whole_cap: float) -> str | None:
    """Why rows of an earlier ``--deck`` run cannot stay beside this run's (they were measured with
    another cap), or None."""
    if any(r.get("placements") != WHOLE_GAME for r in kept) and result.get("deck_cap_seconds") not in (None, cap):
        return (f"--cap: the deck series' other sizes were measured with {result['deck_cap_seconds']:g} s, "
                f"got {cap:g}; give the same cap or re-run every size (--deck-sizes)")
    if any(r.get("placements") == WHOLE_GAME for r in kept) and result.get("deck_whole_cap_seconds") not in (None, whole_cap):
        return (f"--whole-cap: the whole game was measured with {result['deck_whole_cap_seconds']:g} s, "
                f"got {whole_cap:g}; give the same cap or re-run it (--deck-sizes ...,{WHOLE_GAME})")
    return None


def deck_main(args: argparse.Namespace, out: Path) -> int:
    """``bench --deck``: the deck series merged into ``bench.json`` (the sizes of ``--deck-sizes``
    replace those sizes' earlier rows, other sizes' rows stay if measured with the same caps), and
    the methods tried on :data:`METHODS_PLACEMENTS` placements when that size is run."""
    try:
        sizes = parse_placements(args.deck_sizes, "--deck-sizes", most=WHOLE_GAME)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = read_json(out / "bench.json")
    kept = [r for r in result.get("deck", []) if isinstance(r, dict) and r.get("placements") not in sizes]
    fault = kept_caps_fault(result, kept, args.cap, args.whole_cap)
    if fault:
        print(f"error: {fault}", file=sys.stderr)
        return 2
    rows = sorted(kept + deck_series(sizes, args.cap, args.whole_cap), key=lambda r: r["placements"])
    result.update(deck_cap_seconds=args.cap, deck_whole_cap_seconds=args.whole_cap, deck=rows)
    if METHODS_PLACEMENTS in sizes:
        result["deck_methods"] = deck_methods(args.cap, METHODS_PLACEMENTS)
    print("Deck series (2nd edition, 3 players)\n\n" + engine_table(result["deck"], DECK_COLUMNS))
    print(f"\nMethods tried on {METHODS_PLACEMENTS} placements\n\n"
          + engine_table(result.get("deck_methods", []), DECK_COLUMNS))
    write_json(out / "bench.json", result)
    if result.get("scale"):
        (out / "scale.svg").write_text(scale_svg(result["scale"], result.get("cap_seconds", args.cap),
                                                 result.get("scale_grey"), result["deck"]), encoding="utf-8")
    print(f"\nwrote {out / 'bench.json'}")
    return 0


def suite_selection(args: argparse.Namespace) -> tuple[list[int], list[Path]] | None:
    """The placements of ``--suite-sizes`` and the deck suite's puzzles of those sizes (those whose
    name contains ``--only``, if given); None after an ``error:`` line on a bad ``--suite-sizes``."""
    from .deck_suite import suite_files
    try:
        sizes = parse_placements(args.suite_sizes, "--suite-sizes")
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return None
    files = [f for f in suite_files(small=False) if any(f.stem.endswith(f"-p{n}") for n in sizes)]
    if args.only:
        files = [f for f in files if args.only in f.stem]
    return sizes, files


def mixed_suite_budget(conditions: dict[str, Any], kept: list[dict[str, Any]], deterministic: float,
                       workers: int) -> str | None:
    """Why a ``bench --suite`` run may not merge its rows with the ``kept`` ones of an earlier run
    (None: it may): ``bench.json`` has one budget for all its suite rows, so rows measured at another
    deterministic budget or with other workers would be compared as if they were not."""
    if not kept:
        return None
    then = (conditions.get("deterministic_seconds_per_worker"), conditions.get("workers"))
    if then == (deterministic, workers):
        return None
    methods = ", ".join(sorted({r["engine"] for r in kept}))
    return (f"--det {deterministic:g} --workers {workers}: bench.json keeps suite rows ({methods}) measured "
            f"at --det {then[0]} --workers {then[1]}; give those, or run every method and puzzle "
            "(no --methods, --only or --resume) so that all rows share one budget")


def suite_main(args: argparse.Namespace, out: Path) -> int:
    """``bench --suite``: the bounding methods on the deck suite, merged into ``bench.json``
    (:data:`solver.benchmarks.suite.SUITE_KEYS`); prints per puzzle the plan, bound and gap at the deterministic-time budget."""
    from .bounds import METHODS
    from .deck_suite import write_suite
    if getattr(args, "write_suite", False):
        print(f"wrote {len(write_suite())} suite puzzles")
    selection = suite_selection(args)
    if selection is None:
        return 2
    files = selection[1]
    names = [m.name for m in METHODS]
    wanted = [s.strip() for s in args.methods.split(",")] if args.methods else names
    unknown = [w for w in wanted if w not in names]
    if unknown:
        print(f"error: --methods: unknown {unknown}, expected some of {names}", file=sys.stderr)
        return 2
    methods = [m for m in METHODS if m.name in wanted]
    earlier = read_suite_rows(out)
    stems = {f.stem for f in files}
    ours = [r for r in earlier if r["id"] in stems and r["engine"] in wanted]
    old = [r for r in earlier if r not in ours]
    budget = mixed_suite_budget(read_json(out / "bench.json").get("suite_conditions", {}),
                                old + (ours if args.resume else []), args.det, args.workers)
    if budget is not None:
        print(f"error: {budget}", file=sys.stderr)
        return 2
    done = {(r["id"], r["engine"]): r for r in ours} if args.resume else {}
    new: list[dict[str, Any]] = []

    def save(row: dict[str, Any]) -> None:       # after each run: a stopped benchmark keeps its rows
        new.append(row)
        write_suite_result(out, old + new, args.det, args.workers)

    rows = suite_rows(files, methods, args.det, args.workers, save, done)
    print(f"Deck suite: CP-SAT, {args.workers} workers, at most {args.det:g} deterministic seconds a worker "
          "(deterministic time, not wall-clock: comparable across machine load)\n")
    print(engine_table(rows, SUITE_COLUMNS))
    print("\n" + suite_summary_table(suite_summary(rows)))
    print(f"\nwrote {out / 'bench.json'}, {out / 'suite_traces.json'} and {out / 'suite.svg'}")
    return 0


def proofs_main(args: argparse.Namespace, out: Path) -> int:
    """``bench --proofs``: the planner as it ships on the deck suite, seconds to each proof against
    issue #35's targets, merged into ``bench.json`` (:data:`solver.benchmarks.suite.PROOF_KEYS`)."""
    from .suite import proof_rows, proof_summary, write_proof_result
    selection = suite_selection(args)
    if selection is None:
        return 2
    sizes, files = selection
    seeds: list[int] = args.proof_seeds
    rows: list[dict[str, Any]] = []
    loads: dict[int, tuple[float, float]] = {}
    for n in sizes:
        before = os.getloadavg()[0]
        rows += proof_rows([f for f in files if f.stem.endswith(f"-p{n}")], args.proof_det, args.workers, seeds)
        loads[n] = (before, os.getloadavg()[0])
        write_proof_result(out, rows, args.proof_det, args.workers, loads)   # a stopped run keeps its sizes
    print(f"Deck suite, the planner as it ships: CP-SAT, {args.workers} workers, at most {args.proof_det:g} "
          f"deterministic seconds a worker, seeds {', '.join(map(str, seeds))}; load average before and after each size: "
          + ", ".join(f"{n}: {a:.1f} / {b:.1f}" for n, (a, b) in loads.items()) + "\n")
    print(proof_summary_table(proof_summary(rows)))
    print(f"\nwrote {out / 'bench.json'}")
    return 0


def completion_sets_main(args: argparse.Namespace) -> int:
    """``bench --completion-sets``: the planner as it ships (``--det`` deterministic seconds a worker)
    gives the incumbent, then :func:`solver.benchmarks.completion_sets.completion_sets` tries to prove
    it within ``--sets-det``; prints a row per suite puzzle (a design measurement: not in bench.json)."""
    from .bounds import METHODS, run_method
    from .completion_sets import completion_sets
    from solver.optimise.planner import build_model
    selection = suite_selection(args)
    if selection is None:
        return 2
    files = selection[1]
    baseline = next(m for m in METHODS if m.name == "baseline")
    lines = ["| puzzle | planner: plan / bound | completions cap | sets above the plan | refuted | "
             "result | deterministic s | wall s |", "|---|---|---|---|---|---|---|---|"]
    for path in over(files, "completion sets"):
        puzzle = load_puzzle(path)
        first = run_method(build_model(puzzle), baseline, args.det, args.workers)
        if first.objective is None:
            lines.append(f"| {path.stem} | no plan / {first.bound} | | | | not run | | |")
            continue
        run = completion_sets(build_model(puzzle), first.objective, args.sets_det)
        if run is None:
            lines.append(f"| {path.stem} | {first.objective} / {first.bound} | does not apply | | | | | |")
            continue
        result = f"proven {run.best}" if run.proven else f"{run.best} / {run.bound}"
        sets = "not all found" if run.sets is None else str(run.sets)
        line = (f"| {path.stem} | {first.objective} / {first.bound} | {run.cap} | {sets} | {run.refuted} | {result} | "
                f"{run.deterministic_seconds:.1f} | {run.wall_seconds:.1f} |")
        note(line)
        lines.append(line)
    print(f"Bound by completion sets: the planner ({args.workers} workers, {args.det:g} deterministic s a worker) "
          f"for the plan, then at most {args.sets_det:g} deterministic s of one-worker runs\n")
    print("\n".join(lines))
    return 0
