"""The time-indexed planner: one model of a whole puzzle, solved by CP-SAT, confirmed by HiGHS.

``build_model(puzzle)`` writes the rules as linear constraints over a grid of *slots*: each
round has ``F + G`` slots (F flasks, G = grey flasks usable that round); a slot holds one
placement (grey or normal), an exhausted flask, or nothing (only at the end of a round). The
state (stock, Health, cards, disks, card row, boosts) is an integer/boolean vector per slot.
``solve(...)`` runs CP-SAT on it, decodes the plan and replays it in the rules engine (the single
source of truth); HiGHS solves the same abstract model to confirm a proven optimum.

The planner runs in three stages, one module each, and this module gathers their public names:

1. **the model** (:mod:`solver.optimise.model`): ``build_model`` is a short sequence of ``add_*``
   functions, one per constraint family (the actions, one action per slot, spot and area limits,
   the card row, the turn order, vesicle areas, card preconditions and transitions, boosts, stock,
   Health, final scoring), over a ``BuildContext`` that holds what they share, written against the
   solver-neutral :mod:`solver.encoding.linear`;
2. **decoding** (:mod:`solver.optimise.decode`): a solution read back as the engine's actions, and a
   plan written as variable values (hints, fixed prefixes);
3. **the run** (:mod:`solver.optimise.run`): CP-SAT with the measured settings, a MIP engine
   confirming it, and why no plan exists. ``tools/model_digest.py`` and
``tests/test_model_digest.py`` show that a restructuring leaves the emitted model unchanged.

Variables are named with their indices, e.g. ``x[r2,s3,rough-er-1,ph]`` (round 2, slot 3),
``stock[r2,s3,atp]``, ``er[r1,s2,ph]``. Each constraint block is tagged with the rule section it
encodes (``LinearModel.section``); section IDs are those of ``data/rules/cytosis/game.yaml``.

Solver settings are the ones measured in ``/work/shared/notes/cp-sat-planning.md``: 1 worker with
``linearization_level=2`` and a fixed seed (the same plan every run); 2 workers with
``num_full_subsolvers=2`` and the ``max_lp`` + ``quick_restart`` subsolvers;
``presolve_inclusion_work_limit=0`` always (ortools #5293). ``python -m solver bench --ablation``
measures the model options (symmetry breaking, tight bounds), hints and 2 workers.

Grey flasks make the proof harder (a slot may hold a grey or a normal flask). What helped on the
12-placement scale puzzle with one grey flask a round (3 seeds, CP-SAT deterministic seconds 7.1
-> 2.3 on average): identical free spots ordered by their flask counts (grey flasks included), and
per-slot stock bounds that count at most G grey slots a round, each at its gain less 4 ATP. What
did not: one grey slot before every turn (2F slots a round: worse than F + G), and the ordering
of pure gains (it helps without grey flasks, and slows the proof with them, so it is off there).
The identical-spot ordering is the other way round: without grey flasks, beside the ordering of
pure gains, it slowed the proof of the 16- and 24-placement scale puzzles about twofold (5 seeds),
so it is on with grey flasks only.
"""
from __future__ import annotations

from solver.encoding.acts import Act
from solver.optimise.decode import decode, hint_values, prefix_values
from solver.optimise.model.build import build_model, unsupported_reason
from solver.optimise.model.context import BuildContext
from solver.optimise.model.market import market_arrival, market_queue
from solver.optimise.model.plan_model import OpenTurn, Options, PlanModel, Slot, UnsupportedPuzzle
from solver.optimise.model.terms import count_path
from solver.optimise.model.vesicles import add_card_transitions
from solver.optimise.run import (
    MIP_BACKENDS, TWO_WORKERS, TWO_WORKERS_MARKET, PlannerResult, Progress, SearchStop, cpsat_parameters,
    explain_infeasible, solve_cpsat, solve_highs, solve_mip, subsolvers_for, to_cpsat_model,
)

__all__ = [
    "MIP_BACKENDS", "TWO_WORKERS", "TWO_WORKERS_MARKET", "Act", "BuildContext", "OpenTurn", "Options", "PlanModel",
    "PlannerResult", "Progress", "SearchStop", "Slot", "UnsupportedPuzzle", "add_card_transitions", "build_model",
    "count_path", "cpsat_parameters", "decode", "explain_infeasible", "hint_values", "market_arrival", "market_queue",
    "prefix_values", "solve_cpsat", "solve_highs", "solve_mip", "subsolvers_for", "to_cpsat_model", "unsupported_reason",
]
