"""Measured figures as data (generator/figures.py): the files check out, no document quotes them
(they live in data/figures/ and on the site's page only), the records' figures are the records', and
a bad figure file is refused with its line."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator import figures, i18n
from generator.errors import Problems
from generator.figures import Figure, Unit, format_value, parse_set
from generator.proofs.figures import record_figures

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "data" / figures.FOLDER
FIGURE_FILE_CITED = re.compile(r"`(?P<set>[a-z-]+)\.json` `(?P<key>[a-z0-9_.-]+)`")
"""How a document quoted a figure by its file and key (the README's old figures table)."""
PROSE = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
"""The documents that must not move with every measurement."""


@pytest.fixture(scope="module")
def committed() -> dict[str, figures.FigureSet]:
    problems = Problems()
    sets = figures.load_sets(ROOT / "data", problems)
    assert not problems, problems
    return sets


@pytest.mark.parametrize("file", sorted(FIGURES.glob("*.json")), ids=lambda f: f.name)
def test_every_committed_figure_file_checks_out(file):
    figure_set, problems = parse_set(file)
    assert not problems and figure_set is not None and figure_set.figures


@pytest.mark.parametrize("document", PROSE)
def test_no_document_quotes_a_figure_by_its_file(document, committed):
    """A measured figure lives in its file and on the site's page only: a document that quoted one
    had to be edited with every measurement (14 record refreshes edited the README in round 4)."""
    text = (ROOT / document).read_text(encoding="utf-8")
    quoted = [m.group(0) for m in FIGURE_FILE_CITED.finditer(text) if m.group("set") in committed]
    assert not quoted, f"{document} quotes measured figures ({', '.join(quoted)}): link data/figures/ instead"


def test_the_readme_links_the_figures():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(data/figures/)" in text and "Measured figures" in text


def test_the_records_figures_are_counted_from_the_committed_records(committed):
    records = [json.loads(f.read_text(encoding="utf-8")) for f in sorted((ROOT / "data" / "puzzles").rglob("*.record.json"))]
    expected = {f["key"]: (float(f["value"]), f.get("of")) for f in record_figures(records)}
    written = {f.key: (f.value, f.of) for f in committed["records"].figures}
    assert written == expected, \
        "data/figures/records.json is not what the records hold: run `python -m generator records --figures`"


GOOD = {"format": figures.FORMAT, "command": "python -m generator bench",
        "conditions": {"measured": "2026-11-27", "commit": "abcdef1", "cores": 2, "load_before": 0.5,
                       "load_after": 0.7, "python": "3.11.7"},
        "figures": [{"key": "build.median", "value": 12.5, "unit": "s"},
                    {"key": "recall", "value": 5, "unit": "count", "of": 6}]}


def with_change(path: tuple, value) -> dict:
    data = json.loads(json.dumps(GOOD))
    target = data
    for part in path[:-1]:
        target = target[part]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("path, value, says", [
    (("format",), "cellula-figures-0", "format: expected 'cellula-figures-1', got 'cellula-figures-0'"),
    (("conditions", "measured"), "yesterday", "conditions.measured: expected an ISO date (2026-11-27), got 'yesterday'"),
    (("conditions", "cores"), 0, "conditions.cores: expected an integer from 1 to 1024, got 0"),
    (("conditions", "cores"), True, "conditions.cores: expected an integer, got True"),
    (("conditions", "load_before"), -1, "conditions.load_before: expected the 1-minute load average, a number from 0, got -1"),
    (("conditions", "commit"), "HEAD", "conditions.commit: expected a git commit (7-40 hex digits) or 'unknown', got 'HEAD'"),
    (("conditions", "python"), "3.11\u0000", "conditions.python: expected printable text"),
    (("command",), "run\u001b[31m", "command: expected printable text"),
    (("figures", 0, "key"), "Build Median", "figures[0].key: expected dotted lower-case words (home.it.performance), got 'Build Median'"),
    (("figures", 1, "key"), "build.median", "key 'build.median' appears twice"),
    (("figures", 0, "value"), float("inf"), "got Infinity (not valid JSON)"),
    (("figures", 0, "value"), "12.5", "figures[0].value: expected a finite number, got '12.5'"),
    (("figures", 0, "unit"), "hours", "figures[0].unit: expected one of 'count', 's', 'ms', 'min', 'KiB', 'score', got 'hours'"),
    (("figures", 1, "of"), 4, "figures[1].of: expected the whole, a number > 0 and >= the value 5, got 4"),
    (("figures", 0, "note"), "x", "unknown field 'note'"),
    (("figures",), [], "figures: expected a list of 1 to 2000 figures, got []"),
    (("conditions", "load_after"), KeyError, "conditions: missing field 'load_after'"),
    (("extra",), 1, "unknown field 'extra'"),
])
def test_a_bad_figure_file_is_refused_naming_field_and_line(tmp_path, path, value, says):
    file = tmp_path / "build.json"
    file.write_text(json.dumps(with_change(path, value), indent=1, allow_nan=True), encoding="utf-8")
    figure_set, problems = parse_set(file)
    assert figure_set is None and problems
    messages = [f"{p.where}: {p.message}" for p in problems]
    assert any(says in m for m in messages), messages
    if path[0] in ("figures", "conditions", "format", "command") and value is not KeyError and path != ("figures",) \
            and value != float("inf"):
        assert all(p.line is not None and p.line > 1 for p in problems), problems


def test_a_good_file_reads_back(tmp_path):
    file = tmp_path / "build.json"
    file.write_text(json.dumps(GOOD), encoding="utf-8")
    figure_set, problems = parse_set(file)
    assert not problems and figure_set is not None
    assert figure_set.value("recall") == Figure("recall", 5, Unit.COUNT, 6)


@pytest.mark.parametrize("figure, en, it", [
    (Figure("a", 22.0, Unit.SECONDS), "22 s", "22 s"),
    (Figure("a", 0.64, Unit.SECONDS), "0.64 s", "0,64 s"),
    (Figure("a", 51.3, Unit.SECONDS), "51.3 s", "51,3 s"),
    (Figure("a", 100, Unit.SCORE), "100", "100"),
    (Figure("a", 2422, Unit.COUNT, 2423), "2422 / 2423 (99.96 %)", "2422 / 2423 (99,96 %)"),
    (Figure("a", 10, Unit.COUNT, 130), "10 / 130 (7.7 %)", "10 / 130 (7,7 %)"),
    (Figure("a", 57, Unit.COUNT, 57), "57 / 57 (100 %)", "57 / 57 (100 %)"),
])
def test_figures_are_written_in_each_language(figure, en, it):
    assert (format_value(figure, "en"), format_value(figure, "it")) == (en, it)


def test_the_writer_writes_a_file_the_reader_accepts(tmp_path):
    file = figures.write_set("build", "python -m generator bench", 0.25,
                             [figures.figure("build.median", 12.345, Unit.SECONDS)], data_dir=tmp_path)
    figure_set, problems = parse_set(file)
    assert not problems and figure_set is not None
    assert figure_set.conditions.cores >= 1 and figure_set.conditions.load_before == 0.25
    assert file.read_text(encoding="utf-8").count('"key"') == 1


def test_the_page_shows_every_set_with_its_conditions(committed):
    i18n.load(ROOT / "data", Problems())
    for lang in ("it", "en"):
        page = figures.figures_page(committed, lang)
        for figure_set in committed.values():
            assert f"{{ #{figure_set.id} }}" in page.content
        assert i18n.t("figures.title", lang) in page.content


def test_a_command_with_markup_is_shown_as_text(tmp_path):
    i18n.load(ROOT / "data", Problems())
    data = with_change(("command",), "python x.py <script>alert(1)</script> *bold* | pipe")
    file = tmp_path / "build.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    figure_set, problems = parse_set(file)
    assert figure_set is not None
    content = figures.figures_page({"build": figure_set}, "en").content
    assert "<script>" not in content and "&lt;script&gt;" in content and "\\*bold\\*" in content
