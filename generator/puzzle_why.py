"""Why a worked example is optimal, in words, and the difficulty grade (issue #19, items 3-4).

At build time, through the engine's memoised value search (:mod:`solver.explain`) under a state
budget (:data:`MAX_STATES`): the number of optimal plans, the "only move" steps of the worked
example, the branching along it, the best plan whose first departure from it already loses, and
which starting resource or the flask count limits the score (the optimum with one more of each). Cached like the
solutions (``.cache/why``, keyed by the puzzle file, its board and card data and the solver's
source). Past the budget the record says so and the page says "not counted", never a guess.

The grade (:func:`difficulty`) is computed from these facts and the greedy contrast; its formula
is printed on the puzzle index in every language (``puzzles.grade_formula``).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from . import i18n, solution_cache
from .step_texts import step_text

if TYPE_CHECKING:
    from solver.model import Puzzle

MAX_STATES = 30_000
"""State budget of each value search (about 8-15 s of engine time when exhausted: the cost of
finding out that a puzzle is too large, paid once per puzzle on a cold cache)."""
PROBE_DETERMINISTIC_TIME = 40.0
"""CP-SAT's deterministic time for one probe of a puzzle past the search budget (one worker: the
same answer on every machine, however loaded; it was 10 wall seconds on 2 workers, which proved
fewer probes on a busy machine). Measured on the 54 probes that reach CP-SAT: 53 are proven within
31.3 deterministic seconds (about as many wall seconds here), 46 within 10; deck-season-1e's flask
probe is not proven at 60."""
PROBE_NODES = 75_000
"""State budget of the exhaustive search that proves a probe of a puzzle the planner cannot model
(the Virus expansion) past the search budget: deterministic, like :data:`PROBE_DETERMINISTIC_TIME`.
Measured: each resource probe of the two Virus puzzles needs 6,410-9,723 states (3-5 s), the flask
probe of virus-attack-card-1e 68,292 (29 s); that of virus-influenza-2e is not done at 97,536 (90 s)."""
PLAN_CAP = 1000
"""Optimal plans are counted up to this many ("at least" beyond)."""
WHY_FORMAT = "why-8"
WHY_PARTS = ("budget", "optimum", "plans", "only", "limits")
"""Keys every why-record holds (a cached file without them is computed again)."""
WHY_DIR = Path(__file__).resolve().parents[1] / ".cache" / "why"
MAX_GRADE = 5
"""Levels run from 1 to 5, computed by :func:`difficulty`; a puzzle file's own ``grade:`` is its
author's estimate, kept for the benchmark's table."""
STOCK_FIELDS = ("atp", "mrna", "protein", "carb", "lipid")
UI = i18n.namespace("puzzles")


# --------------------------------------------------------------------------- facts (cached)


def _probes(puzzle: Puzzle) -> Iterator[tuple[str, Puzzle]]:
    """The puzzle with one more of each starting resource, then with one more flask a round:
    (name, changed puzzle). The optimum of each says what limits the score."""
    import dataclasses
    for field in STOCK_FIELDS:
        start = dataclasses.replace(puzzle.start, **{field: getattr(puzzle.start, field) + 1})
        yield field, dataclasses.replace(puzzle, start=start)
    yield "flask", dataclasses.replace(puzzle, flasks=puzzle.flasks + 1)


def compute_why(puzzle: Puzzle, plan: list[dict[str, Any]], proven: int | None = None) -> dict[str, Any]:
    """Everything the "why it is optimal" section and the grade need (JSON-ready): one value
    search along the worked example, then one per probe (:func:`_probes`). ``proven`` is the
    solver's proven optimum (None when the solver did not prove one: then nothing is probed)."""
    from solver import replay
    from solver.engine import Action
    from solver.explain import OptimalPlans, line_facts, line_facts_from_values, optimal_plans
    actions = [Action.from_dict(a) for a in plan]
    if actions and proven is None:
        # a plan not proven optimal (a recorded whole game): there is no optimum to explain
        return {"budget": MAX_STATES, "optimum": None, "plans": None, "capped": False, "states": 0,
                "over_budget": False, "unproven": True, "only": None, "branching": None, "deviation": None,
                "limits": []}
    facts = line_facts(puzzle, actions, MAX_STATES, PLAN_CAP) if actions else None
    source = "search"
    if facts is not None:
        counted = facts.plans
    elif actions:   # the line's search ran out of budget: the same search without a line would too
        counted = OptimalPlans(None, None, False, MAX_STATES)
        if proven is not None:  # only moves and the best departure from the values one move off
            from .puzzle_play import shared_line_values
            facts, source = line_facts_from_values(shared_line_values(puzzle, actions, proven)), "line"
    else:
        counted = optimal_plans(puzzle, MAX_STATES, PLAN_CAP)
    # the optimum explained: the search's, or the solver's proven one when the search ran out
    record: dict[str, Any] = {"budget": MAX_STATES, "optimum": counted.best if counted.best is not None else proven,
                    "plans": counted.count,
                    "capped": counted.capped, "states": counted.states, "over_budget": counted.count is None,
                    "only": list(facts.only) if facts else None,
                    "branching": list(facts.branching) if facts else None, "deviation": None, "limits": [],
                    "source": source if facts else None, "unvalued": facts.unvalued if facts else 0,
                    "plans_at_least": facts.plans_at_least if facts else None}
    if facts and facts.deviation:
        steps, _ = replay(puzzle, list(facts.deviation.plan))
        record["deviation"] = {"step": facts.deviation.step, "health": facts.deviation.health,
                               "loss": facts.deviation.loss,
                               "events": [[e.to_dict() for e in s.events] for s in steps[facts.deviation.step - 1:]]}
    if counted.best is not None or (proven is not None and actions):
        # a probe is larger than its puzzle: search it only when the puzzle took a third of the
        # budget at most, else go straight to CP-SAT (a search run out of budget is time lost)
        record["limits"] = probe_limits(puzzle, searchable=counted.best is not None
                                        and counted.states * 3 <= MAX_STATES)
    return record


