"""The CP-SAT planner against the rules engine and the exhaustive search.

- every shipped puzzle small enough: CP-SAT optimum == exhaustive optimum, plan replays to it;
- 200 seeded random small puzzles (both editions, every spot): same, in batches of 25 seeds;
- a random legal plan fixed as a hint is FEASIBLE with the engine's score; a mutated illegal
  plan is INFEASIBLE (the model forbids what the engine forbids);
- HiGHS on the same abstract model agrees.
"""
from __future__ import annotations

import functools
import random

import pytest

from solver import load_puzzle, puzzle_files, replay, returns, solve
from solver.game.engine import Action, ActionKind, apply, initial_state, is_terminal, legal_actions
from solver.game.model import SpotKind
from solver.optimise.planner import Options, build_model, solve_cpsat, solve_highs, unsupported_reason
from solver.optimise.search import exhaustive
from solver_fixtures import random_puzzle
from tiers import cpsat_within_budget, exhaustive_within_budget

SHIPPED = puzzle_files()
EXHAUSTIVE_MAX_PLACEMENTS = 5  # larger shipped puzzles: cross-checked by `python -m solver bench`
EXHAUSTIVE_TOO_SLOW = {"grey-rush-2e"}   # 4 placements, but two grey flasks a round: minutes of search
SMALL = [p for p in SHIPPED if (lambda z: z.rounds * z.flasks <= EXHAUSTIVE_MAX_PLACEMENTS and not z.uses_virus)(load_puzzle(p))
         and p.stem not in EXHAUSTIVE_TOO_SLOW]
"""Small shipped puzzles the planner models (the Virus puzzles are the exhaustive search's alone:
tests/test_virus.py)."""
BATCH = 25
SEEDS = 200
FAST_BATCHES = 2
NO_SYMMETRY = Options(symmetry=False, ordering=False)  # symmetry breaking removes some legal orders on purpose


@functools.lru_cache(maxsize=None)
def _random_solved(seed):
    """The puzzle and CP-SAT's answer; None when the planner hands the puzzle to the exhaustive
    search (solver.optimise.planner.unsupported_reason)."""
    puzzle = random_puzzle(seed)
    return puzzle, None if unsupported_reason(puzzle) else solve_cpsat(build_model(puzzle))


def _check_against_exhaustive(puzzle, res=None):
    if res is None and unsupported_reason(puzzle):
        # the default pipeline falls back to the exhaustive search: its answer replays to its claim
        best, _, _ = exhaustive_within_budget(puzzle)
        assert solve(puzzle).health == best, puzzle.id
        return None
    best, _, _ = exhaustive_within_budget(puzzle)
    res = res or cpsat_within_budget(build_model(puzzle))
    if best is None:
        assert res.status == "infeasible", (puzzle.id, res.status, res.objective)
        return None
    assert res.status == "optimal" and res.objective == best, (puzzle.id, res.objective, best)
    _, final = replay(puzzle, res.plan)
    assert is_terminal(final) and returns(final) == best
    return res


@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
def test_shipped_puzzle_matches_exhaustive(path):
    _check_against_exhaustive(load_puzzle(path))


def test_small_enough_puzzles_are_most_of_them():
    assert len(SMALL) >= 7


