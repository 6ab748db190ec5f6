"""A plan replayed through the rules engine, step by step: each :class:`Step` with what it does as
language-neutral events (:func:`step_events`) and the state after it. What the site's step tables,
the command line's ``replay`` and the browser's play mode (:mod:`generator.puzzles.move_words`) tell.

Part of :mod:`solver.game` (standard library only, run in the browser too); the solve API around it
(:class:`solver.solution.Solution`, :func:`solver.solve`) is the optimisers' side.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .engine import Action, ActionKind, State, action_sections, apply, initial_state, is_terminal, returns
from .errors import IllegalActionError
from .model import Puzzle, Resource, SpotKind, Stock
from .rules import epigenetic
from .steps import Message, StepEvent, StepEventKind as K, event, render


@dataclass(frozen=True)
class Step:
    """One action of a plan and the state after it."""

    index: int
    """1-based position in the plan."""
    round: int
    """Round the action is taken in."""
    flask: str
    """Which flask: ``1``, ``2``… for the round's own flasks, ``grey`` or ``-`` (card play)."""
    action: Action
    """The action."""
    events: tuple[StepEvent, ...]
    """What happens, without words (rendered by :func:`solver.game.steps.render`)."""
    sections: tuple[str, ...]
    """Rule section IDs to link."""
    state: State
    """State after the action (after Phase 2 when it ended a round)."""

    def describe(self, message: Message) -> str:
        """What happens, in the words ``message`` gives (:func:`solver.game.steps.render`): the
        site's catalogue, or the command line's reader of it (:func:`solver.io.catalogue.catalogue_message`)."""
        return render(self.events, message)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "round": self.round, "flask": self.flask, "action": self.action.to_dict(),
                "events": [e.to_dict() for e in self.events], "sections": list(self.sections),
                "state": self.state.to_dict()}


def _delta(before: State, after: State) -> list[StepEvent]:
    gained = after.stock - before.stock
    plus = Stock(*(max(0, x) for x in gained.as_tuple()))
    minus = Stock(*(max(0, -x) for x in gained.as_tuple()))
    out = []
    if not minus.is_zero():
        out.append(event(K.PAY, stock=minus))
    if not plus.is_zero():
        out.append(event(K.GAIN, stock=plus))
    if after.health != before.health:
        out.append(event(K.HEALTH, points=after.health - before.health))
    return out


