"""Resource-flow cuts on the planner's completions, and the objective cap they give (issue #35,
bounding idea "resource-flow cap"). The benchmarks measure them as methods
(:mod:`solver.benchmarks.bounds`); a whole game's recorded run (:func:`solver.io.offline.record`)
adds :func:`add_objective_cap` before CP-SAT, since at 44 placements CP-SAT's own bound starts far
above it and may not finish its root LP within the run.

The planner's time-indexed model (:func:`solver.optimise.planner.build_model`) states how each placement
changes the stock; its LP relaxation is exact for the totals of those flows but fractional in the
cards completed. The cuts here aggregate the whole game into a few rows over the end-of-game
completion booleans ``done[c][end]`` (one per completable card), which CP-SAT can strengthen
with integer reasoning (covers, rounding) that it does not derive from the per-slot rows, plus
the integer knapsack cap those rows imply for the Health of the completed cards.

Quantities (all computed from the puzzle and the model's actions, never from a solution):

- ``P`` placements: ``R * (F + G)`` flasks at most (F normal, G grey flasks a round).
- ``pipe(c)``: placements that completing card ``c`` uses and that gain no resource: one
  card-row purchase unless ``c`` starts in the hand (a card enters the hand only when bought),
  then ER + Golgi + Exocytosis for a hormone or receptor (one disk's whole cycle; an Exocytosis
  completes one card, so two completions never share a cycle), the Smooth ER detox spot for a
  detox card, the Cytoplasm for an enzyme. None of these actions gains a cube; a purchase gains at
  most ``row_bonus`` ATP (the reduce-ATP-cost event's free slot).
- ``need_g(c)``: cubes of group ``g`` that completing ``c`` spends. Groups: mRNA and protein
  together (a Rough ER pays proteins in mRNA; the Free Ribosome trades one for the other), carbs,
  lipids, all cubes. A disk's load is paid from the stock (ER cubes and the Golgi cube); its own
  card's load is its ER resource times the card's need plus one Golgi cube; another card it
  completes has its macromolecule cost covered by the load, component by component. So
  ``need_g(c) = min(own load in g, cost of c in g)``. A removed disk's cubes come back (1e) at
  most as many as it was paid, so removals add nothing to the balance. An enzyme pays its cost.
- ``need_atp(c)``: the ATP the completing placement costs (Exocytosis, detox spot, Cytoplasm: the
  card's ATP cost); purchases cost at least 0.
- ``gain_g``: the most of group ``g`` one other placement gains (spot gains, Laureates' ATP, one
  cube for an exhausted flask; the Free Ribosome's trade of mRNA for protein nets nothing within
  the mRNA+protein group).
- ``extra_g``: what arrives without a placement: the starting stock, every boost the puzzle can
  hand out (pending ones and one per boost event), every Macromolecule card's gain.

Cut for each group ``g`` (the ``resource-flow`` rows): every placement is either in some
completed card's pipeline (at least ``sum pipe(c) done_c`` of them, gaining at most
``bonus_g`` each) or another one (gaining at most ``gain_g``); the completed cards spent
``sum need_g(c) done_c`` which the stock must have held, so::

    sum_c (need_g(c) + (gain_g - bonus_g) * pipe(c)) * done_c  <=  extra_g + gain_g * P

and the plain count ``sum_c pipe(c) done_c <= P``. The same balance bounds what is left for the
end-game sets: the cubes of ``g`` in the stock at the end plus those on unfinished disks are at most
the row's slack (``rhs`` minus its left side).

:func:`objective_cap` turns the rows into an integer upper bound on the whole objective: a small
exact CP-SAT model over the completions alone (no time, no card row), scoring them as the
planner does (card Health, receptor bonuses counted for every matching pair, goal markers as
placements that gain nothing, detox points over the achievable (ATP, cards) pairs, enzyme sets,
macromolecule sets from the rows' slack). Every plan's completions satisfy that model's
constraints and score at most its objective, so its optimum caps the planner's objective; the
cap helps where CP-SAT has not yet solved the root LP of a long puzzle within its budget.

Not applied (no rows) with an Epigenetic
card (income, trades, extra cubes) or the Virus expansion, whose flows these bounds do not model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.game.editions import rules_for
from solver.game.engine import (
    DETOX_HEALTH, ENZYME_SET_POINTS, FIRST_GOAL_MARKER_BONUS, MACROMOLECULE_SET, MAX_MARKERS_PER_GOAL,
    RECEPTOR_OTHER_BONUS, RECEPTOR_OWN_BONUS, detox_points, initial_state,
)
from solver.encoding.linear import Expr, Var, total
from solver.game.model import RECEPTOR_OF, CardType, EventKind, Puzzle, Resource, SpotKind, event_kind

if TYPE_CHECKING:
    from solver.encoding.acts import Act
    from solver.optimise.model.plan_model import PlanModel
    from ortools.sat.python import cp_model

GROUPS: dict[str, tuple[Resource, ...]] = {
    "atp": (Resource.ATP,),
    "mrna+protein": (Resource.MRNA, Resource.PROTEIN),
    "carb": (Resource.CARB,),
    "lipid": (Resource.LIPID,),
    "cubes": (Resource.MRNA, Resource.PROTEIN, Resource.CARB, Resource.LIPID),
}
"""Resource groups with one resource-flow row each (a group is closed under every trade the
modelled rules allow: mRNA -> protein in the Rough ER and the Free Ribosome)."""

PIPELINE_KINDS = (SpotKind.ROUGH_ER, SpotKind.DETOX_STEROID, SpotKind.GOLGI, SpotKind.EXOCYTOSIS,
                  SpotKind.CYTOPLASM, SpotKind.CARD_ROW)


@dataclass(frozen=True)
class CardNeed:
    """What completing one card costs in placements and resources, and the Health it brings."""

    card: str
    placements: int
    need: dict[str, int]
    health: int


@dataclass(frozen=True)
class FlowRow:
    """``sum_c coef[c] * done_c <= rhs``, named after its group."""

    name: str
    coef: dict[str, int]
    rhs: int
    per_placement: int = 1
    """What each placement that gains nothing costs the row (its group's gain per other placement,
    less the purchase bonus): a goal marker's coefficient in :func:`objective_cap`."""
    extra: int = 0
    """What the group receives without a placement (starting stock, boosts, Macromolecule cards)."""
    bonus: int = 0
    """The most a pipeline placement gains of the group (a purchase's ATP on the free slot)."""


