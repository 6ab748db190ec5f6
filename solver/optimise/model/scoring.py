"""The end-of-game scoring family: macromolecule sets, Detox points, enzyme sets and goal markers
added to Health as the objective.
"""
from __future__ import annotations


from solver.encoding.linear import Expr, total
from solver.game.engine import ENZYME_SET_POINTS, MACROMOLECULE_SET, detox_points
from solver.game.model import Resource
from solver.game.rules import epigenetic, macromolecule_cards
from solver.optimise.model.context import BuildContext
from solver.optimise.model.plan_model import RES
from solver.optimise.model.terms import and_mixed, as_bool


def add_final_scoring(m: BuildContext) -> None:
    """The objective: Health at the end, plus macromolecule sets, detox points, enzyme sets and
    goals (scoring.final); each part kept in ``pm.objective_parts``."""
    lm, pm, health, T = m.lm, m.pm, m.health, m.end
    lm.section("scoring.macromolecules")
    final = _final_stock(m)
    lm.section("scoring.macromolecules")
    sets = pm.objective_parts["macromolecules"] = _macromolecule_sets(m, final)
    lm.section("scoring.detox")
    detox_pts = pm.objective_parts["detox"] = _detox_points(m)
    lm.section("scoring.enzyme-sets")
    enzyme_pts = pm.objective_parts["enzyme_sets"] = _enzyme_set_points(m)
    lm.section("scoring.goals")
    goal_pts = pm.objective_parts["goals"] = _goal_points(m)
    pm.objective_parts["in_game"] = Expr.of(health[T])

    lm.section("scoring.final")
    lm.maximize(Expr.of(health[T]) + sets + detox_pts + enzyme_pts + goal_pts)


def _final_stock(m: BuildContext) -> dict[Resource, Expr]:
    """The cubes that score at the end: the stock, the cubes on own disks still on the board,
    held Macromolecule cards played in the last turn, the last turn's Epigenetic trades."""
    lm, pm, puzzle, T, cards = m.lm, m.pm, m.puzzle, m.end, m.cards
    final = {r: Expr.of(m.stock[T, r]) for r in RES}
    for c in m.vesicle:
        route = m.routes[c]
        need = cards[c].cost.get(route.er_resource)
        final[route.er_resource] = final[route.er_resource] + (Expr.of(m.er[T, c]) + m.in_golgi[T, c]) * need
        final[route.golgi_resource] = final[route.golgi_resource] + m.go[T, c]
        if c in m.other_cube:
            final[m.other_cube[c]] = final[m.other_cube[c]] + m.gx[T, c]
    # held Macromolecule cards are played in the last turn (engine: _play_held_cards)
    macromolecule_cards.encode_held_at_the_end(lm, puzzle, final, {c: Expr.of(m.hand[T, c]) for c in m.macro_cards},
                                               [cards[c] for c in m.macro_cards])
    if m.trading and puzzle.flasks:   # the last turn's trades (engine: _trade_leftover_atp)
        for r, v in epigenetic.encode_trades(lm, "end", final, m.ub_stock[Resource.ATP][T]).items():
            pm.trade[T, r] = v
        lm.ge(final[Resource.ATP], 0)
    return final


def _macromolecule_sets(m: BuildContext, final: dict[Resource, Expr]) -> Expr:
    """Complete sets of each macromolecule's cubes (scoring.macromolecules)."""
    lm = m.lm
    sets = Expr()
    for name, size in MACROMOLECULE_SET.items():
        r = Resource(name)
        hi = final[r].bounds()[1]
        n = lm.int(f"sets[{name}]", 0, max(0, hi // size))
        lm.le(Expr.of(n) * size, final[r])
        lm.ge(Expr.of(n) * size + (size - 1), final[r])
        sets = sets + n
    return sets


def _detox_points(m: BuildContext) -> Expr:
    """Detox points from the ATP and number of detox cards completed, against the other players'
    (one-hot over every reachable pair) (scoring.detox)."""
    lm, puzzle, cards, done, T = m.lm, m.puzzle, m.cards, m.done, m.end
    detox_pts = Expr()
    if m.detox:
        pairs = {(0, 0)}
        for c in m.detox:
            lm.charge(len(pairs))    # quadratic in the detox cards before any variable (a bounded build stops here)
            pairs |= {(a + cards[c].cost.atp, k + 1) for a, k in pairs}
        others = [(o.amount, o.cards) for o in puzzle.detox_opponents]
        z = {p: lm.bool(f"detox_result[{p[0]}atp,{p[1]}cards]") for p in sorted(pairs)}
        lm.eq(total(z.values()), 1)
        lm.eq(total(z[p] * p[0] for p in z), total(done[T, c] * cards[c].cost.atp for c in m.detox))
        lm.eq(total(z[p] * p[1] for p in z), total(done[T, c] for c in m.detox))
        detox_pts = total(z[p] * detox_points(m.rules, puzzle.players, p, others, puzzle.readings()) for p in z)
    return detox_pts


def _enzyme_set_points(m: BuildContext) -> Expr:
    """Sets of enzyme cards of different colours, layer by layer (the n-th card of each colour
    in the n-th set) (scoring.enzyme-sets)."""
    lm, done, T = m.lm, m.done, m.end
    enzyme_pts = Expr()
    colours: dict[str, list[str]] = {}
    for c in m.enzymes:
        colours.setdefault(m.cards[c].color or c, []).append(c)
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
    return enzyme_pts


def _goal_points(m: BuildContext) -> Expr:
    """A goal scores when the player's marker is on it and enough cards of its types are done
    (scoring.goals)."""
    lm, done, T, ctype = m.lm, m.done, m.end, m.ctype
    goal_pts = Expr()
    for g in m.puzzle.goals:
        if not (m.mark.get(g.id) and m.mark[g.id].terms):
            continue
        met = lm.reify_ge(f"goal_met[{g.id}]", total(done[T, c] for c in m.reach
                                                    if ctype[c] in g.card_types and (T, c) in done), g.count)
        scored = and_mixed(lm, f"goal_scored[{g.id}]", [as_bool(lm, f"goal_marked[{g.id}]", m.mark[g.id]), met])
        goal_pts = goal_pts + Expr.of(scored) * g.points
    return goal_pts
