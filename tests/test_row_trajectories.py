"""The card row's history as a flow (solver/benchmarks/row_trajectories.py, issue #35): the graph of
rows holds every row the rules engine shows, and the flow tied to the planner's model cuts no plan."""
from __future__ import annotations

import random

import pytest

from solver.benchmarks import bounds, deck_suite
from solver.benchmarks.row_trajectories import add_row_trajectories, market
from solver.game.engine import apply, initial_state, is_terminal, legal_actions
from solver.io.puzzle import load_puzzle
from solver.optimise.planner import build_model

SUITE = deck_suite.suite_files()


@pytest.mark.parametrize("path", SUITE, ids=lambda p: p.stem)
def test_every_row_the_engine_shows_is_a_node(path):
    """Random legal games played by the rules engine: at each round's start the row (other players'
    purchases under their flasks already gone) is one of the graph's rows for that round."""
    puzzle = load_puzzle(path)
    graph = market(puzzle, puzzle.flasks + min(puzzle.grey_flasks, puzzle.flasks))
    index = {c: i for i, c in enumerate(graph.queue)}
    slots = range(len(puzzle.board.row_slots))
    rng = random.Random(path.stem)
    for _ in range(5):
        state, round_ = initial_state(puzzle), 0
        while not is_terminal(state):
            if state.round != round_:
                round_ = state.round
                taken = {sp.row_slot for sp in puzzle.board.row_slots if sp.id in puzzle.occupied_in(round_)}
                shown = tuple(index[c] if c else None for c in state.row)
                assert any(all(shown[j] == row[j] or (j in taken and shown[j] is None) for j in slots)
                           for row in graph.rows[round_]), (round_, shown)
            state = apply(state, rng.choice(legal_actions(state)))


def test_the_graph_stays_small_and_counts_purchases():
    """The suite's graphs: one row in round 1, every arc's purchases within a round's slots and on
    row slots no other player holds."""
    for path in SUITE:
        puzzle = load_puzzle(path)
        graph = market(puzzle, puzzle.flasks)
        assert len(graph.rows[1]) == 1 and max(len(rows) for rows in graph.rows.values()) <= 200
        for arc in graph.purchases:
            held = {sp.row_slot for sp in puzzle.board.row_slots if sp.id in puzzle.occupied_in(arc.round_)}
            assert len(arc.slots) <= puzzle.flasks and not held & set(arc.slots)
            assert (arc.after is None) == (arc.round_ == puzzle.rounds)


def test_no_rows_where_the_graph_does_not_describe_the_market():
    """A discard pile that can come back (suite-03's 16 placements) leaves the model as it was."""
    path = next(p for p in SUITE if p.stem == "suite-03-1e-3p-deck7-p16")
    assert add_row_trajectories(build_model(load_puzzle(path))) == 0


@pytest.mark.parametrize("method", ["card symmetry", "row histories"])
@pytest.mark.parametrize("stem, optimum", [("suite-01-1e-2p-deck14-p16", 21), ("suite-05-1e-2p-deck11-p16", 25)])
def test_the_method_keeps_the_optimum(method, stem, optimum):
    """On 16-placement suite puzzles (optima the planner proves in about a second) the method adds
    rows, and CP-SAT proves the same optimum with them."""
    chosen = next(m for m in bounds.METHODS if m.name == method)
    puzzle = load_puzzle(next(p for p in SUITE if p.stem == stem))
    assert chosen.transform is not None and chosen.transform(build_model(puzzle)) > 0
    run = bounds.run_method(chosen.model(puzzle), chosen, 30.0, workers=2)
    assert (run.status, run.objective) == ("optimal", optimum)
