"""Why a worked example is optimal, in words, and the difficulty grade (issue #19, items 3-4).

At build time, through the engine's memoised value search (:mod:`solver.explain`) under a state
budget (:data:`MAX_STATES`): the number of optimal plans, the "only move" steps of the worked
example, the branching along it, the best plan whose first departure from it already loses, and
which starting resource limits the score (the optimum with one more of each). Cached like the
solutions (``.cache/why``, keyed by the puzzle file, its board and card data and the solver's
source). Past the budget the record says so and the page says "not counted", never a guess.

The grade (:func:`difficulty`) is computed from these facts and the greedy contrast; its formula
is printed on the puzzle index in every language (``puzzles.grade_formula``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from . import i18n, solution_cache
from .step_texts import step_text

MAX_STATES = 50_000
"""State budget of each value search (about 5-10 s of engine time when exhausted)."""
PLAN_CAP = 1000
"""Optimal plans are counted up to this many ("at least" beyond)."""
WHY_FORMAT = "why-2"
WHY_DIR = Path(__file__).resolve().parents[1] / ".cache" / "why"
STOCK_FIELDS = ("atp", "mrna", "protein", "carb", "lipid")
UI = i18n.namespace("puzzles")


# --------------------------------------------------------------------------- facts (cached)


def _more_of(puzzle, field: str):
    import dataclasses
    start = dataclasses.replace(puzzle.start, **{field: getattr(puzzle.start, field) + 1})
    return dataclasses.replace(puzzle, start=start)


def compute_why(puzzle, plan: list[dict]) -> dict:
    """Everything the "why it is optimal" section and the grade need (JSON-ready)."""
    from solver import replay
    from solver.engine import Action
    from solver.explain import line_facts, optimal_plans
    counted = optimal_plans(puzzle, MAX_STATES, PLAN_CAP)
    record: dict = {"budget": MAX_STATES, "optimum": counted.best, "plans": counted.count,
                    "capped": counted.capped, "states": counted.states, "over_budget": counted.count is None}
    actions = [Action.from_dict(a) for a in plan]
    facts = line_facts(puzzle, actions, MAX_STATES) if actions and counted.count is not None else None
    record["only"] = list(facts.only) if facts else None
    record["branching"] = list(facts.branching) if facts else None
    record["deviation"] = None
    if facts and facts.deviation:
        steps, _ = replay(puzzle, list(facts.deviation.plan))
        record["deviation"] = {"step": facts.deviation.step, "health": facts.deviation.health,
                               "loss": facts.deviation.loss,
                               "events": [[e.to_dict() for e in s.events] for s in steps[facts.deviation.step - 1:]]}
    limits = []
    if counted.best is not None:
        for field in STOCK_FIELDS:
            more = optimal_plans(_more_of(puzzle, field), MAX_STATES, 1)
            limits.append({"resource": field, "optimum": more.best})
    record["limits"] = limits
    return record


def why_cached(puzzle, file: Path, plan: list[dict], cache_dir: Path | None = None) -> dict:
    """The puzzle's why-record from the cache, or computed and stored."""
    from solver.puzzle import RULEBOOK_CARDS, board_path
    key = solution_cache.cache_key(file, WHY_FORMAT, (board_path(puzzle.board.id), RULEBOOK_CARDS))
    return solution_cache.cached(key, lambda: compute_why(puzzle, plan), cache_dir or WHY_DIR).record


# --------------------------------------------------------------------------- grade


@dataclass(frozen=True)
class Difficulty:
    """The computed grade and the figures behind it."""

    grade: int
    """1 (easiest) to 5."""
    gap: int | None
    """Optimum minus the greedy score (None without an optimum)."""
    plans: int | None
    """Optimal plans (None: not counted within the budget)."""
    branching: float | None
    """Mean legal actions per step along the worked example (None: not measured)."""


