"""The time-indexed planner: one model of a whole puzzle, solved by CP-SAT, confirmed by HiGHS.

``build_model(puzzle)`` writes the rules as linear constraints over a grid of *slots*: each
round has ``F + G`` slots (F flasks, G = grey flasks usable that round); a slot holds one
placement (grey or normal), an exhausted flask, or nothing (only at the end of a round). The
state (stock, Health, cards, disks, card row, boosts) is an integer/boolean vector per slot.
``solve(...)`` runs CP-SAT on it, decodes the plan and replays it in the rules engine (the single
source of truth); HiGHS solves the same abstract model to confirm a proven optimum.

Variables are named with their indices, e.g. ``x[r2,s3,rough-er-1,ph]`` (round 2, slot 3),
``stock[r2,s3,atp]``, ``er[r1,s2,ph]``. Each constraint block is tagged with the rule section it
encodes (``LinearModel.section``); section IDs are those of ``data/rules/cytosis/game.yaml``.

Solver settings are the ones measured in ``/work/shared/notes/cp-sat-planning.md``: 1 worker with
``linearization_level=2`` and a fixed seed (the same plan every run); 2 workers with
``num_full_subsolvers=2`` and the ``max_lp`` + ``quick_restart`` subsolvers;
``presolve_inclusion_work_limit=0`` always (ortools #5293). ``python -m solver bench --ablation``
measures the model options (symmetry breaking, tight bounds), hints and 2 workers.

Grey flasks make the proof harder (a slot may hold a grey or a normal flask). What helped on the
12-placement scale puzzle with one grey flask a round (3 seeds, CP-SAT deterministic seconds 7.1
-> 2.3 on average): identical free spots ordered by their flask counts (grey flasks included), and
per-slot stock bounds that count at most G grey slots a round, each at its gain less 4 ATP. What
did not: one grey slot before every turn (2F slots a round: worse than F + G), and the ordering
of pure gains (it helps without grey flasks, and slows the proof with them, so it is off there).
The identical-spot ordering is the other way round: without grey flasks, beside the ordering of
pure gains, it slowed the proof of the 16- and 24-placement scale puzzles about twofold (5 seeds),
so it is on with grey flasks only.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard, cast

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from .editions import rules_for
from .engine import (
    disk_may_complete, removed_cubes_return, turn_position, ENZYME_SET_POINTS, EXHAUST_RESOURCES, FIRST_GOAL_MARKER_BONUS, MACROMOLECULE_SET,
    MAX_MARKERS_PER_GOAL, RECEPTOR_OTHER_BONUS, RECEPTOR_OWN_BONUS, DETOX_HEALTH, TOXICITY_STEPS, DISKS,
    Action, ActionKind, State, detox_points, initial_state,
)
from .errors import SolverError
from .rules import disk_load, epigenetic, free_ribosome, golgi, macromolecule_cards, reshuffle, virus
from .linear import Expr, Lit, LinearModel, Term, Var, lit, total
from .model import (
    RECEPTOR_OF, Area, Boost, CardType, EventKind, Puzzle, Resource, Spot, SpotKind, Stock, VesicleArea, event_kind,
)

RES = list(Resource)
MACRO = [Resource.MRNA, Resource.PROTEIN, Resource.CARB, Resource.LIPID]


class UnsupportedPuzzle(SolverError):
    """The puzzle uses a rule combination the time-indexed model does not encode."""


@dataclass(frozen=True)
class Act:
    """An abstract action of a slot: a placement (spot + card/goal) or an exhausted flask."""

    spot: Spot | None = None
    card: str | None = None
    goal: str | None = None
    resource: Resource | None = None
    disk: str | None = None
    """Exocytosis: the disk (named by the card it was started for) completing ``card``, when
    that is another card (ruling ``disk-card``). Golgi: the disk taking ``card``'s cube, when that
    is another card's (:mod:`solver.rules.golgi`)."""
    other_cube: bool = False
    """Exocytosis: the disk carries another card's Golgi cube (its Golgi placement named another
    card); the engine's action is the same, the disk's load is not."""

    @property
    def label(self) -> str:
        if self.spot is None:
            assert self.resource is not None, "an act without a spot is an exhausted flask"
            return f"exhaust-{self.resource.value}"
        return ",".join(p for p in (self.spot.id, self.card, self.goal, self.disk and f"disk:{self.disk}",
                                    self.other_cube and "other-cube") if p)

    @property
    def disk_card(self) -> str | None:
        """The card whose disk this action moves (Golgi, Exocytosis)."""
        return self.disk or self.card


@dataclass(frozen=True)
class Slot:
    t: int
    round: int
    index: int
    """0-based position inside the round."""

    @property
    def tag(self) -> str:
        return f"r{self.round},s{self.index + 1}"


@dataclass
class Options:
    """Model options (each one measured by the benchmark)."""

    symmetry: bool = True
    """Identical spots are used in order (rough-er-1 before rough-er-2); with grey flasks only (see
    ``build_model``)."""
    tight_bounds: bool = True
    """Per-slot upper bounds on stock and Health from a forward pass (else one global bound)."""
    market_windows: bool = True
    """Row and deck cards only from the round they can first be in the card row: cards that can
    never reach the row within the puzzle's rounds leave the model, and each card's actions (ER,
    Golgi, Exocytosis, Cytoplasm) are ruled out before its earliest purchase plus the placements
    its route needs (see :func:`market_arrival`)."""
    row_cuts: bool = True
    """Redundant card-row constraints that tighten the LP relaxation: a slot holds at most one
    card, a card lies in at most one slot and only while in play, and a flask on a slot buys
    exactly one card (see ``build_model``)."""
    ordering: bool = True
    """Commuting placements in one order: a pure gain (Nucleus, Lipid Synthesis, Mitochondria,
    Laureates without a goal, an exhausted flask) never comes right after an action of higher
    rank (see ``build_model``)."""


@dataclass
class PlanModel:
    """The abstract model and what is needed to read a plan back from a solution."""

    puzzle: Puzzle
    lm: LinearModel
    slots: list[Slot]
    acts: list[Act]
    x: dict[tuple[int, int], Var] = field(default_factory=dict)
    """(t, act index) -> Var."""
    grey: dict[int, Var | Expr] = field(default_factory=dict)
    noop: dict[int, Var | Expr] = field(default_factory=dict)
    amount: dict[int, Var] = field(default_factory=dict)
    play: dict[tuple[int, str], Var] = field(default_factory=dict)
    extra: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(t, resource) -> Var: the slot's placement collects one more (Epigenetic card extra-resource)."""
    trade: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(t, resource) -> Var: cubes bought with ATP before the slot's action (Epigenetic atp-exchange)."""
    income: dict[tuple[int, Resource], Var] = field(default_factory=dict)
    """(round, resource) -> Var: the round's Epigenetic income (round-income)."""
    bump_opp: dict[tuple[int, str], Var | Expr] = field(default_factory=dict)
    """(t, opponent disk id) -> Var."""
    bump_own: dict[tuple[int, str, VesicleArea], Var | Expr] = field(default_factory=dict)
    """(t, card id, vesicle area) -> Var: the player's own disk leaves a full area."""
    at: dict[tuple[int, int, str], Var | Expr] = field(default_factory=dict)
    """(round, row slot, card) -> Var/Expr: the card under a row slot."""
    objective_parts: dict[str, Expr] = field(default_factory=dict)


def _val(e: Term, values: list[int]) -> int:
    if isinstance(e, Var):
        return values[e.index]
    return Expr.of(e).value(values)


def _is_const(e: Term) -> TypeGuard[Expr]:
    return isinstance(e, Expr) and not e.terms


def _cval(e: Term) -> int | None:
    return e.const if _is_const(e) else None


# --------------------------------------------------------------------------- build

def market_queue(puzzle: Puzzle, s0: State, opt: Options) -> tuple[dict[str, int], list[str]]:
    """The earliest round of each row and deck card (:func:`market_arrival`; none with an Epigenetic
    card, whose free card taken without a flask would break the slot count) and the cards of that
    queue that can reach the card row within the puzzle's rounds."""
    arrival = market_arrival(puzzle, s0) if opt.market_windows and puzzle.epigenetic is None else {}
    return arrival, [c for c in [c for c in s0.row if c] + list(s0.deck) if arrival.get(c, 1) <= puzzle.rounds]


def unsupported_reason(puzzle: Puzzle, options: Options | None = None) -> str | None:
    """Why :func:`build_model` cannot model ``puzzle`` (what it raises as :class:`UnsupportedPuzzle`),
    or None: asked before building, so a caller that only needs to know pays no model."""
    limit = epigenetic.planner_limit(puzzle) or virus.planner_limit(puzzle) \
        or disk_load.planner_limit(puzzle)
    if limit:
        return limit
    prices = [sp.value for sp in puzzle.board.row_slots]
    if (rules_for(puzzle.edition).discards_by_price() and any(a > b for a, b in zip(prices, prices[1:]))
            and market_queue(puzzle, initial_state(puzzle), options or Options())[1]):
        return ("1e card row with decreasing slot prices (the cheapest-card discard is "
                "modelled for prices that do not decrease left to right)")
    return None


