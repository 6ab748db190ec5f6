"""Epigenetic Modification Cards (1st edition, ``epigenetic.*``): each card's reading in the
engine, the refusals, and the planner against the exhaustive search on random puzzles."""
from __future__ import annotations

import functools

import pytest

from tiers import cpsat_within_budget, exhaustive_within_budget

from solver import solve
from solver.game.engine import Action, ActionKind, apply, initial_state, is_terminal, legal_actions, returns, score
from solver.game.errors import IllegalActionError, PuzzleError
from solver.optimise.planner import build_model, unsupported_reason
from solver.optimise.search import exhaustive
from solver.game.replay import replay
from solver_fixtures import make, place, random_puzzle_data, run

ZERO_START = {"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0}


def epi(card, **changes):
    """A 1st-edition puzzle whose player holds ``card``."""
    base = {"edition": "1e", "epigenetic": card, "grey_flasks": 0, "start": dict(ZERO_START)}
    start = changes.pop("start", {})
    base["start"].update(start)
    base.update(changes)
    return make(**base)


def trade(resource):
    return Action(ActionKind.TRADE, resource=_res(resource))


def income(resource):
    return Action(ActionKind.INCOME, resource=_res(resource))


def _res(name):
    from solver.game.model import Resource
    return Resource(name)


def peek(card=None, order=()):
    return Action(ActionKind.PEEK, card=card, order=tuple(order))


# --------------------------------------------------------------------------- atp-exchange

@pytest.mark.parametrize("resource,atp_paid", [("lipid", 1), ("mrna", 1), ("carb", 2)])
def test_atp_exchange_trades_at_the_card_rates(resource, atp_paid):
    s = run(epi("atp-exchange", rounds=1, flasks=1, start={"atp": 5}), trade(resource))
    assert s.stock.atp == 5 - atp_paid and s.stock.get(_res(resource)) == 1
    assert s.flasks_left == 1, "a trade is no flask: the turn goes on"


def test_atp_exchange_trades_no_macromolecule_for_atp():
    s = initial_state(epi("atp-exchange", rounds=1, flasks=1, start={"atp": 5, "lipid": 3}))
    with pytest.raises(IllegalActionError, match="trades no macromolecule for ATP"):
        apply(s, trade("atp"))


def test_atp_exchange_needs_the_atp():
    s = initial_state(epi("atp-exchange", rounds=1, flasks=1, start={"atp": 1}))
    with pytest.raises(IllegalActionError, match="costs 2 ATP"):
        apply(s, trade("carb"))


def test_atp_exchange_as_often_as_wanted_in_a_turn():
    s = run(epi("atp-exchange", rounds=1, flasks=1, start={"atp": 4}), *[trade("lipid")] * 4)
    assert s.stock.lipid == 4 and s.stock.atp == 0


def test_leftover_atp_is_traded_for_the_end_game_sets():
    """4 ATP and 2 lipids left after the last flask: 2 ATP buy 2 lipids (a set of 4, 1 point);
    the other 2 ATP buy a carbohydrate... which makes no set of 2 alone, so they stay ATP."""
    p = epi("atp-exchange", rounds=1, flasks=1, start={"atp": 2, "lipid": 2},
            occupied={1: ["nucleus-3", "nucleus-2"]})
    s = run(p, place("mitochondria-2"))
    assert is_terminal(s)
    assert (s.stock.lipid, s.stock.atp, s.stock.carb) == (4, 2, 0)
    assert s.end_trade.lipid == 2 and score(s).macromolecules == 1


def test_leftover_atp_trade_counts_the_cubes_on_disks():
    """3 lipids on a disk (the steroid hormone started, never finished) and 1 ATP left: the disk's
    cubes return to the stock before scoring (IT 513), so 1 ATP buys the 4th lipid of a set. The
    planner counts them so; the engine traded on the personal stock alone and scored 0, and
    ``solve`` stopped with "cpsat claims 1 ..., the rules engine scores its plan 0"."""
    sh = {"id": "sh", "type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9,
          "illustrative": True}
    p = epi("atp-exchange", rounds=1, flasks=1, hand=["sh"], cards=[sh], start={"atp": 1, "lipid": 3})
    s = run(p, place("smooth-er-detox", card="sh"))
    assert is_terminal(s) and s.end_trade.lipid == 1 and s.stock.atp == 0
    assert score(s).macromolecules == 1
    res = solve(p)
    assert res.status == "optimal" and res.health == 1 == exhaustive(p)[0]


def test_without_the_card_trading_is_refused():
    s = initial_state(make(edition="1e", rounds=1, flasks=1, start={"atp": 5}))
    with pytest.raises(IllegalActionError, match="only with the Epigenetic Modification card atp-exchange"):
        apply(s, trade("lipid"))


# --------------------------------------------------------------------------- extra-resource

@pytest.mark.parametrize("spot,atp,gained", [
    ("nucleus-3", 0, {"mrna": 4}),            # "se un giocatore piazza in uno spazio [3], può raccogliere 4"
    ("nucleus-2", 0, {"mrna": 3}),            # "... su uno spazio [2], può raccogliere 3"
    ("smooth-er-lipids-3", 0, {"lipid": 4}),
    ("mitochondria-2", 0, {"atp": 3}),
    ("glucose-2", 3, {"carb": 3}),            # "I Carboidrati costano comunque sempre 1 ATP per ogni Carboidrato"
])
def test_extra_resource_on_numbered_spots(spot, atp, gained):
    s = run(epi("extra-resource", rounds=1, flasks=2, start={"atp": atp}), place(spot, extra=True))
    for name, n in gained.items():
        assert s.stock.get(_res(name)) == n + (0 if name != "atp" else atp)
    if spot.startswith("glucose"):
        assert s.stock.atp == 0


def test_extra_carbohydrate_needs_its_atp():
    s = initial_state(epi("extra-resource", rounds=1, flasks=2, start={"atp": 2}))
    with pytest.raises(IllegalActionError, match="with the extra cube costs 3 ATP"):
        apply(s, place("glucose-2", extra=True))
    assert apply(s, place("glucose-2")).stock.carb == 2, "the extra cube is optional"


@pytest.mark.parametrize("reading,allowed", [("excluded", False), ("included", True)])
def test_lower_mitochondria_spot_follows_the_ruling(reading, allowed):
    p = epi("extra-resource", rounds=1, flasks=2, start={"carb": 1},
            rulings={"extra-resource-lower-mitochondria": reading})
    extras = [a for a in legal_actions(initial_state(p)) if a.spot == "mitochondria-6" and a.extra]
    assert bool(extras) is allowed
    if allowed:
        assert run(p, extras[0]).stock.atp == 7


@pytest.mark.parametrize("spot", ["free-ribosome", "laureates", "card-row-1"])
def test_extra_resource_only_on_collection_spots(spot):
    p = epi("extra-resource", rounds=1, flasks=2, row=["m"], start={"atp": 3},
            cards=[{"id": "m", "type": "macromolecule", "gain": {"lipid": 1}, "illustrative": True}])
    action = place(spot, extra=True, **({"amount": 0} if spot == "free-ribosome" else {}))
    with pytest.raises(IllegalActionError, match="not a numbered resource-collection spot"):
        apply(initial_state(p), action)


# --------------------------------------------------------------------------- cheap-grey-flask, free-card

def test_cheap_grey_flask_costs_3_atp():
    p = epi("cheap-grey-flask", rounds=1, flasks=1, grey_flasks=1, start={"atp": 3})
    s = run(p, place("nucleus-3", grey=True))
    assert s.stock.atp == 0 and s.stock.mrna == 3
    with pytest.raises(IllegalActionError, match="costs 4 ATP"):
        apply(initial_state(make(edition="1e", rounds=1, flasks=1, grey_flasks=1, start={"atp": 3})),
              place("nucleus-3", grey=True))


def test_free_card_buys_cards_for_nothing():
    p = epi("free-card", rounds=1, flasks=1, row=[None, None, None, "m"],
            cards=[{"id": "m", "type": "macromolecule", "gain": {"lipid": 1}, "illustrative": True}])
    s = run(p, place("card-row-4"))
    assert s.stock.atp == 0 and "m" in s.discard + s.hand


# --------------------------------------------------------------------------- round-income

def test_round_income_once_at_the_start_of_each_round():
    p = epi("round-income", rounds=2, flasks=1)
    s = run(p, income("lipid"))
    assert s.stock.lipid == 1
    with pytest.raises(IllegalActionError, match="taken once, at the start of a round"):
        apply(s, income("atp"))
    s = apply(s, place("nucleus-3"))          # round 2 starts: a new income is due
    assert s.round == 2 and s.income_due
    s = apply(s, place("nucleus-3"))
    assert is_terminal(s)


def test_round_income_is_lost_once_the_first_flask_is_placed():
    s = run(epi("round-income", rounds=1, flasks=2), place("nucleus-3"))
    with pytest.raises(IllegalActionError, match="before its first flask"):
        apply(s, income("mrna"))


def test_round_income_gives_only_atp_mrna_or_lipid():
    with pytest.raises(IllegalActionError, match="expected one of"):
        apply(initial_state(epi("round-income", rounds=1, flasks=1)), income("carb"))


# --------------------------------------------------------------------------- peek-deck

CARDS3 = [{"id": f"m{i}", "type": "macromolecule", "gain": {"lipid": i}, "illustrative": True} for i in (1, 2, 3, 4)]


def test_peek_looks_takes_and_reorders():
    p = epi("peek-deck", rounds=1, flasks=1, deck=["m1", "m2", "m3", "m4"], cards=CARDS3, start={"atp": 4})
    s = run(p, peek("m3", ["m2", "m1"]))
    assert s.stock.atp == 0 and "m3" in s.hand and s.deck == ("m2", "m1", "m4")
    with pytest.raises(IllegalActionError, match="once a turn"):
        apply(_r(s, 4), peek(None, ["m2", "m1", "m4"]))


def _r(state, atp):
    from solver.game.engine import _r as replace
    from solver.game.model import Stock
    return replace(state, stock=state.stock + Stock(atp=atp))


@pytest.mark.parametrize("card,order,message", [
    ("m4", ["m1", "m2"], "not among the top 3"),
    (None, ["m1", "m2"], "expected the cards put back"),
    ("m1", ["m2", "m2"], "expected the cards put back"),
])
def test_peek_refuses_what_the_card_does_not_allow(card, order, message):
    p = epi("peek-deck", rounds=1, flasks=1, deck=["m1", "m2", "m3", "m4"], cards=CARDS3, start={"atp": 4})
    with pytest.raises(IllegalActionError, match=message):
        apply(initial_state(p), peek(card, order))


def test_peek_with_only_2_atp_reorders_but_takes_nothing():
    p = epi("peek-deck", rounds=1, flasks=1, deck=["m1", "m2", "m3"], cards=CARDS3[:3], start={"atp": 2})
    options = [a for a in legal_actions(initial_state(p)) if a.kind is ActionKind.PEEK]
    assert options and all(a.card is None for a in options) and len(options) == 6


def test_peek_with_a_deck_is_solved_by_the_exhaustive_search():
    """The time-indexed model has no reordered deck: the answer names the engine that ran."""
    p = epi("peek-deck", rounds=1, flasks=1, deck=["m1", "m2", "m3", "m4"], cards=CARDS3, start={"atp": 4},
            occupied={1: ["nucleus-3", "nucleus-2"]})
    sol = solve(p, confirm=())
    assert sol.engine == "exhaustive" and sol.status == "optimal"
    # taking m3 (3 lipids) for 4 ATP, then Lipid Synthesis 3: 6 lipids, 1 set, and the card played
    assert sol.health == exhaustive(p)[0] == 1


END_TURN = Action(ActionKind.END_TURN)
DETOX = {"id": "d1", "type": "detox", "cost": {"atp": 2}, "illustrative": True}


@pytest.mark.parametrize("rounds,flasks,deck,atp,before,stays_open", [
    (2, 1, ["m1", "m2"], 2, [], True),                       # Phase 2 refills the row from the deck next
    (1, 2, ["m1", "m2"], 2, [], True),                       # another turn follows in the round
    (1, 2, [], 2, [], False),                                # nothing to look at
    (1, 2, ["m1", "m2"], 1, [], False),                      # the look costs 2 ATP
    (1, 2, ["m1", "m2"], 4, [peek(None, ["m1", "m2"])], False),   # looked before the flask: once a turn
    (1, 1, ["m1"], 4, [], True),                             # the game's last flask: a Macromolecule card to take
    (1, 1, ["m1"], 3, [], False),                            # ... the look and the take cost 4 ATP
    (1, 1, ["d1"], 4, [], False),                            # ... a detox card taken now would give nothing
], ids=["refill-next", "turn-next", "empty-deck", "no-atp", "looked-before", "last-flask-macromolecule",
        "last-flask-no-atp", "last-flask-nothing-to-take"])
def test_the_turn_stays_open_after_the_flask_only_while_a_look_can_follow(rounds, flasks, deck, atp, before, stays_open):
    """epigenetic-peek-after-flask: the look is used "durante il suo turno" (epigenetic.cards), so
    the turn stays open after its flask while a look can follow and change something."""
    p = epi("peek-deck", rounds=rounds, flasks=flasks, deck=deck, cards=CARDS3 + [DETOX], start={"atp": atp})
    s = run(p, *before, place("nucleus-3"))
    assert s.after_flask is stays_open
    assert (Action(ActionKind.END_TURN) in legal_actions(s)) is stays_open


def test_an_open_turn_takes_the_look_a_card_or_its_end():
    """After the flask: the look (which closes the turn), a Macromolecule card, or end-turn; not a
    second flask. Looking after one flask and before the next is two turns' looks."""
    p = epi("peek-deck", rounds=1, flasks=2, deck=["m1", "m2", "m3"], cards=CARDS3, start={"atp": 4},
            hand=["m4"])
    s = run(p, place("nucleus-3"))
    assert s.after_flask and s.flasks_left == 1
    assert {a.kind for a in legal_actions(s)} == {ActionKind.END_TURN, ActionKind.PEEK}
    with pytest.raises(IllegalActionError, match="the turn's flask is placed"):
        apply(s, place("nucleus-2"))
    assert apply(s, Action(ActionKind.PLAY_CARD, card="m4")).after_flask, "a card played in the turn keeps it open"
    looked = apply(s, peek(None, ["m2", "m3", "m1"]))
    assert not looked.after_flask and not looked.peeked and looked.deck == ("m2", "m3", "m1")
    again = apply(looked, peek(None, ["m3", "m1", "m2"]))   # the next turn's look, before its flask
    assert again.stock.atp == 0 and again.peeked
    ended = apply(s, END_TURN)
    assert not ended.after_flask and ended.flasks_left == 1 and ended.stock.atp == 4
    with pytest.raises(IllegalActionError, match="end-turn closes only a turn kept open"):
        apply(ended, END_TURN)


def test_the_look_after_the_rounds_last_flask_reorders_the_refill():
    """The end of the round's last turn comes before Phase 2: a look then decides the refill."""
    p = epi("peek-deck", rounds=2, flasks=1, deck=["m1", "m2", "m3", "m4"], cards=CARDS3, start={"atp": 2})
    s = run(p, place("nucleus-3"), peek(None, ["m3", "m2", "m1"]))
    assert s.round == 2 and s.row[:4] == ("m3", "m2", "m1", "m4") and not s.after_flask
    plain = run(p, place("nucleus-3"), END_TURN)
    assert plain.round == 2 and plain.row[:4] == ("m1", "m2", "m3", "m4")


# --------------------------------------------------------------------------- refusals

def test_early_placement_is_refused_as_not_modelled():
    with pytest.raises(PuzzleError, match="'early-placement' is not modelled: the puzzle fixes the spots"):
        epi("early-placement", rounds=1, flasks=1)


def test_second_edition_has_no_epigenetic_cards():
    with pytest.raises(PuzzleError, match="1st edition only"):
        make(edition="2e", epigenetic="free-card", rounds=1, flasks=1)


def test_card_ruling_needs_the_card():
    with pytest.raises(PuzzleError, match="only with `epigenetic: extra-resource`"):
        epi("free-card", rounds=1, flasks=1, rulings={"extra-resource-lower-mitochondria": "included"})


def test_unknown_card_names_the_choices():
    with pytest.raises(PuzzleError, match="epigenetic"):
        make(edition="1e", epigenetic="telepathy", rounds=1, flasks=1)


# --------------------------------------------------------------------------- planner = exhaustive search

MODELLED = ["atp-exchange", "extra-resource", "cheap-grey-flask", "round-income", "free-card"]


@functools.lru_cache(maxsize=None)
def _random_epigenetic(seed):
    data = random_puzzle_data(seed)
    data.update(edition="1e", board="3-5p", epigenetic=MODELLED[seed % len(MODELLED)])
    data["rulings"] = {"disk-card": data["rulings"]["disk-card"]}
    if data["epigenetic"] == "extra-resource":
        data["rulings"]["extra-resource-lower-mitochondria"] = ("excluded", "included")[seed // len(MODELLED) % 2]
    if data["players"] == 2:
        data["players"] = 3
    data.pop("id")
    return make(**data)


@pytest.mark.parametrize("seed", range(30))
def test_planner_matches_the_exhaustive_search(seed):
    puzzle = _random_epigenetic(seed)
    best, _, _ = exhaustive_within_budget(puzzle)
    if unsupported_reason(puzzle):   # handed to the exhaustive search
        assert solve(puzzle).health == best
        return
    res = cpsat_within_budget(build_model(puzzle))
    if best is None:
        assert res.status == "infeasible"
        return
    assert res.status == "optimal" and res.objective == best, (puzzle.epigenetic, res.objective, best)
    _, final = replay(puzzle, res.plan)
    assert is_terminal(final) and returns(final) == best


def test_random_plans_use_every_modelled_card():
    used = set()
    for seed in range(30):
        puzzle = _random_epigenetic(seed)
        plan = solve(puzzle).plan
        card = puzzle.epigenetic.value
        if (card == "atp-exchange" and any(a.kind is ActionKind.TRADE for a in plan)) \
                or (card == "round-income" and any(a.kind is ActionKind.INCOME for a in plan)) \
                or (card == "extra-resource" and any(a.extra for a in plan)):
            used.add(card)
    assert used == {"atp-exchange", "round-income", "extra-resource"}
