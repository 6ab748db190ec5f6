"""A move as a player says it (issue #36): the step words of the catalogue (``steps.*``) with every
card, spot, goal and disk by its name, never by its data id.

Pure: it reads no file and imports only :mod:`solver.game` (the engine, step events and their renderer), so
that the same function labels the moves at build time (CPython, with the generator's catalogue)
and in the reader's browser (Pyodide, with the catalogue texts the page hands over:
:class:`Words`). The names themselves are made at build time (:func:`generator.puzzles.play_data.names_of`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from solver.game import engine
from solver.game.replay import step_events
from solver.game.steps import Param, StepEvent, render


class Words:
    """The catalogue texts of one language a move's words need (``steps.*``, flat dotted keys) and
    the names of the puzzle's ids (cards, spots, goals, disks) in that language."""

    def __init__(self, texts: Mapping[str, str], names: Mapping[str, str]) -> None:
        self.texts = dict(texts)
        self.names = dict(names)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Words:
        """The ``{"texts": ..., "names": ...}`` object the page carries (:meth:`to_dict`)."""
        return cls(data.get("texts", {}), data.get("names", {}))

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {"texts": self.texts, "names": self.names}

    def message(self, key: str, **params: object) -> str:
        """The text of ``key`` filled in (the ``message`` of :func:`solver.game.steps.render`); a key
        the page lacks is shown as the key, so a missing word is visible and never a crash."""
        text = self.texts.get(key, key)
        return text.format(**params) if params else text

    def name(self, value: object) -> str:
        """The reader's name of an id (the id itself only when the build gave no name)."""
        return self.names.get(str(value), str(value))


def named(events: Iterable[StepEvent], words: Words) -> tuple[StepEvent, ...]:
    """``events`` with every id value (cards, spots, goals, strains, disks) replaced by its name."""
    out = []
    for ev in events:
        values = []
        for name, value in ev.values:
            param = ev.kind.params[name]
            if param is Param.ID:
                value = words.name(value)
            elif param is Param.IDS:
                value = tuple(words.name(v) for v in value)  # type: ignore[attr-defined]
            values.append((name, value))
        out.append(StepEvent(ev.kind, tuple(values)))
    return tuple(out)


def events_text(events: Iterable[StepEvent], words: Words) -> str:
    """A step's line in the reader's words."""
    return render(named(events, words), words.message)


def move_text(before: engine.State, action: engine.Action, words: Words,
              after: engine.State | None = None) -> str:
    """What playing ``action`` in ``before`` does, as a player says it: the spot by its name, the
    card it buys or completes by its name, what it costs and gives (``after``: the state it leads
    to, computed when not given)."""
    if after is None:
        after = engine.apply(before, action)
    return events_text(step_events(before.puzzle, before, action, after), words)


GROUPS = ("virus", "cards", "epigenetic", "exhaust")
"""Groups of the moves that are not placements (a placement's group is its spot's area)."""


def move_group(state: engine.State, action: engine.Action) -> str:
    """Where a move is listed: the board area of its spot (``rough-er``...), or one of
    :data:`GROUPS`."""
    kind = action.kind
    if kind in (engine.ActionKind.VACCINATE, engine.ActionKind.RESPOND):
        return "virus"
    if kind is engine.ActionKind.PLAY_CARD:
        return "cards"
    if kind in (engine.ActionKind.TRADE, engine.ActionKind.INCOME, engine.ActionKind.PEEK, engine.ActionKind.END_TURN):
        return "epigenetic"
    if kind is engine.ActionKind.EXHAUST:
        return "exhaust"
    spot = state.puzzle.board.spot(action.spot or "")
    return spot.area.value


BLOCKED = {"-": "", "t": "taken", "a": "area_full", "f": "no_flask", "o": "game_over", "v": "attack", "e": "turn_open",
           "c": "cannot"}
"""Why a spot has no legal move, one letter each (a move table stores a string of them, one per
spot in board order): the catalogue's ``play.blocked.<word>`` says it in the reader's language."""


def blocked_code(state: engine.State, spot_id: str, legal_spots: frozenset[str | None] | None = None) -> str:
    """Why ``spot_id`` has no legal move in ``state``, as a letter of :data:`BLOCKED`, from the
    engine's own reason for a plain placement there (``-``: the spot has a legal move). What the
    engine says of other causes (stock, cards in hand, the spot's own conditions) is ``c``.
    ``legal_spots``: the spots of ``state``'s legal moves (:func:`_legal_spots`), when the caller
    asks for many spots of one state."""
    if legal_spots is None:
        legal_spots = _legal_spots(state)
    if spot_id in legal_spots:
        return "-"
    if state.done or engine.is_terminal(state):
        return "o"
    if state.attacks:
        return "v"
    if state.after_flask:
        return "e"
    reason = engine.why_illegal(state, engine.Action(engine.ActionKind.PLACE, spot=spot_id)) or ""
    if "is taken this round" in reason:
        return "t"
    if "already has its flask" in reason:
        return "a"
    if "no flask left" in reason:
        return "f"
    return "c"


def _legal_spots(state: engine.State, moves: Iterable[engine.Action] | None = None) -> frozenset[str | None]:
    """The spots of ``state``'s legal moves (none in a finished game); ``moves``: those moves, when
    the caller has listed them already."""
    if engine.is_terminal(state):
        return frozenset()
    return frozenset(a.spot for a in (engine.legal_actions(state) if moves is None else moves))


def blocked_codes(state: engine.State, legal_actions: Iterable[engine.Action] | None = None) -> str:
    """:func:`blocked_code` of every spot of the board, in board order (the legal moves listed once,
    not once a spot: a move table asks this of every reachable state). ``legal_actions``: the
    state's legal moves when the caller has listed them already."""
    legal = _legal_spots(state, legal_actions)
    return "".join(blocked_code(state, spot.id, legal) for spot in state.puzzle.board.spots)
