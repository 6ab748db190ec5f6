"""``python -m generator records``: the commands about computing the puzzles' records.

    python -m generator records                 compute every missing or stale record, print how its
                                                answers differ from the committed ones, write it
    python -m generator records P.yaml ID ...   the same for these puzzles only
    python -m generator records --check         say which records are current, compute nothing
    python -m generator records --reprove       recompute every record, compare field by field
    python -m generator records --reprove --sample   what a test run re-proves: a few, and every
                                                record whose answers the ledger has not seen proved
    python -m generator records --keys          the narrow fingerprints and the modules they cover

Exit codes, as everywhere: 0 done (or all current, or reproduced), 1 a record stale, failing or
not reproduced, 2 bad input (a data problem, an unknown puzzle, a bad option).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import record as records
from .record import RecordState

if TYPE_CHECKING:
    from .store import Source, Status

SAMPLE_SMALLEST = 3
"""Records a test run always re-proves: the quickest to compute."""
SAMPLE_VARYING = 2
"""Records a test run re-proves in addition, drawn anew with each commit."""
SAMPLE_MAX_SECONDS = 20.0
"""The varying ones are drawn among records computed within this many seconds (keeps a test run short)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Compute the puzzles' committed records (solution, regret values, why facts, level) "
                          "that the build reads, check them, or re-prove them.")
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE",
                        help="puzzle ids or files (default: every puzzle of the data folder)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report each record's state, compute nothing")
    mode.add_argument("--reprove", action="store_true",
                      help="recompute the records and compare them with the committed ones, field by field")
    mode.add_argument("--all", action="store_true", help="recompute and rewrite the records even when current")
    mode.add_argument("--keys", action="store_true",
                      help="print the narrow fingerprints of the computing code and the modules they cover")
    mode.add_argument("--figures", action="store_true",
                      help="write data/figures/records.json from the committed records (all must be current)")
    parser.add_argument("--sample", action="store_true",
                        help=f"with --reprove: only the {SAMPLE_SMALLEST} quickest records, {SAMPLE_VARYING} "
                             "drawn with the commit and every record whose answers differ from the ledger of "
                             "re-proofs (what make test re-proves)")
    parser.add_argument("--workers", type=_workers, default=None,
                        help="processes to compute in (1 to 64; default: one per processor)")


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes from 1 to 64, got {text!r}") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes from 1 to 64, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    from ..errors import Problems
    from ..site import load_site
    from .keys import CODE_PARTS, code_keys
    from .store import compute_records, key_cache, reprove, sample, status_of, unproved
    if args.keys:
        for part, digest in code_keys().items():
            modules, entries = CODE_PARTS[part]
            print(f"{part}: {digest}")
            print(f"  from {', '.join(f'{m}.{f}' for m, f in entries)}")
            print("\n".join(f"  {name}" for name in modules))
        return 0
    if args.sample and not args.reprove:
        print("records: --sample goes with --reprove", file=sys.stderr)
        return 2
    # every data file validated before anything is computed (DataError: exit 2, all errors at once)
    load_site(args.data, solve_puzzles=False)
    from ..puzzles.loading import load_sources
    problems = Problems()
    sources = load_sources(Path(args.data) / "puzzles", problems)
    problems.raise_if_any()
    chosen = select(sources, args.puzzles)
    if chosen is None:
        return 2
    statuses = [status_of(s) for s in chosen]
    key_cache().save()
    if args.figures:
        return write_figures(statuses, bool(args.puzzles))
    if args.check:
        for status in statuses:
            print(f"{records.display(status.path)}: {status.state.value}" + (f" ({status.detail})" if status.detail else ""))
        stale = sum(s.state is not RecordState.CURRENT for s in statuses)
        print(f"{len(statuses) - stale} of {len(statuses)} records current" +
              (f"; refresh the others with `{records.REFRESH}`" if stale else ""))
        return 1 if stale else 0
    if args.reprove:
        if args.sample:
            unseen = unproved(statuses)
            for status in unseen:
                print(f"{records.display(status.path)}: its answers differ from the last re-proof: re-proved")
            chosen_ids = {s.source.puzzle.id for s in unseen}
            statuses = unseen + [s for s in sample(statuses, SAMPLE_SMALLEST, SAMPLE_VARYING, SAMPLE_MAX_SECONDS)
                                 if s.source.puzzle.id not in chosen_ids]
        notes: list[str] = []
        lines = reprove(statuses, args.workers, notes)
        for line in lines:
            print(line)
        for note in notes:
            print(f"note: {note}")
        print(f"{len(statuses)} records re-proved: " +
              ("every field reproduced" if not lines else f"{len(lines)} differences"))
        return 1 if lines else 0
    todo = [s for s in statuses if args.all or s.state is not RecordState.CURRENT]
    if not todo:
        print(f"all {len(statuses)} records current: nothing to compute")
        return 0
    for status in todo:
        print(f"{records.display(status.path)}: {status.state.value}" + (f" ({status.detail})" if status.detail else ""))
    written, failed = compute_records(todo, "computing records", args.workers)
    for status in todo:
        if status.source.file in written:
            print_differences(status, written[status.source.file])
    for status, error in failed:
        print(f"{records.display(status.source.file)}: not computed: {error}", file=sys.stderr)
    print(f"{len(written)} records written ({len(statuses) - len(todo)} already current)" +
          (f", {len(failed)} failed" if failed else "") + ": commit them with the change that made them")
    if not failed and not args.puzzles:
        write_figures([status_of(s) for s in chosen], False)
    return 1 if failed else 0


