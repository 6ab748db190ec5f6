"""Step texts give each cause its own event: a Phase 2 Toxicity loss is not a payment of the
round's last placement, a grey flask's fee is not folded into the spot's effect, and the Health lost
when another player buys a Virus Attack card at the next round's start is told as such."""
from __future__ import annotations

from solver.game.model import Stock
from solver.game.replay import replay
from solver.game.steps import StepEventKind as K
from solver.io.catalogue import describe_events
from solver_fixtures import make, place

VA = {"id": "va", "type": "virus-attack", "strain": "rhinovirus"}


def kinds(step):
    return [e.kind for e in step.events]


def test_toxicity_loss_is_its_own_event():
    p = make(edition="1e", rounds=2, flasks=1, grey_flasks=0, start={"mrna": 4}, events=[None, "toxicity"])
    steps, _ = replay(p, [place("nucleus-3"), place("nucleus-2")])
    first = steps[0]
    assert K.TOXICITY_LOSS in kinds(first) and K.PAY not in kinds(first)
    loss = next(e for e in first.events if e.kind is K.TOXICITY_LOSS)
    assert loss.value("stock") == Stock(mrna=2)       # 7 mRNA: lose 2
    assert "Toxicity (Phase 2): lose 2 mRNA" in describe_events(first.events, "en")
    assert "gain 3 mRNA" in describe_events(first.events, "en")


def test_grey_flask_fee_is_not_the_spots_effect():
    p = make(edition="2e", rounds=1, flasks=1, grey_flasks=1, start={"atp": 4, "carb": 1})
    steps, _ = replay(p, [place("mitochondria-6", grey=True), place("nucleus-3")])
    text = describe_events(steps[0].events, "en")
    assert "(grey flask, 4 ATP)" in text and "gain 6 ATP" in text and "pay 1 carbohydrate" in text


def test_virus_card_bought_by_another_player_is_its_own_event():
    """Phase 2 discards the left-most card (x), the Virus Attack card slides to the first slot, where
    another player's round-2 flask buys it."""
    x = {"id": "x", "type": "macromolecule", "gain": {"atp": 1}, "illustrative": True}
    p = make(edition="2e", players=3, rounds=2, flasks=1, grey_flasks=0, row=["x", "va"], cards=[VA, x],
             occupied={2: ["card-row-1"]},
             virus_rolls={"va": {"roll": 9, "others": [{"seat": 2, "response": 1}, {"seat": 3, "response": 1}]}})
    steps, _ = replay(p, [place("nucleus-3")])
    loss = [e for e in steps[0].events if e.kind is K.VIRUS_CARD_LOSS]
    assert loss and loss[0].value("points") == -1 and K.HEALTH not in kinds(steps[0])
