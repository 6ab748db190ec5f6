"""Virus readings where the order of things inside a round matters: the First Player Card changing
hands before a tie is broken (VIR 111, IT 716), a Virus Attack card taken with the Epigenetic deck
look (IT 788), the round's Epigenetic income before another player's attack (IT 805), and
Macromolecule cards played at the end of the turn before a Virus attack that strikes before the
player's next turn (EN 468)."""
from __future__ import annotations

import pytest

from solver.game.engine import Action, ActionKind, apply, initial_state, legal_actions
from solver.game.errors import IllegalActionError
from solver.game.model import Resource
from solver.io.puzzle import load_board
from solver.optimise.search import exhaustive
from solver_fixtures import make, place, run

VA = {"id": "va", "type": "virus-attack", "strain": "rhinovirus"}
MM = {"id": "mm", "type": "macromolecule", "gain": {"lipid": 2}, "illustrative": True}


def others(*pairs):
    return [{"seat": s, "response": r} for s, r in pairs]


def gains(state):
    options = [a for a in legal_actions(state) if a.kind is ActionKind.RESPOND]
    if any(a.lose for a in options):
        return 0, True
    return len(options[0].take), False


def vaccinate(atp):
    return Action(ActionKind.VACCINATE, amount=atp)


# --------------------------------------------------------------------------- VIR 111: the holder now

@pytest.mark.parametrize("laureates_first,expected", [(True, (3, False)), (False, (1, False))])
def test_marker_taken_this_round_wins_the_tie_of_the_players_own_attack(laureates_first, expected):
    """Seat 2 holds the First Player Card at the start. The player (seat 1) takes it on Laureates in
    Biology, then buys the Virus Attack card: tied at 5 with seat 2, the player now holds the card and
    wins the tie, first place, 3 resources (VIR 111 "the player with the First Player Card"). Buying
    first and taking the marker after, seat 2 still holds it: second place, 1 resource."""
    p = make(edition="2e", players=3, rounds=1, flasks=2, grey_flasks=0, start={"atp": 5}, row=["va"], cards=[VA],
             first_player=False, marker_seat=2, virus_rolls={"va": {"roll": 5, "others": others((2, 5), (3, 3))}})
    steps = [place("laureates"), place("card-row-1")] if laureates_first else [place("card-row-1")]
    s = apply(run(p, *steps), vaccinate(0))
    assert gains(s) == expected


def test_marker_taken_by_another_player_this_round_wins_their_tie():
    """The player holds the card at the start; seat 3's flask takes Laureates this round (placed
    before the player's turn): tied with seat 3 on the player's own Virus Attack card, seat 3 wins."""
    p = make(edition="2e", players=3, rounds=1, flasks=1, grey_flasks=0, start={"atp": 5}, row=["va"], cards=[VA],
             first_player=True, occupied={1: ["laureates"]}, laureates_seats={1: 3},
             virus_rolls={"va": {"roll": 5, "others": others((2, 1), (3, 5))}})
    s = apply(run(p, place("card-row-1")), vaccinate(0))
    assert gains(s) == (1, False)


# --------------------------------------------------------------------------- IT 788: peek selects a Virus Attack card

def test_virus_attack_card_taken_with_the_deck_look_attacks_at_once():
    p = make(edition="1e", players=3, rounds=1, flasks=1, grey_flasks=0, epigenetic="peek-deck",
             start={"atp": 6}, deck=["va"], cards=[VA],
             virus_rolls={"va": {"roll": 9, "others": others((2, 5), (3, 3))}})
    s = apply(initial_state(p), Action(ActionKind.PEEK, card="va", order=()))
    assert "va" not in s.hand and "va" in s.discard and s.attacks[0][1:] == ("va", "pre-roll")
    assert s.stock.atp == 2 and not s.done
    s = apply(s, vaccinate(0))
    assert gains(s) == (3, False)


