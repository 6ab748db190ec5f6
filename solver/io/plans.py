"""Plan files (JSON) for ``python -m solver replay``: read with the shared loader, every field
checked for its exact type before the rules engine sees it.

A plan is a list of actions, or an object ``{"plan": [...]}``; an action is an object with
``kind`` (default ``place``) and the fields of :class:`~solver.game.engine.Action`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, NoReturn, assert_never

from solver.game.engine import Action, ActionKind
from solver.game.errors import PlanError, located_message
from .loading import Located, LoadError, display_path, dotted, load_json
from solver.game.model import Resource
from solver.game.rules import virus

MAX_AMOUNT = 999
"""Largest integer a plan's ``amount`` may hold (the same bound as puzzle amounts)."""


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) and value else f"expected a non-empty text, got {value!r}"


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, got {value!r}"


def _amount(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AMOUNT:
        return f"expected an integer 0..{MAX_AMOUNT}, got {value!r}"
    return None


def _resource_list(value: Any) -> str | None:
    resources = [r.value for r in Resource]
    if isinstance(value, list) and all(isinstance(r, str) and r in resources for r in value):
        return None
    return f"expected a list of resources among {resources}, got {value!r}"


def _card_list(value: Any) -> str | None:
    if isinstance(value, list) and len(value) <= 3 and all(isinstance(c, str) and c for c in value):
        return None
    return f"expected a list of at most 3 card ids (the cards put back, top first), got {value!r}"


def _enum(values: list[str]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in values and isinstance(value, str) else f"expected one of {values}, got {value!r}"
    return check


FIELDS: dict[str, Callable[[Any], str | None]] = {
    "kind": _enum([k.value for k in ActionKind]),
    "spot": _text,
    "grey": _boolean,
    "card": _text,
    "amount": _amount,
    "resource": _enum([r.value for r in Resource]),
    "goal": _text,
    "bump": _text,
    "disk": _text,
    "extra": _boolean,
    "order": _card_list,
    "take": _resource_list,
    "lose": _enum([virus.HEALTH] + [r.value for r in Resource]),
}
"""Each field of an action and its check (None: fine, else the message)."""


def kind_fields(kind: ActionKind) -> frozenset[str]:
    """The fields an action of ``kind`` may have (besides ``kind``): any other field means nothing
    for it (a placement's ``take``, an exhausted flask's ``disk``) and is refused. Every kind is
    listed: the type checker refuses a new one left out."""
    match kind:
        case ActionKind.PLACE:
            return frozenset({"spot", "grey", "card", "amount", "goal", "bump", "disk", "extra"})
        case ActionKind.EXHAUST | ActionKind.TRADE | ActionKind.INCOME:
            return frozenset({"resource"})
        case ActionKind.PLAY_CARD:
            return frozenset({"card"})
        case ActionKind.PEEK:
            return frozenset({"card", "order"})
        case ActionKind.END_TURN:
            return frozenset()
        case ActionKind.VACCINATE:
            return frozenset({"amount"})
        case ActionKind.RESPOND:
            return frozenset({"take", "lose"})
        case _:
            assert_never(kind)


def required_field(kind: ActionKind) -> str | None:
    """The field a kind of action cannot do without (None: a Virus response may take nothing).
    Every kind is listed: the type checker refuses a new one left out."""
    match kind:
        case ActionKind.PLACE:
            return "spot"
        case ActionKind.EXHAUST | ActionKind.TRADE | ActionKind.INCOME:
            return "resource"
        case ActionKind.PLAY_CARD:
            return "card"
        case ActionKind.PEEK:
            return "order"
        case ActionKind.END_TURN:
            return None
        case ActionKind.VACCINATE:
            return "amount"
        case ActionKind.RESPOND:
            return None
        case _:
            assert_never(kind)


def parse_action(item: Any, index: int, file: str, located: Located, base: tuple[str, ...] = ()) -> Action:
    """One action, ``plan[index]``; ``base`` is where the list sits in the file (``("plan",)`` under
    an object). Raises :class:`PlanError` naming file, line and field."""
    path = base + (index,)
    shown = ("plan", index)

    def fail(field: tuple[str | int, ...], message: str) -> NoReturn:
        line = located.line(path + field)
        raise PlanError(located_message(file, line, dotted(shown + field), message))

    if not isinstance(item, dict):
        fail((), f"expected an action object ({{\"kind\": \"place\", \"spot\": ...}}), got {item!r}")
    for key, value in item.items():
        check = FIELDS.get(key)
        if check is None:
            fail((key,), f"unknown field {key!r}; expected one of {sorted(FIELDS)}")
        if value is None and key not in ("kind", "grey", "extra"):
            continue
        problem = check(value)
        if problem:
            fail((key,), problem)
    kind = ActionKind(item.get("kind", "place"))
    allowed = kind_fields(kind)
    for key in item:
        if key != "kind" and key not in allowed:
            fail((key,), f"an action of kind {kind.value!r} has no field {key!r}; its fields are {sorted(allowed)}")
    needed = required_field(kind)
    if needed is not None and item.get(needed) is None:
        fail((needed,), f"a {kind.value} action needs `{needed}`, got none")
    return Action.from_dict(item)


def load_plan(path: str | Path) -> list[Action]:
    """Read a plan file; raises :class:`PlanError` on the first problem."""
    file = display_path(path)
    try:
        data, located = load_json(path)
    except LoadError as err:    # a list's items are the plan's steps: [2].amount is plan[2].amount
        where = f"plan{err.where}" if err.where.startswith("[") else err.where
        raise PlanError(located_message(err.file, err.line, where, err.detail)) from None
    items = data.get("plan") if isinstance(data, dict) else data
    if isinstance(data, dict) and "plan" not in data:
        raise PlanError(f"{file}:{located.line(())}: expected a list of actions or an object with `plan`, "
                        f"got an object with {sorted(data)}")
    if not isinstance(items, list):
        where = "plan: " if isinstance(data, dict) else ""
        raise PlanError(f"{file}:{located.line(('plan',) if where else ())}: {where}expected a list of actions, "
                        f"got {type(items).__name__} {items!r}"[:300])
    base = ("plan",) if isinstance(data, dict) else ()
    return [parse_action(item, i, file, located, base) for i, item in enumerate(items)]
