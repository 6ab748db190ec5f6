"""The card market with a deck (issue #15): the generated deck family, the earliest round a card
can reach the row, and the planner's row constraints checked against the exhaustive search."""
import pytest

from solver.game.engine import initial_state
from solver.benchmarks.deck_family import DECK_CARDS, deck_puzzle, deck_size
from solver.optimise.warm_start import beam_plan, lns_improve
from solver.game.model import Edition
from solver.optimise.planner import Options, build_model, market_arrival, solve_cpsat, solve_mip
from solver.optimise.search import exhaustive

FAMILY = [(Edition.SECOND, 3), (Edition.FIRST, 3), (Edition.SECOND, 2), (Edition.FIRST, 2)]


@pytest.mark.parametrize("edition,players", FAMILY)
def test_deck_family_refills_the_row_from_a_full_deck(edition, players):
    p = deck_puzzle(8, edition, players)
    assert all(p.row) and len(p.deck) == deck_size(2, p.players) - 4
    rulebook = [c for c in p.cards if not c.illustrative]
    # only the rulebook's two hormones carry rulebook values; every other card is illustrative
    assert rulebook and all(c.id.split("-no")[0] in ("protein-hormone", "steroid-hormone") for c in rulebook)


@pytest.mark.parametrize("placements", [0, 6, -4])
def test_deck_family_refuses_a_size_that_is_not_whole_rounds(placements):
    with pytest.raises(ValueError, match="multiple of 4"):
        deck_puzzle(placements)


@pytest.mark.parametrize("flasks", [0, 5])
def test_deck_family_refuses_a_flask_count_outside_the_game(flasks):
    with pytest.raises(ValueError, match="flasks: expected 1..4"):
        deck_puzzle(8, flasks=flasks)


def test_arrival_counts_at_most_a_row_of_cards_leaving_each_round():
    p = deck_puzzle(16)
    arrival = market_arrival(p, initial_state(p))
    queue = list(p.row) + list(p.deck)
    # 4 slots: queue cards 0-3 in round 1, 4-7 at the earliest in round 2, 8-11 in round 3 ...
    assert [arrival[c] for c in queue[:13]] == [1] * 4 + [2] * 4 + [3] * 4 + [4]


SMALL = [(4, 2), (3, 1), (4, 1)]
"""(placements, flasks): instances small enough for the exhaustive search, with one to three refills."""


@pytest.mark.parametrize("placements,flasks", SMALL)
@pytest.mark.parametrize("edition,players", FAMILY)
def test_row_constraints_keep_the_exhaustive_optimum(edition, players, placements, flasks):
    """The redundant row constraints, the arrival windows and the row's counting paths cut the LP
    relaxation, never a plan: with and without them CP-SAT proves the exhaustive search's optimum."""
    p = deck_puzzle(placements, edition, players, flasks=flasks)
    value, _, _ = exhaustive(p)
    fast = solve_cpsat(build_model(p), workers=1)
    sums = solve_cpsat(build_model(p, Options(row_paths=False)), workers=1)
    plain = solve_cpsat(build_model(p, Options(row_cuts=False, market_windows=False, row_paths=False)), workers=1)
    assert fast.status == sums.status == plain.status == "optimal"
    assert fast.objective == sums.objective == plain.objective == value


def test_scip_and_highs_agree_on_a_deck_puzzle():
    p = deck_puzzle(8)
    pm = build_model(p)
    assert solve_mip(pm, "scip").objective == solve_mip(build_model(p), "highs").objective == \
        solve_cpsat(build_model(p)).objective


def test_beam_and_lns_give_legal_plans_no_better_than_the_optimum():
    p = deck_puzzle(8)
    optimum = solve_cpsat(build_model(p)).objective
    plan, value = beam_plan(p, width=16)
    assert 0 <= value <= optimum
    better, better_value = lns_improve(p, plan, deterministic_time=2.0, passes=1)
    assert value <= better_value <= optimum


def test_the_large_neighbourhood_search_is_reproducible_and_never_worse():
    """One worker and a deterministic budget a window: the same plan on every run and machine, so a
    recording's warm start can be repeated; passes go on while one improves, and the plan returned
    is legal and scores at least the plan it started from."""
    from solver.game.replay import final_score
    p = deck_puzzle(16)
    plan, value = beam_plan(p, width=4)
    runs = [lns_improve(p, plan, window=2, deterministic_time=1.0) for _ in range(2)]
    assert runs[0] == runs[1]
    better, better_value = runs[0]
    assert value <= better_value == final_score(p, better)


def test_deck_cards_name_each_kind_once():
    assert len({k.stem for k in DECK_CARDS}) == len(DECK_CARDS)
