"""Shared helpers for the solver tests: build puzzles from dicts without files."""
from __future__ import annotations

import copy

from solver.game.engine import Action, ActionKind, apply, initial_state
from solver.game.model import Resource
from solver.io.loading import Located
from solver.io.puzzle import _Where, _normalise_round_keys, _schema_check, PUZZLE_SCHEMA, puzzle_from_data

PH7 = {"id": "ph", "type": "protein-hormone", "cost": {"atp": 2, "protein": 2, "carb": 1}, "health": 7}
SH9 = {"id": "sh", "type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9}

BASE = {
    "id": "t", "title": {"en": "t", "it": "t"}, "story": {"en": "t", "it": "t"},
    "edition": "2e", "board": "3-5p", "rounds": 1, "flasks": 3,
    "start": {"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
    "hand": [], "row": [], "deck": [], "events": [], "occupied": {}, "grey_flasks": 2,
    "goals": [], "opponents": {"detox": []}, "cards": [], "objective": "max-health",
}


def make(**changes):
    """A validated Puzzle from BASE updated with ``changes`` (``start`` merges)."""
    data = copy.deepcopy(BASE)
    start = changes.pop("start", {})
    data["start"].update(start)
    data.update(copy.deepcopy(changes))
    _normalise_round_keys(data)
    where = _Where("<test>", Located("<test>"))
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


def place(spot, **kw):
    return Action(ActionKind.PLACE, spot=spot, **kw)


def exhaust(resource):
    return Action(ActionKind.EXHAUST, resource=Resource(resource))


def run(puzzle, *actions):
    state = initial_state(puzzle)
    for a in actions:
        state = apply(state, a)
    return state


# --------------------------------------------------------------------------- random small puzzles

def _random_card(rng, cid, ctype):
    ill = {"id": cid, "type": ctype, "illustrative": True}
    if ctype == "protein-hormone":
        return {**ill, "cost": {"atp": rng.randint(0, 2), "protein": rng.randint(1, 2), "carb": 1}, "health": rng.randint(2, 8)}
    if ctype == "steroid-hormone":
        return {**ill, "cost": {"atp": rng.randint(0, 3), "lipid": rng.randint(1, 3), "carb": 1}, "health": rng.randint(2, 9)}
    if ctype == "protein-receptor":
        return {**ill, "cost": {"atp": rng.randint(0, 1), "protein": 1, "carb": 1}, "health": rng.randint(1, 3)}
    if ctype == "steroid-receptor":
        return {**ill, "cost": {"atp": rng.randint(0, 1), "protein": 1, "lipid": 1}, "health": rng.randint(1, 3)}
    if ctype == "detox":
        return {**ill, "cost": {"atp": rng.randint(1, 3)}}
    if ctype == "enzyme":
        return {**ill, "cost": {"atp": rng.randint(0, 2), "protein": rng.randint(0, 1), "carb": rng.randint(0, 1)},
                "health": rng.randint(0, 3), "color": rng.choice("abc")}
    return {**ill, "gain": {rng.choice(["mrna", "lipid", "protein", "carb", "atp"]): rng.randint(1, 3)}}


CARD_TYPES = ["protein-hormone", "steroid-hormone", "protein-receptor", "steroid-receptor", "detox", "enzyme",
              "macromolecule"]


def random_puzzle_data(seed: int, placements: tuple[int, int] = (2, 4)) -> dict:
    """A small random puzzle (``placements`` = rounds x flasks range) covering both editions,
    both board sides, every spot, events, grey flasks, the card row, goals, opponents' disks."""
    import random
    rng = random.Random(seed)
    edition = rng.choice(["1e", "2e"])
    two = rng.random() < 0.3
    board = "2p" if (two and edition == "2e") else "3-5p"
    players = 2 if two else rng.choice([3, 4])
    while True:
        rounds, flasks = rng.randint(1, 3), rng.randint(1, 3)
        if placements[0] <= rounds * flasks <= placements[1]:
            break
    from solver.io.puzzle import load_board
    spots = [s.id for s in load_board(board).spots]
    n_cards = rng.randint(0, 4 if rounds * flasks <= 3 else 3)
    cards = [_random_card(rng, f"c{i}", rng.choice(CARD_TYPES)) for i in range(n_cards)]
    ids = [c["id"] for c in cards]
    rng.shuffle(ids)
    hand, rest = ids[: rng.randint(0, len(ids))], ids
    rest = [c for c in ids if c not in hand]
    row_n = rng.randint(0, min(len(rest), 4))
    row = rest[:row_n]
    if row and rng.random() < 0.3:
        row = [None] + row[:3]
    deck = rest[row_n:]
    event_pool = [None, "boost-nucleus", "boost-glucose", "boost-respiration", "boost-smooth-er", "reduce-atp-cost"]
    if edition == "1e":
        event_pool.append("toxicity")
    events = [rng.choice(event_pool) for _ in range(rounds)]
    occupied = {r + 1: rng.sample(spots, rng.randint(0, 4)) for r in range(rounds) if rng.random() < 0.6}
    goals = []
    if rng.random() < 0.4:
        goals = [{"id": f"g{i}", "illustrative": True, "card_types": rng.sample(CARD_TYPES[:6], 2),
                  "count": rng.randint(0, 1), "points": rng.randint(1, 5), "markers": rng.randint(0, 2)}
                 for i in range(rng.randint(1, 2))]
    opponents = {"detox": [{"amount": a, "cards": 1 if a else 0} for a in rng.sample([0, 2, 3, 4], rng.randint(0, players - 1))]}
    override = {}
    if rng.random() < 0.4:
        area = rng.choice(["smooth-er", "rough-er", "golgi"])
        override = {"vesicles": {area: rng.randint(1, 2)}}
        opponents["disks"] = [{"area": area, "health": rng.randint(0, 6), "seat": rng.randint(2, 4)}
                              for _ in range(rng.randint(0, override["vesicles"][area]))]
    if rng.random() < 0.3:
        opponents["hormones"] = {rng.randint(1, rounds): [rng.choice(["protein-hormone", "steroid-hormone"])]}
    start = {r: rng.randint(0, 4) for r in ("atp", "mrna", "protein", "carb", "lipid")}
    start["mrna"] = rng.randint(0, 2)
    start["health"] = rng.randint(0, 3)
    data = {**BASE, "id": f"random-{seed}", "edition": edition, "board": board, "players": players,
            "rounds": rounds, "flasks": flasks, "start": start, "hand": hand, "row": row, "deck": deck,
            "events": events, "occupied": occupied, "grey_flasks": rng.choice([0, 0, 1]) if rounds * flasks <= 3 else 0, "goals": goals,
            "goal_markers": rng.choice([1, 2]), "opponents": opponents, "cards": cards, "seat": 1}
    if override:
        data["board_override"] = override
    # readings of the ambiguous rules (a separate stream: the puzzles above stay as they were)
    r2 = random.Random(seed * 7 + 1)
    rulings = {"disk-card": r2.choice(["at-exocytosis", "at-er"])}
    if edition == "1e":
        rulings["grey-flask-area-limit"] = r2.choice(["counts", "exempt"])
    if edition == "2e":
        rulings["free-ribosome-zero"] = r2.choice(["at-least-one", "zero-allowed"])
        rulings["two-player-detox-tie"] = r2.choice(["amount", "after-cards"])
    data["rulings"] = rulings
    if edition == "2e" and players == 2 and board != "2p":
        data["board"] = "2p"
    return data


def random_puzzle(seed: int, placements: tuple[int, int] = (2, 4)):
    """A validated random Puzzle (see :func:`random_puzzle_data`)."""
    data = copy.deepcopy(random_puzzle_data(seed, placements))
    start = data.pop("start")
    data["start"] = {}
    return make(start=start, **{k: v for k, v in data.items() if k != "start"})
