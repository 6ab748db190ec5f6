"""A benchmark suite of deck puzzles varied the way real positions vary (issue #35, item 5).

The deck series of :mod:`.deck_family` is one family (one start, one deal, the same taken spots);
a bound that closes on it may not close on a hand-written puzzle. :func:`suite_data` deals, from a
seeded random generator, puzzles that differ in what a position can hold: the starting stock and
hand, goals and their points, receptors in the deck and other players' hormones, other players'
detox cards, the spots and card-row slots they take, both editions, 2 to 4 players and decks of 6
to 20 cards. Each shape is dealt at 16 and at 24 placements (the same deal, more rounds), and small
shapes (2 flasks, 3 rounds) that the exhaustive search solves within seconds check every bound.

The puzzles are committed as data under ``data/bench/deck/`` (``python -m solver bench --suite
--write-suite`` regenerates them; a test checks the files are what the generator deals), so a
benchmark run reads files anyone can open with ``python -m solver solve``. They are benchmark
inputs, not site puzzles: they have no records and no pages. Every card value other than the two
rulebook hormones is illustrative, as in :mod:`.deck_family`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .deck_family import DECK_CARDS, EVENTS_2E
from solver.io.puzzle import ROOT

SUITE_DIR = ROOT / "data" / "bench" / "deck"
"""Where the suite's puzzle files live (not ``data/puzzles/``: no records, no pages)."""
SUITE_SEED = 35
"""The generator's seed (the issue's number): the committed files are this seed's deal."""
SHAPES = 12
"""Shapes dealt; each one at :data:`SUITE_SIZES` placements."""
SUITE_SIZES = (16, 24)
"""Placements of the suite's puzzles (4 flasks a round)."""
SMALL_SHAPES = 12
"""Small shapes (:data:`SMALL_FLASKS` flasks x :data:`SMALL_ROUNDS` rounds) the exhaustive search solves."""
SMALL_FLASKS = 2
SMALL_ROUNDS = 2

EXTRA_CARDS: dict[str, dict[str, Any]] = {
    "steroid-receptor": {"type": "steroid-receptor", "cost": {"atp": 1, "protein": 1, "lipid": 1}, "health": 2,
                         "illustrative": True},
    "detox-3": {"type": "detox", "cost": {"atp": 3}, "illustrative": True},
}
"""Card kinds the suite adds to :data:`.deck_family.DECK_CARDS` (illustrative values)."""

FREE_SPOTS = {
    "3-5p": ("nucleus-3", "nucleus-2", "free-ribosome", "smooth-er-lipids-3", "smooth-er-lipids-2",
             "smooth-er-detox", "rough-er-1", "rough-er-2", "golgi-1", "golgi-2", "glucose-2", "glucose-1",
             "exocytosis-1", "exocytosis-2", "mitochondria-3", "mitochondria-2", "mitochondria-6", "cytoplasm",
             "laureates"),
    "2p": ("nucleus-3", "free-ribosome", "smooth-er-lipids-3", "smooth-er-detox", "rough-er-1", "golgi-1",
           "glucose-2", "exocytosis-1", "mitochondria-3", "mitochondria-6", "cytoplasm", "laureates"),
}
"""Spots other players may take (card-row slots are dealt apart: a taken slot is a purchase)."""
ROW_SPOTS = ("card-row-1", "card-row-2", "card-row-3", "card-row-4")


@dataclass(frozen=True)
class Shape:
    """What varies between the suite's puzzles; one shape gives one puzzle per size."""

    name: str
    edition: str
    players: int
    deck_cards: int
    data: dict[str, Any]
    """The puzzle file's data at the longest size; :func:`cut` shortens it."""


def _kinds() -> list[tuple[str, dict[str, Any]]]:
    return [(k.stem, k.data) for k in DECK_CARDS] + list(EXTRA_CARDS.items())