def difficulty(optimum: int | None, greedy: int | None, why: dict) -> Difficulty:
    """grade = 1 + G + P + B, where G = 0 if greedy reaches the optimum, 1 if it falls 1-2 short,
    2 if 3 or more (or it finds no complete plan); P = 1 if at most 2 plans are optimal, or the
    search exceeds its budget; B = 1 if the worked example offers 4 or more legal actions a step
    on average, or the search exceeds its budget."""
    gap = None if optimum is None else optimum - (greedy if greedy is not None else 0)
    g = 0 if not gap else 1 if gap <= 2 else 2
    plans = why.get("plans")
    branching = why.get("branching")
    mean = round(sum(branching) / len(branching), 1) if branching else None
    over = bool(why.get("over_budget"))
    p = 1 if over or (plans is not None and plans <= 2) else 0
    b = 1 if over or (mean is not None and mean >= 4) else 0
    return Difficulty(1 + g + p + b, gap, plans, mean)


# --------------------------------------------------------------------------- views


def plans_text(why: dict, lang: str) -> str:
    ui = UI[lang]
    if why.get("over_budget"):
        return ui["why_plans_over"].format(n=f"{why['budget']:,}")
    if why.get("plans") is None:
        return ui["why_plans_none"]
    if why.get("capped"):
        return ui["why_plans_capped"].format(n=why["plans"])
    return ui["why_plans_one"] if why["plans"] == 1 else ui["why_plans"].format(n=why["plans"])


def only_text(why: dict, lang: str) -> str:
    ui = UI[lang]
    only = why.get("only")
    if only is None:
        return ui["why_only_over"]
    steps = [str(i) for i, o in enumerate(only, start=1) if o]
    return ui["why_only"].format(steps=", ".join(steps)) if steps else ui["why_only_none"]


def limit_text(why: dict, record: dict, lang: str) -> str:
    ui = UI[lang]
    optimum = why.get("optimum")
    if optimum is None:
        bound = record.get("bound")
        return ui["why_bound_solver"].format(bound=bound) if bound is not None else ui["why_bound_none"]
    names = i18n.labels("puzzles.resources")
    raising = [(names[x["resource"]][lang], x["optimum"]) for x in why.get("limits", [])
               if x["optimum"] is not None and x["optimum"] > optimum]
    if not raising:
        return ui["why_bound_flat"].format(optimum=optimum)
    parts = "; ".join(ui["why_bound_part"].format(resource=n, health=h) for n, h in raising)
    return ui["why_bound_limits"].format(optimum=optimum, parts=parts)


def deviation_view(why: dict, lang: str) -> dict | None:
    dev = why.get("deviation")
    if not dev:
        return None
    ui = UI[lang]
    return {"summary": ui["why_runner_up"].format(step=dev["step"], health=dev["health"], loss=dev["loss"]),
            "step": dev["step"],
            "texts": [step_text(events, lang) for events in dev["events"]]}


def why_view(why: dict, record: dict, lang: str) -> dict:
    """The section's sentences (plain text; the template escapes)."""
    ui = UI[lang]
    runner = deviation_view(why, lang)
    no_runner = None
    if runner is None:
        no_runner = ui["why_runner_up_over"] if why.get("only") is None else ui["why_runner_up_none"]
    return {"plans": plans_text(why, lang), "only": only_text(why, lang), "bound": limit_text(why, record, lang),
            "runner": runner, "no_runner": no_runner, "only_steps": [i for i, o in enumerate(why.get("only") or [], 1) if o]}


def daily_data(rows: list[dict]) -> str:
    """The puzzle list ``daily.js`` picks from by the reader's date (a data attribute, so it works
    offline and survives the page sanitizer): id, title and computed grade per puzzle."""
    return json.dumps([{"id": r["id"], "title": r["plain_title"], "grade": r["grade_n"]} for r in rows],
                      ensure_ascii=False, separators=(",", ":"))


def build_day_pick(rows: list[dict]) -> dict | None:
    """The build date's pick, shown until the script picks by the reader's date (same rule:
    day number since 0001-01-01 modulo the list length)."""
    return rows[date.today().toordinal() % len(rows)] if rows else None
