"""A bound by rounds with an aggregated state (issue #35, bounding idea "decomposition by rounds").

The planner's LP relaxation spreads fractions of many disks over many rounds and buys a share of
a card every round: a timing gap. This relaxation keeps time (rounds) and integrality but forgets
which card is which and where the cubes are: a dynamic programme over rounds whose state is

- ``er``, ``golgi``: the player's disks in an ER and in the Golgi Apparatus (at most
  :data:`solver.game.engine.DISKS` = 2 on the board at the end of a round);
- ``bought[lane]``, ``done[lane]``: cards bought and completed per lane (``R`` cards started in
  the Rough ER: protein hormones and both receptors; ``S`` steroid hormones, started on the Smooth
  ER spot; ``D`` detox cards; ``E`` enzymes), so the cards held per lane are the starting hand's
  plus the bought less the completed;
- ``marks``: goal markers placed;
- ``entered``: deck cards that have reached the row (cards enter in deck order).

One transition is one whole round: how many flasks go to each kind of action. It over-approximates
what a round can do (every count below is implied by the rules, so every real round maps to one
of these transitions and every real game to a path; the programme's outcomes dominate the game's):

- at most ``F`` flasks plus ``G = min(grey flasks, F)`` grey ones; each kind of action has as many
  spots as the board has free that round (other players' flasks taken off), and the grey flasks
  may exceed those limits by ``G`` in all (a grey flask goes on any spot);
- purchases: at most the card-row slots free that round; a lane's purchases are at most its
  cards already in the row or the hand (starting row and hand, plus the first ``entered`` deck
  cards, none taken off for other players' purchases or discards: more is a relaxation), and any
  other purchase (a Macromolecule card, ...) is always allowed;
- ``entered`` grows by at most ``min(row slots, own purchases + other players' card-row flasks
  + the Phase 2 discards)`` a round (the row is refilled from the deck once a round, in order);
- an ER placement of a lane needs a card of that lane in hand; the Smooth ER spot serves both
  steroid hormones and detox cards; a Golgi placement moves a disk that was in an ER at the start
  of the round or was placed there this round; an Exocytosis moves one that was in the Golgi or got
  there this round, and completes a held card of lane ``R`` or ``S`` (ruling ``disk-card``: any
  disk may complete any hormone or receptor, so the disk's lane is not tracked); the Smooth ER
  spot completes a held detox card, the Cytoplasm a held enzyme; a Laureates flask places a goal
  marker (at most the puzzle's markers);
- disks may be removed at any time (a removal only loses work), so only the end of a round caps
  the disks on the board, and the order of a round's placements is free (any real order satisfies
  the counts above).

Resources are not in the state: a cube's timing is left to the whole-game flow rows of
:mod:`solver.optimise.caps`, tightened here by a spot assignment (:func:`add_spot_assignment`:
each placement outside the pipelines is one flask on one spot, gaining that spot's net gain in
every group at once). The programme's terminal outcomes (completions per lane, markers,
cards entered) are reduced to the Pareto-maximal ones and handed to the completions model of
:func:`solver.optimise.caps.objective_cap_model` (resource-flow rows, card Health, receptors,
goals, detox, enzyme and macromolecule sets) as a table: one outcome is chosen, each lane
completes at most that outcome's count and no deck card past its ``entered`` is completed. Its
optimum bounds the objective of every plan.

Plain Python, not ``didppy``: the bound needs the joint end-of-game scoring of the completions
(receptor pairs, goals, sets), which is not a sum of per-transition costs; a DIDP model would have
to carry the card identities in its state to score them, which is the state this relaxation
forgets. Here the programme enumerates a few thousand aggregated states exactly and the scoring is
left to a small exact CP-SAT model.

Measured on the deck suite (1 worker, 5 deterministic seconds): never below CP-SAT's bound at
16 placements; below it at 24 only while CP-SAT has not finished its root LP, and the programme
itself moves the bound on 2 of 24 puzzles beyond the spot assignment: the resources, whose timing
it forgets, bind, not the disks, spots or deck order it keeps. Not kept in the planner; the
``round cap`` method of ``bench --suite`` (:mod:`solver.benchmarks.bounds`) measures it.

Not applied (None) where :func:`solver.optimise.caps.applies` is false (an Epigenetic card, the
Virus expansion).
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.game.engine import DISKS, MACROMOLECULE_SET, MAX_MARKERS_PER_GOAL, initial_state
from solver.game.model import CardType, Resource, SpotKind, VesicleArea
from solver.optimise.caps import (
    GROUPS, CapModel, FlowRow, _act_gain, _in, _proven_optimum, applies, card_needs, done_vars,
    flow_rows, objective_cap_model,
)

if TYPE_CHECKING:
    from solver.optimise.planner import PlanModel
    from solver.game.model import Puzzle

LANES = ("R", "S", "D", "E")
"""Rough-ER cards (protein hormones, receptors), steroid hormones, detox cards, enzymes."""

SPOT_KIND_OF = {SpotKind.CARD_ROW: "buy", SpotKind.ROUGH_ER: "rough", SpotKind.DETOX_STEROID: "smooth",
                SpotKind.GOLGI: "golgi", SpotKind.EXOCYTOSIS: "exo", SpotKind.CYTOPLASM: "cyto",
                SpotKind.LAUREATES: "laureates"}
"""The spot kinds a round's transition counts (every other spot only gains cubes: the flow rows')."""


def lane_of(puzzle: Puzzle, card_id: str) -> str | None:
    """The lane of a completable card (see :data:`LANES`), None for a card never completed."""
    card = puzzle.card(card_id)
    if card.type is CardType.DETOX:
        return "D"
    if card.type is CardType.ENZYME:
        return "E"
    route = card.route
    if route is None:
        return None
    return "S" if route.er is VesicleArea.SMOOTH_ER else "R"


@dataclass(frozen=True)
class Round:
    """What one round allows: flasks, grey flasks and free spots per counted kind."""

    flasks: int
    grey: int
    free: dict[str, int]
    row_taken: int
    """Card-row slots other players take this round (each a purchase that advances the deck)."""


@dataclass(frozen=True)
class Outcome:
    """A terminal outcome of the programme: completions per lane, goal markers, deck cards that
    reached the row before the last round's flasks."""

    done: tuple[int, int, int, int]
    marks: int
    entered: int

    def dominates(self, other: Outcome) -> bool:
        return (all(a >= b for a, b in zip(self.done, other.done)) and self.marks >= other.marks
                and self.entered >= other.entered)