def print_differences(status: Status, fresh: dict[str, object]) -> None:
    """How a recomputed record's answers differ from the committed ones, field by field."""
    from .record import ANSWER_PARTS
    from .store import _short
    if status.record is None:
        print(f"{records.display(status.path)}: new record")
        return
    lines = [f"  {where}: {_short(old)} -> {_short(new)}"
             for where, old, new in records.differences({p: status.record.get(p) for p in ANSWER_PARTS},
                                                        {p: fresh.get(p) for p in ANSWER_PARTS})]
    print(f"{records.display(status.path)}: " + (f"{len(lines)} answers changed" if lines else "answers unchanged"))
    for line in lines:
        print(line)


def write_figures(statuses: list[Status], chosen: bool) -> int:
    """``data/figures/records.json`` from every record, once all are current (exit 1 otherwise)."""
    from ..figures import load_average, write_set
    from .figures import record_figures
    if chosen:
        print("records: --figures counts every record: name no puzzle", file=sys.stderr)
        return 2
    stale = [s for s in statuses if s.state is not RecordState.CURRENT or s.record is None]
    if stale:
        print(f"records: {len(stale)} records not current ({records.display(stale[0].path)}: {stale[0].state.value}): "
              f"run `{records.REFRESH}` first", file=sys.stderr)
        return 1
    file = write_set("records", "python -m generator records --figures", load_average(),
                     record_figures(s.record for s in statuses if s.record is not None))
    print(f"written: {records.display(file)}")
    return 0


def select(sources: list[Source], wanted: list[str]) -> list[Source] | None:
    """The sources named by id or file in ``wanted`` (all when empty); None after reporting an
    unknown name."""
    if not wanted:
        return sources
    by_name: dict[str, Source] = {}
    for source in sources:
        by_name[source.puzzle.id] = source
        by_name[records.display(source.file)] = source
        by_name[Path(source.file).resolve().as_posix()] = source
    chosen: list[Source] = []
    unknown: list[str] = []
    for name in wanted:
        key = name if name in by_name else Path(name).resolve().as_posix()
        if key in by_name:
            chosen.append(by_name[key])
        else:
            unknown.append(name)
    if unknown:
        print(f"records: unknown puzzle {', '.join(repr(u) for u in unknown)}: expected an id or file of "
              f"{', '.join(sorted(s.puzzle.id for s in sources))}", file=sys.stderr)
        return None
    return list(dict.fromkeys(chosen))
