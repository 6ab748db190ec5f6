"""The warm start for whole games (issue #15): a good legal plan found quickly, handed to CP-SAT as
a hint when a whole game is recorded (:func:`solver.io.offline.record`) and timed by the deck
benchmark. A beam search through the rules engine (:func:`beam_plan`), then a large-neighbourhood
search with CP-SAT (:func:`lns_improve`). Never an optimum: every plan it returns is scored by the
engine, and the recorded bound is CP-SAT's.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # the engine is imported where it is used
    from solver.game.engine import Action, State
    from solver.game.model import Puzzle
    from .planner import SearchStop


STAGE_SHARE = {"hand": 0.2, "er": 0.45, "golgi": 0.7}
"""The share of a card's Health Points a beam state is credited with for a card held (``hand``),
or for its disk on the ER or the Golgi: a guess that steers the beam, never a score."""


def potential(state: State) -> float:
    """The beam's estimate of a state: its end-game score now, plus a share of each unfinished
    card's Health Points by how far its disk has gone, plus a little for the stock. Only ever used
    to choose which partial plans to keep; every plan it returns is scored by the engine."""
    from solver.game.engine import returns
    from solver.game.model import VesicleArea
    puzzle = state.puzzle
    value = float(returns(state))
    on_route = {d.card: d.area for d in state.disks if d.card}
    for c in state.hand:
        card = puzzle.card(c)
        area = on_route.get(c)
        share = STAGE_SHARE["hand"] if area is None else (
            STAGE_SHARE["golgi"] if area is VesicleArea.GOLGI else STAGE_SHARE["er"])
        value += share * max(card.health, 1)
    return value + 0.05 * sum(state.stock.as_tuple())


def beam_plan(puzzle: Puzzle, width: int = 64) -> tuple[list[Action], int]:
    """A good legal plan found quickly by a beam search through the rules engine: at each step the
    ``width`` best distinct states by :func:`potential`. Returns (plan, final Health Points); the
    best complete plan seen, ``([], -1)`` when no complete plan was found. A warm start for the
    planner (a hint), not an optimum."""
    from solver.game.engine import apply, initial_state, is_terminal, legal_actions, returns
    beam: list[tuple[State, tuple[Action, ...]]] = [(initial_state(puzzle), ())]
    best_plan: list[Action] = []
    best_value = -1
    while beam:
        children: dict[State, tuple[Action, ...]] = {}
        for state, plan in beam:
            for action in legal_actions(state):
                nxt = apply(state, action)
                if nxt in children:
                    continue
                children[nxt] = plan + (action,)
        beam = []
        scored = []
        for state, plan in children.items():
            if is_terminal(state):
                value = returns(state)
                if value > best_value:
                    best_plan, best_value = list(plan), value
            else:
                scored.append((potential(state), state, plan))
        scored.sort(key=lambda item: -item[0])
        beam = [(state, plan) for _, state, plan in scored[:width]]
    return best_plan, best_value


LNS_WINDOW = 4
"""Rounds a neighbourhood frees. On the recorded whole games (44 placements) CP-SAT solves a
4-round window to optimality in about 10 deterministic seconds on one worker. From the recorded
plans, 4-round windows raised the 1st edition's 56 to 58 and the 2nd edition's 54 to 59; 3-round
windows left the 1st edition's at 56; 6-round windows were not solved within 60 (session 39)."""
LNS_DETERMINISTIC_SECONDS = 20.0
"""CP-SAT's budget for one window, in deterministic seconds (on one worker, so a search that is
not cut short by its wall-clock budget gives the same plan on every machine)."""


