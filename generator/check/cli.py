"""``python -m generator check`` and ``python -m generator bench-check``."""
from __future__ import annotations

import json
import shutil
import sys
import time
import textwrap
from argparse import ArgumentParser, Namespace
from collections.abc import Callable

from ..errors import Problems
from .model import Finding, Status
from .editions import EDITION_REPORTS

FORMATS = ("table", "json", "stubs")


def configure_check(parser: ArgumentParser) -> None:
    parser.description = ("Compare the Italian and English official texts of every game that has both; exit 0 "
                          "when every finding is reviewed, 1 when any is open or the allowlist is stale.")
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="table (default), json (array of findings) or stubs (allowlist entries for open findings)")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--all", action="store_true", help="table: list reviewed findings too, not just open ones")
    parser.add_argument("--export", metavar="DIR", help="also write the translators' exchange files into DIR: "
                        "<game>.tmx (TMX 1.4), <game>.it-2e.xlf (XLIFF 2.0), <game>.it-2e.changed.xlf (its changed sections "
                        "only), the same two as <game>.it-2e[.changed].xliff12.xlf (XLIFF 1.2), <game>.findings.csv, "
                        "glossary.tbx (TBX-Basic) and the bilingual glossary.en-ru.tbx, glossary.it-ru.tbx, with their "
                        "glossary.xcs and the two TBX-Basic DTDs they name")


def _table(findings: list[Finding], show_all: bool) -> str:
    width = max(shutil.get_terminal_size((120, 20)).columns, 100)
    rows = [f for f in findings if show_all or f.status is Status.OPEN]
    header = f"{'STATUS':17} {'SEV':7} {'CHECK':16} {'SECTION':32} MESSAGE"
    lines = [header, "-" * min(width, 160)]
    for f in rows:
        head = f"{f.status.value:17} {f.severity.value:7} {f.check.value:16} {f.game + ':' + f.section:32} "
        message = textwrap.shorten(f.message, max(width - len(head), 30), placeholder="…")
        lines.append(head + message)
    return "\n".join(lines)


def _summary(findings: list[Finding]) -> str:
    from collections import Counter
    by_check = Counter(f.check.value for f in findings)
    by_status = Counter(f.status.value for f in findings)
    return ("findings by check: " + ", ".join(f"{k} {v}" for k, v in sorted(by_check.items())) +
            "\nby status: " + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())))


def _stub(f: Finding) -> str:
    quote: Callable[[str], str] = lambda s: json.dumps(textwrap.shorten(s.replace("\n", " "), 90), ensure_ascii=False)
    return (f"  - fingerprint: {f.fingerprint!s}\n    check: {f.check.value}\n    section: {f.section}\n"
            f"    status: open   # {quote(f.message)}\n")


def run_check(args: Namespace) -> int:
    from ..site import load_site
    from . import editions
    from pathlib import Path
    from solver.io.paths import folder_fault
    if args.export is not None:
        fault = folder_fault(args.export, "--export")   # the text: Path('') would be the current folder
        if fault:
            print(fault, file=sys.stderr)
            return 2
    start = time.perf_counter()
    site = load_site(args.data, solve_puzzles=False)    # the edition check reads no puzzle record
    reports = site.get(EDITION_REPORTS)
    if args.game and args.game not in reports:
        print(f"--game {args.game}: expected a game whose two editions are compared, one of "
              f"{', '.join(sorted(reports)) or '(none in this data)'}", file=sys.stderr)
        return 2
    findings: list[Finding] = []
    problems = Problems()
    for game_id, report in reports.items():
        if args.game and game_id != args.game:
            continue
        findings += report.findings
        problems.extend(editions.stale_problems(report))
    elapsed = time.perf_counter() - start
    if args.export is not None:
        from solver.io.paths import write_fault
        from .exports import write_exports
        folder = Path(args.export)
        try:
            for path in write_exports(site, folder):
                print(f"wrote {path}", file=sys.stderr)
        except OSError as exc:
            print(write_fault(exc, "--export", folder), file=sys.stderr)
            return 2
    if args.format == "json":
        print(json.dumps([f.as_json() for f in findings], ensure_ascii=False, indent=2))
    elif args.format == "stubs":
        print("".join(_stub(f) for f in findings if f.status is Status.OPEN), end="")
    else:
        print(_table(findings, args.all))
        print(_summary(findings))
        print(f"{len(reports)} game(s) checked in {elapsed:.2f} s")
    for problem in problems.items:
        print(problem, file=sys.stderr)
    open_count = sum(f.status is Status.OPEN for f in findings)
    if open_count and args.format == "table":
        print(f"{open_count} open finding(s): review them in data/editions/<game>.allow.yaml", file=sys.stderr)
    return 1 if open_count or problems else 0


def configure_bench(parser: ArgumentParser) -> None:
    parser.description = "Time the edition check on the real data and score it on the synthetic corpus."
    parser.add_argument("--corpus", default=None, help="synthetic corpus YAML (default: tests/fixtures/check/corpus.yaml)")
    parser.add_argument("--verbose", action="store_true", help="list every missed and spurious finding")
    parser.add_argument("--no-write", action="store_true",
                        help="print the figures without writing data/figures/edition-check.json")


def run_bench(args: Namespace) -> int:
    from .bench import run_benchmark
    return run_benchmark(args)
