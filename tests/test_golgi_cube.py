"""The Golgi cube follows the card the player is now trying to complete (EN 317, IT 296) under the
ruling disk-card: at-exocytosis; under at-er the disk's own card gives it (``solver.game.rules.golgi``)."""
from __future__ import annotations

import pytest

from solver import solve
from solver.game.engine import apply, legal_actions
from solver.game.errors import IllegalActionError
from solver.optimise.planner import build_model, solve_cpsat, unsupported_reason
from solver.io.puzzle import load_board
from solver_fixtures import make, place, run

PH = {"id": "ph", "type": "protein-hormone", "cost": {"atp": 0, "protein": 2, "carb": 1}, "health": 7, "illustrative": True}
SR = {"id": "sr", "type": "steroid-receptor", "cost": {"atp": 0, "protein": 1, "lipid": 1}, "health": 3, "illustrative": True}


def puzzle(reading="at-exocytosis"):
    """A disk started for the protein hormone; no Carbohydrate anywhere (start 0, glucose taken),
    a Lipid in stock and the Steroid Hormone Receptor in hand."""
    return make(edition="2e", rounds=1, flasks=3, grey_flasks=0, hand=["ph", "sr"], cards=[PH, SR],
                start={"mrna": 2, "lipid": 1}, occupied={1: ["glucose-1", "glucose-2"]},
                rulings={"disk-card": reading})


def test_golgi_cube_of_the_card_now_aimed_at():
    s = run(puzzle(), place("rough-er-1", card="ph"), place("golgi-1", card="sr", disk="ph"))
    disk = s.disk_for("ph")
    assert disk is not None and disk.load.lipid == 1 and disk.load.carb == 0 and s.stock.lipid == 0
    s = apply(s, place("exocytosis-1", card="sr", disk="ph"))
    assert "sr" in s.completed and s.health == 3


def test_engine_offers_the_other_cube_only_when_it_differs():
    s = run(puzzle(), place("rough-er-1", card="ph"))
    golgi = {(a.card, a.disk) for a in legal_actions(s) if a.spot == "golgi-1"}
    assert ("sr", "ph") in golgi


def test_at_er_reading_keeps_the_disks_own_cube():
    s = run(puzzle("at-er"), place("rough-er-1", card="ph"))
    with pytest.raises(IllegalActionError, match="takes its own card's Golgi cube"):
        apply(s, place("golgi-1", card="sr", disk="ph"))


F = {"id": "f", "type": "macromolecule", "gain": {"atp": 1}, "illustrative": True}


@pytest.mark.parametrize("reading,health", [("at-exocytosis", 3), ("at-er", 2)])
def test_optimum_follows_the_reading(reading, health):
    """The receptor reaches the row only in round 2; round 1 leaves the Rough ER, the Free card slot
    and exhausting; round 2 the Free slot, the Golgi and Exocytosis; no Carbohydrate anywhere.

    at-exocytosis, by hand: round 1 exhaust 2 mRNA (4), Rough ER for the hormone (2 mRNA -> 2
    Proteins on its disk); round 2 buy the receptor, Golgi with the Lipid aimed at the receptor,
    Exocytosis of the receptor from the hormone's disk (2 Proteins >= 1, 1 Lipid): 3 (2 mRNA left,
    no set). at-er: the hormone never gets its Carbohydrate and the receptor's own disk would need
    the Rough ER in round 2: no card; the best is 1 + 3 exhausted Lipids and 2 + 2 mRNA, 2 sets: 2."""
    spots = [s.id for s in load_board("3-5p").spots]
    p = make(edition="2e", rounds=2, flasks=3, grey_flasks=0, hand=["ph"], row=["f"], deck=["sr"], cards=[PH, SR, F],
             start={"mrna": 2, "lipid": 1},
             occupied={1: [s for s in spots if s not in ("rough-er-1", "card-row-1")],
                       2: [s for s in spots if s not in ("card-row-1", "golgi-1", "exocytosis-1")]},
             rulings={"disk-card": reading})
    assert solve(p).health == health


def _round_trip_puzzle(reading):
    spots = [s.id for s in load_board("3-5p").spots]
    return make(edition="2e", rounds=2, flasks=3, grey_flasks=0, hand=["ph"], row=["f"], deck=["sr"], cards=[PH, SR, F],
                start={"mrna": 2, "lipid": 1},
                occupied={1: [s for s in spots if s not in ("rough-er-1", "card-row-1")],
                          2: [s for s in spots if s not in ("card-row-1", "golgi-1", "exocytosis-1")]},
                rulings={"disk-card": reading})


@pytest.mark.parametrize("reading,health", [("at-exocytosis", 3), ("at-er", 2)])
def test_planner_models_the_other_cube(reading, health):
    """CP-SAT models the disk that takes another card's cube (a second Golgi state): its optimum is
    the exhaustive search's, its plan replays, and the plan written back into the model fits it."""
    p = _round_trip_puzzle(reading)
    assert unsupported_reason(p) is None
    by_model = solve(p, engine="cpsat", confirm=())
    assert by_model.health == solve(p, engine="exhaustive").health == health
    assert solve_cpsat(build_model(p), hint=list(by_model.plan), fix_hint=True).objective == health


def test_the_other_cube_act_exists_only_where_the_reading_allows_it():
    golgi_moves = lambda p: {(a.card, a.disk) for a in build_model(p).acts if a.spot and a.spot.id == "golgi-1"}  # noqa: E731
    assert ("sr", "ph") in golgi_moves(_round_trip_puzzle("at-exocytosis"))
    assert ("sr", "ph") not in golgi_moves(_round_trip_puzzle("at-er"))
