"""Seeded random small puzzles within the oracle's scope, in the project's puzzle format.

Every value is illustrative (invented for testing; the cards say ``illustrative: true``).
``random_puzzle(seed, edition)`` is deterministic: the same seed gives the same dict.

Sizes, to keep the cross-check fast: 1 round of 2-3 flasks or 2 rounds of 1-2 flasks (at most 4
placements), a grey flask only when there are 2 placements, 30% two-player games (1e on the 3-5p
side, 2e on the 2p side), 2-14 spots taken by other players per round, up to 6 cards of every
type, any event of the edition, and at most ``MAX_STATES`` positions in the oracle's search."""
from __future__ import annotations

import random
from pathlib import Path

import yaml

from .rules import EPIGENETIC_IN_SCOPE, PEEK_DECK, STRAINS, OutOfScope, _board, load, supports
from .search import TooLarge, best

BOOSTS = ("boost-nucleus", "boost-glucose", "boost-respiration", "boost-smooth-er")
COLOURS = ("red", "blue", "green", "yellow", "purple")
MAX_STATES = 1000
"""Search positions a generated puzzle may need: keeps the cross-check fast (the solver's
exhaustive search grows with the oracle's)."""


def _card(rng: random.Random, ctype: str, cid: str) -> dict:
    """One illustrative card of ``ctype`` with the printed shape of its type."""
    if ctype == "protein-hormone":
        cost = {"atp": rng.randint(0, 3), "protein": rng.randint(1, 3), "carb": 1}
        return {"id": cid, "type": ctype, "cost": cost, "health": rng.randint(3, 9)}
    if ctype == "steroid-hormone":
        cost = {"atp": rng.randint(0, 4), "lipid": rng.randint(1, 3), "carb": 1}
        return {"id": cid, "type": ctype, "cost": cost, "health": rng.randint(3, 10)}
    if ctype == "protein-receptor":
        cost = {"atp": rng.randint(0, 2), "protein": rng.randint(1, 2), "carb": 1}
        return {"id": cid, "type": ctype, "cost": cost, "health": rng.randint(1, 4)}
    if ctype == "steroid-receptor":
        cost = {"atp": rng.randint(0, 2), "protein": rng.randint(1, 2), "lipid": 1}
        return {"id": cid, "type": ctype, "cost": cost, "health": rng.randint(1, 4)}
    if ctype == "enzyme":
        cost = {"atp": rng.randint(0, 2)}
        protein, carb = rng.randint(0, 2), rng.randint(0, 1)
        if protein + carb == 0:
            protein = 1
        if protein:
            cost["protein"] = protein
        if carb:
            cost["carb"] = carb
        return {"id": cid, "type": ctype, "cost": cost, "health": rng.randint(1, 4)}
    if ctype == "detox":
        return {"id": cid, "type": ctype, "cost": {"atp": rng.randint(1, 4)}}
    gain = {}
    for res in rng.sample(["mrna", "protein", "carb", "lipid"], rng.randint(1, 2)):
        gain[res] = rng.randint(1, 3)
    return {"id": cid, "type": "macromolecule", "gain": gain}


TYPES = ("protein-hormone", "steroid-hormone", "protein-receptor", "steroid-receptor", "enzyme", "detox",
         "macromolecule")