@pytest.mark.parametrize("looked_before", [False, True])
def test_the_turns_look_follows_the_attack_its_flask_started(looked_before):
    """A flask buys a Virus Attack card from the row (card-row-1, 0 ATP): the attack first, then the
    turn goes on (epigenetic.cards, "durante il suo turno"): its look at the deck if not used before
    the flask; else the next turn, which may look again."""
    p = make(edition="1e", players=3, rounds=1, flasks=2, grey_flasks=0, epigenetic="peek-deck",
             start={"atp": 4}, row=["va"], deck=["m1", "m2"],
             cards=[VA] + [{"id": c, "type": "macromolecule", "gain": {"lipid": 1}, "illustrative": True} for c in ("m1", "m2")],
             virus_rolls={"va": {"roll": 9, "others": others((2, 5), (3, 3))}})
    s = run(p, *([Action(ActionKind.PEEK, order=("m2", "m1"))] if looked_before else []), place("card-row-1"))
    assert s.attacks and s.after_flask is not looked_before
    s = apply(apply(apply(s, vaccinate(0)), Action(ActionKind.RESPOND, take=(Resource.ATP,) * 3)), vaccinate(0))
    assert not s.attacks and s.after_flask is not looked_before and s.flasks_left == 1
    assert any(a.kind is ActionKind.PEEK for a in legal_actions(s)), "this turn's look, or the next turn's"
    if not looked_before:
        assert apply(s, Action(ActionKind.END_TURN)).flasks_left == 1


# --------------------------------------------------------------------------- IT 805: income first

def test_round_income_comes_before_another_players_attack():
    """Another player buys a Virus Attack card in round 1; the player, last, must lose a resource or
    1 Health Point. With an empty stock, the round's income (IT 805, "all'inizio di ciascun round")
    is taken first and lost instead of the Health Point."""
    p = make(edition="1e", players=3, rounds=1, flasks=1, grey_flasks=0, epigenetic="round-income",
             row=["va"], cards=[VA], occupied={1: ["card-row-1"]},
             virus_rolls={"va": {"roll": 0, "others": others((2, 5), (3, 3))}})
    s = initial_state(p)
    assert s.attacks and s.income_due
    incomes = [a for a in legal_actions(s) if a.kind is ActionKind.INCOME]
    assert len(incomes) == 3
    s = apply(s, Action(ActionKind.INCOME, resource=Resource.MRNA))
    losses = sorted(a.lose for a in legal_actions(s))
    assert losses == ["health", "mrna"]


def test_income_does_not_jump_a_virus_event():
    """The round's Virus Event was revealed before the round began: its attack goes first."""
    p = make(edition="1e", players=3, rounds=1, flasks=1, grey_flasks=0, epigenetic="round-income",
             events=["virus-influenza"], virus_rolls={"round-1": {"roll": 0, "others": others((2, 5), (3, 3))}})
    s = initial_state(p)
    with pytest.raises(IllegalActionError):
        apply(s, Action(ActionKind.INCOME, resource=Resource.MRNA))


# --------------------------------------------------------------------------- EN 468: cards before a Virus attack between two turns

def test_card_bought_with_the_rounds_last_flask_is_played_before_the_phase_2_attack():
    """Round 1: the last flask buys a Macromolecule card (2 lipids); round 2 opens with a Virus
    Event where the player is last and loses. Played at the end of the turn (EN 468), the card's
    lipids pay the loss instead of a Health Point: the optimum keeps the Health."""
    spots = [s.id for s in load_board("3-5p").spots]
    p = make(edition="2e", players=3, rounds=2, flasks=1, grey_flasks=0, row=["mm"], cards=[MM],
             occupied={1: [s for s in spots if s != "card-row-1"], 2: [s for s in spots if s != "smooth-er-lipids-3"]},
             events=[None, "virus-ebola"], virus_rolls={"round-2": {"roll": 0, "others": others((2, 5), (3, 3))}})
    s = run(p, place("card-row-1"))
    assert s.round == 1 and s.after_flask and "mm" in s.hand, "the turn stays open for the card"
    assert {a.kind for a in legal_actions(s)} == {ActionKind.PLAY_CARD, ActionKind.END_TURN}
    played = apply(s, Action(ActionKind.PLAY_CARD, card="mm"))
    assert played.round == 2 and played.attacks and not played.after_flask, "the last card closes the turn"
    assert "lipid" in {a.lose for a in legal_actions(played)}
    kept = apply(s, Action(ActionKind.END_TURN))
    assert kept.round == 2 and kept.attacks and "mm" in kept.hand
    with pytest.raises(IllegalActionError, match="waits"):      # an attack is no one's turn
        apply(kept, Action(ActionKind.PLAY_CARD, card="mm"))
    assert {a.lose for a in legal_actions(kept)} == {"health"}
    # round 1 offers only the Free card slot (or exhausting the flask), round 2 only Lipid
    # Synthesis 3. Optimum: card first, lose 1 of its 2 lipids, then 3 lipids: 4, 1 set, Health
    # 0 + 1 = 1. Were the card held until round 2's turn: the loss is 1 Health Point (empty stock)
    # and 2 + 3 lipids make 1 set: 0 (exhausting for 1 lipid instead: 1 - 1 + 3 = 3 lipids, 0)
    best, plan, _ = exhaustive(p)
    assert best == 1
    kinds = [a.kind for a in plan]
    assert kinds.index(ActionKind.PLAY_CARD) < kinds.index(ActionKind.RESPOND)
    assert ActionKind.END_TURN not in kinds, "playing the last card closed the turn"


