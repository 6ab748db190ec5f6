"""Bounding ideas for deck puzzles, measured side by side (issue #35, items 1-2).

The planner's time-indexed model finds good plans fast but proves them slowly: its LP relaxation
lets a card row slot hold a share of every card. Each :class:`BoundMethod` here is one idea of how
to close the gap, applied to the same :class:`solver.optimise.planner.PlanModel` (extra constraints added to
its abstract model) and/or to the CP-SAT portfolio, so that ``python -m solver bench --suite``
compares them on the same puzzles under the same deterministic-time budget:

- ``baseline``: the planner as it ships (2 workers, ``max_lp`` + ``pseudo_costs`` with a deck);
- ``spot symmetry``: interchangeable free spots (two Rough ER, two Golgi, two Exocytosis spots of
  the 3-5 player board) used in board order in each round (:func:`add_spot_symmetry`); the planner
  does this only with grey flasks;
- ``lb_tree_search``: CP-SAT's bound-driven tree search as the second full worker, in place of
  ``pseudo_costs`` (it explores the node of the lowest objective bound first, which is what raises
  a maximisation's bound);
- ``objective_shaving``: CP-SAT's objective shaving worker (it tries to refute "objective >= bound"
  on small budgets, which lowers the bound directly) as the second worker;
- ``symmetry + lb_tree_search``: both;
- ``resource flow``, ``flow + knapsack``, ``objective cap``: :mod:`solver.optimise.caps`;
- ``round cap``: the bound by rounds of :mod:`solver.benchmarks.round_bound` as a row on the objective;
- ``cap + lb_tree_search``: the objective cap as a row and ``lb_tree_search`` as the second worker,
  what ``python -m solver record`` runs on the whole games;
- ``core``, ``reduced_costs``, ``probing``, ``default_lp``, ``no_lp``, ``max_lp_sym`` as the second
  worker (session 43): CP-SAT's other named workers beside ``max_lp``, each a different way to
  raise a bound or find plans (core-based search on the objective's terms, reduced-cost fixing,
  probing at the nodes, less or no LP and so more nodes a second, the LP with symmetry);
- ``stock prefix rows``: :func:`add_stock_prefix_rows`, the stock chain summed into one row per
  resource and slot.
- ``card symmetry``: :func:`add_card_symmetry`, identical held cards moved in puzzle order (the
  deck suite deals up to three copies of a card).
- ``row histories``: :func:`solver.benchmarks.row_trajectories.add_row_trajectories`, the card
  row's whole history as one path through the rows a round can show (an extended formulation).
- ``row by prefix sums``: the card row's positions and Phase 2 discards as reified prefix sums,
  as the planner built them before session 44 (``Options.row_paths`` off): the counting paths
  that replaced them (:func:`solver.optimise.planner.count_path`) measured against them.

Every bound is checked against the exhaustive search's optimum on the suite's small puzzles
(``tests/test_bounds.py``): a bound below an optimum would be a wrong proof.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.optimise.caps import add_knapsack_cap, add_objective_cap, add_resource_flow, cap_objective
from .round_bound import add_round_cap
from .row_trajectories import add_row_trajectories
from solver.encoding.linear import Constraint, Expr, Var, total
from solver.game.model import SpotKind

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.optimise.planner import PlanModel


def interchangeable_spots(pm: PlanModel) -> list[list[str]]:
    """Groups of spots (ids, board order) that no rule tells apart: same kind, area, value, cost and
    gain, not a card-row slot (each slot holds its own card). Two of them relabelled for one round
    give a plan of the same legality and score."""
    groups: dict[tuple[object, ...], list[str]] = {}
    for spot in pm.puzzle.board.spots:
        if spot.kind is SpotKind.CARD_ROW:
            continue
        key = (spot.kind, spot.area, spot.value, spot.cost.as_tuple(), spot.gain.as_tuple())
        groups.setdefault(key, []).append(spot.id)
    return [ids for ids in groups.values() if len(ids) > 1]


def add_spot_symmetry(pm: PlanModel) -> int:
    """Interchangeable free spots used in order: in each round the earlier of two identical free spots
    holds at least as many flasks as the later one. Returns the constraints added.

    Sound beside the planner's ordering of pure gains: the interchangeable spots of the boards
    (Rough ER, Golgi, Exocytosis) are no pure gain, so relabelling them changes no rank. Without
    grey flasks only (with them the planner adds the same constraints itself)."""
    puzzle = pm.puzzle
    if puzzle.grey_flasks:
        return 0
    lm = pm.lm
    use_of: dict[str, list[int]] = {}
    for i, a in enumerate(pm.acts):
        if a.spot is not None:
            use_of.setdefault(a.spot.id, []).append(i)
    added = 0
    lm.section("gameplay.phase-1")
    for r in range(1, puzzle.rounds + 1):
        slots = [s for s in pm.slots if s.round == r]
        occ = set(puzzle.occupied[r - 1]) if r - 1 < len(puzzle.occupied) else set()
        for group in interchangeable_spots(pm):
            free = [sid for sid in group if sid not in occ and use_of.get(sid)]
            for a, b in zip(free, free[1:]):
                ua = total(pm.x[s.t, i] for s in slots for i in use_of[a])
                ub = total(pm.x[s.t, i] for s in slots for i in use_of[b])
                lm.le(ub, ua)
                added += 1
    return added


CARD_STATE_VAR = re.compile(r"(?P<state>hand|er|golgi)\[(?P<card>[^\]]+)\]\[(?P<slot>[^\]]+)\]$")
"""The planner's per-card state variables by name (``hand[enzyme-red][r2,s3]``: the card is held at
the start of round 2's third slot; ``er``: its disk is in its ER area; ``golgi``: in the Golgi with
its own card's cube)."""


