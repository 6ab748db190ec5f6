"""The constraint families of the vesicle route: disks in the ER, the Golgi and at Exocytosis, full
areas, the disk supply, and what an action on a card needs and changes.
"""
from __future__ import annotations

from collections.abc import Callable

from solver.encoding.linear import Expr, Var, total
from solver.game.engine import DISKS, turn_position
from solver.game.model import CardType, OpponentDisk, SpotKind, VesicleArea
from solver.optimise.model.context import VESICLE_AREAS, AreaStates, BuildContext, spot_kind
from solver.optimise.model.plan_model import Slot, constant_value
from solver.optimise.model.terms import and_mixed, as_bool, negation


def add_vesicle_areas(m: BuildContext) -> None:
    """A disk entering a full vesicle area removes one disk there (``pm.bump_own``, ``pm.bump_opp``):
    the player's choice (1e), or the disk of the player highest on the Health Track, ties to the
    earliest in turn order (2e) (``Rules.removal_is_chosen``; spots.golgi, spots.rough-er)."""
    lm, board, routes = m.lm, m.puzzle.board, m.routes
    lm.section("spots.golgi")
    in_area: dict[VesicleArea, AreaStates] = {}
    for A in VESICLE_AREAS:
        if A is VesicleArea.GOLGI:
            in_area[A] = [(c, m.in_golgi) for c in m.vesicle]
        else:
            in_area[A] = [(c, m.er) for c in m.vesicle if routes[c].er is A]
    opp_in = {A: [d for d in m.s0.opp_disks if d.area is A] for A in VESICLE_AREAS}
    chosen = m.rules.removal_is_chosen()
    for s in m.slots:
        t = s.t
        for A in VESICLE_AREAS:
            if A is VesicleArea.GOLGI:
                ent = m.X(t, lambda a: spot_kind(a) is SpotKind.GOLGI)
            else:
                ent = m.X(t, lambda a, A=A: a.card in routes and m.is_er(a) and routes[a.card].er is A)
            cap = board.vesicle_count(A)
            own_max = min(DISKS, len(in_area[A]))
            if not ent.terms or own_max + len(opp_in[A]) < cap:
                continue   # the area can never be full
            occupancy = total(st[t, c] for c, st in in_area[A]) + total(m.opp[t, d.id] for d in opp_in[A])
            full = lm.reify_ge(f"full[{s.tag},{A.value}]", occupancy, cap)
            ent_b = as_bool(lm, f"enter[{s.tag},{A.value}]", ent)
            ef = and_mixed(lm, f"enter_full[{s.tag},{A.value}]", [ent_b, full])
            if chosen:
                _removal_chosen(m, s, A, ef, in_area[A], opp_in[A])
            else:
                _removal_by_health(m, s, A, ef, in_area[A], opp_in[A])


def _removal_chosen(m: BuildContext, s: Slot, A: VesicleArea, ef: Var | Expr, own: AreaStates,
                    opps: list[OpponentDisk]) -> None:
    """1e: the player removes a disk of their choice from the full area ``A`` when theirs enters
    (``ef``)."""
    lm, t = m.lm, s.t
    removed = []
    for c, st in own:
        b = lm.bool(f"bump[{s.tag},{A.value},own:{c}]")
        lm.le(b, st[t, c])
        m.pm.bump_own[t, c, A] = b
        removed.append(b)
    for d in opps:
        b = lm.bool(f"bump[{s.tag},{d.id}]")
        lm.le(b, m.opp[t, d.id])
        m.pm.bump_opp[t, d.id] = b
        removed.append(b)
    lm.eq(total(removed), ef)


