"""The statement of a puzzle page: the statement table (edition, board side, events, opponents,
goals, rulings...), the starting position and the puzzle's cards with the rulebook sections that
print them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from solver.io.loading import load_yaml

from .play_data import UI as UI_PLAY, names_of
from ..refs import relative
from .board import spot_value
from .model import ASSUMPTIONS_PAGE, STOCK_FIELDS, PuzzleEntry
from .texts import AREAS, CARD_TYPES, RESOURCES, UI, md_inline, stock_text
from .views import edition_label, section_link

if TYPE_CHECKING:
    from solver.game.model import Puzzle

    from ..site_data import SiteData

EVENT_SECTIONS = {"reduce-atp-cost": "events.reduce-atp-cost", "toxicity": "events.toxicity",
                  "virus-ebola": "virus.event-cards", "virus-influenza": "virus.event-cards",
                  "virus-rhinovirus": "virus.event-cards"}
"""Rule section of each non-boost event (boosts: ``events.boost``)."""


def card_views(site: SiteData, puzzle: Puzzle, lang: str, page: str) -> list[dict[str, Any]]:
    """The puzzle's cards with their values and badge (rulebook card or illustrative)."""
    rulebook = rulebook_card_sections()
    names = names_of(puzzle, lang)
    out = []
    for card in puzzle.cards:
        values = []
        if not card.gain.is_zero():
            values.append(f"{UI[lang]['gain']} {stock_text(card.gain, lang)}")
        if card.color:
            values.append(f"{UI[lang]['color']}: {card.color}")
        sections = rulebook.get((card.type.value, card.cost.as_tuple(), card.health), ())
        if card.strain is not None:     # a Virus Attack card: its strain, no values (virus.cell-component-cards)
            values.append(card.strain.value)
            sections = ("virus.cell-component-cards",)
        links = tuple(link for link in (section_link(site, s, lang, page) for s in sections) if link)
        out.append({"id": md_inline(card.id), "name": md_inline(names[card.id]), "type": CARD_TYPES[card.type.value][lang],
                    "cost": md_inline(stock_text(card.cost, lang)), "health": card.health,
                    "extra": md_inline("; ".join(values)), "illustrative": card.illustrative, "links": links})
    return out


def rulebook_card_sections() -> dict[tuple[str, tuple[int, int, int, int, int], int], tuple[str, ...]]:
    """(type, cost tuple, health) of the rulebook's fully printed cards -> the sections printing them."""
    from solver import Stock
    from solver.io.puzzle import RULEBOOK_CARDS
    data = load_yaml(RULEBOOK_CARDS)[0] or {}
    return {(c["type"], Stock(**c["cost"]).as_tuple(), c["health"]): tuple(c.get("sections", ()))
            for c in data.get("cards", [])}


def event_text(site: SiteData, puzzle: Puzzle, event: str | None, lang: str, page: str) -> str:
    """An event, linked to its rule section (boosts say what they add and where)."""
    if event is None:
        return cast(str, UI[lang]["no_event"])
    if event.startswith("boost-"):
        link = section_link(site, "events.boost", lang, page)
        boost = puzzle.board.boost(event)
        extra = (" " + md_inline(UI[lang]["boost_value"].format(
            resource=RESOURCES[boost.resource.value][lang],
            areas=", ".join(AREAS[a.value][lang] for a in boost.areas)))) if boost else ""
        return (f"[{link.label}]({link.href})" if link else md_inline(event)) + extra
    link = section_link(site, EVENT_SECTIONS.get(event, ""), lang, page)
    if event.startswith("virus-"):      # the strain, with the Virus Event rules linked
        return f"`{md_inline(event)}`" + (f" ([{link.label}]({link.href}))" if link else "")
    return f"[{link.label}]({link.href})" if link else md_inline(event)


