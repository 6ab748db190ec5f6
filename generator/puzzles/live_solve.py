"""The live solver run in the reader's browser (issue #70): the best score reachable and the best
continuation from any position, computed in the page when no precomputed table holds it.

It runs in Pyodide, in a Web Worker (``docs/assets/live-solve.js``), beside HiGHS compiled to
WebAssembly (the ``highs`` npm package, pinned in ``tools/highs``). The model is the planner's own
(:func:`solver.optimise.planner.build_model`, pure Python over :mod:`solver.encoding.linear`: no
OR-Tools), built once a puzzle and handed to HiGHS once as arrays
(:func:`solver.optimise.arrays.to_arrays`); a position changes only column bounds
(:func:`solver.optimise.position.position_bounds`). Every plan HiGHS answers is decoded and
replayed by the rules engine from the position before it is shown
(:func:`solver.optimise.position.continuation_of`), as the command line does; a plan that does not
replay is never shown. The answers are those of ``python -m solver solve --after MOVES``
(``tests/browser/test_live_solve.py`` compares them).

Stages, cheapest first: a finished game; the recorded best plan's remaining moves, when they reach
a ceiling already proven (the value of the position before, or the optimum); the engine's own
value search within a small budget (late positions are small); then HiGHS with the recorded line
as its MIP start, within a time budget, answering past it with its best plan and bound ("not
proven"). A puzzle the planner cannot model (:func:`solver.optimise.planner.unsupported_reason`)
or a move the model has no variable for goes to the value search alone, within a larger budget,
and the answer says so; the search never claims a proof it has not finished.

HiGHS is reached through ``mip_solve`` (:data:`MipSolve`): in the browser a JavaScript function of
the worker, in the tests the same requests answered by OR-Tools' HiGHS.
"""
from __future__ import annotations

import base64
import json
import pickle
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from solver.game import engine
from solver.game.engine import Action
from solver.game.errors import SolverError
from solver.game.values import OverBudget, ValueSearch
from solver.optimise.position import (
    Position, PositionAnswer, PositionUnsupported, continuation_of, position_bounds, search_value, terminal_answer,
)

from generator.puzzles.move_words import Words, move_text   # absolute: the browser runs this module from its own path

if TYPE_CHECKING:
    from solver.game.model import Puzzle
    from solver.encoding.linear import Var
    from solver.optimise.planner import PlanModel

MipSolve = Callable[[str], str]
"""``mip_solve(request) -> result``, both JSON: the request ``{"model": key, "lower": {index:
value}, "upper": {index: value}, "start": {index: value} or null, "time_limit": seconds}`` (bounds
replacing the model's own for this solve only), the result ``{"status": "optimal" | "feasible" |
"infeasible" | "unknown", "objective", "bound", "values": [one per column]}``. The model itself is
handed over first (:meth:`LiveSolver.model_arrays`)."""

QUICK_SEARCH_STATES = 1_500
"""States the value search may value before HiGHS takes over (a late position has fewer)..."""
QUICK_SEARCH_SECONDS = 1.0
"""... and its CPU seconds (Pyodide runs the engine a few times slower than CPython)."""
FALLBACK_SEARCH_STATES = 200_000
"""States the value search may value where the planner's model cannot answer."""
TIME_BUDGET = 8.0
"""Seconds HiGHS may take on one position before it answers with its best plan and bound."""