def _removal_by_health(m: BuildContext, s: Slot, A: VesicleArea, ef: Var | Expr, own: AreaStates,
                       opp_in: list[OpponentDisk]) -> None:
    """2e: entering the full area ``A`` (``ef``) removes the first disk of the player highest on
    the Health Track (the player's own Health a variable, the others' fixed), ties to the earliest
    in turn order (which may depend on ``leads``); each player's disks in the engine's tie-break order."""
    lm, puzzle, t = m.lm, m.puzzle, s.t
    opp, bump_own, bump_opp = m.opp, m.pm.bump_own, m.pm.bump_opp
    own_key: Callable[[str], list[int]] = lambda c: [-ord(ch) for ch in f"own:{c}"]  # noqa: E731 - same tie-break as the engine
    owns = sorted(own, key=lambda cs: own_key(cs[0]), reverse=True)
    top_own, seen = [], Expr()
    for c, st in owns:
        top_own.append((c, and_mixed(lm, f"top_own[{s.tag},{c}]", [st[t, c], negation(lm, seen)])))
        seen = seen + st[t, c]
    any_own = lm.reify_ge(f"any_own[{s.tag},{A.value}]", seen, 1)
    # the other players' disk first in line, under each possible turn order of the round
    lead = m.leads[s.round]
    tops = {}
    for led in ((0, 1) if constant_value(lead) is None else (constant_value(lead),)):
        pos = {d.id: turn_position(puzzle, d.seat, bool(led), s.round) for d in opp_in}
        opps = sorted(opp_in, key=lambda d: (d.health, -pos[d.id], [-ord(ch) for ch in d.id]),
                      reverse=True)
        seen = Expr()
        for d in opps:
            tops[led, d.id] = and_mixed(lm, f"top_opp[{s.tag},{d.id},lead{led}]",
                                         [opp[t, d.id], negation(lm, seen)])
            seen = seen + opp[t, d.id]
    top_opp = []
    for d in opp_in:
        if (0, d.id) in tops and (1, d.id) in tops:
            tb = (and_mixed(lm, f"top_opp[{s.tag},{d.id},l]", [tops[1, d.id], lead])
                  + and_mixed(lm, f"top_opp[{s.tag},{d.id},nl]", [tops[0, d.id], negation(lm, lead)]))
        else:
            tb = tops[next(k for k in tops if k[1] == d.id)]
        top_opp.append((d, tb))
    # the player, tied on Health with that disk's owner, is removed if earlier in turn order
    own_pos = {led: turn_position(puzzle, puzzle.seat, bool(led), s.round) for led in (0, 1)}
    thr = Expr()
    for d, tb in top_opp:
        later = {led: int(own_pos[led] > turn_position(puzzle, d.seat, bool(led), s.round)) for led in (0, 1)}
        thr = thr + tb * d.health
        if (led := constant_value(lead)) is not None:
            thr = thr + tb * later[led]
        elif later[0] or later[1]:
            thr = (thr + and_mixed(lm, f"later[{s.tag},{d.id},l]", [tb, lead]) * later[1]
                   + and_mixed(lm, f"later[{s.tag},{d.id},nl]", [tb, negation(lm, lead)]) * later[0])
    own_wins = lm.reify_ge(f"own_highest[{s.tag},{A.value}]", m.health[t] - thr, 0)
    own_out = and_mixed(lm, f"own_out[{s.tag},{A.value}]", [own_wins, any_own])
    for c, tb in top_own:
        b = and_mixed(lm, f"bump[{s.tag},{A.value},own:{c}]", [ef, tb, own_out])
        bump_own[t, c, A] = b
    for d, tb in top_opp:
        b = and_mixed(lm, f"bump[{s.tag},{d.id}]", [ef, tb, negation(lm, own_out)])
        bump_opp[t, d.id] = b


def add_disk_supply(m: BuildContext) -> None:
    """Starting a card's disk in the ER needs a disk in supply: at most ``DISKS`` on the board,
    those removed this slot freed (spots.rough-er, spots.smooth-er-detox-steroid)."""
    lm = m.lm
    lm.section("spots.rough-er")
    for s in m.slots:
        t = s.t
        ent_er = m.X(t, m.is_er)
        if not ent_er.terms:
            continue
        on_board = total(Expr.of(m.er[t, c]) + m.in_golgi[t, c] for c in m.vesicle)
        freed = total(m.bump_c(t, c) for c in m.vesicle)
        lm.le(on_board - freed + ent_er, DISKS)


