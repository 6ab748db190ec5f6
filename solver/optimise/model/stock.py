"""The constraint families of resources and Health: goal markers, boosts, the stock's transitions
with each action's costs and gains, and Health.
"""
from __future__ import annotations


from solver.encoding.linear import Expr, total
from solver.game.engine import (
    DETOX_HEALTH,
    FIRST_GOAL_MARKER_BONUS,
    RECEPTOR_OTHER_BONUS,
    RECEPTOR_OWN_BONUS,
    TOXICITY_STEPS,
    removed_cubes_return,
)
from solver.game.model import RECEPTOR_OF, CardType, Resource, SpotKind, Stock, VesicleArea
from solver.game.rules import epigenetic, free_ribosome
from solver.optimise.model.context import BuildContext, spot_kind
from solver.optimise.model.plan_model import MACRO, RES, Slot
from solver.optimise.model.terms import and_mixed


def add_goal_markers(m: BuildContext) -> None:
    """At most one marker of the player's per goal, at most the markers they hold
    (spots.laureates, cards.goals)."""
    lm = m.lm
    lm.section("cards.goals")
    for g in m.puzzle.goals:
        idx = [i for i, a in enumerate(m.acts) if a.goal == g.id]
        m.mark[g.id] = total(m.x[s.t, i] for s in m.slots for i in idx)
        lm.le(m.mark[g.id], 1)
    if m.mark:
        lm.le(total(m.mark.values()), m.puzzle.goal_markers)


def add_boosts(m: BuildContext) -> None:
    """Boosts waiting on the board: the first flask in one of the boost's areas collects all its
    cubes (``claim``); a boost event adds one at the end of the round before its round, and
    another player's flask in its areas the next round takes them all (events.boost,
    spots.event-resources)."""
    lm, puzzle, board, R, K = m.lm, m.puzzle, m.puzzle.board, m.rounds, m.per_round
    pend, claim = m.pend, m.claim
    lm.section("events.boost")
    for e in m.boosts:
        areas = m.boost_of(e).areas
        for s in m.slots:
            t = s.t
            inside = m.X(t, lambda a: a.spot is not None and a.spot.area in areas)
            if not inside.terms:
                claim[t, e] = lm.const(0)
            else:
                most = m.pend_ub[e]
                cl = lm.int(f"claim[{s.tag},{e}]", 0, most)
                lm.le(cl, pend[t, e])
                lm.le(cl, inside * most)
                lm.ge(cl, Expr.of(pend[t, e]) - (1 - inside) * most)
                claim[t, e] = cl
            nxt = Expr.of(pend[t, e]) - claim[t, e]
            last = s.index == K - 1
            if last and s.round < R:
                r2 = s.round + 1
                if puzzle.event_in(r2) == e:
                    nxt = nxt + 1
                if any(board.spot(sid).area in areas for sid in m.occupied(r2)):
                    nxt = Expr()
            lm.eq(pend[t + 1, e], nxt)


def add_stock(m: BuildContext) -> None:
    """The stock from one slot to the next: before the flask, held cards played, the Epigenetic
    round income and trades, boosts claimed and the grey flask's ATP; then the action is
    affordable, pays its cost and collects its gain (own disks removed from a full area give
    back their cubes); the round's last slot applies a toxicity event (gameplay.grey-flasks,
    gameplay.phase-1, events.toxicity)."""
    lm, puzzle, stock, R, K = m.lm, m.puzzle, m.stock, m.rounds, m.per_round
    for s in m.slots:
        t = s.t
        lm.section("gameplay.grey-flasks")
        pre = _stock_before_action(m, s)
        cost, gain = _action_costs_and_gains(m, s)
        lm.section("gameplay.phase-1")
        mid = {}
        for r in RES:
            lm.ge(pre[r] - cost[r], 0)            # the action is affordable
            mid[r] = pre[r] - cost[r] + gain[r]
        last = s.index == K - 1
        if last:   # cards played after the round's last placement, before Phase 2 (cards.macromolecule)
            for c in m.macro_cards:
                if (v := m.pm.play_after.get((s.round, c))) is not None:
                    for r in RES:
                        if m.cards[c].gain.get(r):
                            mid[r] = mid[r] + v * m.cards[c].gain.get(r)
        tox = last and s.round < R and puzzle.event_in(s.round + 1) == "toxicity"
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


