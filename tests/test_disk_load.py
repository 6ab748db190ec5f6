"""The 2nd-edition ruling disk-load: the ER step loads the card's quantity (``exact``, default) or
may load more (``more-allowed``, EN 276 "but may have more" against EN 295 "according to the
quantity shown") (``solver.game.rules.disk_load``)."""
from __future__ import annotations

import pytest

from solver import solve
from solver.game.engine import apply, initial_state
from solver.game.errors import IllegalActionError
from solver.optimise.planner import unsupported_reason
from solver.io.puzzle import load_board
from solver_fixtures import make, place, run

SH1 = {"id": "sh1", "type": "steroid-hormone", "cost": {"atp": 0, "lipid": 2, "carb": 1}, "health": 3, "illustrative": True}
SH2 = {"id": "sh2", "type": "steroid-hormone", "cost": {"atp": 0, "lipid": 3, "carb": 1}, "health": 8, "illustrative": True}
F = {"id": "f", "type": "macromolecule", "gain": {"atp": 1}, "illustrative": True}


def puzzle(reading=None):
    """Round 1 leaves the Smooth ER and the Free card slot (and exhausting); round 2 the Free slot,
    the Golgi and Exocytosis. The 8-point hormone arrives from the deck in round 2."""
    spots = [s.id for s in load_board("3-5p").spots]
    data = dict(edition="2e", rounds=2, flasks=3, grey_flasks=0, hand=["sh1"], row=["f"], deck=["sh2"],
                cards=[SH1, SH2, F], start={"lipid": 3, "carb": 1},
                occupied={1: [s for s in spots if s not in ("smooth-er-detox", "card-row-1")],
                          2: [s for s in spots if s not in ("card-row-1", "golgi-1", "exocytosis-1")]})
    if reading:
        data["rulings"] = {"disk-load": reading}
    return make(**data)


def test_exact_load_refuses_more():
    with pytest.raises(IllegalActionError, match="disk-load: exact"):
        apply(initial_state(puzzle()), place("smooth-er-detox", card="sh1", amount=3))


def test_more_allowed_loads_more():
    s = run(puzzle("more-allowed"), place("smooth-er-detox", card="sh1", amount=3))
    assert s.disk_for("sh1").load.lipid == 3 and s.stock.lipid == 0


@pytest.mark.parametrize("reading,health", [("exact", 4), ("more-allowed", 8)])
def test_optimum_follows_the_reading(reading, health):
    """By hand. more-allowed: round 1 exhaust twice, the Smooth ER for the 3-point hormone with all
    3 Lipids; round 2 Golgi (the Carbohydrate), buy the 8-point hormone (it came from the deck),
    Exocytosis of the 8-point hormone from that disk (3 Lipids, 1 Carbohydrate): 8. exact: the disk
    carries 2 Lipids, only the 3-point hormone can use it (the 8-point one would need the Smooth ER
    in round 2, taken): 3, and the 3 other flasks exhaust 3 Lipids, with the 1 left over a set of 4: 4."""
    assert solve(puzzle(reading)).health == health


def test_planner_hands_more_allowed_to_the_exhaustive_search():
    assert "disk-load" in (unsupported_reason(puzzle("more-allowed")) or "")
    assert unsupported_reason(puzzle()) is None
