"""A second, independent Cytosis oracle, written from the rulebooks alone.

It shares no code with ``solver/`` (``tests/test_oracle.py`` parses these modules and fails if any
of them imports ``solver``) and reads puzzle files with PyYAML itself. Its purpose is to cross-check
the project's engine, exhaustive search and CP-SAT planner on many small random puzzles.

- :mod:`tests.oracle.rules`: the single-player flask-placement game as a puzzle states it, read
  sentence by sentence from ``data/sources/cytosis-it-1e.txt`` (1st edition) and
  ``data/sources/cytosis-en-2e.txt`` (2nd edition); the scope (:func:`~tests.oracle.rules.supports`)
  and every reading taken where the text is ambiguous are listed in its docstring.
- :mod:`tests.oracle.search`: memoised depth-first search for the best final Health.
- :mod:`tests.oracle.puzzles`: a seeded generator of random small puzzles within the scope.
"""
from .rules import Readings, OutOfScope, load, supports
from .search import best, replay

__all__ = ["Readings", "OutOfScope", "load", "supports", "best", "replay"]
