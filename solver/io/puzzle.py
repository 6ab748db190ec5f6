"""Loading and validating boards (``data/boards``) and puzzles (``data/puzzles``).

Structure is checked against :data:`PUZZLE_SCHEMA` (exported for editors with
``python -m solver schema``); references and rules (unknown ids, events longer than the
rounds, an override that empties an area…) are checked after. Every problem becomes one
:class:`~solver.game.errors.PuzzleError`: ``file:line: field: expected …, got …``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NoReturn

import jsonschema

from solver.game.editions import Rules, rules_for
from solver.game.errors import PuzzleError
from solver.game.rules import epigenetic
from .loading import MAX_ID_CHARS, DataPath, Located, LoadError, display_path, load_yaml
from solver.game.model import (
    Area, Board, Boost, Card, CardType, DetoxFigure, Edition, EpigeneticCard, Goal, OtherResponse, Strain, VirusRoll, OpponentDisk, Puzzle, Resource,
    RULING_CARDS, RULING_DEFAULTS, RULING_EDITIONS, RULING_READINGS, Ruling, Spot, SpotKind, Stock, VesicleArea,
    VESICLE_ROUTE, event_kind,
)

Raw = dict[str, Any]
"""A mapping as the YAML reader gives it, before the schema and the checks below make it typed values."""

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "data" / "boards"
PUZZLES_DIR = ROOT / "data" / "puzzles"
RULEBOOK_CARDS = PUZZLES_DIR / "cards" / "rulebook.yaml"

EVENT_IDS = ["boost-nucleus", "boost-glucose", "boost-respiration", "boost-smooth-er", "reduce-atp-cost", "toxicity",
             "virus-ebola", "virus-influenza", "virus-rhinovirus"]
ENZYME_COLOURS = ("red", "green", "blue", "yellow", "purple")
"""The words a puzzle file may name an enzyme card's colour with (a closed list: a typo is not a new
colour, which would make a set of different colours larger)."""
ENZYME_COLOURS_NOTE = ("The enzyme card's colour, for sets of different colours (scoring.enzyme-sets), one of "
                       f"{', '.join(ENZYME_COLOURS)} in a puzzle file: the rulebooks say sets hold up to five colours "
                       "without naming them, so these five words are labels, not the cards' printed colours.")
MAX_AMOUNT = 999
"""Largest integer any puzzle or board field holds (amounts, Health, prices, counts): far above
what a game reaches, low enough for every engine (CP-SAT bounds, the search's arithmetic)."""
_AMOUNT = {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}
_STOCK = {"type": "object", "additionalProperties": False,
          "properties": {r.value: _AMOUNT for r in Resource}}
_TEXT = {"type": "object", "required": ["en", "it"], "additionalProperties": False,
         "properties": {"en": {"type": "string", "minLength": 1}, "it": {"type": "string", "minLength": 1}}}
_ID = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$", "maxLength": MAX_ID_CHARS}
_ROUND_KEY = "^[1-9][0-9]*$"

PUZZLE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://cellula/data/puzzles/puzzle.schema.json",
    "title": "Cellula: Cytosis planning puzzle",
    "$comment": f"Every integer is an integer (8.0 and true are not) of at most {MAX_AMOUNT} unless a smaller "
                f"maximum is given. Files are UTF-8 YAML, each key once, the keys of one mapping all texts or "
                f"all integers (solver/io/loading.py).",
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "title", "story", "edition", "board", "rounds", "flasks", "start", "hand", "cards", "objective"],
    "properties": {
        "id": {**_ID, "description": "Stable id; equals the file name without .yaml."},
        "title": {**_TEXT, "description": "Title in English and Italian."},
        "story": {**_TEXT, "description": "The situation, in English and Italian."},
        "edition": {"enum": ["1e", "2e"], "description": "1e: Italian 1st edition; 2e: English 2nd edition."},
        "board": {"enum": ["3-5p", "2p"], "description": "Board side (data/boards/<side>.yaml)."},
        "players": {"type": "integer", "minimum": 2, "maximum": 5,
                    "description": "Players at the table (default 2 on the 2p side, else 3)."},
        "grade": {"type": "integer", "minimum": 1, "maximum": 5,
                  "description": "Difficulty, 1 (first steps) to 5 (whole-game planning)."},
        "rounds": {"type": "integer", "minimum": 1, "maximum": 12},
        "flasks": {"type": "integer", "minimum": 1, "maximum": 4, "description": "The player's flasks per round."},
        "start": {"type": "object", "additionalProperties": False,
                  "properties": {**{r.value: _AMOUNT for r in Resource}, "health": _AMOUNT},
                  "description": "Personal stock and Health Points at the start."},
        "hand": {"type": "array", "items": _ID, "description": "Card ids in hand."},
        "row": {"type": "array", "items": {"anyOf": [_ID, {"type": "null"}]},
                "description": "Card row, left to right (null: empty slot)."},
        "deck": {"type": "array", "items": _ID, "description": "Deck, top first."},
        "events": {"type": "array", "items": {"anyOf": [{"enum": EVENT_IDS}, {"type": "null"}]},
                   "description": "Active event per round (first item: round 1)."},
        "occupied": {"type": "object", "additionalProperties": False,
                     "patternProperties": {_ROUND_KEY: {"type": "array", "items": _ID}},
                     "description": "Spots other players take, per round: {1: [nucleus-3]}."},
        "grey_flasks": {**_AMOUNT, "maximum": 2, "description": "Grey flasks in the Grey Flask Area each round."},
        "goal_markers": {**_AMOUNT, "maximum": 2, "description": "The player's goal markers (default 2)."},
        "goals": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["id"],
            "properties": {
                "id": _ID, "title": _TEXT, "illustrative": {"const": True},
                "card_types": {"type": "array", "items": {"enum": [t.value for t in CardType]}},
                "count": _AMOUNT, "points": _AMOUNT, "markers": {**_AMOUNT, "maximum": 2}}}},
        "opponents": {"type": "object", "additionalProperties": False, "properties": {
            "detox": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["amount", "cards"],
                "properties": {"amount": _AMOUNT, "cards": _AMOUNT}}},
            "disks": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["area", "health"],
                "properties": {"area": {"enum": [a.value for a in VesicleArea]}, "health": _AMOUNT,
                               "seat": {"type": "integer", "minimum": 1, "maximum": 5}}}},
            "hormones": {"type": "object", "additionalProperties": False, "patternProperties": {
                _ROUND_KEY: {"type": "array", "items": {"enum": ["protein-hormone", "steroid-hormone"]}}}},
        }},
        "cards": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "type"],
            "properties": {
                "id": _ID, "type": {"enum": [t.value for t in CardType]}, "cost": _STOCK,
                "health": _AMOUNT, "color": {"type": "string", "description": ENZYME_COLOURS_NOTE},
                "gain": _STOCK,
                "illustrative": {"type": "boolean"},
                "strain": {"enum": [s.value for s in Strain], "description": "Virus Attack cards: the strain."}}}},
        "antibodies": {"type": "object", "additionalProperties": False,
                       "properties": {s.value: _AMOUNT for s in Strain},
                       "description": "Virus expansion: the player's antibodies per strain at the start (default 0)."},
        "virus_rolls": {"type": "object", "additionalProperties": False,
                        "patternProperties": {"^(round-[1-9][0-9]*|[a-z0-9][a-z0-9-]*)$": {
                            "type": "object", "additionalProperties": False, "required": ["roll", "others"],
                            "properties": {
                                "roll": {**_AMOUNT, "description": "The total of the player's Antibody Dice."},
                                "others": {"type": "array", "items": {
                                    "type": "object", "additionalProperties": False, "required": ["seat", "response"],
                                    "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 5},
                                                   "response": _AMOUNT}}}}}},
                        "description": "Virus expansion: the dice of each attack, fixed: `round-N` for the Virus "
                                       "Event of round N, a Virus Attack card's id for that card; `others`: every "
                                       "other player's Antibody Response by seat (seat 0: the 1st edition's dummy)."},
        "objective": {"enum": ["max-health"]},
        "seat": {"type": "integer", "minimum": 1, "maximum": 5},
        "first_player": {"type": "boolean"},
        "marker_seat": {"type": "integer", "minimum": 1, "maximum": 5,
                        "description": "With first_player: false, the seat of the other player holding the First "
                                       "Player Marker at the start (default: the lowest seat not the player's)."},
        "laureates_seats": {"type": "object", "additionalProperties": False,
                            "patternProperties": {_ROUND_KEY: {"type": "integer", "minimum": 1, "maximum": 5}},
                            "description": "Per round whose `occupied` holds Laureates in Biology, the seat of the "
                                           "other player there, who takes the First Player Marker: {2: 3}."},
        "epigenetic": {"enum": [c.value for c in EpigeneticCard],
                       "description": "The Epigenetic Modification Card the player holds (1st edition only)."},
        "board_override": {"type": "object", "additionalProperties": False, "properties": {
            "spots": {"type": "object", "additionalProperties": False,
                      "properties": {a.value: _AMOUNT for a in Area}},
            "vesicles": {"type": "object", "additionalProperties": False,
                         "properties": {a.value: _AMOUNT for a in VesicleArea}},
            "row_prices": {"type": "array", "items": _AMOUNT}}},
        "expected": {"type": "object", "additionalProperties": False,
                     "properties": {"health": _AMOUNT},
                     "description": "The known optimum (checked by the tests)."},
        "notes": _TEXT,
        "rulings": {"type": "object", "additionalProperties": False,
                    "properties": {r.value: {"enum": list(RULING_READINGS[r]),
                                             "description": f"Default: {RULING_DEFAULTS[r]}. Editions: "
                                             + ", ".join(e.value for e in RULING_EDITIONS[r]) + "."}
                                   for r in Ruling},
                    "description": "Readings chosen for ambiguous rules (solver.game.model.Ruling); "
                                   "a ruling left out takes its default."},
    },
}