def random_puzzle(seed: int, edition: str, max_states: int | None = MAX_STATES, epigenetic: bool = False,
                  virus: bool = False, market: bool = False, attack_cards: bool = False, peek: bool = False) -> dict:
    """A random puzzle dict within :func:`tests.oracle.rules.supports` whose oracle search visits
    at most ``max_states`` positions (None: any size), retrying with the same generator until so.
    ``epigenetic`` (1st edition): the player also holds one of the Epigenetic cards in scope, the
    card ``seed`` picks in turn (the puzzles without a card stay as they were). ``virus``: Virus
    Events with fixed dice (at least one), the player's antibodies and the First Player Marker's
    holder drawn too. ``market``: two rounds, so the row is refreshed from the deck (4 cards).
    ``attack_cards``: 1-2 Virus Attack cards in the row or the deck with their dice, sometimes
    bought by another player in round 1, Virus Events in some rounds, other players on Laureates in
    Biology (their seat given), antibodies and the marker's holder drawn too. ``peek`` (1st
    edition): the player holds ``peek-deck`` and the deck has 4 more cards (one a look may take
    per turn), so the row's refills never run out."""
    rng = random.Random(f"{edition}:{seed}" + (":epigenetic" if epigenetic else "") + (":virus" if virus else "")
                        + (":market" if market else "") + (":attack-cards" if attack_cards else "") + (":peek" if peek else ""))
    while True:
        two_players = rng.random() < 0.3
        board = "2p" if two_players and edition == "2e" else "3-5p"
        spot_ids = [s.id for s in _board(board)[0]]
        rounds = 2 if market else rng.choice((1, 2))
        flasks = rng.randint(2, 3) if rounds == 1 else rng.choice((1, 1, 2))
        greys = rng.choice((0, 1)) if rounds * flasks == 2 else 0
        n_cards = rng.randint(1, 6)
        cards, enzyme_colours = [], []
        for i in range(n_cards):
            ctype = rng.choice(TYPES)
            card = _card(rng, ctype, f"c{i}-{ctype}")
            if ctype == "enzyme":
                card["color"] = rng.choice(COLOURS[:3])
                enzyme_colours.append(card["color"])
            card["illustrative"] = True
            cards.append(card)
        ids = [c["id"] for c in cards]
        rng.shuffle(ids)
        deck_size = 4 * (rounds - 1)
        deck_extra = [f"d{i}-detox" for i in range(max(0, deck_size - 2))]
        for d in deck_extra:
            cards.append({"id": d, "type": "detox", "cost": {"atp": rng.randint(1, 4)}, "illustrative": True})
        hand = ids[: rng.randint(0, min(3, len(ids)))]
        rest = ids[len(hand):]
        row = [None] * 4
        for cid in rest[:4]:
            free = [i for i in range(4) if row[i] is None]
            row[rng.choice(free)] = cid
        leftovers = rest[4:] + deck_extra
        rng.shuffle(leftovers)
        deck = leftovers
        while len(deck) < deck_size:
            extra = f"x{len(deck)}-macromolecule"
            cards.append({**_card(rng, "macromolecule", extra), "illustrative": True})
            deck.append(extra)
        events = []
        for r in range(rounds):
            pool = [None, None, "reduce-atp-cost", *BOOSTS]
            if edition == "1e" and r > 0:
                pool.append("toxicity")
            events.append(rng.choice(pool))
        occupied = {}
        for r in range(1, rounds + 1):
            taken = sorted(rng.sample(spot_ids, rng.randint(2, 8) if two_players else rng.randint(4, 14)))
            if taken:
                occupied[r] = taken
        data = {
            "id": f"oracle-{edition}-{seed}",
            "title": {"en": f"Oracle random puzzle {seed}", "it": f"Rompicapo casuale dell'oracolo {seed}"},
            "story": {"en": "Generated for the oracle cross-check; every value is illustrative.",
                      "it": "Generato per il confronto con l'oracolo; ogni valore è illustrativo."},
            "edition": edition, "board": board, "players": 2 if two_players else rng.choice((3, 3, 4, 5)),
            "rounds": rounds, "flasks": flasks,
            "start": {"atp": rng.randint(0, 6), "mrna": rng.randint(0, 4), "protein": rng.randint(0, 2),
                      "carb": rng.randint(0, 2), "lipid": rng.randint(0, 3), "health": rng.randint(0, 2)},
            "hand": sorted(hand), "row": row, "deck": deck, "events": events, "occupied": occupied,
            "grey_flasks": greys, "goals": [],
            "opponents": {"detox": [{"amount": rng.randint(1, 6), "cards": rng.randint(1, 2)}
                                    for _ in range(rng.choice((0, 1) if two_players else (0, 0, 1, 2)))]},
            "cards": cards, "objective": "max-health",
        }
        if epigenetic:
            data["epigenetic"] = EPIGENETIC_IN_SCOPE[seed % len(EPIGENETIC_IN_SCOPE)]
            if data["epigenetic"] == "cheap-grey-flask":    # a grey flask within reach at 3 ATP, not at 4
                data["grey_flasks"], data["start"]["atp"] = 1, 3
            data["id"] = f"oracle-{edition}-epigenetic-{seed}"
        if peek:
            data["epigenetic"] = PEEK_DECK
            for i in range(4):
                cards.append({"id": f"p{i}-detox", "type": "detox", "cost": {"atp": rng.randint(1, 3)},
                              "illustrative": True})
                deck.insert(rng.randint(0, len(deck)), f"p{i}-detox")
            data["id"] = f"oracle-{edition}-peek-{seed}"
        if virus or attack_cards:
            _add_virus(rng, data, spot_ids, event_in_round_1=not attack_cards)
        if attack_cards:
            _add_attack_cards(rng, data)
        if supports(data) is None and (max_states is None or _small(data, max_states)):
            return data


