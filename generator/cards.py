"""Card and component database: ``data/cards/<game>.yaml`` loaded into typed, validated models.

One file per game. Every entry has a stable ``id`` (the permalink anchor), a ``type`` from the
game's closed vocabulary, names and texts in the site languages (and Russian for Immune
Response) with their provenance, the game's numeric fields (``null`` where the sources give no
value: the site then says "not in the rulebooks"), the rule sections that apply and the source
lines the values come from. See the "Cards" section of ``data/README.md``.

``load_cards(data_dir)`` reports every problem of every file at once as one :class:`DataError`.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from collections.abc import Callable
from typing import Any

from solver.io.loading import DataPath, Located, parse_line_ranges
from solver.game.model import RESOURCE_SPELLINGS, Resource

from . import schema
from .errors import DataError, Problems
from .languages import in_chain
from .schema import Schema
from .yamlio import load_yaml, yaml_path
from .site_data import FeatureKey

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SECTION_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$")
PROJECT = "project"
"""Provenance value meaning "written or translated by this project"."""


# --------------------------------------------------------------------------- vocabularies


class CytosisType(str, Enum):
    """Kinds of Cytosis cards."""

    ENZYME = "enzyme"
    PROTEIN_HORMONE = "protein-hormone"
    STEROID_HORMONE = "steroid-hormone"
    PROTEIN_HORMONE_RECEPTOR = "protein-hormone-receptor"
    STEROID_HORMONE_RECEPTOR = "steroid-hormone-receptor"
    ALCOHOL_DETOXIFICATION = "alcohol-detoxification"
    MACROMOLECULE = "macromolecule"
    VIRUS_ATTACK = "virus-attack"
    EVENT_BOOST = "event-boost"
    EVENT_REDUCE_ATP_COST = "event-reduce-atp-cost"
    EVENT_TOXICITY = "event-toxicity"
    EVENT_VIRUS = "event-virus"
    GOAL = "goal"
    EPIGENETIC = "epigenetic"


class UrsuppeType(str, Enum):
    """Kinds of Ursuppe gene cards."""

    NORMAL = "normal"
    SUPERIOR = "superior"


class ImmuneType(str, Enum):
    """Kinds of Immune Response property cards."""

    PROPERTY = "property"
    PAIRED_PROPERTY = "paired-property"
    """Played on a pair of cells at once."""


class Spot(str, Enum):
    """Cytosis board spots a completion step happens on."""

    ROUGH_ER = "rough-er"
    SMOOTH_ER = "smooth-er"
    """Lower Smooth ER: steroid hormone synthesis or alcohol detoxification."""
    GOLGI = "golgi"
    EXOCYTOSIS = "exocytosis"
    FREE_RIBOSOME = "free-ribosome"
    CYTOPLASM = "cytoplasm"
    CARD_AREA = "card-area"
    """The Cell Component Card area (purchase)."""


class Limit(str, Enum):
    """How often an Immune Response property may be used."""

    NONE = "none"
    """Permanent or usable whenever it triggers."""
    ONCE_PER_TURN = "once-per-turn"
    ONCE_PER_ROUND = "once-per-round"
    """Once in each round of the feeding phase (paired properties)."""
    EVERY_OTHER_TURN = "every-other-turn"


class Threat(str, Enum):
    """What an Immune Response property protects a cell against."""

    T_KILLER = "t-killer"
    INFECTION = "infection"
    STARVATION = "starvation"


GAMES = ("cytosis", "ursuppe", "immune-response")
LANGS = {"cytosis": ("it", "en"), "ursuppe": ("it", "en"), "immune-response": ("ru", "en", "it")}
"""Languages every name and text must have, per game."""
TYPES: dict[str, type[Enum]] = {"cytosis": CytosisType, "ursuppe": UrsuppeType, "immune-response": ImmuneType}
PLAYER_COUNTS = ("3", "4", "5-6")


# --------------------------------------------------------------------------- models


@dataclass(frozen=True)
class Text:
    """A text in several languages, with where each language comes from."""

    values: tuple[tuple[str, str], ...]
    """(language, text) pairs."""
    sources: tuple[tuple[str, str], ...]
    """(language, source id or ``project``) pairs."""

    def __getitem__(self, lang: str) -> str:
        """The text in ``lang``, along its fallback chain for a site language the data does not give."""
        return in_chain(dict(self.values), lang)

    def source(self, lang: str) -> str:
        """The source id the text in ``lang`` (the one ``[lang]`` gives) comes from, or ``project``
        for this project's text."""
        return in_chain(dict(self.sources), lang)

    def by_project(self, lang: str) -> bool:
        """True when the text in ``lang`` is this project's (a translation or a coined name)."""
        return self.source(lang) == PROJECT


