"""One test per rules-audit row (``data/audit/cytosis.yaml``) that no older test covers, written
against the engine's public API (``initial_state``, ``legal_actions``, ``apply``, ``why_illegal``).

Rows with status ``wrong`` test the rulebook's reading and are marked ``xfail(strict=True)``: they
fail until the engine is fixed, and the strict mark makes the fix visible (an unexpected pass fails
the run, so the integrator removes the mark with the fix).
"""
from __future__ import annotations

import pytest

from solver.game.editions import rules_for
from solver.game.engine import (Action, ActionKind, apply, detox_points, enzyme_set_points, initial_state,
                           is_terminal, legal_actions, returns, why_illegal)
from solver.game.errors import PuzzleError
from solver.game.model import Edition, Stock
from solver_fixtures import PH7, SH9, exhaust, make, place, run

EDITIONS = ["1e", "2e"]


def wrong(row_id: str):
    """The mark of a test of a rule the engine reads wrongly today (see the audit row)."""
    return pytest.mark.xfail(strict=True, reason=f"engine reading being fixed: {row_id}")


def best(puzzle) -> int | None:
    """The highest final score any sequence of legal actions reaches (None: no legal sequence).
    A memoised depth-first search over the public API: for the few-placement puzzles below only."""
    memo: dict = {}

    def value(state) -> int | None:
        if is_terminal(state):
            return returns(state)
        if state not in memo:
            scores = [v for a in legal_actions(state) if (v := value(apply(state, a))) is not None]
            memo[state] = max(scores) if scores else None
        return memo[state]

    return value(initial_state(puzzle))


def card(cid: str, ctype: str, **values) -> dict:
    return {"id": cid, "type": ctype, "illustrative": True, **values}


# --------------------------------------------------------------------------- turn

@pytest.mark.parametrize("edition", EDITIONS)
def test_each_placement_uses_one_flask(edition):
    """place-exactly-one-flask: a normal placement ends the turn with one flask fewer; the last
    one of the last round ends the game."""
    p = make(edition=edition, flasks=2)
    s = apply(initial_state(p), place("nucleus-3"))
    assert s.flasks_left == 1 and s.stock == Stock(mrna=3)
    s = apply(s, place("nucleus-2"))
    assert is_terminal(s) and legal_actions(s) == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_grey_flask_must_be_able_to_take_the_action(edition):
    """grey-flask: a grey flask on a spot whose action cannot be taken is refused, naming why."""
    p = make(edition=edition, start={"atp": 4}, occupied={1: ["cytoplasm"]})
    reason = why_illegal(initial_state(p), place("cytoplasm", grey=True, card="e"))
    assert reason is not None


def test_grey_flask_then_exhaust_2e():
    """grey-flask-then-exhaust (ruling grey-then-exhaust, default allowed): after a grey flask the
    turn's flask may be exhausted."""
    p = make(edition="2e", start={"atp": 4}, flasks=1, grey_flasks=1)
    s = run(p, place("nucleus-3", grey=True), exhaust("lipid"))
    assert is_terminal(s) and s.stock == Stock(mrna=3, lipid=1)


def test_grey_flask_then_exhaust_2e_not_allowed():
    """grey-flask-then-exhaust under the reading not-allowed: a placement must follow the grey flask."""
    p = make(edition="2e", start={"atp": 4}, flasks=1, grey_flasks=1, rulings={"grey-then-exhaust": "not-allowed"})
    s = run(p, place("nucleus-3", grey=True))
    assert "grey-then-exhaust" in why_illegal(s, exhaust("lipid"))
    assert not any(a.kind is ActionKind.EXHAUST for a in legal_actions(s))
    assert why_illegal(initial_state(p), exhaust("lipid")) is None   # without a grey flask it is legal


# --------------------------------------------------------------------------- resources

def test_free_ribosome_zero_mrna_1e():
    """free-ribosome-any-number-1e: "possono scambiare qualsiasi numero" - the only free spot is the
    Free Ribosome and the player holds no mRNA: the placement (trading zero) is still legal."""
    board_spots = ["nucleus-3", "nucleus-2", "smooth-er-lipids-3", "smooth-er-lipids-2", "smooth-er-detox",
                   "rough-er-1", "rough-er-2", "golgi-1", "golgi-2", "glucose-2", "glucose-1", "exocytosis-1",
                   "exocytosis-2", "mitochondria-3", "mitochondria-2", "mitochondria-6", "cytoplasm", "laureates",
                   "card-row-1", "card-row-2", "card-row-3", "card-row-4"]
    p = make(edition="1e", flasks=1, grey_flasks=0, occupied={1: board_spots})
    assert best(p) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_supply_is_unlimited(edition):
    """supply-unlimited (ruling): collecting never runs out, past the 1st edition's token counts."""
    p = make(edition=edition, start={"mrna": 17, "atp": 30, "carb": 1}, flasks=2)
    s = run(p, place("nucleus-3"), place("mitochondria-6"))
    assert s.stock == Stock(mrna=20, atp=36)


