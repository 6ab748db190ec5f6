"""Why a worked example is optimal, in words, and its level (issue #19, items 3-4).

The facts and the level are computed once, into the puzzle's committed record
(:mod:`generator.proofs.why`); this module puts them into words. Past the search's budget the
record says so and the page says "not counted", never a guess. The level's formula
(:func:`generator.proofs.why.difficulty`) is printed on the puzzle index in every language
(``puzzles.grade_formula``).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any, cast

from .. import i18n
from ..proofs.why import STOCK_FIELDS, Difficulty   # the probes the words name are the ones computed
from .step_texts import step_text

MAX_GRADE = 5
"""Levels run from 1 to 5, computed by :func:`difficulty`; a puzzle file's own ``grade:`` is its
author's estimate, kept for the benchmark's table."""
UI = i18n.namespace("puzzles")


# --------------------------------------------------------------------------- views


def stars(grade: int) -> str:
    return "★" * grade + "☆" * max(0, MAX_GRADE - grade)


def level_reasons(d: Difficulty, lang: str) -> str:
    """The figures behind a level, in words ("greedy gap 2, optimal plans 3, ...")."""
    dash: Callable[[object], object] = lambda v: "–" if v is None else v  # noqa: E731
    if d.plans is not None:
        plans = i18n.plural("puzzles.grade_plans", lang, d.plans)
    elif d.plans_at_least is not None:
        plans = UI[lang]["grade_plans_at_least"].format(n=i18n.number(d.plans_at_least, lang))
    else:
        plans = UI[lang]["grade_plans_unknown"]
    branching = "–" if d.branching is None else i18n.number(d.branching, lang, 1)
    return cast(str, UI[lang]["grade_why"].format(gap=dash(d.gap), plans=plans, branching=branching))


def level_text(d: Difficulty, lang: str) -> str:
    """The puzzle page's line: the level and its figures."""
    ui = UI[lang]
    return f"{ui['grade']}: {stars(d.grade)} ({ui['grade_of'].format(n=d.grade)}; {level_reasons(d, lang)})"


def plans_text(why: dict[str, Any], lang: str) -> str:
    ui = UI[lang]
    if why.get("unproven"):
        return cast(str, ui["why_unproven"])
    if why.get("over_budget") and (why.get("plans_at_least") or 0) > 1:
        return cast(str, ui["why_plans_at_least"].format(n=why["plans_at_least"], budget=i18n.number(why['budget'], lang)))
    if why.get("over_budget"):
        return cast(str, ui["why_plans_over"].format(n=i18n.number(why['budget'], lang)))
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


def deviation_view(why: dict[str, Any], lang: str, names: dict[str, str] | None = None) -> dict[str, Any] | None:
    dev = why.get("deviation")
    if not dev:
        return None
    ui = UI[lang]
    summary = ui["why_runner_up"].format(step=dev["step"], health=dev["health"], loss=dev["loss"])
    if why.get("unvalued"):
        summary += " " + ui["why_runner_up_partial"].format(n=why["unvalued"])
    return {"summary": summary,
            "step": dev["step"],
            "texts": [step_text(events, lang, names) for events in dev["events"]]}


def why_view(why: dict[str, Any], record: dict[str, Any], lang: str,
             names: dict[str, str] | None = None) -> dict[str, Any]:
    """The section's sentences (plain text; the template escapes); ids told by ``names``."""
    ui = UI[lang]
    if why.get("unproven"):
        return {"unproven": True, "plans": ui["why_unproven"], "only_steps": [], "only": None, "bound": None,
                "runner": None, "no_runner": None, "source": None}
    runner = deviation_view(why, lang, names)
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