def test_the_card_played_before_phase_2_meets_its_toxicity():
    """The turn kept open for a card before another player's Virus Attack card is the rule itself,
    so Phase 2 runs on what the player did (1e, Toxicity is a 1st-edition event): 4 mRNA and a card of 1 mRNA bought with round 1's
    last flask; round 2 reveals Toxicity, then another player buys va. Played at the end of the
    turn, the card's mRNA meets Toxicity (5 -> 4); kept, it waits out Toxicity (4 stays 4) and the
    attack (only a Health Point or the stock's mRNA), and is played in round 2's turn."""
    spots = [s.id for s in load_board("3-5p").spots]
    mac = {"id": "mac", "type": "macromolecule", "gain": {"mrna": 1}, "illustrative": True}
    p = make(edition="1e", players=3, rounds=2, flasks=1, grey_flasks=0, row=["mac"], deck=["va", "d1", "d2", "d3"],
             cards=[mac, VA] + [{"id": d, "type": "detox", "cost": {"atp": 4}, "illustrative": True} for d in ("d1", "d2", "d3")],
             start={"mrna": 4, "health": 3}, events=[None, "toxicity"], laureates_seats={1: 2},
             occupied={1: [s for s in spots if s != "card-row-1"], 2: [s for s in spots if s not in ("nucleus-2", "laureates")]},
             virus_rolls={"va": {"roll": 0, "others": others((2, 5), (3, 3))}})
    s = run(p, place("card-row-1"))
    assert s.after_flask and s.hand == ("mac",)
    played = apply(s, Action(ActionKind.PLAY_CARD, card="mac"))
    assert played.round == 2 and played.stock.mrna == 4 and played.attacks and played.health == 2
    kept = apply(s, Action(ActionKind.END_TURN))
    assert kept.round == 2 and kept.stock.mrna == 4 and kept.hand == ("mac",) and kept.attacks
    assert {a.lose for a in legal_actions(kept)} == {"health", "mrna"}


def test_no_card_before_the_first_rounds_event():
    p = make(edition="2e", players=3, rounds=1, flasks=1, grey_flasks=0, hand=["mm"], cards=[MM],
             events=["virus-ebola"], virus_rolls={"round-1": {"roll": 0, "others": others((2, 5), (3, 3))}})
    with pytest.raises(IllegalActionError):
        apply(initial_state(p), Action(ActionKind.PLAY_CARD, card="mm"))


# --------------------------------------------------------------------------- IT 615: the board's Virus side

def test_virus_puzzles_use_the_base_sides_spots():
    """The Virus side's spots are the base side's (ruling of the audit row virus-board-side): a 1st
    edition Virus puzzle on the 3-5p side offers the same spots as without the Virus."""
    virus = make(edition="1e", players=3, rounds=1, flasks=1, grey_flasks=0, events=["virus-ebola"],
                 virus_rolls={"round-1": {"roll": 0, "others": others((2, 5), (3, 3))}})
    base = make(edition="1e", players=3, rounds=1, flasks=1, grey_flasks=0)
    assert [s.id for s in virus.board.spots] == [s.id for s in base.board.spots]
