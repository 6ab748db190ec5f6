"""What a step of a plan does, as language-neutral events, and how events become a text.

The solver says *what* happens (:class:`StepEvent`: a kind and its typed values: a spot, a card,
the resources paid or gained, the Health gained...); the words live in the message catalogue
(``data/i18n/<lang>.yaml``, namespace ``steps``), one template per event kind
(``steps.<kind>``), plus the names of the resources and spots (``steps.resources``,
``steps.resources_plural``, ``steps.spots``) and the frame of a step (``steps.with_effects``,
``steps.separator``).

:func:`render` turns events into a text through a ``message(key, **params)`` function that the
consumer gives: the site passes the generator's catalogue (``generator.i18n.t``), the command line
the solver's own reader of the ``steps`` namespace (:func:`solver.io.catalogue.catalogue_message`), so that ``solver``
never imports ``generator`` and both show the same words.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .model import Resource, SpotKind, Stock

NAMESPACE = "steps"
"""Catalogue namespace of the step texts."""


class Param(Enum):
    """The type of an event's value, and so how it is serialised and rendered."""

    NUMBER = "number"
    """An integer, shown as digits."""
    ID = "id"
    """An identifier from the data (a card, spot, goal or strain id), shown as it is."""
    IDS = "ids"
    """Identifiers, shown as a comma-separated list."""
    RESOURCE = "resource"
    """One :class:`Resource`, shown by its singular name."""
    STOCK = "stock"
    """A :class:`Stock`, shown as amounts (``3 lipids, 1 ATP``)."""
    AMOUNTS = "amounts"
    """(amount, :class:`Resource`) pairs, shown as amounts."""
    SPOT = "spot"
    """A :class:`SpotKind`, shown by the spot's name."""


class Role(Enum):
    """Where an event's text goes in the step's line."""

    ACTION = "action"
    """Part of what the player does: the parts are joined as they are."""
    EFFECT = "effect"
    """What follows from it: the effects are listed after the action, in brackets."""


