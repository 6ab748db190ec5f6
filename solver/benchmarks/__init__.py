"""The planner's benchmarks (``python -m solver bench``), outside the runtime's import path.

Nothing that solves, replays or renders a puzzle imports this package: the command line imports
:func:`solver.benchmarks.cli.main` only when ``bench`` runs (``tests/test_layering.py`` checks it).
The modules, by role:

- :mod:`~solver.benchmarks.cli`: the ``bench`` command: which series runs, what is printed and written;
- :mod:`~solver.benchmarks.scale`: CP-SAT, HiGHS and the exhaustive search timed on the shipped
  puzzles and the generated scale curve, and the model options' ablation;
- :mod:`~solver.benchmarks.deck`: the deck series, every engine on the refilling card row (issue #15);
- :mod:`~solver.benchmarks.suite`: the bounding methods on the deck suite (issue #35), which
  :mod:`~solver.benchmarks.bounds` defines (with the cuts of :mod:`~solver.optimise.caps`) and
  :mod:`~solver.benchmarks.deck_suite` deals (the files under ``data/bench/deck/``);
- :mod:`~solver.benchmarks.tables` and :mod:`~solver.benchmarks.plots`: the printed tables and the SVG plots;
- :mod:`~solver.benchmarks.results`: ``bench.json`` (its shape) and the output folder.
"""