def applies(pm: PlanModel) -> bool:
    """The cuts model the flows of the base game with its modelled readings: not an Epigenetic
    card's income, trades and extra cubes, nor the Virus expansion."""
    return pm.puzzle.epigenetic is None and not pm.puzzle.uses_virus


def done_vars(pm: PlanModel) -> dict[str, Var]:
    """The end-of-game completion boolean of each completable card the model holds."""
    out = {}
    for v in pm.lm.vars:
        if v.name.startswith("done[") and v.name.endswith("][end]"):
            out[v.name[len("done["):-len("][end]")]] = v
    return out


def _in(group: str, stock_get: dict[Resource, int]) -> int:
    return sum(stock_get.get(r, 0) for r in GROUPS[group])


def card_needs(pm: PlanModel, cards: list[str]) -> list[CardNeed]:
    """:class:`CardNeed` of each card (see the module's docstring for why each figure is a floor)."""
    puzzle = pm.puzzle
    hand = set(initial_state(puzzle).hand)
    out = []
    for c in cards:
        card = puzzle.card(c)
        buy = 0 if c in hand else 1
        cost = {r: card.cost.get(r) for r in Resource}
        route = card.route
        if route is not None:
            own = {r: 0 for r in Resource}
            own[route.er_resource] += card.cost.get(route.er_resource)
            own[route.golgi_resource] += 1
            # protein on a disk is paid in mRNA: the mRNA+protein group sees both
            need = {g: min(_in(g, own), _in(g, cost)) for g in GROUPS if g != "atp"}
            need["atp"] = card.cost.atp
            out.append(CardNeed(c, buy + 3, need, card.health))
        elif card.type is CardType.DETOX:
            need = {g: 0 for g in GROUPS}
            need["atp"] = card.cost.atp
            out.append(CardNeed(c, buy + 1, need, DETOX_HEALTH))
        else:   # an enzyme pays its whole cost in the Cytoplasm
            need = {g: _in(g, cost) for g in GROUPS}
            out.append(CardNeed(c, buy + 1, need, card.health))
    return out