def build_model(puzzle: Puzzle, options: Options | None = None) -> PlanModel:
    """The time-indexed model of ``puzzle`` (no solver involved); :class:`UnsupportedPuzzle` when
    :func:`unsupported_reason` names why it cannot be."""
    opt = options or Options()
    limit = unsupported_reason(puzzle, opt)
    if limit:
        raise UnsupportedPuzzle(limit)
    rules = rules_for(puzzle.edition)
    grey_cost = epigenetic.grey_flask_cost(puzzle)
    board = puzzle.board
    s0 = initial_state(puzzle)
    lm = LinearModel()
    R, F = puzzle.rounds, puzzle.flasks
    G = min(puzzle.grey_flasks, F)
    K = F + G
    slots = [Slot(r * K + i, r + 1, i) for r in range(R) for i in range(K)]
    T = len(slots)
    by_round = {r: [s for s in slots if s.round == r] for r in range(1, R + 1)}

    # cards that can ever be held: hand, row, deck (those that can reach the row in time)
    arrival, queue = market_queue(puzzle, s0, opt)
    reach = [c for c in s0.hand] + queue
    comeback = reshuffle.comeback_entries(puzzle, queue)   # cards a one-card discard pile brings back
    cards = {c: puzzle.card(c) for c in reach}
    ctype = {c: cards[c].type for c in cards}
    routes = {c: route for c in reach if (route := cards[c].route) is not None}
    vesicle = list(routes)
    # disks that may take another card's Golgi cube, and that cube (ruling disk-card: at-exocytosis)
    other_cube = golgi.other_cubes(puzzle, vesicle)
    enzymes = [c for c in reach if ctype[c] is CardType.ENZYME]
    detox = [c for c in reach if ctype[c] is CardType.DETOX]
    macro_cards = [c for c in reach if ctype[c] is CardType.MACROMOLECULE]
    S = len(board.row_slots)

    # ---- actions
    acts: list[Act] = []
    for spot in board.spots:
        k = spot.kind
        if k in (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.GLUCOSE,
                 SpotKind.MITOCHONDRIA_CARB, SpotKind.FREE_RIBOSOME, SpotKind.CARD_ROW):
            if k is SpotKind.CARD_ROW and not queue and not comeback:
                continue
            acts.append(Act(spot))
        elif k is SpotKind.LAUREATES:
            acts.append(Act(spot))
            acts += [Act(spot, goal=g.id) for g in puzzle.goals if g.markers < MAX_MARKERS_PER_GOAL
                     and puzzle.goal_markers > 0]
        elif k is SpotKind.DETOX_STEROID:
            acts += [Act(spot, card=c) for c in reach if ctype[c] is CardType.DETOX
                     or (c in routes and routes[c].er is VesicleArea.SMOOTH_ER)]
        elif k is SpotKind.ROUGH_ER:
            acts += [Act(spot, card=c) for c in vesicle if routes[c].er is VesicleArea.ROUGH_ER]
        elif k is SpotKind.GOLGI:
            acts += [Act(spot, card=c) for c in vesicle]
            # the cube of another card now aimed at (spots.golgi, solver.rules.golgi)
            acts += [Act(spot, card=c2, disk=c1) for c1 in other_cube for c2 in vesicle
                     if golgi.other_cube_allowed(puzzle, c1, c2)]
        elif k is SpotKind.EXOCYTOSIS:
            acts += [Act(spot, card=c) for c in vesicle]
            # a disk completes another card its cubes cover (spots.exocytosis, ruling disk-card)
            acts += [Act(spot, card=c2, disk=c1) for c1 in vesicle for c2 in vesicle
                     if c1 != c2 and disk_may_complete(puzzle, c1, c2)
                     and golgi.load_with(cards[c1], routes[c1].golgi_resource).covers(Stock(0, *cards[c2].cost.as_tuple()[1:]))]
            # ... and a disk carrying another card's Golgi cube completes what that load covers
            acts += [Act(spot, card=c2, disk=None if c2 == c1 else c1, other_cube=True)
                     for c1, cube in other_cube.items() for c2 in vesicle
                     if disk_may_complete(puzzle, c1, c2)
                     and golgi.load_with(cards[c1], cube).covers(Stock(0, *cards[c2].cost.as_tuple()[1:]))]
        elif k is SpotKind.CYTOPLASM:
            acts += [Act(spot, card=c) for c in enzymes]
    if rules.exhaust_allowed():
        acts += [Act(resource=r) for r in EXHAUST_RESOURCES]

    def kind_of(a: Act) -> SpotKind | None:
        return a.spot.kind if a.spot else None

    def is_er(a: Act) -> bool:
        return a.card is not None and cards[a.card].route is not None and kind_of(a) in (SpotKind.ROUGH_ER, SpotKind.DETOX_STEROID)

    # ---- static bounds on gains (for variable bounds)
    per_slot_gain = {r: 0 for r in RES}
    for a in acts:
        if a.spot is not None:
            for r in RES:
                per_slot_gain[r] = max(per_slot_gain[r], a.spot.gain.get(r))
        else:
            assert a.resource is not None, "an act without a spot is an exhausted flask"
            per_slot_gain[a.resource] = max(per_slot_gain[a.resource], 1)
    def boost_of(event: str) -> Boost:
        boost = board.boost(event)
        assert boost is not None, f"the puzzle loader refuses {event} on a board without it"
        return boost

    boosts = sorted({e for e in puzzle.events if e and event_kind(e) is EventKind.BOOST} | {e for e, _ in s0.boosts})
    boost_total = {r: sum(1 for e in puzzle.events if e and event_kind(e) is EventKind.BOOST
                          and boost_of(e).resource is r) for r in RES}
    play_total = {r: sum(cards[c].gain.get(r) * (1 + sum(1 for _, d, _ in comeback if d == c)) for c in macro_cards)
                  for r in RES}
    load_total = {r: sum(cards[c].cost.get(r) for c in vesicle if r is not Resource.ATP) for r in RES}
    row_bonus = 1 if any(e == "reduce-atp-cost" for e in puzzle.events) else 0
    # before slot t: at most ``i`` placements of its round (i = its position) of which at most G
    # grey, each grey one netting its gain less the 4 ATP it costs; F + G in each earlier round
    # the Epigenetic card extra-resource: one more cube on numbered spots (epigenetic.extra-resource)
    extra_res = sorted({epigenetic.extra_resource(a.spot) for a in acts
                        if a.spot is not None and epigenetic.extra_allowed(puzzle, a.spot)}, key=RES.index)
    for r in extra_res:
        per_slot_gain[r] += 1
    grey_gain = {r: max(0, per_slot_gain[r] - (grey_cost if r is Resource.ATP else 0)) for r in RES}

    def gain_before(r: Resource, t: int) -> int:
        if t == T:
            return R * (F * per_slot_gain[r] + G * grey_gain[r])
        s = slots[t]
        rounds_before = (s.round - 1) * (F * per_slot_gain[r] + G * grey_gain[r])
        return rounds_before + min(s.index, F) * per_slot_gain[r] + max(0, s.index - F) * grey_gain[r]

    ub_stock = {}
    income_res = epigenetic.INCOME_RESOURCES if puzzle.epigenetic is epigenetic.EpigeneticCard.ROUND_INCOME else ()
    for r in RES:
        extra = boost_total[r] + play_total[r] + load_total[r] + (row_bonus * R if r is Resource.ATP else 0)
        ub_stock[r] = [s0.stock.get(r) + extra + gain_before(r, t) + (slots[min(t, T - 1)].round if r in income_res else 0)
                       for t in range(T + 1)]
    trading = puzzle.epigenetic is epigenetic.EpigeneticCard.ATP_EXCHANGE
    if trading:   # ATP traded for cubes (epigenetic.atp-exchange)
        for r, price in epigenetic.TRADE_PRICES.items():
            ub_stock[r] = [ub_stock[r][t] + ub_stock[Resource.ATP][t] // price for t in range(T + 1)]
    mrna_ub = ub_stock[Resource.MRNA][T]
    ub_stock[Resource.PROTEIN] = [ub_stock[Resource.PROTEIN][t] + mrna_ub for t in range(T + 1)]
    if not opt.tight_bounds:
        for r in RES:
            ub_stock[r] = [ub_stock[r][T]] * (T + 1)
    receptors = [c for c in reach if ctype[c] in (CardType.PROTEIN_RECEPTOR, CardType.STEROID_RECEPTOR)]
    h_ub = (puzzle.health + sum(max(cards[c].health, DETOX_HEALTH if ctype[c] is CardType.DETOX else 0) for c in reach)
            + FIRST_GOAL_MARKER_BONUS * len(puzzle.goals)
            + RECEPTOR_OWN_BONUS * len(vesicle) * len(receptors)
            + RECEPTOR_OTHER_BONUS * sum(len(h) for h in puzzle.opponent_hormones) * len(receptors))

    pm = PlanModel(puzzle, lm, slots, acts)
    x, grey, noop, amount, play = pm.x, pm.grey, pm.noop, pm.amount, pm.play

    # ---- decision variables
    for s in slots:
        for i, a in enumerate(acts):
            x[s.t, i] = lm.bool(f"x[{s.tag},{a.label}]")
        grey[s.t] = lm.bool(f"grey[{s.tag}]") if G else lm.const(0)
        noop[s.t] = lm.bool(f"noop[{s.tag}]") if G else lm.const(0)
        for c in macro_cards:
            play[s.t, c] = lm.bool(f"play[{s.tag},{c}]")
    if arrival:
        add_market_windows(lm, pm, arrival, K)
    fr = [i for i, a in enumerate(acts) if kind_of(a) is SpotKind.FREE_RIBOSOME]
    for s in slots:
        if fr:
            amount[s.t] = lm.int(f"amount[{s.tag}]", 0, max(0, mrna_ub))
        for r in extra_res:
            pm.extra[s.t, r] = lm.bool(f"extra[{s.tag},{r.value}]")

    def X(t: int, pred: Callable[..., bool]) -> Expr:
        return total(x[t, i] for i, a in enumerate(acts) if pred(a))

    # ---- state variables (index t: at the start of slot t; t = T: the end)
    def tag(t: int) -> str:
        return slots[t].tag if t < T else "end"

    stock: dict[tuple[int, Resource], Var | Expr] = {(t, r): lm.int(f"stock[{tag(t)},{r.value}]", 0, ub_stock[r][t]) for t in range(1, T + 1) for r in RES}
    for r in RES:
        stock[0, r] = lm.const(s0.stock.get(r))
    health: dict[int, Var | Expr] = {t: lm.int(f"health[{tag(t)}]", puzzle.health, h_ub) for t in range(1, T + 1)}
    health[0] = lm.const(s0.health)

    def state_bool(name: str, t: int, init: int) -> Var | Expr:
        return lm.const(init) if t == 0 else lm.bool(f"{name}[{tag(t)}]")

    hand = {(t, c): state_bool(f"hand[{c}]", t, int(c in s0.hand)) for t in range(T + 1) for c in reach}
    done = {(t, c): state_bool(f"done[{c}]", t, 0) for t in range(T + 1) for c in reach
            if ctype[c].is_completable}
    er = {(t, c): state_bool(f"er[{c}]", t, 0) for t in range(T + 1) for c in vesicle}
    go = {(t, c): state_bool(f"golgi[{c}]", t, 0) for t in range(T + 1) for c in vesicle}
    # the disk is in the Golgi with another card's cube (solver.rules.golgi): go and gx exclude
    # each other, a disk being in one place
    gx = {(t, c): state_bool(f"golgi_other_cube[{c}]", t, 0) for t in range(T + 1) for c in other_cube}
    in_golgi = {(t, c): Expr.of(go[t, c]) + gx[t, c] if c in other_cube else go[t, c]
                for t in range(T + 1) for c in vesicle}
    opp = {(t, d.id): state_bool(f"opp_disk[{d.id}]", t, 1) for t in range(T + 1) for d in s0.opp_disks}
    pend_ub = {e: len(puzzle.events) for e in boosts}
    pend = {(t, e): (lm.const(dict(s0.boosts).get(e, Stock()).get(boost_of(e).resource)) if t == 0
                     else lm.int(f"boost[{tag(t)},{e}]", 0, pend_ub[e])) for t in range(T + 1) for e in boosts}

    # ---- one action per slot; grey flasks; exhausting (gameplay.phase-1, gameplay.grey-flasks)
    lm.section("gameplay.phase-1")
    for s in slots:
        t = s.t
        lm.eq(total(x[t, i] for i in range(len(acts))) + noop[t], 1)
        if fr:
            xfr = X(t, lambda a: kind_of(a) is SpotKind.FREE_RIBOSOME)
            free_ribosome.encode_amount(lm, puzzle, amount[t], xfr, mrna_ub)
            lm.section("gameplay.phase-1")
    for r, rs in by_round.items():
        lm.eq(total(1 - Expr.of(noop[s.t]) - Expr.of(grey[s.t]) for s in rs), F)
        for a, b in zip(rs, rs[1:]):
            lm.le(noop[a.t], noop[b.t])
    lm.section("gameplay.grey-flasks")
    exhaust_after_grey = rules.exhaust_after_grey(puzzle.readings())
    if G:
        for r, rs in by_round.items():
            lm.le(total(grey[s.t] for s in rs), puzzle.grey_flasks)
            for a, b in zip(rs, rs[1:]):
                # a grey flask is placed before the turn's own flask: a normal flask follows
                lm.le(Expr.of(grey[a.t]) + noop[b.t] + grey[b.t], 1)
                if not exhaust_after_grey:   # ruling grey-then-exhaust: not-allowed
                    lm.le(Expr.of(grey[a.t]) + X(b.t, lambda act: act.spot is None), 1)
            lm.eq(grey[rs[-1].t], 0)
            for s in rs:
                lm.le(grey[s.t], X(s.t, lambda a: a.spot is not None))
    lm.section("gameplay.exhaust-flask")
    for s in slots:
        for i, a in enumerate(acts):
            if a.spot is None:
                lm.le(x[s.t, i], 1 - Expr.of(grey[s.t]))

    # ---- spots taken once per round; 1e two-player area limits (gameplay.phase-1, two-player.gameplay)
    lm.section("gameplay.phase-1")
    spot_use = {}
    for s in slots:
        for spot in board.spots:
            spot_use[s.t, spot.id] = X(s.t, lambda a, sid=spot.id: a.spot is not None and a.spot.id == sid)
    grey_at = {}        # (t, spot id) -> the slot's grey flask is on this spot
    if G:
        for s in slots:
            here = []
            for spot in board.spots:
                if spot_use[s.t, spot.id].terms:
                    g = lm.bool(f"grey_on[{s.tag},{spot.id}]")
                    lm.le(g, spot_use[s.t, spot.id])
                    grey_at[s.t, spot.id] = g
                    here.append(g)
            lm.eq(total(here), grey[s.t])

    def normal_at(t: int, sid: str) -> Expr:
        return spot_use[t, sid] - grey_at.get((t, sid), Expr())

    for r, rs in by_round.items():
        occ = set(puzzle.occupied[r - 1]) if r - 1 < len(puzzle.occupied) else set()
        for spot in board.spots:
            if not spot_use[rs[0].t, spot.id].terms:
                continue
            # one normal flask per free spot per round; a grey flask goes on any spot
            lm.le(total(normal_at(s.t, spot.id) for s in rs), 0 if spot.id in occ else 1)
            for k, s in enumerate(rs):
                if k and spot.id not in occ and G:
                    lm.le(normal_at(s.t, spot.id) + total(grey_at[p.t, spot.id] for p in rs[:k]), 1)
    lm.section("two-player.gameplay")
    for r, rs in by_round.items():
        occ = puzzle.occupied[r - 1] if r - 1 < len(puzzle.occupied) else ()
        areas = {sp.area for sp in board.spots}
        for area in areas:
            limit = rules.area_limit(area, puzzle.players)
            if limit is None:
                continue
            occ_n = sum(1 for sid in occ if board.spot(sid).area is area)
            room = limit - 1 - occ_n
            area_spots = [sp.id for sp in board.spots if sp.area is area]
            normals = {s.t: total(normal_at(s.t, sid) for sid in area_spots) for s in rs}
            lm.le(total(normals.values()), max(0, room + 1))
            # the player's grey flasks count unless the ruling grey-flask-area-limit reads exempt
            grey_counts = rules.grey_flasks_count_for_area_limit(puzzle.readings())
            for k, s in enumerate(rs):
                if k and room >= 0 and normals[s.t].terms:
                    prev = total((spot_use[p.t, sid] if grey_counts else normal_at(p.t, sid))
                                 for p in rs[:k] for sid in area_spots)
                    lm.le(prev, room + k * (1 - normals[s.t]))
    # measured (CP-SAT deterministic seconds, mean over seeds): with a grey flask a round it speeds
    # the proof (scale 12: 3.7 -> 2.3, scale 16: 36.5 -> 22.7); without grey flasks, where the
    # ordering of pure gains below is on, it slows it (scale 16: 13.0 -> 20.8, scale 24: 9.0 -> 18.9)
    if opt.symmetry and G:
        lm.section("gameplay.phase-1")  # symmetry breaking: identical free spots are used in order
        groups: dict[tuple[SpotKind, Area, int], list[Spot]] = {}
        for spot in board.spots:
            if spot.kind is not SpotKind.CARD_ROW:
                groups.setdefault((spot.kind, spot.area, spot.value), []).append(spot)
        for r, rs in by_round.items():
            occ = set(puzzle.occupied[r - 1]) if r - 1 < len(puzzle.occupied) else set()
            for group in groups.values():
                free = [sp for sp in group if sp.id not in occ]
                for a, b in zip(free, free[1:]):
                    # relabelling two identical free spots for a round is a symmetry: the one
                    # earlier on the board holds at least as many flasks (grey ones included)
                    ua = total(spot_use[s.t, a.id] for s in rs)
                    ub_ = total(spot_use[s.t, b.id] for s in rs)
                    lm.le(ub_, ua)
    if opt.ordering and not G:   # measured: with grey flasks it slows the proof (bench --ablation)
        lm.section("gameplay.phase-1")  # symmetry breaking: commuting placements in one order
        # A pure gain P (no cost, no card, no Health, legal whenever its spot is free) placed by a
        # normal flask right after a normal flask's action Q of the same round can swap with it:
        # P stays legal (its spot and area do not depend on Q), Q stays legal (its preconditions
        # are monotone in the stock and P only adds to it; P changes no card, disk, row or Health)
        # and the state after both is the same (a boost claim moves from one to the other, the
        # sum is unchanged). Not when a card is played between them (Q may have bought it, and a
        # card is played before a slot's flask). So a pure gain never follows an action of higher
        # rank in the next slot with no card played in between. Rank: the index among pure
        # gains; every other action ranks last.
        pure = [i for i, a in enumerate(acts) if a.spot is None or (a.goal is None and kind_of(a) in (
            SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.LAUREATES))]
        rank = {i: n for n, i in enumerate(pure)}
        for r, rs in by_round.items():
            for a, b in zip(rs, rs[1:]):
                for j in pure:
                    higher = total(x[a.t, i] for i in range(len(acts)) if rank.get(i, len(pure)) > rank[j])
                    lm.le(Expr.of(x[b.t, j]) + higher, 1 + total(play[b.t, c] for c in macro_cards))

    # ---- the card row: what lies under each slot, round by round (spots.card-row, gameplay.phase-2)
    lm.section("spots.card-row")
    at = pm.at
    row_acts = {a.spot.row_slot: i for i, a in enumerate(acts) if a.spot is not None and a.spot.kind is SpotKind.CARD_ROW}
    bought: dict[tuple[int, str], Expr] = {}
    discard_n = 2 if puzzle.players == 2 else 1
    card_of = {**{c: c for c in queue}, **{key: c for key, c, _ in comeback}}
    entries, pile = queue + [key for key, _, _ in comeback], dict[str, Term]()   # solver.rules.reshuffle
    queue = entries   # the row's queue: a comeback entry is alive from the round its card comes back
    alive: dict[tuple[int, str], Var | Expr] = {(1, c): lm.const(int(c == card_of[c])) for c in queue}
    for r in range(1, R + 1):
        rs = by_round[r]
        if r == 1:
            for j in range(S):
                for c in queue:
                    at[1, j, c] = lm.const(int(s0.row[j] == c))
        else:
            lm.section("gameplay.phase-2")
            for n, c in enumerate(queue):
                before = total(alive[r, q] for q in queue[:n])
                a_c = alive[r, c]
                for j in range(S):
                    if _cval(a_c) == 0:
                        at[r, j, c] = lm.const(0)
                        continue
                    ge_j = lm.reify_ge(f"rowpos_ge[r{r},{c},{j}]", before, j)
                    ge_j1 = lm.reify_ge(f"rowpos_ge[r{r},{c},{j + 1}]", before, j + 1)
                    parts = [a_c, ge_j, _not(lm, ge_j1)]
                    at[r, j, c] = _and_mixed(lm, f"at[r{r},slot{j + 1},{c}]", parts)
        lm.section("spots.card-row")
        reduce = r - 1 < len(puzzle.events) and puzzle.events[r - 1] == "reduce-atp-cost"
        # other players' flasks on row slots have bought those cards (engine: _opponents_buy)
        occ_r = set(puzzle.occupied[r - 1]) if r - 1 < len(puzzle.occupied) else set()
        taken_slots = [sp.row_slot for sp in board.row_slots if sp.id in occ_r]
        taken = {c: total(at[r, j, c] for j in taken_slots) for c in queue}
        if opt.row_cuts and r > 1:
            # true of every integer solution, but not of the LP relaxation, where a slot could
            # hold a share of several cards and one flask buy a share of each
            for j in range(S):
                lm.le(total(at[r, j, c] for c in queue), 1)
            for c in queue:
                lm.le(total(at[r, j, c] for j in range(S)), alive[r, c])
        for j, i in row_acts.items():
            present = Expr() if j in taken_slots else total(at[r, j, c] for c in queue)
            lm.le(total(x[s.t, i] for s in rs), 1)      # a bought slot stays empty this round
            for s in rs:
                lm.le(x[s.t, i], present)
                buys = Expr()
                for c in queue:
                    a_ = at[r, j, c]
                    if _cval(a_) == 0:
                        continue
                    # not a constant (_cval above): the variable _and_mixed returned
                    b = x[s.t, i] if _cval(a_) == 1 else lm.and_(f"buy[{s.tag},slot{j + 1},{c}]", [x[s.t, i], cast(Var, a_)])
                    bought[s.t, c] = bought.get((s.t, c), Expr()) + b
                    buys = buys + b
                if opt.row_cuts and j not in taken_slots:
                    lm.eq(buys, x[s.t, i])
        if r < R:
            lm.section("gameplay.phase-2")
            remain = {}
            for c in queue:
                inrow = total(at[r, j, c] for j in range(S))
                remain[c] = inrow - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c]
            for n, c in enumerate(queue):
                ahead = total(remain[q] for q in queue[:n])
                rem_b = _as_bool(lm, f"row_left[r{r},{c}]", remain[c])
                first = lm.reify_ge(f"row_ahead_lt[r{r},{c}]", discard_n - 1 - ahead, 0)
                disc = _and_mixed(lm, f"discard[r{r},{c}]", [rem_b, first])
                alive[r + 1, c] = alive[r, c] - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c] - disc
                if not _is_const(alive[r + 1, c]):
                    v = lm.bool(f"alive[r{r + 1},{c}]")
                    lm.eq(v, alive[r + 1, c])
                    alive[r + 1, c] = v
                pile[card_of[c]] = total([pile.get(card_of[c], 0), disc])
            played = {c: total(play[s.t, c] for s in rs) for c in macro_cards}
            reshuffle.encode_comeback(lm, r, S, pile, played, alive, queue, comeback)

    reshuffle.merge_entries(at, bought, card_of)

    # ---- vesicle areas: removal from a full area (spots.golgi, spots.rough-er)
    lm.section("spots.golgi")
    v_areas = [VesicleArea.SMOOTH_ER, VesicleArea.ROUGH_ER, VesicleArea.GOLGI]
    in_area: dict[VesicleArea, list[tuple[str, dict[tuple[int, str], Var | Expr]]]] = {}
    for A in v_areas:
        if A is VesicleArea.GOLGI:
            in_area[A] = [(c, in_golgi) for c in vesicle]
        else:
            in_area[A] = [(c, er) for c in vesicle if routes[c].er is A]
    opp_in = {A: [d for d in s0.opp_disks if d.area is A] for A in v_areas}
    chosen = rules.removal_is_chosen()
    own_key: Callable[[str], list[int]] = lambda c: [-ord(ch) for ch in f"own:{c}"]  # noqa: E731 - same tie-break as the engine
    # who is earliest in each round's turn order (engine: State.leads_round, _leads_next_round):
    # the player leads round 1 with the First Player Marker; they lead round r + 1 if a flask of
    # theirs went on Laureates in round r, or they led round r and no other player took it
    lm.section("spots.laureates")
    leads: dict[int, Var | Expr] = {1: lm.const(int(puzzle.first_player))}
    for r in range(1, R):
        took = total(X(s.t, lambda a: kind_of(a) is SpotKind.LAUREATES) for s in by_round[r])
        took_b = lm.reify_ge(f"took_marker[r{r}]", took, 1) if Expr.of(took).terms else lm.const(0)
        occ_r = puzzle.occupied[r - 1] if r - 1 < len(puzzle.occupied) else ()
        if any(board.spot(p).kind is SpotKind.LAUREATES for p in occ_r):
            leads[r + 1] = took_b
        elif _cval(leads[r]) == 0:
            leads[r + 1] = took_b
        else:
            leads[r + 1] = lm.reify_ge(f"leads[r{r + 1}]", Expr.of(took_b) + leads[r], 1)
    lm.section("spots.golgi")
    bump_own, bump_opp = pm.bump_own, pm.bump_opp
    enters = {}
    for s in slots:
        t = s.t
        for A in v_areas:
            if A is VesicleArea.GOLGI:
                ent = X(t, lambda a: kind_of(a) is SpotKind.GOLGI)
            else:
                ent = X(t, lambda a, A=A: a.card in routes and is_er(a) and routes[a.card].er is A)
            enters[t, A] = ent
            cap = board.vesicle_count(A)
            own_max = min(DISKS, len(in_area[A]))
            if not ent.terms or own_max + len(opp_in[A]) < cap:
                continue   # the area can never be full
            occupancy = total(st[t, c] for c, st in in_area[A]) + total(opp[t, d.id] for d in opp_in[A])
            full = lm.reify_ge(f"full[{s.tag},{A.value}]", occupancy, cap)
            ent_b = _as_bool(lm, f"enter[{s.tag},{A.value}]", ent)
            ef = _and_mixed(lm, f"enter_full[{s.tag},{A.value}]", [ent_b, full])
            removed = []
            if chosen:
                for c, st in in_area[A]:
                    b = lm.bool(f"bump[{s.tag},{A.value},own:{c}]")
                    lm.le(b, st[t, c])
                    bump_own[t, c, A] = b
                    removed.append(b)
                for d in opp_in[A]:
                    b = lm.bool(f"bump[{s.tag},{d.id}]")
                    lm.le(b, opp[t, d.id])
                    bump_opp[t, d.id] = b
                    removed.append(b)
                lm.eq(total(removed), ef)
            else:
                owns = sorted(in_area[A], key=lambda cs: own_key(cs[0]), reverse=True)
                top_own, seen = [], Expr()
                for c, st in owns:
                    top_own.append((c, _and_mixed(lm, f"top_own[{s.tag},{c}]", [st[t, c], _not(lm, seen)])))
                    seen = seen + st[t, c]
                any_own = lm.reify_ge(f"any_own[{s.tag},{A.value}]", seen, 1)
                # the other players' disk first in line, under each possible turn order of the round
                lead = leads[s.round]
                tops = {}
                for led in ((0, 1) if _cval(lead) is None else (_cval(lead),)):
                    pos = {d.id: turn_position(puzzle, d.seat, bool(led), s.round) for d in opp_in[A]}
                    opps = sorted(opp_in[A], key=lambda d: (d.health, -pos[d.id], [-ord(ch) for ch in d.id]),
                                  reverse=True)
                    seen = Expr()
                    for d in opps:
                        tops[led, d.id] = _and_mixed(lm, f"top_opp[{s.tag},{d.id},lead{led}]",
                                                     [opp[t, d.id], _not(lm, seen)])
                        seen = seen + opp[t, d.id]
                top_opp = []
                for d in opp_in[A]:
                    if (0, d.id) in tops and (1, d.id) in tops:
                        tb = (_and_mixed(lm, f"top_opp[{s.tag},{d.id},l]", [tops[1, d.id], lead])
                              + _and_mixed(lm, f"top_opp[{s.tag},{d.id},nl]", [tops[0, d.id], _not(lm, lead)]))
                    else:
                        tb = tops[next(k for k in tops if k[1] == d.id)]
                    top_opp.append((d, tb))
                # the player, tied on Health with that disk's owner, is removed if earlier in turn order
                own_pos = {led: turn_position(puzzle, puzzle.seat, bool(led), s.round) for led in (0, 1)}
                thr = Expr()
                for d, tb in top_opp:
                    later = {led: int(own_pos[led] > turn_position(puzzle, d.seat, bool(led), s.round)) for led in (0, 1)}
                    thr = thr + tb * d.health
                    if (led := _cval(lead)) is not None:
                        thr = thr + tb * later[led]
                    elif later[0] or later[1]:
                        thr = (thr + _and_mixed(lm, f"later[{s.tag},{d.id},l]", [tb, lead]) * later[1]
                               + _and_mixed(lm, f"later[{s.tag},{d.id},nl]", [tb, _not(lm, lead)]) * later[0])
                own_wins = lm.reify_ge(f"own_highest[{s.tag},{A.value}]", health[t] - thr, 0)
                own_out = _and_mixed(lm, f"own_out[{s.tag},{A.value}]", [own_wins, any_own])
                for c, tb in top_own:
                    b = _and_mixed(lm, f"bump[{s.tag},{A.value},own:{c}]", [ef, tb, own_out])
                    bump_own[t, c, A] = b
                for d, tb in top_opp:
                    b = _and_mixed(lm, f"bump[{s.tag},{d.id}]", [ef, tb, _not(lm, own_out)])
                    bump_opp[t, d.id] = b

    def bump_c(t: int, c: str, A: VesicleArea | None = None) -> Expr:
        areas = [A] if A else v_areas
        return total(bump_own[t, c, a] for a in areas if (t, c, a) in bump_own)

    # ---- a disk in supply to start a card (spots.rough-er, spots.smooth-er-detox-steroid)
    lm.section("spots.rough-er")
    for s in slots:
        t = s.t
        ent_er = X(t, is_er)
        if not ent_er.terms:
            continue
        on_board = total(Expr.of(er[t, c]) + in_golgi[t, c] for c in vesicle)
        freed = total(bump_c(t, c) for c in vesicle)
        lm.le(on_board - freed + ent_er, DISKS)

    # ---- card preconditions and state transitions (cards.*, spots.*)
    lm.section("cards.hormones")
    for s in slots:
        t = s.t
        for i, a in enumerate(acts):
            c = a.card
            if c is None:
                continue
            k = kind_of(a)
            if is_er(a):
                lm.le(x[t, i], hand[t, c])
                lm.le(x[t, i], 1 - Expr.of(er[t, c]) - in_golgi[t, c])
            elif k is SpotKind.GOLGI:
                lm.le(x[t, i], er[t, a.disk or c])
                if a.disk is not None:   # the card now aimed at is in hand
                    lm.le(x[t, i], hand[t, c])
            elif k is SpotKind.EXOCYTOSIS:
                lm.le(x[t, i], (gx if a.other_cube else go)[t, a.disk or c])
                lm.le(x[t, i], hand[t, c])
            else:  # detox / enzyme from hand
                lm.le(x[t, i], hand[t, c])
        for c in macro_cards:
            lm.le(play[t, c], hand[t, c])
            lm.le(play[t, c], 1 - Expr.of(noop[t]))
    completes = {}
    bump_other: dict[tuple[int, str], Expr] = {}   # (t, card): its disk, carrying another cube, leaves the Golgi
    for s in slots:
        t = s.t
        for c in reach:
            completes[t, c] = X(t, lambda a, c=c: a.card == c and (
                kind_of(a) in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM)
                or (kind_of(a) is SpotKind.DETOX_STEROID and ctype[c] is CardType.DETOX)))
    for s in slots:
        t = s.t
        for c in reach:
            lm.section("cards.macromolecule" if c in macro_cards else "spots.card-row")
            gone = completes[t, c] + (play[t, c] if c in macro_cards else 0)
            lm.eq(hand[t + 1, c], hand[t, c] + bought.get((t, c), Expr()) - gone)
            if (t, c) in done:
                lm.section("cards.hormones")
                lm.eq(done[t + 1, c], done[t, c] + completes[t, c])
        for c in vesicle:
            lm.section("spots.golgi")
            xer = X(t, lambda a, c=c: a.card == c and is_er(a))
            xg_own = X(t, lambda a, c=c: a.card == c and kind_of(a) is SpotKind.GOLGI and a.disk is None)
            xg_other = X(t, lambda a, c=c: a.disk == c and kind_of(a) is SpotKind.GOLGI)
            xe_own = X(t, lambda a, c=c: a.disk_card == c and kind_of(a) is SpotKind.EXOCYTOSIS and not a.other_cube)
            bump_g, b_other = bump_c(t, c, VesicleArea.GOLGI), Expr()
            if c in other_cube:
                xe_other = X(t, lambda a, c=c: a.disk_card == c and kind_of(a) is SpotKind.EXOCYTOSIS and a.other_cube)
                # a disk removed from the full Golgi area carries its own card's cube or another's
                if bump_g.terms:
                    b_other = Expr.of(_and_mixed(lm, f"bump_other_cube[{s.tag},{c}]", [bump_g, gx[t, c]]))
                bump_other[t, c] = b_other
                lm.eq(gx[t + 1, c], Expr.of(gx[t, c]) + xg_other - xe_other - b_other)
            lm.eq(er[t + 1, c], er[t, c] + xer - xg_own - xg_other - bump_c(t, c, routes[c].er))
            lm.eq(go[t + 1, c], go[t, c] + xg_own - xe_own - (bump_g - b_other))
        for d in s0.opp_disks:
            lm.eq(opp[t + 1, d.id], opp[t, d.id] - Expr.of(bump_opp.get((t, d.id), lm.const(0))))

    # ---- goal markers (spots.laureates, cards.goals)
    lm.section("cards.goals")
    mark = {}
    for g in puzzle.goals:
        idx = [i for i, a in enumerate(acts) if a.goal == g.id]
        mark[g.id] = total(x[s.t, i] for s in slots for i in idx)
        lm.le(mark[g.id], 1)
    if mark:
        lm.le(total(mark.values()), puzzle.goal_markers)

    # ---- boosts waiting on the board (events.boost, spots.event-resources)
    lm.section("events.boost")
    claim: dict[tuple[int, str], Var | Expr] = {}
    for e in boosts:
        areas = boost_of(e).areas
        for s in slots:
            t = s.t
            inside = X(t, lambda a: a.spot is not None and a.spot.area in areas)
            if not inside.terms:
                claim[t, e] = lm.const(0)
            else:
                m = pend_ub[e]
                cl = lm.int(f"claim[{s.tag},{e}]", 0, m)
                lm.le(cl, pend[t, e])
                lm.le(cl, inside * m)
                lm.ge(cl, Expr.of(pend[t, e]) - (1 - inside) * m)
                claim[t, e] = cl
            nxt = Expr.of(pend[t, e]) - claim[t, e]
            last = s.index == K - 1
            if last and s.round < R:
                r2 = s.round + 1
                if r2 - 1 < len(puzzle.events) and puzzle.events[r2 - 1] == e:
                    nxt = nxt + 1
                occ = puzzle.occupied[r2 - 1] if r2 - 1 < len(puzzle.occupied) else ()
                if any(board.spot(sid).area in areas for sid in occ):
                    nxt = Expr()
            lm.eq(pend[t + 1, e], nxt)

    # ---- stock and Health: costs, gains, affordability (spots.*, cards.*, events.*)
    for s in slots:
        t = s.t
        r_ = s.round
        reduce = r_ - 1 < len(puzzle.events) and puzzle.events[r_ - 1] == "reduce-atp-cost"
        lm.section("gameplay.grey-flasks")
        play_gain = {r: total(play[t, c] * cards[c].gain.get(r) for c in macro_cards if cards[c].gain.get(r))
                     for r in RES}
        # before the slot's flask: held cards played, the round's income, ATP traded (Epigenetic cards)
        pre = {r: Expr.of(stock[t, r]) + play_gain[r] for r in RES}
        if income_res and s.index == 0:
            pm.income.update({(s.round, r): v for r, v in epigenetic.encode_income(lm, s.round, pre).items()})
        if trading:
            for r, v in epigenetic.encode_trades(lm, s.tag, pre, ub_stock[Resource.ATP][t]).items():
                pm.trade[t, r] = v
                lm.le(v, (1 - Expr.of(noop[t])) * v.ub)
        lm.section("gameplay.grey-flasks")
        lm.ge(pre[Resource.ATP], grey[t] * grey_cost)
        cost, gain = {}, {}
        for r in RES:
            pre[r] = pre[r] + total(claim[t, e] for e in boosts if boost_of(e).resource is r)
            if r is Resource.ATP:
                pre[r] = pre[r] - grey[t] * grey_cost
            cost[r], gain[r] = Expr(), Expr()
        for i, a in enumerate(acts):
            k = kind_of(a)
            c = cards[a.card] if a.card else None
            cs, gs = Stock(), Stock()
            if a.spot is None:
                assert a.resource is not None, "an act without a spot is an exhausted flask"
                gs = Stock.of(a.resource, 1)
            elif k is SpotKind.CARD_ROW:
                price = epigenetic.row_price(puzzle, max(0, a.spot.value - (1 if reduce else 0)))
                cs = Stock(atp=price)
                gs = Stock(atp=1 if (reduce and a.spot.value == 0) else 0)
            elif k is SpotKind.LAUREATES:
                gs = Stock(atp=1) if a.goal is None else Stock()
            elif k is SpotKind.CYTOPLASM:
                assert c is not None, "every cytoplasm act completes a card"
                cs = c.cost
            elif k is SpotKind.DETOX_STEROID and c is not None and c.type is CardType.DETOX:
                cs = Stock(atp=c.cost.atp)
            elif is_er(a):
                assert a.card is not None, "is_er: an ER act starts a card's disk"
                route = routes[a.card]
                need = cards[a.card].cost.get(route.er_resource)
                pay = Resource.MRNA if route.er_resource is Resource.PROTEIN else route.er_resource
                cs = Stock.of(pay, need)
            elif k is SpotKind.GOLGI:
                assert a.card is not None, "every Golgi act moves a card's disk"
                cs = Stock.of(routes[a.card].golgi_resource, 1)
            elif k is SpotKind.EXOCYTOSIS:
                assert c is not None, "every Exocytosis act completes a card"
                cs = Stock(atp=c.cost.atp)
            elif k is not SpotKind.FREE_RIBOSOME:
                cs, gs = a.spot.cost, a.spot.gain
            for r in RES:
                if cs.get(r):
                    cost[r] = cost[r] + x[t, i] * cs.get(r)
                if gs.get(r):
                    gain[r] = gain[r] + x[t, i] * gs.get(r)
        if fr:
            free_ribosome.encode_trade(cost, gain, amount[t], Resource.MRNA, Resource.PROTEIN)
        if extra_res:
            epigenetic.encode_extra(lm, puzzle, acts, {i: x[t, i] for i in range(len(acts))},
                                    {r: pm.extra[t, r] for r in extra_res}, cost, gain)
        # own disks removed from a full area come back with their cubes (spots.golgi; 1e ruling
        # removed-disk-cubes: to-supply, they do not: engine.removed_cubes_return)
        for c in (vesicle if removed_cubes_return(puzzle) else []):
            route = routes[c]
            need = cards[c].cost.get(route.er_resource)
            b_any = bump_c(t, c)
            if b_any.terms:
                gain[route.er_resource] = gain[route.er_resource] + b_any * need
                b_other = bump_other.get((t, c), Expr())
                gain[route.golgi_resource] = gain[route.golgi_resource] + bump_c(t, c, VesicleArea.GOLGI) - b_other
                if c in other_cube:
                    gain[other_cube[c]] = gain[other_cube[c]] + b_other
        lm.section("gameplay.phase-1")
        mid = {}
        for r in RES:
            lm.ge(pre[r] - cost[r], 0)            # the action is affordable
            mid[r] = pre[r] - cost[r] + gain[r]
        last = s.index == K - 1
        tox = last and s.round < R and s.round < len(puzzle.events) and puzzle.events[s.round] == "toxicity"
        for r in RES:
            nxt = mid[r]
            if tox and r in MACRO:
                lm.section("events.toxicity")
                loss = Expr()
                prev_at = None
                for at_least, lose in sorted(TOXICITY_STEPS):
                    b = lm.reify_ge(f"toxic[{s.tag},{r.value},{at_least}]", mid[r], at_least)
                    loss = loss + Expr.of(b) * (lose - (prev_at or 0))
                    prev_at = lose
                nxt = mid[r] - loss
            lm.eq(stock[t + 1, r], nxt)

        # Health Points during play (cards.*, cards.receptors, cards.goals)
        lm.section("cards.receptors")
        gained = Expr()
        for i, a in enumerate(acts):
            k = kind_of(a)
            if a.card and (k in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM) or
                           (k is SpotKind.DETOX_STEROID and ctype[a.card] is CardType.DETOX)):
                hp = DETOX_HEALTH if ctype[a.card] is CardType.DETOX else cards[a.card].health
                gained = gained + x[t, i] * hp
                if k is SpotKind.EXOCYTOSIS and ctype[a.card] in RECEPTOR_OF:
                    for q in receptors:
                        if ctype[q] is RECEPTOR_OF[ctype[a.card]]:
                            gained = gained + Expr.of(_and_mixed(lm, f"receptor_bonus[{s.tag},{a.card},{q}]",
                                                                 [x[t, i], done[t, q]])) * RECEPTOR_OWN_BONUS
            if a.goal is not None and puzzle.goals and next(g for g in puzzle.goals if g.id == a.goal).markers == 0:
                gained = gained + x[t, i] * FIRST_GOAL_MARKER_BONUS
        if last:
            for kind in (puzzle.opponent_hormones[s.round - 1] if s.round - 1 < len(puzzle.opponent_hormones) else ()):
                gained = gained + total(done[t + 1, q] for q in receptors if ctype[q] is RECEPTOR_OF[kind]) * RECEPTOR_OTHER_BONUS
        lm.eq(health[t + 1], Expr.of(health[t]) + gained)

    # ---- end-game scoring (scoring.final)
    lm.section("scoring.macromolecules")
    final = {r: Expr.of(stock[T, r]) for r in RES}
    for c in vesicle:
        route = routes[c]
        need = cards[c].cost.get(route.er_resource)
        final[route.er_resource] = final[route.er_resource] + (Expr.of(er[T, c]) + in_golgi[T, c]) * need
        final[route.golgi_resource] = final[route.golgi_resource] + go[T, c]
        if c in other_cube:
            final[other_cube[c]] = final[other_cube[c]] + gx[T, c]
    # held Macromolecule cards are played in the last turn (engine: _play_held_cards)
    macromolecule_cards.encode_held_at_the_end(lm, puzzle, final, {c: Expr.of(hand[T, c]) for c in macro_cards},
                                               [cards[c] for c in macro_cards])
    if trading and puzzle.flasks:   # the last turn's trades (engine: _trade_leftover_atp)
        for r, v in epigenetic.encode_trades(lm, "end", final, ub_stock[Resource.ATP][T]).items():
            pm.trade[T, r] = v
        lm.ge(final[Resource.ATP], 0)
    lm.section("scoring.macromolecules")
    sets = Expr()
    for name, size in MACROMOLECULE_SET.items():
        r = Resource(name)
        hi = final[r].bounds()[1]
        n = lm.int(f"sets[{name}]", 0, max(0, hi // size))
        lm.le(Expr.of(n) * size, final[r])
        lm.ge(Expr.of(n) * size + (size - 1), final[r])
        sets = sets + n
    pm.objective_parts["macromolecules"] = sets

    lm.section("scoring.detox")
    detox_pts = Expr()
    if detox:
        pairs = {(0, 0)}
        for c in detox:
            pairs |= {(a + cards[c].cost.atp, k + 1) for a, k in pairs}
        others = [(o.amount, o.cards) for o in puzzle.detox_opponents]
        z = {p: lm.bool(f"detox_result[{p[0]}atp,{p[1]}cards]") for p in sorted(pairs)}
        lm.eq(total(z.values()), 1)
        lm.eq(total(z[p] * p[0] for p in z), total(done[T, c] * cards[c].cost.atp for c in detox))
        lm.eq(total(z[p] * p[1] for p in z), total(done[T, c] for c in detox))
        detox_pts = total(z[p] * detox_points(rules, puzzle.players, p, others, puzzle.readings()) for p in z)
    pm.objective_parts["detox"] = detox_pts

    lm.section("scoring.enzyme-sets")
    enzyme_pts = Expr()
    colours: dict[str, list[str]] = {}
    for c in enzymes:
        colours.setdefault(cards[c].color or c, []).append(c)
    for layer in range(1, max((len(v) for v in colours.values()), default=0) + 1):
        members = []
        for col, cs in colours.items():
            if len(cs) >= layer:
                members.append(lm.reify_ge(f"enzyme_layer[{layer},{col}]", total(done[T, c] for c in cs), layer))
        size = total(members)
        one_hot = {n: lm.bool(f"enzyme_set_size[{layer},{n}]") for n in range(len(members) + 1)}
        lm.eq(total(one_hot.values()), 1)
        lm.eq(total(v * n for n, v in one_hot.items()), size)
        enzyme_pts = enzyme_pts + total(v * ENZYME_SET_POINTS[min(n, 5)] for n, v in one_hot.items())
    pm.objective_parts["enzyme_sets"] = enzyme_pts

    lm.section("scoring.goals")
    goal_pts = Expr()
    for g in puzzle.goals:
        if not (mark.get(g.id) and mark[g.id].terms):
            continue
        met = lm.reify_ge(f"goal_met[{g.id}]", total(done[T, c] for c in reach
                                                    if ctype[c] in g.card_types and (T, c) in done), g.count)
        scored = _and_mixed(lm, f"goal_scored[{g.id}]", [_as_bool(lm, f"goal_marked[{g.id}]", mark[g.id]), met])
        goal_pts = goal_pts + Expr.of(scored) * g.points
    pm.objective_parts["goals"] = goal_pts
    pm.objective_parts["in_game"] = Expr.of(health[T])

    lm.section("scoring.final")
    lm.maximize(Expr.of(health[T]) + sets + detox_pts + enzyme_pts + goal_pts)
    return pm


def market_arrival(puzzle: Puzzle, s0: State) -> dict[str, int]:
    """The earliest round each card of the row and the deck can lie in the card row (spots.card-row,
    gameplay.phase-2).

    The row holds the first ``S`` cards still in play, in queue order (row, then deck): a card
    ``n`` places down the queue is there in round ``r`` only after ``n - S + 1`` cards ahead of it
    have left. A round removes at most as many cards as the row holds (each slot is bought once a
    round, by the player or another player, and Phase 2 discards from what is left), so at most
    the round-1 row's cards in round 1 and ``S`` in every later round. Cards that cannot arrive by
    the last round never matter; a card arriving in round ``e`` cannot be bought before it."""
    S = len(puzzle.board.row_slots)
    first_row = [c for c in s0.row if c]
    queue = first_row + list(s0.deck)
    out = {c: 1 for c in first_row}
    removed, round_ = len(first_row), 2     # at most this many gone before ``round_``
    for n, c in enumerate(queue[len(first_row):], start=len(first_row)):
        while n - removed >= S:
            removed += S
            round_ += 1
        out[c] = round_
    return out


ROUTE_STAGE = {SpotKind.CARD_ROW: 0, SpotKind.ROUGH_ER: 1, SpotKind.DETOX_STEROID: 1, SpotKind.CYTOPLASM: 1,
               SpotKind.GOLGI: 2, SpotKind.EXOCYTOSIS: 3}
"""Placements a card needs after its purchase before an action on this spot can use it: bought,
then the ER (or the Cytoplasm, or the Smooth ER for a detox card), then the Golgi, then Exocytosis."""


def add_market_windows(lm: LinearModel, pm: PlanModel, arrival: dict[str, int], per_round: int) -> None:
    """Rule out every action on a row or deck card before the card can be held and moved that far
    along its route (:func:`market_arrival`): bought in round ``e`` at the earliest, at its first
    slot, it reaches stage ``k`` of its route ``k`` slots later. A disk completing another card
    needs its own card three stages on, the completed card held."""
    for s in pm.slots:
        for i, a in enumerate(pm.acts):
            if a.spot is None or a.spot.kind not in ROUTE_STAGE or a.spot.kind is SpotKind.CARD_ROW:
                continue
            needs = []
            if a.disk is not None:   # a disk's move for another card (Exocytosis, or Golgi with its cube)
                needs = [(a.disk, ROUTE_STAGE[a.spot.kind]), (a.card, 1)]
            elif a.card is not None:
                needs = [(a.card, ROUTE_STAGE[a.spot.kind])]
            if any(c in arrival and s.t < (arrival[c] - 1) * per_round + stage for c, stage in needs):
                lm.eq(pm.x[s.t, i], 0)


def _not(lm: LinearModel, term: Term) -> Lit | Expr:
    """1 - e for a 0/1 expression (a literal when possible)."""
    e = Expr.of(term)
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms)).Not()
    return 1 - e


