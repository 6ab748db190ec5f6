"""The abstract action a slot of the planner's model holds (:class:`Act`): solver-neutral, so the
rules' encodings beside the engine (``solver/game/rules/``) can name it without the optimiser."""
from __future__ import annotations

from dataclasses import dataclass

from solver.game.model import Resource, Spot


@dataclass(frozen=True)
class Act:
    """An abstract action of a slot: a placement (spot + card/goal) or an exhausted flask."""

    spot: Spot | None = None
    card: str | None = None
    goal: str | None = None
    resource: Resource | None = None
    disk: str | None = None
    """Exocytosis: the disk (named by the card it was started for) completing ``card``, when
    that is another card (ruling ``disk-card``). Golgi: the disk taking ``card``'s cube, when that
    is another card's (:mod:`solver.game.rules.golgi`)."""
    other_cube: bool = False
    """Exocytosis: the disk carries another card's Golgi cube (its Golgi placement named another
    card); the engine's action is the same, the disk's load is not."""

    @property
    def label(self) -> str:
        if self.spot is None:
            assert self.resource is not None, "an act without a spot is an exhausted flask"
            return f"exhaust-{self.resource.value}"
        return ",".join(p for p in (self.spot.id, self.card, self.goal, self.disk and f"disk:{self.disk}",
                                    self.other_cube and "other-cube") if p)

    @property
    def disk_card(self) -> str | None:
        """The card whose disk this action moves (Golgi, Exocytosis)."""
        return self.disk or self.card