# --------------------------------------------------------------------------- YAML with lines

def _rel(path: Path) -> str:
    return display_path(path)


def _read_yaml(path: Path) -> tuple[Any, Located, str]:
    """Read a board or puzzle file with the shared loader (:mod:`solver.io.loading`)."""
    try:
        data, lines = load_yaml(path)
    except LoadError as err:
        raise PuzzleError(err.file, err.where, err.detail, err.line) from None
    return data, lines, display_path(path)


def _dotted(path: Iterable[object]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + str(p)
    return out


class _Where:
    """Raises PuzzleErrors located in one file."""

    def __init__(self, file: str, lines: Located):
        self.file, self.lines = file, lines

    def fail(self, path: Iterable[object], message: str) -> NoReturn:
        parts = tuple(path)
        raise PuzzleError(self.file, _dotted(parts), message, self.lines.line(parts))


def _schema_message(err: jsonschema.ValidationError) -> tuple[DataPath, str]:
    path = tuple(err.absolute_path)
    # validator, its value and the instance are set on every error a validator reports (types-jsonschema
    # allows them unset, as on a hand-made error); the puzzle schema has no boolean subschemas
    v = err.validator
    sch: Any = err.validator_value
    inst: Any = err.instance
    schema: Mapping[str, Any] = err.schema if isinstance(err.schema, Mapping) else {}
    if v == "type":
        want = {"integer": "an integer", "string": "a string", "object": "a mapping", "array": "a list",
                "boolean": "true or false", "null": "null"}
        kinds = sch if isinstance(sch, list) else [sch]
        minimum, maximum = schema.get("minimum"), schema.get("maximum")
        text = " or ".join(want.get(k, str(k)) for k in kinds)
        if minimum is not None and maximum is not None:
            text += f" {minimum}..{maximum}"
        elif minimum is not None:
            text += f" >= {minimum}"
        return path, f"expected {text}, got {inst!r}"
    if v in ("minimum", "maximum"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return path, f"expected an integer {low}..{high}, got {inst!r}"
        sign = ">=" if v == "minimum" else "<="
        return path, f"expected an integer {sign} {sch}, got {inst!r}"
    if v == "enum":
        return path, f"expected one of {sch}, got {inst!r}"
    if v == "const":
        return path, f"expected {sch!r}, got {inst!r}"
    if v == "required":
        missing = [k for k in sch if k not in inst]
        return path, f"missing required field {missing[0]!r}"
    if v in ("additionalProperties", "patternProperties"):
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(k for k in inst if k not in allowed)
        if "patternProperties" in schema and not allowed:
            return path + (extra[0],) if extra else path, f"expected a round number (1, 2, …), got {extra[0]!r}" if extra else err.message
        return path + ((extra[0],) if extra else ()), f"unknown field {extra[0]!r}; expected one of {allowed}" if extra else err.message
    if v == "pattern":
        return path, f"expected an id of lowercase letters, digits and '-', got {inst!r}"
    if v == "anyOf":
        if isinstance(inst, str) and any("enum" in s for s in sch):
            enum = [x for s in sch for x in s.get("enum", [])]
            return path, f"expected one of {enum} or null, got {inst!r}"
        return path, f"expected an id or null, got {inst!r}"
    if v == "maxLength":
        return path, f"expected at most {sch} characters, got {len(inst):,} ({inst[:40]!r}...)"
    if v == "minLength":
        return path, f"expected a non-empty text, got {inst!r}"
    return path, err.message


def _is_integer(checker: object, value: object) -> bool:
    """Strict: ``8.0`` is a float and ``true`` a boolean, neither is an integer."""
    return isinstance(value, int) and not isinstance(value, bool)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
"""Draft 2020-12 with strict integers (the standard counts 8.0 as an integer)."""


def _schema_check(data: Any, where: _Where, schema: Raw) -> None:
    validator = _Validator(schema)
    errors = list(validator.iter_errors(data))
    if not errors:
        return
    err = min(errors, key=lambda e: (len(e.absolute_path) * -1, str(list(e.absolute_path))))
    err = jsonschema.exceptions.best_match([err]) if err.context else err
    path, message = _schema_message(err)
    where.fail(path, message)


# --------------------------------------------------------------------------- boards

BOARD_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["id", "title", "editions", "spots", "vesicles"],
    "properties": {
        "id": _ID, "title": _TEXT, "editions": {"type": "array", "items": {"enum": ["1e", "2e"]}},
        "spots": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "area", "kind", "provenance"],
            "properties": {"id": _ID, "area": {"enum": [a.value for a in Area]},
                           "kind": {"enum": [k.value for k in SpotKind]}, "value": _AMOUNT, "slot": _AMOUNT,
                           "provenance": {"enum": ["rulebook", "assumed"]}}}},
        "vesicles": {"type": "object", "additionalProperties": False, "required": [a.value for a in VesicleArea],
                     "properties": {a.value: {"type": "object", "additionalProperties": False,
                                              "required": ["count", "provenance"],
                                              "properties": {"count": {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT},
                                                             "provenance": {"enum": ["rulebook", "assumed"]}}}
                                    for a in VesicleArea}},
        "boosts": {"type": "object", "additionalProperties": False, "properties": {
            e: {"type": "object", "additionalProperties": False, "required": ["resource", "areas", "provenance"],
                "properties": {"resource": {"enum": [r.value for r in Resource]},
                               "areas": {"type": "array", "minItems": 1, "items": {"enum": [a.value for a in Area]}},
                               "provenance": {"enum": ["rulebook", "assumed"]}}}
            for e in EVENT_IDS if e.startswith("boost-")}},
    },
}


