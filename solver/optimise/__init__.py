"""The optimisers and analyses over the rules engine: the CP-SAT/HiGHS planner (:mod:`.planner`,
over the abstract model of :mod:`.linear`), the exhaustive search (:mod:`.search`), the greedy
contrast (:mod:`.greedy`), the warm start for whole games (:mod:`.warm_start`), regret values
(:mod:`.regret`) and why an optimum is optimal (:mod:`.explain`), with the hard time limit they share
(:mod:`.deadline`). Each answers in terms of :mod:`solver.game`; none reads or writes a file.

This ``__init__`` imports nothing (the planner loads OR-Tools, which only its callers need).
"""