def _add_virus(rng: random.Random, data: dict, spot_ids: list[str], event_in_round_1: bool = True) -> None:
    """Virus Events in some rounds (round 1 at least when ``event_in_round_1``), their dice,
    antibodies, the marker's holder; 2nd edition: 3-5 players; no other player on Laureates in
    Biology (:func:`_add_attack_cards` adds some, with their seats)."""
    if data["edition"] == "2e" and data["players"] == 2:
        data["players"], data["board"] = 3, "3-5p"
        data["occupied"] = {r: [s for s in v if s in {sp.id for sp in _board("3-5p")[0]}]
                            for r, v in data["occupied"].items()}
    players = data["players"]
    data["start"]["atp"] = min(data["start"]["atp"], 3)   # fewer ways to pay for antibodies
    data["grey_flasks"] = 0
    rolls = {}
    for r in range(data["rounds"]):
        if (r == 0 and event_in_round_1) or rng.random() < (0.5 if event_in_round_1 else 0.3):
            data["events"][r] = f"virus-{rng.choice(STRAINS)}"
            rolls[f"round-{r + 1}"] = _roll(rng, players)
    data["virus_rolls"] = rolls
    data["occupied"] = {r: [s for s in v if s != "laureates"] for r, v in data["occupied"].items()}
    if rng.random() < 0.4:
        data["antibodies"] = {rng.choice(STRAINS): rng.randint(1, 4)}
    if rng.random() < 0.5:
        data["first_player"] = False
        if players >= 3 and rng.random() < 0.5:
            data["marker_seat"] = rng.randint(2, players)
    data["id"] = data["id"] + "-virus"


def _roll(rng: random.Random, players: int) -> dict:
    """The fixed dice of one attack: the player's roll and every other seat's Antibody Response
    (seat 0: the 1st edition's dummy at two players)."""
    seats = [s for s in range(2, players + 1)] + ([0] if players == 2 else [])
    return {"roll": rng.randint(0, 8), "others": [{"seat": s, "response": rng.randint(0, 8)} for s in seats]}


def _add_attack_cards(rng: random.Random, data: dict) -> None:
    """1-2 Virus Attack cards (after :func:`_add_virus`), each in a row slot (empty, or replacing
    the card there) or in the deck, with its dice; sometimes another player's round-1 flask on the
    slot of one (it buys it), and other players on Laureates in Biology with their seats."""
    rolls = data["virus_rolls"]
    rounds, players = data["rounds"], data["players"]
    for i in range(rng.choice((1, 1, 2))):
        strain = rng.choice(STRAINS)
        vid = f"va{i}-{strain}"
        data["cards"].append({"id": vid, "type": "virus-attack", "strain": strain, "illustrative": True})
        rolls[vid] = _roll(rng, players)
        if (rounds > 1 or data.get("epigenetic") == PEEK_DECK) and rng.random() < 0.35:
            data["deck"].insert(rng.randint(0, min(3, len(data["deck"]))), vid)
            continue
        slot = 0 if rng.random() < 0.5 else rng.randrange(4)    # the free slot: often worth buying
        gone = data["row"][slot]
        data["row"][slot] = vid
        if gone is not None and not gone.startswith("va"):
            data["cards"] = [c for c in data["cards"] if c["id"] != gone]
    in_row = [i for i, c in enumerate(data["row"]) if c and c.startswith("va")]
    occupied = data["occupied"]
    if in_row and rng.random() < 0.3:
        spot = f"card-row-{rng.choice(in_row) + 1}"
        occupied[1] = sorted(set(occupied.get(1, [])) | {spot})
    for r in range(1, rounds + 1):
        if rng.random() < 0.25:
            occupied[r] = sorted(set(occupied.get(r, [])) | {"laureates"})
            if players > 2:
                data.setdefault("laureates_seats", {})[r] = rng.randint(2, players)
    data["id"] = data["id"].replace("-virus", "-attack-cards")


def _small(data: dict, max_states: int) -> bool:
    try:
        best(load(data), max_states=max_states)
    except (TooLarge, OutOfScope):     # OutOfScope: a position the rules leave open (rules._begin_round)
        return False
    return True


def write(data: dict, directory: Path) -> Path:
    """Write ``data`` as ``<directory>/<id>.yaml`` (flow style for short lists, like data/puzzles)."""
    path = Path(directory) / f"{data['id']}.yaml"
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    path.write_text(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return path