# --------------------------------------------------------------------------- card row

@pytest.mark.parametrize("edition", EDITIONS)
def test_grey_flask_cannot_buy_a_card_another_player_bought(edition):
    """card-row-other-players-purchases: another player's flask on card-row-2 bought that card, so a
    grey flask placed there cannot take the action."""
    cards = [card(c, "detox", cost={"atp": 2}) for c in "ab"]
    p = make(edition=edition, start={"atp": 9}, row=["a", "b"], cards=cards, occupied={1: ["card-row-2"]})
    assert why_illegal(initial_state(p), place("card-row-2", grey=True, card="b")) is not None


def test_phase2_acts_on_the_row_after_other_players_purchases():
    """phase-2-row-as-it-is (2e): another player bought the left-most card in round 1, so Phase 2
    discards the left-most card still there (b), slides c and d left and fills from the deck."""
    cards = [card(c, "detox", cost={"atp": 2}) for c in "abcdef"]
    p = make(edition="2e", rounds=2, flasks=1, row=["a", "b", "c", "d"], deck=["e", "f"], cards=cards,
             occupied={1: ["card-row-1"]})
    s = run(p, place("nucleus-2"))
    assert s.row == ("c", "d", "e", "f")


@pytest.mark.parametrize("edition", EDITIONS)
def test_empty_deck_leaves_slots_empty(edition):
    """deck-reshuffle: with the deck used up and nothing in the discard pile (the player bought the
    only card, so Phase 2 discards nothing), the refresh leaves the slots empty."""
    cards = [card("a", "detox", cost={"atp": 2})]
    p = make(edition=edition, rounds=2, flasks=1, start={"atp": 1}, row=[None, "a"], deck=[], cards=cards)
    s = run(p, place("card-row-2"))
    assert s.row == (None, None, None, None) and s.discard == () and not s.random_reshuffle_round


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_card_discard_pile_reshuffles_deterministically(edition):
    """deck-reshuffle (EN 217, IT 202): with the deck used up, "shuffle the Cell Component discard
    pile and place it face down as the Cell Component deck"; a pile of one card (the one Phase 2 just
    discarded) has one order, so it comes back into the row, after the cards that slid left."""
    cards = [card(c, "detox", cost={"atp": 2}) for c in "ab"]
    p = make(edition=edition, rounds=2, flasks=1, row=["a", "b"], deck=[], cards=cards)
    s = run(p, place("nucleus-2"))
    assert s.row == ("b", "a", None, None) and s.deck == () and s.discard == ()
    assert not s.random_reshuffle_round


@pytest.mark.parametrize("edition", EDITIONS)
def test_several_card_discard_pile_is_not_reshuffled(edition):
    """deck-reshuffle: two players discard two cards, so the pile holds two: its shuffle is random,
    not modelled; the slots stay empty, the pile stays, and the state says so."""
    cards = [card(c, "detox", cost={"atp": 2}) for c in "abc"]
    board = "2p" if edition == "2e" else "3-5p"
    p = make(edition=edition, board=board, players=2, rounds=2, flasks=1, row=["a", "b", "c"], deck=[],
             cards=cards)
    s = run(p, place("nucleus-3"))
    assert s.row == ("c", None, None, None) and s.discard == ("a", "b")
    assert s.random_reshuffle_round == 1
    assert "not modelled" in s.to_dict()["random_reshuffle_not_modelled"]


# --------------------------------------------------------------------------- completing cards

def test_2e_removal_between_two_own_disks():
    """full-area-two-own-disks-2e (ruling): when both disks of the player highest on the track are
    in the full area, the disk of the card whose id comes first leaves."""
    cards = [PH7, {**PH7, "id": "ph2"}, {**PH7, "id": "ph3"}]
    p = make(edition="2e", start={"mrna": 6, "health": 9}, hand=["ph", "ph2", "ph3"], cards=cards, flasks=3,
             board_override={"vesicles": {"rough-er": 2}})
    s = run(p, place("rough-er-1", card="ph2"), place("rough-er-2", card="ph3"))
    from solver.game.engine import removal_candidates
    from solver.game.model import VesicleArea
    assert removal_candidates(s, VesicleArea.ROUGH_ER) == ("own:ph2",)