def board_path(board_id: str) -> Path:
    return BOARDS_DIR / f"{board_id}.yaml"


def load_board(board_id: str) -> Board:
    """Load ``data/boards/<board_id>.yaml``."""
    path = board_path(board_id)
    data, lines, file = _read_yaml(path)
    where = _Where(file, lines)
    _schema_check(data, where, BOARD_SCHEMA)
    spots = []
    seen = set()
    for i, s in enumerate(data["spots"]):
        if s["id"] in seen:
            where.fail(("spots", i, "id"), f"expected a unique spot id, got {s['id']!r} twice")
        seen.add(s["id"])
        kind = SpotKind(s["kind"])
        if kind is SpotKind.CARD_ROW and "slot" not in s:
            where.fail(("spots", i), f"card-row spot {s['id']!r} needs a slot")
        spots.append(Spot(id=s["id"], kind=kind, area=Area(s["area"]), value=s.get("value", 0),
                          slot=s.get("slot"), provenance=s["provenance"]))
    vesicles = tuple((VesicleArea(k), v["count"]) for k, v in data["vesicles"].items())
    vprov = tuple((VesicleArea(k), v["provenance"]) for k, v in data["vesicles"].items())
    boosts = tuple(Boost(e, Resource(b["resource"]), tuple(Area(a) for a in b["areas"]), b["provenance"])
                   for e, b in (data.get("boosts") or {}).items())
    return Board(id=data["id"], spots=tuple(spots), vesicles=vesicles, vesicle_provenance=vprov, boosts=boosts,
                 editions=tuple(Edition(e) for e in data["editions"]))