def identical_cards(pm: PlanModel) -> list[list[str]]:
    """Groups of row and deck cards (puzzle order) that no rule tells apart once held: same type,
    cost, Health, colour and gain. Left out: cards of the starting hand (their disks may start on
    the board), Macromolecule and Virus Attack cards (played or attacking, not routed), and every
    card some action pairs with another card's disk or cube (its state then includes a load the
    per-card variables do not show)."""
    from solver.game.model import CardType
    paired = {c for a in pm.acts if a.disk for c in (a.card, a.disk) if c}
    groups: dict[tuple[object, ...], list[str]] = {}
    for card in pm.puzzle.cards:
        if card.id in pm.puzzle.hand or card.id in paired \
                or card.type in (CardType.MACROMOLECULE, CardType.VIRUS_ATTACK):
            continue
        key = (card.type, card.cost.as_tuple(), card.health, card.color, card.gain.as_tuple())
        groups.setdefault(key, []).append(card.id)
    return [ids for ids in groups.values() if len(ids) > 1]


def add_card_symmetry(pm: PlanModel) -> int:
    """Identical cards moved in order: of two identical cards (:func:`identical_cards`) in the same
    state (both held and untouched since their purchase, both disks in the ER area, or both in
    the Golgi with their own cubes), the later one in puzzle order is not moved while the earlier
    one waits. Returns the constraints added.

    Sound by relabelling: in a plan that moves the later card first from a shared state, swap the
    two cards' names in every later action; since no rule tells them apart and their states are
    equal at that moment, the relabelled plan is legal and scores the same (the 2nd edition's
    removal from a full area picks a player's disk by name, but only between disks in the same
    area, whose states are then equal, so the names can be swapped again there). A card's purchase
    is not touched: where each lies in the row tells them apart until then."""
    lm = pm.lm
    slot_of = {s.tag: s.t for s in pm.slots}
    state: dict[tuple[str, int, str], Var] = {}
    for v in lm.vars:
        if (named := CARD_STATE_VAR.match(v.name)) is not None and named["slot"] in slot_of:
            state[named["state"], slot_of[named["slot"]], named["card"]] = v
    moves: dict[str, list[int]] = {}
    for i, a in enumerate(pm.acts):
        if a.card is not None and a.spot is not None and a.spot.kind is not SpotKind.CARD_ROW:
            moves.setdefault(a.card, []).append(i)
    # each card's moves at each slot, summed once for all the pairs it is in
    moved_at = {card: {s.t: total(pm.x[s.t, i] for i in acts if (s.t, i) in pm.x) for s in pm.slots}
                for card, acts in moves.items()}
    added = 0
    lm.section("cards.hormones")
    for group in identical_cards(pm):
        for k, first in enumerate(group):
            for later in group[k + 1:]:
                if first not in moves or later not in moves:
                    continue
                moved_first, moved_later = Expr(), Expr()
                for s in pm.slots:
                    moves_later = moved_at[later][s.t]
                    if ("hand", s.t, first) in state:   # the first held and untouched, the later untouched
                        lm.le(moves_later + state["hand", s.t, first] - moved_first - moved_later, 1)
                        added += 1
                    for st in ("er", "golgi"):
                        if (st, s.t, first) in state and (st, s.t, later) in state:
                            lm.le(moves_later + state[st, s.t, first] + state[st, s.t, later], 2)
                            added += 1
                    moved_first = moved_first + moved_at[first][s.t]
                    moved_later = moved_later + moves_later
    return added


STOCK_VAR = re.compile(r"stock\[(?P<slot>.+),(?P<resource>[^,\]]+)\]$")
"""The planner's stock variables by name (``stock[r2,s3,atp]``: round 2, slot 3, ATP)."""