def add_card_preconditions(m: BuildContext) -> None:
    """What an action on a card needs: the card in hand (ER, Smooth ER detox, Cytoplasm,
    Exocytosis, the card a Golgi cube is now aimed at), its disk not yet on the board (ER), in
    the ER (Golgi) or in the Golgi with the right cube (Exocytosis); a Macromolecule card played
    from hand, at a slot with a flask (cards.hormones)."""
    lm, x, hand, play = m.lm, m.x, m.hand, m.pm.play
    lm.section("cards.hormones")
    for s in m.slots:
        t = s.t
        for i, a in enumerate(m.acts):
            c = a.card
            if c is None:
                continue
            k = spot_kind(a)
            if m.is_er(a):
                lm.le(x[t, i], hand[t, c])
                lm.le(x[t, i], 1 - Expr.of(m.er[t, c]) - m.in_golgi[t, c])
            elif k is SpotKind.GOLGI:
                lm.le(x[t, i], m.er[t, a.disk or c])
                if a.disk is not None:   # the card now aimed at is in hand
                    lm.le(x[t, i], hand[t, c])
            elif k is SpotKind.EXOCYTOSIS:
                lm.le(x[t, i], (m.gx if a.other_cube else m.go)[t, a.disk or c])
                lm.le(x[t, i], hand[t, c])
            else:  # detox / enzyme from hand
                lm.le(x[t, i], hand[t, c])
        for c in m.macro_cards:
            lm.le(play[t, c], hand[t, c])
            lm.le(play[t, c], 1 - Expr.of(m.pm.noop[t]))


def add_card_transitions(m: BuildContext) -> None:
    """From one slot to the next: cards enter the hand when bought and leave it when completed or
    played, completed cards count as done, disks move ER -> Golgi -> Exocytosis (with their own or
    another card's cube) or leave a full area, other players' disks leave when removed
    (cards.macromolecule, spots.card-row, cards.hormones, spots.golgi)."""
    lm, X, ctype, hand, done = m.lm, m.X, m.ctype, m.hand, m.done
    er, go, gx = m.er, m.go, m.gx
    completes = {}
    for s in m.slots:
        t = s.t
        for c in m.reach:
            completes[t, c] = X(t, lambda a, c=c: a.card == c and (
                spot_kind(a) in (SpotKind.EXOCYTOSIS, SpotKind.CYTOPLASM)
                or (spot_kind(a) is SpotKind.DETOX_STEROID and ctype[c] is CardType.DETOX)))
    for s in m.slots:
        t = s.t
        last = s.index == m.per_round - 1
        for c in m.reach:
            lm.section("cards.macromolecule" if c in m.macro_cards else "spots.card-row")
            gone = completes[t, c] + (m.pm.play[t, c] if c in m.macro_cards else 0)
            held = Expr.of(hand[t, c]) + m.bought.get((t, c), Expr()) - gone
            after = m.pm.play_after.get((s.round, c)) if last else None
            if after is not None:   # played after the round's last placement (open turn)
                m.pm.open_turn[s.round].held[c] = held
                held = held - after
            lm.eq(hand[t + 1, c], held)
            if (t, c) in done:
                lm.section("cards.hormones")
                lm.eq(done[t + 1, c], done[t, c] + completes[t, c])
        for c in m.vesicle:
            lm.section("spots.golgi")
            xer = X(t, lambda a, c=c: a.card == c and m.is_er(a))
            xg_own = X(t, lambda a, c=c: a.card == c and spot_kind(a) is SpotKind.GOLGI and a.disk is None)
            xg_other = X(t, lambda a, c=c: a.disk == c and spot_kind(a) is SpotKind.GOLGI)
            xe_own = X(t, lambda a, c=c: a.disk_card == c and spot_kind(a) is SpotKind.EXOCYTOSIS and not a.other_cube)
            bump_g, b_other = m.bump_c(t, c, VesicleArea.GOLGI), Expr()
            if c in m.other_cube:
                xe_other = X(t, lambda a, c=c: a.disk_card == c and spot_kind(a) is SpotKind.EXOCYTOSIS and a.other_cube)
                # a disk removed from the full Golgi area carries its own card's cube or another's
                if bump_g.terms:
                    b_other = Expr.of(and_mixed(lm, f"bump_other_cube[{s.tag},{c}]", [bump_g, gx[t, c]]))
                m.bump_other[t, c] = b_other
                lm.eq(gx[t + 1, c], Expr.of(gx[t, c]) + xg_other - xe_other - b_other)
            lm.eq(er[t + 1, c], er[t, c] + xer - xg_own - xg_other - m.bump_c(t, c, m.routes[c].er))
            lm.eq(go[t + 1, c], go[t, c] + xg_own - xe_own - (bump_g - b_other))
        for d in m.s0.opp_disks:
            lm.eq(m.opp[t + 1, d.id], m.opp[t, d.id] - Expr.of(m.pm.bump_opp.get((t, d.id), lm.const(0))))