def flow_rows(pm: PlanModel) -> list[FlowRow]:
    """The resource-flow rows of ``pm`` (none when :func:`applies` is false)."""
    if not applies(pm):
        return []
    puzzle = pm.puzzle
    done = done_vars(pm)
    needs = card_needs(pm, sorted(done))
    s0 = initial_state(puzzle)
    G = min(puzzle.grey_flasks, puzzle.flasks)
    placements = puzzle.rounds * (puzzle.flasks + G)
    gain = {g: 0 for g in GROUPS}
    bonus = {g: 0 for g in GROUPS}
    for a in pm.acts:
        per = _act_gain(a)
        if per is None:
            continue
        for g in GROUPS:
            gain[g] = max(gain[g], _in(g, per))
    if any(e == "reduce-atp-cost" for e in puzzle.events):
        bonus["atp"] = 1                         # a purchase on the free slot that round gains 1 ATP
    extra = {g: _in(g, {r: s0.stock.get(r) for r in Resource}) for g in GROUPS}
    for _, amount in s0.boosts:
        for g in GROUPS:
            extra[g] += _in(g, {r: amount.get(r) for r in Resource})
    for e in puzzle.events:
        if e and event_kind(e) is EventKind.BOOST:
            boost = puzzle.board.boost(e)
            assert boost is not None, f"the puzzle loader refuses {e} on a board without it"
            for g in GROUPS:
                extra[g] += _in(g, {boost.resource: 1})
    held = list(s0.hand) + [c for c in s0.row if c] + list(s0.deck)
    for c in held:
        card = puzzle.card(c)
        if card.type is CardType.MACROMOLECULE:
            for g in GROUPS:
                extra[g] += _in(g, {r: card.gain.get(r) for r in Resource})
    rows = [FlowRow("placements", {n.card: n.placements for n in needs}, placements)]
    for g in GROUPS:
        per_pipe = max(0, gain[g] - bonus[g])
        coef = {n.card: n.need[g] + per_pipe * n.placements for n in needs}
        rows.append(FlowRow(g, coef, extra[g] + gain[g] * placements, per_pipe, extra[g], bonus[g]))
    return rows


def _act_gain(a: Act) -> dict[Resource, int] | None:
    """The most one placement of ``a`` gains, or None for a pipeline action (see the docstring)."""
    if a.spot is None:                       # an exhausted flask: one cube of its resource
        assert a.resource is not None, "an act without a spot is an exhausted flask"
        return {a.resource: 1}
    if a.spot.kind in PIPELINE_KINDS:
        return None
    if a.spot.kind is SpotKind.LAUREATES:
        return {Resource.ATP: 1} if a.goal is None else {}
    return {r: a.spot.gain.get(r) for r in Resource}  # printed gain (the Free Ribosome nets nothing)


def gain_table(pm: PlanModel, group: str) -> list[int]:
    """``table[n]``: the most of ``group`` that ``n`` placements outside the completions' pipelines
    can gain over the game. Without grey flasks each free spot takes one flask a round, so the
    best is the ``n`` largest gains among (round, free spot) pairs and exhausted flasks (one cube,
    as many as wanted); with grey flasks (any spot, again) ``n`` times the best gain."""
    puzzle = pm.puzzle
    G = min(puzzle.grey_flasks, puzzle.flasks)
    placements = puzzle.rounds * (puzzle.flasks + G)
    per_spot: dict[str, int] = {}
    exhaust = 0
    for a in pm.acts:
        per = _act_gain(a)
        if per is None:
            continue
        if a.spot is None:
            exhaust = max(exhaust, _in(group, per))
        else:
            per_spot[a.spot.id] = max(per_spot.get(a.spot.id, 0), _in(group, per))
    if G:
        best = max([exhaust, *per_spot.values()])
        return [best * n for n in range(placements + 1)]
    values = [exhaust] * placements
    for r in range(puzzle.rounds):
        occ = set(puzzle.occupied[r]) if r < len(puzzle.occupied) else set()
        values += [v for sid, v in per_spot.items() if sid not in occ]
    values.sort(reverse=True)
    table = [0]
    for v in values[:placements]:
        table.append(table[-1] + v)
    return table


def _row_expr(row: FlowRow, done: dict[str, Var]) -> Expr:
    return total(done[c] * k for c, k in row.coef.items() if k)


def add_resource_flow(pm: PlanModel, rows: list[FlowRow] | None = None) -> int:
    """Add :func:`flow_rows` (``rows`` when the caller has them) to ``pm``'s model; returns the rows added."""
    done = done_vars(pm)
    rows = flow_rows(pm) if rows is None else rows
    pm.lm.section("gameplay.phase-1")
    for row in rows:
        pm.lm.le(_row_expr(row, done), row.rhs)
    return len(rows)


