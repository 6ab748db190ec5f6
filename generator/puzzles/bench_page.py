"""The solver benchmark page (``cytosis/benchmark.md``): the chart and the numbers ``python -m
solver bench`` wrote under ``docs/assets/bench/``, shown as facts and tables whatever fields the
file has (known fields named from the catalogue, puzzle ids linked to their pages)."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from .. import i18n
from ..refs import relative
from ..render import Page, render
from .model import BENCH_PAGE, GAME
from .texts import UI, md_inline

BENCH_ASSETS = ("assets/bench/scale.svg", "assets/bench/bench.json")
"""What ``python -m solver bench`` writes under ``docs/`` (the chart and its numbers)."""
SUITE_PLOT = "assets/bench/suite.svg"
"""The deck suite's plot (``python -m solver bench --suite``): bound and plan over time per method."""

BENCH_LABELS = i18n.labels("puzzles.bench_labels")
"""Names of the known ``bench.json`` fields (see ``solver/benchmarks/results.py``); others are shown as they are."""


@dataclass(frozen=True)
class BenchTable:
    """One list of results of ``bench.json``."""

    title: str
    """Heading (the list's key, named)."""
    headers: tuple[str, ...]
    """Column names, escaped for Markdown."""
    rows: tuple[tuple[str, ...], ...]
    """Cells, escaped for Markdown."""
    searchable: bool = True
    """False for :data:`UNSEARCHED_LISTS`: kept out of the site's search index."""


UNSEARCHED_LISTS = frozenset({"suite", "proofs"})
"""Lists shown but not indexed for search: the deck suite's runs per puzzle and method or seed (hundreds of
rows of numbers and puzzle names, which outweighed the rule pages for lookups such as "board for
2 players"). The summaries above them stay searchable."""


def _slashed(values: list[Any]) -> str:
    """Values side by side, ``–`` for a missing one: per-seed times ``0.03 / – / 0.04``."""
    return " / ".join("–" if v is None else str(v) for v in values)


def bench_cell(value: object, lang: str = "en") -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return cast(str, UI[lang]["yes"] if value else UI[lang]["no"])
    if isinstance(value, list) and all(v is None or isinstance(v, (int, float, str)) for v in value):
        return md_inline(_slashed(value))       # per-seed times (– a seed's median not proven)
    if isinstance(value, (list, dict)):
        return md_inline(json.dumps(value, ensure_ascii=False))
    return md_inline(str(value))


def bench_label(key: str, lang: str) -> str:
    return md_inline(BENCH_LABELS.get(key, {}).get(lang, key))


def bench_link(value: object, links: dict[str, str]) -> str:
    """A puzzle id, linked to its page when the site has one."""
    text = bench_cell(value)
    return f"[{text}]({links[value]})" if isinstance(value, str) and value in links else text


def _seconds_with_range(item: dict[str, Any]) -> str | None:
    """CP-SAT's median time with the range over seeds: ``1.439 (0.653–1.667)``."""
    median, seeds = item.get("cpsat_seconds"), item.get("cpsat_seconds_seeds")
    if median is None:
        return None
    numbers = [v for v in seeds if isinstance(v, (int, float)) and not isinstance(v, bool)] if isinstance(seeds, list) else []
    return f"{median} ({min(numbers)}–{max(numbers)})" if len(numbers) > 1 else str(median)


def _exhaustive_time(item: dict[str, Any]) -> str | None:
    """The exhaustive search's time, or ``> cap`` when it was stopped there."""
    if item.get("exhaustive_capped") is True:
        return f"> {item.get('exhaustive_cap_seconds', item.get('exhaustive_seconds')) or '?'}"
    return None if item.get("exhaustive_seconds") is None else str(item["exhaustive_seconds"])


def _speed_ratio(item: dict[str, Any]) -> str | None:
    """Exhaustive / CP-SAT, ``≥`` when the exhaustive run was stopped (a lower bound)."""
    if item.get("ratio") is None:
        return None
    return ("≥ " if item.get("ratio_is_lower_bound") is True else "") + f"{item['ratio']}×"


def _gap_with_percent(item: dict[str, Any]) -> str | None:
    """The gap between plan and bound in points, with its share of the bound: ``2 (8.0 %)``
    (``gap_percent`` is None whenever ``gap`` is: suite.py derives one from the other)."""
    gap, percent = item.get("gap"), item.get("gap_percent")
    if gap is None:
        return None
    return f"{gap} ({percent} %)" if isinstance(percent, (int, float)) and not isinstance(percent, bool) else str(gap)


def _median_over_seeds(item: dict[str, Any]) -> str | None:
    """The median of the seeds' medians with each seed's beside it: ``13.07 (12.52 / 13.88 / 13.07)``
    (``–`` for a median not proven); the median alone when one seed was run."""
    median, seeds = item.get("median_wall_seconds"), item.get("median_wall_seconds_by_seed")
    shown = "–" if median is None else str(median)
    if not isinstance(seeds, list) or len(seeds) < 2:
        return None if median is None else shown
    return f"{shown} ({_slashed(seeds)})"


def _joined(fields: tuple[str, ...], separator: str) -> Callable[[dict[str, Any]], str | None]:
    """A cell of several fields side by side, ``–`` for a missing one (None when all are missing):
    plan and bound ``21 / 23``, a suite puzzle's edition, players and deck size ``1e · 2 · 14``."""
    def cell(item: dict[str, Any]) -> str | None:
        parts = [item.get(f) for f in fields]
        return None if all(p is None for p in parts) else separator.join("–" if p is None else str(p) for p in parts)
    return cell


