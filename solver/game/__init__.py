"""The Cytosis game itself: the rules engine and everything it needs, and nothing else.

The single source of truth for the rules (:mod:`.engine` with the rule groups of :mod:`.rules`),
its vocabulary (:mod:`.model`, :mod:`.editions`), its errors (:mod:`.errors`), the memoised value
search over it (:mod:`.values`), what a step does as language-neutral events and how events become
a text (:mod:`.steps`, :mod:`.messages`) and the replay of a plan into steps (:mod:`.replay`).

Standard library only: the browser runs this package in Pyodide (play mode, every ``.py`` file
under it is shipped: ``generator/puzzles/play_assets.py``), so it reads no file and imports nothing
outside itself; the words of a step come in as data. ``tests/test_layering.py`` checks this on the
package. The one exception is each rule group's ``encode_*`` function (its CP-SAT encoding, kept
beside the rule as the project requires), which imports :mod:`solver.encoding.linear` inside the
function, where the browser never calls it.

This ``__init__`` imports nothing.
"""