def board_assumptions(board: Board) -> list[dict[str, object]]:
    """Every count the rulebook text does not give (for the site's list of assumptions)."""
    out: list[dict[str, object]] = [{"what": "spot", "id": s.id, "area": s.area.value, "value": s.value}
           for s in board.spots if s.provenance != "rulebook"]
    out += [{"what": "vesicles", "area": a.value, "count": board.vesicle_count(a)}
            for a, p in board.vesicle_provenance if p != "rulebook"]
    out += [{"what": "boost", "id": b.event, "resource": b.resource.value, "areas": [a.value for a in b.areas]}
            for b in board.boosts if b.provenance != "rulebook"]
    return out


def _override_board(board: Board, override: Raw, where: _Where) -> Board:
    spots = list(board.spots)
    for area_name, count in (override.get("spots") or {}).items():
        area = Area(area_name)
        mine = [s for s in spots if s.area is area]
        path = ("board_override", "spots", area_name)
        if not mine:
            where.fail(path, f"board {board.id} has no spot in area {area_name!r}")
        if count == 0:
            where.fail(path, f"expected at least 1 spot, got 0: this would remove every spot of area "
                             f"{area_name!r} (remove the area's spots from play with `occupied` instead)")
        if count > len(mine):
            if area is Area.CARD_ROW or len({(s.kind, s.value) for s in mine}) != 1:
                where.fail(path, f"expected at most {len(mine)} (area {area_name!r} has numbered spots, "
                                 f"only areas of identical spots can grow), got {count}")
            template = mine[0]
            extra = [Spot(f"{area_name}-{len(mine) + k + 1}", template.kind, area, template.value, None, "puzzle")
                     for k in range(count - len(mine))]
            spots += extra
        else:
            drop = {s.id for s in mine[count:]}
            spots = [s for s in spots if s.id not in drop]
    vesicles = dict(board.vesicles)
    vprov = dict(board.vesicle_provenance)
    for area_name, count in (override.get("vesicles") or {}).items():
        if count == 0:
            where.fail(("board_override", "vesicles", area_name),
                       f"expected at least 1 budding location, got 0: area {area_name!r} would take no disk")
        vesicles[VesicleArea(area_name)] = count
        vprov[VesicleArea(area_name)] = "puzzle"
    prices = override.get("row_prices")
    if prices is not None:
        row = [s for s in spots if s.kind is SpotKind.CARD_ROW]
        if len(prices) != len(row):
            where.fail(("board_override", "row_prices"), f"expected {len(row)} prices (one per card-row slot), got {len(prices)}")
        by_slot = {s.row_slot: p for s, p in zip(sorted(row, key=lambda s: s.row_slot), prices)}
        spots = [Spot(s.id, s.kind, s.area, by_slot[s.row_slot], s.slot, "puzzle") if s.kind is SpotKind.CARD_ROW else s
                 for s in spots]
    return Board(board.id, tuple(spots), tuple(vesicles.items()), tuple(vprov.items()), board.boosts, board.editions)