def add_stock_prefix_rows(pm: PlanModel) -> int:
    """For each resource and slot, the stock chain summed from the first slot to that one: the
    stock after the slot as the start's stock plus every gain minus every cost before it. Returns
    the rows added.

    Redundant for the LP (each row is a sum of the model's own stock rows), but CP-SAT separates
    its cuts (MIR, knapsack covers) from single rows, and no single row of the model says how many
    cubes all of a plan's purchases and completions take together. Every stock variable's defining
    row is the equality with +1 on it and -1 on the same resource's stock one slot earlier (none on
    the first slot, whose start stock is a constant); a chain that does not read so adds nothing."""
    lm = pm.lm
    chains: dict[str, list[Var]] = {}
    for v in lm.vars:
        if (named := STOCK_VAR.match(v.name)) is not None:
            chains.setdefault(named["resource"], []).append(v)
    prev_of = {v: chain[i - 1] if i else None for chain in chains.values() for i, v in enumerate(chain)}
    defining: dict[Var, Constraint] = {}
    for c in lm.constraints:
        if c.enforce or c.lo is None or c.lo != c.hi:
            continue
        on = [(v, k) for v, k in c.expr.terms.items() if v in prev_of]
        plus = [v for v, k in on if k == 1]
        if len(plus) != 1 or plus[0] in defining:
            continue
        prev = prev_of[plus[0]]
        if [(v, k) for v, k in on if v is not plus[0]] == ([(prev, -1)] if prev is not None else []):
            defining[plus[0]] = c
    added = 0
    lm.section("gameplay.phase-1")
    for chain in chains.values():
        if not all(v in defining for v in chain):
            continue
        terms: dict[Var, int] = {}
        rhs = 0
        for v in chain:
            row = defining[v]
            for w, k in row.expr.terms.items():
                terms[w] = terms.get(w, 0) + k
                if terms[w] == 0:
                    del terms[w]
            rhs += row.lo or 0
            lm.eq(Expr(dict(terms)), rhs)
            added += 1
    return added


@dataclass(frozen=True)
class BoundMethod:
    """One bounding idea: a change to the model and the CP-SAT workers that run it."""

    name: str
    subsolvers: tuple[str, ...]
    """The full subsolvers (one per worker)."""
    transform: Callable[[PlanModel], int] | None = None
    """Constraints added to the planner's model (None: the model as it ships)."""
    note: str = ""
    options: tuple[tuple[str, bool], ...] = ()
    """:class:`solver.optimise.planner.Options` fields the model is built with (none: as it ships)."""

    def model(self, puzzle: Puzzle) -> PlanModel:
        """The planner's model of ``puzzle`` as this method builds it (before :attr:`transform`)."""
        from solver.optimise.planner import Options, build_model
        return build_model(puzzle, Options(**dict(self.options)))


def _both(pm: PlanModel) -> int:
    return add_spot_symmetry(pm)


def add_recorded_cap(pm: PlanModel) -> int:
    """The objective cap as ``python -m solver record`` adds it (its small models given
    :data:`solver.io.offline.CAP_DETERMINISTIC_SECONDS` each: 5 do not prove it at 44 placements)."""
    from solver.io.offline import CAP_DETERMINISTIC_SECONDS
    return cap_objective(pm, CAP_DETERMINISTIC_SECONDS)[0]


