"""Tables as the built pages carry them: what a phone needs to read a wide table, and what the
browser needs to leave a long table out of the page's first layout.

Both work on the HTML MkDocs writes (``on_post_page`` in :mod:`generator.mkdocs_hook`), so they
reach every table, whichever template or Markdown wrote it.
"""
from __future__ import annotations

import html as html_lib
import math
import re

TABLE = re.compile(r"<table(?P<attrs>[^>]*)>(?P<body>.*?)</table>", re.S)
HEADER_CELL = re.compile(r"<th\b[^>]*>(?P<text>.*?)</th>", re.S)
ROW = re.compile(r"<tr\b[^>]*>(?P<cells>.*?)</tr>", re.S)
DATA_CELL = re.compile(r"<td\b")
STACK_FROM_COLUMNS = 4
"""Tables of this many columns or more become stacked rows on a phone (cellula.css): each cell
then shows its column's name, from the ``data-label`` written here."""


def _header_label(cell_html: str) -> str:
    """A column's name for a stacked cell: an abbreviation's full form, else the header's text."""
    title = re.search(r'<abbr[^>]*title="([^"]*)"', cell_html)
    text = title.group(1) if title else re.sub(r"<[^>]+>", "", cell_html)
    return " ".join(text.split()).replace('"', "&quot;")


def label_table_cells(html: str) -> str:
    """Give every body cell of a wide table its column's name (``data-label``) and mark the table
    ``data-cellula-stack``, so that on a phone it reads as one block per row, no column hidden."""

    def table(match: re.Match[str]) -> str:
        head = match.group("body").split("</thead>")[0] if "</thead>" in match.group("body") else ""
        labels = [_header_label(m.group("text")) for m in HEADER_CELL.finditer(head)]
        if len(labels) < STACK_FROM_COLUMNS or "data-cellula-stack" in match.group("attrs"):
            return match.group(0)

        def row(row_match: re.Match[str]) -> str:
            cells = row_match.group("cells")
            if cells.count("<td") != len(labels):
                return row_match.group(0)
            names = iter(labels)
            return row_match.group(0).replace(cells, DATA_CELL.sub(lambda _: f'<td data-label="{next(names)}"', cells))

        head_part, sep, rest = match.group("body").partition("</thead>")
        body = head_part + sep + ROW.sub(row, rest)
        return f'<table{match.group("attrs")} data-cellula-stack>{body}</table>'

    return TABLE.sub(table, html)


LONG_TABLE_ROWS = 12
"""Tables of this many body rows or more are laid out only when the reader nears them
(``content-visibility: auto`` in cellula.css). Why: Material's scripts measure the page as it
loads. On the longest puzzle pages (a whole game: about 2,800 elements, most of them in step and
card tables below the first screen) the browser then laid out every table before the page could
answer, 0.2-0.3 s on Lighthouse's simulated slow phone."""

CELL = re.compile(r"<t[hd]\b[^>]*>(?P<text>.*?)</t[hd]>", re.S)
TAG = re.compile(r"<[^>]+>")

# Until a long table is first laid out, the browser gives it the height estimated here, in ems of
# the table's type: one where a phone shows each row as a block of labelled cells, one for a wider
# screen. The estimate leans high: a box shorter than its table lets the table overlap what
# follows until it is laid out; a taller one leaves a gap the browser closes as the reader nears
# it. Measured against the real heights of 54 long tables at 360 to 1920 px wide: a median of 1.1
# to 1.25 times the real height, the lowest 0.67 (the benchmark tables on a phone), the highest 2.9.
LINE_EM = 1.6
"""The height of one line of table text."""
ROW_PADDING_EM = 0.8
"""A row's padding and border."""
HEAD_EM = 3.0
"""The header row."""
PHONE_LINE_CHARS = 38
"""Characters in one line of a stacked cell on a phone (label and value share it)."""
LABEL_CHARS = 12
"""A stacked cell's column name, which precedes its value."""
WIDE_LINE_CHARS = 90
"""Characters across the whole table on a wider screen, shared by its columns."""
SAFETY = 1.3
"""How much higher than the plain estimate the box is made (see above)."""


def _cell_lengths(row_html: str) -> list[int]:
    return [len(" ".join(html_lib.unescape(TAG.sub("", m.group("text"))).split())) for m in CELL.finditer(row_html)]


def _lines(chars: int, per_line: float) -> int:
    return max(1, math.ceil(chars / max(per_line, 1.0)))


def estimated_height_em(rows: list[list[int]], stacked: bool) -> tuple[float, float]:
    """A table's estimated height (phone, wider screen) from its body rows' cell text lengths;
    ``stacked`` when a phone shows its rows as blocks (:func:`label_table_cells`)."""
    phone = wide = HEAD_EM
    for cells in rows:
        share = WIDE_LINE_CHARS / max(len(cells), 1)
        wide += LINE_EM * max((_lines(c, share) for c in cells), default=1) + ROW_PADDING_EM
        if stacked:
            phone += sum(LINE_EM * _lines(c + LABEL_CHARS, PHONE_LINE_CHARS) for c in cells) + ROW_PADDING_EM
        else:
            phone_share = PHONE_LINE_CHARS / max(len(cells), 1)
            phone += LINE_EM * max((_lines(c, phone_share) for c in cells), default=1) + ROW_PADDING_EM
    return round(phone * SAFETY, 1), round(wide * SAFETY, 1)


def mark_long_tables(html: str) -> str:
    """Give every table of :data:`LONG_TABLE_ROWS` body rows or more ``data-cellula-long`` and its
    estimated heights (``--cellula-phone-h``, ``--cellula-wide-h``), which cellula.css uses until
    the table is first laid out."""

    def table(match: re.Match[str]) -> str:
        attrs, body = match.group("attrs"), match.group("body")
        if "data-cellula-long" in attrs or "style=" in attrs:  # already marked, or styled by its author
            return match.group(0)
        rows = [_cell_lengths(m.group("cells")) for m in ROW.finditer(body.partition("</thead>")[2] or body)]
        if len(rows) < LONG_TABLE_ROWS:
            return match.group(0)
        phone, wide = estimated_height_em(rows, stacked="data-cellula-stack" in attrs)
        sizes = f"--cellula-phone-h: {phone}em; --cellula-wide-h: {wide}em"
        return f'<table{attrs} data-cellula-long style="{sizes}">{body}</table>'

    return TABLE.sub(table, html)
