"""The bound by completion sets (``solver.benchmarks.completion_sets``, issue #35: measured, not
kept) is a valid bound: on the deck suite's small puzzles, whose optima the exhaustive search
knows, it proves the exhaustive optimum from an incumbent one below it (a subproblem finds the
better plan) and from the optimum itself, and a run stopped early gives the completions cap, never
below the optimum."""
from __future__ import annotations

import pytest

from solver.benchmarks.completion_sets import completion_sets
from solver.io.puzzle import load_puzzle
from solver.optimise.planner import build_model
from test_bounds import MODELLED, OPTIMA  # tests/ is on sys.path (rootdir conftest)


@pytest.mark.parametrize("below", [1, 0], ids=["from one below the optimum", "from the optimum"])
@pytest.mark.parametrize("path", MODELLED, ids=lambda p: p.stem)
def test_proves_the_exhaustive_optimum(path, below):
    optimum = OPTIMA[path.stem]
    run = completion_sets(build_model(load_puzzle(path)), optimum - below, 120.0)
    assert run is not None and run.sets is not None
    assert (run.best, run.bound, run.refuted) == (optimum, optimum, run.sets), run
    assert run.cap >= optimum


def test_a_run_stopped_early_gives_the_cap():
    path = MODELLED[0]
    optimum = OPTIMA[path.stem]
    run = completion_sets(build_model(load_puzzle(path)), optimum - 1, 1e-6)
    assert run is not None and not run.proven and run.bound == run.cap >= optimum