METHODS: tuple[BoundMethod, ...] = (
    BoundMethod("baseline", ("max_lp", "pseudo_costs"), None, "the planner as it ships with a deck"),
    BoundMethod("spot symmetry", ("max_lp", "pseudo_costs"), add_spot_symmetry,
                "identical free spots used in board order"),
    BoundMethod("lb_tree_search", ("max_lp", "lb_tree_search"), None, "bound-driven tree search as 2nd worker"),
    BoundMethod("objective_shaving", ("max_lp", "objective_shaving"), None, "objective shaving as 2nd worker"),
    BoundMethod("symmetry + lb_tree_search", ("max_lp", "lb_tree_search"), _both, "both"),
    BoundMethod("resource flow", ("max_lp", "pseudo_costs"), add_resource_flow,
                "placements and cubes a game can afford, over the completed cards"),
    BoundMethod("flow + knapsack", ("max_lp", "pseudo_costs"), add_knapsack_cap,
                "resource flow plus its integer knapsack cap on the completed cards' Health"),
    BoundMethod("objective cap", ("max_lp", "pseudo_costs"), add_objective_cap,
                "flow + knapsack plus an integer cap on the whole objective from the completions alone"),
    BoundMethod("round cap", ("max_lp", "pseudo_costs"), add_round_cap,
                "the bound by rounds with an aggregated state (round_bound.py) as a cap on the objective"),
    BoundMethod("cap + lb_tree_search", ("max_lp", "lb_tree_search"), add_recorded_cap,
                "the objective cap as a row with lb_tree_search as 2nd worker (the recorded whole games' settings)"),
    BoundMethod("core", ("max_lp", "core"), None, "core-based search on the objective as 2nd worker"),
    BoundMethod("reduced_costs", ("max_lp", "reduced_costs"), None, "reduced-cost fixing as 2nd worker"),
    BoundMethod("probing", ("max_lp", "probing"), None, "probing at the nodes as 2nd worker"),
    BoundMethod("default_lp", ("max_lp", "default_lp"), None, "the default LP (fewer rows, more nodes) as 2nd worker"),
    BoundMethod("no_lp", ("max_lp", "no_lp"), None, "search without the LP as 2nd worker"),
    BoundMethod("max_lp_sym", ("max_lp", "max_lp_sym"), None, "the full LP with symmetry as 2nd worker"),
    BoundMethod("stock prefix rows", ("max_lp", "pseudo_costs"), add_stock_prefix_rows,
                "the stock chain summed into one row per resource and slot, for the cut separators"),
    BoundMethod("card symmetry", ("max_lp", "pseudo_costs"), add_card_symmetry,
                "identical cards moved in puzzle order from a shared state (session 50)"),
    BoundMethod("row histories", ("max_lp", "pseudo_costs"), add_row_trajectories,
                "the card row's whole history as a flow over the rows a round can show (session 50)"),
    BoundMethod("row by prefix sums", ("max_lp", "pseudo_costs"), None,
                "the card row's positions and discards as reified prefix sums (the model before session 44)",
                (("row_paths", False),)),
)
"""The methods of ``bench --suite``, in table order."""


@dataclass
class BoundRun:
    """One method on one puzzle under a deterministic-time budget."""

    status: str
    objective: int | None
    bound: int | None
    deterministic_seconds: float
    cpu_seconds: float
    """Process CPU seconds (all workers): unlike wall-clock time, roughly independent of other load."""
    trace: list[tuple[float, int | None, int]] = field(default_factory=list)
    """(CPU seconds, plan's Health or None, bound) at each improvement."""
    plan: list[object] = field(default_factory=list)
    wall_seconds: float = 0.0
    """Wall-clock seconds of the solve (the model's build excluded): what a user waits, inflated
    by whatever else the machine runs."""


def run_method(pm: PlanModel, method: BoundMethod, deterministic_time: float, workers: int = 2,
               seed: int = 0) -> BoundRun:
    """Solve ``pm`` (with ``method``'s constraints added) by CP-SAT for at most ``deterministic_time``
    deterministic seconds with ``workers`` workers; the bound and plan over CPU time."""
    from ortools.sat.python import cp_model

    from solver.optimise.planner import cpsat_parameters, decode, to_cpsat_model
    if method.transform is not None:
        method.transform(pm)
    cp, xs = to_cpsat_model(pm.lm)
    solver = cpsat_parameters(workers, seed, None, deterministic_time, method.subsolvers)
    trace: list[tuple[float, int | None, int]] = []
    t0 = time.process_time()
    w0 = time.perf_counter()
    def on_bound(b: float) -> None:
        trace.append((round(time.process_time() - t0, 3), None, int(round(b))))

    class _Plans(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            trace.append((round(time.process_time() - t0, 3), int(round(self.objective_value)),
                          int(round(self.best_objective_bound))))

    solver.best_bound_callback = on_bound
    status = solver.solve(cp, _Plans())
    cpu = time.process_time() - t0
    wall = round(time.perf_counter() - w0, 3)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):     # the final state, whatever the callbacks saw
        trace.append((round(cpu, 3), int(round(solver.objective_value)), int(round(solver.best_objective_bound))))
        values = [int(solver.value(v)) for v in xs]
        return BoundRun("optimal" if status == cp_model.OPTIMAL else "feasible", int(round(solver.objective_value)),
                        int(round(solver.best_objective_bound)), round(solver.deterministic_time, 3), round(cpu, 3),
                        trace, list(decode(pm, values)), wall)
    # stopped before a plan: the bound proven so far still counts (None when infeasible, or when
    # the run was stopped before its search proved one: CP-SAT then answers a bound of 0)
    proven = [b for _, _, b in trace]
    bound = None if status == cp_model.INFEASIBLE or not proven else min(proven)
    return BoundRun("infeasible" if status == cp_model.INFEASIBLE else "unknown", None, bound,
                    round(solver.deterministic_time, 3), round(cpu, 3), trace, [], wall)
