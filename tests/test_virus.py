"""The Virus expansion (``virus.*``), both editions: attacks from Virus Events and Virus Attack
cards, the ranking of Antibody Responses and its tie-breaks, gains and losses, antibodies bought
with ATP, and the refusals of the puzzle format."""
from __future__ import annotations

import pytest

from solver import solve
from solver.game.engine import Action, ActionKind, apply, initial_state, legal_actions
from solver.game.errors import IllegalActionError, PuzzleError
from solver.game.model import Resource
from solver_fixtures import make, place, run


def others(*pairs):
    return [{"seat": s, "response": r} for s, r in pairs]


def attacked(edition="2e", players=3, roll=5, opp=((2, 6), (3, 3)), start=None, **changes):
    """A puzzle whose round 1 opens with an Influenza attack (the Event of round 1)."""
    data = dict(edition=edition, players=players, rounds=1, flasks=1, grey_flasks=0,
                start={"atp": 4, "lipid": 1, **(start or {})}, events=["virus-influenza"],
                virus_rolls={"round-1": {"roll": roll, "others": others(*opp)}})
    if players == 2 and edition == "1e":
        data["board"] = "3-5p"
    data.update(changes)
    return make(**data)


def respond(take=None, lose=None):
    return Action(ActionKind.RESPOND, take=tuple(Resource(r) for r in take) if take is not None else None, lose=lose)


def vaccinate(atp):
    return Action(ActionKind.VACCINATE, amount=atp)


def gains(state):
    """(resources gained, loses) the waiting attack offers, from the legal responses."""
    options = [a for a in legal_actions(state) if a.kind is ActionKind.RESPOND]
    if any(a.lose for a in options):
        return 0, True
    return len(options[0].take), False


# --------------------------------------------------------------------------- ranking and allocation

@pytest.mark.parametrize("edition,players,opp,roll,expected", [
    ("2e", 3, ((2, 6), (3, 3)), 7, (3, False)),        # highest: gain 3
    ("2e", 3, ((2, 6), (3, 3)), 5, (1, False)),        # second: gain 1
    ("2e", 3, ((2, 6), (3, 3)), 2, (0, True)),         # lowest: lose 1 resource or 1 Health Point
    ("2e", 4, ((2, 6), (3, 3), (4, 4)), 5, (2, False)),  # 4 players, second: gain 2
    ("2e", 5, ((2, 6), (3, 3), (4, 4), (5, 5)), 1, (0, True)),   # 2e 5 players: the lowest loses
    ("1e", 5, ((2, 6), (3, 3), (4, 4), (5, 5)), 1, (0, False)),  # 1e 5 players: "Perde 0 risorse"
    ("1e", 5, ((2, 6), (3, 3), (4, 4), (5, 5)), 9, (4, False)),  # 5 players, highest: gain 4
])
def test_allocation_by_place(edition, players, opp, roll, expected):
    state = initial_state(attacked(edition, players, roll, opp))
    assert state.attacks and gains(state) == expected


def test_gain_is_any_combination_of_atp_mrna_lipids():
    state = initial_state(attacked(roll=7))
    takes = {tuple(r.value for r in a.take) for a in legal_actions(state)}
    assert ("atp", "mrna", "lipid") in takes and ("lipid", "lipid", "lipid") in takes and len(takes) == 10
    with pytest.raises(IllegalActionError, match="expected 3 resources chosen among"):
        apply(state, respond(["carb", "atp", "atp"]))
    after = apply(state, respond(["lipid", "lipid", "atp"]))
    assert (after.stock.lipid, after.stock.atp) == (3, 5)


def test_loss_is_a_resource_in_stock_or_one_health_point():
    state = initial_state(attacked(roll=1, start={"atp": 0, "lipid": 1}))
    loses = sorted(a.lose for a in legal_actions(state))
    assert loses == ["health", "lipid"]
    assert apply(state, respond(lose="health")).health == -1
    with pytest.raises(IllegalActionError, match="no mrna in stock"):
        apply(state, respond(lose="mrna"))


@pytest.mark.parametrize("first_player,expected", [(True, (3, False)), (False, (1, False))])
def test_tie_goes_to_the_player_closest_to_the_first_player(first_player, expected):
    """2e: "the tying player in the closest position clockwise to the player with the First Player
    Card wins the tie": tied at 6 with seat 2, the player (seat 1) wins holding the marker; with
    seat 2 holding it, seat 2 wins."""
    p = attacked(roll=6, opp=((2, 6), (3, 3)), first_player=first_player,
                 **({} if first_player else {"marker_seat": 2}))
    assert gains(initial_state(p)) == expected


def test_first_edition_dummy_wins_every_tie():
    """1e 2 players: "se un giocatore pareggia con il giocatore 'fittizio', il giocatore 'fittizio'
    vince lo spareggio"; the dummy makes the 2-3 player table apply."""
    p = attacked("1e", 2, roll=5, opp=((2, 3), (0, 5)))
    assert gains(initial_state(p)) == (1, False)
    p = attacked("1e", 2, roll=6, opp=((2, 3), (0, 5)))
    assert gains(initial_state(p)) == (3, False)