def knapsack_cap(pm: PlanModel, rows: list[FlowRow], deterministic_time: float = 5.0
                 ) -> tuple[dict[str, int], int] | None:
    """The most Health the completed cards can bring under ``rows`` with integer completions (a
    small exact CP-SAT model, one worker, fixed seed): ``(health of each card, cap)``, or None
    when it is not proven within its budget (then no cap is added)."""
    from ortools.sat.python import cp_model
    done = done_vars(pm)
    needs = {n.card: n for n in card_needs(pm, sorted(done))}
    m = cp_model.CpModel()
    y = {c: m.new_bool_var(c) for c in needs}
    for row in rows:
        m.add(sum(y[c] * k for c, k in row.coef.items() if k) <= row.rhs)
    hp = {c: n.health for c, n in needs.items()}
    m.maximize(sum(y[c] * hp[c] for c in y))
    best = _proven_optimum(m, deterministic_time)
    return None if best is None else (hp, best)


def add_knapsack_cap(pm: PlanModel, deterministic_time: float = 5.0, rows: list[FlowRow] | None = None) -> int:
    """The resource-flow rows (``rows`` when the caller has them) plus their integer consequence:
    the Health of the completed cards is at most the knapsack optimum under those rows (every
    integer plan satisfies the rows, so its set of completed cards is one of the knapsack's
    candidates). Returns the rows added."""
    rows = flow_rows(pm) if rows is None else rows
    added = add_resource_flow(pm, rows)
    cap = knapsack_cap(pm, rows, deterministic_time) if rows else None
    if cap is None:
        return added
    hp, value = cap
    done = done_vars(pm)
    pm.lm.le(total(done[c] * k for c, k in hp.items() if k), value)
    return added + 1


def objective_cap(pm: PlanModel, rows: list[FlowRow], deterministic_time: float = 5.0) -> int | None:
    """An upper bound on ``pm``'s objective from the completions alone (see the module's docstring),
    or None when the small model is not solved to optimality within ``deterministic_time``."""
    return _proven_optimum(objective_cap_model(pm, rows).model, deterministic_time)


@dataclass(frozen=True)
class CapModel:
    """The small model of :func:`objective_cap`, unsolved, with the handles another relaxation
    (:mod:`solver.benchmarks.round_bound`) needs to add its own limits before solving it."""

    model: cp_model.CpModel
    done: dict[str, cp_model.IntVar]
    """Card completed."""
    marks: dict[str, cp_model.IntVar]
    """Goal marker placed."""
    others: cp_model.IntVar
    """Placements outside the completions' pipelines and the goal markers."""
    sets: dict[str, cp_model.IntVar]
    """Macromolecule sets scored per group (``mrna+protein``, ``carb``, ``lipid``)."""


def objective_cap_model(pm: PlanModel, rows: list[FlowRow]) -> CapModel:
    """The small model of :func:`objective_cap`, unsolved (see :class:`CapModel`)."""
    from ortools.sat.python import cp_model
    m = cp_model.CpModel()
    y = {c: m.new_bool_var(f"done[{c}]") for c in done_vars(pm)}
    cap, score = _cap_rows(pm, rows, m, y)
    m.maximize(score)
    return cap


def add_completions_cap(pm: PlanModel, cp: cp_model.CpModel, xs: list[cp_model.IntVar]) -> bool:
    """The completions cap built into the planner's own CP-SAT model ``cp`` (``xs``: its variables,
    :func:`solver.optimise.planner.to_cpsat_model`): :func:`objective_cap_model`'s rows over the
    planner's ``done[c][end]`` booleans, and the planner's objective at most the score they allow.
    Valid for the reason the cap is: every plan's completions satisfy the rows and score at least
    the plan. Returns False where the cuts do not apply (Epigenetic cards, Virus).

    Measured (``docs/dev/planner.md``, "The completions cap inside one-worker proofs"): on one
    worker it shortens the 16-placement deck suite's median proof (40.4 -> 18.1 and 18.8 -> 14.8
    deterministic seconds on two seeds); with two workers it is within the seeds' spread, and at
    24 placements it costs plans and bound, so ``solve`` asks for it on one worker up to 16
    placements only (:func:`completions_cap_helps`)."""
    rows = flow_rows(pm)
    if not rows:
        return False
    y = {c: xs[v.index] for c, v in done_vars(pm).items()}
    _, score = _cap_rows(pm, rows, cp, y)
    objective = pm.lm.objective
    cp.add(sum(xs[v.index] * k for v, k in objective.terms.items()) + objective.const <= score)
    return True