def probe_limits(puzzle: Puzzle, searchable: bool) -> list[dict[str, Any]]:
    """Each probe (:func:`_probes`) with its status: ``optimal`` (its proven optimum),
    ``unplayable`` (no legal plan: one more flask can need more free spots than the board has) or
    ``unproven``. Past the first probe CP-SAT cannot prove in its time, the others (as large) are
    not tried and read ``unproven`` too, which saves up to a minute a hard puzzle on a cold cache."""
    limits: list[dict[str, Any]] = []
    gave_up = False
    for name, changed in _probes(puzzle):
        optimum, status = (None, "unproven") if gave_up else probe_optimum(changed, searchable)
        gave_up = gave_up or status == "unproven"
        limits.append({"resource": name, "optimum": optimum, "status": status})
    return limits


def probe_optimum(puzzle: Puzzle, searchable: bool) -> tuple[int | None, str]:
    """A probe's proven optimum and status (see :func:`probe_limits`): by the value search when
    the original puzzle fitted its budget (a probe is a little larger: it may not), else by CP-SAT
    within :data:`PROBE_DETERMINISTIC_TIME`, or, for a puzzle the planner cannot model, by the
    exhaustive search within :data:`PROBE_NODES`. Every bound is deterministic."""
    from solver import solve
    from solver.explain import optimal_plans
    from solver.planner import unsupported_reason
    if searchable:
        counted = optimal_plans(puzzle, MAX_STATES, 1)
        if counted.count is not None:
            return counted.best, "optimal" if counted.best is not None else "unplayable"
    if unsupported_reason(puzzle) is not None:
        from solver.search import exhaustive
        best, _plan, stats = exhaustive(puzzle, max_nodes=PROBE_NODES)
        if not stats.complete:
            return None, "unproven"
        return best, "optimal" if best is not None else "unplayable"
    solution = solve(puzzle, "cpsat", deterministic_time=PROBE_DETERMINISTIC_TIME, workers=1, confirm=())
    if not solution.proven:
        return None, "unproven"
    return solution.health, "optimal" if solution.health is not None else "unplayable"


def why_key(puzzle: Puzzle, file: Path) -> str:
    """The cache key of the puzzle's why-record (:func:`why_cached`)."""
    from solver.puzzle import RULEBOOK_CARDS, board_path
    from .puzzle_play import line_budgets     # past the search's budget the facts come from the line values
    return solution_cache.cache_key(file, f"{WHY_FORMAT}:{line_budgets(puzzle)}", (board_path(puzzle.board.id), RULEBOOK_CARDS))


