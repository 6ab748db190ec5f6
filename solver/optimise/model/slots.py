"""The constraint families of the slot grid: the actions a slot can hold, the static bounds, the
decision and state variables, one action per slot, spot and area limits, and the orderings that
remove equivalent plans.
"""
from __future__ import annotations


from solver.encoding.acts import Act
from solver.encoding.linear import Expr, Var, total
from solver.game.engine import (
    DETOX_HEALTH,
    EXHAUST_RESOURCES,
    FIRST_GOAL_MARKER_BONUS,
    MAX_MARKERS_PER_GOAL,
    RECEPTOR_OTHER_BONUS,
    RECEPTOR_OWN_BONUS,
    disk_may_complete,
)
from solver.game.model import (
    Area,
    CardType,
    EventKind,
    Resource,
    Spot,
    SpotKind,
    Stock,
    VesicleArea,
    event_kind,
)
from solver.game.rules import epigenetic, free_ribosome, golgi
from solver.optimise.model.context import BuildContext, spot_kind
from solver.optimise.model.market import add_market_windows
from solver.optimise.model.plan_model import RES


def add_actions(m: BuildContext) -> None:
    """Every action a slot can hold: a placement on each spot, with the card or goal it concerns
    (a row card bought by its slot, a card's disk on its route, a goal marked), and exhausting a
    flask where the edition allows it."""
    puzzle, cards, routes, vesicle, other_cube = m.puzzle, m.cards, m.routes, m.vesicle, m.other_cube
    acts = m.acts
    for spot in puzzle.board.spots:
        k = spot.kind
        if k in (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.GLUCOSE,
                 SpotKind.MITOCHONDRIA_CARB, SpotKind.FREE_RIBOSOME, SpotKind.CARD_ROW):
            if k is SpotKind.CARD_ROW and not m.queue and not m.comeback:
                continue
            acts.append(Act(spot))
        elif k is SpotKind.LAUREATES:
            acts.append(Act(spot))
            acts += [Act(spot, goal=g.id) for g in puzzle.goals if g.markers < MAX_MARKERS_PER_GOAL
                     and puzzle.goal_markers > 0]
        elif k is SpotKind.DETOX_STEROID:
            acts += [Act(spot, card=c) for c in m.reach if m.ctype[c] is CardType.DETOX
                     or (c in routes and routes[c].er is VesicleArea.SMOOTH_ER)]
        elif k is SpotKind.ROUGH_ER:
            acts += [Act(spot, card=c) for c in vesicle if routes[c].er is VesicleArea.ROUGH_ER]
        elif k is SpotKind.GOLGI:
            acts += [Act(spot, card=c) for c in vesicle]
            # the cube of another card now aimed at (spots.golgi, solver.game.rules.golgi)
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
            acts += [Act(spot, card=c) for c in m.enzymes]
    if m.rules.exhaust_allowed():
        acts += [Act(resource=r) for r in EXHAUST_RESOURCES]