class LiveSolver:
    """One puzzle's live analysis: its model (built on first need, kept) and the positions asked."""

    def __init__(self, puzzle: Puzzle, mip_solve: MipSolve | None, *, words: Words | None = None,
                 recorded: Iterable[Action] = (), optimum: int | None = None, key: str = "") -> None:
        self.puzzle = puzzle
        self.mip_solve = mip_solve
        self.words = words
        self.recorded = list(recorded)
        """The best plan the site records (its worked example): a MIP start and a quick continuation."""
        self.optimum = optimum
        """The proven optimum of the whole puzzle, when known (a ceiling for every position)."""
        self.key = key or puzzle.id
        self.sent = False
        """HiGHS has the model (:func:`open_puzzle` handed it over); else the first request carries it."""
        self._answers: dict[tuple[Action, ...], PositionAnswer] = {}
        """The positions answered (by their moves): a move along an answered position's best
        continuation is answered from it at once (same value, the rest of the line)."""
        self._model: PlanModel | None = None
        self._unsupported: str | None = None
        self._checked = False

    # ---- the model -------------------------------------------------------------------------
    def unsupported(self) -> str | None:
        """Why the planner cannot model this puzzle (its own words), or None."""
        if not self._checked:
            from solver.optimise.planner import unsupported_reason
            from solver.optimise.regret import planner_options
            self._unsupported = unsupported_reason(self.puzzle, planner_options())
            self._checked = True
        return self._unsupported

    def model(self) -> PlanModel:
        """The puzzle's model for positions (:func:`solver.optimise.regret.planner_options`), built once."""
        if self._model is None:
            from solver.optimise.planner import build_model
            from solver.optimise.regret import planner_options
            self._model = build_model(self.puzzle, planner_options())
        return self._model

    def model_arrays(self) -> str:
        """The model as HiGHS takes it (JSON of :func:`solver.optimise.arrays.to_arrays`; a bound
        of None is infinite)."""
        from solver.optimise.arrays import to_arrays
        return json.dumps(to_arrays(self.model().lm), separators=(",", ":"))

    # ---- answers ---------------------------------------------------------------------------
    def answer(self, moves: list[Action], ceiling: int | None = None, time_budget: float = TIME_BUDGET) -> tuple[Position, PositionAnswer]:
        """The best continuation of the position ``moves`` reach. ``ceiling``: a value proven not
        to be exceeded from there (the position before it, or the optimum), or None."""
        position = Position.after(self.puzzle, moves)
        if engine.is_terminal(position.state):
            return position, terminal_answer(position)
        t0 = time.perf_counter()
        known = self._answers.get(position.moves)
        if known is not None:
            return position, known
        parent = self._answers.get(position.moves[:-1])
        if parent is not None and parent.proven and parent.continuation[:1] == position.moves[-1:]:
            followed = PositionAnswer(parent.status, parent.health, parent.bound, parent.continuation[1:],
                                      parent.engine, 0.0, parent.reason)
            self._answers[position.moves] = followed
            return position, followed
        position, answer = self._answer(position, ceiling, time_budget, t0)
        if answer.status != "unknown":
            self._answers[position.moves] = answer
        return position, answer

    def _answer(self, position: Position, ceiling: int | None, time_budget: float,
                t0: float) -> tuple[Position, PositionAnswer]:
        """:meth:`answer`'s stages for a position not answered before."""
        if ceiling is None:
            ceiling = self.optimum
        quick = self._resumed(position, ceiling)
        if quick is not None:
            return position, PositionAnswer("optimal", ceiling, ceiling, quick, "line", time.perf_counter() - t0)
        try:
            search = ValueSearch(QUICK_SEARCH_STATES, deadline=time.process_time() + QUICK_SEARCH_SECONDS,
                                 ceiling=ceiling, prune_dominated=True)
            best = search.value(position.state)
            line = search.continuation(position.state) if best is not None else ()
            status = "optimal" if best is not None else "infeasible"
            return position, PositionAnswer(status, best, best, tuple(line), "search", time.perf_counter() - t0)
        except OverBudget:
            pass
        reason = self.unsupported()
        if reason is None and self.mip_solve is None:
            reason = "no MIP solver in this environment"
        if reason is None:
            try:
                bounds = position_bounds(self.model(), position.moves)
            except PositionUnsupported as err:
                reason = str(err)
        if reason is not None:
            left = max(0.5, time_budget - (time.perf_counter() - t0))
            answer = search_value(position, left, reason, FALLBACK_SEARCH_STATES)
            known = self._candidates(position) if answer.status == "unknown" else []
            if known:       # the search did not finish: the best known plan, not proven, no bound
                from solver.optimise.regret import final_of
                answer = PositionAnswer("feasible", final_of(position.state, known[0]), None, known[0], "search",
                                        answer.seconds, reason)
            return position, _took(answer, t0)
        return position, _took(self._highs(position, bounds, ceiling, max(0.5, time_budget - (time.perf_counter() - t0))), t0)

    def _resumed(self, position: Position, ceiling: int | None) -> tuple[Action, ...] | None:
        """The recorded plan's remaining moves from the position (each the first legal one left),
        when they reach ``ceiling``: then that is the position's proven value."""
        if ceiling is None or not self.recorded:
            return None
        from solver.optimise.regret import final_of, resume_line
        rest = list(self.recorded)
        for action in position.moves:
            if action in rest:
                rest.remove(action)
        line = resume_line(position.state, rest)
        if line is not None and final_of(position.state, line) == ceiling:
            return line
        return None

    def _candidates(self, position: Position) -> list[tuple[Action, ...]]:
        """Complete continuations known without solving, best first: the recorded plan resumed
        from the position, and the greedy policy's (:mod:`solver.optimise.greedy`) played from it."""
        from solver.optimise.greedy import greedy_key
        from solver.optimise.regret import final_of, resume_line
        found = []
        if self.recorded:
            rest = list(self.recorded)
            for action in position.moves:
                if action in rest:
                    rest.remove(action)
            line = resume_line(position.state, rest)
            if line is not None:
                found.append(line)
        state, greedy = position.state, []
        while not engine.is_terminal(state):
            legal = engine.legal_actions(state)
            if not legal:
                break
            action = min(legal, key=lambda a: greedy_key(state, a))
            greedy.append(action)
            state = engine.apply_legal(state, action)
        if engine.is_terminal(state):
            found.append(tuple(greedy))
        return sorted(found, key=lambda line: -(final_of(position.state, line) or 0))

    def _start(self, position: Position, line: tuple[Action, ...]) -> dict[int, int] | None:
        """A MIP start: ``line`` played from the position, written into the model's decision
        variables (None when it does not fit the slots)."""
        from solver.optimise.planner import hint_values
        try:
            values: dict[Var, int] = hint_values(self.model(), list(position.moves) + list(line))
        except SolverError:
            return None
        return {v.index: x for v, x in values.items()}

    def _highs(self, position: Position, bounds: dict[Var, tuple[int, int]], ceiling: int | None,
               time_limit: float) -> PositionAnswer:
        """HiGHS on the model with the position's bounds, from the best known continuation (a MIP
        start), with ``ceiling`` as a row on the objective (a proven bound: an incumbent reaching
        it ends the search at once); past ``time_limit``, its best plan and bound, or the known
        continuation when HiGHS has none."""
        assert self.mip_solve is not None, "answer() checks it first"
        from solver.optimise.planner import decode
        from solver.optimise.regret import final_of
        t0 = time.perf_counter()
        known = self._candidates(position)
        request = {"model": self.key, "lower": {str(v.index): lo for v, (lo, _hi) in bounds.items()},
                   "upper": {str(v.index): hi for v, (_lo, hi) in bounds.items()},
                   "start": self._start(position, known[0]) if known else None, "time_limit": time_limit,
                   "ceiling": ceiling}
        if not self.sent:
            request["arrays"] = json.loads(self.model_arrays())
            self.sent = True
        result = json.loads(self.mip_solve(json.dumps(request, separators=(",", ":"))))
        took = time.perf_counter() - t0
        status = result.get("status")
        if status == "infeasible":
            return PositionAnswer("infeasible", None, None, (), "highs", took)
        bound = result.get("bound")
        bound = None if bound is None else int(bound) if ceiling is None else min(int(bound), ceiling)
        if status not in ("optimal", "feasible") or result.get("objective") is None:
            if known:       # HiGHS found no plan in time: the best known one, not proven
                value = final_of(position.state, known[0])
                return PositionAnswer("feasible", value, bound, known[0], "highs", took)
            return PositionAnswer("unknown", None, bound, (), "highs", took, "no plan found within the time budget")
        objective = int(round(result["objective"]))
        plan = decode(self.model(), [int(round(x)) for x in result["values"]])
        line = continuation_of(position, plan, objective)
        if line is None:
            raise SolverError(f"highs: the plan from this position does not replay to its {objective} Health Points "
                              f"in the rules engine")
        proven = status == "optimal" or (ceiling is not None and objective >= ceiling)
        return PositionAnswer("optimal" if proven else "feasible", objective, objective if proven else bound,
                              line, "highs", took)

    # ---- the page's dict -------------------------------------------------------------------
    def said(self, position: Position, answer: PositionAnswer, time_budget: float = TIME_BUDGET) -> dict[str, Any]:
        """The answer as the page reads it (``docs/dev/puzzle-pages.md``, "Live analysis"): the
        continuation told move by move in the reader's words, each with its round and the
        engine's label (``key``)."""
        plan = []
        state = position.state
        for action in answer.continuation:
            after = engine.apply_legal(state, action)
            text = str(action) if self.words is None else move_text(state, action, self.words, after)
            plan.append({"round": state.round, "text": text, "key": str(action)})
            state = after
        return {"ok": answer.status != "unknown", "errors": [] if answer.status != "unknown" else [answer.reason],
                "status": answer.status if answer.status != "unknown" else "feasible",
                "health": answer.health, "bound": answer.bound, "proven": answer.proven, "plan": plan,
                "seconds": round(answer.seconds, 3), "engine": answer.engine, "reason": answer.reason,
                "moves": len(position.moves), "budget": time_budget}


