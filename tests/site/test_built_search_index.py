"""The built site's search indexes (generator/search_index.py): one per language, clean snippets."""
from __future__ import annotations

import json
import re

import pytest

from site_server import ROOT, SITE

INDEXES = {"it": SITE / "search" / "search_index.json", "en": SITE / "en" / "search" / "search_index.json"}
INTERNAL_KEY = re.compile(r"<code>[a-z0-9]+(?:[-.][a-z0-9]+)*</code>")
HASH = re.compile(r"<code>[0-9a-f]{8,}</code>")
MARKDOWN = re.compile(r"\*\*|\]\(|\{ ?[#.][\w-]|^#+ |={3,} ?\"|`")
PROVENANCE = re.compile(r"⇄|≠ \d+ (?:differenz|difference)")


@pytest.fixture(scope="module")
def indexes():
    missing = [str(p) for p in INDEXES.values() if not p.exists()]
    if missing:
        pytest.fail(f"not built: {missing} (run `make site`)")
    return {lang: json.loads(p.read_text(encoding="utf-8")) for lang, p in INDEXES.items()}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_each_index_holds_its_language_only(indexes, lang):
    docs = indexes[lang]["docs"]
    assert len(docs) > 100
    assert all(d["location"].startswith("en/") == (lang == "en") for d in docs)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_snippets_show_rule_text_only(indexes, lang):
    bad = [(d["location"], pattern.pattern) for d in indexes[lang]["docs"]
           for pattern in (INTERNAL_KEY, HASH, MARKDOWN, PROVENANCE) if pattern.search(d["text"])]
    assert not bad, bad[:10]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_counterpart_terms_are_searchable_but_not_shown(indexes, lang):
    config = indexes[lang]["config"]
    assert "terms" in config["fields"] and config["cellula_stopwords"]
    with_terms = [d for d in indexes[lang]["docs"] if d.get("terms")]
    assert with_terms
    for doc in with_terms[:50]:
        assert not doc["text"].endswith(doc["terms"])


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_benchmark_plots_labels_stay_out_of_search(indexes, lang):
    """The plots' SVG text (English axis labels, method names, tick numbers) is not page text: a
    lookup should not land on the benchmark page for a word of a legend. Their captions, in the
    page's language, stay searchable."""
    from generator.puzzles.texts import UI
    captions = [UI[lang]["bench_chart"], UI[lang]["bench_suite_chart"]]
    bench = [d for d in indexes[lang]["docs"] if "cytosis/benchmark/" in d["location"]]
    text = " ".join(d["text"] for d in bench)
    assert bench
    assert "solid: bound, dashed: plan" not in text and "% of the best plan found" not in text
    assert all(c.split(":")[0][:20] in text for c in captions), captions
    assert "suite-03-1e-3p-deck7-p16" not in text      # the suite's per-run table (UNSEARCHED_LISTS)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_times_measured_by_the_records_stay_out_of_search(indexes, lang):
    """Every `make records` measures other solve times: were they indexed, each recompute would
    change the search index and make the committed search-relevance record stale though no text
    changed (tests/browser/relevance_record.py). The pages still show them."""
    from generator.puzzles.texts import UI
    said = UI[lang]["solve_time"].split("{")[0]
    records = sorted((ROOT / "data" / "puzzles").glob("*.record.json"))
    assert records
    indexed = " ".join(d["text"] for d in indexes[lang]["docs"])
    assert said not in indexed
    prefix = "" if lang == "it" else "en/"
    shown = [r for r in records
             if said in (SITE / prefix / "cytosis" / "puzzles" / r.name.removesuffix(".record.json") / "index.html")
             .read_text(encoding="utf-8")]
    assert len(shown) == len(records), f"{len(records) - len(shown)} puzzle pages do not show the solve time"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_build_days_puzzle_pick_stays_out_of_search(indexes, lang):
    """The puzzle index shows the build day's "puzzle of the day" until its script picks by the
    reader's date: were that pick indexed, the search index would change every day, and with it the
    committed search-relevance record's digest, though no text changed. The index page still shows it."""
    from generator.puzzles.texts import UI
    said = UI[lang]["daily"]
    prefix = "" if lang == "it" else "en/"
    assert f"{prefix}cytosis/puzzles/" in {d["location"] for d in indexes[lang]["docs"]}, "the puzzle index page is indexed"
    assert not [d["location"] for d in indexes[lang]["docs"] if said in d["text"]]
    page = (SITE / prefix / "cytosis" / "puzzles" / "index.html").read_text(encoding="utf-8")
    assert said in page and 'class="cellula-daily"' in page
