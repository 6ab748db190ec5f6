"""Edition objects: every rule that differs between the Italian 1st edition (``1e``) and the
English 2nd edition (``2e``) is one named hook here, never an ``if edition`` in the engine.

Each hook's docstring names the rule sections (``data/rules/cytosis/game.yaml``) it implements.
"""
from __future__ import annotations

from collections.abc import Mapping

from .model import Area, Edition, Ruling


class Rules:
    """Hooks shared by both editions; subclasses override what differs."""

    edition: Edition

    def exhaust_allowed(self) -> bool:
        """May a flask be exhausted (tipped over for 1 mRNA, lipid or ATP)? (``gameplay.exhaust-flask``)"""
        raise NotImplementedError

    def ribosome_min_amount(self, readings: Mapping[str, str]) -> int:
        """Fewest mRNA a Free Ribosome placement translates (``spots.free-ribosome``);
        ``readings`` is the puzzle's :meth:`~solver.game.model.Puzzle.readings`."""
        raise NotImplementedError

    def discards_by_price(self) -> bool:
        """Does Phase 2 discard the cheapest card (True) or the left-most one (False)?
        (``gameplay.phase-2``)"""
        raise NotImplementedError

    def phase2_order(self) -> tuple[str, ...]:
        """The steps of Phase 2 in order: ``return-flasks``, ``refresh-row``, ``reveal-event``
        (``gameplay.phase-2``)."""
        raise NotImplementedError

    def discard_slots(self, row: tuple[str | None, ...], slot_costs: tuple[int, ...], count: int) -> tuple[int, ...]:
        """Which card-row slots are emptied in Phase 2 (``gameplay.phase-2``, ``two-player.gameplay``)."""
        raise NotImplementedError

    def removal_is_chosen(self) -> bool:
        """When an area's budding locations are full: does the active player choose the disk
        to remove (True) or is it the disk of the player highest on the Health Track (False)?
        (``spots.golgi``)"""
        raise NotImplementedError

    def area_limit(self, area: Area, players: int) -> int | None:
        """Most flasks (all colours, grey included) one area takes per round, or None for
        'one per spot' only (``two-player.gameplay``)."""
        return None

    def grey_flasks_count_for_area_limit(self, readings: Mapping[str, str]) -> bool:
        """Do the player's grey flasks count towards :meth:`area_limit`? (ruling
        ``grey-flask-area-limit``; only 1e has an area limit)."""
        return readings.get(Ruling.GREY_FLASK_AREA_LIMIT.value, "counts") == "counts"

    def exhaust_after_grey(self, readings: Mapping[str, str]) -> bool:
        """May the turn's flask be exhausted right after a grey flask? (ruling
        ``grey-then-exhaust``; only 2e exhausts flasks)."""
        return readings.get(Ruling.GREY_THEN_EXHAUST.value, "allowed") == "allowed"

    def detox_table(self, players: int) -> tuple[int, ...]:
        """End-game detox points by position (``scoring.detox``, ``two-player.scoring``)."""
        return (8, 5, 2)

    def detox_two_player_tie(self) -> int | None:
        """Points each player gets on a two-player detox tie when the rulebook states it
        outright, else None to use the general tie rules (``two-player.scoring``)."""
        return None

    def detox_tie_after_cards(self, readings: Mapping[str, str]) -> bool:
        """Two-player detox tie of :meth:`detox_two_player_tie`: only when the completed-card
        count ties too (ruling ``two-player-detox-tie: after-cards``), or on any equal amount
        (``amount``, the default)."""
        return readings.get(Ruling.TWO_PLAYER_DETOX_TIE.value) == "after-cards"

    def events(self) -> frozenset[str]:
        """Event kinds this edition's event deck has (``events.*``; ``virus`` with the Virus
        expansion, ``virus.event-cards``)."""
        return frozenset({"boost", "reduce-atp-cost", "virus"})

    def board_sides(self) -> frozenset[str]:
        """Board sides printed for this edition (``two-player.board``)."""
        return frozenset({"3-5p", "2p"})

    def epigenetic_cards(self) -> bool:
        """Does this edition have the Epigenetic Modification Cards (``epigenetic.*``)?"""
        return False

    def virus_participants(self, players: int) -> int | None:
        """Players ranked in a Virus attack, or None when the edition's Virus rules have no game
        of ``players`` (``virus.title``, ``virus.two-player-dummy``)."""
        return players if 3 <= players <= 5 else None

    def virus_allocation(self, participants: int) -> tuple[tuple[int, ...], bool]:
        """(resources gained by place, from the highest Antibody Response; whether the lowest loses
        1 resource or 1 Health Point) (``virus.allocation``)."""
        return {3: ((3, 1), True), 4: ((3, 2, 1), True), 5: ((4, 3, 2, 1), True)}[participants]


