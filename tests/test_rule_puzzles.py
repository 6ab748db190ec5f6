"""Adversarial puzzles (``data/puzzles/rule-*.yaml``): each aims at one rule and carries its optimum
derived by hand in a comment (``# Optimum derived by hand: N``), quoting the rule lines. The hand
figure must be the CP-SAT optimum and the exhaustive search's."""
from __future__ import annotations

import re

import pytest

from solver import load_puzzle, puzzle_files, solve
from solver.io.puzzle import expected_health
from solver.optimise.search import exhaustive

RULE_PUZZLES = [p for p in puzzle_files() if p.stem.startswith("rule-")]
HAND = re.compile(r"^# Optimum derived by hand: (\d+)$", re.M)


def hand_optimum(path) -> int:
    found = HAND.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path.name}: expected one '# Optimum derived by hand: N' line"
    return int(found[0])


def test_enough_adversarial_puzzles_in_both_editions():
    assert len(RULE_PUZZLES) >= 12
    assert {load_puzzle(p).edition.value for p in RULE_PUZZLES} == {"1e", "2e"}


@pytest.mark.parametrize("path", RULE_PUZZLES, ids=[p.stem for p in RULE_PUZZLES])
def test_hand_derived_optimum_is_reached_by_both_engines(path):
    puzzle = load_puzzle(path)
    hand = hand_optimum(path)
    assert expected_health(path) == hand
    sol = solve(puzzle, confirm=())
    assert sol.engine == "cpsat" and sol.status == "optimal" and sol.health == hand
    assert exhaustive(puzzle)[0] == hand


@pytest.mark.parametrize("path", RULE_PUZZLES, ids=[p.stem for p in RULE_PUZZLES])
def test_derivation_quotes_the_rule_it_aims_at(path):
    text = path.read_text(encoding="utf-8")
    assert re.search(r"^# Rule aimed at: ", text, re.M)
    assert re.search(r'^# .*"[^"]{12,}', text, re.M), "quote at least one rule line"


def test_readings_change_the_optimum_where_the_pages_say_so():
    """The two disk-card puzzles differ only by the ruling; their optima differ (3 and 0)."""
    a = load_puzzle([p for p in RULE_PUZZLES if p.stem == "rule-disk-named-at-exocytosis-1e"][0])
    b = load_puzzle([p for p in RULE_PUZZLES if p.stem == "rule-disk-card-at-er-1e"][0])
    assert a.readings()["disk-card"] == "at-exocytosis" and b.readings()["disk-card"] == "at-er"
    assert exhaustive(a)[0] == 3 and exhaustive(b)[0] == 0