def _as_bool(lm: LinearModel, name: str, term: Term) -> Var | Expr:
    """A 0/1 expression as a variable (or a constant / the variable itself)."""
    e = Expr.of(term)
    if not e.terms:
        return e
    if len(e.terms) == 1 and e.const == 0 and next(iter(e.terms.values())) == 1:
        return next(iter(e.terms))
    b = lm.bool(name)
    lm.eq(b, e)
    return b


def _and_mixed(lm: LinearModel, name: str, parts: Iterable[Term]) -> Var | Expr:
    """AND of 0/1 items: variables, literals, constants or 0/1 expressions."""
    lits: list[Lit] = []
    for n, p in enumerate(parts):
        if isinstance(p, Var):
            lits.append(lit(p))
            continue
        if isinstance(p, Lit):
            lits.append(p)
            continue
        e = Expr.of(p)
        if not e.terms:
            if e.const == 0:
                return Expr()
            continue
        if len(e.terms) == 1 and e.const == 1 and next(iter(e.terms.values())) == -1:
            lits.append(next(iter(e.terms)).Not())
        else:
            b = _as_bool(lm, f"{name}#{n}", e)
            assert isinstance(b, Var), "e has terms, so its boolean is a variable"
            lits.append(lit(b))
    if not lits:
        return lm.const(1)
    return lm.and_(name, lits)


