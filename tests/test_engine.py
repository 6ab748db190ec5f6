"""Unit tests of the rules engine: every spot, event and scoring rule, in both editions."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from solver.game.editions import rules_for
from solver.game.engine import (
    ALL_SECTIONS, Action, ActionKind, apply, detox_points, enzyme_set_points, initial_state, is_terminal,
    legal_actions, macromolecule_points, returns, score, why_illegal,
)
from solver.game.errors import IllegalActionError
from solver.game.model import Edition, SpotKind, Stock
from solver_fixtures import PH7, SH9, exhaust, make, place, run

EDITIONS = ["1e", "2e"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("spot,start,stock", [
    ("nucleus-3", {}, Stock(mrna=3)),
    ("nucleus-2", {}, Stock(mrna=2)),
    ("smooth-er-lipids-3", {}, Stock(lipid=3)),
    ("smooth-er-lipids-2", {}, Stock(lipid=2)),
    ("glucose-2", {"atp": 2}, Stock(carb=2)),
    ("glucose-1", {"atp": 1}, Stock(carb=1)),
    ("mitochondria-3", {}, Stock(atp=3)),
    ("mitochondria-2", {}, Stock(atp=2)),
    ("mitochondria-6", {"carb": 1}, Stock(atp=6)),
])
def test_resource_spots(edition, spot, start, stock):
    p = make(edition=edition, start=start)
    assert run(p, place(spot)).stock == stock


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("spot", ["glucose-2", "glucose-1", "mitochondria-6"])
def test_paying_spots_need_the_price(edition, spot):
    p = make(edition=edition)
    with pytest.raises(IllegalActionError, match="costs"):
        run(p, place(spot))


@pytest.mark.parametrize("edition", EDITIONS)
def test_free_ribosome_translates_any_number(edition):
    p = make(edition=edition, start={"mrna": 3})
    assert run(p, place("free-ribosome", amount=2)).stock == Stock(mrna=1, protein=2)
    with pytest.raises(IllegalActionError, match="cannot translate 4 mRNA"):
        run(p, place("free-ribosome", amount=4))


@pytest.mark.parametrize("edition", EDITIONS)
def test_spot_taken_once_per_round(edition):
    p = make(edition=edition, occupied={1: ["nucleus-3"]})
    with pytest.raises(IllegalActionError, match="taken this round"):
        run(p, place("nucleus-3"))
    s = run(p, place("nucleus-2"))
    with pytest.raises(IllegalActionError, match="taken"):
        apply(s, place("nucleus-2"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_rulebook_protein_hormone_example_step_by_step(edition):
    """cards.protein-hormone-example: Rough ER, Golgi, Exocytosis; +7 Health."""
    p = make(edition=edition, start={"atp": 2, "mrna": 2, "carb": 1}, hand=["ph"], cards=[PH7])
    s = initial_state(p)
    s = apply(s, place("rough-er-1", card="ph"))
    assert s.stock == Stock(atp=2, carb=1) and s.disks[0].load == Stock(protein=2)
    assert s.disks[0].area.value == "rough-er"
    s = apply(s, place("golgi-1", card="ph"))
    assert s.stock == Stock(atp=2) and s.disks[0].load == Stock(protein=2, carb=1)
    assert s.disks[0].area.value == "golgi"
    s = apply(s, place("exocytosis-1", card="ph"))
    assert s.stock == Stock() and s.disks == () and s.completed == ("ph",) and s.health == 7
    assert is_terminal(s) and returns(s) == 7


@pytest.mark.parametrize("edition", EDITIONS)
def test_steroid_hormone_route(edition):
    p = make(edition=edition, start={"atp": 4, "lipid": 3, "carb": 1}, hand=["sh"], cards=[SH9])
    s = run(p, place("smooth-er-detox", card="sh"), place("golgi-1", card="sh"), place("exocytosis-1", card="sh"))
    assert s.health == 9 and s.stock == Stock()


@pytest.mark.parametrize("edition", EDITIONS)
def test_rough_er_must_start_from_mrna(edition):
    p = make(edition=edition, start={"protein": 2}, hand=["ph"], cards=[PH7])
    with pytest.raises(IllegalActionError, match="needs 2 mrna"):
        run(p, place("rough-er-1", card="ph"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_golgi_adds_the_card_resource_and_exocytosis_needs_golgi(edition):
    rec = {"id": "sr", "type": "steroid-receptor", "cost": {"atp": 1, "protein": 1, "lipid": 1}, "health": 3,
           "illustrative": True}
    p = make(edition=edition, start={"mrna": 1, "carb": 1, "atp": 1}, hand=["sr"], cards=[rec])
    s = run(p, place("rough-er-1", card="sr"))
    with pytest.raises(IllegalActionError, match="no disk for 'sr' in the Golgi"):
        apply(s, place("exocytosis-1", card="sr"))
    with pytest.raises(IllegalActionError, match="needs 1 lipid"):
        apply(s, place("golgi-1", card="sr"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_detox_and_enzyme(edition):
    cards = [{"id": "d3", "type": "detox", "cost": {"atp": 3}, "illustrative": True},
             {"id": "e1", "type": "enzyme", "cost": {"atp": 1, "protein": 2}, "health": 4, "color": "red",
              "illustrative": True}]
    p = make(edition=edition, start={"atp": 4, "protein": 2}, hand=["d3", "e1"], cards=cards, flasks=2)
    s = run(p, place("smooth-er-detox", card="d3"), place("cytoplasm", card="e1"))
    assert s.health == 1 + 4 and s.stock == Stock() and s.completed == ("d3", "e1")


@pytest.mark.parametrize("edition", EDITIONS)
def test_laureates_atp_or_goal(edition):
    goals = [{"id": "g1", "illustrative": True}, {"id": "g2", "illustrative": True, "markers": 1}]
    p = make(edition=edition, goals=goals, first_player=False, flasks=1)
    s = run(p, place("laureates"))
    assert s.stock == Stock(atp=1) and s.first_player
    assert run(p, place("laureates", goal="g1")).health == 3      # first marker: +3
    assert run(p, place("laureates", goal="g2")).health == 0      # second marker: nothing
    full = make(edition=edition, goals=[{"id": "g", "illustrative": True, "markers": 2}])
    with pytest.raises(IllegalActionError, match="already holds 2"):
        run(full, place("laureates", goal="g"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_goal_end_scoring(edition):
    goals = [{"id": "g", "illustrative": True, "card_types": ["protein-hormone"], "count": 1, "points": 4}]
    p = make(edition=edition, start={"atp": 2, "mrna": 2, "carb": 1}, hand=["ph"], cards=[PH7], goals=goals,
             flasks=4)
    s = run(p, place("laureates", goal="g"), place("rough-er-1", card="ph"), place("golgi-1", card="ph"),
            place("exocytosis-1", card="ph"))
    assert score(s).goals == 4 and returns(s) == 3 + 7 + 4


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("event,price,atp_after", [(None, 1, 0), ("reduce-atp-cost", 0, 1)])
def test_card_row_purchase_and_reduce_atp_cost(edition, event, price, atp_after):
    p = make(edition=edition, start={"atp": 1}, row=["ph", None], cards=[PH7], events=[event])
    s = run(p, place("card-row-1", card="ph"))
    assert s.hand == ("ph",) and s.row[0] is None
    # card-row-1 is the Free spot (price 0, assumed): with Reduce ATP Cost it pays 1 ATP
    assert s.stock.atp == (2 if event else 1)
    p2 = make(edition=edition, start={"atp": 1}, row=[None, "ph"], cards=[PH7], events=[event])
    assert run(p2, place("card-row-2")).stock.atp == atp_after


@pytest.mark.parametrize("edition", EDITIONS)
def test_grey_flasks(edition):
    p = make(edition=edition, start={"atp": 8}, occupied={1: ["nucleus-3"]}, flasks=2, grey_flasks=1)
    s = apply(initial_state(p), place("nucleus-3", grey=True))      # taken spot: fine for a grey flask
    assert s.stock == Stock(atp=4, mrna=3) and s.flasks_left == 2 and s.grey_left == 0
    with pytest.raises(IllegalActionError, match="one grey flask per turn|no grey flask"):
        apply(s, place("nucleus-2", grey=True))
    s = apply(s, place("nucleus-2"))
    with pytest.raises(IllegalActionError, match="no grey flask left"):
        apply(s, place("nucleus-2", grey=True))
    poor = make(edition=edition, start={"atp": 3})
    with pytest.raises(IllegalActionError, match="costs 4 ATP"):
        run(poor, place("nucleus-2", grey=True))
    # must be able to take the action: 4 ATP for the grey flask leaves none for glucose
    p4 = make(edition=edition, start={"atp": 4})
    with pytest.raises(IllegalActionError, match="costs 1 ATP"):
        run(p4, place("glucose-1", grey=True))


def test_one_grey_flask_per_turn_resets_after_the_turn():
    p = make(start={"atp": 8}, flasks=2, grey_flasks=2)
    s = run(p, place("nucleus-3", grey=True), place("nucleus-2"), place("nucleus-3", grey=True))
    assert s.grey_left == 0 and s.stock.mrna == 8


@pytest.mark.parametrize("edition,allowed", [("1e", False), ("2e", True)])
def test_exhaust_flask_only_2e(edition, allowed):
    p = make(edition=edition, flasks=1)
    if allowed:
        s = run(p, exhaust("lipid"))
        assert s.stock == Stock(lipid=1) and is_terminal(s)
    else:
        with pytest.raises(IllegalActionError, match="2e rule"):
            run(p, exhaust("lipid"))
    assert (exhaust("atp") in legal_actions(initial_state(p))) is allowed


def test_exhaust_cannot_give_protein():
    with pytest.raises(IllegalActionError, match="expected one of"):
        run(make(), exhaust("protein"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_boost_waits_until_claimed(edition):
    p = make(edition=edition, rounds=3, flasks=1, events=["boost-nucleus", "boost-nucleus", None])
    s = run(p, place("mitochondria-3"))                  # round 1: boost not claimed
    assert dict(s.boosts)["boost-nucleus"] == Stock(mrna=2) and s.round == 2
    s = apply(s, place("nucleus-2"))                     # round 2: claims both
    assert s.stock == Stock(atp=3, mrna=4) and s.boosts == ()


@pytest.mark.parametrize("edition", EDITIONS)
def test_boost_taken_by_other_players_first(edition):
    p = make(edition=edition, events=["boost-glucose"], occupied={1: ["glucose-1"]}, start={"atp": 2})
    assert run(p, place("glucose-2")).stock == Stock(carb=2)


def test_toxicity_1e():
    p = make(edition="1e", rounds=2, flasks=1, events=[None, "toxicity"],
             start={"mrna": 10, "protein": 7, "carb": 5, "lipid": 4, "atp": 9})
    s = run(p, place("mitochondria-2"))
    assert s.stock == Stock(atp=11, mrna=6, protein=5, carb=4, lipid=4)


def test_toxicity_not_in_2e():
    from solver.game.errors import PuzzleError
    with pytest.raises(PuzzleError, match="not in the 2e event deck"):
        make(edition="2e", rounds=2, events=[None, "toxicity"])


@pytest.mark.parametrize("edition,row_after", [
    # 1e discards the cheapest (card-row-1 price 0 is cheapest: same as left-most with the assumed prices)
    ("1e", ("b", "c", "d", "e")),
    ("2e", ("b", "c", "d", "e")),
])
def test_phase2_refresh(edition, row_after):
    cards = [{"id": x, "type": "detox", "cost": {"atp": 2}, "illustrative": True} for x in "abcdef"]
    p = make(edition=edition, rounds=2, flasks=1, row=["a", "b", "c", "d"], deck=["e", "f"], cards=cards)
    s = run(p, place("nucleus-2"))
    assert s.row == row_after and s.deck == ("f",) and s.discard == ("a",)


@pytest.mark.parametrize("edition,row_after", [("1e", (None, "c", "d", "e")), ("2e", ("a", "c", "d", "e"))])
def test_phase2_cheapest_vs_leftmost(edition, row_after):
    """With prices overridden so the left slot is dearest, 1e (cheapest) and 2e (left-most) differ."""
    cards = [{"id": x, "type": "detox", "cost": {"atp": 2}, "illustrative": True} for x in "abcde"]
    p = make(edition=edition, rounds=2, flasks=1, row=["a", "b", None, None], deck=["c", "d", "e"], cards=cards,
             board_override={"row_prices": [3, 0, 1, 2]})
    s = run(p, place("nucleus-2"))
    expect = ("a", "c", "d", "e") if edition == "1e" else ("b", "c", "d", "e")
    assert s.row == expect


@pytest.mark.parametrize("edition,board", [("1e", "3-5p"), ("2e", "2p")])
def test_two_player_discards_two(edition, board):
    cards = [{"id": x, "type": "detox", "cost": {"atp": 2}, "illustrative": True} for x in "abcdef"]
    p = make(edition=edition, board=board, players=2, rounds=2, flasks=1, row=["a", "b", "c", "d"],
             deck=["e", "f"], cards=cards)
    s = run(p, place("nucleus-3"))
    assert s.row == ("c", "d", "e", "f") and s.discard == ("a", "b")


def test_event_order_per_edition():
    assert rules_for(Edition.FIRST).phase2_order().index("reveal-event") < \
        rules_for(Edition.FIRST).phase2_order().index("refresh-row")
    assert rules_for(Edition.SECOND).phase2_order().index("reveal-event") > \
        rules_for(Edition.SECOND).phase2_order().index("refresh-row")


def test_two_player_one_flask_per_area_1e():
    p = make(edition="1e", players=2, flasks=4, start={"atp": 4})
    s = run(p, place("nucleus-3"))
    with pytest.raises(IllegalActionError, match="area nucleus already has its flask"):
        apply(s, place("nucleus-2"))
    s = run(p, place("mitochondria-3"), place("mitochondria-2"))       # Mitochondria: 2 of 3
    with pytest.raises(IllegalActionError, match="area mitochondria"):
        apply(s, place("mitochondria-6"))
    s = run(p, place("smooth-er-lipids-3"))                            # lipids and detox count apart
    assert why_illegal(s, place("smooth-er-lipids-2")) is not None
    # a grey flask goes anywhere
    assert why_illegal(run(p, place("nucleus-3")), place("nucleus-2", grey=True)) is None


def test_three_player_no_area_limit_1e():
    p = make(edition="1e", players=3, flasks=2)
    assert run(p, place("nucleus-3"), place("nucleus-2")).stock.mrna == 5


def _full_golgi(edition, my_health, opp_health):
    return make(edition=edition, start={"atp": 2, "mrna": 2, "carb": 1, "health": my_health}, hand=["ph"],
                cards=[PH7], board_override={"vesicles": {"golgi": 1}},
                opponents={"detox": [], "disks": [{"area": "golgi", "health": opp_health, "seat": 2}]})


def test_full_area_1e_active_player_chooses():
    p = _full_golgi("1e", 0, 10)
    s = run(p, place("rough-er-1", card="ph"))
    assert why_illegal(s, place("golgi-1", card="ph")).startswith("golgi is full")
    s = apply(s, place("golgi-1", card="ph", bump="opp1"))
    assert s.opp_disks == () and s.disks[0].area.value == "golgi"


@pytest.mark.parametrize("mine,theirs,removed", [(0, 10, "opp1"), (12, 10, "own"), (10, 10, "own")])
def test_full_area_2e_highest_health_leaves(mine, theirs, removed):
    """2e: the disk of the player highest on the Health Track leaves (tie: earliest seat; the
    player is seat 1)."""
    cards = [PH7, {**PH7, "id": "ph2"}]
    p = make(edition="2e", start={"atp": 2, "mrna": 4, "carb": 2, "health": mine}, hand=["ph", "ph2"],
             cards=cards, flasks=4, board_override={"vesicles": {"golgi": 2}},
             opponents={"disks": [{"area": "golgi", "health": theirs, "seat": 2}]})
    s = run(p, place("rough-er-1", card="ph"), place("golgi-1", card="ph"), place("rough-er-2", card="ph2"))
    s = apply(s, place("golgi-2", card="ph2"))
    if removed == "opp1":
        assert s.opp_disks == () and len(s.disks) == 2
    else:
        assert len(s.opp_disks) == 1 and [d.card for d in s.disks] == ["ph2"]
        assert s.stock.protein == 2 and s.stock.carb == 1          # cubes came back to stock


def test_full_area_2e_rejects_a_chosen_bump():
    p = _full_golgi("2e", 0, 10)
    s = run(p, place("rough-er-1", card="ph"))
    assert "2e" in why_illegal(s, place("golgi-1", card="ph", bump="own:ph"))


def test_both_disks_in_use():
    cards = [PH7, {**PH7, "id": "ph2"}, {**PH7, "id": "ph3"}]
    p = make(start={"mrna": 6}, hand=["ph", "ph2", "ph3"], cards=cards, flasks=3, board_override={"spots": {"rough-er": 3}})
    s = run(p, place("rough-er-1", card="ph"), place("rough-er-2", card="ph2"))
    with pytest.raises(IllegalActionError, match="no Transport Vesicle Disk left"):
        apply(s, place("rough-er-3", card="ph3"))


def test_macromolecule_card_is_played_not_completed():
    mc = {"id": "m", "type": "macromolecule", "gain": {"lipid": 2}, "illustrative": True}
    p = make(hand=["m"], cards=[mc], flasks=1)
    s = apply(initial_state(p), Action(ActionKind.PLAY_CARD, card="m"))
    assert s.stock == Stock(lipid=2) and s.hand == () and s.completed == () and s.flasks_left == 1


def test_receptor_bonuses():
    rec = {"id": "pr", "type": "protein-receptor", "cost": {"atp": 0, "protein": 1, "carb": 1}, "health": 2,
           "illustrative": True}
    p = make(start={"atp": 2, "mrna": 3, "carb": 2}, hand=["ph", "pr"], cards=[PH7, rec], flasks=3,
             rounds=2, opponents={"hormones": {2: ["protein-hormone", "steroid-hormone"]}})
    s = run(p, place("rough-er-1", card="pr"), place("golgi-1", card="pr"), place("exocytosis-1", card="pr"),
            place("rough-er-2", card="ph"), place("golgi-2", card="ph"), place("exocytosis-2", card="ph"))
    # 2 (receptor) + 7 + 1 (own receptor) + 2 (an opponent's protein hormone at round end)
    assert s.health == 2 + 7 + 1 + 2


@pytest.mark.parametrize("stock,points", [(Stock(mrna=8, lipid=3, protein=3, carb=5), 2 + 0 + 1 + 2),
                                          (Stock(atp=99), 0)])
def test_macromolecule_sets(stock, points):
    assert macromolecule_points(stock) == points


def test_vesicle_cubes_count_at_the_end():
    p = make(start={"mrna": 3}, hand=["ph"], cards=[PH7], flasks=1)
    s = run(p, place("rough-er-1", card="ph"))          # 2 proteins on the disk, 1 mRNA in stock
    s2 = make(start={"mrna": 3, "protein": 1}, hand=["ph"], cards=[PH7], flasks=1)
    s2 = run(s2, place("rough-er-1", card="ph"))
    assert score(s).macromolecules == 0 and score(s2).macromolecules == 1


@pytest.mark.parametrize("colors,points", [([], 0), (["a"], 0), (["a", "b"], 2), (["a", "b", "c"], 5),
                                           (["a", "b", "c", "d"], 9), (list("abcde"), 14),
                                           (["a", "a", "b", "b", "c"], 5 + 2), (["a", "a"], 0)])
def test_enzyme_sets(colors, points):
    assert enzyme_set_points(colors) == points


def test_enzyme_sets_greedy_is_optimal():
    import itertools
    from solver.game.engine import ENZYME_SET_POINTS

    def brute(counts):
        best = 0
        items = [c for c, n in counts.items() for _ in range(n)]
        # assign each card to a set index; sets must have distinct colours
        for assign in itertools.product(range(len(items)), repeat=len(items)):
            sets = {}
            ok = True
            for item, k in zip(items, assign):
                if item in sets.setdefault(k, set()):
                    ok = False
                    break
                sets[k].add(item)
            if ok:
                best = max(best, sum(ENZYME_SET_POINTS[len(v)] for v in sets.values()))
        return best
    for counts in ({"a": 2, "b": 1, "c": 1}, {"a": 2, "b": 2, "c": 1}, {"a": 3, "b": 1}):
        colors = [c for c, n in counts.items() for _ in range(n)]
        assert enzyme_set_points(colors) == brute(counts)


@pytest.mark.parametrize("edition,players,mine,others,points", [
    ("2e", 3, (5, 2), [(3, 1)], 8),
    ("2e", 3, (3, 1), [(5, 2)], 5),
    ("2e", 4, (3, 1), [(5, 2), (4, 1)], 2),
    ("2e", 3, (4, 2), [(4, 1)], 8),                 # tie on amount: more cards wins
    ("2e", 3, (4, 2), [(4, 2)], (8 + 5) // 2),      # still tied: share 1st and 2nd
    ("2e", 4, (4, 2), [(4, 2), (4, 2)], (8 + 5 + 2) // 3),
    ("2e", 3, (4, 2), [(9, 3), (4, 2)], (5 + 2) // 2),
    ("2e", 3, (0, 0), [(0, 0)], 0),                 # no detox card: no points
    ("1e", 2, (5, 2), [(3, 1)], 6), ("1e", 2, (3, 1), [(5, 2)], 3),
    ("2e", 2, (5, 2), [(3, 1)], 5), ("2e", 2, (3, 1), [(5, 2)], 2),
    ("2e", 2, (4, 2), [(4, 1)], 3),                 # 2e two-player tie: 3 each
    ("1e", 2, (4, 2), [(4, 2)], (6 + 3) // 2),
    ("1e", 3, (2, 1), [], 8),
])
def test_detox_majority(edition, players, mine, others, points):
    assert detox_points(rules_for(Edition(edition)), players, mine, others) == points


@pytest.mark.parametrize("edition", EDITIONS)
def test_illegal_action_names_reason(edition):
    p = make(edition=edition)
    with pytest.raises(IllegalActionError) as err:
        run(p, place("nowhere"))
    assert "unknown spot 'nowhere'" in str(err.value)
    with pytest.raises(IllegalActionError, match="not in hand"):
        run(make(edition=edition, cards=[PH7]), place("rough-er-1", card="ph"))


def test_game_over_refuses_actions():
    s = run(make(flasks=1), place("nucleus-3"))
    assert is_terminal(s) and legal_actions(s) == []
    with pytest.raises(IllegalActionError, match="game is over"):
        apply(s, place("nucleus-2"))


def test_spot_rule_sections():
    p = make()
    for spot in p.board.spots:
        assert spot.rule_sections and all("." in s for s in spot.rule_sections)
    assert set(SpotKind) == {s.kind for s in p.board.spots}


def _section_ids(node) -> set[str]:
    out = set()
    if isinstance(node, dict):
        if isinstance(node.get("id"), str) and "." in node["id"]:
            out.add(node["id"])
        for k, v in node.items():
            if k == "sections" and isinstance(v, list):
                out |= {x if isinstance(x, str) else x.get("id") for x in v}
            else:
                out |= _section_ids(v)
    elif isinstance(node, list):
        for v in node:
            out |= _section_ids(v)
    return out


def _cited_ids() -> set[str]:
    import re
    ids = set(ALL_SECTIONS)
    pattern = re.compile(r"`((?:gameplay|spots|cards|events|scoring|two-player)\.[a-z0-9-]+)`")
    for f in (ROOT / "solver").rglob("*.py"):
        ids |= set(pattern.findall(f.read_text(encoding="utf-8")))
    return ids


def test_cited_rule_sections_exist():
    manifest = ROOT / "data" / "rules" / "cytosis" / "game.yaml"
    known = _section_ids(yaml.safe_load(manifest.read_text(encoding="utf-8")))
    missing = sorted(_cited_ids() - known)
    assert not missing, f"section IDs cited by solver/ but missing from {manifest}: {missing}"


# ---------------------------------------------------------------- readings fixed by issue 12

@pytest.mark.parametrize("edition,rulings,zero_ok", [
    ("1e", {}, True),                                          # "possono scambiare qualsiasi numero"
    ("2e", {}, False),                                         # "must return any number": at least one
    ("2e", {"free-ribosome-zero": "at-least-one"}, False),
    ("2e", {"free-ribosome-zero": "zero-allowed"}, True),
])
def test_free_ribosome_zero_mrna(edition, rulings, zero_ok):
    p = make(edition=edition, rulings=rulings, flasks=1)
    s = initial_state(p)
    assert (why_illegal(s, place("free-ribosome", amount=0)) is None) is zero_ok
    assert any(a.spot == "free-ribosome" for a in legal_actions(s)) is zero_ok
    if zero_ok:
        assert run(p, place("free-ribosome", amount=0)).stock == Stock()


def test_free_ribosome_zero_ruling_is_2e_only():
    from solver.game.errors import PuzzleError
    with pytest.raises(PuzzleError, match="free-ribosome-zero"):
        make(edition="1e", rulings={"free-ribosome-zero": "zero-allowed"})


@pytest.mark.parametrize("edition", EDITIONS)
def test_card_bought_with_the_last_flask_is_played(edition):
    m = {"id": "m", "type": "macromolecule", "gain": {"carb": 2}, "illustrative": True}
    p = make(edition=edition, flasks=1, row=["m"], cards=[m])
    s = run(p, place("card-row-1"))
    assert is_terminal(s) and s.stock == Stock(carb=2) and "m" in s.discard and "m" not in s.hand
    assert score(s).macromolecules == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_card_held_from_the_start_is_played_in_the_last_turn(edition):
    m = {"id": "m", "type": "macromolecule", "gain": {"mrna": 4}, "illustrative": True}
    p = make(edition=edition, flasks=1, rounds=2, hand=["m"], cards=[m])
    s = run(p, place("nucleus-2"))
    # the row and the deck are empty: played now, m would come back through the reshuffle, so
    # the turn stays open (macromolecule-card-before-reshuffle); ended, m is kept for round 2
    assert s.after_flask and s.round == 1
    s = apply(s, Action(ActionKind.END_TURN))
    assert "m" in s.hand and not is_terminal(s)        # round 2 still to play: kept in hand
    s = apply(s, place("nucleus-2"))
    assert is_terminal(s) and s.stock == Stock(mrna=8)


@pytest.mark.parametrize("edition", EDITIONS)
def test_other_players_flask_buys_the_card_under_it(edition):
    e = {"id": "e", "type": "enzyme", "cost": {"atp": 1}, "health": 2, "color": "a", "illustrative": True}
    p = make(edition=edition, start={"atp": 9}, row=["e", "f"], occupied={1: ["card-row-1"]},
             cards=[e, {**e, "id": "f", "color": "b"}])
    s = initial_state(p)
    assert s.row[:2] == (None, "f") and s.taken == ("e",)
    assert "no card under card-row-1" in why_illegal(s, place("card-row-1", grey=True))
    assert not any(a.spot == "card-row-1" for a in legal_actions(s))


@pytest.mark.parametrize("edition,row_after", [
    ("2e", ("c", "d", "b", None)),     # the left-most card left (b) is discarded, not the bought a
    ("1e", ("c", "d", "b", None)),     # the cheapest card left (b, slot 2) is discarded
])
def test_phase2_acts_on_the_row_as_other_players_left_it(edition, row_after):
    """The discarded card is b; the deck (d) is then used up with a slot open, and the discard pile
    holds b alone, so b comes back after d (deck-reshuffle); a, bought, is in no pile."""
    cards = [{"id": c, "type": "macromolecule", "gain": {"mrna": 1}, "illustrative": True} for c in "abcd"]
    p = make(edition=edition, rounds=2, flasks=1, row=["a", "b", "c"], deck=["d"],
             occupied={1: ["card-row-1"]}, cards=cards)
    s = run(p, place("nucleus-2"))
    assert s.row == row_after and s.discard == () and s.taken == ("a",)


@pytest.mark.parametrize("reading,other_card_ok", [("at-exocytosis", True), ("at-er", False)])
def test_disk_completes_the_card_named_at_exocytosis(reading, other_card_ok):
    pr = {"id": "pr", "type": "protein-receptor", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 3,
          "illustrative": True}
    p = make(edition="1e", flasks=4, start={"atp": 1, "mrna": 2, "carb": 1}, hand=["ph", "pr"], cards=[PH7, pr],
             rulings={"disk-card": reading})
    s = run(p, place("rough-er-1", card="ph"), place("golgi-1", card="ph"))
    exo = place("exocytosis-1", card="pr", disk="ph")
    assert (why_illegal(s, exo) is None) is other_card_ok
    if other_card_ok:
        s = apply(s, exo)
        assert s.completed == ("pr",) and s.hand == ("ph",) and s.disks == () and s.health == 3
        # the card the disk was started for can start a new disk
        assert why_illegal(s, place("rough-er-1", card="ph")) is not None   # no mRNA left, but:
        assert "already has a disk" not in why_illegal(s, place("rough-er-1", card="ph"))


def test_disk_must_cover_the_named_card():
    """"at least the number of macromolecules required ... but may have more": 2 proteins cover a
    1-protein card; a 3-protein card is not covered."""
    big = {"id": "big", "type": "protein-hormone", "cost": {"atp": 0, "protein": 3, "carb": 1}, "health": 9,
           "illustrative": True}
    p = make(edition="2e", flasks=4, start={"atp": 2, "mrna": 2, "carb": 1}, hand=["ph", "big"], cards=[PH7, big])
    s = run(p, place("rough-er-1", card="ph"), place("golgi-1", card="ph"))
    assert "card needs" in why_illegal(s, place("exocytosis-1", card="big", disk="ph"))


@pytest.mark.parametrize("reading,points", [("amount", 3), ("after-cards", 5)])
def test_two_player_detox_tie_readings(reading, points):
    rules = rules_for(Edition.SECOND)
    assert detox_points(rules, 2, (4, 2), [(4, 1)], {"two-player-detox-tie": reading}) == points
    assert detox_points(rules, 2, (4, 1), [(4, 2)], {"two-player-detox-tie": reading}) == (3 if reading == "amount" else 2)
    assert detox_points(rules, 2, (4, 2), [(4, 2)], {"two-player-detox-tie": reading}) == 3


@pytest.mark.parametrize("reading,blocked", [(None, True), ("counts", True), ("exempt", False)])
def test_grey_flask_and_the_1e_two_player_area_limit(reading, blocked):
    """A grey flask in the Nucleus, then the turn's own flask in the other Nucleus spot."""
    p = make(edition="1e", players=2, flasks=2, start={"atp": 4},
             rulings={"grey-flask-area-limit": reading} if reading else {})
    s = run(p, place("nucleus-3", grey=True))
    assert (why_illegal(s, place("nucleus-2")) is not None) is blocked
    # other players' flasks always count
    q = make(edition="1e", players=2, flasks=1, occupied={1: ["nucleus-3"]},
             rulings={"grey-flask-area-limit": reading} if reading else {})
    assert why_illegal(initial_state(q), place("nucleus-2")) is not None
