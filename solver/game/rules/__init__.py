"""Rule groups whose engine reading and planner encoding sit side by side.

Each module holds, for one rule group, the predicate (``why_not``), the effect (``apply``) and the
CP-SAT/HiGHS encoding (``encode_*``) over :class:`solver.encoding.linear.LinearModel`, so a reviewer reads both
readings together. The engine (:mod:`solver.game.engine`) and the planner (:mod:`solver.optimise.planner`) call
them; they import nothing from either (no import cycle). Rule groups not moved here yet live in
the engine and the planner as before.
"""