# --------------------------------------------------------------------------- read a plan back

def decode(pm: PlanModel, values: list[int]) -> list[Action]:
    """The engine actions of a solution (plays first in a slot, then its placement)."""
    puzzle, acts = pm.puzzle, pm.acts
    plan: list[Action] = []
    chosen_bump = rules_for(puzzle.edition).removal_is_chosen()
    for s in pm.slots:
        t = s.t
        if _val(pm.noop[t], values):
            continue
        if s.index == 0:
            plan += [Action(ActionKind.INCOME, resource=r) for (rr, r), v in pm.income.items()
                     if rr == s.round and _val(v, values)]
        for (tt, c), v in sorted(pm.play.items()):
            if tt == t and _val(v, values):
                plan.append(Action(ActionKind.PLAY_CARD, card=c))
        for (tt, r), v in pm.trade.items():
            if tt == t:
                plan += [Action(ActionKind.TRADE, resource=r)] * _val(v, values)
        i = next(i for i in range(len(acts)) if values[pm.x[t, i].index])
        a = acts[i]
        if a.spot is None:
            plan.append(Action(ActionKind.EXHAUST, resource=a.resource))
            continue
        card = a.card
        if a.spot.kind is SpotKind.CARD_ROW:
            card = next(c for (r, j, c), v in pm.at.items() if r == s.round and j == a.spot.slot and _val(v, values))
        bump = None
        if chosen_bump:
            for (tt, c, _A), v in pm.bump_own.items():
                if tt == t and _val(v, values):
                    bump = f"own:{c}"
            for (tt, d), v in pm.bump_opp.items():
                if tt == t and _val(v, values):
                    bump = d
        amount = _val(pm.amount[t], values) if a.spot.kind is SpotKind.FREE_RIBOSOME else None
        extra = any(_val(v, values) for (tt, _r), v in pm.extra.items() if tt == t)
        plan.append(Action(ActionKind.PLACE, spot=a.spot.id, grey=bool(_val(pm.grey[t], values)), card=card,
                           amount=amount, goal=a.goal, bump=bump, disk=a.disk, extra=extra))
    return plan


