"""The card row's whole history as a flow over row states (issue #35, session 50; measured, not kept).

The planner says where each card lies round by round with counting paths (one per round, linked
through each card's ``alive`` share), so its LP relaxation can mix rows that no single history of
the market gives. Here the row's history is one path through a graph whose nodes are the rows a
round can show and whose arcs are the player's purchases:

- a node of round ``r``: the queue index (row, then deck) of the card under each row slot, or
  None for an empty slot (round 1 as dealt; later rounds the first cards still in play, in queue
  order);
- an arc: the row slots the player buys from in that round (at most a round's slots, never a slot
  another player's flask holds); other players buy under their flasks, Phase 2 discards the first
  cards left (one; two in a two-player game), the deck refills (spots.card-row, gameplay.phase-2).

Every plan of the planner's model follows exactly one path, so the flow's rows tie the path to
the model (``pm.at``: what lies under each slot; the player's flasks on each row slot) without
cutting a plan: an extended formulation of the market, whose LP can only mix whole histories.
The graph stays small because a row is nearly a window on the queue (the deck suite: at most 76
rows a round, 3,135 arcs; the deck series' whole game 88 and 4,336).

Left out (no rows added): puzzles with an Epigenetic card (a free card from the row without a
flask) or a discard pile that can come back (:func:`solver.game.rules.reshuffle.comeback_entries`).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from solver.game.engine import initial_state
from solver.game.model import SpotKind
from solver.game.rules import reshuffle
from solver.encoding.linear import Expr, total

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.optimise.planner import PlanModel

Row = tuple[int | None, ...]
"""The queue index of the card under each row slot (None: empty)."""


@dataclass(frozen=True)
class Purchase:
    """One arc: in ``round_``, from the row ``before``, the player buys under ``slots``; ``after``
    is the next round's row (None after the last round)."""

    round_: int
    before: Row
    slots: tuple[int, ...]
    after: Row | None


@dataclass(frozen=True)
class Market:
    """Every row the player can meet, round by round, and the purchases between them."""

    queue: tuple[str, ...]
    rows: dict[int, frozenset[Row]]
    purchases: tuple[Purchase, ...]


def market(puzzle: Puzzle, per_round: int) -> Market:
    """The graph of rows and purchases of ``puzzle`` with ``per_round`` flasks a round (grey ones
    included)."""
    s0 = initial_state(puzzle)
    S = len(puzzle.board.row_slots)
    queue = tuple(c for c in s0.row if c) + tuple(s0.deck)
    index = {c: i for i, c in enumerate(queue)}
    discards = 2 if puzzle.players == 2 else 1
    rows: dict[int, frozenset[Row]] = {1: frozenset({tuple(index[c] if c else None for c in s0.row)})}
    purchases: list[Purchase] = []
    for r in range(1, puzzle.rounds + 1):
        occupied = set(puzzle.occupied_in(r))
        taken = {sp.row_slot for sp in puzzle.board.row_slots if sp.id in occupied}
        following: set[Row] = set()
        for row in sorted(rows[r], key=str):
            free = [j for j in range(S) if row[j] is not None and j not in taken]
            seen = max((i for i in row if i is not None), default=-1)
            for k in range(min(per_round, len(free)) + 1):
                for bought in combinations(free, k):
                    if r == puzzle.rounds:
                        purchases.append(Purchase(r, row, bought, None))
                        continue
                    left = [j for j in free if j not in bought]      # in row order: the first are discarded
                    kept = [i for j in left[discards:] if (i := row[j]) is not None]
                    refill = (kept + list(range(seen + 1, len(queue))))[:S]
                    after = tuple(refill) + (None,) * (S - len(refill))
                    purchases.append(Purchase(r, row, bought, after))
                    following.add(after)
        if r < puzzle.rounds:
            rows[r + 1] = frozenset(following)
    return Market(queue, rows, tuple(purchases))


def add_row_trajectories(pm: PlanModel) -> int:
    """The market's graph as a flow in ``pm``: one unit leaves the first round's row, each row's
    inflow leaves it again, what lies under each slot is the flow through the rows that hold it
    there, and the player's flasks on a row slot in a round are the flow over the arcs buying
    there. Returns the rows added (0 where the graph does not describe the market)."""
    puzzle = pm.puzzle
    if puzzle.epigenetic is not None:
        return 0
    per_round = max(s.index for s in pm.slots) + 1
    graph = market(puzzle, per_round)
    if reshuffle.comeback_entries(puzzle, list(graph.queue)):
        return 0
    lm = pm.lm
    lm.section("spots.card-row")
    arc = [lm.bool(f"row_history[r{p.round_},{n}]") for n, p in enumerate(graph.purchases)]
    leaving: dict[tuple[int, Row], list[int]] = {}
    entering: dict[tuple[int, Row], list[int]] = {}
    buying: dict[tuple[int, int], list[int]] = {}      # (round, row slot) -> the arcs buying there
    for n, p in enumerate(graph.purchases):
        leaving.setdefault((p.round_, p.before), []).append(n)
        if p.after is not None:
            entering.setdefault((p.round_ + 1, p.after), []).append(n)
        for j in p.slots:
            buying.setdefault((p.round_, j), []).append(n)
    added = 0
    through: dict[tuple[int, Row], Expr] = {}
    for r, rows in graph.rows.items():
        for row in rows:
            out = total(arc[n] for n in leaving.get((r, row), []))
            lm.eq(out, 1 if r == 1 else total(arc[n] for n in entering.get((r, row), [])))
            through[r, row] = out
            added += 1
    under: dict[tuple[int, int, str], list[Expr]] = {}
    for (r, row), flow in through.items():
        for j, i in enumerate(row):
            if i is not None:
                under.setdefault((r, j, graph.queue[i]), []).append(flow)
    for (r, j, card), term in pm.at.items():
        lm.eq(term, total(under.get((r, j, card), [])))
        added += 1
    row_acts = {a.spot.row_slot: i for i, a in enumerate(pm.acts) if a.spot is not None and a.spot.kind is SpotKind.CARD_ROW}
    for r in range(1, puzzle.rounds + 1):
        for j, i in row_acts.items():
            flasks = total(pm.x[s.t, i] for s in pm.slots if s.round == r and (s.t, i) in pm.x)
            lm.eq(flasks, total(arc[n] for n in buying.get((r, j), [])))
            added += 1
    return added