def why_cached(puzzle: Puzzle, file: Path, plan: list[dict[str, Any]], proven: int | None, cache_dir: Path | None = None) -> dict[str, Any]:
    """The puzzle's why-record from the cache, or computed and stored."""
    return solution_cache.cached(why_key(puzzle, file), lambda: compute_why(puzzle, plan, proven),
                                 cache_dir or WHY_DIR, parts=WHY_PARTS).record


def why_is_cached(puzzle: Puzzle, file: Path, cache_dir: Path | None = None) -> bool:
    """Whether :func:`why_cached` finds the puzzle's why-record on disk."""
    return solution_cache.read(cache_dir or WHY_DIR, why_key(puzzle, file), WHY_PARTS) is not None


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
    plans_at_least: int | None = None
    """Past the search's budget, a proven lower bound on the optimal plans (None: none)."""


def difficulty(optimum: int | None, greedy: int | None, why: dict[str, Any]) -> Difficulty:
    """grade = 1 + G + P + B, where G = 0 if greedy reaches the optimum, 1 if it falls 1-2 short,
    2 if 3 or more (or it finds no complete plan); P = 1 if at most 2 plans are optimal, or the
    search exceeds its budget without proving at least 3 (``plans_at_least``: past the budget the
    count is unknown, but a proven bound of 3 or more settles P as a count would); B = 1 if the
    worked example offers 4 or more legal actions a step on average, or (not measured) the search
    exceeds its budget."""
    gap = None if optimum is None else optimum - (greedy if greedy is not None else 0)
    g = 0 if not gap else 1 if gap <= 2 else 2
    plans = why.get("plans")
    branching = why.get("branching")
    mean = round(sum(branching) / len(branching), 1) if branching else None
    over = bool(why.get("over_budget"))
    at_least = why.get("plans_at_least") if over else None
    few = plans <= 2 if plans is not None else not (at_least is not None and at_least >= 3)
    p = 1 if few and (plans is not None or over) else 0
    b = 1 if (mean is not None and mean >= 4) or (over and mean is None) else 0
    return Difficulty(1 + g + p + b, gap, plans, mean, at_least)


# --------------------------------------------------------------------------- views


def stars(grade: int) -> str:
    return "★" * grade + "☆" * max(0, MAX_GRADE - grade)


def level_reasons(d: Difficulty, lang: str) -> str:
    """The figures behind a level, in words ("greedy gap 2, optimal plans 3, ...")."""
    dash: Callable[[object], object] = lambda v: "–" if v is None else v  # noqa: E731
    plans = dash(d.plans) if d.plans is not None or d.plans_at_least is None else f"≥ {d.plans_at_least}"
    return cast(str, UI[lang]["grade_why"].format(gap=dash(d.gap), plans=plans, branching=dash(d.branching)))


def level_text(d: Difficulty, lang: str) -> str:
    """The puzzle page's line: the level and its figures."""
    ui = UI[lang]
    return f"{ui['grade']}: {stars(d.grade)} ({ui['grade_of'].format(n=d.grade)}; {level_reasons(d, lang)})"


def plans_text(why: dict[str, Any], lang: str) -> str:
    ui = UI[lang]
    if why.get("unproven"):
        return cast(str, ui["why_unproven"])
    if why.get("over_budget") and (why.get("plans_at_least") or 0) > 1:
        return cast(str, ui["why_plans_at_least"].format(n=why["plans_at_least"], budget=f"{why['budget']:,}"))
    if why.get("over_budget"):
        return cast(str, ui["why_plans_over"].format(n=f"{why['budget']:,}"))
    if why.get("plans") is None:
        return cast(str, ui["why_plans_none"])
    if why.get("capped"):
        return cast(str, ui["why_plans_capped"].format(n=why["plans"]))
    return cast(str, ui["why_plans_one"] if why["plans"] == 1 else ui["why_plans"].format(n=why["plans"]))


