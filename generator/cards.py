"""Card and component database: ``data/cards/<game>.yaml`` loaded into typed, validated models.

One file per game. Every entry has a stable ``id`` (the permalink anchor), a ``type`` from the
game's closed vocabulary, names and texts in the site languages (and Russian for Immune
Response) with their provenance, the game's numeric fields (``null`` where the sources give no
value: the site then says "not in the rulebooks"), the rule sections that apply and the source
lines the values come from. See the "Cards" section of ``data/README.md``.

``load_cards(data_dir)`` reports every problem of every file at once as one :class:`DataError`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from solver.loading import Located, parse_line_ranges
from solver.model import Resource

from .errors import Problems
from .yamlio import load_yaml, yaml_path

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
        return dict(self.values)[lang]

    def source(self, lang: str) -> str:
        """The source id the text in ``lang`` comes from, or ``project`` for this project's text."""
        return dict(self.sources)[lang]

    def by_project(self, lang: str) -> bool:
        """True when the text in ``lang`` is this project's (a translation or a coined name)."""
        return self.source(lang) == PROJECT


@dataclass(frozen=True)
class Step:
    """One placement in a Cytosis card's completion pipeline."""

    spot: Spot
    """Where the flask is placed."""
    puts: tuple[Resource, ...]
    """Macromolecules put on the vesicle disk (or paid, for enzymes) at this step."""
    pays_atp: bool
    """Whether the card's ATP cost is paid at this step."""
    text: Text
    """What happens, in both site languages."""


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


# --------------------------------------------------------------------------- predicates


def is_id(value: Any) -> bool:
    return isinstance(value, str) and bool(ID.match(value))


def is_section_id(value: Any) -> bool:
    return isinstance(value, str) and bool(SECTION_ID.match(value))


MAX_COUNT = 999
"""Largest count, cost or price a card file may give (far above any printed value)."""