# --------------------------------------------------------------------------- cards

def _stock(data: Raw | None) -> Stock:
    return Stock(**(data or {}))


def rulebook_cards() -> list[tuple[CardType, Stock, int]]:
    data, _, _ = _read_yaml(RULEBOOK_CARDS)
    return [(CardType(c["type"]), _stock(c["cost"]), c["health"]) for c in data["cards"]]


def _card(i: int, c: Raw, where: _Where, known: list[tuple[CardType, Stock, int]]) -> Card:
    ctype = CardType(c["type"])
    cost, gain = _stock(c.get("cost")), _stock(c.get("gain"))
    path = ("cards", i)
    route = VESICLE_ROUTE.get(ctype)
    if route is not None:
        allowed = {Resource.ATP, route.er_resource, route.golgi_resource}
        for r in Resource:
            if r not in allowed and cost.get(r):
                where.fail(path + ("cost", r.value), f"a {ctype.value} card carries only "
                           f"{route.er_resource.value} and {route.golgi_resource.value} (and costs ATP), got {r.value}: {cost.get(r)}")
        if route.er_resource is not route.golgi_resource and cost.get(route.golgi_resource) != 1:
            where.fail(path + ("cost", route.golgi_resource.value),
                       f"expected 1 (the Golgi adds exactly 1 {route.golgi_resource.value}), got {cost.get(route.golgi_resource)}")
        if cost.get(route.er_resource) < 1:
            where.fail(path + ("cost", route.er_resource.value),
                       f"expected at least 1 {route.er_resource.value} for the ER step, got {cost.get(route.er_resource)}")
    if ctype is CardType.DETOX:
        if cost.atp < 1 or any(cost.as_tuple()[1:]):
            where.fail(path + ("cost",), f"a detox card costs only ATP (>= 1), got {cost.as_dict(nonzero=True)}")
        if c.get("health", 1) != 1:
            where.fail(path + ("health",), f"expected 1 (a detox card always scores 1, cards.detox), got {c['health']}")
    if ctype is CardType.ENZYME and (cost.mrna or cost.lipid):
        where.fail(path + ("cost",), f"an enzyme costs ATP, protein and carbohydrate, got {cost.as_dict(nonzero=True)}")
    if ctype is CardType.MACROMOLECULE:
        if not cost.is_zero() or c.get("health"):
            where.fail(path, "a macromolecule card has no cost and no Health Points, only a gain")
        if gain.is_zero():
            where.fail(path + ("gain",), "expected the macromolecules the card gives, got nothing")
    elif not gain.is_zero():
        where.fail(path + ("gain",), f"only macromolecule cards have a gain, this is a {ctype.value}")
    if ctype is not CardType.ENZYME and "color" in c:
        where.fail(path + ("color",), f"only enzyme cards have a colour, this is a {ctype.value}")
    if ctype is CardType.VIRUS_ATTACK:
        if "strain" not in c:
            where.fail(path + ("strain",), f"expected the strain of Virus Attack card {c['id']!r}, one of "
                                           f"{[s.value for s in Strain]}")
        if not cost.is_zero() or c.get("health"):
            where.fail(path, "a Virus Attack card has no cost and no Health Points (it attacks when bought)")
        return Card(id=c["id"], type=ctype, strain=Strain(c["strain"]))
    if "strain" in c:
        where.fail(path + ("strain",), f"only Virus Attack cards have a strain, this is a {ctype.value}")
    health = c.get("health", 1 if ctype is CardType.DETOX else 0)
    from_rulebook = any(t is ctype and s == cost and h == health for t, s, h in known)
    illustrative = c.get("illustrative")
    if not from_rulebook and illustrative is not True:
        where.fail(path + ("illustrative",),
                   f"expected `illustrative: true`: card {c['id']!r} has values the rulebooks do not print "
                   f"(only the protein hormone 2 ATP/2 protein/1 carb/7 HP and the steroid hormone "
                   f"4 ATP/3 lipid/1 carb/9 HP are), got {illustrative!r}")
    return Card(id=c["id"], type=ctype, cost=cost, health=health, color=c.get("color"), gain=gain,
                illustrative=not from_rulebook)


# --------------------------------------------------------------------------- puzzles

def load_puzzle(path: str | Path) -> Puzzle:
    """Load and validate a puzzle file; raises :class:`PuzzleError` on the first problem."""
    path = Path(path)
    data, lines, file = _read_yaml(path)
    where = _Where(file, lines)
    if not isinstance(data, dict):
        where.fail((), f"expected a mapping of puzzle fields, got {type(data).__name__}")
    _normalise_round_keys(data)
    _schema_check(data, where, PUZZLE_SCHEMA)
    _check_closed_sets(data, where)
    return puzzle_from_data(data, where, file)


