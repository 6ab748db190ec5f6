"""Tables as the built pages carry them: what a phone needs to read a wide table.

It works on the HTML MkDocs writes (``on_post_page`` in :mod:`generator.mkdocs_hook`), so it
reaches every table, whichever template or Markdown wrote it.
"""
from __future__ import annotations

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