class FirstEdition(Rules):
    """Italian 1st edition (``cytosis-it-1e.txt``)."""

    edition = Edition.FIRST

    def exhaust_allowed(self) -> bool:
        """1e has no exhausting of flasks (``gameplay.exhaust-flask`` is 2e only)."""
        return False

    def ribosome_min_amount(self, readings: Mapping[str, str]) -> int:
        """1e: players "possono scambiare qualsiasi numero" of mRNA ("may trade any number"):
        zero included, so the placement needs no mRNA (``spots.free-ribosome``)."""
        return 0

    def discards_by_price(self) -> bool:
        """1e: "Scarta ... la Carta Componente Cellula più economica" (``gameplay.phase-2``)."""
        return True

    def phase2_order(self) -> tuple[str, ...]:
        """1e reveals the event before the row is refreshed (``gameplay.phase-2``)."""
        return ("return-flasks", "reveal-event", "refresh-row")

    def discard_slots(self, row: tuple[str | None, ...], slot_costs: tuple[int, ...], count: int) -> tuple[int, ...]:
        """1e discards the cheapest card(s): read here as the card(s) in the cheapest occupied
        slot(s), ties to the left (``gameplay.phase-2``; 2 cards with 2 players,
        ``two-player.gameplay``)."""
        filled = [i for i, c in enumerate(row) if c is not None]
        return tuple(sorted(sorted(filled, key=lambda i: (slot_costs[i], i))[:count]))

    def removal_is_chosen(self) -> bool:
        """1e: the active player chooses any disk in the full area (``spots.golgi``)."""
        return True

    def area_limit(self, area: Area, players: int) -> int | None:
        """1e two-player game on the 3-5 player board: one flask per area per round, except
        the card row (all 4), the Mitochondria (2 of 3) and the Smooth ER (one for lipids, one
        for detox/steroid: two areas here) (``two-player.gameplay``)."""
        if players != 2:
            return None
        return {Area.CARD_ROW: 4, Area.MITOCHONDRIA: 2}.get(area, 1)

    def detox_table(self, players: int) -> tuple[int, ...]:
        """8/5/2; with two players 6/3 (``scoring.detox``, ``two-player.scoring``)."""
        return (6, 3) if players == 2 else (8, 5, 2)

    def events(self) -> frozenset[str]:
        """1e adds the Toxicity event (``events.toxicity``)."""
        return frozenset({"boost", "reduce-atp-cost", "toxicity", "virus"})

    def virus_participants(self, players: int) -> int | None:
        """1e: "Per 2 - 5 giocatori"; with 2 players a "dummy" player is ranked too
        (``virus.two-player-dummy``)."""
        return 3 if players == 2 else players

    def virus_allocation(self, participants: int) -> tuple[tuple[int, ...], bool]:
        """1e: 2-3 players 3/1/lose, 4 players 3/2/1/lose, 5 players 4/3/2/1 and the lowest "Perde
        0 risorse" (the 2e table has the lowest lose 1) (``virus.allocation``)."""
        return {3: ((3, 1), True), 4: ((3, 2, 1), True), 5: ((4, 3, 2, 1), False)}[participants]

    def epigenetic_cards(self) -> bool:
        """The 1st edition box has "7 CARTE MODIFICAZIONE EPIGENETICA" (``components.epigenetic-cards``,
        ``epigenetic.*``); the English 2nd-edition rulebooks have none."""
        return True

    def board_sides(self) -> frozenset[str]:
        """1e has no two-player board side: two players use the base side with
        ``area_limit`` (``two-player.gameplay``)."""
        return frozenset({"3-5p"})


class SecondEdition(Rules):
    """English 2nd edition (``cytosis-en-2e.txt``)."""

    edition = Edition.SECOND

    def exhaust_allowed(self) -> bool:
        """2e lets a player exhaust a flask for 1 mRNA, lipid or ATP (``gameplay.exhaust-flask``)."""
        return True

    def ribosome_min_amount(self, readings: Mapping[str, str]) -> int:
        """2e: "they must return any number of black mRNA": at least one under the default
        reading of the ruling ``free-ribosome-zero`` (``at-least-one``), none allowed under
        ``zero-allowed`` (``spots.free-ribosome``)."""
        return 0 if readings.get(Ruling.FREE_RIBOSOME_ZERO.value) == "zero-allowed" else 1

    def discards_by_price(self) -> bool:
        """2e: "Remove the left-most card" (``gameplay.phase-2``)."""
        return False

    def phase2_order(self) -> tuple[str, ...]:
        """2e refreshes the row, then reveals the event (``gameplay.phase-2``)."""
        return ("return-flasks", "refresh-row", "reveal-event")

    def discard_slots(self, row: tuple[str | None, ...], slot_costs: tuple[int, ...], count: int) -> tuple[int, ...]:
        """2e discards the left-most card(s) (``gameplay.phase-2``; 2 with 2 players,
        ``two-player.gameplay``)."""
        filled = [i for i, c in enumerate(row) if c is not None]
        return tuple(filled[:count])

    def removal_is_chosen(self) -> bool:
        """2e: the disk of the player highest on the Health Track leaves (ties: earliest in
        turn order) (``spots.golgi``)."""
        return False

    def detox_table(self, players: int) -> tuple[int, ...]:
        """8/5/2; with two players 5/2 (``scoring.detox``, ``two-player.scoring``)."""
        return (5, 2) if players == 2 else (8, 5, 2)

    def detox_two_player_tie(self) -> int | None:
        """2e two-player: 'In case of a tie, each player receives 3 points' (``two-player.scoring``)."""
        return 3


RULES: dict[Edition, Rules] = {Edition.FIRST: FirstEdition(), Edition.SECOND: SecondEdition()}


def rules_for(edition: Edition) -> Rules:
    """The edition object for ``edition``."""
    return RULES[edition]