def _check_closed_sets(data: Raw, where: _Where) -> None:
    """What a puzzle file names from a closed list the schema cannot state on its own: an enzyme's
    colour is one of :data:`ENZYME_COLOURS` (``gren`` is a typo, not a sixth colour), and every seat
    (the player's, the opponents' disks', the First Player Marker's, the Laureates') is a seat at
    the table, 1..players (the schema allows 1..5, the most players a game has). Puzzles built in
    code (tests, benchmarks) may label colours as they like."""
    for i, card in enumerate(data.get("cards") or []):
        colour = card.get("color")
        if colour is not None and colour not in ENZYME_COLOURS:
            where.fail(("cards", i, "color"), f"expected one of {list(ENZYME_COLOURS)}, got {colour!r}")
    players = data.get("players", 2 if data["board"] == "2p" else 3)
    seats: list[tuple[DataPath, object]] = [(("seat",), data.get("seat")), (("marker_seat",), data.get("marker_seat"))]
    seats += [(("opponents", "disks", i, "seat"), d.get("seat")) for i, d in enumerate((data.get("opponents") or {}).get("disks") or [])]
    seats += [(("laureates_seats", key), who) for key, who in (data.get("laureates_seats") or {}).items()]
    for path, seat in seats:
        if isinstance(seat, int) and seat > players:
            where.fail(path, f"expected a seat at the table, 1..{players} (players: {players}), got {seat}")


def _normalise_round_keys(data: Raw) -> None:
    """YAML reads ``{1: [...]}`` with integer keys; the schema (JSON) has string keys."""
    def fix(mapping: object) -> object:
        if isinstance(mapping, dict):
            return {str(k): v for k, v in mapping.items()}
        return mapping
    if "occupied" in data:
        data["occupied"] = fix(data["occupied"])
    if "laureates_seats" in data:
        data["laureates_seats"] = fix(data["laureates_seats"])
    opp = data.get("opponents")
    if isinstance(opp, dict) and "hormones" in opp:
        opp["hormones"] = fix(opp["hormones"])


