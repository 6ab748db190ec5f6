"""The site's words for the solver's step events: the one place pages turn a step's events
(``solver.game.steps.StepEvent``, stored in a solution record as dicts) into a text, through the
catalogue (``steps.*`` of ``data/i18n/<lang>.yaml``). Cards, spots, goals and disks are told by
their names (``names``: :func:`generator.puzzles.play_data.names_of`), never by their data ids."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from solver.game.steps import StepEvent, render

from ..i18n import t
from .move_words import Words, named

NAMED_KEYS = {"steps.place": "play.place_named", "steps.translate": "play.translate_named", "steps.goal": "play.goal_named"}
"""Step texts the site tells with names in place of ids: the command line's ``steps.place`` shows
the spot's id in brackets; with names, the spot's name follows its area (``Nucleus, spot 3``), a
goal card is told once (its name says it is a goal card) and a translation's arrow is the arrow
sign (the command line keeps ``->`` for any terminal)."""


def step_text(events: Iterable[dict[str, Any] | StepEvent], lang: str,
              names: Mapping[str, str] | None = None) -> str:
    """The line of one step in ``lang``: ``events`` as a record stores them (dicts) or as the
    solver returns them; ids replaced by ``names`` (ids not in it stay as they are)."""
    parsed = tuple(e if isinstance(e, StepEvent) else StepEvent.from_dict(e) for e in events)
    if names is None:
        return render(parsed, lambda key, **params: t(key, lang, **params))
    return render(named(parsed, Words({}, names)), lambda key, **params: t(NAMED_KEYS.get(key, key), lang, **params))
