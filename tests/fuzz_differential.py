"""The differential fuzzer: random small puzzles over every feature, each solved by the CP-SAT
planner and the exhaustive search, every plan replayed in the rules engine.

A puzzle is drawn by :func:`fuzz_puzzle_data` from a seed: both editions, 2-5 players, both board
sides, events (Boosts, Reduce ATP Cost, Toxicity, Virus Events with fixed rolls), Virus Attack
cards in the row or the deck, every modelled Epigenetic card (1st edition), a deck that refills the
row, the rulings' readings, other players' placements (Laureates in Biology and card-row purchases
included), the First Player Marker's holder, goals, opponents' disks and hormones.

:func:`disagreement` names what two engines disagree on (or None): the exhaustive optimum against
CP-SAT's (where the planner models the puzzle), and each plan's claimed value against the engine's
replay ("claims N, the rules engine scores M"). :func:`shrink` removes what it can from a failing
puzzle while it still fails, and :func:`save_counterexample` writes it as a puzzle file that
``python -m solver solve <file>`` reads, with the disagreement in a comment.
"""
from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from solver.game.engine import initial_state, is_terminal, returns
from solver.game.errors import IllegalActionError, PuzzleError, SolverError
from solver.optimise.planner import build_model, solve_cpsat, unsupported_reason
from solver.io.puzzle import load_board
from solver.optimise.search import exhaustive
from solver.game.replay import replay
from solver_fixtures import make, random_puzzle_data

STRAINS = ("ebola", "influenza", "rhinovirus")
EPIGENETIC = ("atp-exchange", "extra-resource", "cheap-grey-flask", "round-income", "free-card", "peek-deck")
"""The Epigenetic Modification cards the engine models (``early-placement`` is refused)."""
FAILURES_DIR = Path(os.environ.get("CELLULA_FUZZ_FAILURES", Path(__file__).parent / "fuzz_failures"))
"""Where shrunk counterexamples are written (``CELLULA_FUZZ_FAILURES`` to change)."""


def _roll(rng: random.Random, edition: str, players: int, seat: int) -> dict[str, Any]:
    seats = [s for s in range(1, players + 1) if s != seat]
    if edition == "1e" and players == 2:
        seats.append(0)   # the dummy player (virus.two-player-dummy)
    return {"roll": rng.randint(0, 8), "others": [{"seat": s, "response": rng.randint(0, 8)} for s in seats]}


def fuzz_puzzle_data(seed: int, placements: tuple[int, int] = (1, 3)) -> dict[str, Any]:
    """A random small puzzle (a dict in the puzzle file's shape) over every feature."""
    rng = random.Random(seed * 7919 + 17)   # a separate stream: random_puzzle_data's puzzles stay as they are
    virus_wanted = rng.random() < 0.4
    # a Virus attack multiplies the plans (ATP for antibodies, gains chosen): 1-2 placements, no grey flask
    data = copy.deepcopy(random_puzzle_data(seed, (1, 2) if virus_wanted else placements))
    edition, players, seat = data["edition"], data["players"], data["seat"]
    rounds = data["rounds"]
    spots = [s.id for s in load_board(data["board"]).spots]
    cards = data["cards"]
    # the First Player Marker and who takes it on Laureates in Biology
    if rng.random() < 0.4:
        data["first_player"] = False
        if rng.random() < 0.5 and players >= 3:
            data["marker_seat"] = rng.randint(2, players)
    for r in range(1, rounds + 1):
        if rng.random() < 0.3:
            data["occupied"].setdefault(r, [])
            if "laureates" not in data["occupied"][r]:
                data["occupied"][r].append("laureates")
            if players >= 3:
                data.setdefault("laureates_seats", {})[r] = rng.randint(2, players)
    virus = virus_wanted and (edition == "1e" or players >= 3)
    if virus:
        data["grey_flasks"] = 0
        data["start"]["atp"] = min(data["start"]["atp"], 2)   # fewer ways to pay for antibodies
        rolls: dict[str, Any] = {}
        for i in range(rounds):
            if rng.random() < 0.5:
                data["events"][i] = f"virus-{rng.choice(STRAINS)}"
                rolls[f"round-{i + 1}"] = _roll(rng, edition, players, seat)
        if rng.random() < 0.6:
            vid = "va"
            cards.append({"id": vid, "type": "virus-attack", "strain": rng.choice(STRAINS)})
            where = rng.choice(["row", "deck", "row"])
            if where == "row" and len(data["row"]) < 4:
                data["row"].insert(rng.randint(0, len(data["row"])), vid)
            else:
                data["deck"].insert(rng.randint(0, len(data["deck"])), vid)
            rolls[vid] = _roll(rng, edition, players, seat)
            if rng.random() < 0.3:   # another player buys it
                slot = data["row"].index(vid) if vid in data["row"] else None
                if slot is not None:
                    data["occupied"].setdefault(1, [])
                    if f"card-row-{slot + 1}" not in data["occupied"][1]:
                        data["occupied"][1].append(f"card-row-{slot + 1}")
        if rng.random() < 0.3:
            data["antibodies"] = {rng.choice(STRAINS): rng.randint(1, 4)}
        if rolls:
            data["virus_rolls"] = rolls
    if edition == "1e" and rng.random() < 0.45:
        card = rng.choice(EPIGENETIC)
        data["epigenetic"] = card
        if card == "extra-resource":
            data["rulings"]["extra-resource-lower-mitochondria"] = rng.choice(["excluded", "included"])
    # the rulings added after random_puzzle_data's (their other readings)
    if edition == "1e":
        data["rulings"]["removed-disk-cubes"] = rng.choice(["returned", "to-supply"])
    else:
        data["rulings"]["disk-load"] = rng.choice(["exact", "exact", "more-allowed"])
    if rng.random() < 0.3 and rounds > 1:   # a deck to refill the row
        for i in range(rng.randint(1, 3)):
            cid = f"d{i}"
            cards.append({"id": cid, "type": "macromolecule", "illustrative": True,
                          "gain": {rng.choice(["mrna", "lipid", "carb", "atp"]): rng.randint(1, 2)}})
            data["deck"].append(cid)
    if data["board"] == "2p" and "board_override" in data:
        data.pop("board_override")
        data["opponents"].pop("disks", None)
    for r, taken in data["occupied"].items():
        data["occupied"][r] = [s for s in dict.fromkeys(taken) if s in spots]
    data["id"] = f"fuzz-{seed}"
    return data


