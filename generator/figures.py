"""Measured figures as data: ``data/figures/<set>.json``, written by the command that measures them,
validated like every data file and shown on the site's "Measured figures" page.

Each set is one command's latest measurement (``python -m generator bench`` writes ``build``,
``python -m generator bench-check`` ``edition-check``, ``python -m generator records --figures``
``records``, ``tools/search_relevance.py`` ``search``, ``tools/lighthouse/run.py`` ``lighthouse``;
the planner's ``docs/assets/bench/bench.json`` keeps its own page). A set says when and on what it
was measured (date, commit, processors, load average before and after), so a figure is never read
without its conditions. No document quotes them (``tests/test_figures.py``), so a new measurement
edits its file alone.

Registers the ``figures`` loader and page producer with :mod:`generator.features`.
"""
from __future__ import annotations

import datetime
import enum
import json
import os
import platform
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.io.loading import LoadError, load_json

from . import features, i18n, schema
from .errors import Problem, Problems
from .schema import Schema
from .yamlio import yaml_path
from .puzzles.texts import md_inline
from .render import Page, render
from .paths import ROOT
from .site_data import FeatureKey

if TYPE_CHECKING:
    from .site_data import SiteData

FORMAT = "cellula-figures-1"
FOLDER = "figures"
"""Folder of the figure sets under the data folder."""
PAGE = "figures.md"
UI = i18n.namespace("figures")
"""This feature's interface strings: ``figures.*`` of the catalogue."""

KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}(\.[a-z0-9][a-z0-9_-]{0,39}){0,4}")
"""A figure's key: up to five dotted lower-case words (``home.it.performance``)."""
SET_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
MAX_FIGURES = 2000
MAX_VALUE = 1e12


class Unit(enum.Enum):
    """What a figure counts; its words are the catalogue's ``figures.units.*``."""

    COUNT = "count"
    SECONDS = "s"
    MILLISECONDS = "ms"
    MINUTES = "min"
    KIB = "KiB"
    SCORE = "score"
    """A Lighthouse score, 0-100."""


@dataclass(frozen=True)
class Figure:
    """One measured number: ``of`` makes it a share (5234 of 5732)."""

    key: str
    value: float
    unit: Unit
    of: float | None = None


@dataclass(frozen=True)
class Conditions:
    """Where and when a set was measured, written by the measuring command itself."""

    measured: datetime.date
    commit: str
    cores: int
    load_before: float
    load_after: float
    python: str


@dataclass(frozen=True)
class FigureSet:
    id: str
    command: str
    conditions: Conditions
    figures: tuple[Figure, ...]

    def value(self, key: str) -> Figure:
        """The figure named ``key``; ``KeyError`` naming the set when there is none."""
        for figure in self.figures:
            if figure.key == key:
                return figure
        raise KeyError(f"{self.id}: no figure {key!r}")


FIGURE_SETS: FeatureKey[dict[str, FigureSet]] = FeatureKey("figures", dict)
"""The measured figures of ``data/figures/``, by set id (the ``figures`` feature's data)."""


# ------------------------------------------------------------------------------------------ reading

_LOAD = {"type": "number", "minimum": 0, "maximum": 10_000, "expected": "the 1-minute load average, a number from 0"}
_NUMBER = {"type": "number", "minimum": -MAX_VALUE, "maximum": MAX_VALUE, "expected": "a finite number"}

