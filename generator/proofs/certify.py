"""A record is a certificate: every field a page shows is checked at build time against something
that does not come from the record (issue #64), in seconds rather than the minutes it took to
compute. Each failure is a :class:`RecordCheckError` naming the field.

- the worked example's plan is replayed in the rules engine: its score, every step's state and
  events, and the score breakdown shown are the replay's; the status, ``proven``, the bound and the
  gap agree with one another and with the score; the puzzle's own ``expected`` agrees;
- the greedy contrast is computed again (a few milliseconds) and must be the one recorded;
- each other reading's steps are found again move by move among the legal moves of the puzzle
  under that reading, and reach the Health shown;
- the regret values are there wherever play mode offers them: a full table is computed again and
  must be the one recorded; along a line, every line state and the start are worth the optimum,
  the line is the plan's, every best continuation one move off is replayed to the value recorded
  for it, a final state off the line is worth its score, and nothing exceeds the optimum;
- the why facts' optimum is the value, their lists fit the plan, the best departure loses what it
  says; the level is computed again from the record's facts;
- the engines named are the project's; the ``puzzle`` fields name the file's puzzle.

What no cheap check can confirm (that no plan beats the optimum, the off-line values nobody's
continuation reaches, the counts of optimal plans) is re-proved by ``make test`` whenever it
differs from the last re-proof (:mod:`.ledger`).
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.game.engine import State
    from solver.game.model import Puzzle
    from solver.solution import Solution

CONFIRMING_ENGINES = ("highs", "exhaustive")
"""The engines that may confirm a proven optimum (``solver.solve``'s ``confirm``)."""
ENGINE_VERSION_KEYS = ("cp-sat", "highs")
"""The libraries a record names in ``engines.versions`` (:func:`.record.engine_versions`)."""
READING_STATUSES = ("optimal", "feasible", "infeasible", "unknown", "unproven")
PROBE_STATUSES = ("optimal", "unplayable", "unproven")
MAX_MATCHES = 10_000
"""Moves tried while finding an other reading's steps again (a guard: a handful is typical)."""


class RecordCheckError(ValueError):
    """A record's field that what it claims does not bear out."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value, default=str))


def _expect(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise RecordCheckError(field, message)


def _int_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


# --------------------------------------------------------------------------- the solution


def check_solution(puzzle: Puzzle, puzzle_file: Path, part: Mapping[str, Any]) -> Solution:
    """The ``solution`` part: the worked example replayed, its figures consistent, the greedy
    contrast and the other readings found again. Returns the typed solution."""
    from solver import SolverError
    from solver.io.puzzle import expected_health
    from solver.solution import ENGINES, Solution
    from .solution import ENGINE, greedy_record
    _expect(part.get("puzzle") == puzzle.id, "solution.puzzle", f"names {part.get('puzzle')!r}, the file's puzzle is {puzzle.id!r}")
    _expect(part.get("requested_engine") == ENGINE, "solution.requested_engine",
            f"expected {ENGINE!r}, got {part.get('requested_engine')!r}")
    raw = part.get("solution")
    try:
        solution = Solution.from_dict(puzzle, raw)
    except SolverError as exc:
        raise RecordCheckError("solution.solution", str(exc)) from None
    assert isinstance(raw, dict)
    replayed = solution.to_dict()
    for field in ("steps", "breakdown"):
        _expect(_plain(raw.get(field)) == _plain(replayed[field]), f"solution.solution.{field}",
                "differs from the plan's replay in the rules engine")
    _expect(solution.engine in ENGINES, "solution.solution.engine", f"{solution.engine!r} is not one of {list(ENGINES)}")
    fallback = part.get("fallback")
    _expect(fallback is None or (isinstance(fallback, str) and solution.engine != ENGINE), "solution.fallback",
            f"expected null or the reason {ENGINE} could not run, got {fallback!r}")
    _expect(set(solution.confirmed_by) <= set(CONFIRMING_ENGINES), "solution.solution.confirmed_by",
            f"expected engines among {list(CONFIRMING_ENGINES)}, got {list(solution.confirmed_by)}")
    _expect(part.get("confirmed_by") == list(solution.confirmed_by), "solution.confirmed_by",
            "differs from solution.solution.confirmed_by")
    _expect(solution.proven == (solution.status == "optimal"), "solution.solution.proven",
            f"{solution.proven} with status {solution.status!r}")
    health, bound, gap = solution.health, solution.bound, raw.get("gap")
    _expect(_int_or_none(gap), "solution.solution.gap", f"expected an integer or null, got {gap!r}")
    if solution.status == "optimal":
        _expect(health is not None and bound == health and gap == 0, "solution.solution.bound",
                f"a proven optimum has its bound equal to it and no gap (health {health}, bound {bound}, gap {gap})")
    elif health is not None and bound is not None:
        _expect(bound >= health, "solution.solution.bound", f"the bound {bound} is below the plan's score {health}")
        _expect(gap == bound - health, "solution.solution.gap", f"{gap}, expected bound - health = {bound - health}")
    _expect(part.get("bound") == bound and part.get("gap") == gap, "solution.bound",
            "the bound and gap differ from solution.solution's")
    _expect(raw.get("rulings") == dict(puzzle.readings()), "solution.solution.rulings",
            f"expected the puzzle's readings {dict(puzzle.readings())}")
    expected = expected_health(puzzle_file)
    if expected is not None and solution.status == "optimal":
        _expect(health == expected, "solution.solution.health",
                f"{health}, the puzzle file's own expected.health is {expected}")
    greedy = part.get("greedy")
    _expect(_plain(greedy) == _plain(greedy_record(puzzle)), "solution.greedy",
            "differs from the greedy plan the rules engine plays today")
    check_other_readings(puzzle, part, health)
    return solution


def _find_steps(puzzle: Puzzle, steps: list[Any], field: str) -> State:
    """The state after moves whose events and rounds are ``steps``' (found among the legal moves,
    depth first); raises when none are."""
    from solver.game.engine import apply_legal, initial_state, legal_actions
    from solver.game.replay import step_events
    tried = 0

    def search(state: State, index: int) -> State | None:
        nonlocal tried
        if index == len(steps):
            return state
        wanted = steps[index]
        if not isinstance(wanted, dict) or wanted.get("round") != state.round:
            return None
        for action in legal_actions(state):
            tried += 1
            if tried > MAX_MATCHES:
                return None
            after = apply_legal(state, action)
            if _plain([e.to_dict() for e in step_events(puzzle, state, action, after)]) == wanted.get("events"):
                found = search(after, index + 1)
                if found is not None:
                    return found
        return None
    final = search(initial_state(puzzle), 0)
    if final is None:
        raise RecordCheckError(field, "no legal moves of the puzzle under this reading have these steps")
    return final


def check_other_readings(puzzle: Puzzle, part: Mapping[str, Any], health: int | None) -> None:
    """Every other reading of each ruling in play, once; its figures consistent; its steps, where
    shown, found again and reaching its Health."""
    from solver.game.engine import is_terminal, returns
    from solver.game.model import RULING_READINGS
    readings = part.get("other_readings")
    skipped = part.get("other_readings_skipped")
    _expect(isinstance(readings, list), "solution.other_readings", "expected a list")
    assert isinstance(readings, list)
    wanted = [(r.value, reading) for r in puzzle.rulings_in_play() for reading in RULING_READINGS[r]
              if reading != puzzle.reading(r)]
    if skipped:
        _expect(readings == [] and skipped is True, "solution.other_readings_skipped",
                "a skipped comparison lists no reading")
        return
    _expect(skipped is False, "solution.other_readings_skipped", f"expected true or false, got {skipped!r}")
    found = [(o.get("ruling"), o.get("reading")) if isinstance(o, dict) else None for o in readings]
    _expect(found == wanted, "solution.other_readings", f"lists {found}, the puzzle's rulings in play give {wanted}")
    for index, (other, (ruling, reading)) in enumerate(zip(readings, wanted)):
        field = f"solution.other_readings[{index}]"
        status, value, same = other.get("status"), other.get("health"), other.get("same")
        _expect(status in READING_STATUSES, f"{field}.status", f"{status!r} is not one of {list(READING_STATUSES)}")
        _expect(_int_or_none(value), f"{field}.health", f"expected an integer or null, got {value!r}")
        _expect(same is (value == health and status != "unproven"), f"{field}.same",
                f"{same!r} with Health {value} against the worked example's {health}")
        if status != "optimal":
            _expect(value is None and "steps" not in other, f"{field}.health", f"a {status} reading shows no Health")
            continue
        steps = other.get("steps")
        if value == health:
            _expect(steps is None, f"{field}.steps", "shown although the optimum does not move")
            continue
        _expect(isinstance(steps, list) and bool(steps), f"{field}.steps", "the plan where the optimum moves is missing")
        assert isinstance(steps, list)
        variant = puzzle.with_reading(next(r for r in puzzle.rulings_in_play() if r.value == ruling), reading)
        final = _find_steps(variant, steps, f"{field}.steps")
        _expect(is_terminal(final) and returns(final) == value, f"{field}.health",
                f"{value}, its steps reach {returns(final) if is_terminal(final) else 'an unfinished game'}")


# --------------------------------------------------------------------------- the regret values


def values_required(solution: Solution) -> bool:
    """Whether play mode offers the regret values: for every proven optimum with a plan."""
    return solution.status == "optimal" and solution.health is not None and bool(solution.plan)


def check_regret(puzzle: Puzzle, solution: Solution, part: Mapping[str, Any]) -> int:
    """The ``regret`` part (see the module docstring); the count of values checked."""
    values, stats = part.get("values"), part.get("stats")
    _expect(isinstance(stats, dict), "regret.stats", "expected an object")
    assert isinstance(stats, dict)
    if values is None:
        _expect(not values_required(solution), "regret.values",
                "missing: play mode measures every move against them for a proven optimum")
        _expect(stats == {}, "regret.stats", "figures of values that are not there")
        return 0
    _expect(isinstance(values, dict) and isinstance(values.get("best"), dict), "regret.values",
            "expected an object with the best values by state")
    assert isinstance(values, dict)
    kind = values.get("kind")
    _expect(stats.get("kind") == kind, "regret.stats.kind", f"{stats.get('kind')!r}, the values are of kind {kind!r}")
    if kind == "table":
        return _check_table(puzzle, solution, values, stats)
    _expect(kind == "line", "regret.values.kind", f"expected 'table' or 'line', got {kind!r}")
    _expect(values_required(solution), "regret.values", "line values need a proven optimum and its plan")
    return _check_line(puzzle, solution, values, stats)


def _check_table(puzzle: Puzzle, solution: Solution, values: Mapping[str, Any], stats: Mapping[str, Any]) -> int:
    from solver.game.engine import initial_state
    from solver.game.values import best_values, state_key
    from .regret import FULL_TABLE_STATES
    table = best_values(puzzle, FULL_TABLE_STATES)
    _expect(table is not None, "regret.values.kind",
            f"a full table, but the puzzle has more than {FULL_TABLE_STATES} reachable states")
    assert table is not None
    _expect(set(values) == {"kind", "best"}, "regret.values", "a table holds its kind and best values only")
    best = values["best"]
    wrong = sorted(k for k in set(table) | set(best) if table.get(k, "absent") != best.get(k, "absent"))
    _expect(not wrong, f"regret.values.best.{wrong[0] if wrong else ''}",
            f"{len(wrong)} of {len(table)} states differ from the values the rules engine gives "
            f"(this one: recorded {best.get(wrong[0], 'nothing') if wrong else ''}, "
            f"engine {table.get(wrong[0], 'unreachable') if wrong else ''})")
    _expect(dict(stats) == {"kind": "table", "states": len(table)}, "regret.stats", f"expected {len(table)} states")
    if solution.status == "optimal":
        root = best.get(state_key(initial_state(puzzle)))
        _expect(root == solution.health, "regret.values.best",
                f"the start is worth {root}, the optimum is {solution.health}")
    return len(table)


def _check_line(puzzle: Puzzle, solution: Solution, values: Mapping[str, Any], stats: Mapping[str, Any]) -> int:
    from solver.game.engine import apply_legal, initial_state, is_terminal, legal_actions, returns
    from solver.game.values import state_key
    optimum = solution.health
    assert optimum is not None
    plan = list(solution.plan)
    best, line, moves, continuation = values.get("best"), values.get("line"), values.get("moves"), values.get("continuation")
    _expect(isinstance(line, dict) and isinstance(continuation, dict), "regret.values",
            "a line's values hold the line and the continuations")
    assert isinstance(best, dict) and isinstance(line, dict) and isinstance(continuation, dict)
    _expect(moves == [str(a) for a in plan], "regret.values.moves", "differs from the worked example's plan")
    states = [initial_state(puzzle)]
    for action in plan:
        states.append(apply_legal(states[-1], action))
    expected_line: dict[str, int] = {}
    for index, state in enumerate(states):
        expected_line.setdefault(state_key(state), index)
    _expect(line == expected_line, "regret.values.line", "differs from the states of the worked example's replay")
    for key in line:
        _expect(best.get(key, "absent") == optimum, f"regret.values.best.{key}",
                f"step {line[key]} of the worked example is worth {best.get(key, 'nothing')}, expected the optimum {optimum}")
    off: dict[str, tuple[int, State]] = {}
    for index, state in enumerate(states):
        if not is_terminal(state):
            for action in legal_actions(state):
                child = apply_legal(state, action)
                off.setdefault(state_key(child), (index, child))
    checked = len(line)
    for key, value in best.items():
        if key in line:
            continue
        _expect(key in off, f"regret.values.best.{key}", "a state neither on the worked example nor one move off it")
        _expect(value is None or (_int_or_none(value) and value <= optimum), f"regret.values.best.{key}",
                f"{value}: no state reachable from the start is worth more than the optimum {optimum}")
        index, state = off[key]
        if key in continuation:
            moves_off = continuation[key]
            _expect(isinstance(moves_off, list) and value is not None, f"regret.values.continuation.{key}",
                    "a continuation of a state with a value")
            for text in moves_off:
                named = [a for a in legal_actions(state)
                         if str(a) == text] if not is_terminal(state) else []
                _expect(bool(named), f"regret.values.continuation.{key}",
                        f"move {text!r} is not legal there (one move off step {index})")
                state = apply_legal(state, named[0])
            reached = returns(state) if is_terminal(state) else None
            _expect(reached == value, f"regret.values.continuation.{key}",
                    f"reaches {reached if reached is not None else 'an unfinished game'}, the value recorded is {value}")
            checked += 1
        elif is_terminal(state):
            _expect(value == returns(state), f"regret.values.best.{key}", f"{value}, the final score there is {returns(state)}")
            checked += 1
    stray = sorted(set(continuation) - set(best))
    _expect(not stray, f"regret.values.continuation.{stray[0] if stray else ''}", "a continuation of a state with no value")
    _expect(stats.get("line_states") == len(states), "regret.stats.line_states", f"expected {len(states)}")
    return checked


# --------------------------------------------------------------------------- the why facts and the level


def check_why(puzzle: Puzzle, solution: Solution, why: Mapping[str, Any], greedy_health: Any) -> None:
    """The ``why`` part's figures against the solution."""
    from solver.game.model import STOCK_ORDER
    from .why import MAX_STATES
    plan = list(solution.plan)
    if why.get("unproven"):
        _expect(solution.status != "optimal", "why.unproven", "the worked example is a proven optimum")
        return
    _expect(why.get("budget") == MAX_STATES, "why.budget", f"{why.get('budget')}, the search's budget is {MAX_STATES}")
    if solution.status == "optimal":
        _expect(why.get("optimum") == solution.health, "why.optimum",
                f"{why.get('optimum')}, the worked example's proven optimum is {solution.health}")
    plans = why.get("plans")
    _expect(plans is None or (isinstance(plans, int) and not isinstance(plans, bool) and plans >= 1), "why.plans",
            f"expected a count of optimal plans or null, got {plans!r}")
    _expect(why.get("over_budget") is (plans is None), "why.over_budget", f"{why.get('over_budget')!r} with plans {plans!r}")
    for field in ("only", "branching"):
        listed = why.get(field)
        _expect(listed is None or (isinstance(listed, list) and len(listed) == len(plan)), f"why.{field}",
                f"expected one entry per step of the worked example ({len(plan)})")
    branching = why.get("branching") or []
    _expect(all(isinstance(b, int) and not isinstance(b, bool) and b >= 1 for b in branching), "why.branching",
            "expected counts of moves")
    deviation = why.get("deviation")
    if deviation is not None:
        _expect(isinstance(deviation, dict) and isinstance(deviation.get("health"), int)
                and 1 <= int(deviation.get("step", 0)) <= len(plan), "why.deviation", "expected a step of the plan and a score")
        assert isinstance(deviation, dict)
        _expect(solution.health is not None and deviation.get("loss") == solution.health - deviation["health"]
                and deviation["health"] < solution.health, "why.deviation.loss",
                f"{deviation.get('loss')}, the departure scores {deviation.get('health')} against {solution.health}")
    limits = why.get("limits")
    _expect(isinstance(limits, list), "why.limits", "expected a list")
    assert isinstance(limits, list)
    if limits:
        names = [x.get("resource") if isinstance(x, dict) else None for x in limits]
        _expect(names == [*STOCK_ORDER, "flask"], "why.limits", f"lists {names}, expected {[*STOCK_ORDER, 'flask']}")
        for index, limit in enumerate(limits):
            status, optimum = limit.get("status"), limit.get("optimum")
            _expect(status in PROBE_STATUSES and _int_or_none(optimum) and (optimum is not None) == (status == "optimal"),
                    f"why.limits[{index}]", f"status {status!r} with optimum {optimum!r}")


