"""Cross-check of the solver against an independent oracle written from the rulebooks alone.

``tests/oracle/`` plays the single-player game from the rulebook text (its scope and readings:
``tests/oracle/rules.py``). On seeded random small puzzles of both editions, written as YAML and
loaded by ``solver.io.puzzle``, the oracle's optimum must equal the solver's exhaustive search and,
on a subset, the CP-SAT planner's; every oracle-optimal plan must replay in the solver's engine
to the same Health.

A disagreement that disappears when the oracle takes the other reading of a rule known to be read
differently by the engine today (``Readings``: the 1st-edition Free Ribosome trading zero mRNA,
Macromolecule cards played after the turn's flask, another player's flask on a card-row slot
having bought its card, the Epigenetic deck look after the turn's flask; none today) is marked
``xfail(strict=True)`` naming that rule, so the case starts
failing (XPASS) when the engine adopts the rulebook's reading: then delete that rule's entry from
``KNOWN_READINGS`` (the classifier only tries the other reading of the rules listed there).
"""
from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from solver import Action, ActionKind, apply, initial_state, is_terminal, load_puzzle, replay, returns
from solver.game.errors import IllegalActionError
from solver.optimise.search import exhaustive
from oracle import Readings, best, load, replay as oracle_replay, supports
from oracle.puzzles import random_puzzle, write

ORACLE_DIR = Path(__file__).parent / "oracle"
PER_EDITION = 160
CASES = [(edition, seed) for edition in ("1e", "2e") for seed in range(PER_EDITION)]
CPSAT_EVERY = 8
"""Every 8th case is also solved by the CP-SAT planner (40 puzzles: the slower engine)."""

KNOWN_READINGS: dict[str, str] = {}
"""Readings field -> the rule, for rules the engine reads otherwise than the oracle: its cases are
strict xfails (delete an entry once the engine reads the rule this way). The engine reads the 1e
Free Ribosome (zero mRNA), Macromolecule cards (any time in the turn), other players' card-row
purchases and the deck look after the turn's flask (``peek_after_flask``) as the oracle does."""
READING_IN_PLAY: dict[str, Callable[[Any], bool]] = {}
"""Readings field -> whether the rule can matter to a puzzle (the others are not tried: cheaper)."""


@pytest.fixture(scope="module")
def puzzle_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("oracle-puzzles")


def engine_plan(puzzle, plan, health: int) -> list[Action]:
    """The oracle's plan as the engine takes it: Macromolecule cards the oracle plays after the
    game's last flask are played by the engine itself at the end of the last turn
    (``solver.game.engine._play_held_cards``), and so are the ATP trades of the Epigenetic card
    ``atp-exchange`` (``solver.game.engine._trade_leftover_atp``), so those trailing moves are left out.
    The oracle ends a turn silently; where the engine keeps a turn open after its flask (for the
    look at the deck, ``peek-deck``, or for Macromolecule cards before a Virus attack that strikes
    before the player's next turn or before a Phase 2 refill the discard pile decides), the turn's end (``end-turn``) goes where the oracle's plan
    reaches ``health``: before a move of the next turn, and before or after a look or a card
    played there (the oracle's plan does not say whose turn they belong to). A look after the
    game's last flask that the engine does not offer (it can change nothing) is left out. Raises
    AssertionError when no placement of the turns' ends replays to ``health``."""
    last = max((i for i, a in enumerate(plan) if a["kind"] not in ("play-card", "trade")), default=-1)
    actions = [Action.from_dict(a) for a in plan[:last + 1]]
    end_turn = Action(ActionKind.END_TURN)

    def place_ends(i: int, state) -> list[Action] | None:
        if i == len(actions):
            if state.after_flask and not state.attacks:
                rest = place_ends(i, apply(state, end_turn))
                return None if rest is None else [end_turn] + rest
            return [] if is_terminal(state) and returns(state) == health else None
        action = actions[i]
        if is_terminal(state) and action.kind is ActionKind.PEEK:
            return place_ends(i + 1, state)
        tries = [[action]]
        if state.after_flask and not state.attacks:
            tries = ([[action], [end_turn, action]] if action.kind in (ActionKind.PEEK, ActionKind.PLAY_CARD)
                     else [[end_turn, action]])
        for steps in tries:
            after = state
            try:
                for step in steps:
                    after = apply(after, step)
            except IllegalActionError:
                continue
            rest = place_ends(i + 1, after)
            if rest is not None:
                return steps + rest
        return None

    out = place_ends(0, initial_state(puzzle))
    assert out is not None, "the oracle's optimal plan replays to another Health (wherever its turns end)"
    return out


