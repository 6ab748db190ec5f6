"""Build-time data for the interactive puzzle board (issue #19, step 1).

The page's worked example is replayed through the rules engine here, at build time, and every
state along it is written into the page as JSON; ``docs/assets/board.js`` draws a schematic board
(SVG drawn by the project, no copied artwork) from it and turns the example into a step-through.
Without JavaScript the static step table stays the page's content.
"""
from __future__ import annotations

import json
from html import escape

# ---- UI strings (issue #19; to move into the string catalogue at merge) ---------------------
UI = {
    "it": {
        "board_title": "Plancia schematica",
        "board_desc": "Disegno schematico della plancia di Cytosis fatto da questo progetto (non la grafica del gioco): aree, spazi, spazi occupati, dischi e il loro carico, fila delle carte, riserva e Punti Salute, passo per passo lungo la soluzione ottima.",
        "prev": "Precedente",
        "next": "Successivo",
        "start": "Inizio",
        "step_of": "Passo {n} di {total}",
        "round": "Round {n}",
        "flasks_left": "Fiaschette rimaste: {n}",
        "health": "Punti Salute",
        "stock": "Riserva",
        "row": "Fila delle carte",
        "hand": "In mano",
        "completed": "Completate",
        "taken": "occupato",
        "grey": "grigia",
        "free": "libero",
        "disk": "disco",
        "empty_slot": "vuoto",
        "opponent_disk": "disco avversario",
        "keys_hint": "Frecce sinistra/destra per scorrere i passi.",
        "none": "nessuna",
        "stock_names": {"atp": "ATP", "mrna": "mRNA", "protein": "proteine", "carb": "carboidrati", "lipid": "lipidi"},
        "areas": {
            "nucleus": "Nucleo", "free-ribosome": "Ribosomi liberi", "smooth-er-lipids": "RE liscio (lipidi)",
            "smooth-er-detox": "RE liscio (detossificazione)", "rough-er": "RE rugoso", "golgi": "Apparato di Golgi",
            "plasma-membrane-glucose": "Membrana plasmatica (glucosio)", "exocytosis": "Esocitosi",
            "mitochondria": "Mitocondri", "cytoplasm": "Citoplasma", "laureates": "Premi Nobel",
            "card-row": "Fila delle carte",
        },
        "vesicles": {"smooth-er": "Vescicole RE liscio", "rough-er": "Vescicole RE rugoso", "golgi": "Vescicole Golgi"},
    },
    "en": {
        "board_title": "Schematic board",
        "board_desc": "A schematic drawing of the Cytosis board made by this project (not the game's artwork): areas, spots, taken spots, disks and what they carry, the card row, stock and Health Points, step by step along the optimal solution.",
        "prev": "Previous",
        "next": "Next",
        "start": "Start",
        "step_of": "Step {n} of {total}",
        "round": "Round {n}",
        "flasks_left": "Flasks left: {n}",
        "health": "Health Points",
        "stock": "Stock",
        "row": "Card row",
        "hand": "In hand",
        "completed": "Completed",
        "taken": "taken",
        "grey": "grey",
        "free": "free",
        "disk": "disk",
        "empty_slot": "empty",
        "opponent_disk": "opponent's disk",
        "keys_hint": "Left/right arrow keys step through.",
        "none": "none",
        "stock_names": {"atp": "ATP", "mrna": "mRNA", "protein": "protein", "carb": "carbohydrate", "lipid": "lipid"},
        "areas": {
            "nucleus": "Nucleus", "free-ribosome": "Free ribosomes", "smooth-er-lipids": "Smooth ER (lipids)",
            "smooth-er-detox": "Smooth ER (detox)", "rough-er": "Rough ER", "golgi": "Golgi apparatus",
            "plasma-membrane-glucose": "Plasma membrane (glucose)", "exocytosis": "Exocytosis",
            "mitochondria": "Mitochondria", "cytoplasm": "Cytoplasm", "laureates": "Laureates",
            "card-row": "Card row",
        },
        "vesicles": {"smooth-er": "Smooth ER vesicles", "rough-er": "Rough ER vesicles", "golgi": "Golgi vesicles"},
    },
}
# ---- end of UI strings ----------------------------------------------------------------------


def layout(puzzle) -> dict:
    """The board side as the drawing needs it: areas in board order, each with its spots, and the
    budding vesicle locations per vesicle area."""
    areas: dict[str, list[dict]] = {}
    for spot in puzzle.board.spots:
        areas.setdefault(spot.area.value, []).append(
            {"id": spot.id, "kind": spot.kind.value, "value": spot.value, "slot": spot.slot})
    return {
        "areas": [{"id": area, "spots": spots} for area, spots in areas.items()],
        "vesicles": [{"area": area.value, "count": count} for area, count in puzzle.board.vesicles],
    }


def frame(state, step=None, lang: str = "en") -> dict:
    """What the drawing shows of one state (after ``step``, or the start when ``step`` is None)."""
    return {
        "step": step.index if step else 0,
        "text": dict(step.text).get(lang, "") if step else "",
        "spot": step.action.spot if step else None,
        "round": state.round,
        "flasks_left": state.flasks_left,
        "stock": state.stock.as_dict(),
        "health": state.health,
        "placed": list(state.placed),
        "grey_spots": list(state.grey_spots),
        "disks": [{"area": d.area.value, "card": d.card, "load": d.load.as_dict(nonzero=True)} for d in state.disks],
        "opp_disks": [{"id": d.id, "area": d.area.value} for d in state.opp_disks],
        "row": list(state.row),
        "taken": list(state.taken),
        "hand": list(state.hand),
        "completed": list(state.completed),
        "done": state.done,
    }


def board_data(puzzle, plan: list[dict], lang: str) -> dict:
    """The layout and one frame per state of ``plan`` (the start, then after each step), every
    state computed by the rules engine."""
    from solver import Action, initial_state, replay
    steps, _final = replay(puzzle, [Action.from_dict(a) for a in plan])
    frames = [frame(initial_state(puzzle), None, lang)] + [frame(s.state, s, lang) for s in steps]
    return {"lang": lang, "layout": layout(puzzle), "frames": frames, "ui": UI[lang],
            "stock_names": STOCK_ORDER}


STOCK_ORDER = ("atp", "mrna", "protein", "carb", "lipid")
"""Order of the stock fields in the drawing (the Stock dataclass's own order)."""


def board_block(puzzle, plan: list[dict], lang: str) -> str:
    """The HTML the page carries: an empty container board.js fills, with its data as JSON.
    Empty when there is no plan to step through."""
    if not plan:
        return ""
    # A data attribute, not a <script>: the page sanitizer (generator/sanitize.py) keeps data-*
    # attributes and removes every inline script that is not a template's own.
    data = json.dumps(board_data(puzzle, plan, lang), ensure_ascii=False, separators=(",", ":"))
    ui = UI[lang]
    return (f'<div class="cellula-board" data-puzzle="{escape(puzzle.id)}" data-board="{escape(data, quote=True)}" hidden>'
            f'<p class="cellula-board__hint">{escape(ui["keys_hint"])}</p></div>')