@dataclass(frozen=True)
class RoundBound:
    """The bound and what it took."""

    bound: int | None
    """The completions model's proven optimum under the programme's outcomes (None: not applied or not proven)."""
    flows_only: int | None
    """The same model without the programme (the ``objective cap`` of :mod:`solver.optimise.caps`)."""
    outcomes: int
    states: int
    seconds: float
    """Process CPU seconds (programme and both small solves)."""


def rounds_of(puzzle: Puzzle) -> list[Round]:
    """:class:`Round` of each round of ``puzzle``."""
    grey = min(puzzle.grey_flasks, puzzle.flasks)
    out = []
    for r in range(puzzle.rounds):
        occ = set(puzzle.occupied[r]) if r < len(puzzle.occupied) else set()
        free = {k: 0 for k in SPOT_KIND_OF.values()}
        taken = 0
        for spot in puzzle.board.spots:
            kind = SPOT_KIND_OF.get(spot.kind)
            if spot.id in occ:
                taken += spot.kind is SpotKind.CARD_ROW
            elif kind is not None:
                free[kind] += 1
        out.append(Round(puzzle.flasks, grey, free, taken))
    return out


State = tuple[int, ...]
"""``(er, golgi, held R S D E, bought R S D E, done R S D E, marks, entered)``."""


def _counts(budget: int, caps: list[int]) -> Iterator[list[int]]:
    """Every vector ``v`` with ``0 <= v[i] <= caps[i]`` and ``sum(v) <= budget``."""
    if not caps:
        yield []
        return
    for k in range(min(budget, caps[0]) + 1):
        for rest in _counts(budget - k, caps[1:]):
            yield [k, *rest]


