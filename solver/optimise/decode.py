"""Stage 2 of the planner: a solution's values read back as the engine's actions (:func:`decode`),
and a plan written as variable values (:func:`hint_values`, :func:`prefix_values`) for hints and
fixed prefixes.
"""
from __future__ import annotations

from solver.encoding.linear import Expr, Var
from solver.game.editions import rules_for
from solver.game.engine import Action, ActionKind, State, apply_legal, initial_state, why_illegal
from solver.game.errors import SolverError
from solver.game.model import Resource, SpotKind
from solver.game.rules import epigenetic
from solver.optimise.model.plan_model import PlanModel, Slot, term_value


def decode(pm: PlanModel, values: list[int]) -> list[Action]:
    """The engine actions of a solution (plays first in a slot, then its placement; after a
    round's last placement, the plays and the ``end-turn`` of the turn the engine keeps open:
    :func:`_open_turn_actions`)."""
    puzzle, acts = pm.puzzle, pm.acts
    plan: list[Action] = []
    chosen_bump = rules_for(puzzle.edition).removal_is_chosen()
    for s in pm.slots:
        t = s.t
        if s.index == 0 and s.round > 1:   # the end of the round before's last turn, before Phase 2
            plan += _open_turn_actions(pm, s.round - 1, values)
        if term_value(pm.noop[t], values):
            continue
        if s.index == 0:
            plan += [Action(ActionKind.INCOME, resource=r) for (rr, r), v in pm.income.items()
                     if rr == s.round and term_value(v, values)]
        for (tt, c), v in sorted(pm.play.items()):
            if tt == t and term_value(v, values):
                plan.append(Action(ActionKind.PLAY_CARD, card=c))
        for (tt, r), v in pm.trade.items():
            if tt == t:
                plan += [Action(ActionKind.TRADE, resource=r)] * term_value(v, values)
        i = next(i for i in range(len(acts)) if values[pm.x[t, i].index])
        a = acts[i]
        if a.spot is None:
            plan.append(Action(ActionKind.EXHAUST, resource=a.resource))
            continue
        card = a.card
        if a.spot.kind is SpotKind.CARD_ROW:
            card = next(c for (r, j, c), v in pm.at.items() if r == s.round and j == a.spot.slot and term_value(v, values))
        bump = None
        if chosen_bump:
            for (tt, c, _A), v in pm.bump_own.items():
                if tt == t and term_value(v, values):
                    bump = f"own:{c}"
            for (tt, d), v in pm.bump_opp.items():
                if tt == t and term_value(v, values):
                    bump = d
        amount = term_value(pm.amount[t], values) if a.spot.kind is SpotKind.FREE_RIBOSOME else None
        extra = any(term_value(v, values) for (tt, _r), v in pm.extra.items() if tt == t)
        plan.append(Action(ActionKind.PLACE, spot=a.spot.id, grey=bool(term_value(pm.grey[t], values)), card=card,
                           amount=amount, goal=a.goal, bump=bump, disk=a.disk, extra=extra))
    return plan


def _open_turn_actions(pm: PlanModel, round_: int, values: list[int]) -> list[Action]:
    """The actions after round ``round_``'s last placement in the turn the engine keeps open for
    Macromolecule cards (:class:`OpenTurn`): the cards played there (``play_after``), then
    ``end-turn`` if the turn is still open (the engine closes it by itself once the discard pile
    holds two cards or no card is held: :func:`solver.game.rules.macromolecule_cards.played_before_phase_2`)."""
    turn = pm.open_turn.get(round_)
    if turn is None:
        return []
    held = sorted(c for c, e in turn.held.items() if term_value(e, values))
    pile, room = term_value(turn.pile, values), term_value(turn.room, values)
    out = []
    for c in [c for c in held if term_value(pm.play_after[round_, c], values)]:
        out.append(Action(ActionKind.PLAY_CARD, card=c))
        held.remove(c)
        pile += 1
    if room and pile <= 1 and held:
        out.append(Action(ActionKind.END_TURN))
    return out


class _Hints:
    """The variable values a plan writes into the model: a value asked of a model constant must
    be that constant (else the plan does not fit the model)."""

    def __init__(self) -> None:
        self.values: dict[Var, int] = {}

    def set(self, v: Var | Expr, val: int) -> None:
        if isinstance(v, Var):
            self.values[v] = val
        elif Expr.of(v).const != val:
            raise SolverError(f"hint: the plan needs {val} where the model has the constant {Expr.of(v).const}")