class StepEventKind(Enum):
    """Every kind of step event, with its role and its values (name and type). The member's
    value is its catalogue key under ``steps``."""

    role: Role
    params: dict[str, Param]

    def __new__(cls, key: str, role: Role, params: tuple[tuple[str, Param], ...] = ()) -> StepEventKind:
        member = object.__new__(cls)
        member._value_ = key
        member.role = role
        member.params = dict(params)
        return member

    PLAY_CARD = ("play_card", Role.ACTION, (("card", Param.ID),))
    """A card played from the hand."""
    TRADE = ("trade", Role.ACTION, (("price", Param.NUMBER), ("resource", Param.RESOURCE)))
    """Epigenetic card: ATP traded for one resource."""
    INCOME = ("income", Role.ACTION, (("resource", Param.RESOURCE),))
    """Epigenetic card: the round's income."""
    PEEK = ("peek", Role.ACTION)
    """Epigenetic card: a look at the top of the deck."""
    PEEK_TAKE = ("peek_take", Role.ACTION, (("card", Param.ID),))
    """... and the card taken."""
    PEEK_ORDER = ("peek_order", Role.ACTION, (("cards", Param.IDS),))
    """... and the cards put back, top first."""
    END_TURN = ("end_turn", Role.ACTION)
    """A turn kept open after its flask (for the Epigenetic look at the deck, or for Macromolecule
    cards before a Virus attack) ends without more."""
    VACCINATE = ("vaccinate", Role.ACTION, (("atp", Param.NUMBER), ("antibodies", Param.NUMBER)))
    """Virus attack: ATP paid for antibodies."""
    VACCINATE_NONE = ("vaccinate_none", Role.ACTION)
    """Virus attack: no ATP paid."""
    STRAIN = ("strain", Role.ACTION, (("strain", Param.ID),))
    """The attacking strain."""
    RESPOND_HEALTH = ("respond_health", Role.ACTION)
    """Virus attack, lowest response: a Health Point lost."""
    RESPOND_LOSE = ("respond_lose", Role.ACTION, (("resource", Param.RESOURCE),))
    """Virus attack, lowest response: a resource lost."""
    RESPOND_TAKE = ("respond_take", Role.ACTION, (("amounts", Param.AMOUNTS),))
    """Virus attack, ranked response: resources taken."""
    RESPOND_TAKE_NOTHING = ("respond_take_nothing", Role.ACTION)
    """Virus attack, ranked response: nothing taken."""
    EXHAUST = ("exhaust", Role.ACTION, (("resource", Param.RESOURCE),))
    """A flask exhausted for a resource."""
    PLACE = ("place", Role.ACTION, (("spot", Param.SPOT), ("spot_id", Param.ID)))
    """A flask placed on a spot."""
    GREY_FLASK = ("grey_flask", Role.ACTION, (("atp", Param.NUMBER),))
    """... the grey flask, at its ATP cost."""
    EXTRA = ("extra", Role.ACTION)
    """... one more cube (Epigenetic card)."""
    CARD = ("card", Role.ACTION, (("card", Param.ID),))
    """... for a card."""
    TRANSLATE = ("translate", Role.ACTION, (("mrna", Param.NUMBER), ("proteins", Param.AMOUNTS)))
    """... mRNA turned into proteins."""
    TRANSLATE_NONE = ("translate_none", Role.ACTION)
    """... no mRNA turned."""
    DISK_STARTED = ("disk_started", Role.ACTION, (("card", Param.ID),))
    """... with the disk started for a card."""
    GOAL = ("goal", Role.ACTION, (("goal", Param.ID),))
    """... a goal claimed (Laureates)."""
    LAUREATES_ATP = ("laureates_atp", Role.ACTION)
    """... the Laureates' ATP instead of a goal."""
    BUMP = ("bump", Role.ACTION, (("card", Param.ID),))
    """... a disk removed."""
    DISK_LOAD = ("disk_load", Role.ACTION, (("load", Param.STOCK),))
    """... what the disk carries afterwards."""
    PAY = ("pay", Role.EFFECT, (("stock", Param.STOCK),))
    """Resources paid."""
    GAIN = ("gain", Role.EFFECT, (("stock", Param.STOCK),))
    """Resources gained."""
    HEALTH = ("health", Role.EFFECT, (("points", Param.NUMBER),))
    """Health Points gained."""
    HELD_CARDS = ("held_cards", Role.EFFECT, (("cards", Param.IDS),))
    """Held cards played at the end of the last turn."""
    END_TRADES = ("end_trades", Role.EFFECT, (("amounts", Param.AMOUNTS),))
    """ATP traded at the end of the last turn (Epigenetic card)."""
    END_OF_ROUND = ("end_of_round", Role.EFFECT)
    """The round (or the game) ends."""
    TOXICITY_LOSS = ("toxicity_loss", Role.EFFECT, (("stock", Param.STOCK),))
    """Phase 2 after the step: the Toxicity event takes these cubes (not a payment of the step)."""
    VIRUS_CARD_LOSS = ("virus_card_loss", Role.EFFECT, (("points", Param.NUMBER),))
    """The next round's start: another player buys a Virus Attack card, the player loses Health."""


FRAME_KEYS = ("with_effects", "separator")
"""Catalogue keys of the step's frame: ``{action} ({effects})`` and the effects' separator."""


@dataclass(frozen=True)
class StepEvent:
    """One thing a step does, without words."""

    kind: StepEventKind
    """What happens."""
    values: tuple[tuple[str, object], ...] = ()
    """The kind's values, by name (exactly the names of ``kind.params``, typed as declared)."""

    def __post_init__(self) -> None:
        names = tuple(name for name, _ in self.values)
        if sorted(names) != sorted(self.kind.params):
            raise ValueError(f"step event {self.kind.value}: expected the values {sorted(self.kind.params)}, "
                             f"got {sorted(names)}")

    def value(self, name: str) -> object:
        """The value called ``name``."""
        return dict(self.values)[name]

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, **{name: _dump(self.kind.params[name], v) for name, v in self.values}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StepEvent:
        """Inverse of :meth:`to_dict`; raises ValueError/KeyError/TypeError on bad input."""
        # a lookup by value: mypy reads the call as the member-building __new__ (role missing)
        kind = StepEventKind(data["kind"])  # type: ignore[call-arg]
        return cls(kind, tuple((name, _load(param, data[name])) for name, param in kind.params.items()))