def successors(state: State, rnd: Round, avail: list[tuple[int, ...]],
               deck: int, row_slots: int, discards: int, markers: int,
               room: tuple[int, ...] = (99, 99, 99, 99)) -> Iterator[State]:
    """Every state one round can lead to from ``state`` (see the module's docstring). ``room``:
    the completions each lane can still make from this round on (its completing spots' flasks
    over the rounds left); a lane card bought beyond them is never completed and advances the
    deck no more than any other purchase, so such purchases are counted as other purchases."""
    er, golgi = state[0], state[1]
    held, bought, done = state[2:6], state[6:10], state[10:14]
    marks, entered = state[14], state[15]
    budget = rnd.flasks + rnd.grey
    free = rnd.free
    can = avail[entered]

    def over(kind: str, n: int) -> int:
        return max(0, n - free[kind])

    row_cap = free["buy"] + rnd.grey
    lane_caps = [min(can[i] - bought[i], max(0, room[i] - held[i])) for i in range(4)]
    for buys in _counts(min(budget, row_cap), lane_caps + [row_cap]):
        nb = sum(buys)
        grey_used = over("buy", nb)
        if grey_used > rnd.grey:
            continue
        left = budget - nb
        h = [held[i] + buys[i] for i in range(4)]
        rough_cap = free["rough"] + rnd.grey if h[0] else 0
        smooth_cap = free["smooth"] + rnd.grey
        for e_r, e_s, detox in _counts(left, [rough_cap, smooth_cap if h[1] else 0, min(h[2], smooth_cap)]):
            g1 = grey_used + over("rough", e_r) + over("smooth", e_s + detox)
            if g1 > rnd.grey:
                continue
            left1 = left - e_r - e_s - detox
            for cyto, laur, g in _counts(left1, [min(h[3], free["cyto"] + rnd.grey),
                                                 min(markers - marks, free["laureates"] + rnd.grey),
                                                 min(er + e_r + e_s, free["golgi"] + rnd.grey)]):
                g2 = g1 + over("cyto", cyto) + over("laureates", laur) + over("golgi", g)
                if g2 > rnd.grey:
                    continue
                left2 = left1 - cyto - laur - g
                for x_r, x_s in _counts(min(left2, golgi + g, free["exo"] + rnd.grey), [h[0], h[1]]):
                    if g2 + over("exo", x_r + x_s) > rnd.grey:
                        continue
                    new_done = (done[0] + x_r, done[1] + x_s, done[2] + detox, done[3] + cyto)
                    new_bought = tuple(bought[i] + buys[i] for i in range(4))
                    new_held = (h[0] - x_r, h[1] - x_s, h[2] - detox, h[3] - cyto)
                    gone = min(row_slots, nb + rnd.row_taken + discards)
                    new_entered = min(deck, entered + gone)
                    er_max, golgi_max = er + e_r + e_s - g, golgi + g - x_r - x_s
                    keep = min(DISKS, er_max + golgi_max)
                    # the Pareto-maximal disk positions: every split of ``keep`` disks both stages allow
                    for er_end in range(max(0, keep - golgi_max), min(er_max, keep) + 1):
                        yield (er_end, keep - er_end, *new_held, *new_bought, *new_done, marks + laur, new_entered)