def _took(answer: PositionAnswer, t0: float) -> PositionAnswer:
    """``answer`` with its seconds counted from ``t0`` (the stages before it included)."""
    from dataclasses import replace
    return replace(answer, seconds=time.perf_counter() - t0)


# ---- what the worker calls (JSON in, JSON out) --------------------------------------------------
_SOLVERS: dict[str, LiveSolver] = {}


def open_puzzle(key: str, packed: str, words: str, recorded: str, optimum: int | None,
                mip_solve: MipSolve | None) -> str:
    """Make the live solver of the puzzle ``packed`` (play data, :func:`.play_runtime.pack`) known
    as ``key``; ``words``: the page's :class:`Words` as JSON ({} for engine labels); ``recorded``:
    the recorded best plan (JSON list of engine labels or :meth:`Action.to_dict`). Returns the model's arrays for
    HiGHS (JSON; ``null`` when the planner cannot model the puzzle)."""
    puzzle = pickle.loads(base64.b64decode(packed))
    optimum = optimum if isinstance(optimum, int) else None     # JavaScript's null reaches Python as JsNull
    said = json.loads(words) if words else {}
    try:
        plan = _actions(puzzle, json.loads(recorded)) if recorded else []
    except SolverError:     # a record of another engine version: no start from it
        plan = []
    solver = LiveSolver(puzzle, mip_solve, words=Words.from_dict(said) if said else None, recorded=plan,
                        optimum=optimum, key=key)
    _SOLVERS[key] = solver
    if solver.unsupported():
        return "null"
    solver.sent = True
    return solver.model_arrays()