def load(data: dict[str, Any]) -> Any:
    """The validated Puzzle of ``data`` (raises :class:`PuzzleError` when the data is not a puzzle)."""
    data = copy.deepcopy(data)
    start = data.pop("start")
    return make(start=start, **data)


MAX_NODES = 2_000
"""States the exhaustive search may expand per puzzle; a larger puzzle is skipped (counted)."""


class TooLarge(Exception):
    """The exhaustive search did not finish within :data:`MAX_NODES`."""


def disagreement(puzzle: Any, cpsat: bool = True) -> str | None:
    """What the engines disagree on for ``puzzle``, or None when they agree; :class:`TooLarge`
    when the exhaustive search cannot finish it within :data:`MAX_NODES`."""
    best, plan, stats = exhaustive(puzzle, max_nodes=MAX_NODES)
    if not stats.complete:
        raise TooLarge(puzzle.id)
    if best is not None:
        try:
            _, final = replay(puzzle, list(plan))
        except IllegalActionError as exc:
            return f"exhaustive plan is illegal in the engine: {exc}"
        if not is_terminal(final) or returns(final) != best:
            return f"exhaustive claims {best}, the rules engine scores its plan {returns(final) if is_terminal(final) else 'unfinished'}"
    if not cpsat or unsupported_reason(puzzle) is not None:
        return None
    res = solve_cpsat(build_model(puzzle))
    if best is None:
        return None if res.status == "infeasible" else f"exhaustive: infeasible, cpsat: {res.status} {res.objective}"
    if res.status != "optimal" or res.objective != best:
        return f"exhaustive {best}, cpsat {res.status} {res.objective}"
    try:
        _, final = replay(puzzle, list(res.plan))
    except IllegalActionError as exc:
        return f"cpsat plan is illegal in the engine: {exc}"
    if not is_terminal(final) or returns(final) != res.objective:
        return f"cpsat claims {res.objective}, the rules engine scores its plan {returns(final) if is_terminal(final) else 'unfinished'}"
    return None


