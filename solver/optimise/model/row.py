"""The constraint families of the card row (purchases, refills, discards) and of the turn order
within a round.
"""
from __future__ import annotations

from typing import cast

from solver.encoding.linear import Expr, Term, Var, total
from solver.game.model import SpotKind
from solver.game.rules import macromolecule_cards, reshuffle
from solver.optimise.model.context import BuildContext, spot_kind
from solver.optimise.model.plan_model import OpenTurn, constant_value, is_constant
from solver.optimise.model.terms import and_mixed, as_bool, negation, count_path


def add_card_row(m: BuildContext) -> None:
    """The card row round by round: what lies under each row slot (``pm.at``; round 1 as dealt,
    later rounds the first cards still in play, in queue order), a flask on a row slot buys the
    card there (``bought``), other players' flasks buy theirs, and Phase 2 discards the first
    cards left in row order (one; two in a two-player game) (spots.card-row, gameplay.phase-2).

    A card one-card reshuffles can bring back has a row entry of its own (``comeback``,
    :mod:`solver.game.rules.reshuffle`), alive from the round it comes back: ``queue`` below is the
    row's queue of entries, ``card_of`` the card of each."""
    lm, queue = m.lm, m.queue
    card_of = {**{c: c for c in queue}, **{key: c for key, c, _ in m.comeback}}
    queue = queue + [key for key, _, _ in m.comeback]
    pile: dict[str, Term] = {}
    alive: dict[tuple[int, str], Var | Expr] = {(1, c): lm.const(int(c == card_of[c])) for c in queue}
    for r in range(1, m.rounds + 1):
        _row_positions(m, r, queue, alive)
        taken = _row_purchases(m, r, queue, alive)
        if r < m.rounds:
            _phase_2_discards(m, r, queue, alive, taken, pile, card_of)
    reshuffle.merge_entries(m.pm.at, m.bought, card_of)


def _row_positions(m: BuildContext, r: int, queue: list[str], alive: dict[tuple[int, str], Var | Expr]) -> None:
    """``pm.at`` for round ``r``: round 1 as dealt; later, card ``c`` lies in row slot ``j`` when
    it is alive and exactly ``j`` alive cards precede it in the queue."""
    lm, at, S = m.lm, m.pm.at, len(m.puzzle.board.row_slots)
    if r == 1:
        for j in range(S):
            for c in queue:
                at[1, j, c] = lm.const(int(m.s0.row[j] == c))
        return
    lm.section("gameplay.phase-2")
    if m.opt.row_paths:
        ahead_of = count_path(lm, f"row_path[r{r}]", [(c, alive[r, c]) for c in queue], S)
        for c in queue:
            for j in range(S):
                at[r, j, c] = as_bool(lm, f"at[r{r},slot{j + 1},{c}]", ahead_of[c][j])
        return
    for n, c in enumerate(queue):
        before = total(alive[r, q] for q in queue[:n])
        a_c = alive[r, c]
        for j in range(S):
            if constant_value(a_c) == 0:
                at[r, j, c] = lm.const(0)
                continue
            ge_j = lm.reify_ge(f"rowpos_ge[r{r},{c},{j}]", before, j)
            ge_j1 = lm.reify_ge(f"rowpos_ge[r{r},{c},{j + 1}]", before, j + 1)
            at[r, j, c] = and_mixed(lm, f"at[r{r},slot{j + 1},{c}]", [a_c, ge_j, negation(lm, ge_j1)])


def _row_purchases(m: BuildContext, r: int, queue: list[str], alive: dict[tuple[int, str], Var | Expr]) -> dict[str, Expr]:
    """Round ``r``'s purchases: a flask on a row slot buys the card there (``bought``); other
    players' flasks on row slots have bought theirs (engine: _opponents_buy), returned by card."""
    lm, at, x, opt, S = m.lm, m.pm.at, m.x, m.opt, len(m.puzzle.board.row_slots)
    lm.section("spots.card-row")
    occ_r = set(m.occupied(r))
    taken_slots = [sp.row_slot for sp in m.puzzle.board.row_slots if sp.id in occ_r]
    taken = {c: total(at[r, j, c] for j in taken_slots) for c in queue}
    if opt.row_cuts and r > 1:
        # true of every integer solution, but not of the LP relaxation, where a slot could
        # hold a share of several cards and one flask buy a share of each
        for j in range(S):
            lm.le(total(at[r, j, c] for c in queue), 1)
        for c in queue:
            lm.le(total(at[r, j, c] for j in range(S)), alive[r, c])
    row_acts = {a.spot.row_slot: i for i, a in enumerate(m.acts) if a.spot is not None and a.spot.kind is SpotKind.CARD_ROW}
    rs = m.by_round[r]
    for j, i in row_acts.items():
        present = Expr() if j in taken_slots else total(at[r, j, c] for c in queue)
        lm.le(total(x[s.t, i] for s in rs), 1)      # a bought slot stays empty this round
        for s in rs:
            lm.le(x[s.t, i], present)
            buys = Expr()
            for c in queue:
                a_ = at[r, j, c]
                if constant_value(a_) == 0:
                    continue
                # not a constant (constant_value above): the variable and_mixed returned
                b = x[s.t, i] if constant_value(a_) == 1 else lm.and_(f"buy[{s.tag},slot{j + 1},{c}]", [x[s.t, i], cast(Var, a_)])
                m.bought[s.t, c] = m.bought.get((s.t, c), Expr()) + b
                buys = buys + b
            if opt.row_cuts and j not in taken_slots:
                lm.eq(buys, x[s.t, i])
    return taken


