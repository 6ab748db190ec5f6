"""Tables as the built pages carry them (generator/tables.py): long tables marked with their
estimated heights, so the browser can leave them out of the first layout."""
from __future__ import annotations

import re

import pytest

from generator.tables import LONG_TABLE_ROWS, estimated_height_em, label_table_cells, mark_long_tables


def table(rows: int, columns: int = 2, text: str = "x", attrs: str = "") -> str:
    head = "<thead><tr>" + "".join(f"<th>H{c}</th>" for c in range(columns)) + "</tr></thead>"
    body = "".join("<tr>" + "".join(f"<td>{text}</td>" for _ in range(columns)) + "</tr>" for _ in range(rows))
    return f"<table{attrs}>{head}<tbody>{body}</tbody></table>"


def sizes(html: str) -> tuple[float, float]:
    match = re.search(r'--cellula-phone-h: ([\d.]+)em; --cellula-wide-h: ([\d.]+)em', html)
    assert match, html[:200]
    return float(match.group(1)), float(match.group(2))


@pytest.mark.parametrize("rows", [0, 1, LONG_TABLE_ROWS - 1])
def test_a_short_table_is_left_as_it_is(rows):
    html = table(rows)
    assert mark_long_tables(html) == html


@pytest.mark.parametrize("rows", [LONG_TABLE_ROWS, LONG_TABLE_ROWS + 40])
def test_a_long_table_carries_its_estimated_heights(rows):
    out = mark_long_tables(table(rows))
    assert out.startswith('<table data-cellula-long style="--cellula-phone-h: ')
    phone, wide = sizes(out)
    assert phone > 0 and wide > 0
    assert out.count("<tr>") == rows + 1, "the rows themselves are untouched"


def test_a_table_with_its_own_style_or_already_marked_is_left_alone():
    styled = table(LONG_TABLE_ROWS, attrs=' style="color: red"')
    assert mark_long_tables(styled) == styled
    once = mark_long_tables(table(LONG_TABLE_ROWS))
    assert mark_long_tables(once) == once


def test_more_text_or_more_rows_make_a_taller_estimate():
    short_rows, long_rows = sizes(mark_long_tables(table(12))), sizes(mark_long_tables(table(24)))
    assert long_rows[0] > short_rows[0] and long_rows[1] > short_rows[1]
    wordy = sizes(mark_long_tables(table(12, text="a long description of what the step does " * 4)))
    assert wordy[0] > short_rows[0] and wordy[1] > short_rows[1]


def test_entities_and_markup_count_as_the_text_they_show():
    plain = estimated_height_em([[40]] * 12, stacked=False)
    marked = mark_long_tables(table(12, columns=1, text='<a href="x" data-tip="long tooltip text">' + "&amp;" * 40 + "</a>"))
    assert sizes(marked) == plain


def test_a_phone_stacks_wide_tables_so_their_estimate_grows_with_the_columns():
    wide = label_table_cells(table(12, columns=6))
    assert "data-cellula-stack" in wide
    stacked_phone, _ = sizes(mark_long_tables(wide))
    flat_phone, _ = sizes(mark_long_tables(table(12, columns=6)))
    assert stacked_phone > flat_phone, "each stacked cell takes a line of its own"
