"""What the solver proved, in words: the proof paragraph(s) of a puzzle page (status, engine,
confirming engines, recorded run, fallback, time) and the index's one-cell summary."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from solver.io.offline import BoundSource, bound_proved_by

from .. import i18n

from .model import ProofStatus
from .texts import UI, md_inline


PLANNER_ENGINES = ("cpsat", "planner")
"""Names the CP-SAT planner answers under."""


def proof_status(record: dict[str, Any]) -> ProofStatus:
    try:
        return ProofStatus(record["solution"]["status"])
    except ValueError:
        return ProofStatus.UNKNOWN


def engine_label(record: dict[str, Any], lang: str) -> str:
    """Which engine answered, in words."""
    engine = record["solution"].get("engine", "")
    if engine == "exhaustive":
        nodes = record["solution"].get("stats", {}).get("nodes", "?")
        return "`exhaustive`, " + cast(str, UI[lang]["engine_exhaustive"].format(nodes=nodes))
    if engine in PLANNER_ENGINES:
        stats = record["solution"].get("stats", {})
        size = (UI[lang]["model_size"].format(variables=stats["variables"], constraints=stats["constraints"])
                if "variables" in stats and "constraints" in stats else "")
        return f"`{engine}`, " + cast(str, UI[lang]["engine_cpsat"]) + size
    return code_span(str(engine))


def code_span(text: str) -> str:
    """``text`` (data: a recorded engine's name) as a Markdown code span, escaped once: Markdown shows a
    code span's characters as they are (escaping ``<`` or ``_`` first would show the escapes), so only
    its backticks need a longer fence. An empty text is shown as ``?``."""
    text = " ".join(text.split()) or "?"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def confirm_label(engine: str, lang: str) -> str:
    """A confirming engine, named."""
    return code_span(engine) + (f" ({UI[lang]['confirm_' + engine]})" if f"confirm_{engine}" in UI[lang] else "")


def proof_lines(record: dict[str, Any], lang: str) -> list[str]:
    """The proof status paragraph(s), Markdown."""
    ui = UI[lang]
    status = proof_status(record)
    engine = engine_label(record, lang)
    lines = []
    if status is ProofStatus.OPTIMAL:
        lines.append(ui["proof_optimal"].format(engine=engine))
        confirmed = record.get("confirmed_by") or []
        tried = record["solution"].get("stats", {}).get("highs_seconds")
        if confirmed:
            lines.append(ui["proof_confirmed"].format(engines=", ".join(confirm_label(str(e), lang) for e in confirmed)))
        elif tried is not None:     # HiGHS ran out of its time: say so rather than leave it unsaid
            lines.append(measured(ui["proof_one_engine"].format(seconds=_num(tried, lang))))
        else:
            lines.append(ui["proof_unconfirmed"])
    elif status is ProofStatus.FEASIBLE:
        lines.append(ui["proof_feasible"].format(engine=engine, bound=record.get("bound", "?"),
                                                 gap=record.get("gap", "?")))
    elif status is ProofStatus.INFEASIBLE:
        lines.append(ui["proof_infeasible"].format(engine=engine))
    else:
        lines.append(ui["proof_unknown"].format(status=md_inline(str(record["solution"]["status"])), engine=engine))
    if record["solution"].get("stats", {}).get("completions_cap") is True and status is not ProofStatus.INFEASIBLE:
        lines.append(ui["proof_completions_cap"])
    recorded = record["solution"].get("stats", {}).get("recorded")
    if isinstance(recorded, dict):
        lines.append(ui["proof_recorded"].format(
            seconds=_num(recorded.get("seconds", "?"), lang), workers=recorded.get("workers", "?"),
            subsolvers=subsolver_text(recorded.get("subsolvers"), ui),
            machine=md_inline(str(recorded.get("machine", "?"))), date=recorded.get("recorded", "?"),
            gap_percent=_num(recorded.get("gap_percent", "?"), lang),
            warm_start="–" if recorded.get("warm_start") is None else recorded["warm_start"]))
        if isinstance(recorded.get("earlier"), int):
            lines.append(ui["proof_recorded_earlier"].format(earlier=recorded["earlier"]))
        lines.append(recorded_bound_line(recorded, ui))
    if record.get("other_readings_skipped"):
        lines.append(ui["other_readings_skipped"])
    reason = record["solution"].get("reason")
    if reason and status is not ProofStatus.OPTIMAL:
        lines.append(ui["proof_reason"].format(reason=md_inline(str(reason))))
    if record.get("fallback"):
        lines.append(ui["proof_fallback"].format(wanted=f"`{record['requested_engine']}`",
                                                 reason=md_inline(record["fallback"]), engine=engine))
    lines.append(measured(ui["solve_time"].format(seconds=_num(record.get("seconds", "?"), lang))))
    return lines


def _num(value: Any, lang: str) -> Any:
    """A measured figure as ``lang`` writes numbers (``17,601`` in Italian); anything else as given."""
    return i18n.number(value, lang) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def measured(line: str) -> str:
    """A paragraph quoting a time measured when the record was computed, kept out of the search
    index: every ``make records`` measures other times, and the index (with the committed search
    relevance record that depends on it, tests/browser/relevance_record.py) should change only when
    the text does."""
    return f'<p class="cellula-proof__measured" data-search-exclude markdown="span">{line}</p>'


def subsolver_text(names: Any, ui: Mapping[str, str]) -> str:
    """CP-SAT's full subsolvers of a recorded run (escaped as any data text), or its single worker."""
    if not isinstance(names, list) or not names:
        return ui["proof_recorded_single_worker"]
    return ", ".join(md_inline(str(n)) for n in names)


def recorded_bound_line(recorded: dict[str, Any], ui: Mapping[str, str]) -> str:
    """What proved a recorded run's bound: the completions cap it added to CP-SAT's model (when
    CP-SAT did not go below it), CP-SAT below the cap, or CP-SAT alone (no cap proven)."""
    cap, bound = recorded.get("cap"), recorded.get("bound")
    source = bound_proved_by(bound, cap) if isinstance(cap, int) and isinstance(bound, int) else BoundSource.CPSAT
    if source is BoundSource.CAP:
        return ui["proof_recorded_cap"].format(bound=cap)
    if source is BoundSource.BELOW_CAP:
        return ui["proof_recorded_below_cap"].format(bound=bound, cap=cap)
    return ui["proof_recorded_no_cap"]


def proven_text(record: dict[str, Any], lang: str) -> str:
    status = proof_status(record)
    health = record["solution"].get("health")
    if status is ProofStatus.OPTIMAL:
        return f"**{health}** ✓"
    if status is ProofStatus.FEASIBLE:
        return f"≥ {health} ({UI[lang]['not_proven']})"
    return "–"


def proof_summary(record: dict[str, Any], lang: str) -> str:
    """The proof in one plain sentence, before its details (engines, budgets, times)."""
    status = proof_status(record)
    health = record["solution"].get("health")
    if status is ProofStatus.OPTIMAL:
        return i18n.plural("puzzles.proof_plain_optimal", lang, health)
    if status is ProofStatus.FEASIBLE:
        return i18n.plural("puzzles.proof_plain_feasible", lang, health)
    return ""