def _stock_before_action(m: BuildContext, s: Slot) -> dict[Resource, Expr]:
    """The stock slot ``s``'s action pays from: held Macromolecule cards played, the round's
    Epigenetic income (first slot), ATP traded for cubes, boosts claimed, the grey flask's ATP
    (gameplay.grey-flasks)."""
    lm, pm, t, grey = m.lm, m.pm, s.t, m.pm.grey
    play_gain = {r: total(pm.play[t, c] * m.cards[c].gain.get(r) for c in m.macro_cards if m.cards[c].gain.get(r))
                 for r in RES}
    # before the slot's flask: held cards played, the round's income, ATP traded (Epigenetic cards)
    pre = {r: Expr.of(m.stock[t, r]) + play_gain[r] for r in RES}
    if m.income_res and s.index == 0:
        pm.income.update({(s.round, r): v for r, v in epigenetic.encode_income(lm, s.round, pre).items()})
    if m.trading:
        for r, v in epigenetic.encode_trades(lm, s.tag, pre, m.ub_stock[Resource.ATP][t]).items():
            pm.trade[t, r] = v
            lm.le(v, (1 - Expr.of(pm.noop[t])) * v.ub)
    lm.section("gameplay.grey-flasks")
    lm.ge(pre[Resource.ATP], grey[t] * m.grey_cost)
    for r in RES:
        pre[r] = pre[r] + total(m.claim[t, e] for e in m.boosts if m.boost_of(e).resource is r)
        if r is Resource.ATP:
            pre[r] = pre[r] - grey[t] * m.grey_cost
    return pre


def _action_costs_and_gains(m: BuildContext, s: Slot) -> tuple[dict[Resource, Expr], dict[Resource, Expr]]:
    """What slot ``s``'s action costs and gains, per resource: each spot's, a row card's price
    (less the reduce-atp-cost event's 1), a card's cost where it is completed, the disk's cubes
    on the ER and the Golgi, the Free Ribosome's trade, the Epigenetic extra cube; own disks
    removed from a full area give their cubes back unless the 1e ruling removed-disk-cubes reads
    to-supply (engine.removed_cubes_return)."""
    lm, puzzle, pm, t, cards, routes = m.lm, m.puzzle, m.pm, s.t, m.cards, m.routes
    x, acts = m.x, m.acts
    reduce = puzzle.event_in(s.round) == "reduce-atp-cost"
    cost: dict[Resource, Expr] = {r: Expr() for r in RES}
    gain: dict[Resource, Expr] = {r: Expr() for r in RES}
    for i, a in enumerate(acts):
        k = spot_kind(a)
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
        elif m.is_er(a):
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
    if m.free_ribosome:
        free_ribosome.encode_trade(cost, gain, pm.amount[t], Resource.MRNA, Resource.PROTEIN)
    if m.extra_res:
        epigenetic.encode_extra(lm, puzzle, acts, {i: x[t, i] for i in range(len(acts))},
                                {r: pm.extra[t, r] for r in m.extra_res}, cost, gain)
    # own disks removed from a full area come back with their cubes (spots.golgi; 1e ruling
    # removed-disk-cubes: to-supply, they do not: engine.removed_cubes_return)
    for c_ in (m.vesicle if removed_cubes_return(puzzle) else []):
        route = routes[c_]
        need = cards[c_].cost.get(route.er_resource)
        b_any = m.bump_c(t, c_)
        if b_any.terms:
            gain[route.er_resource] = gain[route.er_resource] + b_any * need
            b_other = m.bump_other.get((t, c_), Expr())
            gain[route.golgi_resource] = gain[route.golgi_resource] + m.bump_c(t, c_, VesicleArea.GOLGI) - b_other
            if c_ in m.other_cube:
                gain[m.other_cube[c_]] = gain[m.other_cube[c_]] + b_other
    return cost, gain


def add_health(m: BuildContext) -> None:
    """Health Points during play: completed cards' Health (a detox card's fixed amount), the
    receptor bonus for an own hormone completed with the receptor done, the first marker on a
    goal, and at the end of a round the receptor bonus for other players' hormones (cards.*,
    cards.receptors, cards.goals)."""
    lm, puzzle, x, ctype, done, receptors = m.lm, m.puzzle, m.x, m.ctype, m.done, m.receptors
    K = m.per_round
    for s in m.slots:
        t = s.t
        last = s.index == K - 1
        lm.section("cards.receptors")
        gained = Expr()
        for i, a in enumerate(m.acts):
            k = spot_kind(a)
            if a.card and (k in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM) or
                           (k is SpotKind.DETOX_STEROID and ctype[a.card] is CardType.DETOX)):
                hp = DETOX_HEALTH if ctype[a.card] is CardType.DETOX else m.cards[a.card].health
                gained = gained + x[t, i] * hp
                if k is SpotKind.EXOCYTOSIS and ctype[a.card] in RECEPTOR_OF:
                    for q in receptors:
                        if ctype[q] is RECEPTOR_OF[ctype[a.card]]:
                            gained = gained + Expr.of(and_mixed(lm, f"receptor_bonus[{s.tag},{a.card},{q}]",
                                                                 [x[t, i], done[t, q]])) * RECEPTOR_OWN_BONUS
            if a.goal is not None and puzzle.goals and next(g for g in puzzle.goals if g.id == a.goal).markers == 0:
                gained = gained + x[t, i] * FIRST_GOAL_MARKER_BONUS
        if last:
            for kind in (puzzle.opponent_hormones[s.round - 1] if s.round - 1 < len(puzzle.opponent_hormones) else ()):
                gained = gained + total(done[t + 1, q] for q in receptors if ctype[q] is RECEPTOR_OF[kind]) * RECEPTOR_OTHER_BONUS
        lm.eq(m.health[t + 1], Expr.of(m.health[t]) + gained)
