"""The live solver's figures (issue #70): every position of the comparison (random walks off the best
line of each shipped puzzle, and composed positions; tests/browser/live_positions.py) answered in
headless Chromium by the page's solver and by ``python -m solver solve --after MOVES``; prints the
answer times per puzzle (median, worst), the agreements and the largest position proven within the
budget, and writes them to data/figures/live-solve.json (generator/figures.py) unless --no-write.
Exit 1 when an answer disagrees with the command line.

Usage: .venv/bin/python tools/live_solve_bench.py [--site DIR] [--per-puzzle N] [--only TEXT]
(after `mkdocs build`; needs /usr/bin/chromium).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]


def placements_left(position: Any) -> int:
    """Flasks the player still places from the position (the size of what is left to solve)."""
    from solver import load_puzzle
    from solver.game.engine import apply_legal, initial_state, legal_actions
    import live_positions as lp
    puzzle = load_puzzle(lp.PUZZLES / f"{position.puzzle}.yaml")
    state = initial_state(puzzle)
    for label in position.moves:
        state = apply_legal(state, next(a for a in legal_actions(state) if str(a) == label))
    return state.flasks_left + (puzzle.rounds - state.round) * puzzle.flasks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="the built site to measure (default: site/)")
    parser.add_argument("--per-puzzle", type=int, default=None, help="positions per puzzle (default: the comparison's)")
    parser.add_argument("--only", default="", help="puzzles whose id contains this")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write data/figures/live-solve.json")
    args = parser.parse_args()
    if args.site:
        os.environ["CELLULA_SITE"] = str(args.site.resolve())
    from playwright.sync_api import sync_playwright

    import live_positions as lp
    from generator.figures import Unit, figure, load_average, write_set
    from site_server import SITE, serve_site
    load_before = load_average()
    ids = [p for p in lp.shipped() if args.only in p]
    positions = lp.positions(ids, args.per_puzzle or lp.PER_PUZZLE)
    rows = []
    with serve_site(SITE) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
        tab = browser.new_page()
        tab.set_default_timeout(300_000)
        solver = lp.PageSolver(tab, url)
        warm = solver.warm()
        for n, position in enumerate(positions, 1):
            page = solver.answer(position)
            cli = lp.cli_answer(position)
            why = lp.agreement(position, page, cli)
            rows.append({"position": position, "page": page, "cli": cli, "why": why,
                         "seconds": page["page_ms"] / 1000, "left": placements_left(position)})
            print(f"[{n}/{len(positions)}] {position.puzzle} {position.kind} {len(position.moves)} moves: page "
                  f"{page.get('status')} {page.get('health')} {'proven' if page.get('proven') else 'NOT proven'} "
                  f"({page.get('engine')}, {page['page_ms'] / 1000:.2f} s) | cli {cli['status']} {cli['health']} | "
                  f"{why or 'agree'}", flush=True)
        browser.close()
    print(f"\nLoading Pyodide, HiGHS and the sources in the worker: {warm:.1f} s\n")
    print("| puzzle | positions | median (s) | worst (s) | proven | agree |")
    print("|---|---|---|---|---|---|")
    figures = [figure("load", warm, Unit.SECONDS)]
    for pid in ids:
        mine = [r for r in rows if r["position"].puzzle == pid]
        if not mine:
            continue
        times = [r["seconds"] for r in mine]
        print(f"| {pid} | {len(mine)} | {statistics.median(times):.2f} | {max(times):.2f} | "
              f"{sum(bool(r['page'].get('proven')) for r in mine)} | {sum(r['why'] is None for r in mine)} |")
        figures += [figure(f"{pid}.median", statistics.median(times), Unit.SECONDS),
                    figure(f"{pid}.worst", max(times), Unit.SECONDS)]
    times = [r["seconds"] for r in rows]
    agreed = sum(r["why"] is None for r in rows)
    proven = [r for r in rows if r["page"].get("proven") and r["seconds"] <= lp.BUDGET]
    largest = max((r["left"] for r in proven), default=0)
    print(f"\nAll: {len(rows)} positions, median {statistics.median(times):.2f} s, worst {max(times):.2f} s; "
          f"{agreed} agree with the command line; proven in the page: {sum(bool(r['page'].get('proven')) for r in rows)}; "
          f"largest position proven within {lp.BUDGET:g} s: {largest} placements left")
    for r in rows:
        if r["why"] is not None:
            print(f"  DISAGREE {r['position'].puzzle} {list(r['position'].moves)}: {r['why']}")
    figures = [figure("positions.agree", agreed, Unit.COUNT, of=len(rows)),
               figure("positions.proven", sum(bool(r["page"].get("proven")) for r in rows), Unit.COUNT, of=len(rows)),
               figure("answer.median", statistics.median(times), Unit.SECONDS),
               figure("answer.worst", max(times), Unit.SECONDS),
               figure("largest-proven.placements", largest, Unit.COUNT)] + figures
    if not args.no_write and not args.only and args.per_puzzle is None:
        print("written:", write_set("live-solve", "python tools/live_solve_bench.py", load_before, figures))
    return 0 if agreed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