def set_static_bounds(m: BuildContext) -> None:
    """Upper bounds of the stock (per slot with ``Options.tight_bounds``) and of Health, from what
    the actions, cards, boosts and Epigenetic card can give at most (for the variables' bounds)."""
    puzzle, s0, cards, slots = m.puzzle, m.s0, m.cards, m.slots
    R, F, G, T = m.rounds, m.flasks, m.grey_slots, m.end
    per_slot_gain = {r: 0 for r in RES}
    for a in m.acts:
        if a.spot is not None:
            for r in RES:
                per_slot_gain[r] = max(per_slot_gain[r], a.spot.gain.get(r))
        else:
            assert a.resource is not None, "an act without a spot is an exhausted flask"
            per_slot_gain[a.resource] = max(per_slot_gain[a.resource], 1)

    m.boosts = sorted({e for e in puzzle.events if e and event_kind(e) is EventKind.BOOST} | {e for e, _ in s0.boosts})
    boost_total = {r: sum(1 for e in puzzle.events if e and event_kind(e) is EventKind.BOOST
                          and m.boost_of(e).resource is r) for r in RES}
    play_total = {r: sum(cards[c].gain.get(r) * (1 + sum(1 for _, d, _ in m.comeback if d == c)) for c in m.macro_cards)
                  for r in RES}
    load_total = {r: sum(cards[c].cost.get(r) for c in m.vesicle if r is not Resource.ATP) for r in RES}
    row_bonus = 1 if any(e == "reduce-atp-cost" for e in puzzle.events) else 0
    # before slot t: at most ``i`` placements of its round (i = its position) of which at most G
    # grey, each grey one netting its gain less the 4 ATP it costs; F + G in each earlier round
    # the Epigenetic card extra-resource: one more cube on numbered spots (epigenetic.extra-resource)
    m.extra_res = sorted({epigenetic.extra_resource(a.spot) for a in m.acts
                          if a.spot is not None and epigenetic.extra_allowed(puzzle, a.spot)}, key=RES.index)
    for r in m.extra_res:
        per_slot_gain[r] += 1
    grey_gain = {r: max(0, per_slot_gain[r] - (m.grey_cost if r is Resource.ATP else 0)) for r in RES}

    def gain_before(r: Resource, t: int) -> int:
        if t == T:
            return R * (F * per_slot_gain[r] + G * grey_gain[r])
        s = slots[t]
        rounds_before = (s.round - 1) * (F * per_slot_gain[r] + G * grey_gain[r])
        return rounds_before + min(s.index, F) * per_slot_gain[r] + max(0, s.index - F) * grey_gain[r]

    ub_stock = m.ub_stock
    m.income_res = epigenetic.INCOME_RESOURCES if puzzle.epigenetic is epigenetic.EpigeneticCard.ROUND_INCOME else ()
    for r in RES:
        extra = boost_total[r] + play_total[r] + load_total[r] + (row_bonus * R if r is Resource.ATP else 0)
        ub_stock[r] = [s0.stock.get(r) + extra + gain_before(r, t) + (slots[min(t, T - 1)].round if r in m.income_res else 0)
                       for t in range(T + 1)]
    m.trading = puzzle.epigenetic is epigenetic.EpigeneticCard.ATP_EXCHANGE
    if m.trading:   # ATP traded for cubes (epigenetic.atp-exchange)
        for r, price in epigenetic.TRADE_PRICES.items():
            ub_stock[r] = [ub_stock[r][t] + ub_stock[Resource.ATP][t] // price for t in range(T + 1)]
    m.mrna_ub = ub_stock[Resource.MRNA][T]
    ub_stock[Resource.PROTEIN] = [ub_stock[Resource.PROTEIN][t] + m.mrna_ub for t in range(T + 1)]
    if not m.opt.tight_bounds:
        for r in RES:
            ub_stock[r] = [ub_stock[r][T]] * (T + 1)
    m.h_ub = (puzzle.health + sum(max(cards[c].health, DETOX_HEALTH if m.ctype[c] is CardType.DETOX else 0) for c in m.reach)
              + FIRST_GOAL_MARKER_BONUS * len(puzzle.goals)
              + RECEPTOR_OWN_BONUS * len(m.vesicle) * len(m.receptors)
              + RECEPTOR_OTHER_BONUS * sum(len(h) for h in puzzle.opponent_hormones) * len(m.receptors))


def add_decision_variables(m: BuildContext) -> None:
    """Per slot: which action (``x``), a grey flask or nothing (``grey``, ``noop``, with grey
    flasks only), the Macromolecule cards played, the Free Ribosome's amount, the Epigenetic
    extra cube; row and deck cards' actions ruled out before they can arrive (:func:`add_market_windows`)."""
    lm, pm, G = m.lm, m.pm, m.grey_slots
    for s in m.slots:
        for i, a in enumerate(m.acts):
            pm.x[s.t, i] = lm.bool(f"x[{s.tag},{a.label}]")
        pm.grey[s.t] = lm.bool(f"grey[{s.tag}]") if G else lm.const(0)
        pm.noop[s.t] = lm.bool(f"noop[{s.tag}]") if G else lm.const(0)
        for c in m.macro_cards:
            pm.play[s.t, c] = lm.bool(f"play[{s.tag},{c}]")
    if m.arrival:
        add_market_windows(lm, pm, m.arrival, m.per_round)
    m.free_ribosome = [i for i, a in enumerate(m.acts) if spot_kind(a) is SpotKind.FREE_RIBOSOME]
    for s in m.slots:
        if m.free_ribosome:
            pm.amount[s.t] = lm.int(f"amount[{s.tag}]", 0, max(0, m.mrna_ub))
        for r in m.extra_res:
            pm.extra[s.t, r] = lm.bool(f"extra[{s.tag},{r.value}]")


def add_state_variables(m: BuildContext) -> None:
    """The state at the start of each slot and at the end (index ``T``): stock, Health, cards in
    hand and completed, own disks in the ER and the Golgi, other players' disks, boosts waiting;
    at ``t = 0`` the puzzle's initial state as constants."""
    lm, s0, tag, T = m.lm, m.s0, m.tag, m.end
    m.stock.update({(t, r): lm.int(f"stock[{tag(t)},{r.value}]", 0, m.ub_stock[r][t]) for t in range(1, T + 1) for r in RES})
    for r in RES:
        m.stock[0, r] = lm.const(s0.stock.get(r))
    m.health.update({t: lm.int(f"health[{tag(t)}]", m.puzzle.health, m.h_ub) for t in range(1, T + 1)})
    m.health[0] = lm.const(s0.health)

    def state_bool(name: str, t: int, init: int) -> Var | Expr:
        return lm.const(init) if t == 0 else lm.bool(f"{name}[{tag(t)}]")

    m.hand.update({(t, c): state_bool(f"hand[{c}]", t, int(c in s0.hand)) for t in range(T + 1) for c in m.reach})
    m.done.update({(t, c): state_bool(f"done[{c}]", t, 0) for t in range(T + 1) for c in m.reach
                   if m.ctype[c].is_completable})
    m.er.update({(t, c): state_bool(f"er[{c}]", t, 0) for t in range(T + 1) for c in m.vesicle})
    m.go.update({(t, c): state_bool(f"golgi[{c}]", t, 0) for t in range(T + 1) for c in m.vesicle})
    m.gx.update({(t, c): state_bool(f"golgi_other_cube[{c}]", t, 0) for t in range(T + 1) for c in m.other_cube})
    m.in_golgi.update({(t, c): Expr.of(m.go[t, c]) + m.gx[t, c] if c in m.other_cube else m.go[t, c]
                       for t in range(T + 1) for c in m.vesicle})
    m.opp.update({(t, d.id): state_bool(f"opp_disk[{d.id}]", t, 1) for t in range(T + 1) for d in s0.opp_disks})
    m.pend_ub.update({e: len(m.puzzle.events) for e in m.boosts})
    m.pend.update({(t, e): (lm.const(dict(s0.boosts).get(e, Stock()).get(m.boost_of(e).resource)) if t == 0
                            else lm.int(f"boost[{tag(t)},{e}]", 0, m.pend_ub[e])) for t in range(T + 1) for e in m.boosts})


def add_one_action_per_slot(m: BuildContext) -> None:
    """Each slot holds one action or nothing; F normal flasks a round, empty slots last; grey
    flasks (at most the puzzle's a round, each before a normal flask, never in the last slot) and
    exhausting (never with a grey flask) (gameplay.phase-1, gameplay.grey-flasks, gameplay.exhaust-flask)."""
    lm, puzzle, x, acts, grey, noop = m.lm, m.puzzle, m.x, m.acts, m.pm.grey, m.pm.noop
    X = m.X
    lm.section("gameplay.phase-1")
    for s in m.slots:
        t = s.t
        lm.eq(total(x[t, i] for i in range(len(acts))) + noop[t], 1)
        if m.free_ribosome:
            xfr = X(t, lambda a: spot_kind(a) is SpotKind.FREE_RIBOSOME)
            free_ribosome.encode_amount(lm, puzzle, m.pm.amount[t], xfr, m.mrna_ub)
            lm.section("gameplay.phase-1")
    for r, rs in m.by_round.items():
        lm.eq(total(1 - Expr.of(noop[s.t]) - Expr.of(grey[s.t]) for s in rs), m.flasks)
        for a, b in zip(rs, rs[1:]):
            lm.le(noop[a.t], noop[b.t])
    lm.section("gameplay.grey-flasks")
    exhaust_after_grey = m.rules.exhaust_after_grey(puzzle.readings())
    if m.grey_slots:
        for r, rs in m.by_round.items():
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
    for s in m.slots:
        for i, a in enumerate(acts):
            if a.spot is None:
                lm.le(x[s.t, i], 1 - Expr.of(grey[s.t]))


def add_spot_limits(m: BuildContext) -> None:
    """A free spot takes one normal flask a round, an occupied spot none; a grey flask goes on any
    spot, but no normal flask follows it there that round (gameplay.phase-1)."""
    lm, board, G = m.lm, m.puzzle.board, m.grey_slots
    lm.section("gameplay.phase-1")
    spot_use, grey_at = m.spot_use, m.grey_at
    for s in m.slots:
        for spot in board.spots:
            spot_use[s.t, spot.id] = m.X(s.t, lambda a, sid=spot.id: a.spot is not None and a.spot.id == sid)
    if G:
        for s in m.slots:
            here = []
            for spot in board.spots:
                if spot_use[s.t, spot.id].terms:
                    g = lm.bool(f"grey_on[{s.tag},{spot.id}]")
                    lm.le(g, spot_use[s.t, spot.id])
                    grey_at[s.t, spot.id] = g
                    here.append(g)
            lm.eq(total(here), m.pm.grey[s.t])

    for r, rs in m.by_round.items():
        occ = set(m.occupied(r))
        for spot in board.spots:
            if not spot_use[rs[0].t, spot.id].terms:
                continue
            # one normal flask per free spot per round; a grey flask goes on any spot
            lm.le(total(m.normal_at(s.t, spot.id) for s in rs), 0 if spot.id in occ else 1)
            for k, s in enumerate(rs):
                if k and spot.id not in occ and G:
                    lm.le(m.normal_at(s.t, spot.id) + total(grey_at[p.t, spot.id] for p in rs[:k]), 1)


def add_area_limits(m: BuildContext) -> None:
    """1e two-player game: an area takes a limited number of flasks a round, other players'
    included, the player's grey flasks too unless the ruling grey-flask-area-limit reads exempt
    (two-player.gameplay)."""
    lm, board, rules, puzzle = m.lm, m.puzzle.board, m.rules, m.puzzle
    lm.section("two-player.gameplay")
    for r, rs in m.by_round.items():
        occ = m.occupied(r)
        areas = {sp.area for sp in board.spots}
        for area in areas:
            limit = rules.area_limit(area, puzzle.players)
            if limit is None:
                continue
            occ_n = sum(1 for sid in occ if board.spot(sid).area is area)
            room = limit - 1 - occ_n
            area_spots = [sp.id for sp in board.spots if sp.area is area]
            normals = {s.t: total(m.normal_at(s.t, sid) for sid in area_spots) for s in rs}
            lm.le(total(normals.values()), max(0, room + 1))
            # the player's grey flasks count unless the ruling grey-flask-area-limit reads exempt
            grey_counts = rules.grey_flasks_count_for_area_limit(puzzle.readings())
            for k, s in enumerate(rs):
                if k and room >= 0 and normals[s.t].terms:
                    prev = total((m.spot_use[p.t, sid] if grey_counts else m.normal_at(p.t, sid))
                                 for p in rs[:k] for sid in area_spots)
                    lm.le(prev, room + k * (1 - normals[s.t]))


def add_identical_spot_order(m: BuildContext) -> None:
    """Symmetry breaking (``Options.symmetry``, with grey flasks only): of two identical free spots,
    the one earlier on the board holds at least as many flasks in a round (gameplay.phase-1).

    Measured (CP-SAT deterministic seconds, mean over seeds): with a grey flask a round it speeds
    the proof (scale 12: 3.7 -> 2.3, scale 16: 36.5 -> 22.7); without grey flasks, where the
    ordering of pure gains (:func:`add_commuting_order`) is on, it slows it (scale 16: 13.0 -> 20.8,
    scale 24: 9.0 -> 18.9)."""
    if not (m.opt.symmetry and m.grey_slots):
        return
    lm = m.lm
    lm.section("gameplay.phase-1")  # symmetry breaking: identical free spots are used in order
    groups: dict[tuple[SpotKind, Area, int], list[Spot]] = {}
    for spot in m.puzzle.board.spots:
        if spot.kind is not SpotKind.CARD_ROW:
            groups.setdefault((spot.kind, spot.area, spot.value), []).append(spot)
    for r, rs in m.by_round.items():
        occ = set(m.occupied(r))
        for group in groups.values():
            free = [sp for sp in group if sp.id not in occ]
            for a, b in zip(free, free[1:]):
                # relabelling two identical free spots for a round is a symmetry: the one
                # earlier on the board holds at least as many flasks (grey ones included)
                ua = total(m.spot_use[s.t, a.id] for s in rs)
                ub_ = total(m.spot_use[s.t, b.id] for s in rs)
                lm.le(ub_, ua)


def add_commuting_order(m: BuildContext) -> None:
    """Symmetry breaking (``Options.ordering``, without grey flasks: measured, with them it slows
    the proof, bench --ablation): commuting placements in one order (gameplay.phase-1).

    A pure gain P (no cost, no card, no Health, legal whenever its spot is free) placed by a
    normal flask right after a normal flask's action Q of the same round can swap with it:
    P stays legal (its spot and area do not depend on Q), Q stays legal (its preconditions
    are monotone in the stock and P only adds to it; P changes no card, disk, row or Health)
    and the state after both is the same (a boost claim moves from one to the other, the
    sum is unchanged). Not when a card is played between them (Q may have bought it, and a
    card is played before a slot's flask). So a pure gain never follows an action of higher
    rank in the next slot with no card played in between. Rank: the index among pure
    gains; every other action ranks last."""
    if not (m.opt.ordering and not m.grey_slots):
        return
    lm, x, acts = m.lm, m.x, m.acts
    lm.section("gameplay.phase-1")  # symmetry breaking: commuting placements in one order
    pure = [i for i, a in enumerate(acts) if a.spot is None or (a.goal is None and spot_kind(a) in (
        SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.LAUREATES))]
    rank = {i: n for n, i in enumerate(pure)}
    for r, rs in m.by_round.items():
        for a, b in zip(rs, rs[1:]):
            for j in pure:
                higher = total(x[a.t, i] for i in range(len(acts)) if rank.get(i, len(pure)) > rank[j])
                lm.le(Expr.of(x[b.t, j]) + higher, 1 + total(m.pm.play[b.t, c] for c in m.macro_cards))