def is_count(value: Any) -> bool:
    """An integer 0..MAX_COUNT (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_text(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


# --------------------------------------------------------------------------- loading


class _Ctx:
    """Per-file state while validating."""

    def __init__(self, file: Path, located: Located, problems: Problems, game: str, sources: dict[str, Path]):
        self.file = file
        self.located = located
        self.problems = problems
        self.game = game
        self.sources = sources
        self.line_counts: dict[str, int] = {}
        for sid, path in sources.items():
            try:
                self.line_counts[sid] = len(path.read_text(encoding="utf-8").splitlines())
            except OSError:
                pass

    def add(self, path: tuple[str | int, ...], message: str) -> None:
        self.problems.add(self.file, yaml_path(*path), message, self.located.line(*path))


def _text(ctx: _Ctx, raw: dict[str, Any], key: str, path: tuple[str | int, ...], where: str, langs: tuple[str, ...],
          required: bool = True) -> Text | None:
    value = raw.get(key)
    src = raw.get(f"{key}_source")
    if value is None and not required:
        return None
    ok = True
    if not isinstance(value, dict):
        ctx.add(path + (key,), f"{where}: expected a mapping of languages {list(langs)} to texts, got {value!r}")
        return None
    if not isinstance(src, dict):
        ctx.add(path + (f"{key}_source",),
                f"{where}: expected {key}_source: a mapping of languages to a source id or 'project', got {src!r}")
        src = {}
    for lang in langs:
        if not is_text(value.get(lang)):
            ctx.add(path + (key, lang), f"{where}: missing translation: {key}.{lang} must be a non-empty text, "
                                        f"got {value.get(lang)!r}")
            ok = False
        s = src.get(lang)
        if s != PROJECT and s not in ctx.sources:
            ctx.add(path + (f"{key}_source", lang),
                    f"{where}: {key}_source.{lang} must be one of {sorted(ctx.sources) + [PROJECT]}, got {s!r}")
            ok = False
    for lang in value:
        if lang not in langs:
            ctx.add(path + (key, lang), f"{where}: unexpected language {lang!r} (expected {list(langs)})")
            ok = False
    if not ok:
        return None
    return Text(tuple((lang, value[lang].strip()) for lang in langs), tuple((lang, src[lang]) for lang in langs))


def _source_lines(ctx: _Ctx, raw: Any, path: tuple[str | int, ...], where: str) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    if not isinstance(raw, dict) or not raw:
        ctx.add(path, f"{where}: expected source_lines: a mapping of source id to line ranges ('12-15, 20'), got {raw!r}")
        return ()
    out = []
    for sid, value in raw.items():
        if sid not in ctx.sources:
            ctx.add(path + (sid,), f"{where}: unknown source {sid!r} (expected one of {sorted(ctx.sources)})")
            continue
        ranges = parse_line_ranges(value)
        if ranges is None:
            ctx.add(path + (sid,), f"{where}: expected line ranges like '12-15, 20', got {value!r}")
            continue
        limit = ctx.line_counts.get(sid)
        if limit is not None and any(b > limit for _, b in ranges):
            ctx.add(path + (sid,), f"{where}: line ranges {value!r} go past the end of {sid} ({limit} lines)")
            continue
        out.append((sid, ranges))
    return tuple(out)


E = TypeVar("E", bound=Enum)


def _enum(ctx: _Ctx, enum: type[E], value: Any, path: tuple[str | int, ...], where: str, what: str) -> E | None:
    try:
        return enum(value)
    except ValueError:
        ctx.add(path, f"{where}: unknown {what} {value!r} (expected one of {[e.value for e in enum]})")
        return None


def _flag(ctx: _Ctx, raw: dict[str, Any], key: str, path: tuple[str | int, ...], where: str) -> bool:
    """An optional true/false field (default false): ``"false"`` or ``1`` is an error, not a truth."""
    value = raw.get(key, False)
    if not isinstance(value, bool):
        ctx.add(path + (key,), f"{where}: {key} must be true or false, got {value!r}")
        return False
    return value


def _count(ctx: _Ctx, value: Any, path: tuple[str | int, ...], where: str, what: str, nullable: bool = True) -> bool:
    if value is None and nullable:
        return True
    if not is_count(value):
        ctx.add(path, f"{where}: {what} must be an integer 0..{MAX_COUNT}{' or null' if nullable else ''}, got {value!r}")
        return False
    return True


def _int_or_null(ctx: _Ctx, value: Any, path: tuple[str | int, ...], where: str, what: str) -> bool:
    if value is None or is_int(value):
        return True
    ctx.add(path, f"{where}: {what} must be an integer or null, got {value!r}")
    return False


COMMON_KEYS = {"id", "type", "name", "name_source", "text", "text_source", "rules", "source_lines",
               "note", "note_source"}
GAME_KEYS = {
    "cytosis": {"counts", "hp", "cost", "example", "pipeline", "scoring", "scoring_source", "strain"},
    "ursuppe": {"price", "price_from_player", "mutation_points", "copies", "replaces", "reconstructed"},
    "immune-response": {"extra_food", "points", "extra_points", "extra_points_when", "extra_points_when_source",
                        "limit", "protects_against", "copies"},
}


def _cytosis_fields(ctx: _Ctx, raw: dict[str, Any], path: tuple[str | int, ...], where: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    counts = raw.get("counts")
    if not isinstance(counts, dict):
        ctx.add(path + ("counts",), f"{where}: expected counts: a mapping of edition (source id) to a count, got {counts!r}")
        counts = {}
    for edition, n in counts.items():
        if edition not in ctx.sources:
            ctx.add(path + ("counts", edition), f"{where}: unknown edition {edition!r} (expected one of {sorted(ctx.sources)})")
        _count(ctx, n, path + ("counts", edition), where, f"counts.{edition}")
    out.append(("counts", tuple(counts.items())))
    _count(ctx, raw.get("hp"), path + ("hp",), where, "hp")
    out.append(("hp", raw.get("hp")))
    cost = raw.get("cost") or {}
    if not isinstance(cost, dict):
        ctx.add(path + ("cost",), f"{where}: cost must be a mapping of resource to amount, got {cost!r}")
        cost = {}
    clean = {}
    for res, n in cost.items():
        r = _enum(ctx, Resource, res, path + ("cost", res), where, "resource")
        if r is not None and _count(ctx, n, path + ("cost", res), where, f"cost.{res}"):
            clean[r] = n
    out.append(("cost", tuple(clean.items())))
    out.append(("example", _flag(ctx, raw, "example", path, where)))
    out.append(("strain", raw.get("strain")))
    steps = []
    for i, step in enumerate(raw.get("pipeline") or []):
        sp = path + ("pipeline", i)
        if not isinstance(step, dict):
            ctx.add(sp, f"{where}: a pipeline step must be a mapping, got {step!r}")
            continue
        spot = _enum(ctx, Spot, step.get("spot"), sp + ("spot",), where, "spot")
        read = tuple(_enum(ctx, Resource, r, sp + ("puts", j), where, "resource") for j, r in enumerate(step.get("puts") or []))
        puts = tuple(r for r in read if r is not None)
        text = _text(ctx, step, "text", sp, where, LANGS[ctx.game])
        if spot is not None and text is not None and len(puts) == len(read):  # every resource known
            steps.append(Step(spot, puts, _flag(ctx, step, "pays_atp", sp, where), text))
    out.append(("pipeline", tuple(steps)))
    out.append(("scoring", _text(ctx, raw, "scoring", path, where, LANGS[ctx.game], required=False)))
    return out


def _ursuppe_fields(ctx: _Ctx, raw: dict[str, Any], path: tuple[str | int, ...], where: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    replaces = raw.get("replaces") or []
    if not isinstance(replaces, list) or not all(is_id(r) for r in replaces):
        ctx.add(path + ("replaces",), f"{where}: replaces must be a list of gene ids, got {replaces!r}")
    _count(ctx, raw.get("price"), path + ("price",), where, "price")
    _count(ctx, raw.get("price_from_player"), path + ("price_from_player",), where, "price_from_player")
    _int_or_null(ctx, raw.get("mutation_points"), path + ("mutation_points",), where, "mutation_points")
    copies = raw.get("copies")
    if not isinstance(copies, dict) or set(map(str, copies)) != set(PLAYER_COUNTS):
        ctx.add(path + ("copies",), f"{where}: copies must map each of {list(PLAYER_COUNTS)} players to a count, got {copies!r}")
        copies = {}
    for k, n in copies.items():
        _count(ctx, n, path + ("copies", k), where, f"copies.{k}")
    out += [("price", raw.get("price")), ("price_from_player", raw.get("price_from_player")),
            ("mutation_points", raw.get("mutation_points")),
            ("copies", tuple((str(k), copies[k]) for k in copies)),
            ("replaces", tuple(raw.get("replaces") or ())), ("reconstructed", _flag(ctx, raw, "reconstructed", path, where))]
    return out


def _immune_fields(ctx: _Ctx, raw: dict[str, Any], path: tuple[str | int, ...], where: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key in ("extra_food", "points", "extra_points", "copies"):
        _count(ctx, raw.get(key), path + (key,), where, key)
        out.append((key, raw.get(key)))
    out.append(("extra_points_when", _text(ctx, raw, "extra_points_when", path, where, LANGS[ctx.game], required=False)))
    limit = _enum(ctx, Limit, raw.get("limit", "none"), path + ("limit",), where, "limit")
    out.append(("limit", limit))
    threats = raw.get("protects_against") or []
    if not isinstance(threats, list):
        ctx.add(path + ("protects_against",), f"{where}: protects_against must be a list, got {threats!r}")
        threats = []
    out.append(("protects_against", tuple(t for t in (
        _enum(ctx, Threat, v, path + ("protects_against", i), where, "threat") for i, v in enumerate(threats)) if t)))
    return out


FIELD_LOADERS = {"cytosis": _cytosis_fields, "ursuppe": _ursuppe_fields, "immune-response": _immune_fields}


def _card(ctx: _Ctx, raw: Any, index: int) -> Card | None:
    path = ("cards", index)
    if not isinstance(raw, dict):
        ctx.add(path, f"cards[{index}]: expected a mapping, got {raw!r}")
        return None
    cid = raw.get("id")
    where = f"entry {cid!r}" if cid is not None else f"entry #{index + 1}"
    problems_before = len(ctx.problems.items)
    if not is_id(cid):
        ctx.add(path + ("id",), f"{where}: id must be lowercase a-z0-9 with hyphens, got {cid!r}")
    for key in raw:
        if key not in COMMON_KEYS | GAME_KEYS[ctx.game]:
            ctx.add(path + (key,), f"{where}: unknown field {key!r} (expected one of "
                                   f"{sorted(COMMON_KEYS | GAME_KEYS[ctx.game])})")
    kind = _enum(ctx, TYPES[ctx.game], raw.get("type"), path + ("type",), where, "type")
    langs = LANGS[ctx.game]
    name = _text(ctx, raw, "name", path, where, langs)
    text = _text(ctx, raw, "text", path, where, langs)
    note = _text(ctx, raw, "note", path, where, langs, required=False)
    rules = raw.get("rules", [])
    if not isinstance(rules, list) or not all(is_section_id(r) for r in rules):
        ctx.add(path + ("rules",), f"{where}: rules must be a list of section ids 'chapter.slug', got {rules!r}")
        rules = []
    lines = _source_lines(ctx, raw.get("source_lines"), path + ("source_lines",), where)
    fields = FIELD_LOADERS[ctx.game](ctx, raw, path, where)
    if len(ctx.problems.items) != problems_before or kind is None or name is None or text is None:
        return None
    assert isinstance(cid, str), "an id is_id rejects was reported above, so the entry returned None"
    return Card(cid, kind, name, text, tuple(rules), lines, tuple(fields), note)


def _components(ctx: _Ctx, raw: Any) -> tuple[Component, ...]:
    if raw is None:
        return ()
    out = []
    if not isinstance(raw, list):
        ctx.add(("components",), f"components must be a list, got {raw!r}")
        return ()
    for i, item in enumerate(raw):
        path = ("components", i)
        where = f"component #{i + 1}"
        if not isinstance(item, dict):
            ctx.add(path, f"{where}: expected a mapping, got {item!r}")
            continue
        edition = item.get("edition")
        if edition not in ctx.sources:
            ctx.add(path + ("edition",), f"{where}: unknown edition {edition!r} (expected one of {sorted(ctx.sources)})")
            continue
        ok = _count(ctx, item.get("count"), path + ("count",), where, "count")
        name = _text(ctx, item, "name", path, where, LANGS[ctx.game])
        parts = []
        for j, part in enumerate(item.get("breakdown") or []):
            pp = path + ("breakdown", j)
            if not isinstance(part, dict):
                ctx.add(pp, f"{where}: breakdown items must be mappings, got {part!r}")
                ok = False
                continue
            ok = _count(ctx, part.get("count"), pp + ("count",), where, "breakdown count") and ok
            pname = _text(ctx, part, "name", pp, where, LANGS[ctx.game])
            if pname is None:
                ok = False  # the component is not kept, so neither is this part
                continue
            parts.append((part.get("count"), pname))
        lines = parse_line_ranges(item.get("lines"))
        if lines is None:
            ctx.add(path + ("lines",), f"{where}: expected line ranges like '12-15, 20', got {item.get('lines')!r}")
        if ok and name is not None and lines is not None:
            out.append(Component(edition, str(item.get("part", "base")), item.get("count"), name, tuple(parts), lines))
    return tuple(out)


def load_card_file(file: Path, data_dir: Path, problems: Problems) -> CardSet | None:
    """Load and validate one card file, adding every problem found to ``problems``."""
    try:
        data, located = load_yaml(file)
    except Exception as exc:  # DataError from a syntax error: keep collecting the other files
        for p in getattr(exc, "problems", []):
            problems.items.append(p)
        return None
    game = file.stem
    if not isinstance(data, dict):
        problems.add(file, "", f"expected a mapping with 'game', 'sources' and 'cards', got {type(data).__name__}")
        return None
    if data.get("game") != game or game not in GAMES:
        problems.add(file, "game", f"expected game: {game!r} (one of {list(GAMES)}; the file is named after it), "
                                   f"got {data.get('game')!r}", located.line("game"))
        return None
    sources_raw = data.get("sources")
    sources: dict[str, Path] = {}
    if not isinstance(sources_raw, dict) or not sources_raw:
        problems.add(file, "sources", f"expected a mapping of source id to file under data/, got {sources_raw!r}",
                     located.line("sources"))
    else:
        for sid, rel in sources_raw.items():
            path = data_dir / str(rel)
            if not path.is_file():
                problems.add(file, yaml_path("sources", sid), f"source file {rel!r} not found", located.line("sources", sid))
            sources[sid] = path
    ctx = _Ctx(file, located, problems, game, sources)
    cards_raw = data.get("cards")
    if not isinstance(cards_raw, list):
        ctx.add(("cards",), f"expected cards: a list of entries, got {cards_raw!r}")
        cards_raw = []
    cards = []
    first_seen: dict[str, int] = {}
    for i, raw in enumerate(cards_raw):
        cid = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(cid, str):
            if cid in first_seen:
                ctx.add(("cards", i, "id"), f"entry {cid!r}: duplicate id {cid!r} (first used by cards[{first_seen[cid]}], "
                                            f"line {located.line('cards', first_seen[cid], 'id')})")
            else:
                first_seen[cid] = i
        card = _card(ctx, raw, i)
        if card is not None:
            cards.append(card)
    ids = {c.id for c in cards}
    for i, card in enumerate(cards):
        for j, rep in enumerate(card.get("replaces") or ()):
            if rep not in ids:
                idx = first_seen.get(card.id, i)
                ctx.add(("cards", idx, "replaces", j), f"entry {card.id!r}: replaces unknown gene {rep!r}")
    components = _components(ctx, data.get("components"))
    extras = data.get("extras") or {}
    if not isinstance(extras, dict):
        ctx.add(("extras",), f"extras must be a mapping, got {extras!r}")
        extras = {}
    return CardSet(game, file, tuple(sources.items()), tuple(cards), components, tuple(extras.items()))


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
