"""The public solve API and what the site renders: :class:`Solution` and :class:`Step`."""
from __future__ import annotations

from dataclasses import dataclass, field

from .engine import (
    Action, ActionKind, Breakdown, State, action_sections, apply, initial_state, is_terminal, row_price, score,
)
from .errors import IllegalActionError, SolverError
from .model import RESOURCE_NAMES, Puzzle, SpotKind, Stock


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
    text: tuple[tuple[str, str], ...]
    """What happens, per language (``en``, ``it``)."""
    sections: tuple[str, ...]
    """Rule section IDs to link."""
    state: State
    """State after the action (after Phase 2 when it ended a round)."""

    def describe(self, lang: str = "en") -> str:
        return dict(self.text).get(lang) or dict(self.text)["en"]

    def to_dict(self, lang: str = "en") -> dict:
        return {"index": self.index, "round": self.round, "flask": self.flask, "action": self.action.to_dict(),
                "text": dict(self.text), "sections": list(self.sections), "state": self.state.to_dict()}


@dataclass(frozen=True)
class Solution:
    """What a solver engine answers."""

    status: str
    """``optimal`` (exact optimum found), ``infeasible`` (no complete legal plan)."""
    health: int | None
    """Final Health Points including end-game scoring (None when infeasible)."""
    plan: tuple[Action, ...]
    """The actions, in order."""
    steps: tuple[Step, ...]
    """One per action, with the state after it."""
    breakdown: Breakdown | None
    """Score parts of the final state."""
    engine: str = "exhaustive"
    """Which engine answered."""
    stats: dict = field(default_factory=dict)
    """Engine counters (nodes…)."""

    def to_dict(self, lang: str = "en") -> dict:
        return {"status": self.status, "health": self.health, "engine": self.engine,
                "plan": [a.to_dict() for a in self.plan], "steps": [s.to_dict(lang) for s in self.steps],
                "breakdown": self.breakdown.to_dict() if self.breakdown else None, "stats": self.stats}


_SPOT_NAMES = {
    SpotKind.NUCLEUS: ("Nucleus", "Nucleo"), SpotKind.FREE_RIBOSOME: ("Free Ribosome", "Ribosoma Libero"),
    SpotKind.LIPID_SYNTHESIS: ("Smooth ER (lipids)", "Reticolo Liscio (lipidi)"),
    SpotKind.DETOX_STEROID: ("Smooth ER (detox/steroid)", "Reticolo Liscio (detossificazione/steroidi)"),
    SpotKind.ROUGH_ER: ("Rough ER", "Reticolo Rugoso"), SpotKind.GOLGI: ("Golgi Apparatus", "Apparato di Golgi"),
    SpotKind.GLUCOSE: ("Plasma Membrane (glucose)", "Membrana Plasmatica (glucosio)"),
    SpotKind.EXOCYTOSIS: ("Plasma Membrane (exocytosis)", "Membrana Plasmatica (esocitosi)"),
    SpotKind.MITOCHONDRIA: ("Mitochondria", "Mitocondrio"), SpotKind.MITOCHONDRIA_CARB: ("Mitochondria", "Mitocondrio"),
    SpotKind.CYTOPLASM: ("Cytoplasm", "Citoplasma"), SpotKind.LAUREATES: ("Laureates in Biology", "Campioni in Biologia"),
    SpotKind.CARD_ROW: ("Card row", "Area carte"),
}


def _delta(before: State, after: State, lang: str) -> str:
    gained = after.stock - before.stock
    plus = Stock(*(max(0, x) for x in gained.as_tuple()))
    minus = Stock(*(max(0, -x) for x in gained.as_tuple()))
    parts = []
    if not minus.is_zero():
        parts.append(("pay " if lang == "en" else "paga ") + minus.text(lang))
    if not plus.is_zero():
        parts.append(("gain " if lang == "en" else "prendi ") + plus.text(lang))
    if after.health != before.health:
        parts.append(f"+{after.health - before.health} " + ("Health" if lang == "en" else "Salute"))
    return "; ".join(parts)


def describe(puzzle: Puzzle, before: State, action: Action, after: State, lang: str) -> str:
    """One line saying what the action does, in ``lang``."""
    en = lang == "en"
    if action.kind is ActionKind.PLAY_CARD:
        head = ("Play " if en else "Gioca ") + action.card
    elif action.kind is ActionKind.EXHAUST:
        head = (("Exhaust a flask for 1 " if en else "Esaurisci una beuta per 1 ")
                + RESOURCE_NAMES[action.resource][lang])
    else:
        spot = puzzle.board.spot(action.spot)
        name = _SPOT_NAMES[spot.kind][0 if en else 1]
        head = f"{name} [{spot.id}]" + ((" (grey flask, 4 ATP)" if en else " (beuta grigia, 4 ATP)") if action.grey else "")
        if action.card:
            head += f": {action.card}"
        if action.amount:
            head += f": {action.amount} mRNA -> {action.amount} " + ("protein" if en else "proteine")
        if spot.kind is SpotKind.LAUREATES:
            head += (" goal " if en else " obiettivo ") + action.goal if action.goal else (" 1 ATP")
        if action.bump:
            head += (" (removes disk " if en else " (rimuove il disco ") + action.bump + ")"
        if spot.kind is SpotKind.GOLGI or spot.kind is SpotKind.ROUGH_ER or (
                spot.kind is SpotKind.DETOX_STEROID and before.disk_for(action.card or "") is None
                and after.disk_for(action.card or "") is not None):
            disk = after.disk_for(action.card)
            if disk is not None:
                head += (" — disk carries " if en else " — il disco porta ") + disk.load.text(lang)
    delta = _delta(before, after, lang)
    if after.round != before.round or (after.done and not before.done):
        delta += ("; end of round" if en else "; fine del round")
    return head + (f" ({delta})" if delta else "")


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
        if action.kind is ActionKind.PLAY_CARD:
            flask = "-"
        elif action.grey:
            flask = "grey"
        else:
            flask = str(puzzle.flasks - state.flasks_left + 1)
        text = tuple((lang, describe(puzzle, state, action, after, lang)) for lang in ("en", "it"))
        steps.append(Step(i, state.round, flask, action, text, action_sections(puzzle, action), after))
        state = after
    return tuple(steps), state


def solve(puzzle: Puzzle, engine: str = "exhaustive") -> Solution:
    """Solve ``puzzle`` with ``engine`` (``exhaustive`` for now; the CP-SAT planner will add
    ``cpsat``). Stable public API for the site generator."""
    if engine != "exhaustive":
        raise SolverError(f"engine: expected one of ['exhaustive'], got {engine!r}")
    from .search import exhaustive
    value, plan, stats = exhaustive(puzzle)
    info = {"nodes": stats.nodes, "transpositions": stats.transpositions, "dominated": stats.dominated,
            "dead_ends": stats.dead_ends}
    if value is None:
        return Solution("infeasible", None, (), (), None, engine, info)
    steps, final = replay(puzzle, plan)
    breakdown = score(final)
    assert breakdown.total == value
    return Solution("optimal", value, tuple(plan), steps, breakdown, engine, info)