def puzzle_from_data(data: Raw, where: _Where, file: str = "") -> Puzzle:
    edition = Edition(data["edition"])
    rules = rules_for(edition)
    if data["board"] not in rules.board_sides():
        where.fail(("board",), f"expected one of {sorted(rules.board_sides())} for edition {edition.value} "
                               f"(the 1st edition has no 2-player side), got {data['board']!r}")
    players = data.get("players", 2 if data["board"] == "2p" else 3)
    if data["board"] == "2p" and players != 2:
        where.fail(("players",), f"expected 2 on the 2p board side, got {players}")
    if edition is Edition.SECOND and players == 2 and data["board"] != "2p":
        where.fail(("board",), "expected 2p: a 2nd-edition 2-player game uses the 2-player side (two-player.board), got '3-5p'")
    board = load_board(data["board"])
    board = _override_board(board, data.get("board_override") or {}, where)
    rounds = data["rounds"]

    known = rulebook_cards()
    cards, ids = [], set()
    for i, c in enumerate(data["cards"]):
        if c["id"] in ids:
            where.fail(("cards", i, "id"), f"expected a unique card id, got {c['id']!r} twice")
        ids.add(c["id"])
        cards.append(_card(i, c, where, known))
    used: dict[str, tuple[str, int]] = {}
    for field_ in ("hand", "row", "deck"):
        for i, cid in enumerate(data.get(field_) or []):
            if cid is None:
                continue
            if cid not in ids:
                where.fail((field_, i), f"unknown card {cid!r}; expected one of the ids under `cards:` {sorted(ids)}")
            if cid in used:
                where.fail((field_, i), f"card {cid!r} is already in {_dotted(used[cid])}: a card is in one place "
                                        f"(give copies their own ids)")
            used[cid] = (field_, i)
    row_slots = len(board.row_slots)
    row = list(data.get("row") or [])
    if len(row) > row_slots:
        where.fail(("row",), f"expected at most {row_slots} cards (card-row slots), got {len(row)}")
    row += [None] * (row_slots - len(row))

    events = list(data.get("events") or [])
    if len(events) > rounds:
        where.fail(("events",), f"expected at most {rounds} events (one per round, rounds: {rounds}), got {len(events)}")
    for i, e in enumerate(events):
        if e is None:
            continue
        if event_kind(e).value not in rules.events() and not (e.startswith("boost-") and "boost" in rules.events()):
            where.fail(("events", i), f"event {e!r} is not in the {edition.value} event deck (events.toxicity is 1e only)")
        if e.startswith("boost-") and board.boost(e) is None:
            where.fail(("events", i), f"board {board.id} does not say where {e!r} puts its resource")

    spot_ids = {s.id for s in board.spots}
    occupied = [()] * rounds
    for key, spots in (data.get("occupied") or {}).items():
        r = int(key)
        if r > rounds:
            where.fail(("occupied", key), f"expected a round from 1 to {rounds}, got {r}")
        for j, sid in enumerate(spots):
            if sid not in spot_ids:
                where.fail(("occupied", key, j), f"unknown spot {sid!r}; expected one of {sorted(spot_ids)}")
        if len(set(spots)) != len(spots):
            where.fail(("occupied", key), "expected each spot at most once per round")
        occupied[r - 1] = tuple(spots)

    goals, goal_ids = [], set()
    for i, g in enumerate(data.get("goals") or []):
        if g["id"] in goal_ids:
            where.fail(("goals", i, "id"), f"expected a unique goal id, got {g['id']!r} twice")
        goal_ids.add(g["id"])
        goals.append(Goal(id=g["id"], card_types=tuple(CardType(t) for t in g.get("card_types", [])),
                          count=g.get("count", 0), points=g.get("points", 0), markers=g.get("markers", 0),
                          title=tuple(sorted((g.get("title") or {}).items()))))

    opp = data.get("opponents") or {}
    detox = tuple(DetoxFigure(d["amount"], d["cards"]) for d in opp.get("detox") or [])
    if len(detox) > players - 1:
        where.fail(("opponents", "detox"), f"expected at most {players - 1} figures (players: {players}), got {len(detox)}")
    for i, d in enumerate(detox):
        if (d.amount == 0) != (d.cards == 0):
            where.fail(("opponents", "detox", i), f"expected amount and cards both 0 or both >= 1, got {d}")
    seat = data.get("seat", 1)
    disks = []
    for i, d in enumerate(opp.get("disks") or []):
        disk = OpponentDisk(f"opp{i + 1}", VesicleArea(d["area"]), d["health"], d.get("seat", 2))
        if disk.seat == seat:
            where.fail(("opponents", "disks", i, "seat"), f"expected a seat other than the player's ({seat}), got {disk.seat}")
        disks.append(disk)
    for area in VesicleArea:
        n = sum(1 for d in disks if d.area is area)
        if n > board.vesicle_count(area):
            where.fail(("opponents", "disks"), f"expected at most {board.vesicle_count(area)} disks in {area.value} "
                                               f"(budding locations), got {n}")
    hormones: list[tuple[CardType, ...]] = [()] * rounds
    for key, kinds in (opp.get("hormones") or {}).items():
        if int(key) > rounds:
            where.fail(("opponents", "hormones", key), f"expected a round from 1 to {rounds}, got {key}")
        hormones[int(key) - 1] = tuple(CardType(k) for k in kinds)

    rulings = []
    for key, reading in (data.get("rulings") or {}).items():
        ruling = Ruling(key)
        if edition not in RULING_EDITIONS[ruling]:
            where.fail(("rulings", key), f"expected a ruling of the {edition.value} rules; {key!r} is about "
                                         f"{', '.join(e.value for e in RULING_EDITIONS[ruling])} only")
        rulings.append((ruling, reading))
    seats = max([players, seat] + [d.seat for d in disks])
    marker_seat = data.get("marker_seat", 0)
    if marker_seat:
        if data.get("first_player", True):
            where.fail(("marker_seat",), f"expected marker_seat only with first_player: false (the player holds the "
                                         f"marker), got {marker_seat}")
        if marker_seat == seat or marker_seat > seats:
            where.fail(("marker_seat",), f"expected the seat of another player (1..{seats}, not the player's "
                                         f"{seat}), got {marker_seat}")
    laureates_seats = [0] * rounds
    laureates = {s.id for s in board.spots if s.kind is SpotKind.LAUREATES}
    for key, who in (data.get("laureates_seats") or {}).items():
        r = int(key)
        if r > rounds or not laureates & set(occupied[r - 1]):
            where.fail(("laureates_seats", key), f"expected a round whose `occupied` holds {sorted(laureates)} "
                                                 f"(1..{rounds}), got round {r}")
        if who == seat or who > seats:
            where.fail(("laureates_seats", key), f"expected the seat of another player (1..{seats}, not the "
                                                 f"player's {seat}), got {who}")
        laureates_seats[r - 1] = who
    virus_rolls = _virus_rolls(data, where, rules, players, seat, events, cards)
    epigenetic_card = None
    if data.get("epigenetic") is not None:
        epigenetic_card = EpigeneticCard(data["epigenetic"])
        if not rules.epigenetic_cards():
            where.fail(("epigenetic",), f"expected no Epigenetic Modification Card: they are in the 1st edition only "
                                        f"(epigenetic.*), this puzzle is {edition.value}; got {data['epigenetic']!r}")
        if epigenetic_card in epigenetic.NOT_MODELLED:
            where.fail(("epigenetic",), f"{data['epigenetic']!r} is not modelled: {epigenetic.NOT_MODELLED[epigenetic_card]} "
                                        f"({epigenetic_card.section}); expected one of "
                                        f"{[c.value for c in EpigeneticCard if c not in epigenetic.NOT_MODELLED]}")
    for ruling, _ in rulings:
        card = RULING_CARDS.get(ruling)
        if card is not None and card is not epigenetic_card:
            where.fail(("rulings", ruling.value), f"expected this ruling only with `epigenetic: {card.value}` (it reads "
                                                  f"that card's text), got epigenetic: {data.get('epigenetic')!r}")
    start = data.get("start") or {}
    stem = Path(file).stem if file else data["id"]
    if file and data["id"] != stem:
        where.fail(("id",), f"expected the file name {stem!r}, got {data['id']!r}")
    return Puzzle(
        id=data["id"], title=tuple(sorted(data["title"].items())), story=tuple(sorted(data["story"].items())),
        edition=edition, board=board, players=players, rounds=rounds, flasks=data["flasks"],
        start=Stock(**{k: v for k, v in start.items() if k != "health"}), health=start.get("health", 0),
        hand=tuple(data.get("hand") or []), row=tuple(row), deck=tuple(data.get("deck") or []),
        events=tuple(events), occupied=tuple(occupied), grey_flasks=data.get("grey_flasks", 2), goals=tuple(goals),
        goal_markers=data.get("goal_markers", 2), detox_opponents=detox, opponent_disks=tuple(disks),
        opponent_hormones=tuple(hormones), cards=tuple(cards), objective=data["objective"], seat=seat,
        first_player=data.get("first_player", True), source=file, grade=data.get("grade", 1),
        rulings=tuple(sorted(rulings, key=lambda p: p[0].value)), epigenetic=epigenetic_card,
        marker_seat=marker_seat, laureates_seats=tuple(laureates_seats), virus_rolls=virus_rolls,
        antibodies=tuple((data.get("antibodies") or {}).get(s.value, 0) for s in Strain),
    )