def hint_values(pm: PlanModel, plan: list[Action], consumed: set[int] | None = None) -> dict[Var, int]:
    """Decision-variable values that write ``plan`` into the model's slots, legal or not (an
    illegal plan makes the model infeasible once these values are fixed). Raises
    :class:`SolverError` when the plan does not fit the slots at all. ``consumed``, when given,
    makes ``plan`` a prefix: it receives the slots (``Slot.t``) the plan's actions use, and the
    slots after them are not written as empty."""
    puzzle = pm.puzzle
    per_round = {r: [s for s in pm.slots if s.round == r] for r in range(1, puzzle.rounds + 1)}
    pos = {r: 0 for r in per_round}
    out: dict[Var, int] = {}

    def setv(v: Var | Expr, val: int) -> None:
        if isinstance(v, Var):
            out[v] = val
        elif Expr.of(v).const != val:
            raise SolverError(f"hint: the plan needs {val} where the model has the constant {Expr.of(v).const}")

    for v in list(pm.x.values()) + list(pm.play.values()) + list(pm.extra.values()) \
            + list(pm.trade.values()) + list(pm.income.values()):
        if consumed is None or isinstance(v, Var):   # a prefix leaves later slots' constants alone
            setv(v, 0)
    traded: dict[tuple[int, Resource], int] = {}
    carries_other: dict[str, bool] = {}   # disk -> its Golgi placement took another card's cube
    normals = 0
    for action in plan:
        r = normals // puzzle.flasks + 1
        if r > puzzle.rounds or pos[r] >= len(per_round[r]):
            raise SolverError(f"hint: {action} does not fit in the model's slots")
        s = per_round[r][pos[r]]
        if action.kind is ActionKind.INCOME:
            if (r, action.resource) not in pm.income or pos[r]:
                raise SolverError(f"hint: no model variable for {action} at this point")
            assert action.resource is not None, "a key of pm.income"
            setv(pm.income[r, action.resource], 1)
            continue
        if action.kind is ActionKind.TRADE:
            if (s.t, action.resource) not in pm.trade:
                raise SolverError(f"hint: no model variable for {action}")
            assert action.resource is not None, "a key of pm.trade"
            traded[s.t, action.resource] = traded.get((s.t, action.resource), 0) + 1
            setv(pm.trade[s.t, action.resource], traded[s.t, action.resource])
            continue
        if action.kind is ActionKind.PEEK:
            raise SolverError(f"hint: the model has no deck reordering for {action}")
        if action.kind is ActionKind.PLAY_CARD:
            if (s.t, action.card) not in pm.play:
                raise SolverError(f"hint: no model variable to play {action.card}")
            assert action.card is not None, "a key of pm.play"
            setv(pm.play[s.t, action.card], 1)
            continue
        for i, a in enumerate(pm.acts):
            if action.kind is ActionKind.EXHAUST:
                match = a.spot is None and a.resource is action.resource
            else:
                match = (a.spot is not None and a.spot.id == action.spot and a.goal == action.goal
                         and a.disk == action.disk
                         and (a.card == action.card or a.spot.kind is SpotKind.CARD_ROW)
                         and a.other_cube == (a.spot.kind is SpotKind.EXOCYTOSIS
                                              and carries_other.get(a.disk_card or "", False)))
            if match:
                if a.spot is not None and a.spot.kind is SpotKind.GOLGI and a.disk_card is not None:
                    carries_other[a.disk_card] = a.disk is not None
                setv(pm.x[s.t, i], 1)
                break
        else:
            raise SolverError(f"hint: no model action for {action}")
        setv(pm.grey[s.t], int(action.grey))
        setv(pm.noop[s.t], 0)
        if action.extra:
            assert action.spot is not None, "extra is a placement's (why_illegal)"
            spot = puzzle.board.spot(action.spot)
            key = (s.t, epigenetic.extra_resource(spot))
            if key not in pm.extra:
                raise SolverError(f"hint: no model variable for the extra cube of {action}")
            setv(pm.extra[key], 1)
        if action.kind is ActionKind.PLACE and action.amount is None and action.spot is not None and \
                puzzle.board.spot(action.spot).kind is SpotKind.FREE_RIBOSOME:
            raise SolverError(f"hint: {action} names no amount of mRNA")
        if s.t in pm.amount:
            setv(pm.amount[s.t], action.amount or 0)
        elif action.amount is not None:
            raise SolverError(f"hint: {action} has an amount the model cannot hold")
        pos[r] += 1
        if not action.grey:
            normals += 1
    if consumed is not None:    # a prefix: the slots after it stay free
        consumed.update(s.t for r, rs in per_round.items() for s in rs[:pos[r]])
        return out
    for r, rs in per_round.items():
        for s in rs[pos[r]:]:
            setv(pm.noop[s.t], 1)
            setv(pm.grey[s.t], 0)
    return out