def _phase_2_discards(m: BuildContext, r: int, queue: list[str], alive: dict[tuple[int, str], Var | Expr],
                      taken: dict[str, Expr], pile: dict[str, Term], card_of: dict[str, str]) -> None:
    """Round ``r``'s Phase 2: the first cards left in row order are discarded (one; two in a
    two-player game) onto the discard pile, what stays alive into round ``r + 1``, and the cards a
    one-card reshuffle brings back (:func:`solver.game.rules.reshuffle.encode_comeback`)."""
    lm, bought, rs, S = m.lm, m.bought, m.by_round[r], len(m.puzzle.board.row_slots)
    discard_n = 2 if m.puzzle.players == 2 else 1
    lm.section("gameplay.phase-2")
    remain = {}
    for c in queue:
        inrow = total(m.pm.at[r, j, c] for j in range(S))
        remain[c] = inrow - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c]
    # the first discard_n cards left in the row go: a card left with fewer left before it
    left_ahead = count_path(lm, f"discard_path[r{r}]", [(c, remain[c]) for c in queue], discard_n) \
        if m.opt.row_paths else {}
    for n, c in enumerate(queue):
        if m.opt.row_paths:
            disc = as_bool(lm, f"discard[r{r},{c}]", total(left_ahead[c][:discard_n]))
        else:
            ahead = total(remain[q] for q in queue[:n])
            rem_b = as_bool(lm, f"row_left[r{r},{c}]", remain[c])
            first = lm.reify_ge(f"row_ahead_lt[r{r},{c}]", discard_n - 1 - ahead, 0)
            disc = and_mixed(lm, f"discard[r{r},{c}]", [rem_b, first])
        alive[r + 1, c] = alive[r, c] - total(bought.get((s.t, c), Expr()) for s in rs) - taken[c] - disc
        if not is_constant(alive[r + 1, c]):
            v = lm.bool(f"alive[r{r + 1},{c}]")
            lm.eq(v, alive[r + 1, c])
            alive[r + 1, c] = v
        pile[card_of[c]] = total([pile.get(card_of[c], 0), disc])
    played = {c: total(m.pm.play[s.t, c] for s in rs) for c in m.macro_cards}
    after_last = {}
    if any(k == r for _, _, k in m.comeback):   # cards played after the round's last placement
        after_last = {c: lm.bool(f"play_after[r{r},{c}]") for c in m.macro_cards if m.arrival.get(c, 1) <= r}
    decides = reshuffle.encode_comeback(lm, r, S, pile, played, alive, queue, m.comeback, after_last)
    if decides is not None and after_last:
        room, before = decides
        macromolecule_cards.encode_played_before_phase_2(lm, r, after_last, room, before)
        m.pm.play_after.update({(r, c): v for c, v in after_last.items()})
        m.pm.open_turn[r] = OpenTurn(room, before)


def add_turn_order(m: BuildContext) -> None:
    """Who is earliest in each round's turn order (``leads``; engine: State.leads_round,
    _leads_next_round): the player leads round 1 with the First Player Marker; they lead round
    r + 1 if a flask of theirs went on Laureates in round r, or they led round r and no other
    player took it (spots.laureates)."""
    lm, puzzle = m.lm, m.puzzle
    lm.section("spots.laureates")
    leads = m.leads
    leads[1] = lm.const(int(puzzle.first_player))
    for r in range(1, m.rounds):
        took = total(m.X(s.t, lambda a: spot_kind(a) is SpotKind.LAUREATES) for s in m.by_round[r])
        took_b = lm.reify_ge(f"took_marker[r{r}]", took, 1) if Expr.of(took).terms else lm.const(0)
        if any(puzzle.board.spot(p).kind is SpotKind.LAUREATES for p in m.occupied(r)):
            leads[r + 1] = took_b
        elif constant_value(leads[r]) == 0:
            leads[r + 1] = took_b
        else:
            leads[r + 1] = lm.reify_ge(f"leads[r{r + 1}]", Expr.of(took_b) + leads[r], 1)