def readings_of(data: dict) -> Readings:
    """The oracle's readings matching the puzzle's rulings (the engine's default reading where the
    puzzle names none): both sides are then asked the same question."""
    rulings = data.get("rulings") or {}
    return replace(Readings(),
                   grey_then_exhaust=rulings.get("grey-then-exhaust", "allowed") == "allowed",
                   two_player_tie_cards_first=rulings.get("two-player-detox-tie", "amount") == "after-cards")


def known_reading_involved(oracle_puzzle, result, base: Readings) -> str | None:
    """The known-wrong engine readings this puzzle depends on, or None: those whose other reading
    changes the oracle's optimum, or makes its optimal plan illegal or worth another Health (the
    oracle alone decides: the solver is not consulted)."""
    plan = list(result.plan)
    while plan and plan[-1]["kind"] == "peek":   # a look after the game's last flask: worth nothing, not replayed
        plan.pop()                               # by the engine either (engine_plan)

    def differs(readings: Readings) -> bool:
        if best(oracle_puzzle, readings).health != result.health:
            return True
        return result.health is not None and oracle_replay(oracle_puzzle, plan, readings) != result.health

    known = {name: rule for name, rule in KNOWN_READINGS.items()
             if READING_IN_PLAY.get(name, lambda _: True)(oracle_puzzle)}
    if not known or not differs(replace(base, **{name: False for name in known})):
        return None
    involved = [name for name in known if differs(replace(base, **{name: False}))]
    if not involved:
        return "a combination of: " + "; ".join(known.values())
    return "; ".join(known[name] for name in involved)


# ---------------------------------------------------------------- the oracle itself

def test_oracle_imports_nothing_from_solver():
    modules = sorted(ORACLE_DIR.glob("*.py"))
    assert len(modules) >= 4
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            assert not any(n == "solver" or n.startswith("solver.") for n in names), f"{path.name} imports {names}"


def test_generator_is_deterministic_and_in_scope():
    for edition, seed in itertools.islice(CASES, 0, None, 37):
        a, b = random_puzzle(seed, edition), random_puzzle(seed, edition)
        assert a == b
        assert supports(a) is None
    assert random_puzzle(1, "1e") != random_puzzle(2, "1e")


@pytest.mark.parametrize("change, reason", [
    ({"board": "2p"}, "board side"), ({"edition": "2e", "players": 2}, "board side"),
    ({"rounds": 3, "flasks": 3}, "placements"), ({"board_override": {"row_prices": [1, 1, 1, 1]}}, "board_override"),
    ({"goals": [{"id": "g"}]}, "goal cards"), ({"events": ["toxicity"]}, "Toxicity"),
    ({"opponents": {"hormones": {1: ["protein-hormone"]}}}, "opponents"),
])
def test_supports_names_why_a_puzzle_is_out_of_scope(change, reason):
    data = {**random_puzzle(0, "1e"), **change}
    assert reason in (supports(data) or "")


def _placements(path: Path) -> int:
    import yaml
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return int(data.get("rounds", 1)) * int(data.get("flasks", 1))


PROJECT_PUZZLES = sorted((Path(__file__).parent.parent / "data" / "puzzles").glob("*.yaml"))


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=pytest.mark.slow if _placements(p) > 4 else ())
                                  for p in PROJECT_PUZZLES])
def test_oracle_agrees_with_the_expected_optimum_of_project_puzzles_in_scope(path):
    """The oracle's search over a project puzzle (of more than 4 placements: in the slow tier)."""
    import yaml
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if supports(data) or "expected" not in data:
        pytest.skip(supports(data) or "no expected optimum")
    assert best(load(data), readings_of(data)).health == data["expected"]["health"]


# ---------------------------------------------------------------- the cross-check