def test_2e_removal_tie_follows_the_first_player_marker():
    """full-area-tie-turn-order (2e): the player (seat 2) takes the First Player Marker in round 1, so
    in round 2 they are earliest in turn order and, tied on Health with the other player, their own
    Golgi disk is the one removed when the full Golgi takes their second disk."""
    p = make(edition="2e", rounds=2, flasks=3, grey_flasks=0, seat=2, first_player=False,
             start={"mrna": 4, "carb": 2, "atp": 2}, hand=["ph", "ph2"], cards=[PH7, {**PH7, "id": "ph2"}],
             board_override={"vesicles": {"golgi": 2}},
             opponents={"disks": [{"area": "golgi", "health": 0, "seat": 1}]})
    s = run(p, place("laureates"), place("rough-er-1", card="ph"), place("golgi-1", card="ph"),
            place("rough-er-1", card="ph2"), place("golgi-1", card="ph2"))
    assert len(s.opp_disks) == 1 and [d.card for d in s.disks] == ["ph2"]


def test_disk_is_tied_to_a_card_at_exocytosis():
    """disk-tied-to-card: a disk loaded in the Rough ER and the Golgi for one protein hormone can
    complete another with the same needs, bought later: the card is named at Exocytosis. Round 1:
    Rough ER and Golgi for 'ph'; round 2: buy 'big' (same cost, 9 Health), Exocytosis with it."""
    big = {**PH7, "id": "big", "health": 9, "illustrative": True}
    filler = card("x", "enzyme", cost={"atp": 0, "protein": 9}, health=1, color="red")   # out of reach
    p = make(edition="2e", rounds=2, flasks=2, grey_flasks=0, start={"mrna": 2, "carb": 1, "atp": 2}, hand=["ph"],
             row=["x"], deck=["big"], cards=[PH7, big, filler])
    assert best(p) == 9


def test_disk_may_carry_more_than_the_card_needs():
    """disk-at-least-may-have-more (2e): a disk with 3 lipids and a carbohydrate completes a
    steroid hormone needing 2 lipids ("must have at least ... but may have more")."""
    small = {"id": "small", "type": "steroid-hormone", "cost": {"atp": 0, "lipid": 2, "carb": 1}, "health": 12,
             "illustrative": True}
    filler = card("x", "enzyme", cost={"atp": 0, "protein": 9}, health=1, color="red")   # out of reach
    p = make(edition="2e", rounds=2, flasks=2, grey_flasks=0, start={"lipid": 3, "carb": 1, "atp": 4}, hand=["sh"],
             row=["x"], deck=["small"], cards=[SH9, small, filler])
    assert best(p) == 12


def test_opponent_hormones_pay_at_round_end():
    """receptor-bonuses (ruling): another player's protein hormone pays 2 per completed receptor at
    the end of the round it is given for, after the player's placements of that round."""
    rec = card("pr", "protein-receptor", cost={"atp": 0, "protein": 1, "carb": 1}, health=2)
    p = make(edition="2e", rounds=2, flasks=3, start={"mrna": 1, "carb": 1}, hand=["pr"], cards=[rec],
             opponents={"hormones": {1: ["protein-hormone"]}})
    s = run(p, place("rough-er-1", card="pr"), place("golgi-1", card="pr"), place("exocytosis-1", card="pr"))
    assert s.round == 2 and s.health == 2 + 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_enzyme_proteins_from_any_source(edition):
    """enzymes-cytoplasm (ruling): proteins held from the start complete an enzyme without a Free
    Ribosome placement."""
    enz = card("e", "enzyme", cost={"atp": 0, "protein": 2}, health=3, color="red")
    p = make(edition=edition, start={"protein": 2}, hand=["e"], cards=[enz], flasks=1)
    assert run(p, place("cytoplasm", card="e")).health == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_macromolecule_card_bought_with_the_last_flask_can_be_played(edition):
    """macromolecule-card-any-time: a Macromolecule card bought with the game's last flask can still
    be played in that turn ("at any time during a player's turn"): 4 lipids = 1 end-game point."""
    mc = card("m", "macromolecule", gain={"lipid": 4})
    p = make(edition=edition, flasks=1, grey_flasks=0, row=["m"], cards=[mc])
    assert best(p) == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_macromolecule_card_between_grey_and_normal_flask(edition):
    """macromolecule-card-any-time: the card can be played after the turn's grey flask and before
    its normal flask; playing it uses no flask."""
    mc = card("m", "macromolecule", gain={"carb": 1})
    p = make(edition=edition, start={"atp": 4}, flasks=1, grey_flasks=1, hand=["m"], cards=[mc])
    s = run(p, place("nucleus-3", grey=True), Action(ActionKind.PLAY_CARD, card="m"))
    assert s.flasks_left == 1 and s.stock == Stock(mrna=3, carb=1)
    assert apply(s, place("mitochondria-6")).stock == Stock(mrna=3, atp=6)