@dataclass(frozen=True)
class Step:
    """One placement in a Cytosis card's completion pipeline."""

    spot: Spot
    """Where the flask is placed."""
    puts: tuple[Resource, ...]
    """Macromolecules put on the vesicle disk at this step."""
    pays_atp: bool
    """Whether the card's ATP cost is paid at this step."""
    text: Text
    """What happens, in both site languages."""
    pays: tuple[Resource, ...] = ()
    """Macromolecules paid from the personal stock to the general supply at this step (an Enzyme Card's
    proteins at the Cytoplasm), never put on a disk."""
    gains: tuple[Resource, ...] = ()
    """Macromolecules taken into the personal stock at this step (the Free Ribosome's proteins)."""


@dataclass(frozen=True)
class Card:
    """One card entry: a single card, or a group of identical-looking cards whose individual values
    the sources do not give."""

    id: str
    """Stable id, a-z0-9 and hyphens; the permalink anchor."""
    type: Enum
    """The game's card type."""
    name: Text
    """Name; ``name.by_project(lang)`` tells whether the name is the project's."""
    text: Text
    """Card text or rules description."""
    rules: tuple[str, ...]
    """Rule section ids (``chapter.slug``) that apply."""
    source_lines: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    """(source id, line ranges) the values come from, for cross-checking."""
    fields: tuple[tuple[str, Any], ...]
    """The game's own numeric and structured fields (``None``: not in the sources)."""
    note: Text | None = None
    """Editorial note (doubts, reconstruction of garbled source text), or None."""

    def __getitem__(self, key: str) -> Any:
        return dict(self.fields)[key]

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.fields).get(key, default)


@dataclass(frozen=True)
class Component:
    """One line of a Cytosis component list."""

    edition: str
    """Source id of the box (``it-1e``, ``en-2e``, ``en-virus``)."""
    part: str
    """``base``, ``virus`` or ``epigenetic``: which part of the box it belongs to."""
    count: int | None
    """How many; None when the source does not say."""
    name: Text
    """What it is."""
    breakdown: tuple[tuple[int | None, Text], ...]
    """Sub-counts printed in the list (e.g. 10 Enzyme Cards), possibly empty."""
    source_lines: tuple[tuple[int, int], ...]
    """Lines of the component list in the edition's source."""


@dataclass(frozen=True)
class CardSet:
    """Everything in one ``data/cards/<game>.yaml``."""

    game: str
    """Game id (``cytosis``, ``ursuppe``, ``immune-response``)."""
    file: Path
    """The YAML file."""
    sources: tuple[tuple[str, Path], ...]
    """(source id, raw source file) pairs."""
    cards: tuple[Card, ...]
    """All entries, in file order."""
    components: tuple[Component, ...] = ()
    """Component lists per edition (Cytosis; empty elsewhere)."""
    extras: tuple[tuple[str, Any], ...] = ()
    """Other per-game facts (e.g. declared totals), as plain values."""

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def of_type(self, kind: str | Enum) -> tuple[Card, ...]:
        value = kind.value if isinstance(kind, Enum) else kind
        return tuple(c for c in self.cards if c.type.value == value)

    def extra(self, key: str) -> Any:
        return dict(self.extras)[key]


CARD_SETS: FeatureKey[dict[str, CardSet]] = FeatureKey("cards", dict)
"""The card database of ``data/cards/``, by game id (the ``cards`` feature's data)."""


# --------------------------------------------------------------------------- predicates


def is_id(value: Any) -> bool:
    return isinstance(value, str) and bool(ID.match(value))


MAX_COUNT = 999
"""Largest count, cost or price a card file may give (far above any printed value)."""


# --------------------------------------------------------------------------- loading


_COUNT = {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_COUNT,
          "expected": f"an integer 0..{MAX_COUNT} or null"}
_FLAG = {"type": "boolean", "expected": "true or false"}
_LINES = {"type": ["string", "integer"], "expected": "line ranges like '12-15, 20'"}
_RESOURCES = [*(r.value for r in Resource), *RESOURCE_SPELLINGS]
"""A resource as a card file may write it (``carbohydrate`` too)."""


def _texts(langs: tuple[str, ...], sources: list[str], *keys: str) -> Schema:
    """The properties of texts ``keys`` in ``langs``, each with its ``<key>_source``."""
    text = schema.in_languages(langs, f"a mapping of languages {list(langs)} to texts", closed=True)
    source = {"type": "object", "required": list(langs), "member": "source of",
              "properties": {lang: {"enum": [*sources, PROJECT]} for lang in langs},
              "expected": "a mapping of languages to a source id or 'project'"}
    return {prop: schema_ for key in keys for prop, schema_ in ((key, text), (f"{key}_source", source))}