@pytest.mark.parametrize("batch", [pytest.param(b, marks=() if b < FAST_BATCHES else pytest.mark.slow)
                                   for b in range(SEEDS // BATCH)])
def test_random_puzzles_match_exhaustive(batch):
    """200 seeded random puzzles of 2-4 placements, 25 per test (50 in the fast tier, where the
    differential fuzzer, tests/test_fuzz_differential.py, adds 50 more of 1-2 placements)."""
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        _check_against_exhaustive(*_random_solved(seed))


def test_random_puzzles_cover_editions_and_every_spot():
    """The generator really covers what the cross-check claims: both editions, both board
    sides, and every spot kind is used by some optimal plan."""
    editions, boards, kinds = set(), set(), set()
    for seed in range(SEEDS):
        p, res = _random_solved(seed)
        if res is None:
            continue
        editions.add(p.edition.value)
        boards.add(p.board.id)
        for a in res.plan:
            if a.kind is ActionKind.PLACE:
                kinds.add(p.board.spot(a.spot).kind)
            else:
                kinds.add(a.kind)
    assert editions == {"1e", "2e"} and boards == {"3-5p", "2p"}
    missing = set(SpotKind) - kinds
    assert not missing, f"no random puzzle's optimal plan uses {sorted(k.value for k in missing)}"
    assert {ActionKind.EXHAUST, ActionKind.PLAY_CARD} <= kinds


def _random_plan(puzzle, rng):
    state, plan = initial_state(puzzle), []
    while not is_terminal(state):
        actions = legal_actions(state)
        if not actions:
            return None
        a = rng.choice(actions)
        plan.append(a)
        state = apply(state, a)
    return plan, returns(state)


@pytest.mark.parametrize("seed", range(0, 40, 2))
def test_fixed_legal_plan_is_feasible_with_the_engine_score(seed):
    puzzle = random_puzzle(seed)
    found = _random_plan(puzzle, random.Random(seed))
    if found is None:
        pytest.skip("no complete random plan")  # pragma: no cover - the generator keeps most feasible
    plan, value = found
    if unsupported_reason(puzzle):
        pytest.skip(unsupported_reason(puzzle))
    res = solve_cpsat(build_model(puzzle, NO_SYMMETRY), hint=plan, fix_hint=True)
    assert res.status == "optimal" and res.objective == value
    assert [a.to_dict() for a in res.plan] == [a.to_dict() for a in _canonical(puzzle, plan)]


def _canonical(puzzle, plan):
    """The plan as the model writes it back: 2e leaves the forced bump implicit."""
    from solver.game.editions import rules_for
    if rules_for(puzzle.edition).removal_is_chosen():
        return plan
    return [Action(a.kind, a.spot, a.grey, a.card, a.amount, a.resource, a.goal, None) for a in plan]


def _mutations(puzzle, plan):
    """Illegal variants of a legal plan: two consecutive steps swapped, or one step replaced."""
    for i in range(len(plan) - 1):
        yield plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:]
    for i in range(len(plan)):
        for spot in puzzle.board.spots:
            # the Free Ribosome: none translated (illegal in 2e) or more mRNA than at the start
            amounts = [0, puzzle.start.mrna + 1] if spot.kind is SpotKind.FREE_RIBOSOME else [None]
            for amount in amounts:
                yield plan[:i] + [Action(ActionKind.PLACE, spot=spot.id, amount=amount)] + plan[i + 1:]


@pytest.mark.parametrize("seed", range(1, 40, 2))
def test_mutated_illegal_plan_is_infeasible(seed):
    puzzle = random_puzzle(seed)
    found = _random_plan(puzzle, random.Random(seed))
    if found is None:
        pytest.skip("no complete random plan")  # pragma: no cover
    plan, _ = found
    if unsupported_reason(puzzle):
        pytest.skip(unsupported_reason(puzzle))
    pm = build_model(puzzle)
    checked = 0
    for bad in _mutations(puzzle, plan):
        state = initial_state(puzzle)
        try:
            for a in bad:
                state = apply(state, a)
            continue                      # still legal: not a useful mutation
        except Exception:
            pass
        try:
            from solver.optimise.planner import hint_values
            hint_values(pm, bad)
        except Exception:
            continue
        res = solve_cpsat(pm, hint=bad, fix_hint=True)
        assert res.status == "infeasible", [str(a) for a in bad]
        checked += 1
        if checked >= 3:
            break
    assert checked, "no illegal mutation could be written as model decisions"


@pytest.mark.parametrize("path", SMALL[:6], ids=[p.stem for p in SMALL[:6]])
def test_highs_agrees_on_the_same_model(path):
    puzzle = load_puzzle(path)
    pm = build_model(puzzle)
    assert solve_highs(pm).objective == solve_cpsat(pm).objective


def test_unsupported_rule_combination_falls_back_to_exhaustive():
    """1e discards the cheapest card: the model encodes it for prices that do not decrease."""
    from solver import solve
    from solver_fixtures import PH7, make
    p = make(edition="1e", rounds=2, flasks=1, start={"atp": 3, "mrna": 2, "carb": 1}, row=["ph", None, None, "e"],
             deck=["f"], board_override={"row_prices": [3, 2, 1, 0]},
             cards=[PH7, {"id": "e", "type": "enzyme", "cost": {"atp": 1}, "health": 2, "color": "a", "illustrative": True},
                    {"id": "f", "type": "enzyme", "cost": {"atp": 1}, "health": 3, "color": "b", "illustrative": True}])
    sol = solve(p)
    assert sol.engine == "exhaustive" and "cpsat_unsupported" in sol.stats
    assert sol.health == exhaustive(p)[0]


def _refusal_of_builder(puzzle, options):
    from solver.optimise.planner import UnsupportedPuzzle
    try:
        build_model(puzzle, options)
    except UnsupportedPuzzle as exc:
        return str(exc)
    return None


def _refusal_cases(every_shipped: bool):
    """Shipped puzzles (all of them, whole games included, or only those with a card row to come,
    where the options can matter) and 1e rows of falling prices with and without cards to come."""
    from solver.io.offline import GAMES_DIR
    from solver_fixtures import PH7, make
    falling = dict(edition="1e", rounds=2, flasks=1, start={"atp": 3, "mrna": 2, "carb": 1},
                   board_override={"row_prices": [3, 2, 1, 0]}, cards=[PH7])
    shipped = [load_puzzle(p) for p in SHIPPED + (sorted(GAMES_DIR.glob("*.yaml")) if every_shipped else [])]
    if not every_shipped:
        shipped = [p for p in shipped if p.deck or any(p.row)]
    return shipped + [make(**falling, row=["ph", None, None, None]), make(**falling, row=[None, None, None, None])]


@pytest.mark.parametrize(("options", "every_shipped"),
                         [pytest.param(Options(), True, marks=pytest.mark.slow), (Options(), False),
                          (NO_SYMMETRY, False), (Options(market_windows=False), False)],
                         ids=["default-whole-games", "default", "no-symmetry", "no-market-windows"])
def test_unsupported_reason_is_what_the_builder_refuses_with(options, every_shipped):
    """The cheap predicate (asked by the site for every puzzle) answers as building the model does:
    on every shipped puzzle with the default options, Virus, Epigenetic and (in the slow tier: their
    models take a minute to build) whole games included, on those with cards to come under the
    other options, and on 1e rows of falling prices."""
    from solver.optimise.planner import unsupported_reason
    puzzles = _refusal_cases(every_shipped)
    refused = 0
    for puzzle in puzzles:
        reason = unsupported_reason(puzzle, options)
        assert reason == _refusal_of_builder(puzzle, options), puzzle.id
        refused += reason is not None
    assert 0 < refused < len(puzzles)


@pytest.mark.parametrize("first_player,laureates,occupied,own_removed", [
    (False, True, {}, True),                       # the player takes the marker: earliest in round 2
    (False, False, {}, False),                     # seat 1 (another player) is earliest
    (True, False, {}, True),                       # the player keeps the marker
    (True, False, {1: ["laureates"]}, False),      # another player claims it in round 1
])
def test_full_area_tie_follows_the_first_player_marker(first_player, laureates, occupied, own_removed):
    """spots.golgi (2e): a Health tie in a full area goes to "the player earliest in turn order",
    which starts with the First Player Marker's holder (gameplay.phase-1, spots.laureates). The
    model accepts the plan the engine accepts, with the engine's score, and refuses the same plan
    finished with the disk the engine removed."""
    from solver_fixtures import PH7, make, place
    p = make(edition="2e", rounds=2, flasks=3, grey_flasks=0, seat=2, first_player=first_player,
             start={"mrna": 4, "carb": 2, "atp": 4}, hand=["ph", "ph2"], cards=[PH7, {**PH7, "id": "ph2"}],
             board_override={"vesicles": {"golgi": 2}}, occupied=occupied,
             opponents={"disks": [{"area": "golgi", "health": 0, "seat": 1}]})
    first = place("laureates") if laureates else place("nucleus-2")
    head = [first, place("rough-er-1", card="ph"), place("golgi-1", card="ph"),
            place("rough-er-1", card="ph2"), place("golgi-1", card="ph2")]
    good, bad = ("ph2", "ph") if own_removed else ("ph", "ph2")
    state = initial_state(p)
    for a in head:
        state = apply(state, a)
    assert [d.card for d in state.disks] == (["ph2"] if own_removed else ["ph", "ph2"])
    final = apply(state, place("exocytosis-1", card=good))
    pm = build_model(p, NO_SYMMETRY)
    res = solve_cpsat(pm, hint=head + [place("exocytosis-1", card=good)], fix_hint=True)
    assert res.status == "optimal" and res.objective == returns(final)
    if own_removed:
        res = solve_cpsat(build_model(p, NO_SYMMETRY), hint=head + [place("exocytosis-1", card=bad)], fix_hint=True)
        assert res.status == "infeasible"
    best = solve_cpsat(build_model(p))
    assert best.objective == solve_highs(build_model(p)).objective


@pytest.mark.parametrize("marker_seat,own_removed", [(3, True), (2, False)])
def test_full_area_tie_follows_the_other_marker_holder(marker_seat, own_removed):
    """The player (seat 1) does not hold the First Player Marker: seat ``marker_seat`` does, so the
    round's order is 3, 1, 2 or 2, 3, 1. A Health tie in a full Golgi removes the disk of the player
    earliest in that order (spots.golgi, 2e): the player's own before seat 2's, or seat 2's first.
    Engine and model agree on both."""
    from solver.game.engine import removal_candidates
    from solver.game.model import VesicleArea
    from solver_fixtures import PH7, make, place
    p = make(edition="2e", rounds=2, flasks=3, grey_flasks=0, seat=1, players=3, first_player=False,
             marker_seat=marker_seat, start={"mrna": 4, "carb": 2, "atp": 4}, hand=["ph", "ph2"],
             cards=[PH7, {**PH7, "id": "ph2"}], board_override={"vesicles": {"golgi": 2}},
             opponents={"disks": [{"area": "golgi", "health": 0, "seat": 2}]})
    head = [place("nucleus-2"), place("rough-er-1", card="ph"), place("golgi-1", card="ph"),
            place("rough-er-1", card="ph2")]
    state = initial_state(p)
    for a in head:
        state = apply(state, a)
    assert removal_candidates(state, VesicleArea.GOLGI) == (("own:ph",) if own_removed else ("opp1",))
    plan = head + [place("golgi-1", card="ph2"), place("exocytosis-1", card="ph2" if own_removed else "ph")]
    final = state
    for a in plan[len(head):]:
        final = apply(final, a)
    res = solve_cpsat(build_model(p, NO_SYMMETRY), hint=plan, fix_hint=True)
    assert res.status == "optimal" and res.objective == returns(final)
    assert solve_cpsat(build_model(p)).objective == solve_highs(build_model(p)).objective


def test_marker_seat_must_be_another_players():
    from solver.game.errors import PuzzleError
    from solver_fixtures import make
    with pytest.raises(PuzzleError, match="marker_seat only with first_player: false"):
        make(edition="2e", rounds=1, flasks=1, marker_seat=2)
    with pytest.raises(PuzzleError, match="expected the seat of another player"):
        make(edition="2e", rounds=1, flasks=1, first_player=False, marker_seat=1)
    with pytest.raises(PuzzleError, match="whose `occupied` holds"):
        make(edition="2e", rounds=1, flasks=1, first_player=False, laureates_seats={1: 2})


# --------------------------------------------------------------------------- a card played before the reshuffle

def _before_reshuffle(edition: str, hand=(), row=("mac",), cards=None, free=("card-row-1",)):
    """The rules audit's macromolecule-card-before-reshuffle test puzzle: 3 players, 2 rounds of 1
    flask, no stock, only card-row-1 (0 ATP) free in both rounds (or the spots ``free``), an
    empty deck."""
    from solver.io.puzzle import load_board
    from solver_fixtures import make
    spots = [s.id for s in load_board("3-5p").spots]
    cards = cards or [{"id": "mac", "type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True}]
    return make(edition=edition, players=3, rounds=2, flasks=1, grey_flasks=0, events=[None, None],
                hand=list(hand), row=list(row) + [None] * (4 - len(row)), deck=[], cards=cards,
                occupied={r: [s for s in spots if s not in free] for r in (1, 2)})


def _every_plan(puzzle):
    """Every complete legal plan of a tiny puzzle, with its final score."""
    out = []

    def walk(state, plan):
        if is_terminal(state):
            out.append((plan, returns(state)))
        for a in legal_actions(state):
            walk(apply(state, a), plan + [a])
    walk(initial_state(puzzle), [])
    return out


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_card_played_after_the_rounds_last_flask_comes_back(edition):
    """macromolecule-card-before-reshuffle: CP-SAT plays the card bought with round 1's flask in
    the turn kept open after it (``play_after``), so the one-card pile brings it back for round 2:
    1 point, as the exhaustive search; the decoded plan replays in the engine."""
    p = _before_reshuffle(edition)
    pm = build_model(p)
    assert pm.play_after and pm.open_turn
    res = solve_cpsat(pm)
    assert res.status == "optimal" and res.objective == 1 == exhaustive(p)[0]
    assert [a.kind for a in res.plan[:2]] == [ActionKind.PLACE, ActionKind.PLAY_CARD]
    steps, final = replay(p, res.plan)
    assert returns(final) == 1


def test_the_committed_audit_puzzle_by_cpsat():
    from pathlib import Path
    path = Path(__file__).parent.parent / "data" / "audit" / "puzzles" / "macromolecule-card-before-reshuffle.yaml"
    p = load_puzzle(path)
    res = solve_cpsat(build_model(p))
    assert res.status == "optimal" and res.objective == 1
    assert returns(replay(p, res.plan)[1]) == 1


@pytest.mark.parametrize("edition", ["1e", "2e"])
@pytest.mark.parametrize("hand, row", [((), ("mac",)), (("held",), ("mac",)), (("held",), ())],
                         ids=["bought", "bought-and-held", "held"])
def test_every_legal_plan_round_trips_through_the_open_turn(edition, hand, row):
    """Every complete legal plan, fixed as the model's decisions (hint_values), is feasible with
    the engine's score, and decode writes it back: the plays after the round's last flask and
    the end-turn where the engine keeps the turn open (with two cards, two plays fill the pile
    and the engine closes the turn by itself). The plans a prefix starts (prefix_values) are the
    ones CP-SAT then chooses from. Laureates in Biology is free too, so that every choice
    completes the game in both editions."""
    from solver.optimise.planner import prefix_values
    cards = [{"id": "mac", "type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True},
             {"id": "held", "type": "macromolecule", "gain": {"mrna": 1}, "illustrative": True}]
    p = _before_reshuffle(edition, hand=hand, row=row, cards=cards, free=("card-row-1", "laureates"))
    pm = build_model(p, NO_SYMMETRY)
    plans = _every_plan(p)
    assert plans and any(a.kind is ActionKind.END_TURN for plan, _ in plans for a in plan)
    checked = 0
    for plan, value in plans:
        if any(a.kind is b.kind is ActionKind.PLAY_CARD and str(a.card) > str(b.card) for a, b in zip(plan, plan[1:])):
            continue   # two plays in a row: the model writes them in card order (the other order is checked)
        checked += 1
        res = solve_cpsat(pm, hint=plan, fix_hint=True)
        assert res.status == "optimal" and res.objective == value, [str(a) for a in plan]
        assert [a.to_dict() for a in res.plan] == [a.to_dict() for a in plan]
        flask = next(i for i, a in enumerate(plan) if a.kind.is_flask)
        res = solve_cpsat(pm, fixed=prefix_values(pm, plan[:flask + 1]))
        assert res.status == "optimal" and res.plan[:flask + 1] == plan[:flask + 1]
        assert returns(replay(p, res.plan)[1]) == res.objective
    assert checked >= 4
