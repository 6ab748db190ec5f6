"""The 1st-edition ruling removed-disk-cubes: the cubes of an own disk removed from a full area go
back to the owner with the disk (``returned``, default; the 2nd edition says so) or to the general
supply (``to-supply``: IT 298 returns "il Disco")."""
from __future__ import annotations

import pytest

from solver.game.engine import returns
from solver.optimise.planner import build_model, solve_cpsat
from solver.optimise.search import exhaustive
from solver_fixtures import make, place, run

PH = [{"id": f"ph{i}", "type": "protein-hormone", "cost": {"atp": 0, "protein": 2, "carb": 1}, "health": 5,
       "illustrative": True} for i in (1, 2)]


def puzzle(reading=None, edition="1e"):
    """One budding location in the Rough ER; two protein hormones; 4 mRNA; two flasks."""
    data = dict(edition=edition, rounds=1, flasks=2, grey_flasks=0, hand=["ph1", "ph2"], cards=PH,
                start={"mrna": 4}, board_override={"vesicles": {"rough-er": 1}})
    if reading:
        data["rulings"] = {"removed-disk-cubes": reading}
    return make(**data)


def plan(p):
    bump = {"bump": "own:ph1"} if p.edition.value == "1e" else {}
    return run(p, place("rough-er-1", card="ph1"), place("rough-er-2", card="ph2", **bump))


@pytest.mark.parametrize("reading,proteins,score", [(None, 2, 1), ("returned", 2, 1), ("to-supply", 0, 0)])
def test_removed_disks_cubes_follow_the_reading(reading, proteins, score):
    """Hand derivation: the 2nd hormone's disk bumps the 1st (2 Proteins on it). Returned: 2 in
    stock + 2 on the remaining disk = 4 Proteins, 1 set of 3: 1. To the supply: 2 Proteins: 0."""
    s = plan(puzzle(reading))
    assert s.stock.protein == proteins and returns(s) == score


@pytest.mark.parametrize("reading", ["returned", "to-supply"])
def test_planner_and_search_agree_under_both_readings(reading):
    p = puzzle(reading)
    best, _, _ = exhaustive(p)
    res = solve_cpsat(build_model(p))
    assert res.status == "optimal" and res.objective == best


def test_second_edition_returns_the_cubes_always():
    assert "removed-disk-cubes" not in puzzle(edition="2e").readings()
    assert plan(puzzle(edition="2e")).stock.protein == 2


def test_the_ruling_is_in_play_only_where_an_area_can_fill():
    from solver.game.model import Ruling
    assert Ruling.REMOVED_DISK_CUBES in puzzle().rulings_in_play()
    free = make(edition="1e", rounds=1, flasks=2, grey_flasks=0, hand=["ph1", "ph2"], cards=PH)
    assert Ruling.REMOVED_DISK_CUBES not in free.rulings_in_play()