def outcomes(puzzle: Puzzle, lanes: dict[str, str], merge: bool = True) -> tuple[list[Outcome], int]:
    """The Pareto-maximal terminal outcomes of the programme over ``puzzle``'s rounds, and the
    states it visited. ``lanes``: the lane of each completable card.

    With ``merge``, the states of a round that share their completions, markers and deck cards
    entered are merged into one that dominates them all (the most disks at each stage and cards
    held, the fewest bought): every quantity of the state helps in one direction only (a disk or a
    held card allows more, a card bought leaves fewer to buy), so the merged state can do whatever
    each of them could, and the outcomes stay an over-approximation, a little looser."""
    s0 = initial_state(puzzle)
    deck = list(s0.deck)
    index = {lane: i for i, lane in enumerate(LANES)}
    held0 = [0, 0, 0, 0]
    for c in s0.hand:
        if c in lanes:
            held0[index[lanes[c]]] += 1
    in_row = [0, 0, 0, 0]
    for c in s0.row:
        if c is not None and c in lanes:
            in_row[index[lanes[c]]] += 1
    avail = [tuple(in_row)]
    for c in deck:
        seen = list(avail[-1])
        if c in lanes:
            seen[index[lanes[c]]] += 1
        avail.append(tuple(seen))
    markers = min(puzzle.goal_markers, sum(1 for g in puzzle.goals if g.markers < MAX_MARKERS_PER_GOAL))
    discards = 2 if puzzle.players == 2 else 1
    row_slots = len(puzzle.board.row_slots)
    layer: set[State] = {(0, 0, *held0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
    visited = 1
    rounds = rounds_of(puzzle)
    for i, rnd in enumerate(rounds):
        nxt: set[State] = set()
        later = rounds[i:]
        exo = sum(r.free["exo"] + r.grey for r in later)
        room = (exo, exo, sum(r.free["smooth"] + r.grey for r in later), sum(r.free["cyto"] + r.grey for r in later))
        for state in layer:
            for succ in successors(state, rnd, avail, len(deck), row_slots, discards, markers, room):
                if i == len(rounds) - 1:      # the last refill comes after the game: cards seen are those of the last round
                    succ = (*succ[:15], state[15])
                nxt.add(succ)
        if merge:
            merged: dict[tuple[int, ...], list[int]] = {}
            for st in nxt:
                key = st[10:]
                was = merged.get(key)
                if was is None:
                    merged[key] = list(st[:10])
                else:
                    for j in range(6):
                        was[j] = max(was[j], st[j])
                    for j in range(6, 10):
                        was[j] = min(was[j], st[j])
            nxt = {(*rest, *key) for key, rest in merged.items()}
        layer = nxt
        visited += len(layer)
    terminal = {Outcome((s[10], s[11], s[12], s[13]), s[14], s[15]) for s in layer}
    front = [o for o in terminal if not any(p != o and p.dominates(o) for p in terminal)]
    return sorted(front, key=lambda o: (o.done, o.marks, o.entered)), visited


def round_bound(pm: PlanModel) -> RoundBound:
    """The bound of the module's docstring for ``pm``'s puzzle (see :class:`RoundBound`)."""
    t0 = time.process_time()
    if not applies(pm):
        return RoundBound(None, None, 0, 0, 0.0)
    puzzle = pm.puzzle
    rows = flow_rows(pm)
    cards = sorted(done_vars(pm))
    lanes = {c: lane for c in cards if (lane := lane_of(puzzle, c)) is not None}
    flows_only = _proven_optimum(objective_cap_model(pm, rows).model)
    front, visited = outcomes(puzzle, lanes)
    cap = objective_cap_model(pm, rows)
    add_spot_assignment(cap, pm, rows)
    add_outcome_table(cap, front, lanes, list(initial_state(puzzle).deck))
    bound = _proven_optimum(cap.model)
    return RoundBound(bound, flows_only, len(front), visited, round(time.process_time() - t0, 3))


def add_spot_assignment(cap: CapModel, pm: PlanModel, rows: list[FlowRow]) -> None:
    """Each placement outside the pipelines goes to one spot or is an exhausted flask, and gains
    that spot's printed gain less its cost in every group at once (the flow rows of
    :mod:`solver.optimise.caps` let one placement gain the most of every group): a spot takes a
    flask in each round it is free, plus grey flasks (at most ``G`` a round in all). The cubes left
    per group bound the macromolecule sets again."""
    from ortools.sat.python import cp_model
    m, puzzle = cap.model, pm.puzzle
    assert isinstance(m, cp_model.CpModel)
    grey = min(puzzle.grey_flasks, puzzle.flasks)
    placements = puzzle.rounds * (puzzle.flasks + grey)
    exact = (SpotKind.NUCLEUS, SpotKind.LIPID_SYNTHESIS, SpotKind.MITOCHONDRIA, SpotKind.GLUCOSE,
             SpotKind.MITOCHONDRIA_CARB)
    net: dict[str, dict[str, int]] = {}
    exhaust: set[Resource] = set()
    for a in pm.acts:
        per = _act_gain(a)
        if per is None:
            continue
        if a.spot is None:
            assert a.resource is not None, "an act without a spot is an exhausted flask"
            exhaust.add(a.resource)
            continue
        cost = {r: a.spot.cost.get(r) for r in Resource} if a.spot.kind in exact else {}
        here = {g: _in(g, per) - _in(g, cost) for g in GROUPS}   # other spots: their gain, cost left out
        was = net.setdefault(a.spot.id, here)
        net[a.spot.id] = {g: max(was[g], here[g]) for g in GROUPS}
    flasks = []
    grey_on = []
    for sid, gains in sorted(net.items()):
        free = sum(1 for r in range(puzzle.rounds) if r >= len(puzzle.occupied) or sid not in puzzle.occupied[r])
        n = m.new_int_var(0, free + grey * puzzle.rounds, f"flasks[{sid}]")
        g = m.new_int_var(0, grey * puzzle.rounds, f"grey[{sid}]")
        m.add(n <= free + g)
        flasks.append((n, gains))
        grey_on.append(g)
    if grey_on:
        m.add(sum(grey_on) <= grey * puzzle.rounds)
    cubes = {r: m.new_int_var(0, placements, f"exhaust[{r.value}]") for r in sorted(exhaust, key=lambda r: r.value)}
    m.add(sum(n for n, _ in flasks) + sum(cubes.values()) <= cap.others)
    needs = {n.card: n for n in card_needs(pm, sorted(cap.done))}
    left = {}
    for row in rows:
        if row.name not in GROUPS:
            continue
        spent = sum(cap.done[c] * needs[c].need[row.name] for c in cap.done)
        got = sum(n * gains[row.name] for n, gains in flasks) + sum(v for r, v in cubes.items() if r in GROUPS[row.name])
        left[row.name] = row.extra + got + (placements - cap.others) * row.bonus - spent
        m.add(left[row.name] >= 0)
    sizes = {"mrna+protein": min(MACROMOLECULE_SET["mrna"], MACROMOLECULE_SET["protein"]),
             "carb": MACROMOLECULE_SET["carb"], "lipid": MACROMOLECULE_SET["lipid"]}
    for g, size in sizes.items():
        m.add(cap.sets[g] * size <= left[g])
    m.add(sum(cap.sets[g] * size for g, size in sizes.items()) <= left["cubes"])


def add_outcome_table(cap: CapModel, front: list[Outcome], lanes: dict[str, str], deck: list[str]) -> None:
    """One of ``front`` is chosen; per lane at most its completions, at most its markers, and no
    deck card past its ``entered`` completed (a card bought must have been in the row)."""
    from ortools.sat.python import cp_model
    m, y, marks = cap.model, cap.done, cap.marks
    assert isinstance(m, cp_model.CpModel)
    z = [m.new_bool_var(f"outcome[{i}]") for i in range(len(front))]
    m.add_exactly_one(z)
    for i, lane in enumerate(LANES):
        members = [y[c] for c, ln in lanes.items() if ln == lane]
        if members:
            m.add(sum(members) <= sum(zi * o.done[i] for zi, o in zip(z, front)))
    if marks:
        m.add(sum(marks.values()) <= sum(zi * o.marks for zi, o in zip(z, front)))
    for pos, c in enumerate(deck):
        if c in y:
            # the deck card at position ``pos`` is seen only in outcomes with more than ``pos`` cards entered
            m.add(y[c] <= sum(zi for zi, o in zip(z, front) if o.entered > pos))


def add_round_cap(pm: PlanModel) -> int:
    """:func:`round_bound` as a row on the planner's objective (``objective <= bound``); returns the
    rows added (none when the bound does not apply or is not proven)."""
    bound = round_bound(pm).bound
    if bound is None:
        return 0
    pm.lm.le(pm.lm.objective, bound)
    return 1
