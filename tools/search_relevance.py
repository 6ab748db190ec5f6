"""Print the relevance table of the site search (tests/search_relevance.yaml) as Markdown.

Usage: .venv/bin/python tools/search_relevance.py   (after `mkdocs build`; needs /usr/bin/chromium)
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from helpers import relevance_rows  # noqa: E402
from site_server import SITE, serve_site, site_prefix  # noqa: E402


def main() -> int:
    from playwright.sync_api import sync_playwright
    lookups = yaml.safe_load((ROOT / "tests" / "search_relevance.yaml").read_text(encoding="utf-8"))["lookups"]
    with serve_site(SITE) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        page.set_default_timeout(30_000)
        rows = relevance_rows(page, url, site_prefix(), lookups)
        browser.close()
    print("| site | kind | lookup | first three result pages | right page in top 3 |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['lang']} | {r['kind']} | {r['query']} | {', '.join(r['top']) or '(none)'} | {'yes' if r['ok'] else 'no'} |")
    for lang in ("it", "en"):
        mine = [r for r in rows if r["lang"] == lang]
        print(f"\n{lang}: {sum(r['ok'] for r in mine)}/{len(mine)}", end="")
    print(f"\nall: {sum(r['ok'] for r in rows)}/{len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
