"""Cellula solver: the Cytosis rules engine, puzzle files and solvers.

Public API (stable; the site generator uses it)::

    from solver import load_puzzle, solve
    puzzle = load_puzzle("data/puzzles/rulebook-protein-hormone-2e.yaml")
    sol = solve(puzzle)                 # engine="cpsat" (default) or "exhaustive"
    sol.status, sol.health, sol.plan, sol.steps, sol.breakdown
    sol.bound, sol.proven, sol.gap, sol.wall_time, sol.confirmed_by, sol.reason
    sol.steps[0].events                 # what the step does, without words (solver.game.steps)
    describe_events(sol.steps[0].events, "it")  # ... in the words of data/i18n/it.yaml (solver.io.catalogue)
    plan, complete = greedy_plan(puzzle)  # the greedy contrast (solver.optimise.greedy)

Engine API (OpenSpiel style): ``initial_state``, ``legal_actions``, ``apply``,
``is_terminal``, ``returns``, ``score``; ``all_actions(puzzle)`` enumerates every action.

The packages, by role: :mod:`solver.game` (the rules engine and what it needs, standard library
only: the browser runs it), :mod:`solver.optimise` (the planner, the searches and the analyses
over the engine), :mod:`solver.io` (the files a person writes and what the solver writes back),
:mod:`solver.benchmarks` (``python -m solver bench`` only); here at the top the public API, the
solve orchestration (:mod:`solver.solution`) and the command line (:mod:`solver.cli`).
"""
SOLVER_VERSION = "2.1.0"
"""Bumped whenever the rules engine or the planner's model changes (the site caches solutions by
puzzle hash + this version)."""
__version__ = SOLVER_VERSION

from solver.game.engine import (
    Action, ActionKind, Breakdown, Disk, State, action_sections, all_actions, apply, initial_state,
    is_terminal, legal_actions, returns, score, why_illegal,
)
from solver.optimise.greedy import greedy_plan
from solver.game.errors import IllegalActionError, PlanError, PuzzleError, SolverError
from solver.game.model import Board, Card, CardType, Edition, Puzzle, Resource, Spot, SpotKind, Stock
from solver.io.puzzle import PUZZLE_SCHEMA, board_assumptions, load_board, load_puzzle, puzzle_files
from solver.game.replay import Step, replay
from .solution import ENGINES, Solution, VerificationError, solve

__all__ = [
    "Action", "ActionKind", "Board", "Breakdown", "Card", "CardType", "Disk", "Edition", "IllegalActionError",
    "PUZZLE_SCHEMA", "PlanError", "Puzzle", "PuzzleError", "Resource", "Solution", "SolverError", "Spot",
    "SpotKind", "State", "Step", "Stock", "action_sections", "all_actions", "apply", "board_assumptions",
    "initial_state", "is_terminal", "legal_actions", "load_board", "load_puzzle", "puzzle_files", "replay",
    "returns", "score", "solve", "why_illegal", "SOLVER_VERSION", "__version__", "ENGINES", "VerificationError",
    "greedy_plan",
]