# --------------------------------------------------------------------------- events

def test_toxicity_spares_the_cubes_on_disks():
    """event-toxicity-1e: Toxicity takes from personal stock only; the cubes on a disk stay."""
    p = make(edition="1e", rounds=2, flasks=1, events=[None, "toxicity"], start={"mrna": 7, "lipid": 0},
             hand=["ph"], cards=[PH7])
    s = run(p, place("rough-er-1", card="ph"))
    assert s.stock.mrna == 5 - 1 and s.disks[0].load == Stock(protein=2)


# --------------------------------------------------------------------------- scoring

def test_enzyme_sets_beyond_two():
    """score-enzyme-sets (ruling): a third set of distinct colours scores too."""
    assert enzyme_set_points(["a", "b"] * 3) == 2 + 2 + 2


@pytest.mark.parametrize("edition,mine,other,points", [
    ("2e", (4, 2), (4, 1), 3),        # equal amount: 3 each, card count ignored
    ("1e", (4, 1), (4, 1), (6 + 3) // 2),
    ("1e", (4, 2), (4, 1), 6),        # 1e: the general card-count tie-break
])
def test_two_player_detox_ties(edition, mine, other, points):
    """two-player-detox (ruling)."""
    assert detox_points(rules_for(Edition(edition)), 2, mine, [other]) == points


def test_grey_flask_counts_toward_the_1e_area_limit():
    """two-player-grey-in-area-limit-1e (ruling): a grey flask in the Nucleus fills the area for
    the player's normal flask of the round (1st edition, 2 players)."""
    p = make(edition="1e", players=2, start={"atp": 4}, flasks=2, grey_flasks=1)
    s = run(p, place("nucleus-3", grey=True))
    assert "two-player.gameplay" in why_illegal(s, place("nucleus-2"))
    assert why_illegal(s, place("mitochondria-2")) is None


# --------------------------------------------------------------------------- epigenetic

def test_deck_look_after_the_turns_flask():
    """epigenetic-peek-after-flask (IT, epigenetic.cards): the look at the deck is used "durante il
    suo turno", "solo UNA VOLTA per turno", so also after the turn's flask, before Phase 2 refills
    the row (found by the independent oracle). 2 rounds of 1 flask, 1 ATP: round 1 only Laureates
    (2 ATP, a look's price) is free and other players buy card-row 1-3, so the whole row refills
    from the deck (d4, y-mac, d5, d6); round 2 only card-row-1 (free) is open. Looking after round
    1's flask puts y-mac (4 mRNA) on top: bought and played, 1 point (the look offered only before
    a flask, 1 ATP then, and in round 2 after the refill: 0)."""
    from solver.io.puzzle import load_board
    spots = [s.id for s in load_board("3-5p").spots]
    cards = [{"id": "y-mac", "type": "macromolecule", "gain": {"mrna": 4}, "illustrative": True}] + [
        card(f"d{i}", "detox", cost={"atp": 4}) for i in range(7)]
    p = make(edition="1e", epigenetic="peek-deck", rounds=2, flasks=1, grey_flasks=0, events=[None, None],
             row=["d0", "d1", "d2", "d3"], deck=["d4", "y-mac", "d5", "d6"], cards=cards,
             start={"atp": 1, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
             occupied={1: [s for s in spots if s != "laureates"], 2: [s for s in spots if s != "card-row-1"]})
    assert best(p) == 1


def test_held_card_played_before_an_attack_bought_at_the_next_rounds_start():
    """macromolecule-card-before-card-attack (IT cards.macromolecule, "in qualsiasi momento durante
    il turno"; EN 468): a Macromolecule card held after the round's last flask can be played at the
    end of that turn, before a Virus Attack card another player buys at the next round's start
    strikes (found by the independent oracle). 1e, 3 players, 2 rounds of 1 flask, no stock,
    Health 3: round 1's only spot, card-row-1, buys mac (1 mRNA); the refill puts the Virus Attack
    card va in card-row-1, another player buys it at round 2's start and the player's roll is the
    lowest. Played at the end of round 1's turn (the turn stays open after its flask), the card's
    mRNA is what the attack takes: 2 points (the oracle's optimum); kept for round 2's turn, it
    comes too late and the attack takes a Health Point: 1."""
    from solver.io.puzzle import load_board
    spots = [s.id for s in load_board("3-5p").spots]
    cards = [{"id": "mac", "type": "macromolecule", "gain": {"mrna": 1}, "illustrative": True},
             {"id": "va", "type": "virus-attack", "strain": "ebola", "illustrative": True}] + [
        card(f"d{i}", "detox", cost={"atp": 4}) for i in range(1, 10)]
    p = make(edition="1e", players=3, rounds=2, flasks=1, grey_flasks=0, events=[None, None],
             row=["mac", None, None, None], deck=["va"] + [f"d{i}" for i in range(1, 10)], cards=cards,
             start={"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 3},
             laureates_seats={1: 2},
             occupied={1: [s for s in spots if s != "card-row-1"], 2: [s for s in spots if s not in ("nucleus-2", "laureates")]},
             virus_rolls={"va": {"roll": 0, "others": [{"seat": 2, "response": 5}, {"seat": 3, "response": 3}]}})
    assert best(p) == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_card_bought_with_the_rounds_last_flask_comes_back_through_the_reshuffle(edition):
    """macromolecule-card-before-reshuffle (IT cards.macromolecule, "in qualsiasi momento durante il
    turno"; EN "place that card in the Cell Component discard pile"; gameplay.phase-2, the
    reshuffle): 3 players, 2 rounds of 1 flask, no stock; card-row-1 (0 ATP) is the only spot of
    both rounds and holds mac (2 mRNA); the deck is empty. Bought with round 1's flask and played
    at the end of that turn, mac is the discard pile's one card when Phase 2 refills the row: it
    comes back to slot 1, is bought and played again: 4 mRNA, 1 point (the independent oracle's
    optimum too). The engine keeps the turn open after the flask because the card changes the
    refill (the deck is used up, the pile empty); played only after Phase 2, as the engine used
    to, it gives 2e 0 (round 2 exhausts), 1e no sequence (round 2's flask has nowhere to go)."""
    from solver.io.puzzle import load_board
    spots = [s.id for s in load_board("3-5p").spots]
    p = make(edition=edition, players=3, rounds=2, flasks=1, grey_flasks=0, events=[None, None],
             row=["mac", None, None, None], deck=[],
             cards=[{"id": "mac", "type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True}],
             occupied={1: [s for s in spots if s != "card-row-1"], 2: [s for s in spots if s != "card-row-1"]})
    assert best(p) == 1
    # the project's searches agree: the exhaustive search and the memoised value search (with and
    # without dominance pruning); CP-SAT: tests/test_planner.py, the oracle: tests/test_oracle.py
    from solver.game.values import ValueSearch
    from solver.optimise.search import exhaustive as exhaustive_search
    assert exhaustive_search(p)[0] == 1
    assert ValueSearch(1_000).value(initial_state(p)) == 1
    assert ValueSearch(1_000, prune_dominated=True).value(initial_state(p)) == 1


# --------------------------------------------------------------------------- outside / not modelled

def test_start_state_is_the_puzzles():
    """setup-fixed-by-puzzle: the plan starts from the puzzle's stock, hand, row and deck."""
    cards = [card(c, "detox", cost={"atp": 2}) for c in "abc"]
    p = make(start={"atp": 3, "mrna": 1, "lipid": 1}, hand=["a"], row=["b"], deck=["c"], cards=cards)
    s = initial_state(p)
    assert s.stock == Stock(atp=3, mrna=1, lipid=1) and s.hand == ("a",) and s.row[0] == "b" and s.deck == ("c",)


@pytest.mark.parametrize("edition,change", [
    ("1e", {"epigenetic": "early-placement"}),      # not modelled: refused with the reason
    ("2e", {"epigenetic": "cheap-grey-flask"}),     # no Epigenetic cards in the 2nd edition
    ("1e", {"epigenetic_cards": ["free-card"]}),    # one card per player, under `epigenetic`
])
def test_epigenetic_cards_are_refused(edition, change):
    """epigenetic-*: what the engine does not model, or the edition does not have, is refused."""
    with pytest.raises(PuzzleError):
        make(edition=edition, **change)