@pytest.mark.parametrize("edition, seed", CASES, ids=[f"{e}-{s}" for e, s in CASES])
def test_oracle_matches_solver(edition, seed, puzzle_dir, request):
    data = random_puzzle(seed, edition)
    path = write(data, puzzle_dir)
    oracle_puzzle = load(path)
    readings = readings_of(data)
    oracle = best(oracle_puzzle, readings)
    reason = known_reading_involved(oracle_puzzle, oracle, readings)
    if reason:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=f"engine reading to be fixed: {reason}"))

    _cross_check(data, path, oracle, cpsat=seed % CPSAT_EVERY == 0)


def _cross_check(data: dict, path: Path, oracle, cpsat: bool) -> None:
    """The oracle's optimum equals the exhaustive search's, its optimal plan replays in the engine to
    the same Health, and (``cpsat``) CP-SAT proves the same optimum where it models the puzzle."""
    puzzle = load_puzzle(path)
    value, _, _ = exhaustive(puzzle)
    what = f"{path.name}" + (f" ({data['epigenetic']})" if data.get("epigenetic") else "")
    assert value == oracle.health, f"{what}: oracle {oracle.health}, exhaustive search {value}"
    if oracle.health is not None:
        _, final = replay(puzzle, engine_plan(puzzle, oracle.plan, oracle.health))
        assert returns(final) == oracle.health, "the oracle's optimal plan replays to another Health"
    if cpsat:
        from solver.optimise.planner import UnsupportedPuzzle, build_model, solve_cpsat
        try:
            model = build_model(puzzle)
        except UnsupportedPuzzle:       # the solver answers these with the exhaustive search (checked above)
            return
        res = solve_cpsat(model, workers=1, seed=0)
        expected_status = "infeasible" if oracle.health is None else "optimal"
        assert res.status == expected_status, f"CP-SAT: {res.status}"
        assert res.objective == oracle.health


EPIGENETIC_CASES = 60


@pytest.mark.parametrize("seed", range(EPIGENETIC_CASES))
def test_oracle_matches_solver_with_an_epigenetic_card(seed, puzzle_dir):
    """1st-edition puzzles whose player holds one of the five Epigenetic cards the oracle plays:
    the oracle's optimum equals the exhaustive search's and, on every 4th, CP-SAT's."""
    data = random_puzzle(seed, "1e", epigenetic=True)
    path = write(data, puzzle_dir)
    _cross_check(data, path, best(load(path), readings_of(data)), cpsat=seed % 4 == 0)


def test_epigenetic_cases_cover_the_five_cards():
    cards = {random_puzzle(seed, "1e", epigenetic=True)["epigenetic"] for seed in range(EPIGENETIC_CASES)}
    assert cards == {"atp-exchange", "extra-resource", "cheap-grey-flask", "round-income", "free-card"}


VIRUS_FAST = 20
"""Seeds per edition of the Virus cross-check in the fast tier (40 puzzles)."""
VIRUS_SLOW = 150
"""Seeds per edition in the slow tier (300 puzzles)."""


def _virus_case(seed: int, edition: str, puzzle_dir: Path) -> None:
    data = random_puzzle(seed, edition, virus=True)
    assert any(e and e.startswith("virus-") for e in data["events"])
    path = write(data, puzzle_dir)
    _cross_check(data, path, best(load(path), readings_of(data)), cpsat=False)   # CP-SAT: no Virus


@pytest.mark.parametrize("edition, seed", [(e, s) for e in ("1e", "2e") for s in range(VIRUS_FAST)])
def test_oracle_matches_solver_with_virus_events(edition, seed, puzzle_dir):
    """Virus Events with fixed dice, antibodies and the First Player Marker's holder: the oracle's
    optimum equals the exhaustive search's and its plan replays in the engine to the same Health."""
    _virus_case(seed, edition, puzzle_dir)


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_oracle_matches_solver_on_many_virus_puzzles(edition, puzzle_dir):
    for seed in range(VIRUS_FAST, VIRUS_FAST + VIRUS_SLOW):
        _virus_case(seed, edition, puzzle_dir)


MARKET_FAST = 10
MARKET_SLOW = 150


def _market_case(seed: int, edition: str, puzzle_dir: Path) -> None:
    data = random_puzzle(seed, edition, market=True)
    assert data["rounds"] == 2 and len(data["deck"]) >= 4
    path = write(data, puzzle_dir)
    _cross_check(data, path, best(load(path), readings_of(data)), cpsat=seed % CPSAT_EVERY == 0)