SCHEMA: Schema = {
    "type": "object", "required": ["format", "command", "conditions", "figures"], "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "command": {"type": "string", "minLength": 1, "maxLength": 200,
                    "expected": "the measuring command, printable, at most 200 characters"},
        "conditions": {
            "type": "object", "additionalProperties": False,
            "required": ["measured", "commit", "cores", "load_before", "load_after", "python"],
            "expected": "an object: measured, commit, cores, load_before, load_after, python",
            "properties": {
                "measured": {"type": "string", "format": "date", "expected": "an ISO date (2026-11-27)"},
                "commit": {"type": "string", "pattern": "^([0-9a-f]{7,40}|unknown)$",
                           "expected": "a git commit (7-40 hex digits) or 'unknown'"},
                "cores": {"type": "integer", "minimum": 1, "maximum": 1024},
                "load_before": _LOAD, "load_after": _LOAD,
                "python": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+(\.[0-9]+)?$",
                           "expected": "a version such as 3.11.2"}}},
        "figures": {
            "type": "array", "minItems": 1, "maxItems": MAX_FIGURES, "expected": f"a list of 1 to {MAX_FIGURES} figures",
            "items": {
                "type": "object", "required": ["key", "value", "unit"], "additionalProperties": False,
                "expected": "an object with key, value, unit (and of, for a share)",
                "properties": {
                    "key": {"type": "string", "pattern": f"^{KEY.pattern}$",
                            "expected": "dotted lower-case words (home.it.performance)"},
                    "value": _NUMBER,
                    "unit": {"enum": [u.value for u in Unit]},
                    "of": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_VALUE,
                           "expected": "the whole, a number > 0 and >= the value"}}}},
    },
}
"""The shape of a figure file; :func:`parse_set` adds what a schema cannot say (file name, keys once,
a share's part not above its whole)."""


def parse_set(file: Path) -> tuple[FigureSet | None, list[Problem]]:
    """Read and check one figure file; every problem, each naming its field and line."""
    try:
        data, located = load_json(file)
    except LoadError as err:
        return None, [Problem(str(err.file), err.where, err.detail, err.line)]
    problems = Problems()
    faults = schema.check(data, located, file, SCHEMA, problems)
    set_id = file.stem
    if not SET_ID.fullmatch(set_id):
        problems.add(file, "", f"file name {file.name!r}: expected a lower-case set id (letters, digits, '-')")
    seen: set[str] = set()
    for i, item in enumerate(data.get("figures", []) if faults.usable("figures") else []):
        where = ("figures", i)
        if faults.usable(*where, "key") and item["key"] in seen:
            problems.add(file, yaml_path(*where, "key"), f"key {item['key']!r} appears twice", located.line(*where, "key"))
        elif faults.usable(*where, "key"):
            seen.add(item["key"])
        if faults.clean(*where) and "of" in item and item["value"] > item["of"]:
            problems.add(file, yaml_path(*where, "of"), f"expected the whole, a number > 0 and >= the value "
                         f"{item['value']!r}, got {item['of']!r}", located.line(*where, "of"))
    if problems:
        return None, problems.items
    c = data["conditions"]
    conditions = Conditions(datetime.date.fromisoformat(c["measured"]), c["commit"], c["cores"],
                            float(c["load_before"]), float(c["load_after"]), c["python"])
    return FigureSet(set_id, data["command"], conditions, tuple(
        Figure(f["key"], float(f["value"]), Unit(f["unit"]), None if f.get("of") is None else float(f["of"]))
        for f in data["figures"])), []


def load_sets(data_dir: Path, problems: Problems) -> dict[str, FigureSet]:
    """Every figure set of ``data_dir/figures``, by id (problems added, all at once)."""
    out: dict[str, FigureSet] = {}
    for file in sorted((data_dir / FOLDER).glob("*.json")):
        figure_set, found = parse_set(file)
        for problem in found:
            problems.add(problem.file, problem.where, problem.message, problem.line)
        if figure_set is not None:
            out[figure_set.id] = figure_set
    return out


# ------------------------------------------------------------------------------------------ writing

def conditions_now(load_before: float) -> dict[str, Any]:
    """The conditions of a measurement that started at ``load_before`` and ends now."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    return {"measured": datetime.date.today().isoformat(), "commit": commit or "unknown",
            "cores": os.cpu_count() or 1, "load_before": round(load_before, 2),
            "load_after": round(load_average(), 2), "python": platform.python_version()}


def load_average() -> float:
    """The 1-minute load average (0 where the system has none)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def figure(key: str, value: float, unit: Unit, of: float | None = None) -> dict[str, Any]:
    """One figure as its file holds it."""
    out: dict[str, Any] = {"key": key, "value": round(value, 3) if isinstance(value, float) else value,
                           "unit": unit.value}
    if of is not None:
        out["of"] = of
    return out