def _game_fields(game: str, texts: Any, sources: list[str]) -> Schema:
    """The properties of a card of ``game`` beyond the common ones."""
    if game == "cytosis":
        return {"counts": {"type": "object", "additionalProperties": False,
                           "properties": {sid: _COUNT for sid in sources},
                           "expected": "a mapping of edition (source id) to a count"},
                "hp": _COUNT, "example": _FLAG, "strain": {},
                "cost": {"type": ["object", "null"], "additionalProperties": False,
                         "properties": {r: _COUNT for r in _RESOURCES}, "expected": "a mapping of resource to amount"},
                "pipeline": {"type": ["array", "null"], "items": {
                    "type": "object", "required": ["spot", "text", "text_source"], "additionalProperties": False,
                    "expected": "a pipeline step: a mapping of spot, puts, pays, gains, pays_atp, text",
                    "properties": {"spot": {"enum": [s.value for s in Spot]}, "pays_atp": _FLAG,
                                   **{kind: {"type": ["array", "null"], "items": {"enum": _RESOURCES}}
                                      for kind in ("puts", "pays", "gains")},
                                   **texts("text")}}},
                **texts("scoring")}
    if game == "ursuppe":
        return {"price": _COUNT, "price_from_player": _COUNT, "reconstructed": _FLAG,
                "mutation_points": {"type": ["integer", "null"]},
                "copies": {"type": "object", "required": list(PLAYER_COUNTS), "additionalProperties": False,
                           "properties": {k: _COUNT for k in PLAYER_COUNTS},
                           "expected": f"a mapping of each of {list(PLAYER_COUNTS)} players to a count"},
                "replaces": {"type": ["array", "null"], "expected": "a list of gene ids",
                             "items": {"type": "string", "pattern": ID.pattern, "expected": "a gene id"}}}
    return {**{key: _COUNT for key in ("extra_food", "points", "extra_points", "copies")},
            **texts("extra_points_when"), "limit": {"enum": [v.value for v in Limit]},
            "protects_against": {"type": ["array", "null"], "items": {"enum": [t.value for t in Threat]}}}


@functools.cache
def _schema(game: str, sources: tuple[str, ...]) -> Schema:
    """The shape of ``data/cards/<game>.yaml`` whose sources are ``sources``; :func:`load_card_file`
    adds what a schema cannot say (ids once, source files found, line ranges within them, genes replaced)."""
    known = list(sources)

    def texts(*keys: str) -> Schema:
        return _texts(LANGS[game], known, *keys)

    optional = ("note", "scoring", "extra_points_when")
    card = {
        "type": "object", "additionalProperties": False, "expected": "a mapping",
        "required": ["id", "type", "name", "name_source", "text", "text_source", "source_lines"],
        "dependentRequired": {key: [f"{key}_source"] for key in optional},
        "properties": {
            "id": {"type": "string", "pattern": ID.pattern, "expected": "an id, lowercase a-z0-9 with hyphens"},
            "type": {"enum": [t.value for t in TYPES[game]]},
            **texts("name", "text", "note"),
            "rules": {"type": "array", "items": {"type": "string", "pattern": SECTION_ID.pattern,
                                                 "expected": "a section id 'chapter.slug'"}},
            "source_lines": {"type": "object", "minProperties": 1, "additionalProperties": False,
                             "properties": {sid: _LINES for sid in known},
                             "expected": "a mapping of source id to line ranges ('12-15, 20')"},
            **_game_fields(game, texts, known)}}
    component = {
        "type": "object", "required": ["edition", "name", "name_source", "lines"], "additionalProperties": False,
        "expected": "a mapping", "properties": {
            "edition": {"enum": known}, "part": {"type": "string"}, "count": _COUNT,
            **texts("name"), "lines": _LINES,
            "breakdown": {"type": ["array", "null"], "items": {
                "type": "object", "required": ["name", "name_source"], "additionalProperties": False,
                "expected": "a mapping", "properties": {"count": _COUNT, **texts("name")}}}}}
    return {
        "type": "object", "required": ["game", "sources", "cards"], "additionalProperties": False,
        "expected": "a mapping with 'game', 'sources' and 'cards'",
        "properties": {
            "game": {}, "sources": {},  # checked first, by load_card_file: the rest depends on them
            "cards": {"type": "array", "items": card, "expected": "a list of entries"},
            "components": {"type": ["array", "null"], "items": component},
            "extras": {"type": ["object", "null"]}}}


