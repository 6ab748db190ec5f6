"""The puzzles' committed records: everything computed for a puzzle, computed once and checked on
every build (as perft results are committed and re-checked, not recomputed).

- :mod:`.compute` computes a puzzle's answers (:mod:`.solution`, :mod:`.regret`, :mod:`.why`);
- :mod:`.keys` is what they depend on (the engine's behaviour, the planner's model, the narrow
  fingerprints of :mod:`.fingerprint`): a record is stale when one of them changes;
- :mod:`.record` is the file's layout, its inputs' digests and the field-by-field comparison;
- :mod:`.certify` checks every field a page shows; :mod:`.ledger` remembers which answers were proved;
- :mod:`.pipeline` computes many puzzles in parallel, with progress;
- :mod:`.store` is the build's side: read, check (:mod:`.checks`), compute only what is missing;
- :mod:`.cli` is ``python -m generator records`` (``make records``, ``make reprove``).

This package's ``__init__`` imports nothing: a worker imports only what computing needs.
"""