def dumps(content: dict[str, Any]) -> str:
    """A figure file's text: one figure a line, so a new measurement's diff reads figure by figure."""
    head = json.dumps({k: v for k, v in content.items() if k != "figures"}, indent=1, ensure_ascii=False)
    rows = ",\n".join("  " + json.dumps(f, ensure_ascii=False) for f in content["figures"])
    return head[:-2] + ',\n "figures": [\n' + rows + "\n ]\n}\n"


def write_set(set_id: str, command: str, load_before: float, figures: Iterable[dict[str, Any]],
              data_dir: Path = ROOT / "data") -> Path:
    """Write ``data/figures/<set_id>.json`` (replacing the previous measurement), checked on the way."""
    file = data_dir / FOLDER / f"{set_id}.json"
    file.parent.mkdir(parents=True, exist_ok=True)
    content = {"format": FORMAT, "command": command, "conditions": conditions_now(load_before),
               "figures": list(figures)}
    text = dumps(content)
    file.write_text(text, encoding="utf-8")
    _, problems = parse_set(file)
    if problems:  # the writer's own mistake: say it before anyone commits the file
        raise ValueError("; ".join(p.message for p in problems))
    return file


# ------------------------------------------------------------------------------------------ showing

def format_value(figure: Figure, lang: str) -> str:
    """A figure as the README and the page write it: ``22.1 s``, ``5234 / 5732 (91 %)``, ``100``."""
    def number(value: float) -> str:
        text = f"{value:.0f}" if value == int(value) else (f"{value:.2f}".rstrip("0") if abs(value) < 10
                                                            else f"{value:.1f}")
        return text.replace(".", ",") if lang == "it" else text
    unit = figure.unit
    if figure.of is not None:
        percent = 100 * figure.value / figure.of
        digits = 0 if percent == int(percent) else 1
        while digits < 3 and round(percent, digits) in (0, 100) and percent not in (0, 100):
            digits += 1  # 2422 of 2423 is not "100 %"
        share = f"{percent:.{digits}f} %"
        share = share.replace(".", ",") if lang == "it" else share
        return f"{number(figure.value)} / {number(figure.of)} ({share})"
    if unit in (Unit.COUNT, Unit.SCORE):
        return number(figure.value)
    return i18n.t(f"figures.units.{unit.name.lower()}", lang, n=number(figure.value))


def label(key: str, lang: str) -> str:
    """A figure's words: each dotted part through the catalogue's ``figures.words`` (the part itself
    where the catalogue has no word for it, escaped)."""
    words = [i18n.t(f"figures.words.{part}", lang) if i18n.has(f"figures.words.{part}", lang) else md_inline(part)
             for part in key.split(".")]
    return " · ".join(words)


def set_view(figure_set: FigureSet, lang: str) -> dict[str, Any]:
    c = figure_set.conditions
    return {
        "id": figure_set.id,
        "title": i18n.t(f"figures.sets.{figure_set.id}", lang) if i18n.has(f"figures.sets.{figure_set.id}", lang)
        else md_inline(figure_set.id),
        "command": md_inline(figure_set.command),
        "conditions": i18n.t("figures.conditions", lang, date=c.measured.isoformat(), commit=c.commit[:10],
                             cores=str(c.cores), before=f"{c.load_before:.2f}", after=f"{c.load_after:.2f}",
                             python=c.python),
        "rows": [(label(f.key, lang), format_value(f, lang)) for f in figure_set.figures],
    }


def figures_page(sets: Mapping[str, FigureSet], lang: str) -> Page:
    ui = UI[lang]
    content = render("figures.md.j2", ui=ui, sets=[set_view(s, lang) for _, s in sorted(sets.items())])
    return Page(lang, PAGE, ui["title"], content, nav=(ui["nav"],))


def produce(site: SiteData, lang: str) -> list[Page]:
    sets = site.get(FIGURE_SETS)
    return [figures_page(sets, lang)] if sets else []


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: every figure set into the site's data."""
    site.put(FIGURE_SETS, load_sets(site.data_dir, problems))


features.register(features.Feature(name="figures", loader=store, producers=(produce,)))
