"""Shared helpers for the solver tests: build puzzles from dicts without files."""
from __future__ import annotations

import copy

from solver.engine import Action, ActionKind, apply, initial_state
from solver.model import Resource
from solver.puzzle import _Lines, _Where, _normalise_round_keys, _schema_check, PUZZLE_SCHEMA, puzzle_from_data

PH7 = {"id": "ph", "type": "protein-hormone", "cost": {"atp": 2, "protein": 2, "carb": 1}, "health": 7}
SH9 = {"id": "sh", "type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9}

BASE = {
    "id": "t", "title": {"en": "t", "it": "t"}, "story": {"en": "t", "it": "t"},
    "edition": "2e", "board": "3-5p", "rounds": 1, "flasks": 3,
    "start": {"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
    "hand": [], "row": [], "deck": [], "events": [], "occupied": {}, "grey_flasks": 2,
    "goals": [], "opponents": {"detox": []}, "cards": [], "objective": "max-health",
}


def make(**changes):
    """A validated Puzzle from BASE updated with ``changes`` (``start`` merges)."""
    data = copy.deepcopy(BASE)
    start = changes.pop("start", {})
    data["start"].update(start)
    data.update(copy.deepcopy(changes))
    _normalise_round_keys(data)
    where = _Where("<test>", _Lines(None))
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


def place(spot, **kw):
    return Action(ActionKind.PLACE, spot=spot, **kw)


def exhaust(resource):
    return Action(ActionKind.EXHAUST, resource=Resource(resource))


def run(puzzle, *actions):
    state = initial_state(puzzle)
    for a in actions:
        state = apply(state, a)
    return state