def event(kind: StepEventKind, **values: object) -> StepEvent:
    """A :class:`StepEvent` of ``kind`` with ``values``."""
    return StepEvent(kind, tuple(values.items()))


# an event's value has the type its Param declares, known only at run time: Any below

def _dump(param: Param, value: Any) -> object:
    if param is Param.RESOURCE or param is Param.SPOT:
        return value.value
    if param is Param.STOCK:
        return {r.value: value.get(r) for r in Resource if value.get(r)}
    if param is Param.AMOUNTS:
        return [[n, r.value] for n, r in value]
    if param is Param.IDS:
        return list(value)
    return value


def _load(param: Param, value: Any) -> object:
    if param is Param.RESOURCE:
        return Resource(value)
    if param is Param.SPOT:
        return SpotKind(value)
    if param is Param.STOCK:
        return Stock(**{r.value: int(value.get(r.value, 0)) for r in Resource})
    if param is Param.AMOUNTS:
        return tuple((int(n), Resource(r)) for n, r in value)
    if param is Param.IDS:
        return tuple(str(v) for v in value)
    if param is Param.NUMBER:
        return int(value)
    return str(value)


Message = Callable[..., str]
"""``message(key, **params)``: the catalogue text of ``key`` (a full dotted key) filled in."""


def _amount(n: int, resource: Resource, message: Message) -> str:
    names = "resources" if n == 1 else "resources_plural"
    return f"{n} {message(f'{NAMESPACE}.{names}.{resource.value}')}"


def _text(param: Param, value: Any, message: Message) -> str:
    if param is Param.RESOURCE:
        return message(f"{NAMESPACE}.resources.{value.value}")
    if param is Param.SPOT:
        return message(f"{NAMESPACE}.spots.{value.value}")
    if param is Param.STOCK:
        return ", ".join(_amount(value.get(r), r, message) for r in Resource if value.get(r)) or "-"
    if param is Param.AMOUNTS:
        return ", ".join(_amount(n, r, message) for n, r in value)
    if param is Param.IDS:
        return ", ".join(value)
    return str(value)


def render_event(ev: StepEvent, message: Message) -> str:
    """One event's text."""
    params = {name: _text(ev.kind.params[name], value, message) for name, value in ev.values}
    return message(f"{NAMESPACE}.{ev.kind.value}", **params)


def render(events: tuple[StepEvent, ...], message: Message) -> str:
    """A step's line: the action's parts, then its effects in brackets."""
    action = "".join(render_event(e, message) for e in events if e.kind.role is Role.ACTION)
    effects = [render_event(e, message) for e in events if e.kind.role is Role.EFFECT]
    if not effects:
        return action
    return message(f"{NAMESPACE}.with_effects", action=action,
                   effects=message(f"{NAMESPACE}.separator").join(effects))


def catalogue_keys() -> set[str]:
    """Every key of the ``steps`` namespace that :func:`render` may read."""
    keys = {f"{NAMESPACE}.{k.value}" for k in StepEventKind} | {f"{NAMESPACE}.{k}" for k in FRAME_KEYS}
    keys |= {f"{NAMESPACE}.{names}.{r.value}" for names in ("resources", "resources_plural") for r in Resource}
    keys |= {f"{NAMESPACE}.spots.{s.value}" for s in SpotKind}
    return keys


def declared_placeholders() -> dict[str, frozenset[str]]:
    """The placeholders each key of the ``steps`` namespace may use (its event's values, the
    frame's ``action`` and ``effects``; names of resources and spots take none): the catalogue
    check refuses any other."""
    declared = {f"{NAMESPACE}.{k.value}": frozenset(k.params) for k in StepEventKind}
    declared[f"{NAMESPACE}.with_effects"] = frozenset({"action", "effects"})
    for key in catalogue_keys() - set(declared):
        declared[key] = frozenset()
    return declared