def analyse_state(key: str, moves: str, ceiling: int | None = None, time_budget: float = TIME_BUDGET) -> str:
    """The answer (JSON of :meth:`LiveSolver.said`) for the position the moves reach on the puzzle
    opened as ``key`` (:func:`open_puzzle`); ``moves``: JSON list of the engine's move labels
    (``str(action)``, what play mode records) or of :meth:`Action.to_dict`; ``ceiling``: a value
    proven not to be exceeded from the position (the one before it), or None."""
    solver = _SOLVERS[key]
    ceiling = ceiling if isinstance(ceiling, int) else None     # JavaScript's null reaches Python as JsNull
    t0 = time.perf_counter()
    try:
        actions = _actions(solver.puzzle, json.loads(moves))
        position, answer = solver.answer(actions, ceiling, time_budget)
    except SolverError as err:
        return json.dumps({"ok": False, "errors": [str(err)], "status": "infeasible", "health": None, "bound": None,
                           "proven": False, "plan": [], "seconds": round(time.perf_counter() - t0, 3)})
    return json.dumps(solver.said(position, answer, time_budget), ensure_ascii=False)


def _actions(puzzle: Puzzle, moves: list[Any]) -> list[Action]:
    """Moves by the engine's label (each matched among the legal moves where it is played) or as dicts."""
    state = engine.initial_state(puzzle)
    out = []
    for n, move in enumerate(moves, 1):
        if isinstance(move, dict):
            action = Action.from_dict(move)
        else:
            legal = [] if engine.is_terminal(state) else engine.legal_actions(state)
            found = next((a for a in legal if str(a) == move), None)
            if found is None:
                raise SolverError(f"move {n} ({move}): not a legal move in the position it is played in")
            action = found
        out.append(action)
        if engine.why_illegal(state, action) is None:
            state = engine.apply_legal(state, action)
        else:
            break       # Position.after names the illegal move
    return out