BENCH_COMPOSITES = (
    ("cpsat_seconds", ("cpsat_seconds", "cpsat_seconds_seeds"), _seconds_with_range,
     "cpsat_seconds"),
    ("exhaustive_seconds", ("exhaustive_seconds", "exhaustive_capped", "exhaustive_cap_seconds"), _exhaustive_time,
     "exhaustive_seconds"),
    ("ratio", ("ratio", "ratio_is_lower_bound"), _speed_ratio,
     "ratio"),
    ("gap_percent", ("gap", "gap_percent"), _gap_with_percent,
     "gap_percent"),
    ("bound", ("objective", "bound"), _joined(("objective", "bound"), " / "),
     "bound"),
    ("deck_cards", ("edition", "players", "deck_cards"), _joined(("edition", "players", "deck_cards"), " · "),
     "deck_cards"),
    ("runs", ("runs", "proven"), _joined(("proven", "runs"), " / "),
     "runs"),
    ("median_wall_seconds", ("median_wall_seconds", "median_wall_seconds_by_seed", "seeds"), _median_over_seeds,
     "median_wall_seconds"),
)
"""Fields of ``bench.json`` read together in one cell: (main field, fields it takes in, cell, column
name's key under ``puzzles.bench_composites`` in the catalogue).
A table without the main field shows the other fields as they are."""


def bench_columns(columns: list[str], lang: str, links: dict[str, str]) -> list[tuple[str, Callable[[dict[str, Any]], str]]]:
    """(header, cell of an item) per column of a results table: puzzle ids linked to their pages,
    composite cells in place of the fields they take in, other fields as they are."""
    composites = {main: (cell, label) for main, _, cell, label in BENCH_COMPOSITES}
    taken = {f for main, fields, _, _ in BENCH_COMPOSITES if main in columns for f in fields}
    out: list[tuple[str, Callable[[dict[str, Any]], str]]] = []
    for column in columns:
        if column == "id":
            out.append((bench_label(column, lang), lambda item: bench_link(item.get("id"), links)))
        elif column in composites:
            cell, label = composites[column]
            out.append((md_inline(UI[lang]['bench_composites'][label]), _composite_cell(cell)))
        elif column not in taken:
            out.append((bench_label(column, lang), _field_cell(column, lang)))
    return out


def _composite_cell(cell: Callable[[dict[str, Any]], str | None]) -> Callable[[dict[str, Any]], str]:
    """A composite cell of an item, escaped (``–`` when it has nothing to show)."""
    return lambda item: md_inline(cell(item) or "–")


def _field_cell(column: str, lang: str) -> Callable[[dict[str, Any]], str]:
    """One field of an item, as it is."""
    return lambda item: bench_cell(item.get(column), lang)


def bench_tables(data: object, lang: str = "en", links: dict[str, str] | None = None) -> tuple[list[tuple[str, str]], list[BenchTable]]:
    """``bench.json`` as facts (top-level values, nested objects flattened one level: ``machine.cores``)
    and one table per list of objects (or a single table for a top-level list)."""
    links = links or {}
    lists = {"": data} if isinstance(data, list) else {}
    facts: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lists[key] = value
            elif isinstance(value, dict):
                facts += [(md_inline(f"{key}.{k}"), bench_cell(v, lang)) for k, v in value.items()]
            else:
                facts.append((bench_label(key, lang), bench_cell(value, lang)))
    tables = []
    for key, items in lists.items():
        items = [i for i in items if isinstance(i, dict)]
        columns = bench_columns(list(dict.fromkeys(k for item in items for k in item)), lang, links)
        tables.append(BenchTable(bench_label(key, lang) if key else "",
                                 tuple(header for header, _ in columns),
                                 tuple(tuple(cell(item) for _, cell in columns) for item in items),
                                 key not in UNSEARCHED_LISTS))
    return facts, tables


def inline_svg(path: Path) -> str:
    """The plot's SVG markup, put in the page itself: an image file outside the language folders is
    not published for the English build by mkdocs-static-i18n (no fallback), and inline it works
    the same online, offline and in print. The file is the project's own ``solver bench`` output."""
    markup = path.read_text(encoding="utf-8")
    markup = re.sub(r"<\?xml[^>]*\?>", "", markup)
    return " ".join(line.strip() for line in markup.splitlines() if line.strip())


def bench_page(docs_dir: Path, lang: str, nav: tuple[str, ...], puzzle_ids: tuple[str, ...] = ()) -> Page:
    ui = UI[lang]
    svg, data_file = (docs_dir / p for p in BENCH_ASSETS)
    facts: list[tuple[str, str]] = []
    tables: list[BenchTable] = []
    if data_file.exists():
        try:
            links = {pid: relative(BENCH_PAGE, f"{GAME}/puzzles/{pid}.md") for pid in puzzle_ids}
            facts, tables = bench_tables(json.loads(data_file.read_text(encoding="utf-8")), lang, links)
        except ValueError:
            facts, tables = [], []
    suite_svg = docs_dir / SUITE_PLOT
    content = render("bench.md.j2", ui=ui, svg=inline_svg(svg) if svg.exists() else None,
                     suite_svg=inline_svg(suite_svg) if suite_svg.exists() else None,
                     facts=facts, tables=tables, ran=svg.exists() or bool(tables) or bool(facts))
    return Page(lang, BENCH_PAGE, ui["bench_title"], content, nav=nav)