def _text(raw: dict[str, Any], key: str, langs: tuple[str, ...]) -> Text | None:
    """The text ``key`` of a checked entry (None when the entry has none)."""
    value, source = raw.get(key), raw.get(f"{key}_source") or {}
    if value is None:
        return None
    return Text(tuple((lang, value[lang].strip()) for lang in langs), tuple((lang, source[lang]) for lang in langs))


def _fields(game: str, raw: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The game's own fields of a checked entry, as :attr:`Card.fields` holds them."""
    langs = LANGS[game]
    if game == "cytosis":
        steps = tuple(Step(Spot(step["spot"]), tuple(Resource(r) for r in step.get("puts") or ()),
                           step.get("pays_atp", False), _text(step, "text", langs) or _missing(),
                           tuple(Resource(r) for r in step.get("pays") or ()),
                           tuple(Resource(r) for r in step.get("gains") or ()))
                      for step in raw.get("pipeline") or ())
        return (("counts", tuple(raw["counts"].items())), ("hp", raw.get("hp")),
                ("cost", tuple((Resource(r), n) for r, n in (raw.get("cost") or {}).items())),
                ("example", raw.get("example", False)), ("strain", raw.get("strain")), ("pipeline", steps),
                ("scoring", _text(raw, "scoring", langs)))
    if game == "ursuppe":
        return (("price", raw.get("price")), ("price_from_player", raw.get("price_from_player")),
                ("mutation_points", raw.get("mutation_points")),
                ("copies", tuple((str(k), n) for k, n in raw["copies"].items())),
                ("replaces", tuple(raw.get("replaces") or ())), ("reconstructed", raw.get("reconstructed", False)))
    return (*((key, raw.get(key)) for key in ("extra_food", "points", "extra_points", "copies")),
            ("extra_points_when", _text(raw, "extra_points_when", langs)),
            ("limit", Limit(raw.get("limit", "none"))),
            ("protects_against", tuple(Threat(t) for t in raw.get("protects_against") or ())))


def _missing() -> Text:
    raise AssertionError("a required text the schema checked")


class _Lines:
    """Line ranges of one card file, checked against its sources' lengths."""

    def __init__(self, file: Path, located: Located, problems: Problems, sources: dict[str, Path]):
        self.file, self.located, self.problems = file, located, problems
        self.line_counts: dict[str, int] = {}
        for sid, path in sources.items():
            try:
                self.line_counts[sid] = len(path.read_text(encoding="utf-8").splitlines())
            except OSError:
                pass

    def ranges(self, sid: str, value: Any, path: DataPath, where: str) -> tuple[tuple[int, int], ...] | None:
        """``value``'s line ranges in source ``sid``; None (reported) when unreadable or past its end."""
        ranges = parse_line_ranges(value)
        limit = self.line_counts.get(sid)
        if ranges is None:
            message = f"expected line ranges like '12-15, 20', got {value!r}"
        elif limit is not None and any(b > limit for _, b in ranges):
            message = f"line ranges {value!r} go past the end of {sid} ({limit} lines)"
        else:
            return ranges
        self.problems.add(self.file, yaml_path(*path), f"{where}: {message}", self.located.line(*path))
        return None


def _entry_name(data: Any) -> Callable[[DataPath], str]:
    """How a message names the card or component a path lies in (``entry 'speed'``, ``component #2``)."""
    def name(path: DataPath) -> str:
        if len(path) < 2 or not isinstance(path[1], int):
            return ""
        if path[0] == "components":
            return f"component #{path[1] + 1}"
        raw = data["cards"][path[1]]
        cid = raw.get("id") if isinstance(raw, dict) else None
        return f"entry {cid!r}" if cid is not None else f"entry #{path[1] + 1}"
    return name


def _sources(file: Path, data: Any, located: Located, data_dir: Path, problems: Problems) -> dict[str, Path] | None:
    """The file's game and sources checked (the schema depends on them): source id -> file, or None."""
    game = file.stem
    if not isinstance(data, dict):
        problems.add(file, "", f"expected a mapping with 'game', 'sources' and 'cards', got {type(data).__name__}")
        return None
    if data.get("game") != game or game not in GAMES:
        problems.add(file, "game", f"expected game: {game!r} (one of {list(GAMES)}; the file is named after it), "
                                   f"got {data.get('game')!r}", located.line("game"))
        return None
    raw = data.get("sources")
    if not isinstance(raw, dict) or not raw or not all(isinstance(v, str) and is_id(k) for k, v in raw.items()):
        problems.add(file, "sources", f"expected a mapping of source id to file under data/, got {raw!r}",
                     located.line("sources"))
        return None
    sources = {sid: data_dir / rel for sid, rel in raw.items()}
    for sid, path in sources.items():
        if not path.is_file():
            problems.add(file, yaml_path("sources", sid), f"source file {raw[sid]!r} not found", located.line("sources", sid))
    return sources


def load_card_file(file: Path, data_dir: Path, problems: Problems) -> CardSet | None:
    """Load and validate one card file, adding every problem found to ``problems``."""
    try:
        data, located = load_yaml(file)
    except DataError as exc:  # a syntax error: keep collecting the other files
        problems.items.extend(exc.problems)
        return None
    sources = _sources(file, data, located, data_dir, problems)
    if sources is None:
        return None
    game, langs = file.stem, LANGS[file.stem]
    faults = schema.check(data, located, file, _schema(game, tuple(sources)), problems, _entry_name(data))
    if not faults.usable("cards"):
        return None
    lines = _Lines(file, located, problems, sources)
    name = _entry_name(data)
    cards: list[Card] = []
    first_seen: dict[str, int] = {}
    for i, raw in enumerate(data["cards"]):
        path = ("cards", i)
        if faults.usable(*path, "id"):
            if raw["id"] in first_seen:
                first = first_seen[raw["id"]]
                problems.add(file, yaml_path(*path, "id"), f"{name(path)}: duplicate id {raw['id']!r} (first used by "
                             f"cards[{first}], line {located.line('cards', first, 'id')})", located.line(*path, "id"))
                continue
            first_seen[raw["id"]] = i
        if not faults.usable(*path, "source_lines"):
            continue
        ranges = tuple((sid, lines.ranges(sid, value, (*path, "source_lines", sid), name(path)))
                       for sid, value in raw["source_lines"].items())
        if faults.clean(*path) and all(r is not None for _, r in ranges):
            cards.append(Card(raw["id"], TYPES[game](raw["type"]), _text(raw, "name", langs) or _missing(),
                              _text(raw, "text", langs) or _missing(), tuple(raw.get("rules", ())),
                              tuple((sid, r) for sid, r in ranges if r is not None), _fields(game, raw),
                              _text(raw, "note", langs)))
    ids = {c.id for c in cards}
    for card in cards:
        for j, gene in enumerate(card.get("replaces") or ()):
            if gene not in ids:
                path = ("cards", first_seen[card.id], "replaces", j)
                problems.add(file, yaml_path(*path), f"entry {card.id!r}: replaces unknown gene {gene!r}",
                             located.line(*path))
    components = []
    for i, item in enumerate(data.get("components") or () if faults.usable("components") else ()):
        path = ("components", i)
        ranges = lines.ranges(item["edition"], item["lines"], (*path, "lines"), name(path)) \
            if faults.usable(*path, "lines") and faults.usable(*path, "edition") else None
        if faults.clean(*path) and ranges is not None:
            components.append(Component(item["edition"], item.get("part", "base"), item.get("count"),
                                        _text(item, "name", langs) or _missing(),
                                        tuple((part.get("count"), _text(part, "name", langs) or _missing())
                                              for part in item.get("breakdown") or ()), ranges))
    return CardSet(game, file, tuple(sources.items()), tuple(cards), tuple(components),
                   tuple((data.get("extras") or {}).items()))


def load_cards(data_dir: Path) -> dict[str, CardSet]:
    """Load every ``data/cards/<game>.yaml``; raise :class:`DataError` listing every problem."""
    problems = Problems()
    out: dict[str, CardSet] = {}
    for file in sorted((Path(data_dir) / "cards").glob("*.yaml")):
        card_set = load_card_file(file, Path(data_dir), problems)
        if card_set is not None:
            out[card_set.game] = card_set
    problems.raise_if_any()
    return out


def check_rule_refs(card_sets: dict[str, CardSet], sections: dict[str, set[str]], problems: Problems) -> None:
    """Report every ``rules:`` entry that names no section of that game's rules.

    ``sections`` maps game id -> the set of its section ids (from the rules data). Games missing from
    ``sections`` are skipped (their rules are not written yet).
    """
    for game, card_set in card_sets.items():
        known = sections.get(game)
        if known is None:
            continue
        data, located = load_yaml(card_set.file)
        index = {c.get("id"): i for i, c in enumerate(data.get("cards", [])) if isinstance(c, dict)}
        for card in card_set.cards:
            for j, ref in enumerate(card.rules):
                if ref not in known:
                    path = ("cards", index.get(card.id, 0), "rules", j)
                    problems.add(card_set.file, yaml_path(*path),
                                 f"entry {card.id!r}: unknown rule section {ref!r} for game {game!r}", located.line(*path))
