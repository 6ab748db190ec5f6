"""Positions for the live solver's checks (issue #70): random walks off the best line of the shipped
puzzles and composed positions, each answered in the page (docs/assets/live-solve.js, headless
Chromium) and by ``python -m solver solve --after MOVES`` on the same position, then compared.

Used by ``tests/browser/test_live_solve.py`` (a fast sample, and every position in the slow tier)
and by ``tools/live_solve_bench.py`` (the answer times per puzzle, ``data/figures/live-solve.json``).
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "data" / "puzzles"
PER_PUZZLE = 6
"""Positions of each shipped puzzle in the whole comparison (fewer where a puzzle has fewer)."""
BUDGET = 10.0
"""Seconds the page's solver may take on one position (the issue's worst case)."""


@dataclass(frozen=True)
class LivePosition:
    """A puzzle and the moves (engine labels) that reach the position."""

    puzzle: str
    moves: tuple[str, ...]
    kind: str
    """``off-line`` (the best line, then one move off it and a few random ones) or ``composed``
    (random moves from the start, plays and trades included)."""


def recorded_plan(puzzle_id: str) -> list[dict[str, Any]]:
    record = json.loads((PUZZLES / f"{puzzle_id}.record.json").read_text(encoding="utf-8"))
    plan: list[dict[str, Any]] = record["solution"]["solution"].get("plan", [])
    return plan


def shipped() -> list[str]:
    """The shipped puzzles with a worked example (those play mode offers), by id."""
    return sorted(p.stem for p in PUZZLES.glob("*.yaml") if recorded_plan(p.stem))


def positions(puzzle_ids: list[str], per_puzzle: int, seed: int = 70) -> list[LivePosition]:
    """``per_puzzle`` distinct unfinished positions of each puzzle: about two thirds off the best
    line, the rest composed; reproducible from ``seed``."""
    from solver import load_puzzle
    from solver.game.engine import Action, apply_legal, initial_state, is_terminal, legal_actions
    rng = random.Random(seed)
    out: list[LivePosition] = []
    for pid in puzzle_ids:
        puzzle = load_puzzle(PUZZLES / f"{pid}.yaml")
        line = [Action.from_dict(a) for a in recorded_plan(pid)]
        seen: set[tuple[str, ...]] = set()
        tries = 0
        while len([p for p in out if p.puzzle == pid]) < per_puzzle and tries < 40 * per_puzzle:
            tries += 1
            composed = len(seen) % 3 == 2
            state, moves = initial_state(puzzle), []
            if not composed:
                k = rng.randrange(len(line))
                for action in line[:k]:
                    state = apply_legal(state, action)
                    moves.append(action)
                off = [a for a in legal_actions(state) if a != line[k]] if not is_terminal(state) else []
                if not off:
                    continue
                action = rng.choice(off)
                state = apply_legal(state, action)
                moves.append(action)
            for _ in range(rng.randint(0, 2) if not composed else rng.randint(1, 10)):
                legal = [] if is_terminal(state) else legal_actions(state)
                if not legal:       # over, or a dead end (a position too: no sequence finishes it)
                    break
                action = rng.choice(legal)
                state = apply_legal(state, action)
                moves.append(action)
            key = tuple(str(a) for a in moves)
            if is_terminal(state) or key in seen:
                continue
            seen.add(key)
            out.append(LivePosition(pid, key, "composed" if composed else "off-line"))
    return out


def cli_answer(position: LivePosition, time_limit: float = 120.0) -> dict[str, Any]:
    """``python -m solver solve PUZZLE --after MOVES --json`` on the position (the command's own
    entry point, in this process): status, health, bound, proven, the continuation."""
    from solver import load_puzzle
    from solver.cli import main
    from solver.game.engine import apply_legal, initial_state, legal_actions
    puzzle = load_puzzle(PUZZLES / f"{position.puzzle}.yaml")
    state, plan = initial_state(puzzle), []
    for label in position.moves:
        action = next(a for a in legal_actions(state) if str(a) == label)
        plan.append(action.to_dict())
        state = apply_legal(state, action)
    with tempfile.TemporaryDirectory() as folder:
        moves = Path(folder) / "moves.json"
        moves.write_text(json.dumps(plan), encoding="utf-8")
        out = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(out):
            code = main(["solve", str(PUZZLES / f"{position.puzzle}.yaml"), "--after", str(moves), "--json",
                         "--time-limit", str(time_limit)])
        answer: dict[str, Any] = json.loads(out.getvalue())
        answer["exit"] = code
        answer["cli_seconds"] = time.perf_counter() - t0
        return answer


LOAD_PLAY = """async ([puzzle, url]) => {
  if (!(window.CELLULA_PLAY_DATA || {})[puzzle]) {
    await new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url; s.onload = resolve; s.onerror = () => reject(new Error(url));
      document.head.appendChild(s);
    });
  }
  return true;
}"""

ASK = """async ([puzzle, moves, options]) => {
  const t0 = performance.now();
  const answer = await window.CellulaAnalysis.analyseState(puzzle, moves, options);
  answer.page_ms = performance.now() - t0;
  return answer;
}"""


@dataclass
class PageSolver:
    """The live solver of one page (a Playwright page of the served site), warmed once."""

    page: Any
    base: str
    warm_seconds: float = 0.0
    opened: set[str] = field(default_factory=set)

    def warm(self) -> float:
        self.page.goto(self.base + "en/cytosis/puzzles/market-day-2e/")
        self.page.wait_for_function("window.CellulaAnalysis")
        t0 = time.perf_counter()
        self.page.evaluate("() => window.CellulaAnalysis.warm()")
        self.warm_seconds = time.perf_counter() - t0
        return self.warm_seconds

    def answer(self, position: LivePosition) -> dict[str, Any]:
        self.page.evaluate(LOAD_PLAY, [position.puzzle, f"{self.base}generated/play/{position.puzzle}.js"])
        record = json.loads((PUZZLES / f"{position.puzzle}.record.json").read_text(encoding="utf-8"))
        from solver import load_puzzle
        from solver.game.engine import Action, apply_legal, initial_state
        puzzle = load_puzzle(PUZZLES / f"{position.puzzle}.yaml")
        state, labels = initial_state(puzzle), []
        for a in recorded_plan(position.puzzle):
            action = Action.from_dict(a)
            labels.append(str(action))
            state = apply_legal(state, action)
        solution = record["solution"]["solution"]
        proven = solution.get("status") == "optimal"
        options = {"lang": "en", "recorded": labels, "budget": BUDGET,
                   "optimum": solution.get("health") if proven else None}
        first = position.puzzle not in self.opened
        self.opened.add(position.puzzle)
        answer: dict[str, Any] = self.page.evaluate(ASK, [position.puzzle, list(position.moves), options])
        answer["first"] = first
        return answer


def replays_to(position: LivePosition, answer: dict[str, Any]) -> bool:
    """Whether the page's continuation (engine labels), played after the moves by the rules engine
    in this process, finishes the game with the page's Health."""
    from solver import load_puzzle
    from solver.game.engine import apply_legal, initial_state, is_terminal, legal_actions, returns
    puzzle = load_puzzle(PUZZLES / f"{position.puzzle}.yaml")
    state = initial_state(puzzle)
    for label in list(position.moves) + [m["key"] for m in answer["plan"]]:
        if is_terminal(state):
            return False
        action = next((a for a in legal_actions(state) if str(a) == label), None)
        if action is None:
            return False
        state = apply_legal(state, action)
    return is_terminal(state) and returns(state) == answer["health"]


def agreement(position: LivePosition, page: dict[str, Any], cli: dict[str, Any]) -> str | None:
    """Why the page's answer and the command line's disagree, or None when they agree: both
    proven with the same value (or both a proven dead end); an answer the page does not prove must
    lie within what the command line proves (its plan no better than the optimum, its bound no
    lower); the page's plan must replay in the engine to its value."""
    if not page.get("ok"):
        return f"page: no answer ({page.get('errors')})"
    if page["status"] != "infeasible" and not replays_to(position, page):
        return f"page: its continuation does not replay to {page['health']}"
    if cli["status"] == "infeasible" or page["status"] == "infeasible":
        return None if cli["status"] == page["status"] else f"status: page {page['status']}, cli {cli['status']}"
    if page["proven"] and cli["proven"]:
        return None if page["health"] == cli["health"] else f"health: page {page['health']}, cli {cli['health']}"
    if cli["proven"]:
        if page["health"] > cli["health"] or (page.get("bound") is not None and page["bound"] < cli["health"]):
            return f"not proven in the page: {page['health']} (bound {page.get('bound')}) against the proven {cli['health']}"
        return None
    return f"not proven by the command line ({cli['status']}): nothing to compare"