def deal_shape(rng: random.Random, n: int, rounds: int, flasks: int, tag: str) -> Shape:
    """One shape: every random choice of a puzzle, for ``rounds`` rounds of ``flasks`` flasks."""
    edition = ("1e", "2e")[n % 2]
    players = (2, 3, 3, 4)[n % 4]
    board = "2p" if players == 2 and edition == "2e" else "3-5p"
    deck_cards = rng.randint(6, 20)
    kinds = _kinds()
    copies: dict[str, int] = {}
    cards: list[dict[str, Any]] = []

    def new_card(stem: str, data: dict[str, Any]) -> str:
        copies[stem] = copies.get(stem, 0) + 1
        cid = stem if copies[stem] == 1 else f"{stem}-no{copies[stem]}"
        entry = {"id": cid, **data}
        if copies[stem] > 1 or stem not in ("protein-hormone", "steroid-hormone"):
            entry["illustrative"] = True
        cards.append(entry)
        return cid

    hand = [new_card(*rng.choice(kinds[:4] + kinds[8:9])) for _ in range(rng.choice((0, 0, 1, 2)))]
    dealt = [new_card(*rng.choice(kinds)) for _ in range(4 + deck_cards)]
    start = {"atp": rng.randint(2, 5), "mrna": rng.randint(0, 3), "carb": rng.randint(0, 2),
             "lipid": rng.randint(0, 2)}
    if rng.random() < 0.3:
        start["protein"] = rng.randint(1, 2)
    spots = FREE_SPOTS[board]
    occupied: dict[str, list[str]] = {}
    for r in range(1, rounds + 1):
        taken = rng.sample(spots, rng.randint(0, 2 if players == 2 else 3))
        if rng.random() < (0.25 if players == 2 else 0.45):     # another player buys a card
            taken.append(rng.choice(ROW_SPOTS))
        if taken:
            occupied[str(r)] = sorted(taken)
    goals = []
    if rng.random() < 0.5:
        kinds_goal = rng.choice((["protein-hormone"], ["steroid-hormone"], ["enzyme"], ["detox"],
                                 ["protein-hormone", "steroid-hormone"]))
        goals.append({"id": "suite-goal", "illustrative": True, "card_types": kinds_goal,
                      "count": rng.randint(1, 2), "points": rng.randint(3, 6),
                      "title": {"en": "Suite goal (illustrative)", "it": "Obiettivo della serie (illustrativo)"}})
    opponents: dict[str, Any] = {"detox": [{"amount": rng.randint(1, 4), "cards": rng.randint(1, 2)}
                                           for _ in range(rng.randint(0, players - 1))]}
    if rng.random() < 0.5:
        hormones = {str(r): [rng.choice(("protein-hormone", "steroid-hormone"))]
                    for r in range(1, rounds + 1) if rng.random() < 0.4}
        if hormones:
            opponents["hormones"] = hormones
    pool = EVENTS_2E + (("toxicity",) if edition == "1e" else ())    # events.toxicity: 1e only
    events = [rng.choice(pool) if rng.random() < 0.8 else None for _ in range(rounds)]
    name = f"suite-{n + 1:02d}-{edition}-{players}p-deck{deck_cards}" + tag
    data = {
        "id": name, "title": {"en": name, "it": name},
        "story": {"en": "Benchmark suite puzzle (generated, illustrative values).",
                  "it": "Rompicapo della serie di prova (generato, valori illustrativi)."},
        "edition": edition, "board": board, "players": players, "rounds": rounds, "flasks": flasks,
        "start": start, "hand": hand, "row": dealt[:4], "deck": dealt[4:], "grey_flasks": 0,
        "events": events, "occupied": occupied, "goals": goals, "opponents": opponents,
        "objective": "max-health", "cards": cards,
    }
    return Shape(name, edition, players, deck_cards, data)


def cut(shape: Shape, rounds: int, suffix: str) -> dict[str, Any]:
    """``shape``'s puzzle with its first ``rounds`` rounds (events, taken spots, hormones cut too)."""
    import copy
    data = copy.deepcopy(shape.data)
    data["id"] = data["title"]["en"] = data["title"]["it"] = f"{shape.name}-{suffix}"
    data["rounds"] = rounds
    data["events"] = data["events"][:rounds]
    data["occupied"] = {k: v for k, v in data["occupied"].items() if int(k) <= rounds}
    if "hormones" in data["opponents"]:
        hormones = {k: v for k, v in data["opponents"]["hormones"].items() if int(k) <= rounds}
        if hormones:
            data["opponents"]["hormones"] = hormones
        else:
            del data["opponents"]["hormones"]
    return data


def suite_data(seed: int = SUITE_SEED) -> dict[str, dict[str, Any]]:
    """Every suite puzzle's file data by file stem: :data:`SHAPES` shapes at each of
    :data:`SUITE_SIZES` placements, then :data:`SMALL_SHAPES` small ones (``-small``)."""
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    longest = max(SUITE_SIZES) // 4
    for n in range(SHAPES):
        shape = deal_shape(rng, n, longest, 4, "")
        for size in SUITE_SIZES:
            data = cut(shape, size // 4, f"p{size}")
            out[data["id"]] = data
    for n in range(SMALL_SHAPES):
        shape = deal_shape(rng, n, SMALL_ROUNDS, SMALL_FLASKS, "")
        data = cut(shape, SMALL_ROUNDS, "small")
        out[data["id"]] = data
    return out


def render(data: dict[str, Any]) -> str:
    """A puzzle file's text: one YAML mapping, cards one a line (JSON flow style is YAML)."""
    import json
    head = {k: v for k, v in data.items() if k != "cards"}
    lines = ["# Generated by solver/benchmarks/deck_suite.py (python -m solver bench --suite --write-suite): a benchmark",
             "# input, not a site puzzle. Card values other than the rulebook hormones are illustrative."]
    lines += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
    lines.append("cards:")
    lines += [f"  - {json.dumps(c, ensure_ascii=False)}" for c in data["cards"]]
    return "\n".join(lines) + "\n"


def write_suite(folder: Path = SUITE_DIR, seed: int = SUITE_SEED) -> list[Path]:
    """Write every suite puzzle to ``folder`` (existing suite files replaced); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("suite-*.yaml"):
        old.unlink()
    paths = []
    for stem, data in suite_data(seed).items():
        path = folder / f"{stem}.yaml"
        path.write_text(render(data), encoding="utf-8")
        paths.append(path)
    return paths


def suite_files(folder: Path = SUITE_DIR, small: bool | None = None) -> list[Path]:
    """The suite's puzzle files in name order; ``small``: only the small ones (True) or the others (False)."""
    files = sorted(folder.glob("suite-*.yaml"))
    if small is None:
        return files
    return [f for f in files if f.stem.endswith("-small") == small]