# ---- a puzzle pasted into the page (the analysis board) -----------------------------------------
PASTED = "puzzle.yaml"
"""The name a pasted puzzle is read under when it has no usable ``id`` (its errors name the file, as
the command line's do)."""


def pasted_name(text: str) -> str:
    """The file name a pasted puzzle is read under: ``<id>.yaml`` (the command line wants a puzzle's
    file named after its ``id``, so a pasted file is read as if saved so), else :data:`PASTED`."""
    import re
    from solver.io.loading import LoadError, parse_yaml
    try:
        data, _lines = parse_yaml(text)
    except LoadError:
        return PASTED
    ident = data.get("id") if isinstance(data, dict) else None
    return f"{ident}.yaml" if isinstance(ident, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,80}", ident) else PASTED


def _vocabulary(lang: str) -> dict[str, Any]:
    """The words of ``lang`` (:func:`generator.puzzles.play_data.vocabulary`): in the browser from the
    file the build ships beside this module, in CPython from the catalogue itself."""
    from pathlib import Path
    shipped = Path(__file__).resolve().parent / "cellula_vocabulary.json"
    if shipped.is_file():
        words: dict[str, Any] = json.loads(shipped.read_text(encoding="utf-8"))[lang]
        return words
    from generator.puzzles.play_data import vocabulary
    return vocabulary(lang)


def words_for(puzzle: Puzzle, lang: str) -> Words:
    """The words ``puzzle``'s moves are told in, in ``lang`` (the build's, for any puzzle)."""
    from generator.puzzles.names import names_from
    vocab = _vocabulary(lang)

    def stock_text(stock: Any) -> str:
        parts = [f"{getattr(stock, r)} {(vocab['resources'] if getattr(stock, r) == 1 else vocab['resources_plural'])[r]}"
                 for r in vocab["stock_fields"] if getattr(stock, r)]
        return ", ".join(parts) or "-"
    return Words(vocab["texts"], names_from(puzzle, vocab["names"], vocab["card_types"], stock_text))


def analyse_puzzle_text(text: str, lang: str, time_budget: float = TIME_BUDGET,
                        mip_solve: MipSolve | None = None, folder: str | None = None) -> str:
    """The answer (JSON, as :func:`analyse_state`'s) for a puzzle file in the command line's YAML
    format: read with the same checks and messages as ``python -m solver validate``
    (:func:`solver.io.puzzle.load_puzzle`, the file named ``puzzle.yaml``), then solved from its
    start, the plan told in ``lang``. ``mip_solve``: HiGHS (the model goes with the first request);
    ``folder``: where the text is written to be read (default: beside the reader's modules, so that
    errors name just ``puzzle.yaml``)."""
    import os
    from pathlib import Path
    from solver.io.puzzle import load_puzzle
    t0 = time.perf_counter()
    where = Path(folder) if folder else Path(__file__).resolve().parent
    name = pasted_name(text)
    path = where / name
    path.write_text(text, encoding="utf-8")
    here = os.getcwd()
    try:
        os.chdir(where)
        puzzle = load_puzzle(name)
    except SolverError as err:
        return json.dumps({"ok": False, "errors": [str(err)], "status": "infeasible", "health": None, "bound": None,
                           "proven": False, "plan": [], "seconds": round(time.perf_counter() - t0, 3)}, ensure_ascii=False)
    finally:
        os.chdir(here)
        path.unlink(missing_ok=True)
    solver = LiveSolver(puzzle, mip_solve, words=words_for(puzzle, lang), key=f"pasted:{puzzle.id}")
    position, answer = solver.answer([], None, time_budget)
    said = solver.said(position, answer, time_budget)
    said["seconds"] = round(time.perf_counter() - t0, 3)
    return json.dumps(said, ensure_ascii=False)