def prefix_values(pm: PlanModel, prefix: list[Action]) -> dict[Var, int]:
    """The decision-variable values that ``prefix`` (a legal start of a plan ending with a flask
    placement or an exhausted flask, so on a slot boundary) writes into the slots it uses; every
    later slot, and the income of every round it has not reached, are left free. Fixing them gives
    the model of "the best plan starting with ``prefix``". Raises :class:`SolverError` when the
    prefix does not end on a slot boundary or does not fit the model."""
    if not prefix or not prefix[-1].kind.ends_turn:
        raise SolverError("prefix: expected a start of a plan ending with a flask placement")
    used: set[int] = set()
    full = hint_values(pm, prefix, consumed=used)
    rounds = {s.round for s in pm.slots if s.t in used}

    def owned(key: object, by_round: bool = False) -> bool:
        head = key[0] if isinstance(key, tuple) else key
        return head in rounds if by_round else head in used

    keep: set[Var] = set()
    for table in (pm.x, pm.grey, pm.noop, pm.amount, pm.play, pm.extra, pm.trade):
        keep.update(v for k, v in table.items() if owned(k) and isinstance(v, Var))
    keep.update(v for k, v in pm.income.items() if owned(k, by_round=True) and isinstance(v, Var))
    return {v: value for v, value in full.items() if v in keep}