def _virus_rolls(data: Raw, where: _Where, rules: Rules, players: int, seat: int, events: list[str | None],
                 cards: list[Card]) -> tuple[tuple[str, VirusRoll], ...]:
    """The fixed dice of every Virus attack the puzzle can reach, checked: one entry per Virus Event
    round and per Virus Attack card, each naming every other player once (``virus.*``)."""
    needed: dict[str, DataPath] = {f"round-{i + 1}": ("events", i) for i, e in enumerate(events) if e and e.startswith("virus-")}
    needed.update({c.id: ("cards",) for c in cards if c.type is CardType.VIRUS_ATTACK})
    given = data.get("virus_rolls") or {}
    if not needed and not given and not data.get("antibodies"):
        return ()
    participants = rules.virus_participants(players)
    if participants is None:
        where.fail(("players",), f"the {data['edition']} Virus rules are for 3-5 players (virus.title): expected 3-5 "
                                 f"players with Virus Events or Virus Attack cards, got {players}")
    for source in given:     # a misspelt key first: the message quotes it (round-02, ebola-atack)
        if source not in needed:
            where.fail(("virus_rolls", source), f"expected a Virus Event round (round-N) or a Virus Attack card id "
                                                f"of this puzzle, one of {sorted(needed)}, got {source!r}")
    for source, path in needed.items():
        if source not in given:
            where.fail(("virus_rolls",), f"expected the dice of the Virus attack {source!r} (from {'.'.join(map(str, path))}): "
                                         f"virus_rolls: {{{source}: {{roll: N, others: [{{seat: S, response: R}}, ...]}}}}")
    out = []
    dummy = participants > players
    expected_seats = participants - 1
    for source, raw in given.items():
        if source not in needed:
            where.fail(("virus_rolls", source), f"expected a Virus Event round (round-N) or a Virus Attack card id "
                                                f"of this puzzle, one of {sorted(needed)}, got {source!r}")
        others = tuple(OtherResponse(o["seat"], o["response"]) for o in raw["others"])
        seats = [o.seat for o in others]
        if len(others) != expected_seats or len(set(seats)) != len(seats) or seat in seats \
                or (0 in seats) != dummy or any(s > 5 for s in seats):
            what = f"{expected_seats} other players" + (" (seat 0: the dummy player of a 2-player game)" if dummy else "")
            where.fail(("virus_rolls", source, "others"), f"expected {what}, each seat once and not the player's "
                                                          f"({seat}), got seats {seats}")
        out.append((source, VirusRoll(raw["roll"], others)))
    return tuple(sorted(out))


def expected_health(path: str | Path) -> int | None:
    """The ``expected.health`` a puzzle file declares, if any."""
    data, _, _ = _read_yaml(Path(path))
    return ((data or {}).get("expected") or {}).get("health")


def expected_claim(path: str | Path) -> tuple[int | None, str]:
    """The ``expected.health`` a puzzle file declares (None: none) and where: ``file:line: expected.health``."""
    data, lines, file = _read_yaml(Path(path))
    value = ((data or {}).get("expected") or {}).get("health") if isinstance(data, dict) else None
    line = lines.line("expected", "health")
    return value, f"{file}{f':{line}' if line else ''}: expected.health"


def puzzle_files() -> list[Path]:
    """Every puzzle file in ``data/puzzles``."""
    return sorted(PUZZLES_DIR.glob("*.yaml"))
