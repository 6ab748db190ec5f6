"""The records' figures (``data/figures/records.json``): what the committed records hold, counted.

Read from the records themselves, never measured again: how many puzzles, the time their
computing took (the wall-clock ``seconds`` each record keeps, summed over the records: on a
machine busy with other work this is more than the processor time), how the regret values were
computed and how many states one move off the worked example are proven, and how many puzzles'
optimal plans the "why it is optimal" search counted. ``python -m generator records --figures`` writes them;
``tests/test_figures.py`` fails when the committed file differs from the committed records.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..figures import Unit, figure


def record_figures(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The figures of ``records`` (every committed record, as read)."""
    records = list(records)
    seconds = sum(float(v) for r in records for v in (r.get("seconds") or {}).values())
    stats = [r["regret"].get("stats") or {} for r in records if r.get("regret")]
    full = sum(s.get("kind") == "table" for s in stats)
    line = [s for s in stats if s.get("kind") == "line"]
    off_line = sum(int(s.get("off_line", 0)) for s in line)
    proven = sum(int(s.get("proven", 0)) for s in line)
    why = [r.get("why") or {} for r in records]
    counted = sum(w.get("plans") is not None for w in why)
    past = sum(bool(w.get("over_budget")) for w in why)
    out = [figure("puzzles", len(records), Unit.COUNT),
           figure("compute.minutes", seconds / 60, Unit.MINUTES),
           figure("regret.full-table", full, Unit.COUNT),
           figure("regret.line", len(line), Unit.COUNT)]
    if off_line:
        out.append(figure("regret.one-move-off", proven, Unit.COUNT, of=off_line))
    out += [figure("why.counted", counted, Unit.COUNT), figure("why.past-budget", past, Unit.COUNT)]
    return out