def statement_rows(site: SiteData, entry: PuzzleEntry, board_title: str, lang: str, page: str) -> list[tuple[str, str]]:
    """(label, Markdown value) rows of the statement table."""
    ui, puzzle = UI[lang], entry.puzzle
    names = names_of(puzzle, lang)
    assumptions = relative(page, ASSUMPTIONS_PAGE) + f"#board-{puzzle.board.id}"
    rows = [(ui["edition"], edition_label(puzzle.edition.value, lang)),
            (ui["board"], f"{md_inline(board_title)} ([{ui['assumptions_link']}]({assumptions}))"),
            (ui["players"], str(puzzle.players)), (ui["rounds"], str(puzzle.rounds)),
            (ui["flasks"], str(puzzle.flasks)), (ui["grey_flasks"], str(puzzle.grey_flasks))]
    events = [event_text(site, puzzle, puzzle.events[r] if r < len(puzzle.events) else None, lang, page)
              for r in range(puzzle.rounds)]
    rows.append((ui["events"], "; ".join(f"{ui['round_n'].format(n=r + 1)}: {e}" for r, e in enumerate(events))))
    occupied = [f"{ui['round_n'].format(n=r + 1)}: " + ", ".join(
                    md_inline(f"{AREAS[puzzle.board.spot(s).area.value][lang]}{names.get(s, '')}") for s in spots)
                for r, spots in enumerate(puzzle.occupied) if spots]
    rows.append((ui["occupied"], "; ".join(occupied) or ui["none"]))
    goals = []
    for goal in puzzle.goals:
        title = dict(goal.title).get(lang) or goal.id
        types = " / ".join(CARD_TYPES[t.value][lang] for t in goal.card_types)
        goals.append(md_inline(f"{title}: " + ui["goal_text"].format(points=goal.points, count=goal.count,
                                                                        types=types, markers=goal.markers))
                     + f' <span class="cellula-badge cellula-badge--illustrative">{ui["illustrative"]}</span>')
    rows.append((ui["goals"], "; ".join(goals) or ui["none"]))
    opponents = [ui["detox_figure_one" if d.cards == 1 else "detox_figure"].format(amount=d.amount, cards=d.cards)
                 for d in puzzle.detox_opponents]
    opponents += [ui["opp_disk"].format(area=AREAS[d.area.value][lang], health=d.health) for d in puzzle.opponent_disks]
    opponents += [ui["opp_hormones"].format(round=r + 1, types=", ".join(CARD_TYPES[t.value][lang] for t in types))
                  for r, types in enumerate(puzzle.opponent_hormones) if types]
    rows.append((ui["opponents"], md_inline("; ".join(opponents)) or ui["none"]))
    if puzzle.uses_virus:
        from solver.game.model import Strain
        rows.append((ui["antibodies"], ", ".join(f"{UI_PLAY[lang]['names']['strains'][s.value]} {n}"
                                                 for s, n in zip(Strain, puzzle.antibodies))))
        rolls = []
        for source, roll in puzzle.virus_rolls:
            others = ", ".join(ui["virus_seat"].format(seat=o.seat if o.seat else ui["virus_dummy"], response=o.response)
                               for o in roll.others)
            where = (ui["round_n"].format(n=source.removeprefix("round-")) if source.startswith("round-")
                     else names.get(source, source))
            rolls.append(md_inline(ui["virus_roll"].format(source=where, roll=roll.roll, others=others)))
        link = section_link(site, "virus.event-attack", lang, page)
        rows.append((ui["virus_rolls"], "; ".join(rolls) + (f" ([{link.label}]({link.href}))" if link else "")))
    if puzzle.epigenetic is not None:
        link = section_link(site, puzzle.epigenetic.section, lang, page)
        rows.append((ui["epigenetic_card"], f"[{link.label}]({link.href})" if link else md_inline(puzzle.epigenetic.value)))
    rows.append((ui["objective"], ui["objective_text"]))
    from solver.game.model import RULING_DEFAULTS, Ruling
    readings = [md_inline(f"{ui['ruling_names'][name]['name']}: {ui['ruling_names'][name][reading]}")
                + (f" ({ui['ruling_default']})" if reading == RULING_DEFAULTS[Ruling(name)] else "")
                for name, reading in puzzle.readings().items()]
    rows.append((ui["rulings"], "; ".join(readings) or ui["none"]))
    return rows


def start_view(puzzle: Puzzle, lang: str) -> dict[str, Any]:
    """The starting stock, hand, card row (with slot prices) and deck, cards by name."""
    ui = UI[lang]
    names = names_of(puzzle, lang)
    row = []
    for slot, card in zip(puzzle.board.row_slots, puzzle.row):
        price = spot_value(slot, lang).split(": ", 1)[-1]
        if slot.provenance != "rulebook":
            price += f", {ui['prov_' + slot.provenance]}"
        row.append(md_inline(ui["slot"].format(n=slot.row_slot + 1, price=price) + ": " + (names.get(card, card) if card else ui["empty"])))
    return {"stock": tuple(getattr(puzzle.start, f) for f in STOCK_FIELDS), "health": puzzle.health,
            "hand": ", ".join(md_inline(names.get(c, c)) for c in puzzle.hand) or ui["none"],
            "row": "; ".join(row) or ui["none"],
            "deck": ", ".join(md_inline(names.get(c, c)) for c in puzzle.deck) or ui["none"]}
