"""The generated search-relevance set's committed record (``tests/golden/search-relevance.json``).

Running all of the generated set's lookups through the search worker takes two minutes; its
answers are deterministic for a given search index, search scripts and lookup set. So they are a
record, like the puzzles' records: ``tools/search_relevance.py`` measures every lookup and writes
the result pages of each, with a digest of everything the answers depend on. The browser tests
rebuild the rows from the record when the digest matches the built site, and check a sample of
lookups live against it (a different sample on every commit); when the digest differs (the data,
the index or the search scripts changed), they measure every lookup live, as before.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpers import CHUNK, RUN_QUERIES, lookup_row

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "golden" / "search-relevance.json"
FORMAT = "cellula-search-relevance-1"
COMMAND = "python tools/search_relevance.py"
SAMPLE = 200
"""Lookups checked live against a current record in a test session (of each site language)."""


def digest(site: Path, lookups: Sequence[Any]) -> str:
    """What the generated set's answers depend on, and nothing else: both languages' search indexes,
    the scripts the search runs (Material's bundle and search worker with its lunr languages, all
    under ``assets/javascripts/``, and the project's search wrapper ``assets/search.js``), the query
    runner and the lookups themselves. The project's page scripts (the card index, the boards, play
    mode, the analysis board: ``extra_javascript``, bundled) never see a query, so an edit of one of
    them does not make the record stale. (The figures page keeps its measured numbers out of the
    index, so a new measurement does not either.)"""
    h = hashlib.sha256()
    files = [site / "search" / "search_index.json", site / "en" / "search" / "search_index.json",
             site / SEARCH_WRAPPER, *sorted((site / "assets" / "javascripts").rglob("*.js"))]
    for file in files:
        h.update(file.relative_to(site).as_posix().encode() + b"\0")
        h.update(file.read_bytes() if file.is_file() else b"(missing)")
        h.update(b"\0")
    h.update(f"{RUN_QUERIES}\0{CHUNK}\0".encode())
    h.update(json.dumps([_key(lookup) for lookup in lookups], ensure_ascii=False).encode())
    return h.hexdigest()


SEARCH_WRAPPER = "assets/search.js"
"""The project's side of the search (loaded by the theme override before Material's bundle): it
shapes every query, so it is part of what the answers depend on."""


def _key(lookup: Any) -> list[Any]:
    return [lookup.site, lookup.kind, lookup.source, lookup.query, list(lookup.right)]


def in_row_order(positions: Sequence[int], lookups: Sequence[Any]) -> list[int]:
    """``positions`` (of ``lookups``) in the order :func:`helpers.generated_rows` returns their rows:
    the Italian site's first, then the English site's."""
    return [i for lang in ("it", "en") for i in positions if lookups[i].site == lang]


def write(site: Path, lookups: Sequence[Any], rows: Sequence[dict[str, Any]], file: Path = RECORD) -> Path:
    """Write the record of ``rows`` (:func:`helpers.generated_rows` over every lookup): per lookup,
    in the lookups' order, its result count and its first three result pages, as indexes into one
    page list."""
    assert len(rows) == len(lookups), "the record holds every lookup"
    by_lookup = dict(zip(in_row_order(range(len(lookups)), lookups), rows, strict=True))
    ordered = [by_lookup[i] for i in range(len(lookups))]
    assert all(row["query"] == lookup.query for row, lookup in zip(ordered, lookups)), "rows match lookups"
    pages = sorted({p for row in ordered for p in row["top"]})
    number = {p: i for i, p in enumerate(pages)}
    answers = [[row["count"], *(number[p] for p in row["top"])] for row in ordered]
    body = {"format": FORMAT, "command": COMMAND, "digest": digest(site, lookups), "lookups": len(rows),
            "pages": pages, "answers": answers}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    # one answer per line: a re-measurement's diff shows which lookups moved
    text = text.replace('"answers":[[', '"answers":[\n[').replace("],[", "],\n[")
    file.write_text(text + "\n", encoding="utf-8")
    return file


def read(file: Path = RECORD) -> dict[str, Any] | None:
    """The committed record, or None when there is none or it is not this format."""
    if not file.is_file():
        return None
    body = json.loads(file.read_text(encoding="utf-8"))
    return body if body.get("format") == FORMAT else None


def rows_from(record: dict[str, Any], lookups: Sequence[Any]) -> list[dict[str, Any]]:
    """The rows :func:`helpers.generated_rows` would give, rebuilt from the record (``ok`` is worked
    out again from the lookups' right pages, not stored)."""
    pages = record["pages"]
    return [lookup_row(lookup, [pages[i] for i in top_numbers], count)
            for lookup, (count, *top_numbers) in zip(lookups, record["answers"], strict=True)]


def sample(lookups: Sequence[Any], seed: str, size: int = SAMPLE) -> list[int]:
    """Positions of ``size`` lookups of each site language, drawn with ``seed`` (the commit)."""
    draw = random.Random(seed)
    chosen: list[int] = []
    for lang in ("it", "en"):
        mine = [i for i, lookup in enumerate(lookups) if lookup.site == lang]
        chosen += draw.sample(mine, min(size, len(mine)))
    return sorted(chosen)