# --------------------------------------------------------------------------- solve

@dataclass
class PlannerResult:
    """What one engine answers on the abstract model (before the rules engine replays it)."""

    status: str
    """``optimal`` (proven), ``feasible`` (a plan, not proven), ``infeasible``, ``unknown`` (no plan in time)."""
    plan: list[Action]
    objective: int | None
    bound: int | None
    wall_time: float
    engine: str
    stats: dict[str, int] = field(default_factory=dict)


Progress = Callable[[int | None, int, float], None]
"""``progress(objective, bound, seconds)``: an improving plan's objective (None: a better bound only)."""

TWO_WORKERS = ("max_lp", "quick_restart")
"""The two full subsolvers of a 2-worker run (``/work/shared/notes/cp-sat-planning.md``)."""
TWO_WORKERS_MARKET = ("max_lp", "pseudo_costs")
"""The pair measured best on puzzles with a deck (``python -m solver bench --deck``)."""


def subsolvers_for(puzzle: Puzzle) -> tuple[str, ...]:
    """The full subsolvers of a multi-worker run on ``puzzle``: the market pair with a deck."""
    return TWO_WORKERS_MARKET if puzzle.deck else TWO_WORKERS


def cpsat_parameters(workers: int = 1, seed: int = 0, time_limit: float | None = None,
                     deterministic_time: float | None = None,
                     subsolvers: tuple[str, ...] = TWO_WORKERS) -> cp_model.CpSolver:
    """The measured settings (``/work/shared/notes/cp-sat-planning.md``); ``subsolvers``: the full
    subsolvers of a multi-worker run."""
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.random_seed = seed
    p.num_workers = workers
    if workers == 1:
        p.linearization_level = 2
    else:
        p.num_full_subsolvers = workers
        p.subsolvers.extend(subsolvers[:workers])
    p.presolve_inclusion_work_limit = 0        # ortools #5293 workaround
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    if deterministic_time is not None:
        p.max_deterministic_time = deterministic_time
    return solver


