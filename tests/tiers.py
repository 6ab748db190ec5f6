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
    # file: its heavy tests (test names, a name matching its parametrised cases; empty: the whole file)
    "tests/test_pseudo_locale.py": (),  # builds the whole site in a copy, in three languages
    "tests/test_badinput.py": (),       # the named corpus: a command line run per case (about 115 s)
    "tests/test_cli.py": (),            # the solver's command line, run as processes
    "tests/test_fuzz_inputs.py": ("test_cli_mutant",),
    "tests/test_bounds.py": ("test_identical_cards_are_the_deck_suites_copies", "test_no_bound_below_the_optimum"),
    "tests/test_epigenetic.py": ("test_planner_matches_the_exhaustive_search", "test_random_plans_use_every_modelled_card"),
    "tests/test_fingerprint.py": ("test_what_changes_no_answer_changes_no_fingerprint",
                                  "test_what_changes_what_is_computed_changes_the_fingerprint",
                                  "test_the_copy_has_the_projects_fingerprint"),
    "tests/test_fuzz_differential.py": ("test_engines_agree_on_random_puzzles", "test_generator_covers_every_feature"),
    "tests/test_market.py": ("test_row_constraints_keep_the_exhaustive_optimum", "test_scip_and_highs_agree_on_a_deck_puzzle",
                             "test_the_large_neighbourhood_search_is_reproducible_and_never_worse"),
    "tests/test_oracle.py": ("test_epigenetic_cases_cover_the_five_cards",),
    "tests/test_planner.py": ("test_random_puzzles_cover_editions_and_every_spot", "test_random_puzzles_match_exhaustive",
                              "test_shipped_puzzle_matches_exhaustive[epigenetic-steroid-exchange-1e]",
                              "test_shipped_puzzle_matches_exhaustive[two-player-detox-1e]"),
    "tests/test_portfolio.py": ("test_a_run_out_of_time_in_its_search_keeps_the_bound_it_proved",),
    "tests/test_puzzle_why.py": ("test_a_probe_the_planner_cannot_model_is_searched_within_a_state_budget",
                                 "test_probe_optimum_is_the_same_by_either_engine"),
    "tests/test_records.py": ("test_a_confirmation_decided_by_the_clock_is_a_note_not_a_difference",
                              "test_reprove_reproduces_every_field_and_names_a_difference",
                              "test_processes_compute_what_one_process_computes",
                              "test_a_new_puzzle_gets_its_record_computed_and_written_then_read",
                              "test_progress_is_plain_lines_off_a_terminal", "test_bad_records_arguments_are_refused_with_exit_2"),
    "tests/test_regret.py": ("test_the_planner_stage_proves_most_states_the_search_is_not_given",),
    "tests/test_reshuffle.py": ("test_the_soundness_cases_reach_both_situations",),
    "tests/test_round_bound.py": ("test_never_below_the_exhaustive_optimum_on_random_puzzles",),
    "tests/test_row_trajectories.py": ("test_the_method_keeps_the_optimum",),
    "tests/test_solver_search.py": ("test_pruning_keeps_the_optimum",),
    # what make test-fast runs as a command of its own (generator validate: the data, the unused keys)
    "tests/test_ui_strings.py": ("test_every_key_is_used",),
    "tests/test_validate.py": ("test_validate_passes_on_the_shipped_data_without_solving",),
}
"""Tests of seconds to a minute each: in ``make test``, outside the edit loop. A whole file, or the
named tests of a file. Chosen from ``pytest -m "not slow" --durations=80`` (a run of the fast tier on
2 cores shared with other jobs, load average about 17: 79 minutes of wall-clock time, 11.3 minutes
of processor time): every test whose call took 35 s or more there (about 5 s on an idle machine), the
slowest first; a fixture's set-up is not moved (the next test of the file would pay it)."""

SMOKE: dict[str, tuple[str, ...]] = {
    "tests/test_yamlio.py": (),                 # reading data files, with lines
    "tests/test_schema.py": (),                 # the declared shapes of data files
    "tests/test_site_languages.py": (),         # the languages from mkdocs.yml
    "tests/test_features.py": (),               # the generator's feature registry
    "tests/test_engine.py": (),                 # the rules engine
    "tests/test_solver_golden.py": (),          # golden playthroughs replayed
    "tests/test_planner.py": ("test_shipped_puzzle_matches_exhaustive[rulebook-protein-hormone-2e]",),  # the planner on the first puzzle
    "tests/test_figures.py": (),                # measured figures as data
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
