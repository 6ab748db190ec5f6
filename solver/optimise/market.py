"""The card market at scale: a generated family of puzzles with a refilling card row (issue #15).

Every shipped puzzle of the first rounds had an empty deck, so the card row never refilled. This
module makes puzzles where it does, of any length up to a whole game (11 rounds x 4 flasks):

- :func:`deck_puzzle` builds one (edition, board side, placements); the deck order is fixed, so
  the puzzle is the same on every run;
- :data:`DECK_CARDS` is the cycle of card kinds the deck is dealt from. Only the two rulebook
  hormones carry rulebook values; every other card is marked illustrative, like the shipped ones.

The benchmark (``python -m solver bench --deck``) times each engine on this family.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.io.loading import Located
from solver.game.model import Edition, Puzzle
from solver.io.puzzle import PUZZLE_SCHEMA, _normalise_round_keys, _schema_check, _Where, puzzle_from_data

if TYPE_CHECKING:   # the engine is imported where it is used
    from solver.game.engine import Action, State

WHOLE_GAME_ROUNDS = 11
"""Rounds of a whole 2- or 3-player game (issue #15: 11 rounds x 4 flasks = 44 placements)."""


@dataclass(frozen=True)
class DeckCard:
    """One kind of card the generated deck is dealt from (values illustrative unless from the rulebook)."""

    stem: str
    """Id prefix; the n-th copy is ``<stem>-no<n>``."""
    data: dict[str, Any]
    """The puzzle file's card entry, without ``id``."""


DECK_CARDS: tuple[DeckCard, ...] = (
    DeckCard("protein-hormone", {"type": "protein-hormone", "cost": {"atp": 2, "protein": 2, "carb": 1}, "health": 7}),
    DeckCard("enzyme-red", {"type": "enzyme", "cost": {"atp": 1, "protein": 1}, "health": 1, "color": "red",
                            "illustrative": True}),
    DeckCard("macro-carb", {"type": "macromolecule", "gain": {"carb": 2}, "illustrative": True}),
    DeckCard("steroid-hormone", {"type": "steroid-hormone", "cost": {"atp": 4, "lipid": 3, "carb": 1}, "health": 9}),
    DeckCard("detox", {"type": "detox", "cost": {"atp": 2}, "illustrative": True}),
    DeckCard("protein-receptor", {"type": "protein-receptor", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2,
                                  "illustrative": True}),
    DeckCard("enzyme-blue", {"type": "enzyme", "cost": {"atp": 1, "protein": 1, "carb": 1}, "health": 2, "color": "blue",
                             "illustrative": True}),
    DeckCard("macro-lipid", {"type": "macromolecule", "gain": {"lipid": 2}, "illustrative": True}),
    DeckCard("protein-hormone-5", {"type": "protein-hormone", "cost": {"atp": 1, "protein": 2, "carb": 1}, "health": 5,
                                   "illustrative": True}),
    DeckCard("enzyme-green", {"type": "enzyme", "cost": {"atp": 1, "carb": 1}, "health": 1, "color": "green",
                              "illustrative": True}),
    DeckCard("macro-mrna", {"type": "macromolecule", "gain": {"mrna": 2}, "illustrative": True}),
    DeckCard("steroid-hormone-6", {"type": "steroid-hormone", "cost": {"atp": 2, "lipid": 2, "carb": 1}, "health": 6,
                                   "illustrative": True}),
)
"""The deck's cycle of card kinds, dealt in this order (row first, then the deck)."""

EVENTS_2E = ("boost-nucleus", "reduce-atp-cost", "boost-glucose", None, "boost-respiration", None)
"""The round events of the family, repeated (2nd-edition Cell Events; the 1st edition's event deck
has the same boosts)."""

OCCUPIED = (("nucleus-3",), ("mitochondria-3", "card-row-2"), ("glucose-2",), ("card-row-1",))
"""Spots the other players take, round r using entry (r - 1) mod 4: twice in four rounds one of
them buys from the card row, so the row moves under the player's feet."""


def deal(row_slots: int, cards_needed: int) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """(row, deck, card entries): ``cards_needed`` cards dealt from :data:`DECK_CARDS` in order, the
    first ``row_slots`` into the row. The first copy of each rulebook hormone keeps its rulebook
    values; later copies are marked illustrative (the rulebooks give two cards, not a deck)."""
    ids: list[str] = []
    entries: list[dict[str, Any]] = []
    copies: dict[str, int] = {}
    for n in range(cards_needed):
        kind = DECK_CARDS[n % len(DECK_CARDS)]
        copies[kind.stem] = copies.get(kind.stem, 0) + 1
        cid = f"{kind.stem}-no{copies[kind.stem]}"
        entry = {"id": cid, **kind.data}
        if copies[kind.stem] > 1:
            entry["illustrative"] = True
        ids.append(cid)
        entries.append(entry)
    return ids[:row_slots], ids[row_slots:], entries


def deck_size(rounds: int, players: int, row_slots: int = 4) -> int:
    """Cards enough that the row never runs dry: the row, then per round the Phase-2 discards
    (2 with two players), the other players' purchases and up to two of the player's own."""
    return row_slots + rounds * ((2 if players == 2 else 1) + 1 + 2)


def deck_puzzle(placements: int, edition: Edition = Edition.SECOND, players: int = 3, flasks: int = 4) -> Puzzle:
    """A generated puzzle of ``placements`` = rounds x ``flasks`` with a full card row and a deck
    that refills it every round. ``players``: 3, or 2 (two cards discarded a round; the 2nd
    edition's 2-player board side, the 1st edition's only side). Fewer flasks make small
    instances the exhaustive search can check."""
    data = deck_puzzle_data(placements, edition, players, flasks)
    where = _Where(f"<{data['id']}>", Located(f"<{data['id']}>"))
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


def deck_puzzle_data(placements: int, edition: Edition = Edition.SECOND, players: int = 3, flasks: int = 4) -> dict[str, Any]:
    """The puzzle file's data of :func:`deck_puzzle` (the shipped deck puzzles started from it)."""
    if not 1 <= flasks <= 4:
        raise ValueError(f"flasks: expected 1..4, got {flasks}")
    if placements % flasks or placements <= 0:
        raise ValueError(f"placements: expected a positive multiple of {flasks}, got {placements}")
    rounds = placements // flasks
    board = "2p" if players == 2 and edition is Edition.SECOND else "3-5p"
    row, deck, cards = deal(4, deck_size(rounds, players))
    tag = f"deck-{placements}-{edition.value}" + ("-2p" if players == 2 else "") + (f"-f{flasks}" if flasks != 4 else "")
    data = {
        "id": tag, "title": {"en": tag, "it": tag}, "story": {"en": "-", "it": "-"},
        "edition": edition.value, "board": board, "players": players, "rounds": rounds, "flasks": flasks,
        "start": {"atp": 3, "mrna": 2, "carb": 1, "lipid": 1}, "hand": [],
        "row": row, "deck": deck, "grey_flasks": 0,
        "events": [EVENTS_2E[r % len(EVENTS_2E)] for r in range(rounds)],
        "occupied": {str(r): list(OCCUPIED[(r - 1) % len(OCCUPIED)]) for r in range(1, rounds + 1)},
        "goals": [], "opponents": {"detox": []}, "objective": "max-health",
        "cards": cards,
    }
    _normalise_round_keys(data)
    return data


# --------------------------------------------------------------------------- warm start

STAGE_SHARE = {"hand": 0.2, "er": 0.45, "golgi": 0.7}
"""The share of a card's Health Points a beam state is credited with for a card held (``hand``),
or for its disk on the ER or the Golgi: a guess that steers the beam, never a score."""


def potential(state: State) -> float:
    """The beam's estimate of a state: its end-game score now, plus a share of each unfinished
    card's Health Points by how far its disk has gone, plus a little for the stock. Only ever used
    to choose which partial plans to keep; every plan it returns is scored by the engine."""
    from solver.game.engine import returns
    from solver.game.model import VesicleArea
    puzzle = state.puzzle
    value = float(returns(state))
    on_route = {d.card: d.area for d in state.disks if d.card}
    for c in state.hand:
        card = puzzle.card(c)
        area = on_route.get(c)
        share = STAGE_SHARE["hand"] if area is None else (
            STAGE_SHARE["golgi"] if area is VesicleArea.GOLGI else STAGE_SHARE["er"])
        value += share * max(card.health, 1)
    return value + 0.05 * sum(state.stock.as_tuple())


def beam_plan(puzzle: Puzzle, width: int = 64) -> tuple[list[Action], int]:
    """A good legal plan found quickly by a beam search through the rules engine: at each step the
    ``width`` best distinct states by :func:`potential`. Returns (plan, final Health Points); the
    best complete plan seen, ``([], -1)`` when no complete plan was found. A warm start for the
    planner (a hint), not an optimum."""
    from solver.game.engine import apply, initial_state, is_terminal, legal_actions, returns
    beam: list[tuple[State, tuple[Action, ...]]] = [(initial_state(puzzle), ())]
    best_plan: list[Action] = []
    best_value = -1
    while beam:
        children: dict[State, tuple[Action, ...]] = {}
        for state, plan in beam:
            for action in legal_actions(state):
                nxt = apply(state, action)
                if nxt in children:
                    continue
                children[nxt] = plan + (action,)
        beam = []
        scored = []
        for state, plan in children.items():
            if is_terminal(state):
                value = returns(state)
                if value > best_value:
                    best_plan, best_value = list(plan), value
            else:
                scored.append((potential(state), state, plan))
        scored.sort(key=lambda item: -item[0])
        beam = [(state, plan) for _, state, plan in scored[:width]]
    return best_plan, best_value


def lns_improve(puzzle: Puzzle, plan: list[Action], *, window: int = 2, seconds: float = 5.0, passes: int = 2,
                progress: Callable[[int, int], None] | None = None,
                budget: float | None = None) -> tuple[list[Action], int]:
    """Large-neighbourhood search with CP-SAT from ``plan``: the placements of every round outside
    a window of ``window`` consecutive rounds are fixed to the current plan's, the window is solved
    (``seconds`` at most), and the window slides over the game; up to ``passes`` passes while one
    improves; no new window once ``budget`` seconds (the whole search) have passed. Returns (plan,
    Health Points), every improvement replayed by the rules engine."""
    import time
    from solver.game.errors import SolverError
    from .planner import Options, build_model, hint_values, solve_cpsat
    from solver.solution import _final_score
    # without the symmetry breaking: it fixes one order of commuting placements, and a plan from
    # the beam search need not be in that order (fixing its rounds would make the model infeasible)
    free_order = Options(ordering=False, symmetry=False)

    best, best_value = list(plan), _final_score(puzzle, plan)
    if best_value is None:
        raise SolverError(f"{puzzle.id}: the large-neighbourhood search needs a legal, complete plan to start from")
    rounds = puzzle.rounds
    deadline = None if budget is None else time.perf_counter() + budget
    for _ in range(passes):
        improved = False
        for first in range(1, max(1, rounds - window + 1) + 1):
            if deadline is not None and time.perf_counter() >= deadline:
                return best, best_value
            pm = build_model(puzzle, free_order)
            try:
                fixed = hint_values(pm, best)
            except SolverError:
                return best, best_value
            for s in pm.slots:
                if not first <= s.round < first + window:
                    for i in range(len(pm.acts)):
                        pm.lm.eq(pm.x[s.t, i], fixed.get(pm.x[s.t, i], 0))
            res = solve_cpsat(pm, time_limit=seconds, hint=best)
            if res.plan and res.objective is not None and res.objective > best_value:
                value = _final_score(puzzle, res.plan)
                if value is not None and value > best_value:
                    best, best_value, improved = list(res.plan), value, True
                    if progress:
                        progress(best_value, first)
        if not improved:
            break
    return best, best_value


def warm_start(puzzle: Puzzle, seconds: float, width: int = 64) -> tuple[list[Action], int | None]:
    """A good plan within about ``seconds``: :func:`beam_plan`, then :func:`lns_improve` for the
    time left (one pass, each window given its share, between 1 and 10 seconds). Returns (plan,
    Health Points), ``([], None)`` when the beam found no complete plan."""
    import time
    t0 = time.perf_counter()
    plan, value = beam_plan(puzzle, width)
    if not plan:
        return [], None
    left = seconds - (time.perf_counter() - t0)
    if left > 1:
        per_window = max(1.0, min(10.0, left / max(1, puzzle.rounds)))
        plan, value = lns_improve(puzzle, plan, seconds=per_window, passes=1, budget=left)
    return plan, value