def solve_cpsat(pm: PlanModel, *, workers: int = 1, seed: int = 0, time_limit: float | None = None,
                deterministic_time: float | None = None, progress: Progress | None = None,
                hint: list[Action] | None = None,
                fix_hint: bool = False, subsolvers: tuple[str, ...] = TWO_WORKERS,
                fixed: dict[Var, int] | None = None) -> PlannerResult:
    """Run CP-SAT on ``pm``. ``progress(objective, bound, seconds)`` is called on each improving
    plan and each better bound. ``hint``: a plan to start from (``fix_hint``: the only plan
    allowed); ``fixed``: variable values to hold (:func:`prefix_values`), the rest free."""
    from ortools.sat.python import cp_model
    lm = pm.lm
    if fixed is not None:
        lm.hints, fix_hint = dict(fixed), True
    else:
        lm.hints = hint_values(pm, hint) if hint is not None else {}
    cp, xs = to_cpsat_model(lm)
    solver = cpsat_parameters(workers, seed, time_limit, deterministic_time, subsolvers)
    if fix_hint:
        solver.parameters.fix_variables_to_their_hinted_value = True
    start = time.perf_counter()
    if progress is not None:
        report = progress   # narrowed to a callable, for the callbacks below
        solver.best_bound_callback = lambda b: report(None, int(round(b)), time.perf_counter() - start)

        class _CB(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                report(int(round(self.objective_value)), int(round(self.best_objective_bound)),
                         time.perf_counter() - start)
        status = solver.solve(cp, _CB())
    else:
        status = solver.solve(cp)
    wall = time.perf_counter() - start
    stats = {"branches": solver.num_branches, "conflicts": solver.num_conflicts,
             "variables": len(lm.vars), "constraints": len(lm.constraints)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [int(solver.value(v)) for v in xs]
        return PlannerResult("optimal" if status == cp_model.OPTIMAL else "feasible", decode(pm, values),
                             int(round(solver.objective_value)), int(round(solver.best_objective_bound)),
                             wall, "cpsat", stats)
    if status == cp_model.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, "cpsat", stats)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT: invalid model: {cp.validate()}")
    return PlannerResult("unknown", [], None, None, wall, "cpsat", stats)


def to_cpsat_model(lm: LinearModel) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    from .linear import to_cpsat
    return to_cpsat(lm)


MIP_BACKENDS = {"highs": "HIGHS", "scip": "SCIP"}
"""The MIP solvers the abstract model can go to (both shipped in the OR-Tools wheel)."""


def solve_highs(pm: PlanModel, *, time_limit: float | None = None) -> PlannerResult:
    """Solve the same abstract model as a MIP with HiGHS."""
    return solve_mip(pm, "highs", time_limit=time_limit)


def solve_mip(pm: PlanModel, engine: str = "highs", *, time_limit: float | None = None) -> PlannerResult:
    """Solve the abstract model as a MIP with ``engine`` (:data:`MIP_BACKENDS`), one thread."""
    from ortools.linear_solver import pywraplp
    from .linear import to_mip
    mip, xs = to_mip(pm.lm, MIP_BACKENDS[engine])
    if engine == "highs":
        mip.SetSolverSpecificParametersAsString("output_flag=false\nlog_to_console=false\n")  # no banner on stdout
    mip.SetNumThreads(1)
    if time_limit is not None:
        mip.SetTimeLimit(int(time_limit * 1000))
    start = time.perf_counter()
    status = mip.Solve()
    wall = time.perf_counter() - start
    if status == pywraplp.Solver.OPTIMAL:
        values = [int(round(v.solution_value())) for v in xs]
        obj = int(round(mip.Objective().Value()))
        return PlannerResult("optimal", decode(pm, values), obj, obj, wall, engine)
    if status == pywraplp.Solver.INFEASIBLE:
        return PlannerResult("infeasible", [], None, None, wall, engine)
    if status == pywraplp.Solver.FEASIBLE:
        values = [int(round(v.solution_value())) for v in xs]
        return PlannerResult("feasible", decode(pm, values), int(round(mip.Objective().Value())),
                             int(math.floor(mip.Objective().BestBound() + 1e-6)), wall, engine)
    return PlannerResult("unknown", [], None, None, wall, engine)


# --------------------------------------------------------------------------- why no plan

def explain_infeasible(puzzle: Puzzle, time_limit: float = 10.0) -> str | None:
    """Why no complete legal sequence exists, when it can be told: the first round that cannot be
    played with all its flasks, and what blocks it (gameplay.phase-1)."""
    import dataclasses
    for k in range(1, puzzle.rounds + 1):
        prefix = dataclasses.replace(puzzle, rounds=k)
        res = solve_cpsat(build_model(prefix), time_limit=time_limit)
        if res.status == "unknown":
            return None
        if res.status != "infeasible":
            continue
        occ = set(puzzle.occupied[k - 1]) if k - 1 < len(puzzle.occupied) else set()
        free = [sp.id for sp in puzzle.board.spots if sp.id not in occ]
        rules = rules_for(puzzle.edition)
        why = (f"no legal sequence: round {k} cannot be played with all {puzzle.flasks} flask(s) "
               f"({len(free)} spot(s) free")
        if not rules.exhaust_allowed():
            why += "; exhausting a flask is a 2e rule, not available in 1e"
        why += "; every other placement needs resources or cards the plan cannot have by then)"
        return why
    return None