def check_level(solution: Solution, record: Mapping[str, Any]) -> None:
    """The level is the one the record's own facts give."""
    from .why import difficulty
    greedy = record["solution"].get("greedy") or {}
    level = dataclasses.asdict(difficulty(solution.health, greedy.get("health"), record["why"]))
    _expect(_plain(record.get("level")) == _plain(level), "level",
            f"{record.get('level')}, the record's facts give {level}")


# --------------------------------------------------------------------------- everything


def check_engines(record: Mapping[str, Any]) -> None:
    """The engines named are the project's (the budgets are compared by the record's state)."""
    engines = record.get("engines")
    _expect(isinstance(engines, dict) and isinstance(engines.get("versions"), dict), "engines",
            "expected the engines' versions and budgets")
    assert isinstance(engines, dict)
    versions = engines["versions"]
    _expect(sorted(versions) == sorted(ENGINE_VERSION_KEYS), "engines.versions",
            f"names {sorted(versions)}, the project's engines are {list(ENGINE_VERSION_KEYS)}")
    _expect(all(isinstance(v, str) and v.startswith("OR-Tools ") for v in versions.values()), "engines.versions",
            "expected OR-Tools versions")
    seconds = record.get("seconds")
    _expect(isinstance(seconds, dict) and all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
                                              for v in seconds.values()), "seconds", "expected seconds per part")


def certify(puzzle: Puzzle, puzzle_file: Path, record: Mapping[str, Any]) -> Solution:
    """Check every field of ``record`` a page shows (see the module docstring); the typed solution.
    Raises :class:`RecordCheckError` naming the first field that does not bear out."""
    _expect(record.get("puzzle") == puzzle.id, "puzzle", f"names {record.get('puzzle')!r}, the file's puzzle is {puzzle.id!r}")
    part = "engines"
    try:
        check_engines(record)
        part = "solution"
        solution = check_solution(puzzle, puzzle_file, record["solution"])
        part = "regret"
        check_regret(puzzle, solution, record["regret"])
        part = "why"
        check_why(puzzle, solution, record["why"], record["solution"].get("greedy", {}).get("health"))
        part = "level"
        check_level(solution, record)
    except RecordCheckError:
        raise
    except Exception as exc:    # noqa: BLE001 -- a field of the wrong kind deep inside: named by its part
        raise RecordCheckError(part, f"not readable as the record's {part} ({type(exc).__name__}: {exc})") from None
    return solution

