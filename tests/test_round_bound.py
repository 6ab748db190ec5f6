"""The bound by rounds (``solver/benchmarks/round_bound.py``, issue #35) is a valid bound: never
below the exhaustive search's optimum, on the deck suite's 12 small puzzles and on random small
puzzles; and its programme keeps the counts the rules imply."""
from __future__ import annotations

import pytest

from fuzz_differential import fuzz_puzzle_data, load
from solver.benchmarks import deck_suite, round_bound
from solver.optimise.caps import applies, done_vars
from solver.game.errors import PuzzleError
from solver.optimise.planner import build_model, unsupported_reason
from solver.io.puzzle import load_puzzle
from solver.optimise.search import exhaustive
from test_bounds import OPTIMA

SMALL = deck_suite.suite_files(small=True)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_never_below_the_exhaustive_optimum_on_the_small_suite(path):
    result = round_bound.round_bound(build_model(load_puzzle(path)))
    assert result.bound is not None, path.stem
    assert result.bound >= OPTIMA[path.stem], (path.stem, result)
    assert result.flows_only is not None and result.bound <= result.flows_only, "the programme only adds limits"


RANDOM_SEEDS = range(60)
"""Random small puzzles (2-4 placements, every modelled feature; those with an Epigenetic card or the
Virus expansion are outside the bound, and skipped)."""


def test_never_below_the_exhaustive_optimum_on_random_puzzles():
    checked = 0
    for seed in RANDOM_SEEDS:
        try:
            puzzle = load(fuzz_puzzle_data(seed, (2, 4)))
        except PuzzleError:
            continue
        if unsupported_reason(puzzle) is not None:
            continue
        pm = build_model(puzzle)
        if not applies(pm):
            continue
        best, _, stats = exhaustive(puzzle, max_nodes=3_000)
        if not stats.complete or best is None:
            continue
        result = round_bound.round_bound(pm)
        assert result.bound is not None and result.bound >= best, (seed, result, best)
        checked += 1
    assert checked >= 15, f"only {checked} random puzzles checked"


def test_outcomes_respect_the_disks_and_the_exocytosis_spots():
    """On a 2-player board (one Exocytosis spot) no round completes two hormones or receptors, and
    no outcome completes more lane cards than the puzzle holds."""
    path = next(p for p in SMALL if "-2p-" in p.stem)
    puzzle = load_puzzle(path)
    pm = build_model(puzzle)
    lanes = {c: lane for c in done_vars(pm) if (lane := round_bound.lane_of(puzzle, c)) is not None}
    front, _ = round_bound.outcomes(puzzle, lanes)
    exo = max(r.free["exo"] for r in round_bound.rounds_of(puzzle))
    grey = min(puzzle.grey_flasks, puzzle.flasks)
    for o in front:
        assert o.done[0] + o.done[1] <= puzzle.rounds * (exo + grey)
        for i, lane in enumerate(round_bound.LANES):
            assert o.done[i] <= sum(1 for ln in lanes.values() if ln == lane)
        assert not any(p != o and p.dominates(o) for p in front), "the outcomes are Pareto-maximal"


def test_rounds_take_other_players_spots_off():
    puzzle = load_puzzle(next(p for p in deck_suite.suite_files(small=False) if p.stem.startswith("suite-02-") and p.stem.endswith("p24")))
    rounds = round_bound.rounds_of(puzzle)
    # round 4: other players on exocytosis-1 (one of two Exocytosis spots); rounds 3 and 5: card-row-4, cytoplasm
    assert rounds[3].free["exo"] == rounds[0].free["exo"] - 1
    assert rounds[2].row_taken == 1 and rounds[2].free["buy"] == rounds[1].free["buy"] - 1
    assert rounds[2].free["cyto"] == 0 and rounds[0].free["cyto"] == 1


@pytest.mark.parametrize("path", SMALL[:6], ids=lambda p: p.stem)
def test_merged_states_dominate_the_exact_programme(path):
    """The merge of a round's states (the default) only loosens: every outcome of the exact
    programme is dominated by one of the merged programme's."""
    puzzle = load_puzzle(path)
    pm = build_model(puzzle)
    lanes = {c: lane for c in done_vars(pm) if (lane := round_bound.lane_of(puzzle, c)) is not None}
    exact, exact_states = round_bound.outcomes(puzzle, lanes, merge=False)
    merged, merged_states = round_bound.outcomes(puzzle, lanes, merge=True)
    assert merged_states <= exact_states
    for o in exact:
        assert any(p == o or p.dominates(o) for p in merged), o
