"""Command line: ``python -m generator {generate,validate,coverage}``.

Exit codes (the same as ``python -m solver``'s): 0 success, 1 open findings (``check``), 2 bad
input (a data problem: file, line and field named) or usage.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import DataError, Problems
from solver.io.paths import folder_fault, write_fault
from .paths import DATA_DIR, DOCS_DIR
from .site_data import SiteData


def _coverage(data_dir: Path, site: SiteData | None = None) -> int:
    from .coverage import check_coverage
    from .site import load_site
    site = site or load_site(data_dir, solve_puzzles=False)  # coverage is about rule texts, not puzzles
    problems = Problems()
    for game in site.games.values():
        for row in check_coverage(game, problems):
            print(f"{row.game:16} {row.source:10} {row.covered:5}/{row.lines:<5} lines  "
                  f"{row.sections:4} sections  {row.word_share:6.1%} of words kept")
    problems.raise_if_any()
    return 0


def _validate(data_dir: Path) -> int:
    """Coverage, then every page rendered (not written) so that the catalogue check sees every
    interface string read: a reference key no page, template or script reads is reported.
    Puzzles are loaded and checked but not solved (solving is the build's work, cached): no
    puzzle page is rendered, so their keys count as read through the code that names them."""
    from . import i18n
    from .build import all_pages
    from .mkdocs_hook import client_strings
    from .rules import SITE_LANGUAGES
    from .site import load_site
    site = load_site(data_dir, solve_puzzles=False)
    code = _coverage(data_dir, site)
    all_pages(site)
    for lang in SITE_LANGUAGES:
        client_strings(lang)
    problems = Problems()
    i18n.unused_problems(data_dir, problems)
    problems.raise_if_any()
    return code


DATA_PARTS = ("rules", "i18n")
"""What every data folder holds (the games' rule texts and the interface catalogue)."""


def folder_path(text: str) -> Path:
    """A folder option's value as a path; an empty one is refused rather than read as the current
    folder (``Path('')`` is ``.``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a folder, got an empty path")
    return Path(text)


def data_folder_fault(data: Path) -> str | None:
    """Why ``data`` (``--data``) is not a data folder, or None."""
    if not data.is_dir():
        return f"--data {data}: expected a data folder, got {'a file' if data.exists() else 'nothing (no such folder)'}"
    missing = [part for part in DATA_PARTS if not (data / part).is_dir()]
    if missing:
        return (f"--data {data}: expected a data folder holding {' and '.join(p + '/' for p in DATA_PARTS)}, "
                f"got one without {' or '.join(p + '/' for p in missing)}")
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description="Cellula site generator")
    parser.add_argument("--data", type=folder_path, default=DATA_DIR, help="data folder (default: %(default)s)")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write docs/it and docs/en from data/")
    gen.add_argument("--docs", type=folder_path, default=DOCS_DIR)
    sub.add_parser("validate", help="load and validate all data, including source coverage")
    sub.add_parser("coverage", help="print how much of each source text the sections cover")
    from . import features
    extensions = features.commands()
    for name, command in extensions.items():
        command.configure(sub.add_parser(name))
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):    # no text makes the writer fail (a narrow terminal encoding)
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    fault = data_folder_fault(args.data)
    if fault is None and args.command == "generate":
        fault = folder_fault(args.docs, "--docs")
    if fault:
        print(fault, file=sys.stderr)
        return 2
    try:
        if args.command == "generate":
            from .build import generate
            try:
                site, pages = generate(args.data, args.docs)
            except OSError as exc:
                print(write_fault(exc, "--docs", args.docs), file=sys.stderr)
                return 2
            print(f"generated {len(pages)} pages from {args.data}")
            return 0
        if args.command == "validate":
            code = _validate(args.data)
            print("data valid")
            return code
        if args.command == "coverage":
            return _coverage(args.data)
        return extensions[args.command].run(args)
    except DataError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
