"""The site's words for the solver's step events: the one place pages turn a step's events
(``solver.steps.StepEvent``, stored in a solution record as dicts) into a text, through the
catalogue (``steps.*`` of ``data/i18n/<lang>.yaml``)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solver.steps import StepEvent, render

from .i18n import t


def step_text(events: Iterable[dict[str, Any] | StepEvent], lang: str) -> str:
    """The line of one step in ``lang``: ``events`` as a record stores them (dicts) or as the
    solver returns them."""
    parsed = tuple(e if isinstance(e, StepEvent) else StepEvent.from_dict(e) for e in events)
    return render(parsed, lambda key, **params: t(key, lang, **params))