def step_events(puzzle: Puzzle, before: State, action: Action, after: State) -> tuple[StepEvent, ...]:
    """What the action does, as language-neutral events (:mod:`solver.game.steps` renders them)."""
    head: list[StepEvent] = []
    if action.kind is ActionKind.PLAY_CARD:
        head.append(event(K.PLAY_CARD, card=action.card))
    elif action.kind is ActionKind.TRADE:
        assert action.resource is not None, "a legal trade names its resource"
        head.append(event(K.TRADE, price=epigenetic.TRADE_PRICES[action.resource], resource=action.resource))
    elif action.kind is ActionKind.INCOME:
        head.append(event(K.INCOME, resource=action.resource))
    elif action.kind is ActionKind.PEEK:
        head.append(event(K.PEEK))
        if action.card:
            head.append(event(K.PEEK_TAKE, card=action.card))
        if action.order:
            head.append(event(K.PEEK_ORDER, cards=tuple(action.order)))
    elif action.kind is ActionKind.END_TURN:
        head.append(event(K.END_TURN))
    elif action.kind is ActionKind.VACCINATE:
        head.append(event(K.VACCINATE, atp=action.amount, antibodies=2 * action.amount) if action.amount
                    else event(K.VACCINATE_NONE))
        strain = before.attacks[0][0] if before.attacks else None
        if strain is not None:
            head.append(event(K.STRAIN, strain=strain.value))
    elif action.kind is ActionKind.RESPOND:
        if action.lose == "health":
            head.append(event(K.RESPOND_HEALTH))
        elif action.lose:
            head.append(event(K.RESPOND_LOSE, resource=Resource(action.lose)))
        else:
            taken = {r: sum(1 for t in action.take or () if t is r) for r in dict.fromkeys(action.take or ())}
            head.append(event(K.RESPOND_TAKE, amounts=tuple((n, r) for r, n in taken.items())) if taken
                        else event(K.RESPOND_TAKE_NOTHING))
    elif action.kind is ActionKind.EXHAUST:
        head.append(event(K.EXHAUST, resource=action.resource))
    else:
        assert action.spot is not None, "a legal placement names its spot"
        spot = puzzle.board.spot(action.spot)
        head.append(event(K.PLACE, spot=spot.kind, spot_id=spot.id))
        if action.grey:
            head.append(event(K.GREY_FLASK, atp=epigenetic.grey_flask_cost(puzzle)))
        if action.extra:
            head.append(event(K.EXTRA))
        if action.card:
            head.append(event(K.CARD, card=action.card))
        if spot.kind is not SpotKind.FREE_RIBOSOME:
            pass   # an ER step's larger load (ruling disk-load) is told by the disk's load below
        elif action.amount:
            head.append(event(K.TRANSLATE, mrna=action.amount, proteins=((action.amount, Resource.PROTEIN),)))
        elif action.amount == 0:
            head.append(event(K.TRANSLATE_NONE))
        if action.disk:
            head.append(event(K.DISK_STARTED, card=action.disk))
        if spot.kind is SpotKind.LAUREATES:
            head.append(event(K.GOAL, goal=action.goal) if action.goal else event(K.LAUREATES_ATP))
        if action.bump:
            head.append(event(K.BUMP, card=action.bump))
        if spot.kind is SpotKind.GOLGI or spot.kind is SpotKind.ROUGH_ER or (
                spot.kind is SpotKind.DETOX_STEROID and before.disk_for(action.card or "") is None
                and after.disk_for(action.card or "") is not None):
            assert action.card is not None, "these spots' actions are for a card"
            disk = after.disk_for(action.disk or action.card)
            if disk is not None:
                head.append(event(K.DISK_LOAD, load=disk.load))
    # the last turn's trades (Epigenetic card) are told apart from the step's own effect
    own = after
    if after.end_trade != Stock():
        spent = sum(epigenetic.TRADE_PRICES[r] * after.end_trade.get(r) for r in epigenetic.TRADE_PRICES)
        own = replace(after, stock=after.stock - after.end_trade + Stock(atp=spent))
    if after.round != before.round:   # Phase 2 and the next round's start have their own causes
        own = replace(own, stock=own.stock + after.toxicity_loss, health=own.health + after.virus_card_loss)
    if action.grey:   # the grey flask's fee is the GREY_FLASK event's, not the spot's effect
        own = replace(own, stock=own.stock + Stock(atp=epigenetic.grey_flask_cost(puzzle)))
    effects = _delta(before, own)
    if after.done and not before.done:
        held = [c for c in after.discard[len(before.discard):] if c in before.hand]
        if held:
            effects.append(event(K.HELD_CARDS, cards=tuple(held)))
        traded = [(r, after.end_trade.get(r)) for r in epigenetic.TRADE_PRICES if after.end_trade.get(r) > 0]
        if traded:
            effects.append(event(K.END_TRADES, amounts=tuple((n, r) for r, n in traded)))
    if after.round != before.round or (after.done and not before.done):
        effects.append(event(K.END_OF_ROUND))
    if after.round != before.round and not after.toxicity_loss.is_zero():
        effects.append(event(K.TOXICITY_LOSS, stock=after.toxicity_loss))
    if after.round != before.round and after.virus_card_loss:
        effects.append(event(K.VIRUS_CARD_LOSS, points=-after.virus_card_loss))
    return tuple(head + effects)


def replay(puzzle: Puzzle, plan: list[Action]) -> tuple[tuple[Step, ...], State]:
    """Apply ``plan`` step by step; raises :class:`IllegalActionError` with ``.step`` set
    (1-based) at the first illegal action."""
    state = initial_state(puzzle)
    steps = []
    for i, action in enumerate(plan, 1):
        try:
            after = apply(state, action)
        except IllegalActionError as err:
            err.step = i
            raise
        if not action.kind.is_flask:
            flask = "-"
        elif action.grey:
            flask = "grey"
        else:
            flask = str(puzzle.flasks - state.flasks_left + 1)
        events = step_events(puzzle, state, action, after)
        steps.append(Step(i, state.round, flask, action, events, action_sections(puzzle, action), after))
        state = after
    return tuple(steps), state


def final_score(puzzle: Puzzle, plan: list[Action]) -> int | None:
    """The score ``plan`` reaches in the rules engine, or None when it is illegal or incomplete."""
    state = initial_state(puzzle)
    try:
        for action in plan:
            state = apply(state, action)
    except IllegalActionError:
        return None
    return returns(state) if is_terminal(state) else None