def _cap_rows(pm: PlanModel, rows: list[FlowRow], m: cp_model.CpModel, y: dict[str, cp_model.IntVar]
              ) -> tuple[CapModel, cp_model.LinearExprT]:
    """The cap's constraints over the completion booleans ``y`` (one per card of
    :func:`done_vars`), added to ``m``: the handles and the score they allow."""
    puzzle = pm.puzzle
    cards = {c: puzzle.card(c) for c in y}
    needs = {n.card: n for n in card_needs(pm, sorted(y))}
    marks = {g.id: m.new_bool_var(f"mark[{g.id}]") for g in puzzle.goals
             if puzzle.goal_markers > 0 and g.markers < MAX_MARKERS_PER_GOAL}
    if marks:
        m.add(sum(marks.values()) <= puzzle.goal_markers)
    slack = {}
    for row in rows:      # a goal marker is a placement that gains nothing
        lhs = sum(y[c] * k for c, k in row.coef.items() if k) + sum(b * row.per_placement for b in marks.values())
        m.add(lhs <= row.rhs)
        slack[row.name] = row.rhs - lhs
    # tighter: what the other placements gain, spot by spot and round by round (gain_table)
    pipeline = sum(y[c] * n.placements for c, n in needs.items()) + sum(marks.values())
    placements = next(row.rhs for row in rows if row.name == "placements")
    others = others_var = m.new_int_var(0, placements, "other_placements")
    m.add(others == placements - pipeline)
    for row in rows:
        if row.name not in GROUPS:
            continue
        table = gain_table(pm, row.name)
        got = m.new_int_var(0, table[-1], f"gain[{row.name}]")
        m.add_element(others, table, got)
        spent = sum(y[c] * needs[c].need[row.name] for c in y)
        left = row.extra + got + pipeline * row.bonus - spent
        m.add(left >= 0)
        slack[row.name] = left
    score = [puzzle.health + sum(y[c] * needs[c].health for c in y)]
    # receptors: every (hormone, matching receptor) pair both completed, and other players' hormones
    for c, card in cards.items():
        for q, rq in cards.items():
            if card.type in RECEPTOR_OF and rq.type is RECEPTOR_OF[card.type]:
                w = m.new_bool_var(f"bonus[{c},{q}]")
                m.add_implication(w, y[c])
                m.add_implication(w, y[q])
                score.append(w * RECEPTOR_OWN_BONUS)
    for q, rq in cards.items():
        n = sum(1 for hs in puzzle.opponent_hormones for k in hs if RECEPTOR_OF.get(k) is rq.type)
        if n:
            score.append(y[q] * (n * RECEPTOR_OTHER_BONUS))
    # goals: a marker first on its card, and the goal's points when marked and met
    for g in puzzle.goals:
        if g.id not in marks:
            continue
        if g.markers == 0:
            score.append(marks[g.id] * FIRST_GOAL_MARKER_BONUS)
        met = m.new_bool_var(f"met[{g.id}]")
        m.add(sum(y[c] for c in y if cards[c].type in g.card_types) >= g.count).only_enforce_if(met)
        v = m.new_bool_var(f"scored[{g.id}]")
        m.add_implication(v, met)
        m.add_implication(v, marks[g.id])
        score.append(v * g.points)
    # detox: one achievable (ATP, cards) pair, scored as the planner scores it
    detox = [c for c in y if cards[c].type is CardType.DETOX]
    if detox:
        pairs = {(0, 0)}
        for c in detox:
            pairs |= {(a + cards[c].cost.atp, k + 1) for a, k in pairs}
        others = [(o.amount, o.cards) for o in puzzle.detox_opponents]
        z = {p: m.new_bool_var(f"detox{p}") for p in sorted(pairs)}
        m.add_exactly_one(z.values())
        m.add(sum(z[p] * p[0] for p in z) == sum(y[c] * cards[c].cost.atp for c in detox))
        m.add(sum(z[p] * p[1] for p in z) == sum(y[c] for c in detox))
        rules = rules_for(puzzle.edition)
        score.append(sum(z[p] * detox_points(rules, puzzle.players, p, others, puzzle.readings()) for p in z))
    # enzyme sets: layer L holds the colours with at least L enzymes completed
    colours: dict[str, list[str]] = {}
    for c in y:
        if cards[c].type is CardType.ENZYME:
            colours.setdefault(cards[c].color or c, []).append(c)
    for layer in range(1, max((len(v) for v in colours.values()), default=0) + 1):
        members = []
        for col, cs in colours.items():
            if len(cs) >= layer:
                h = m.new_bool_var(f"layer[{layer},{col}]")
                m.add(sum(y[c] for c in cs) >= layer).only_enforce_if(h)
                members.append(h)
        size = {n: m.new_bool_var(f"size[{layer},{n}]") for n in range(len(members) + 1)}
        m.add_exactly_one(size.values())
        m.add(sum(v * n for n, v in size.items()) == sum(members))
        score.append(sum(v * ENZYME_SET_POINTS[min(n, 5)] for n, v in size.items()))
    # macromolecule sets: what the rows leave of each group, in sets of that group's smallest size
    sizes = {"mrna+protein": min(MACROMOLECULE_SET["mrna"], MACROMOLECULE_SET["protein"]),
             "carb": MACROMOLECULE_SET["carb"], "lipid": MACROMOLECULE_SET["lipid"]}
    rhs = {row.name: row.rhs for row in rows}
    sets = {g: m.new_int_var(0, max(0, rhs[g]), f"sets[{g}]") for g in sizes}
    for g, size in sizes.items():
        m.add(sets[g] * size <= slack[g])
    m.add(sum(sets[g] * size for g, size in sizes.items()) <= slack["cubes"])
    score.append(sum(sets.values()))
    return CapModel(m, y, marks, others_var, sets), sum(score)