def lns_improve(puzzle: Puzzle, plan: list[Action], *, window: int = LNS_WINDOW,
                deterministic_time: float = LNS_DETERMINISTIC_SECONDS, passes: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                budget: float | None = None, stop: SearchStop | None = None,
                on_plan: Callable[[list[Action], int], None] | None = None, widen: bool = False,
                on_bound: Callable[[int], None] | None = None) -> tuple[list[Action], int]:
    """Large-neighbourhood search with CP-SAT from ``plan``: the placements of every round outside
    a window of ``window`` consecutive rounds are fixed to the current plan's, the window is solved
    (one worker, ``deterministic_time`` at most, the current plan as a hint), and the window slides
    over the game; passes follow while one improves (at most ``passes``; None: no limit); no new
    window once ``budget`` wall-clock seconds (the whole search) have passed, and no window runs
    past it; none once ``stop`` is stopped, and it ends the window in progress. ``widen``: a pass
    that finds nothing widens the window by a round instead of ending the search, up to the whole
    game, which is then solved from the best plan without a deterministic limit (until ``budget``
    or ``stop``), ``on_bound(bound)`` on each bound it proves (a window's bound holds for that
    window only; the whole game's holds for every plan). Returns (plan, Health Points), every
    improvement replayed by the rules engine; ``progress(value, first round)`` and ``on_plan(plan,
    value)`` on each."""
    import time
    from solver.game.errors import SolverError
    from .planner import Options, build_model, hint_values, solve_cpsat, to_cpsat_model
    from solver.game.replay import final_score
    # without the symmetry breaking: it fixes one order of commuting placements, and a plan from
    # the beam search need not be in that order (fixing its rounds would make the model infeasible)
    free_order = Options(ordering=False, symmetry=False)

    best, best_value = list(plan), final_score(puzzle, plan)
    if best_value is None:
        raise SolverError(f"{puzzle.id}: the large-neighbourhood search needs a legal, complete plan to start from")
    rounds = puzzle.rounds
    deadline = None if budget is None else time.perf_counter() + budget
    pm = build_model(puzzle, free_order)        # one model; each window holds the rounds outside it
    pm.lm.hints = {}
    converted = to_cpsat_model(pm.lm)           # and one conversion, copied for each window
    done_passes = 0
    while passes is None or done_passes < passes:
        done_passes += 1
        improved = False
        for first in range(1, max(1, rounds - window + 1) + 1):
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or (stop is not None and stop.stopped):
                return best, best_value
            try:
                values = hint_values(pm, best)
            except SolverError:
                return best, best_value
            held = {pm.x[s.t, i]: values.get(pm.x[s.t, i], 0)
                    for s in pm.slots if not first <= s.round < first + window for i in range(len(pm.acts))}
            whole = not held
            bounds = None if not (whole and on_bound) else (lambda _plan, bound, _s: on_bound(bound))
            res = solve_cpsat(pm, deterministic_time=None if whole and widen else deterministic_time,
                              time_limit=left, hinted=values, held=held, stop=stop, progress=bounds,
                              converted=converted)
            if whole and on_bound and res.bound is not None:
                on_bound(res.bound)
            if res.plan and res.objective is not None and res.objective > best_value:
                value = final_score(puzzle, res.plan)
                if value is not None and value > best_value:
                    best, best_value, improved = list(res.plan), value, True
                    if progress:
                        progress(best_value, first)
                    if on_plan:
                        on_plan(list(best), best_value)
        if window >= rounds or (not improved and not widen):
            break
        if not improved:
            window += 1
    return best, best_value


def warm_start(puzzle: Puzzle, seconds: float | None, width: int = 64,
               earlier: tuple[list[Action], int] | None = None, stop: SearchStop | None = None,
               on_plan: Callable[[list[Action], int], None] | None = None, widen: bool = False,
               on_bound: Callable[[int], None] | None = None) -> tuple[list[Action], int | None]:
    """A good plan within about ``seconds`` (None: until ``stop``, or until the search ends):
    :func:`beam_plan`, then :func:`lns_improve` for the time left (passes while one improves).
    ``earlier``: a plan already known (replayed by the caller, with its Health Points), improved
    instead of the beam's when it scores more; ``stop``, ``widen``, ``on_bound`` and
    ``on_plan(plan, value)`` (the start and each better plan): as :func:`lns_improve`'s. Returns
    (plan, Health Points), ``([], None)`` when there is no complete plan to start from."""
    import time
    t0 = time.perf_counter()
    plan, value = beam_plan(puzzle, width)
    if earlier is not None and (not plan or earlier[1] > value):
        plan, value = list(earlier[0]), earlier[1]
    if not plan:
        return [], None
    if on_plan:
        on_plan(list(plan), value)
    left = None if seconds is None else seconds - (time.perf_counter() - t0)
    if left is None or left > 1:
        plan, value = lns_improve(puzzle, plan, budget=left, stop=stop, on_plan=on_plan, widen=widen,
                                  on_bound=on_bound)
    return plan, value
