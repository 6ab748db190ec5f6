"""Print the relevance figures of the site search as Markdown: the generated set (generated from the
data, generator/search_lookups.py) by kind of lookup and by source, and the hand-written set
(tests/search_relevance.yaml) lookup by lookup; the shares are written to data/figures/search.json
(generator/figures.py), and every generated lookup's result pages to the browser tests' record
tests/golden/search-relevance.json (tests/browser/relevance_record.py), unless --no-write or --site
is given.

Usage: .venv/bin/python tools/search_relevance.py [--site DIR] [--misses N] [--kinds K,K] [--heldout]
(after `mkdocs build`; needs /usr/bin/chromium). --site measures another build (e.g. one of the
previous commit's code), --misses lists that many missed generated lookups of each kind, --kinds
measures those kinds of the generated set only (while tuning; nothing is written).

--heldout measures the held-out set (tests/search_heldout.yaml) alone, per kind and topic, lookup by
lookup, and writes nothing: that set is read only to report its score before and after a change of
the ranking, never while tuning (issue #66).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]


def _share(rows: Iterable[dict[str, Any]]) -> str:
    rows = list(rows)
    ok = sum(r["ok"] for r in rows)
    return f"{ok}/{len(rows)} ({ok / len(rows):.0%})" if rows else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="the built site to measure (default: site/)")
    parser.add_argument("--misses", type=int, default=0, help="missed generated lookups to list per kind")
    parser.add_argument("--source", choices=("glossary", "card", "section"), help="list the misses of this source only")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write data/figures/search.json")
    parser.add_argument("--kinds", help="comma-separated kinds of the generated set to measure (nothing is written)")
    parser.add_argument("--heldout", action="store_true", help="measure the held-out set only (nothing is written)")
    args = parser.parse_args()
    if args.site:
        os.environ["CELLULA_SITE"] = str(args.site.resolve())
    if args.heldout:
        return _heldout()
    from playwright.sync_api import sync_playwright

    from generator.search_lookups import KINDS, SOURCES, load_generated_lookups
    import relevance_record
    from helpers import generated_rows, relevance_rows
    from site_server import SITE, serve_site, site_prefix

    from generator.figures import Unit, figure, load_average, write_set
    load_before = load_average()
    handwritten = yaml.safe_load((ROOT / "tests" / "search_relevance.yaml").read_text(encoding="utf-8"))["lookups"]
    generated = load_generated_lookups(ROOT / "data")
    subset = args.kinds is not None
    if subset:
        wanted = set(args.kinds.split(","))
        unknown = wanted - set(KINDS)
        if unknown:
            parser.error(f"--kinds: unknown kind(s) {', '.join(sorted(unknown))}; the kinds are {', '.join(KINDS)}")
        generated = [lookup for lookup in generated if lookup.kind in wanted]
    with serve_site(SITE) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        page.set_default_timeout(120_000)
        other = browser.new_page()
        started = time.monotonic()
        rows = generated_rows({"it": page, "en": other}, url, generated)
        took = time.monotonic() - started
        hand = relevance_rows(page, url, site_prefix(), handwritten)
        browser.close()
    print(f"Generated set: {len(rows)} lookups, run in {took:.1f} s.\n")
    print("| kind | Italian site | English site | both |")
    print("|---|---|---|---|")
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        print(f"| {kind} | {_share(r for r in mine if r['site'] == 'it')} | "
              f"{_share(r for r in mine if r['site'] == 'en')} | {_share(mine)} |")
    print(f"| **all** | {_share(r for r in rows if r['site'] == 'it')} | "
          f"{_share(r for r in rows if r['site'] == 'en')} | **{_share(rows)}** |")
    print("\n| source | right in top 3 | no result at all |")
    print("|---|---|---|")
    for source in SOURCES:
        mine = [r for r in rows if r["source"] == source]
        print(f"| {source} | {_share(mine)} | {sum(r['count'] == 0 for r in mine)} |")
    for kind in KINDS if args.misses else ():
        missed = [r for r in rows if r["kind"] == kind and not r["ok"]]
        missed = [r for r in missed if r["source"] == args.source or not args.source][:args.misses]
        if missed:
            print(f"\nMissed, {kind}:")
            for r in missed:
                print(f"- [{r['site']}] {r['query']!r} -> {r['top']} (right: {', '.join(r['right'])})")
    print(f"\nHand-written set (tests/search_relevance.yaml): {_share(hand)}")
    for kind in sorted({r["kind"] for r in hand}):
        print(f"- {kind}: {_share(r for r in hand if r['kind'] == kind)}")
    print("\n| site | kind | lookup | first three result pages | right page in top 3 |")
    print("|---|---|---|---|---|")
    for r in hand:
        print(f"| {r['lang']} | {r['kind']} | {r['query']} | {', '.join(r['top']) or '(none)'} | {'yes' if r['ok'] else 'no'} |")
    if not args.no_write and not args.site and not subset:
        figures = []
        for kind in (*KINDS, None):
            for lang in ("it", "en", None):
                mine = [r for r in rows if (kind is None or r["kind"] == kind) and (lang is None or r["site"] == lang)]
                if mine:
                    key = ".".join(["generated", kind or "all"] + ([lang] if lang else []))
                    figures.append(figure(key, sum(r["ok"] for r in mine), Unit.COUNT, of=len(mine)))
        figures.append(figure("handwritten", sum(r["ok"] for r in hand), Unit.COUNT, of=len(hand)))
        file = write_set("search", "python tools/search_relevance.py", load_before, figures)
        print(f"\nwritten: {file.relative_to(ROOT)}")
        record = relevance_record.write(SITE, generated, rows)
        print(f"written: {record.relative_to(ROOT)} (the browser tests' record of every generated lookup)")
    return 0


def _heldout() -> int:
    """Measure and print the held-out set (tests/search_heldout.yaml): per kind, per topic, per lookup."""
    from playwright.sync_api import sync_playwright

    from helpers import relevance_rows
    from site_server import SITE, serve_site, site_prefix

    lookups = yaml.safe_load((ROOT / "tests" / "search_heldout.yaml").read_text(encoding="utf-8"))["lookups"]
    with serve_site(SITE) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        page.set_default_timeout(120_000)
        rows = relevance_rows(page, url, site_prefix(), lookups)
        browser.close()
    print(f"Held-out set (tests/search_heldout.yaml): {_share(rows)}\n")
    print("| kind | Italian site | English site | both |")
    print("|---|---|---|---|")
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        print(f"| {kind} | {_share(r for r in mine if r['lang'] == 'it')} | "
              f"{_share(r for r in mine if r['lang'] == 'en')} | {_share(mine)} |")
    print("\n| topic | right in top 3 |")
    print("|---|---|")
    for topic in sorted({r["topic"] for r in rows}):
        print(f"| {topic} | {_share(r for r in rows if r['topic'] == topic)} |")
    print("\n| site | kind | lookup | first three result pages | right page in top 3 |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['lang']} | {r['kind']} | {r['query']} | {', '.join(r['top']) or '(none)'} | {'yes' if r['ok'] else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