@pytest.mark.parametrize("edition, seed", [(e, s) for e in ("1e", "2e") for s in range(MARKET_FAST)])
def test_oracle_matches_solver_on_the_card_market(edition, seed, puzzle_dir):
    """Two rounds, the row refreshed from a deck of 4 (discard, slide, refill by edition): the
    oracle's optimum equals the exhaustive search's (and CP-SAT's on every 8th)."""
    _market_case(seed, edition, puzzle_dir)


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_oracle_matches_solver_on_many_market_puzzles(edition, puzzle_dir):
    for seed in range(MARKET_FAST, MARKET_FAST + MARKET_SLOW):
        _market_case(seed, edition, puzzle_dir)


# ---------------------------------------------------------------- the oracle's readings, one puzzle each

def _spots(side: str) -> list[str]:
    import yaml
    board = Path(__file__).parent.parent / "data" / "boards" / f"{side}.yaml"
    return [s["id"] for s in yaml.safe_load(board.read_text(encoding="utf-8"))["spots"]]
MAC4 = {"id": "mac", "type": "macromolecule", "gain": {"mrna": 4}, "illustrative": True}


def _only(free: list[str], **changes) -> dict:
    """A one-round puzzle where other players take every spot but ``free``."""
    data = {**random_puzzle(0, "2e"), "board": "3-5p", "players": 3, "rounds": 1, "flasks": 1, "hand": [],
            "row": [None] * 4, "deck": [], "events": [None], "grey_flasks": 0, "opponents": {"detox": []}, "cards": [],
            "start": {"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
            "occupied": {1: [s for s in _spots(changes.get("board", "3-5p")) if s not in free]}}
    data.update(changes)
    assert supports(data) is None
    return data


@pytest.mark.parametrize("data, reading, rulebook, other", [
    # 1e: the Free Ribosome with no mRNA is a legal placement ("qualsiasi numero"); else no sequence
    (_only(["free-ribosome"], edition="1e"), "free_ribosome_zero_1e", 0, None),
    # a Macromolecule card bought with the last flask is played before the turn ends: 4 mRNA = 1 point
    (_only(["card-row-1"], row=["mac", None, None, None], cards=[MAC4]), "macromolecule_any_time", 1, 0),
    # another player on card-row-1 bought its card: a grey flask there cannot buy it
    (_only(["laureates"], row=["mac", None, None, None], cards=[MAC4], grey_flasks=1,
           start={"atp": 4, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0}),
     "row_slot_bought", 0, 1),
    # 2e, every spot taken: exhaust for 1 mRNA (4 mRNA: 1 point); a grey flask first (3 Lipids) is
    # not followed by a "normal flask placement", so the oracle refuses it; the engine allows it (2)
    (_only([], grey_flasks=1, start={"atp": 4, "mrna": 3, "protein": 0, "carb": 0, "lipid": 1, "health": 0}),
     "grey_then_exhaust", 1, 2),
    # 2e, 2 players: 2 ATP detoxified on 1 card against 2 ATP on 2 cards; the general tiebreak (more
    # cards) first: second place, 2 points (+1 for the card); the engine gives the 2-player "3 each"
    (_only(["smooth-er-detox"], board="2p", players=2, hand=["detox-2"],
           opponents={"detox": [{"amount": 2, "cards": 2}]},
           cards=[{"id": "detox-2", "type": "detox", "cost": {"atp": 2}, "illustrative": True}],
           start={"atp": 2, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0}),
     "two_player_tie_cards_first", 3, 4),
])
def test_oracle_readings_of_the_rules_the_engine_reads_otherwise(data, reading, rulebook, other):
    puzzle = load(data)
    assert best(puzzle).health == rulebook
    other_reading = replace(Readings(), **{reading: not getattr(Readings(), reading)})
    assert best(puzzle, other_reading).health == other


# ---------------------------------------------------------------- Virus Attack cards

ATTACK_FAST = 15
"""Seeds per edition of the Virus Attack card cross-check in the fast tier (30 puzzles)."""
ATTACK_SLOW = 150
"""Seeds per edition in the slow tier (300 puzzles)."""
ATTACK_EPIGENETIC_FAST, ATTACK_EPIGENETIC_SLOW = 5, 40
"""1st-edition puzzles with Virus Attack cards and an Epigenetic card (the round's income comes
before another player's purchase attacks, IT 805), fast and slow tiers."""


@functools.lru_cache(maxsize=None)
def _attack_card_puzzle(seed: int, edition: str, epigenetic: bool = False):
    """(puzzle dict, the oracle's result), generated once per test session (the fast tier's cases
    and their coverage test share them); callers must not mutate the dict."""
    data = random_puzzle(seed, edition, attack_cards=True, epigenetic=epigenetic)
    return data, best(load(data), readings_of(data))


def _attack_card_case(seed: int, edition: str, puzzle_dir: Path, epigenetic: bool = False) -> None:
    data, oracle = _attack_card_puzzle(seed, edition, epigenetic)
    assert any(c["type"] == "virus-attack" for c in data["cards"])
    path = write(data, puzzle_dir)
    _cross_check(data, path, oracle, cpsat=False)   # CP-SAT: no Virus


ATTACK_FAST_CASES = [(e, s) for e in ("1e", "2e") for s in range(ATTACK_FAST)]


@pytest.mark.parametrize("edition, seed", ATTACK_FAST_CASES)
def test_oracle_matches_solver_with_virus_attack_cards(edition, seed, puzzle_dir):
    """Virus Attack cards in the row or the deck, bought by the player (ATP before the roll, the
    ranking from the marker's holder at that moment, ATP after) or by another player (1 Health,
    the ranking, ATP after), with Virus Events and other players on Laureates in Biology: the
    oracle's optimum equals the exhaustive search's and its plan replays in the engine."""
    _attack_card_case(seed, edition, puzzle_dir)


@pytest.mark.parametrize("seed", range(ATTACK_EPIGENETIC_FAST))
def test_oracle_matches_solver_with_virus_attack_cards_and_an_epigenetic_card(seed, puzzle_dir):
    _attack_card_case(seed, "1e", puzzle_dir, epigenetic=True)


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_oracle_matches_solver_on_many_virus_attack_card_puzzles(edition, puzzle_dir):
    for seed in range(ATTACK_FAST, ATTACK_FAST + ATTACK_SLOW):
        _attack_card_case(seed, edition, puzzle_dir)


@pytest.mark.slow
def test_oracle_matches_solver_on_many_virus_attack_card_puzzles_with_an_epigenetic_card(puzzle_dir):
    for seed in range(ATTACK_EPIGENETIC_FAST, ATTACK_EPIGENETIC_FAST + ATTACK_EPIGENETIC_SLOW):
        _attack_card_case(seed, "1e", puzzle_dir, epigenetic=True)


def test_attack_card_cases_cover_every_way_an_attack_card_strikes():
    """The fast tier's puzzles hold each case at least once: the player buys the card in the
    oracle's optimal plan, another player buys it, it comes from the deck, another player takes
    the First Player Marker on Laureates in Biology."""
    seen: dict[str, int] = {"player buys": 0, "another buys": 0, "from the deck": 0, "Laureates": 0}
    for edition, seed in ATTACK_FAST_CASES:
        data, oracle = _attack_card_puzzle(seed, edition, False)
        attack_cards = {c["id"] for c in data["cards"] if c["type"] == "virus-attack"}
        plan = oracle.plan
        seen["player buys"] += any(a.get("kind") == "place" and a.get("card") in attack_cards for a in plan)
        seen["another buys"] += any(c in attack_cards and f"card-row-{i + 1}" in data["occupied"].get(1, [])
                                    for i, c in enumerate(data["row"]))
        seen["from the deck"] += any(c in attack_cards for c in data["deck"])
        seen["Laureates"] += bool(data.get("laureates_seats"))
    assert all(seen.values()), seen


def _attack(slot_taken: bool, roll: int, **changes) -> dict:
    """One round, one flask, 3 players; a Virus Attack card (influenza) in the free slot, the
    other players' Antibody Responses 3 (seat 2) and 1 (seat 3); seat 2 on Laureates in Biology
    unless the player's flask goes there."""
    card = {"id": "va", "type": "virus-attack", "strain": "influenza", "illustrative": True}
    rolls = {"va": {"roll": roll, "others": [{"seat": 2, "response": 3}, {"seat": 3, "response": 1}]}}
    free = ["laureates"] if slot_taken else ["card-row-1"]
    seats = {} if slot_taken else {"laureates_seats": {1: 2}}
    return _only(free, row=["va", None, None, None], cards=[card], virus_rolls=rolls, **seats, **changes)


@pytest.mark.parametrize("data, optimum", [
    # the player buys it for free: response 2 against 3 and 1, second place, 1 resource: 2 mRNA, 0
    # points; 1 ATP paid before the roll ("Only the player who purchased ... may pay additional ATP")
    # gives 2 antibodies, response 4, first place, 3 mRNA: 4 mRNA, 1 point
    (_attack(False, 2, start={"atp": 1, "mrna": 1, "protein": 0, "carb": 0, "lipid": 0, "health": 0}), 1),
    # another player buys it: "All other players lose 1 Health Point"; response 0 against 3 and 1,
    # last place: "lose 1 resource or 1 Health Point", the 1 mRNA held (its 0 points lost nothing)
    (_attack(True, 0, start={"atp": 0, "mrna": 1, "protein": 0, "carb": 0, "lipid": 0, "health": 3}), 2),
    # the same with nothing in stock: the Health Point is lost (3 - 1 - 1)
    (_attack(True, 0, start={"atp": 0, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 3}), 1),
])
def test_oracle_readings_of_virus_attack_cards(data, optimum, puzzle_dir):
    """Hand-derived optima of one-flask puzzles with a Virus Attack card; the engine agrees."""
    assert best(load(data)).health == optimum
    path = write(data, puzzle_dir)
    assert exhaustive(load_puzzle(path))[0] == optimum


PEEK_FAST, PEEK_SLOW = 4, 60
"""1st-edition puzzles with Virus Attack cards whose player holds ``peek-deck`` (a Virus Attack
card taken from the deck "deve essere giocata immediatamente", IT 788), fast and slow tiers."""


def _peek_case(seed: int, puzzle_dir: Path) -> str | None:
    """Cross-check one puzzle; the known engine reading it depends on (then the cross-check must
    fail: :data:`KNOWN_READINGS`), or None."""
    data = random_puzzle(seed, "1e", attack_cards=True, peek=True)
    assert data["epigenetic"] == "peek-deck"
    path = write(data, puzzle_dir)
    oracle_puzzle = load(path)
    readings = readings_of(data)
    oracle = best(oracle_puzzle, readings)
    reason = known_reading_involved(oracle_puzzle, oracle, readings)
    if reason is None:
        _cross_check(data, path, oracle, cpsat=False)
        return None
    try:
        _cross_check(data, path, oracle, cpsat=False)
    except AssertionError:
        return reason
    raise AssertionError(f"{path.name}: the engine now reads it as the oracle ({reason}): "
                         "delete its entry from KNOWN_READINGS")


@pytest.mark.parametrize("seed", range(PEEK_FAST))
def test_oracle_matches_solver_with_virus_attack_cards_and_the_deck_look(seed, puzzle_dir):
    reason = _peek_case(seed, puzzle_dir)
    if reason:
        pytest.xfail(f"engine reading to be fixed: {reason}")


@pytest.mark.slow
def test_oracle_matches_solver_on_many_virus_attack_card_puzzles_with_the_deck_look(puzzle_dir):
    """Cases depending on a known engine reading must disagree (and are counted in the message
    when any does, as an xfail)."""
    known = {seed: reason for seed in range(PEEK_FAST, PEEK_FAST + PEEK_SLOW) if (reason := _peek_case(seed, puzzle_dir))}
    if known:
        pytest.xfail(f"{len(known)} of {PEEK_SLOW} cases (seeds {sorted(known)}) depend on: "
                     + "; ".join(sorted(set(known.values()))))


def test_a_virus_attack_card_taken_by_the_deck_look_attacks_at_once(puzzle_dir):
    """1e, ``peek-deck``: 4 ATP look at the deck and take its Virus Attack card, which "deve essere
    giocata immediatamente" (IT 788): response 5 against 3 and 1, first place, 3 resources: with the
    1 mRNA held, 4 mRNA, 1 point (kept in hand, it would give nothing: 0)."""
    card = {"id": "va", "type": "virus-attack", "strain": "ebola", "illustrative": True}
    data = _only(["laureates"], edition="1e", epigenetic="peek-deck", deck=["va"], cards=[card],
                 start={"atp": 4, "mrna": 1, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
                 virus_rolls={"va": {"roll": 5, "others": [{"seat": 2, "response": 3}, {"seat": 3, "response": 1}]}})
    assert best(load(data)).health == 1
    assert exhaustive(load_puzzle(write(data, puzzle_dir)))[0] == 1


def _look_after_the_flask() -> dict:
    """1e, ``peek-deck``, 2 rounds of 1 flask, 1 ATP. Round 1: only Laureates in Biology is free (1
    ATP: 2 ATP, the price of a look); other players take card-row 1-3, so Phase 2 discards the
    4th card and refills the whole row from the deck (d4, y-mac, d5, d6). Round 2: only
    card-row-1 (free) is open. Looking after round 1's flask puts y-mac (4 mRNA) on top: bought
    free and played, 1 point. Looking is impossible before that flask (1 ATP) and, in round 2,
    comes after the refill (d4 in slot 1): 0."""
    spots = _spots("3-5p")
    cards = [{"id": "y-mac", "type": "macromolecule", "gain": {"mrna": 4}, "illustrative": True}] + [
        {"id": f"d{i}", "type": "detox", "cost": {"atp": 4}, "illustrative": True} for i in range(7)]
    return _only(["laureates"], edition="1e", epigenetic="peek-deck", rounds=2, events=[None, None],
                 row=["d0", "d1", "d2", "d3"], deck=["d4", "y-mac", "d5", "d6"], cards=cards,
                 start={"atp": 1, "mrna": 0, "protein": 0, "carb": 0, "lipid": 0, "health": 0},
                 occupied={1: [s for s in spots if s != "laureates"], 2: [s for s in spots if s != "card-row-1"]})


def test_the_deck_look_after_the_turns_flask_by_the_oracle():
    """The oracle's reading (1) and the other one (0) on the puzzle of :func:`_look_after_the_flask`."""
    puzzle = load(_look_after_the_flask())
    assert best(puzzle).health == 1
    assert best(puzzle, replace(Readings(), peek_after_flask=False)).health == 0


def test_the_deck_look_after_the_turns_flask_by_the_engine(puzzle_dir):
    assert exhaustive(load_puzzle(write(_look_after_the_flask(), puzzle_dir)))[0] == 1


def test_a_card_played_before_another_players_virus_attack_card(puzzle_dir):
    """The rules audit's puzzle macromolecule-card-before-card-attack: a card bought with round 1's
    flask and played at the end of that turn gives the mRNA the attack of the Virus Attack card
    another player buys at round 2's start takes: 2 by the oracle and by the engine; 1 if cards
    could not be played after the turn's flask (the oracle's other reading)."""
    import yaml
    path = Path(__file__).parent.parent / "data" / "audit" / "puzzles" / "macromolecule-card-before-card-attack.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    puzzle = load(data)
    assert best(puzzle).health == 2
    assert best(puzzle, replace(Readings(), macromolecule_any_time=False)).health == 1
    assert exhaustive(load_puzzle(path))[0] == 2


def test_a_card_played_before_the_reshuffle(puzzle_dir):
    """The rules audit's puzzle macromolecule-card-before-reshuffle: a card bought with round 1's
    flask and played at the end of that turn lies alone in the discard pile when Phase 2 refills
    the row, so it comes back and is bought again: 1 by the oracle and by the engine; 0 if cards
    could not be played after the turn's flask (the oracle's other reading), the engine's old one."""
    import yaml
    path = Path(__file__).parent.parent / "data" / "audit" / "puzzles" / "macromolecule-card-before-reshuffle.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    puzzle = load(data)
    assert best(puzzle).health == 1
    assert best(puzzle, replace(Readings(), macromolecule_any_time=False)).health == 0
    assert exhaustive(load_puzzle(path))[0] == 1
    # the 1st edition: no exhausted flask, so without the comeback round 2 has no legal placement
    first = {**data, "edition": "1e"}
    assert best(load(first)).health == 1
    assert exhaustive(load_puzzle(write(first, puzzle_dir)))[0] == 1


PILE_FAST, PILE_SLOW = 20, 80
"""Seeds per edition of the cross-check of a card played before the reshuffle, fast and slow tiers
(40 and 160 puzzles; the engine's optimum before it kept the turn open for the pile differs on 2
and 13 of them)."""


def _pile_puzzle(seed: int, edition: str) -> dict:
    """Two rounds, 3-4 players, 1-2 flasks, a deck shorter than the refill: one Macromolecule card
    in the row (bought, it may be played at the end of the turn and come back) or in hand, the
    discard pile's only possible card (the oracle's scope for the reshuffle); a few free spots, a
    small stock, Toxicity now and then in the 1st edition."""
    import random
    rng = random.Random(seed * 7919 + (edition == "2e"))
    spots = _spots("3-5p")
    resource = rng.choice(["atp", "mrna", "carb", "lipid", "protein"])
    macro = {"id": "mac", "type": "macromolecule", "illustrative": True, "gain": {resource: rng.randint(1, 4)}}
    in_hand = rng.random() < 0.2
    row_slot = rng.choice([0, 0, 1, 2, 3])
    row = [None] * 4
    if not in_hand:
        row[row_slot] = "mac"
    occupied = {}
    for r in (1, 2):
        # round 1: the card's slot; round 2, mostly: slot 1, where a card the pile brings back lands
        free = {f"card-row-{row_slot + 1}" if r == 1 else "card-row-1"} if r == 1 or rng.random() < 0.8 else set()
        free |= set(rng.sample([s for s in spots if not s.startswith(("card-row", "golgi", "exocytosis"))], rng.randint(1, 2)))
        occupied[r] = [s for s in spots if s not in free]
    return {"id": f"pile-{edition}-{seed}", "title": {"en": "t", "it": "t"}, "story": {"en": "t", "it": "t"},
            "edition": edition, "board": "3-5p", "players": rng.choice([3, 4]), "rounds": 2,
            "flasks": rng.choice([1, 1, 1, 2]), "grey_flasks": 0,
            "start": {"atp": rng.randint(0, 3), "mrna": rng.randint(0, 3), "protein": 0, "carb": rng.randint(0, 2),
                      "lipid": rng.randint(0, 2), "health": 0, resource: rng.randint(0, 3)},
            "hand": ["mac"] if in_hand else [], "row": row, "deck": [],
            "events": [None, "toxicity" if edition == "1e" and rng.random() < 0.4 else None],
            "occupied": occupied, "goals": [], "opponents": {"detox": []}, "cards": [macro],
            "objective": "max-health"}


def _pile_case(seed: int, edition: str, puzzle_dir: Path) -> None:
    from oracle import supports
    data = _pile_puzzle(seed, edition)
    assert supports(data) is None, supports(data)
    path = write(data, puzzle_dir)
    _cross_check(data, path, best(load(path), readings_of(data)), cpsat=True)


@pytest.mark.parametrize("edition, seed", [(e, s) for e in ("1e", "2e") for s in range(PILE_FAST)])
def test_oracle_matches_solver_on_a_card_played_before_the_reshuffle(edition, seed, puzzle_dir):
    """A Macromolecule card that the end of a round's last turn can put in the discard pile before
    an empty deck's refill: the oracle's optimum equals the exhaustive search's and CP-SAT's."""
    _pile_case(seed, edition, puzzle_dir)


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_oracle_matches_solver_on_many_cards_played_before_the_reshuffle(edition, puzzle_dir):
    for seed in range(PILE_FAST, PILE_FAST + PILE_SLOW):
        _pile_case(seed, edition, puzzle_dir)


def test_the_pile_cases_bring_the_card_back_and_keep_turns_open(puzzle_dir):
    """Not vacuous: in some of those puzzles playing the card after the turn's flask is worth a
    point (the oracle's other reading scores less), and in all of them the engine may keep a
    turn open after round 1's flask."""
    from solver.game.rules import macromolecule_cards
    gains, open_turns = 0, 0
    for edition in ("1e", "2e"):
        for seed in range(PILE_FAST):
            data = _pile_puzzle(seed, edition)
            gains += best(load(data)).health != best(load(data), replace(Readings(), macromolecule_any_time=False)).health
            open_turns += macromolecule_cards.turn_may_stay_open(load_puzzle(write(data, puzzle_dir)))
    assert gains >= 5 and open_turns == 2 * PILE_FAST, (gains, open_turns)
