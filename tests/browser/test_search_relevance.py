"""The relevance set (tests/search_relevance.yaml): at least 90 % of the lookups have a right page of
the reader's language among the first three results."""
from __future__ import annotations

from pathlib import Path

import yaml

from helpers import relevance_rows

LOOKUPS = yaml.safe_load((Path(__file__).resolve().parents[1] / "search_relevance.yaml").read_text(encoding="utf-8"))["lookups"]
TARGET = 0.9


def test_relevance_set_is_large_enough():
    by_lang = {lang: [x for x in LOOKUPS if x["lang"] == lang] for lang in ("it", "en")}
    assert len(LOOKUPS) >= 40 and all(len(v) >= 20 for v in by_lang.values()), {k: len(v) for k, v in by_lang.items()}
    for lang, items in by_lang.items():
        assert {x["kind"] for x in items} >= {"term", "question", "cross"}, lang


def test_right_page_of_readers_language_in_top_3(page, site_url, prefix):
    rows = relevance_rows(page, site_url, prefix, LOOKUPS)
    for row in rows:  # every result page is the reader's language: the other language is opt-in
        assert all(p.startswith("en/") == (row["lang"] == "en") for p in row["top"]), row
    passed = sum(r["ok"] for r in rows)
    failed = "\n".join(f"  [{r['lang']}] {r['query']!r}: {r['top']}" for r in rows if not r["ok"])
    assert passed >= TARGET * len(rows), f"{passed}/{len(rows)} lookups pass, below {TARGET:.0%}:\n{failed}"
