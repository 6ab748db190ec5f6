"""Random legal play: invariants at every step, in both editions."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver import load_puzzle, puzzle_files
from solver.game.engine import (
    DISKS, apply, initial_state, is_terminal, legal_actions, returns, score,
)
from solver_fixtures import PH7, SH9, make

RICH = [
    make(edition=ed, rounds=3, flasks=3, players=players, board=board,
         start={"atp": 9, "mrna": 4, "carb": 2, "lipid": 3},
         hand=["ph", "sh", "d2", "m"], row=["e1", "pr", None, "ph2"], deck=["d3", "e2", "sr"],
         events=["boost-nucleus", ev2, "reduce-atp-cost"], occupied={2: ["nucleus-3"]},
         goals=[{"id": "g", "illustrative": True, "card_types": ["enzyme"], "count": 1, "points": 3}],
         opponents={"detox": [{"amount": 3, "cards": 1}], "disks": [{"area": "golgi", "health": 5, "seat": 2}],
                    "hormones": {2: ["protein-hormone"]}},
         board_override={"vesicles": {"golgi": 1, "rough-er": 1}},
         cards=[PH7, SH9, {**PH7, "id": "ph2"},
                {"id": "d2", "type": "detox", "cost": {"atp": 2}, "illustrative": True},
                {"id": "d3", "type": "detox", "cost": {"atp": 3}, "illustrative": True},
                {"id": "m", "type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True},
                {"id": "e1", "type": "enzyme", "cost": {"atp": 1, "protein": 1}, "health": 2, "color": "a", "illustrative": True},
                {"id": "e2", "type": "enzyme", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 3, "color": "b", "illustrative": True},
                {"id": "pr", "type": "protein-receptor", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2, "illustrative": True},
                {"id": "sr", "type": "steroid-receptor", "cost": {"atp": 1, "protein": 1, "lipid": 1}, "health": 2, "illustrative": True}])
    for ed, ev2, players, board in [("1e", "toxicity", 3, "3-5p"), ("2e", "boost-glucose", 3, "3-5p"),
                                    ("1e", None, 2, "3-5p"), ("2e", None, 2, "2p")]
]
PUZZLES = RICH + [load_puzzle(p) for p in puzzle_files()]


def _cards_everywhere(s):
    on_disks = [d.card for d in s.disks]
    # a disk is named by the card it was started for; another disk may have completed that card
    assert set(on_disks) <= set(s.hand) | set(s.completed), "a disk started for a card never held"
    assert len(set(on_disks)) == len(on_disks), "one disk per card it was started for"
    return sorted(list(s.hand) + [c for c in s.row if c] + list(s.deck) + list(s.discard) + list(s.completed)
                  + list(s.taken))


def _check(s0, s, p):
    assert all(x >= 0 for x in s.stock.as_tuple()), s.stock
    assert len(s.disks) <= DISKS
    assert 0 <= s.grey_left <= p.grey_flasks and 0 <= s.flasks_left <= p.flasks
    assert _cards_everywhere(s) == _cards_everywhere(s0), "cards are conserved"
    assert set(s0.taken) <= set(s.taken), "cards other players bought stay theirs"
    for area in {d.area for d in s.disks}:
        n = sum(1 for d in s.disks if d.area is area) + sum(1 for d in s.opp_disks if d.area is area)
        assert n <= p.board.vesicle_count(area)
    # copies equal originals; states are values
    assert copy.copy(s) == s and hash(copy.deepcopy(s)) == hash(s)
    # scoring matches a recount
    stock = s.stock
    for d in s.disks:
        stock = stock + d.load
    b = score(s)
    assert b.macromolecules == stock.mrna // 4 + stock.lipid // 4 + stock.protein // 3 + stock.carb // 2
    assert b.total == b.in_game + b.macromolecules + b.detox + b.enzyme_sets + b.goals == returns(s)


@pytest.mark.parametrize("index", range(len(PUZZLES)))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_invariants(index, seed):
    p = PUZZLES[index]
    rng = random.Random(seed)
    s0 = s = initial_state(p)
    _check(s0, s, p)
    steps = 0
    while not is_terminal(s):
        actions = legal_actions(s)
        if not actions:
            break
        a = rng.choice(actions)
        before_flasks = (s.round, s.flasks_left)
        s = apply(s, a)
        _check(s0, s, p)
        # flasks are conserved: a step uses at most one of the player's flasks
        if s.round == before_flasks[0] and not is_terminal(s):
            assert s.flasks_left in (before_flasks[1], before_flasks[1] - 1)
        steps += 1
        assert steps < 200