# --------------------------------------------------------------------------- antibodies

def test_antibodies_bought_after_the_attack_count_in_the_next():
    p = make(edition="2e", players=3, rounds=2, flasks=1, grey_flasks=0, start={"atp": 4},
             events=["virus-ebola", "virus-ebola"],
             virus_rolls={"round-1": {"roll": 2, "others": others((2, 6), (3, 3))},
                          "round-2": {"roll": 2, "others": others((2, 6), (3, 5))}})
    s = run(p, respond(lose="atp"), vaccinate(2))
    assert s.antibodies[0] == 4 and s.stock.atp == 1 and not s.attacks
    s = apply(s, place("nucleus-3"))
    assert s.round == 2 and gains(s) == (3, False), "2 + 4 antibodies = 6: tied with seat 2, first in turn order"


def test_attack_waits_before_anything_else():
    state = initial_state(attacked(roll=7))
    with pytest.raises(IllegalActionError, match="waits for the player's gain or loss"):
        apply(state, place("nucleus-3"))
    state = apply(state, respond(["atp", "atp", "atp"]))
    with pytest.raises(IllegalActionError, match="pay ATP for antibodies or decline"):
        apply(state, place("nucleus-3"))
    with pytest.raises(IllegalActionError, match="cannot pay 8 ATP"):
        apply(state, vaccinate(8))
    assert apply(apply(state, vaccinate(0)), place("nucleus-3")).done


# --------------------------------------------------------------------------- Virus Attack cards

VA = {"id": "va", "type": "virus-attack", "strain": "rhinovirus"}


def test_buying_a_virus_attack_card_attacks_with_antibodies_bought_first():
    """virus.card-attack: "Only the player who purchased the Virus Attack Card may pay additional
    ATP" before the roll; the card takes effect at once (not into the hand)."""
    p = make(edition="2e", players=3, rounds=1, flasks=1, grey_flasks=0, start={"atp": 5}, row=["va"], cards=[VA],
             virus_rolls={"va": {"roll": 2, "others": others((2, 5), (3, 3))}})
    s = apply(initial_state(p), place("card-row-1"))
    assert s.attacks and s.attacks[0][2] == "pre-roll" and "va" not in s.hand and not s.done
    s = apply(s, vaccinate(2))                  # 2 + 4 = 6: highest
    assert gains(s) == (3, False)
    s = apply(apply(s, respond(["atp"] * 3)), vaccinate(0))
    assert s.done, "the round ends once the attack is over"


def test_another_player_buying_a_virus_card_costs_one_health_point():
    p = make(edition="2e", players=3, rounds=1, flasks=1, grey_flasks=0, row=["va"], cards=[VA],
             occupied={1: ["card-row-1"]}, virus_rolls={"va": {"roll": 9, "others": others((2, 5), (3, 3))}})
    s = initial_state(p)
    assert s.health == -1 and s.attacks[0][2] == "respond" and gains(s) == (3, False)


# --------------------------------------------------------------------------- puzzle format

@pytest.mark.parametrize("changes,message", [
    (dict(edition="2e", board="2p", players=2, events=["virus-ebola"],
          virus_rolls={"round-1": {"roll": 1, "others": others((2, 1))}}), "Virus rules are for 3-5 players"),
    (dict(edition="2e", players=3, events=["virus-ebola"]), "expected the dice of the Virus attack 'round-1'"),
    (dict(edition="2e", players=3, events=["virus-ebola"],
          virus_rolls={"round-1": {"roll": 1, "others": others((2, 1))}}), "expected 2 other players"),
    (dict(edition="2e", players=3, events=["virus-ebola"],
          virus_rolls={"round-1": {"roll": 1, "others": others((1, 1), (2, 1))}}), "not the player's"),
    (dict(edition="1e", players=2, events=["virus-ebola"],
          virus_rolls={"round-1": {"roll": 1, "others": others((2, 1), (3, 1))}}), "seat 0: the dummy player"),
    (dict(edition="2e", players=3, cards=[{"id": "va", "type": "virus-attack"}], row=["va"]), "expected the strain"),
    (dict(edition="2e", players=3, virus_rolls={"round-1": {"roll": 1, "others": others((2, 1), (3, 1))}}),
     "expected a Virus Event round"),
])
def test_virus_puzzle_errors(changes, message):
    with pytest.raises(PuzzleError, match=message):
        make(rounds=1, flasks=1, **changes)


def test_virus_puzzles_are_solved_by_the_exhaustive_search():
    p = attacked(roll=5, rounds=1, flasks=1)
    sol = solve(p, confirm=())
    assert sol.engine == "exhaustive" and sol.status == "optimal"
    assert "cpsat_unsupported" in sol.stats and "Virus expansion" in sol.stats["cpsat_unsupported"]


def test_goal_conditions_count_completed_cards_only():
    """virus-goal-cards (not modelled): a goal counts completed card types; antibodies or attacks
    are not a card type a goal can name."""
    with pytest.raises(PuzzleError, match="goals"):
        make(edition="2e", players=3, rounds=1, flasks=1,
             goals=[{"id": "g", "card_types": ["antibodies"], "count": 1, "points": 3, "illustrative": True}])