def hint_values(pm: PlanModel, plan: list[Action], consumed: set[int] | None = None) -> dict[Var, int]:
    """Decision-variable values that write ``plan`` into the model's slots, legal or not (an
    illegal plan makes the model infeasible once these values are fixed). Raises
    :class:`SolverError` when the plan does not fit the slots at all. ``consumed``, when given,
    makes ``plan`` a prefix: it receives the slots (``Slot.t``) the plan's actions use, and the
    slots after them are not written as empty. A card played in a turn the engine keeps open after
    the round's last flask is a ``play_after`` of that round, and the ``end-turn`` closing it has
    no variable (the plan is replayed in the engine to tell that turn, as far as it is legal)."""
    puzzle = pm.puzzle
    per_round = {r: [s for s in pm.slots if s.round == r] for r in range(1, puzzle.rounds + 1)}
    pos = {r: 0 for r in per_round}
    hints = _Hints()
    for v in list(pm.x.values()) + list(pm.play.values()) + list(pm.extra.values()) \
            + list(pm.trade.values()) + list(pm.income.values()) + list(pm.play_after.values()):
        if consumed is None or isinstance(v, Var):   # a prefix leaves later slots' constants alone
            hints.set(v, 0)
    traded: dict[tuple[int, Resource], int] = {}
    carries_other: dict[str, bool] = {}   # disk -> its Golgi placement took another card's cube
    normals = 0
    state: State | None = initial_state(puzzle)   # the engine's, to tell a turn kept open (None: the plan went illegal)
    for action in plan:
        open_turn = state is not None and state.after_flask and state.flasks_left == 0
        if state is not None:
            state = apply_legal(state, action) if why_illegal(state, action) is None else None
        if open_turn and action.kind is ActionKind.END_TURN:
            continue   # closes the turn the cards played after the round's last placement kept open
        if open_turn and action.kind is ActionKind.PLAY_CARD:
            key = (normals // puzzle.flasks, str(action.card))
            if key not in pm.play_after:
                raise SolverError(f"hint: no model variable to play {action.card} after round {key[0]}'s last placement")
            hints.set(pm.play_after[key], 1)
            continue
        r = normals // puzzle.flasks + 1
        if r > puzzle.rounds or pos[r] >= len(per_round[r]):
            raise SolverError(f"hint: {action} does not fit in the model's slots")
        s = per_round[r][pos[r]]
        if _write_turn_action(pm, hints, s, action, traded):
            continue
        _write_placement(pm, hints, s, action, carries_other)
        pos[r] += 1
        if not action.grey:
            normals += 1
    if consumed is not None:    # a prefix: the slots after it stay free
        consumed.update(s.t for r, rs in per_round.items() for s in rs[:pos[r]])
        return hints.values
    for r, rs in per_round.items():
        for s in rs[pos[r]:]:
            hints.set(pm.noop[s.t], 1)
            hints.set(pm.grey[s.t], 0)
    return hints.values


def _write_turn_action(pm: PlanModel, hints: _Hints, s: Slot, action: Action,
                       traded: dict[tuple[int, Resource], int]) -> bool:
    """Write an action that takes no flask (a round's Epigenetic income, an ATP trade, a card
    played) into slot ``s``'s variables; False when ``action`` is a flask's (a placement or an
    exhausted flask)."""
    if action.kind is ActionKind.INCOME:
        if (s.round, action.resource) not in pm.income or s.index:
            raise SolverError(f"hint: no model variable for {action} at this point")
        assert action.resource is not None, "a key of pm.income"
        hints.set(pm.income[s.round, action.resource], 1)
        return True
    if action.kind is ActionKind.TRADE:
        if (s.t, action.resource) not in pm.trade:
            raise SolverError(f"hint: no model variable for {action}")
        assert action.resource is not None, "a key of pm.trade"
        traded[s.t, action.resource] = traded.get((s.t, action.resource), 0) + 1
        hints.set(pm.trade[s.t, action.resource], traded[s.t, action.resource])
        return True
    if action.kind in (ActionKind.PEEK, ActionKind.END_TURN):
        raise SolverError(f"hint: the model has no deck reordering for {action}")
    if action.kind is ActionKind.PLAY_CARD:
        if (s.t, action.card) not in pm.play:
            raise SolverError(f"hint: no model variable to play {action.card}")
        assert action.card is not None, "a key of pm.play"
        hints.set(pm.play[s.t, action.card], 1)
        return True
    return False


def _write_placement(pm: PlanModel, hints: _Hints, s: Slot, action: Action, carries_other: dict[str, bool]) -> None:
    """Write a flask's action (a placement with its card, goal, disk, extra cube and amount, or
    an exhausted flask) into slot ``s``'s variables."""
    puzzle = pm.puzzle
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
            hints.set(pm.x[s.t, i], 1)
            break
    else:
        raise SolverError(f"hint: no model action for {action}")
    hints.set(pm.grey[s.t], int(action.grey))
    hints.set(pm.noop[s.t], 0)
    if action.extra:
        assert action.spot is not None, "extra is a placement's (why_illegal)"
        key = (s.t, epigenetic.extra_resource(puzzle.board.spot(action.spot)))
        if key not in pm.extra:
            raise SolverError(f"hint: no model variable for the extra cube of {action}")
        hints.set(pm.extra[key], 1)
    if action.kind is ActionKind.PLACE and action.amount is None and action.spot is not None and \
            puzzle.board.spot(action.spot).kind is SpotKind.FREE_RIBOSOME:
        raise SolverError(f"hint: {action} names no amount of mRNA")
    if s.t in pm.amount:
        hints.set(pm.amount[s.t], action.amount or 0)
    elif action.amount is not None:
        raise SolverError(f"hint: {action} has an amount the model cannot hold")


def prefix_values(pm: PlanModel, prefix: list[Action]) -> dict[Var, int]:
    """The decision-variable values that ``prefix`` (a legal start of a plan ending with a flask
    placement or an exhausted flask, so on a slot boundary) writes into the slots it uses; every
    later slot, and the income of every round it has not reached, are left free. Fixing them gives
    the model of "the best plan starting with ``prefix``". Raises :class:`SolverError` when the
    prefix does not end on a slot boundary or does not fit the model."""
    if not prefix or not prefix[-1].kind.is_flask:
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
    # the plays after round r's last placement are the prefix's once it has gone on into round r + 1
    keep.update(v for (r, _c), v in pm.play_after.items() if r + 1 in rounds)
    return {v: value for v, value in full.items() if v in keep}
