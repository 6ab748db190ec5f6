"""View models shared by the puzzle pages: links to rule sections, the step tables (optimal and
greedy), the other readings' optima, the score breakdown and board-value rows."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .. import i18n
from ..refs import relative
from .play_data import names_of
from .step_texts import step_text
from .model import GAME, STOCK_FIELDS, BoardItem, Link, PuzzleEntry, PuzzleSet, StepRow
from .texts import AREAS, RESOURCES, UI, link_title, md_inline

if TYPE_CHECKING:
    from solver.game.model import Puzzle

    from ..site_data import SiteData


def section_link(site: SiteData, section_id: str, lang: str, page: str) -> Link | None:
    """Link to a rule section on its chapter page (None if the game lacks it)."""
    section = site.games[GAME].sections.get(section_id)
    if section is None:
        return None
    target = f"{GAME}/{section.chapter}.md"
    title = section.texts[lang].title
    # The tooltip is plain text: the title's emphasis markers (``*Produzione ATP*``) are dropped.
    return Link(md_inline(title), f"{relative(page, target)}#{section.anchor}", link_title(title.replace("*", "")))


def rules_used(site: SiteData, steps: list[dict[str, Any]], lang: str, page: str) -> tuple[Link, ...]:
    """Every rule section the steps link to, once, in order of first use."""
    ids = dict.fromkeys(s for step in steps for s in step["sections"])
    return tuple(link for link in (section_link(site, s, lang, page) for s in ids) if link)


def edition_label(edition: str, lang: str) -> str:
    return cast(str, UI[lang][f"edition_{edition}"])


def flask_label(flask: str, lang: str) -> str:
    if flask == "grey":
        return cast(str, UI[lang]["flask_grey"])
    if flask == "-":
        return cast(str, UI[lang]["flask_card"])
    return flask


def spot_label(puzzle: Puzzle, action: dict[str, Any], lang: str) -> str:
    """The spot (area name and the spot's name) or the non-placement action, escaped for Markdown."""
    kind = action.get("kind", "place")
    names = names_of(puzzle, lang)
    if kind == "exhaust":
        return md_inline(f"{UI[lang]['exhaust']}: {RESOURCES[action['resource']][lang]}")
    if kind == "play-card":
        return md_inline(f"{UI[lang]['play_card']}: {names.get(action.get('card', ''), '')}")
    if kind in ("trade", "income"):
        return md_inline(f"{UI[lang]['epigenetic_' + kind]}: {RESOURCES[action['resource']][lang]}")
    if kind == "peek":
        return md_inline(UI[lang]["epigenetic_peek"] + (f": {names.get(action['card'], action['card'])}" if action.get("card") else ""))
    if kind == "end-turn":
        return md_inline(UI[lang]["open_turn_end"])
    if kind in ("vaccinate", "respond"):
        return md_inline(UI[lang]["virus_" + kind])
    spot = puzzle.board.spot(action["spot"])
    return md_inline(f"{AREAS[spot.area.value][lang]}{names.get(spot.id, '')}")


def step_rows(site: SiteData, puzzle: Puzzle, steps: list[dict[str, Any]], lang: str, page: str) -> tuple[StepRow, ...]:
    """Rows of a step table from a record's step dicts."""
    rows = []
    names = names_of(puzzle, lang)
    for step in steps:
        links = tuple(link for link in (section_link(site, s, lang, page) for s in step["sections"]) if link)
        stock = step["state"]["stock"]
        rows.append(StepRow(step["index"], step["round"], flask_label(step["flask"], lang),
                            spot_label(puzzle, step["action"], lang), links,
                            step_text(step["events"], lang, names),
                            tuple(int(stock[f]) for f in STOCK_FIELDS), int(step["state"]["health"]),
                            uses_illustrative(puzzle, step["action"])))
    return tuple(rows)


def uses_illustrative(puzzle: Puzzle, action: dict[str, Any]) -> bool:
    """True when the action is about a card (or a goal) whose values are illustrative."""
    card = action.get("card")
    if card and puzzle.card(card).illustrative:
        return True
    return bool(action.get("goal"))


def greedy_view(site: SiteData, entry: PuzzleEntry, lang: str, page: str) -> dict[str, Any]:
    """The greedy contrast: its score against the optimum, and its steps."""
    ui = UI[lang]
    greedy, optimum = entry.record["greedy"], entry.solution.health
    steps = step_rows(site, entry.puzzle, greedy["steps"], lang, page)
    if not greedy["complete"]:
        summary = ui["greedy_stuck"].format(n=len(steps))
    elif optimum is None:
        summary = ui["greedy_alone"].format(greedy=greedy["health"])
    else:
        diff = (ui["greedy_same"] if greedy["health"] == optimum
                else ui["greedy_less"].format(n=(optimum or 0) - greedy["health"]))
        summary = ui["greedy_score"].format(greedy=greedy["health"], optimum=optimum, diff=diff)
    return {"summary": summary, "steps": steps, "health": greedy["health"]}


def item_row(item: BoardItem, lang: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """One board value as a table row; ``label``: the item as a reader names it (a spot by its
    place in the area, from ``names``; otherwise the area's name), where ``name`` is its data id."""
    ui = UI[lang]
    label = AREAS[item.area][lang]
    if names is not None and item.kind.value == "spot" and names.get(item.name):
        label = names[item.name].lstrip(", ")
    return {"kind": ui[f"kind_{item.kind.value}"], "area": AREAS[item.area][lang], "name": item.name,
            "label": md_inline(label),
            "value": item.value[lang], "prov": item.provenance.value, "prov_label": ui[f"prov_{item.provenance.value}"]}


def breakdown_lines(breakdown: dict[str, Any] | None, lang: str) -> list[str]:
    if not breakdown:
        return []
    names = UI[lang]["breakdown"]
    return [f"{names[k]}: {breakdown[k]}" for k in names if k in breakdown and (breakdown[k] or k == "in_game")]


def board_title(puzzle_set: PuzzleSet, board_id: str, lang: str) -> str:
    for side, title, _editions, _items in puzzle_set.boards:
        if side == board_id:
            return title.get(lang) or title["en"]
    return board_id


def other_readings_view(record: dict[str, Any], lang: str, names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The other readings' optima (:func:`other_readings_record`), in words, with the plan where
    the optimum moves."""
    ui, this = UI[lang], record["solution"].get("health")
    out = []
    for other in record.get("other_readings", []):
        if other["status"] == "infeasible":
            summary = ui["other_none"]
        elif other["status"] != "optimal":
            summary = ui["other_unproven"]
        elif other["same"]:
            summary = i18n.plural("puzzles.other_same", lang, other["health"])
        else:
            summary = i18n.plural("puzzles.other_differs", lang, other["health"], this=this)
        steps = [md_inline(step_text(s["events"], lang, names)) for s in other.get("steps", [])]
        words = ui["ruling_names"][other["ruling"]]
        out.append({"ruling": other["ruling"], "reading": other["reading"], "summary": summary, "steps": steps,
                    "ruling_name": md_inline(words["name"]), "reading_name": md_inline(words[other["reading"]])})
    return out
