"""The test tiers, and what the fast tier re-proves and leaves to the slow tier and the committed
records.

Four tiers, by marker (given here, by :func:`tier_marks`, from where a test lives and from the lists
below, so moving a test between tiers edits this file only):

- ``make test-smoke`` (``pytest -m smoke``): a quick pass over every layer, under a minute;
- ``make test-fast`` (``pytest -m "not slow and not heavy"``): the edit loop, about two minutes;
- ``make test``: the fast tier and the ``heavy`` tests (a whole site built in a copy, command lines
  run as processes), then the built site's tests (``tests/site/``, ``tests/browser/``: ``slow``);
- ``pytest -m slow``: the rules' cross-checks without a budget, on request before a rules change.

A shipped puzzle's optimum is a committed record (``data/puzzles/<id>.record.json``): every run
checks that it is current and replays its plan (``tests/test_records.py``), ``make test`` re-proves
a few from nothing, and ``make reprove`` all of them. So the fast tier's cross-checks of search
engines run within a deterministic budget of search states and skip, saying so, what lies beyond
it; the slow tier (``pytest -m slow``, or any run without ``-m "not slow"``) has no budget."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.optimise.planner import PlanModel, PlannerResult, solve_cpsat
from solver.optimise.search import exhaustive

FAST_TIER_NODES = 5_000
"""States the exhaustive search may expand in a fast-tier cross-check (a few CPU seconds)."""
FAST_TIER_WORK = 10.0
"""CP-SAT deterministic seconds a fast-tier cross-check may spend on one proof (about 10-20 wall
seconds on one core): a puzzle small enough for the exhaustive search can still be a long proof
for CP-SAT (a random one with an Epigenetic card took a minute); the slow tier has no limit."""
SLOW_TIER = True
"""False when the run excludes the slow tier (set by ``tests/conftest.py`` from ``-m``)."""

NEEDS_A_BUILT_SITE = ("tests/site/", "tests/browser/")
"""Tests that read the built site (``make test`` builds it first): ``slow``, run as steps of their own."""

HEAVY: dict[str, tuple[str, ...]] = {
    # file: its heavy tests (names or name prefixes; empty: the whole file)
    "tests/test_pseudo_locale.py": (),  # builds the whole site in a copy, three languages (44 s idle; make test builds it beside the others)
}
"""Tests of seconds to a minute each, measured (``pytest --durations``): in ``make test``, outside
the edit loop. A whole file, or the named tests of a file (a name matches its parametrised cases)."""

SMOKE: dict[str, tuple[str, ...]] = {
}
"""The smoke tier: quick files (or named tests) that touch every layer: the data and its catalogue,
the rules engine, the planner on a small puzzle, the generator's pages, the command lines' parsing."""


def runs_slow_tier(markexpr: str) -> bool:
    """Whether a run with ``-m markexpr`` includes the slow tier: a run without ``-m`` or one asking
    for ``slow``; not ``not slow`` nor a tier of its own (``smoke``), which keep their budgets."""
    return not markexpr.strip() or ("slow" in markexpr and "not slow" not in markexpr)


def _listed(listing: dict[str, tuple[str, ...]], where: str, name: str) -> bool:
    names = listing.get(where)
    return names is not None and (not names or any(name == n or name.startswith((f"{n}[", f"{n}::")) for n in names))


def tier_marks(where: str, name: str) -> list[pytest.MarkDecorator]:
    """The tier markers of the test ``name`` (its node id without the file) in the file ``where``
    (relative to the repository, with ``/``)."""
    marks = []
    if where.startswith(NEEDS_A_BUILT_SITE):
        marks.append(pytest.mark.slow)
    if _listed(HEAVY, where, name):
        marks.append(pytest.mark.heavy)
    if _listed(SMOKE, where, name):
        marks.append(pytest.mark.smoke)
    return marks


def exhaustive_within_budget(puzzle, prune: bool = True):
    """:func:`solver.optimise.search.exhaustive`, within :data:`FAST_TIER_NODES` in the fast tier: a puzzle
    past it is skipped there (the slow tier searches it to the end)."""
    best, plan, stats = exhaustive(puzzle, prune=prune, max_nodes=None if SLOW_TIER else FAST_TIER_NODES)
    if not stats.complete:
        pytest.skip(f"{puzzle.id}: beyond the fast tier's {FAST_TIER_NODES:,} search states (the slow tier searches it)")
    return best, plan, stats


def cpsat_within_budget(model: PlanModel, **options) -> PlannerResult:
    """:func:`solver.optimise.planner.solve_cpsat` on ``model``, within :data:`FAST_TIER_WORK`
    deterministic seconds in the fast tier: a proof not finished by then is skipped there, saying
    so (a plan proven optimal within the budget is the same as without one)."""
    result = solve_cpsat(model, deterministic_time=None if SLOW_TIER else FAST_TIER_WORK, **options)
    if result.status not in ("optimal", "infeasible"):
        pytest.skip(f"{model.puzzle.id}: CP-SAT's proof is beyond the fast tier's {FAST_TIER_WORK:g} "
                    f"deterministic seconds ({result.status} so far; the slow tier proves it)")
    return result


def committed_record(puzzle_file: Path) -> dict:
    """A shipped puzzle's committed record (``data/puzzles/<id>.record.json``), as JSON."""
    return json.loads(puzzle_file.with_suffix(".record.json").read_text(encoding="utf-8"))


def recorded_solution(puzzle_file: Path) -> dict:
    """The committed record's solution of a shipped puzzle (health, plan, status, wall time)."""
    return committed_record(puzzle_file)["solution"]["solution"]


def recorded_table_states(puzzle_file: Path) -> int | None:
    """How many states the committed record's full table of best values holds (its ``regret`` of the
    ``table`` kind, :func:`generator.puzzles.play_runtime.best_values`), None when the record carries
    line values instead (the puzzle has more states than the table's budget)."""
    stats = (committed_record(puzzle_file).get("regret") or {}).get("stats") or {}
    return stats["states"] if stats.get("kind") == "table" else None


def small_puzzle_files(puzzle_files, states: int) -> list[Path]:
    """The shipped puzzles whose reachable states number at most ``states``, as their committed
    records count them: read, not searched, so that collecting the tests stays quick (searching
    every puzzle up to 3,000 states took about 8 s in each test process). The records are checked
    current by tests/test_records.py."""
    return [p for p in puzzle_files if (n := recorded_table_states(p)) is not None and n <= states]


def reproof_params(puzzle_files, seconds: float = 1.0) -> list:
    """``puzzle_files`` as parameters, those whose recorded solve took more than ``seconds`` of
    wall time in the slow tier (their optimum is the committed record's)."""
    return [pytest.param(p, id=p.stem, marks=pytest.mark.slow if recorded_solution(p)["wall_time"] > seconds else ())
            for p in puzzle_files]
