"""Reading a play data script (``generated/play/<id>.js``, generator/puzzles/play_data.py play_data_asset)
back as board.js does: shared by the unit, site and browser tests."""
from __future__ import annotations

import json
from typing import Any


def play_data(script: str, puzzle_id: str) -> dict[str, Any]:
    """The object ``script`` files under ``puzzle_id`` in the play data global; AssertionError,
    naming what is wrong, when the script is not of that form."""
    from generator.puzzles.play_data import PLAY_DATA_GLOBAL
    prefix = f"(window.{PLAY_DATA_GLOBAL} = window.{PLAY_DATA_GLOBAL} || {{}})"
    key = f"{prefix}[{json.dumps(puzzle_id)}] = "
    assert script.startswith(key), f"the script does not file its data under {puzzle_id!r}: {script[:120]!r}"
    assert script.endswith(";\n"), f"the script does not end its statement: {script[-40:]!r}"
    return json.loads(script[len(key):-2])
