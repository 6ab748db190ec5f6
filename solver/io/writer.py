"""Writing a puzzle file: the canonical text of a puzzle's data (the mapping a puzzle file holds, as
:func:`solver.io.loading.load_yaml` reads it), which the loader reads back to the same data.

The analysis board (``cytosis/analysis/``) writes the same text in the browser
(``docs/assets/analysis.js``, ``puzzleText``): a position set up there and downloaded is a file
``python -m solver solve`` accepts. Both follow one layout, the shipped files' own: the fields in
the schema's order (:data:`solver.io.puzzle.PUZZLE_SCHEMA`), titles and stories one language a
line, every other mapping and every list of plain values on one line (``{atp: 1, mrna: 2}``,
``[nucleus-3, null]``), cards and goals one a line. A text is written bare when YAML reads it back
as that text (an id such as ``enzyme-red``), otherwise double-quoted with JSON's escapes, which
YAML's double-quoted style shares; numbers, ``true``/``false`` and ``null`` as YAML writes them.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

FIELD_ORDER = ("id", "title", "story", "edition", "board", "players", "grade", "rounds", "flasks", "start", "hand",
               "row", "deck", "events", "occupied", "grey_flasks", "goal_markers", "goals", "opponents", "cards",
               "antibodies", "virus_rolls", "objective", "seat", "first_player", "marker_seat", "laureates_seats",
               "epigenetic", "board_override", "expected", "notes", "rulings")
"""Top-level fields in the order they are written (the schema's order); a field not listed (the
loader refuses it) would follow them, so that nothing given is dropped."""

TEXT_FIELDS = frozenset({"title", "story", "notes"})
"""Fields holding a text per language, written one language a line."""

BLOCK_LISTS = frozenset({"cards", "goals"})
"""Fields holding a list of mappings, written one item a line."""

_BARE = re.compile(r"(?=[a-z0-9_-]*[a-z])[a-z0-9][a-z0-9_-]*")
"""Texts that may be written bare: ids and words (``enzyme-red``, ``2e``), a letter among them."""
_NOT_BARE = re.compile(r"[0-9][0-9_]*e[0-9]+|0[box].*|null|true|false|yes|no|on|off|y|n")
"""Of those, what YAML 1.1 reads as a number (``1e5``, ``0x1f``), null or a boolean: quoted."""


def scalar(value: Any) -> str:
    """One plain value as YAML writes it: a text bare when YAML reads it back as that text
    (``enzyme-red``), else double-quoted (JSON's escapes are YAML's too)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _BARE.fullmatch(value) and not _NOT_BARE.fullmatch(value):
            return value
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"expected a text, a whole number, true/false or null, got {type(value).__name__}")


def _key(key: Any) -> str:
    """A mapping key: round numbers (``1``, or ``"1"`` as the schema check leaves them) bare, so
    that YAML reads an integer key as the shipped files have it."""
    if isinstance(key, int) or (isinstance(key, str) and key.isdigit() and not key.startswith("0")):
        return str(int(key))
    return scalar(key)


def flow(value: Any) -> str:
    """A value on one line: ``{atp: 1, mrna: 2}``, ``[a, null, b]``, or a plain value."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def puzzle_text(data: Mapping[str, Any]) -> str:
    """The canonical text of a puzzle file holding ``data`` (see the module docstring)."""
    lines: list[str] = []
    keys = [k for k in FIELD_ORDER if k in data] + [k for k in data if k not in FIELD_ORDER]
    for key in keys:
        value = data[key]
        if key in TEXT_FIELDS and isinstance(value, Mapping) and value:
            lines.append(f"{key}:")
            lines += [f"  {_key(lang)}: {scalar(text)}" for lang, text in value.items()]
        elif key in BLOCK_LISTS and isinstance(value, (list, tuple)) and value:
            lines.append(f"{key}:")
            lines += [f"  - {flow(item)}" for item in value]
        else:
            lines.append(f"{_key(key)}: {flow(value)}")
    return "\n".join(lines) + "\n"