def _variants(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Smaller puzzles than ``data``: one thing removed or lowered each."""
    def variant(fn: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        d = copy.deepcopy(data)
        fn(d)
        return d

    if data["rounds"] > 1:
        def fewer_rounds(d: dict[str, Any]) -> None:
            d["rounds"] -= 1
            d["events"] = d["events"][: d["rounds"]]
            d["occupied"] = {r: v for r, v in d["occupied"].items() if int(r) <= d["rounds"]}
            if "laureates_seats" in d:
                d["laureates_seats"] = {r: v for r, v in d["laureates_seats"].items() if int(r) <= d["rounds"]}
            hormones = d["opponents"].get("hormones")
            if hormones:
                d["opponents"]["hormones"] = {r: v for r, v in hormones.items() if int(r) <= d["rounds"]}
            if "virus_rolls" in d:
                d["virus_rolls"] = {k: v for k, v in d["virus_rolls"].items()
                                    if not k.startswith("round-") or int(k[6:]) <= d["rounds"]}
        yield variant(fewer_rounds)
    if data["flasks"] > 1:
        yield variant(lambda d: d.update(flasks=d["flasks"] - 1))
    if data.get("grey_flasks"):
        yield variant(lambda d: d.update(grey_flasks=0))
    for card in [c["id"] for c in data["cards"]]:
        def drop_card(d: dict[str, Any], card: str = card) -> None:
            d["cards"] = [c for c in d["cards"] if c["id"] != card]
            d["hand"] = [c for c in d["hand"] if c != card]
            d["row"] = [c for c in d["row"] if c != card]
            d["deck"] = [c for c in d["deck"] if c != card]
            d.get("virus_rolls", {}).pop(card, None)
        yield variant(drop_card)
    for i, event in enumerate(data["events"]):
        if event is not None:
            def drop_event(d: dict[str, Any], i: int = i) -> None:
                d["events"][i] = None
                d.get("virus_rolls", {}).pop(f"round-{i + 1}", None)
            yield variant(drop_event)
    for r, taken in data["occupied"].items():
        for spot in taken:
            yield variant(lambda d, r=r, spot=spot: d["occupied"].__setitem__(r, [s for s in d["occupied"][r] if s != spot]))
    for name in ("goals",):
        if data.get(name):
            yield variant(lambda d, name=name: d.update({name: []}))
    for name in ("disks", "hormones"):
        if data["opponents"].get(name):
            yield variant(lambda d, name=name: d["opponents"].pop(name))
    if data["opponents"].get("detox"):
        yield variant(lambda d: d["opponents"].update(detox=[]))
    for name in ("epigenetic", "antibodies", "board_override", "laureates_seats", "marker_seat"):
        if data.get(name):
            yield variant(lambda d, name=name: d.pop(name))
    for resource, n in data["start"].items():
        if n:
            yield variant(lambda d, resource=resource: d["start"].update({resource: 0}))
            if n > 1:
                yield variant(lambda d, resource=resource: d["start"].update({resource: d["start"][resource] - 1}))


def shrink(data: dict[str, Any], fails: Callable[[Any], str | None], budget: int = 300) -> tuple[dict[str, Any], str]:
    """The smallest variant of ``data`` found (greedy, at most ``budget`` tries) on which ``fails``
    still names a disagreement, and that disagreement."""
    reason = fails(load(data))
    assert reason is not None, "shrink a failing puzzle"
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for smaller in _variants(data):
            tries += 1
            if tries > budget:
                break
            try:
                puzzle = load(smaller)
            except (PuzzleError, SolverError, ValueError, KeyError):
                continue
            try:
                why = fails(puzzle)
            except TooLarge:
                continue
            if why is not None:
                data, reason, progress = smaller, why, True
                break
    return data, reason


def save_counterexample(data: dict[str, Any], reason: str, directory: Path = FAILURES_DIR) -> Path:
    """Write ``data`` as a puzzle file (``python -m solver solve <file>`` reads it), the
    disagreement in its first comment lines; returns the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{data['id']}.yaml"
    body = yaml.safe_dump({k: v for k, v in data.items()}, sort_keys=False, allow_unicode=True)
    path.write_text(f"# Differential fuzzer counterexample (shrunk): {reason}\n{body}", encoding="utf-8")
    return path


def check_seed(seed: int, placements: tuple[int, int] = (1, 3), cpsat: bool = True) -> str | None:
    """None when the engines agree on the puzzle of ``seed``; else the shrunk disagreement and the
    file it was saved to."""
    data = fuzz_puzzle_data(seed, placements)
    try:
        puzzle = load(data)
    except PuzzleError as exc:   # the generator must only draw valid puzzles
        return f"seed {seed}: the generator drew an invalid puzzle: {exc}"
    reason = disagreement(puzzle, cpsat)
    if reason is None:
        return None
    small, small_reason = shrink(data, lambda p: disagreement(p, cpsat))
    path = save_counterexample(small, small_reason)
    return f"seed {seed}: {reason}; shrunk: {small_reason}; saved to {path}"


def initial_ok(puzzle: Any) -> bool:
    """The puzzle's first state builds (used by the coverage test)."""
    initial_state(puzzle)
    return True
