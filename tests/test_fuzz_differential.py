"""The differential fuzzer (``tests/fuzz_differential.py``): random small puzzles over every
feature, the exhaustive search's optimum against the CP-SAT planner's, every plan replayed in the
rules engine. A disagreement fails with the shrunk counterexample saved as a puzzle file.

Fast tier: 200 puzzles of 1-2 placements, CP-SAT on every 4th. Slow tier (``-m slow``): 2,000
puzzles of 1-3 placements (``CELLULA_FUZZ_COUNT`` to change), CP-SAT on all it models. A puzzle
the exhaustive search cannot finish within ``MAX_NODES`` states is skipped; the coverage test
bounds how many are.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest

from fuzz_differential import TooLarge, check_seed, fuzz_puzzle_data, load
from solver.optimise.planner import unsupported_reason

BATCH = 25
FAST = 200
SLOW = int(os.environ.get("CELLULA_FUZZ_COUNT", "2000"))
SLOW_OFFSET = 100_000
"""The slow tier draws other seeds than the fast one."""


def _run(seeds, placements, cpsat_every):
    failures, skipped = [], 0
    for seed in seeds:
        try:
            reason = check_seed(seed, placements, cpsat=seed % cpsat_every == 0)
        except TooLarge:
            skipped += 1
            continue
        if reason is not None:
            failures.append(reason)
    assert not failures, "\n".join(failures)
    assert skipped <= len(seeds) // 5, f"{skipped} of {len(seeds)} puzzles too large for the exhaustive search"


@pytest.mark.parametrize("batch", range(FAST // BATCH))
def test_engines_agree_on_random_puzzles(batch):
    _run(range(batch * BATCH, (batch + 1) * BATCH), (1, 2), cpsat_every=4)


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(max(1, SLOW // 100)))
def test_engines_agree_on_many_random_puzzles(batch):
    start = SLOW_OFFSET + batch * 100
    _run(range(start, start + min(100, SLOW - batch * 100)), (1, 3), cpsat_every=1)


def test_generator_covers_every_feature():
    """The puzzles drawn really cover what the fuzzer claims."""
    seen: Counter[str] = Counter()
    for seed in range(FAST):
        data = fuzz_puzzle_data(seed, (1, 2))
        puzzle = load(data)
        seen[data["edition"]] += 1
        seen[f"players-{data['players']}"] += 1
        seen[f"board-{data['board']}"] += 1
        seen["epigenetic-" + str(data.get("epigenetic"))] += 1
        seen["virus-event"] += any(e and e.startswith("virus-") for e in data["events"])
        seen["virus-card"] += any(c["type"] == "virus-attack" for c in data["cards"])
        seen["deck"] += bool(data["deck"])
        seen["laureates-taken"] += any("laureates" in v for v in data["occupied"].values())
        seen["card-row-taken"] += any(s.startswith("card-row") for v in data["occupied"].values() for s in v)
        seen["not-first"] += data.get("first_player") is False
        seen["planner"] += unsupported_reason(puzzle) is None
        for name, value in data["rulings"].items():
            seen[f"{name}={value}"] += 1
    for key in ("1e", "2e", "players-2", "players-3", "players-4", "board-2p", "board-3-5p", "virus-event",
                "virus-card", "deck", "laureates-taken", "card-row-taken", "not-first", "planner",
                "disk-card=at-er", "disk-card=at-exocytosis", "removed-disk-cubes=to-supply",
                "disk-load=more-allowed"):
        assert seen[key] > 0, key
    for card in ("atp-exchange", "extra-resource", "cheap-grey-flask", "round-income", "free-card", "peek-deck"):
        assert seen["epigenetic-" + card] > 0, card
