"""The puzzles' committed records: everything computed for a puzzle, computed once and checked on
every build (as perft results are committed and re-checked, not recomputed).

- :mod:`.compute` computes a puzzle's answers (:mod:`.solution`, :mod:`.regret`, :mod:`.why`); it is
  where the code fingerprint starts (:mod:`.fingerprint`);
- :mod:`.record` is the file's layout, its inputs' digests and the field-by-field comparison;
- :mod:`.pipeline` computes many puzzles in parallel, with progress;
- :mod:`.store` is the build's side: read, check (:mod:`.checks`), compute only what is missing;
- :mod:`.cli` is ``python -m generator records`` (``make records``, ``make reprove``).

This package's ``__init__`` imports nothing: it is inside the fingerprint's closure.
"""
