"""The puzzle feature, whole: worked examples on the site, the interactive board and play mode.

- :mod:`.feature` registers the ``puzzles`` feature (loader, page producer, play assets, the
  ``records`` command) and is the package's public interface; the page side is :mod:`.model`,
  :mod:`.texts`, :mod:`.board`, :mod:`.loading`, :mod:`.views`, :mod:`.statement`, :mod:`.proof`,
  :mod:`.why` (why optimal, level), :mod:`.bench_page` and :mod:`.pages` (the producer);
- play mode: :mod:`.play_data` (the board's frames, the move tables and the play data each page
  loads), :mod:`.play_assets` (the engine's sources and Pyodide copied into the built site),
  :mod:`.play_offline` (Pyodide as classic scripts for the offline build from file://);
- what also runs in the browser, in Pyodide, with :mod:`solver.game`: :mod:`.play_runtime` (the
  play session) and :mod:`.move_words` (a move in the reader's words), with :mod:`.step_texts`
  (a step's line at build time) beside them. These import nothing but :mod:`solver.game` and each
  other.

This ``__init__`` imports nothing: :mod:`.play_runtime` and :mod:`.move_words` are in the records'
fingerprint (:mod:`generator.proofs.fingerprint`) and in the browser, and importing them must not
load the page producers.
"""