def add_objective_cap(pm: PlanModel) -> int:
    """The resource-flow rows, their knapsack cap and :func:`objective_cap` as a row on the
    planner's objective (:func:`cap_objective`, 5 deterministic seconds a small model). Returns
    the rows added."""
    return cap_objective(pm, 5.0)[0]


def cap_objective(pm: PlanModel, deterministic_time: float) -> tuple[int, int | None]:
    """Add the resource-flow rows, their knapsack cap and :func:`objective_cap` (each small model
    given ``deterministic_time``) to ``pm``'s model: ``(rows added, the cap on the objective)``,
    the cap None when it does not apply (Epigenetic cards, Virus) or is not proven in time."""
    rows = flow_rows(pm)      # none where the cuts do not apply
    added = add_knapsack_cap(pm, deterministic_time, rows)
    cap = objective_cap(pm, rows, deterministic_time) if rows else None
    if cap is None:
        return added, None
    pm.lm.le(pm.lm.objective, cap)
    return added + 1, cap


def _proven_optimum(m: cp_model.CpModel, deterministic_time: float = 5.0) -> int | None:
    """The optimum of a small auxiliary model, proven by CP-SAT on one worker within
    ``deterministic_time`` deterministic seconds (the same answer on every machine), or None."""
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = deterministic_time
    if solver.solve(m) != cp_model.OPTIMAL:
        return None
    return int(round(solver.objective_value))


CAP_PLACEMENTS = 16
"""The most placements (flasks and grey flasks over the game) at which ``solve`` and the regret
figures' prefix solves add the completions cap: measured to help at 16, to cost at 24
(:func:`completions_cap_helps`)."""


def completions_cap_helps(puzzle: Puzzle, workers: int) -> bool:
    """Whether a CP-SAT run adds the completions cap to its model (:func:`add_completions_cap`;
    ``solve`` and the regret figures' prefix solves ask): where it was measured to help, one worker
    on a puzzle with a deck of at most :data:`CAP_PLACEMENTS` placements. On the 16-placement deck
    suite it took the median proof from 40.4 to 18.1 and from 18.8 to 14.8 deterministic seconds
    (seeds 0 and 1); on the 24-placement suite (seed 0, 60 deterministic seconds) it proved one
    puzzle more (2 of 12) but left the bounds 10 points higher in sum, the plans 27 lower, and one
    puzzle without a plan. With two workers it was within the seeds' spread; without a deck it was
    not measured. In the regret figures' one-worker prefix solves it took ``deck-season-2e``'s from
    400 to 258 CPU seconds, every value the same and one state more proven, and ``deck-season-1e``'s
    from 375 to 367 (session 46)."""
    placements = puzzle.rounds * (puzzle.flasks + puzzle.grey_flasks)
    return workers == 1 and bool(puzzle.deck) and placements <= CAP_PLACEMENTS