def only_text(why: dict[str, Any], lang: str) -> str:
    ui = UI[lang]
    only = why.get("only")
    if only is None:
        return cast(str, ui["why_only_over"])
    steps = [str(i) for i, o in enumerate(only, start=1) if o]
    undecided = [str(i) for i, o in enumerate(only, start=1) if o is None]
    if not steps:
        text = ui["why_only_none_proven" if undecided else "why_only_none"]
    else:
        text = ui["why_only_one" if len(steps) == 1 else "why_only"].format(steps=", ".join(steps))
    if undecided:
        text += " " + ui["why_only_open"].format(steps=", ".join(undecided))
    return cast(str, text)


def limit_text(why: dict[str, Any], record: dict[str, Any], lang: str) -> str:
    """What limits the score: the starting resources whose one more unit raises the optimum, then
    what one more flask a round does; a probe not proven is named as such, never given a value."""
    ui = UI[lang]
    optimum = why.get("optimum")
    if optimum is None:
        bound = record.get("bound")
        return cast(str, ui["why_bound_solver"].format(bound=bound) if bound is not None else ui["why_bound_none"])
    names = i18n.labels("puzzles.resources")
    probes = {x["resource"]: x for x in why.get("limits", [])}
    proven = {f: x["optimum"] for f, x in probes.items() if x["status"] == "optimal"}
    raising = [(names[f][lang], proven[f]) for f in STOCK_FIELDS if f in proven and proven[f] > optimum]
    text: str
    if raising:
        parts = "; ".join(ui["why_bound_part"].format(resource=n, health=h) for n, h in raising)
        text = ui["why_bound_limits"].format(optimum=optimum, parts=parts)
    else:
        text = ui["why_bound_flat"].format(optimum=optimum)
    flask = probes.get("flask", {}).get("status")
    if flask == "optimal":
        text += " " + (ui["why_bound_flask"].format(health=proven["flask"]) if proven["flask"] > optimum
                       else ui["why_bound_flask_same"])
    elif flask == "unplayable":
        text += " " + ui["why_bound_flask_unplayable"]
    unproven = [f for f in (*STOCK_FIELDS, "flask") if probes.get(f, {}).get("status") == "unproven"]
    if unproven:
        labels = [ui["why_probe_flask"] if f == "flask" else names[f][lang] for f in unproven]
        text += " " + ui["why_bound_unproven"].format(probes=", ".join(labels))
    return text


def deviation_view(why: dict[str, Any], lang: str) -> dict[str, Any] | None:
    dev = why.get("deviation")
    if not dev:
        return None
    ui = UI[lang]
    summary = ui["why_runner_up"].format(step=dev["step"], health=dev["health"], loss=dev["loss"])
    if why.get("unvalued"):
        summary += " " + ui["why_runner_up_partial"].format(n=why["unvalued"])
    return {"summary": summary,
            "step": dev["step"],
            "texts": [step_text(events, lang) for events in dev["events"]]}


def why_view(why: dict[str, Any], record: dict[str, Any], lang: str) -> dict[str, Any]:
    """The section's sentences (plain text; the template escapes)."""
    ui = UI[lang]
    if why.get("unproven"):
        return {"unproven": True, "plans": ui["why_unproven"], "only_steps": [], "only": None, "bound": None,
                "runner": None, "no_runner": None, "source": None}
    runner = deviation_view(why, lang)
    no_runner = None
    if runner is None:
        no_runner = (ui["why_runner_up_over"] if why.get("only") is None
                     else ui["why_runner_up_unvalued"].format(n=why["unvalued"]) if why.get("unvalued")
                     else ui["why_runner_up_none"])
    return {"unproven": False, "plans": plans_text(why, lang), "only": only_text(why, lang),
            "bound": limit_text(why, record, lang), "runner": runner, "no_runner": no_runner, "only_steps": [i for i, o in enumerate(why.get("only") or [], 1) if o],
            "source": ui["why_source_line"] if why.get("source") == "line" else None}


def daily_data(rows: list[dict[str, Any]]) -> str:
    """The puzzle list ``daily.js`` picks from by the reader's date (a data attribute, so it works
    offline and survives the page sanitizer): id, title and computed grade per puzzle."""
    return json.dumps([{"id": r["id"], "title": r["plain_title"], "grade": r["grade_n"]} for r in rows],
                      ensure_ascii=False, separators=(",", ":"))


def build_day_pick(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The build date's pick, shown until the script picks by the reader's date (same rule:
    day number since 0001-01-01 modulo the list length)."""
    return rows[date.today().toordinal() % len(rows)] if rows else None
