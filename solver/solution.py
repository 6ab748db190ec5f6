"""The public solve API and what the site renders: :class:`Solution` and :class:`Step`."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .engine import (
    Action, ActionKind, Breakdown, State, action_sections, apply, initial_state, is_terminal, returns, score,
)
from .errors import IllegalActionError, SolverError
from .rules import epigenetic
from .model import RESOURCE_NAMES, Puzzle, Resource, SpotKind, Stock, resource_amount


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
    """``optimal`` (proven optimum), ``feasible`` (best plan found in the time limit, not proven),
    ``infeasible`` (no complete legal plan), ``unknown`` (no plan found in the time limit)."""
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
    bound: int | None = None
    """Best upper bound on the final Health Points (equals ``health`` when proven)."""
    proven: bool = False
    """True when ``health`` is proven optimal."""
    wall_time: float = 0.0
    """Seconds the engine ran."""
    confirmed_by: tuple[str, ...] = ()
    """Other engines that reached the same optimum (``highs``, ``exhaustive``)."""
    reason: str | None = None
    """Why there is no plan (infeasible / unknown), when it can be told."""
    rulings: tuple[tuple[str, str], ...] = ()
    """The reading of each ruling the rules were played under (``Puzzle.readings``)."""

    @property
    def gap(self) -> int | None:
        """``bound - health`` (0 when proven), None without a plan or bound."""
        if self.health is None or self.bound is None:
            return None
        return self.bound - self.health

    def to_dict(self, lang: str = "en") -> dict:
        return {"status": self.status, "health": self.health, "engine": self.engine,
                "bound": self.bound, "proven": self.proven, "gap": self.gap,
                "confirmed_by": list(self.confirmed_by), "reason": self.reason,
                "plan": [a.to_dict() for a in self.plan], "steps": [s.to_dict(lang) for s in self.steps],
                "breakdown": self.breakdown.to_dict() if self.breakdown else None, "stats": self.stats,
                "rulings": dict(self.rulings)}


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
    elif action.kind is ActionKind.TRADE:
        head = ((f"Epigenetic card: trade {epigenetic.TRADE_PRICES[action.resource]} ATP for 1 " if en else
                 f"Carta epigenetica: scambia {epigenetic.TRADE_PRICES[action.resource]} ATP per 1 ")
                + RESOURCE_NAMES[action.resource][lang])
    elif action.kind is ActionKind.INCOME:
        head = ("Epigenetic card: the round's 1 " if en else "Carta epigenetica: 1 ") + RESOURCE_NAMES[action.resource][lang] \
            + ("" if en else " di inizio round")
    elif action.kind is ActionKind.PEEK:
        head = "Epigenetic card: look at the top of the deck" if en else "Carta epigenetica: guarda le prime carte del mazzo"
        if action.card:
            head += (f", take {action.card}" if en else f", prendi {action.card}")
        if action.order:
            head += ("; put back, top first: " if en else "; rimetti, dall'alto: ") + ", ".join(action.order)
    elif action.kind is ActionKind.VACCINATE:
        if action.amount:
            head = (f"Virus attack: pay {action.amount} ATP for {2 * action.amount} antibodies" if en else
                    f"Attacco virale: paga {action.amount} ATP per {2 * action.amount} anticorpi")
        else:
            head = "Virus attack: no ATP for antibodies" if en else "Attacco virale: nessun ATP per anticorpi"
        strain = before.attacks[0][0] if before.attacks else None
        if strain is not None:
            head += f" ({strain.value})"
    elif action.kind is ActionKind.RESPOND:
        if action.lose == "health":
            head = "Virus attack, lowest Antibody Response: lose 1 Health Point" if en else \
                "Attacco virale, Risposta Immunitaria più bassa: perdi 1 Punto Salute"
        elif action.lose:
            head = ("Virus attack, lowest Antibody Response: lose 1 " if en else
                    "Attacco virale, Risposta Immunitaria più bassa: perdi 1 ") + RESOURCE_NAMES[Resource(action.lose)][lang]
        else:
            taken = {r: sum(1 for t in action.take or () if t is r) for r in dict.fromkeys(action.take or ())}
            what = ", ".join(resource_amount(n, r, lang) for r, n in taken.items()) or ("nothing" if en else "niente")
            head = ("Virus attack, Antibody Response ranked: take " if en else
                    "Attacco virale, Risposta Immunitaria in classifica: prendi ") + what
    elif action.kind is ActionKind.EXHAUST:
        head = (("Exhaust a flask for 1 " if en else "Esaurisci una beuta per 1 ")
                + RESOURCE_NAMES[action.resource][lang])
    else:
        spot = puzzle.board.spot(action.spot)
        name = _SPOT_NAMES[spot.kind][0 if en else 1]
        grey_cost = epigenetic.grey_flask_cost(puzzle)
        head = f"{name} [{spot.id}]" + ((f" (grey flask, {grey_cost} ATP)" if en else f" (beuta grigia, {grey_cost} ATP)")
                                        if action.grey else "")
        if action.extra:
            head += " +1 (Epigenetic card)" if en else " +1 (carta epigenetica)"
        if action.card:
            head += f": {action.card}"
        if action.amount:
            head += f": {action.amount} mRNA -> " + resource_amount(action.amount, Resource.PROTEIN, lang)
        elif action.amount == 0:
            head += ": 0 mRNA" + (" (none traded)" if en else " (nessuno scambiato)")
        if action.disk:
            head += (" with the disk started for " if en else " con il disco avviato per ") + action.disk
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
    # the last turn's trades (Epigenetic card) are told apart from the step's own effect
    own = after
    if after.end_trade != Stock():
        spent = sum(epigenetic.TRADE_PRICES[r] * after.end_trade.get(r) for r in epigenetic.TRADE_PRICES)
        own = replace(after, stock=after.stock - after.end_trade + Stock(atp=spent))
    parts = [_delta(before, own, lang)]
    if after.done and not before.done:
        held = [c for c in after.discard[len(before.discard):] if c in before.hand]
        if held:
            parts.append(("then plays " if en else "poi gioca ") + ", ".join(held)
                         + (" (held cards, end of the last turn)" if en else " (carte in mano, fine dell'ultimo turno)"))
        traded = [(r, after.end_trade.get(r)) for r in epigenetic.TRADE_PRICES if after.end_trade.get(r) > 0]
        if traded:
            parts.append(("then trades ATP for " if en else "poi scambia ATP per ")
                         + ", ".join(resource_amount(n, r, lang) for r, n in traded)
                         + (" (Epigenetic card, end of the last turn)" if en else " (carta epigenetica, fine dell'ultimo turno)"))
    if after.round != before.round or (after.done and not before.done):
        parts.append("end of round" if en else "fine del round")
    delta = "; ".join(p for p in parts if p)
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
        if not action.kind.ends_turn:
            flask = "-"
        elif action.grey:
            flask = "grey"
        else:
            flask = str(puzzle.flasks - state.flasks_left + 1)
        text = tuple((lang, describe(puzzle, state, action, after, lang)) for lang in ("en", "it"))
        steps.append(Step(i, state.round, flask, action, text, action_sections(puzzle, action), after))
        state = after
    return tuple(steps), state


ENGINES = ("cpsat", "exhaustive")


class VerificationError(SolverError):
    """An engine's plan does not replay to the score it claims, or two engines disagree on a
    proven optimum. Never shown as an answer (CLI exit 1)."""


def _verified(puzzle: Puzzle, plan, claimed: int | None, engine: str) -> tuple[tuple[Step, ...], State, Breakdown]:
    """Replay ``plan`` in the rules engine; raise :class:`VerificationError` unless it is legal,
    complete and scores ``claimed``."""
    try:
        steps, final = replay(puzzle, list(plan))
    except IllegalActionError as err:
        raise VerificationError(f"{engine} plan rejected by the rules engine at step {err.step}: {err.reason}") from None
    if not is_terminal(final):
        raise VerificationError(f"{engine} plan is legal but incomplete (round {final.round}, "
                                f"{final.flasks_left} flask(s) left)")
    breakdown = score(final)
    if claimed is not None and breakdown.total != claimed:
        raise VerificationError(f"{engine} claims {claimed} Health Points, the rules engine scores its plan "
                                f"{breakdown.total}")
    return steps, final, breakdown


def solve(puzzle: Puzzle, engine: str = "cpsat", *, time_limit: float | None = None, workers: int = 1,
          seed: int = 0, progress=None, confirm: tuple[str, ...] = ("highs",),
          confirm_time_limit: float | None = 60.0) -> Solution:
    """Solve ``puzzle`` with ``engine`` (``cpsat``, the default, or ``exhaustive``). Stable public
    API for the site generator.

    CP-SAT: ``time_limit`` (seconds, None: until proven), ``workers`` and ``seed`` (fixed: the same
    plan every run with one worker), ``progress(objective, bound, seconds)`` on each improving plan
    or bound. Every plan is replayed by the rules engine first (:class:`VerificationError` if it
    disagrees); a proven optimum is confirmed by each engine of ``confirm`` (``highs``,
    ``exhaustive``) on a best-effort basis (within ``confirm_time_limit``): a disagreement is a
    :class:`VerificationError`, a confirmation is listed in ``Solution.confirmed_by``.
    """
    if engine not in ENGINES:
        raise SolverError(f"engine: expected one of {list(ENGINES)}, got {engine!r}")
    sol = _solve(puzzle, engine, time_limit=time_limit, workers=workers, seed=seed, progress=progress,
                 confirm=confirm, confirm_time_limit=confirm_time_limit)
    return replace(sol, rulings=tuple(puzzle.readings().items()))


def _solve(puzzle: Puzzle, engine: str, *, time_limit, workers, seed, progress, confirm,
           confirm_time_limit) -> Solution:
    import time as _time
    t0 = _time.perf_counter()

    def remaining() -> float | None:
        """Seconds left of ``time_limit`` (None: no limit)."""
        return None if time_limit is None else max(0.0, time_limit - (_time.perf_counter() - t0))

    if engine == "exhaustive":
        return _solve_exhaustive(puzzle, time_limit)
    from .planner import UnsupportedPuzzle, build_model, explain_infeasible, solve_cpsat, solve_highs, subsolvers_for
    try:
        pm = build_model(puzzle)
    except UnsupportedPuzzle as err:       # a rule combination the model does not encode: the baseline
        sol = _solve_exhaustive(puzzle, remaining())
        return Solution(sol.status, sol.health, sol.plan, sol.steps, sol.breakdown, sol.engine,
                        dict(sol.stats, cpsat_unsupported=str(err)), bound=sol.bound, proven=sol.proven,
                        wall_time=sol.wall_time, reason=sol.reason)
    build_seconds = _time.perf_counter() - t0
    res = solve_cpsat(pm, workers=workers, seed=seed, time_limit=remaining(), progress=progress,
                      subsolvers=subsolvers_for(puzzle))
    stats = dict(res.stats, build_seconds=round(build_seconds, 3))
    if res.status == "infeasible":
        left = remaining()
        why = (explain_infeasible(puzzle) if left is None else
               explain_infeasible(puzzle, time_limit=left / puzzle.rounds) if left > 0.05 else None)
        return Solution("infeasible", None, (), (), None, "cpsat", stats, proven=True, wall_time=res.wall_time,
                        reason=why)
    if res.status == "unknown":
        return Solution("unknown", None, (), (), None, "cpsat", stats, wall_time=res.wall_time,
                        reason="no plan found within the time limit")
    res.plan = without_idle_trades(puzzle, res.plan)
    steps, final, breakdown = _verified(puzzle, res.plan, res.objective, "cpsat")
    proven = res.status == "optimal"
    confirmed = []
    if proven:
        for other in confirm:
            left = remaining()
            if left is not None and left < 0.05:
                break  # the time limit holds for the confirmations too
            limit = confirm_time_limit if left is None else min(left, confirm_time_limit or left)
            if other == "highs":
                h = solve_highs(pm, time_limit=limit)
                stats["highs_seconds"] = round(h.wall_time, 3)
                if h.status == "optimal":
                    if h.objective != res.objective:
                        raise VerificationError(f"CP-SAT proves {res.objective} but HiGHS proves {h.objective} "
                                                f"on the same model")
                    _verified(puzzle, h.plan, h.objective, "highs")
                    confirmed.append("highs")
                elif h.status == "infeasible":
                    raise VerificationError("CP-SAT found a plan but HiGHS says the model is infeasible")
            elif other == "exhaustive":
                from .search import exhaustive
                value, _, search_stats = exhaustive(puzzle, time_limit=limit)
                if not search_stats.complete:
                    continue
                if value != res.objective:
                    raise VerificationError(f"CP-SAT proves {res.objective} but exhaustive search finds {value}")
                confirmed.append("exhaustive")
            else:
                raise SolverError(f"confirm: expected engines among ['highs', 'exhaustive'], got {other!r}")
    return Solution("optimal" if proven else "feasible", breakdown.total, tuple(res.plan), steps, breakdown,
                    "cpsat", stats, bound=res.bound if not proven else breakdown.total, proven=proven,
                    wall_time=res.wall_time, confirmed_by=tuple(confirmed))


def _final_score(puzzle: Puzzle, plan: list[Action]) -> int | None:
    """The score ``plan`` reaches in the rules engine, or None when it is illegal or incomplete."""
    state = initial_state(puzzle)
    try:
        for action in plan:
            state = apply(state, action)
    except IllegalActionError:
        return None
    return returns(state) if is_terminal(state) else None


def without_idle_trades(puzzle: Puzzle, plan) -> list[Action]:
    """``plan`` without the Epigenetic trades (``epigenetic.atp-exchange``) its score does not need:
    an optimal plan may buy cubes that change nothing, and a worked example should not show them.
    Trades are dropped one at a time, last first, while the plan stays legal with the same score."""
    plan = list(plan)
    if not any(a.kind is ActionKind.TRADE for a in plan):
        return plan
    target = _final_score(puzzle, plan)
    for i in range(len(plan) - 1, -1, -1):
        if plan[i].kind is ActionKind.TRADE:
            trial = plan[:i] + plan[i + 1:]
            if _final_score(puzzle, trial) == target:
                plan = trial
    return plan


def _solve_exhaustive(puzzle: Puzzle, time_limit: float | None = None) -> Solution:
    import time as _time
    from .search import exhaustive
    t0 = _time.perf_counter()
    value, plan, stats = exhaustive(puzzle, time_limit=time_limit)
    if plan:
        plan = without_idle_trades(puzzle, plan)
    wall = _time.perf_counter() - t0
    info = {"nodes": stats.nodes, "transpositions": stats.transpositions, "dominated": stats.dominated,
            "dead_ends": stats.dead_ends, "complete": stats.complete}
    if not stats.complete:  # stopped by the time limit: the best plan so far, not proven
        if value is None:
            return Solution("unknown", None, (), (), None, "exhaustive", info, wall_time=wall,
                            reason="no plan found within the time limit")
        steps, final, breakdown = _verified(puzzle, plan, value, "exhaustive")
        return Solution("feasible", value, tuple(plan), steps, breakdown, "exhaustive", info, wall_time=wall)
    if value is None:
        left = None if time_limit is None else time_limit - wall
        return Solution("infeasible", None, (), (), None, "exhaustive", info, proven=True, wall_time=wall,
                        reason=_explain(puzzle, left) if left is None or left > 0.05 else None)
    steps, final, breakdown = _verified(puzzle, plan, value, "exhaustive")
    return Solution("optimal", value, tuple(plan), steps, breakdown, "exhaustive", info, bound=value, proven=True,
                    wall_time=wall)


def _explain(puzzle: Puzzle, time_limit: float | None = None) -> str | None:
    from .planner import UnsupportedPuzzle, explain_infeasible
    try:
        return explain_infeasible(puzzle) if time_limit is None else explain_infeasible(
            puzzle, time_limit=time_limit / puzzle.rounds)
    except UnsupportedPuzzle:  # the explanation uses the CP-SAT model, which cannot hold this puzzle
        return None
