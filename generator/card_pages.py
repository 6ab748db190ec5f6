"""The card database pages: ``cards/index.md`` and ``cards/<game>.md`` in every site language.

Registers, when imported (see ``generator.features``):

- the ``cards`` loader: ``data/cards/*.yaml`` via :func:`generator.cards.load_cards`, with every
  ``rules:`` reference checked against the game's rule sections;
- the page producer: one card index per game, each card an ``<article class="cellula-card">``
  whose ``id`` is the card id (the permalink), with ``data-*`` attributes for the client-side
  filters of ``docs/assets/cards.js`` (the page works without it: every card is shown);
- the section links: under a rule section, "Card: <name>" for every card whose ``rules:`` lists it.

Data text is escaped on the way out (``render`` filters ``text``, ``md``, ``attr``); values the
rulebooks do not give are shown as "not in the rulebooks", never as a number.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from solver.game.model import Resource

from . import features, i18n
from .cards import (PROJECT, CardSet, Card, CytosisType, Spot, Text, check_rule_refs, load_cards)
from .errors import DataError, Problems
from .yamlio import load_yaml
from .refs import check_file_refs, relative, resolve_refs
from .render import Page, escaped, render
from .cards import CARD_SETS

if TYPE_CHECKING:
    from .rules import Game, Section
    from .site_data import SiteData

INDEX_PAGE = "cards/index.md"

UI = i18n.namespace("cards")
"""This feature's interface strings: ``cards.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""

LANG_NAMES = i18n.namespace("core.lang_names")
"""Language names, by interface language then language."""

TYPE_LABELS = i18n.labels("cards.card_types")
"""How each card type is named on the page."""

CELL_COMPONENT_TYPES = frozenset({
    CytosisType.ENZYME, CytosisType.PROTEIN_HORMONE, CytosisType.STEROID_HORMONE,
    CytosisType.PROTEIN_HORMONE_RECEPTOR, CytosisType.STEROID_HORMONE_RECEPTOR,
    CytosisType.ALCOHOL_DETOXIFICATION, CytosisType.MACROMOLECULE, CytosisType.VIRUS_ATTACK,
})
"""Cytosis types that have a cost and Health Points (events, goals and epigenetic cards have neither)."""

SPOT_TERMS = {Spot.ROUGH_ER: "rough-er", Spot.SMOOTH_ER: "smooth-er", Spot.GOLGI: "golgi-apparatus",
              Spot.EXOCYTOSIS: "exocytosis", Spot.FREE_RIBOSOME: "free-ribosome", Spot.CYTOPLASM: "cytoplasm"}
"""Glossary term naming each board spot (the glossary is the source of the official wording)."""

SPOT_FALLBACK = i18n.labels("cards.spots")
"""Spot names when the glossary has no term for them."""

RESOURCE_TERMS = {Resource.ATP: "atp", Resource.MRNA: "mrna", Resource.PROTEIN: "protein",
                  Resource.LIPID: "lipid", Resource.CARB: "carbohydrate"}
"""Glossary term naming each resource."""

LIMIT_LABELS = i18n.labels("cards.limits")
"""How often an Immune Response property may be used."""
THREAT_LABELS = i18n.labels("cards.threats")
"""What an Immune Response property protects against."""
EDITION_LABELS = i18n.labels("cards.editions")
"""Short names of the Cytosis boxes, for the per-edition counts."""


class Metric(str, Enum):
    """The numeric values a card index can filter and sort on."""

    COST = "cost"
    POINTS = "points"


@dataclass(frozen=True)
class GameMetrics:
    """Which card field each metric reads in one game, and how it is named."""

    cost: str
    """Field read as the cost (``cost.atp`` for Cytosis)."""
    points: str
    """Field read as the points."""
    labels: i18n.Labels
    """Metric value -> language -> label."""


METRICS = {
    "cytosis": GameMetrics("cost.atp", "hp", i18n.labels("cards.metrics.cytosis")),
    "ursuppe": GameMetrics("price", "mutation_points", i18n.labels("cards.metrics.ursuppe")),
    "immune-response": GameMetrics("extra_food", "points", i18n.labels("cards.metrics.immune-response")),
}
"""Per game: the fields behind the cost and points filters."""


# --------------------------------------------------------------------------- views


class ProvKind(str, Enum):
    """Where a text comes from, as shown by its badge (css class ``cellula-prov--<kind>``)."""

    OFFICIAL = "official"
    """Printed in an official rulebook (or the original the project translates)."""
    TRANSLATION = "translation"
    """This project's translation of an official text."""
    PROJECT = "project"
    """Written or named by this project: no official text exists in any language."""


@dataclass(frozen=True)
class Provenance:
    """A text's origin badge."""

    kind: ProvKind
    """Official, translation or the project's own."""
    label: str
    """What the badge says, in the page language."""


@dataclass(frozen=True)
class OtherText:
    """A name or text of the card in a language other than the page's."""

    lang_label: str
    """"Russian name", "Original text (Italian)"..."""
    value: str
    """The text (a name is plain text, a body Markdown)."""
    prov: Provenance
    """Its origin."""


@dataclass(frozen=True)
class Row:
    """One labelled value of a card (``<dt>``/``<dd>``)."""

    label: str
    """What the value is."""
    value: str
    """The value as plain text."""
    missing: bool = False
    """True when the rulebooks do not give it (styled, and the value says so)."""


@dataclass(frozen=True)
class StepView:
    """One completion step of a Cytosis card."""

    spot: str
    """Where the flask goes."""
    summary: str
    """What is put or paid there."""
    text: str
    """The rulebook's text of the step (Markdown)."""
    prov: Provenance
    """Its origin."""


@dataclass(frozen=True)
class Link:
    """A link with its label."""

    label: str
    """Link text (plain)."""
    href: str
    """Target (a Markdown ``.md`` path with anchor, rewritten by MkDocs)."""


@dataclass(frozen=True)
class CardView:
    """What the template needs to show one card on one language's page."""

    id: str
    """Card id: the article's ``id`` and permalink anchor."""
    order: int
    """Position in the data file (the rulebook order sort)."""
    type: str
    """Type value (``data-type``)."""
    type_label: str
    """Type, named in the page language."""
    name: str
    """Name in the page language."""
    name_prov: Provenance
    """Origin of the name."""
    other_names: tuple[OtherText, ...]
    """Names in the other languages that differ from ``name``, the original first."""
    text: str
    """Description in the page language (Markdown)."""
    text_prov: Provenance
    """Origin of the description."""
    originals: tuple[OtherText, ...]
    """When ``text`` is the project's translation: the official texts it comes from."""
    badges: tuple[str, ...]
    """Short flags (example card, reconstructed values)."""
    rows: tuple[Row, ...]
    """The game's values."""
    cost: int | None
    """Value of the cost filter (``data-cost``), None when not given."""
    points: int | None
    """Value of the points filter (``data-points``), None when not given."""
    pipeline: tuple[StepView, ...]
    """Cytosis completion steps, in order."""
    extra_texts: tuple[tuple[str, str, Provenance], ...]
    """(heading, Markdown, origin) blocks: scoring, note."""
    replaces: tuple[Link, ...]
    """Genes this one replaces (links on the same page)."""
    rules: tuple[Link, ...]
    """Rule sections that apply."""
    rule_ids: tuple[str, ...]
    """Their section ids (``data-rules``, for the rule filter)."""


# --------------------------------------------------------------------------- helpers


def card_page(game_id: str) -> str:
    """Path of a game's card page under ``docs/<lang>/``."""
    return f"cards/{game_id}.md"


def served_url(from_page: str, to_page: str) -> str:
    """Link between two generated pages as a final URL (directory URLs), for raw HTML that MkDocs
    does not rewrite: ``cytosis/cards.md`` -> ``cards/cytosis.md`` gives ``../../cards/cytosis/``."""

    def folder(page: str) -> str:
        stem = page[:-3] if page.endswith(".md") else page
        return posixpath.dirname(stem) if posixpath.basename(stem) == "index" else stem

    rel = posixpath.relpath(folder(to_page) or ".", folder(from_page) or ".")
    return "./" if rel == "." else rel + "/"


HEADING_LINE = re.compile(r"(?m)^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


def card_markdown(text: str) -> str:
    """A card's Markdown text with its heading lines made bold paragraphs (a heading inside a card
    would outrank the card's name and land in the page's table of contents)."""
    return HEADING_LINE.sub(lambda m: f"**{m.group(1)}**", text)


def card_text(site: SiteData, game_id: str, text: str, lang: str) -> str:
    """A card's text (its text, note, scoring or a step) as Markdown for the card page: references
    made links as in rule texts (checked when the cards are loaded) and headings made bold."""
    game = site.games.get(game_id)
    if game is not None and "[[" in text:
        text = resolve_refs(text, site, game, lang, card_page(game_id))
    return card_markdown(text)


def md_link_text(text: str) -> str:
    """Data text as the text of a Markdown link: markup characters and ``<`` escaped."""
    for ch in "\\[]*_`":
        text = text.replace(ch, "\\" + ch)
    return text.replace("<", "&lt;")


def field_value(card: Card, key: str) -> Any:
    """A card field, ``cost.atp`` reading into the Cytosis cost mapping."""
    if key == "cost.atp":
        return dict(card.get("cost") or ()).get(Resource.ATP)
    return card.get(key)


def metric_value(game_id: str, card: Card, metric: Metric) -> int | None:
    """The card's value for a filter metric, None when the rulebooks do not give it (or it does not apply)."""
    if game_id == "cytosis" and card.type not in CELL_COMPONENT_TYPES:
        return None
    spec = METRICS[game_id]
    value = field_value(card, spec.cost if metric is Metric.COST else spec.points)
    return value if isinstance(value, int) else None


def term_label(site: SiteData, term_id: str | None, lang: str, fallback: dict[str, str] | None = None) -> str:
    """The glossary's preferred form of a term, or the fallback label."""
    for term in site.glossary:
        preferred = term.preferred(lang) if term.id == term_id else None
        if preferred:
            return preferred
    return (fallback or {}).get(lang, term_id or "")


def source_label(site: SiteData, game_id: str, source_id: str, lang: str) -> str:
    """A source's label from the game manifest (its id when the manifest does not list it)."""
    game = site.games.get(game_id)
    for source in (game.sources if game else ()):
        if source.id == source_id:
            return source.label[lang]
    return EDITION_LABELS.get(source_id, {}).get(lang, source_id)


def provenance(site: SiteData, game_id: str, text: Text, text_lang: str, ui_lang: str, project_key: str) -> Provenance:
    """Badge of ``text`` in ``text_lang``: official source, project translation (of the first official
    language), or the project's own (``project_key`` names it: name, text or note)."""
    ui = UI[ui_lang]
    source = text.source(text_lang)
    if source != PROJECT:
        return Provenance(ProvKind.OFFICIAL, ui["official"].format(source=source_label(site, game_id, source, ui_lang)))
    officials = [s for _, s in text.sources if s != PROJECT]
    if officials:
        return Provenance(ProvKind.TRANSLATION,
                          ui["translation"].format(source=source_label(site, game_id, officials[0], ui_lang)))
    return Provenance(ProvKind.PROJECT, ui[project_key])


def languages(text: Text) -> list[str]:
    """The languages of a text, official ones first."""
    langs = [lang for lang, _ in text.values]
    return sorted(langs, key=lambda lang: text.by_project(lang))


def missing_row(label: str, value: int | None, lang: str) -> Row:
    """A numeric value, or "not in the rulebooks"."""
    if value is None:
        return Row(label, UI[lang]["missing"], True)
    return Row(label, str(value))


# --------------------------------------------------------------------------- per-game rows


def cytosis_rows(site: SiteData, card: Card, lang: str) -> list[Row]:
    ui = UI[lang]
    labels = METRICS["cytosis"].labels
    counts = dict(card.get("counts") or ())
    editions = [e for e in EDITION_LABELS if e in counts] + [e for e in counts if e not in EDITION_LABELS]
    parts = [f"{EDITION_LABELS.get(e, {}).get(lang, e)}: {ui['missing'] if counts[e] is None else counts[e]}"
             for e in editions]
    rows = []
    if parts:
        rows.append(Row(ui["counts"], " · ".join(parts)))
    if card.get("strain"):
        rows.append(Row(ui["strain"], str(card.get("strain")).capitalize()))
    if card.type in CELL_COMPONENT_TYPES:
        rows.append(missing_row(labels["points"][lang], card.get("hp"), lang))
        cost = dict(card.get("cost") or ())
        if cost:
            rows.append(Row(ui["cost_parts"], ", ".join(
                f"{n} {term_label(site, RESOURCE_TERMS[r], lang, {lang: r.value})}" for r, n in cost.items())))
        else:
            rows.append(Row(ui["cost_parts"], ui["missing"], True))
    return rows


def ursuppe_rows(site: SiteData, card: Card, lang: str) -> list[Row]:
    ui = UI[lang]
    labels = METRICS["ursuppe"].labels
    rows = [missing_row(labels["cost"][lang], card.get("price"), lang)]
    if card.get("price_from_player") is not None:
        rows.append(Row(ui["price_from_player"], str(card.get("price_from_player"))))
    rows.append(missing_row(labels["points"][lang], card.get("mutation_points"), lang))
    copies = card.get("copies") or ()
    rows.append(Row(ui["copies"], " · ".join(
        f"{ui['copies_players'].format(n=k)}: {ui['missing'] if n is None else n}" for k, n in copies)))
    return rows


def immune_rows(site: SiteData, card: Card, lang: str) -> list[Row]:
    ui = UI[lang]
    labels = METRICS["immune-response"].labels
    rows = [missing_row(labels["cost"][lang], card.get("extra_food"), lang),
            missing_row(labels["points"][lang], card.get("points"), lang)]
    extra = missing_row(ui["extra_points"], card.get("extra_points"), lang)
    when = card.get("extra_points_when")
    if when is not None and not extra.missing:
        extra = Row(extra.label, f"{extra.value} {when[lang]}")
    rows.append(extra)
    limit = card.get("limit")
    if limit is not None:
        rows.append(Row(ui["limit"], LIMIT_LABELS[limit][lang]))
    threats = card.get("protects_against") or ()
    if threats:
        rows.append(Row(ui["protects_against"], ", ".join(THREAT_LABELS[t][lang] for t in threats)))
    rows.append(missing_row(ui["copies"], card.get("copies"), lang))
    return rows


ROWS = {"cytosis": cytosis_rows, "ursuppe": ursuppe_rows, "immune-response": immune_rows}


# --------------------------------------------------------------------------- card views


def step_views(site: SiteData, game_id: str, card: Card, lang: str) -> tuple[StepView, ...]:
    ui = UI[lang]
    out = []
    for step in card.get("pipeline") or ():
        parts = []
        for label, resources in (("step_gains", step.gains), ("step_puts", step.puts), ("step_pays", step.pays)):
            if resources:
                parts.append(f"{ui[label]} " + ", ".join(
                    term_label(site, RESOURCE_TERMS[r], lang, {lang: r.value}) for r in resources))
        if step.pays_atp:
            parts.append(ui["step_pays_atp"])
        out.append(StepView(term_label(site, SPOT_TERMS.get(step.spot), lang, SPOT_FALLBACK[step.spot]),
                            "; ".join(parts), card_text(site, game_id, step.text[lang], lang),
                            provenance(site, game_id, step.text, lang, lang, "project_text")))
    return tuple(out)


def label_text(title: str) -> str:
    """A section title as the text of a label (a link, a filter's option): its emphasis markers dropped
    ('FREE RIBOSOME (RIBOSOMA LIBERO - *Traduzione mRNA*)' reads without asterisks), the words kept."""
    return re.sub(r"(\*{1,2}|(?<!\w)_{1,2}|_{1,2}(?!\w))", "", title)


def rule_links(site: SiteData, game_id: str, card: Card, lang: str) -> tuple[Link, ...]:
    """Links to the rule sections of ``card.rules``, from the card page (unknown sections are skipped:
    the loader has reported them)."""
    game = site.games.get(game_id)
    if game is None:
        return ()
    sections = [game.sections[s] for s in card.rules if s in game.sections]
    titles = [label_text(s.texts[lang].title) for s in sections]
    links = []
    for section, title in zip(sections, titles):
        if titles.count(title) > 1:  # two sections of one name: say which chapter each is in
            title = f"{title} ({game.chapter_of(section.id).title[lang]})"
        target = f"{game_id}/{section.chapter}.md"
        links.append(Link(title, f"{relative(card_page(game_id), target)}#{section.anchor}"))
    return tuple(links)


def card_view(site: SiteData, card_set: CardSet, card: Card, order: int, lang: str) -> CardView:
    ui = UI[lang]
    game_id = card_set.game
    name = card.name[lang]
    other_names = tuple(
        OtherText(ui["name_in"].format(lang=LANG_NAMES[lang][other]).capitalize(), card.name[other],
                  provenance(site, game_id, card.name, other, lang, "project_name"))
        for other in languages(card.name) if other != lang and card.name[other] != name)
    originals: tuple[OtherText, ...] = ()
    if card.text.by_project(lang):
        originals = tuple(
            OtherText(ui["original_text"].format(lang=LANG_NAMES[lang][other]), card_text(site, game_id, card.text[other], other),
                      provenance(site, game_id, card.text, other, lang, "project_text"))
            for other in languages(card.text) if other != lang and not card.text.by_project(other))
    badges = []
    if card.get("example"):
        badges.append(ui["example"])
    if card.get("reconstructed"):
        badges.append(ui["reconstructed"])
    extra_texts = []
    scoring = card.get("scoring")
    if scoring is not None:
        extra_texts.append((ui["scoring"], card_text(site, game_id, scoring[lang], lang), provenance(site, game_id, scoring, lang, lang, "project_text")))
    if card.note is not None:
        extra_texts.append((ui["note"], card_text(site, game_id, card.note[lang], lang), provenance(site, game_id, card.note, lang, lang, "project_note")))
    replaces = tuple(Link(card_set.card(r).name[lang], f"#{r}") for r in card.get("replaces") or ())
    return CardView(
        id=card.id, order=order, type=card.type.value, type_label=TYPE_LABELS[card.type][lang],
        name=name, name_prov=provenance(site, game_id, card.name, lang, lang, "project_name"),
        other_names=other_names, text=card_text(site, game_id, card.text[lang], lang),
        text_prov=provenance(site, game_id, card.text, lang, lang, "project_text"), originals=originals,
        badges=tuple(badges), rows=tuple(ROWS[game_id](site, card, lang)),
        cost=metric_value(game_id, card, Metric.COST), points=metric_value(game_id, card, Metric.POINTS),
        pipeline=step_views(site, game_id, card, lang), extra_texts=tuple(extra_texts), replaces=replaces,
        rules=rule_links(site, game_id, card, lang), rule_ids=card.rules,
    )


# --------------------------------------------------------------------------- pages


def game_title(site: SiteData, game_id: str, lang: str) -> str:
    game = site.games.get(game_id)
    return game.title[lang] if game else game_id


def sort_options(game_id: str, lang: str) -> list[tuple[str, str]]:
    """(value, label) of the sort select; the values are what ``cards.js`` understands."""
    ui = UI[lang]
    labels = {m: METRICS[game_id].labels[m][lang] for m in ("cost", "points")}
    return [("order", ui["sort_order"]), ("name", ui["sort_name"]),
            ("cost", ui["sort_cost_asc"].format(**labels)), ("-cost", ui["sort_cost_desc"].format(**labels)),
            ("points", ui["sort_points_asc"].format(**labels)), ("-points", ui["sort_points_desc"].format(**labels))]


def rule_options(site: SiteData, card_set: CardSet, lang: str) -> list[tuple[str, str]]:
    """(section id, "Chapter: Section") of every rule section some card lists, in rulebook order."""
    game = site.games.get(card_set.game)
    if game is None:
        return []
    used = {r for card in card_set.cards for r in card.rules}
    return [(section_id, f"{chapter.title[lang]}: {label_text(game.sections[section_id].texts[lang].title)}")
            for chapter in game.chapters for section_id in chapter.sections if section_id in used]


def game_page(site: SiteData, card_set: CardSet, lang: str) -> Page:
    ui = UI[lang]
    game_id = card_set.game
    title = game_title(site, game_id, lang)
    cards = [card_view(site, card_set, card, i, lang) for i, card in enumerate(card_set.cards)]
    types = [(t.value, TYPE_LABELS[t][lang]) for t in dict.fromkeys(c.type for c in card_set.cards)]
    content = render(
        "cards_game.md.j2", ui=ui, lang=lang, game_id=game_id, title=title, cards=cards, types=types,
        metrics={m: METRICS[game_id].labels[m][lang] for m in ("cost", "points")},
        sort_options=sort_options(game_id, lang), rule_options=rule_options(site, card_set, lang),
        game_index=relative(card_page(game_id), f"{game_id}/index.md"),
        count_text=ui["count_all"].format(n=len(cards)), mdlink=escaped(md_link_text),
    )
    return Page(lang, card_page(game_id), title, content, nav=(ui["nav"],), tooltips=False)


def index_page(site: SiteData, card_sets: dict[str, CardSet], lang: str) -> Page:
    ui = UI[lang]
    games = [{"id": g, "title": game_title(site, g, lang), "entries": len(s.cards),
              "types": len({c.type for c in s.cards}), "href": relative(INDEX_PAGE, card_page(g))}
             for g, s in card_sets.items()]
    return Page(lang, INDEX_PAGE, ui["title"], render("cards_index.md.j2", ui=ui, lang=lang, games=games),
                nav=(ui["nav"],))


def ordered_sets(site: SiteData) -> dict[str, CardSet]:
    """The loaded card sets, in the order of the site's games (then any others)."""
    card_sets = site.get(CARD_SETS)
    order = [g for g in site.games if g in card_sets] + [g for g in card_sets if g not in site.games]
    return {g: card_sets[g] for g in order}


def produce(site: SiteData, lang: str) -> list[Page]:
    """The card index and one page per game, for one language (none when there are no cards)."""
    card_sets = ordered_sets(site)
    if not card_sets:
        return []
    return [index_page(site, card_sets, lang)] + [game_page(site, s, lang) for s in card_sets.values()]


# --------------------------------------------------------------------------- loader and section links


def load(site: SiteData, problems: Problems) -> dict[str, CardSet] | None:
    """Load ``data/cards/*.yaml`` (none: no cards) and check the ``rules:`` references against the
    rule sections; every problem goes to ``problems``."""
    if not (site.data_dir / "cards").is_dir():
        return None
    try:
        card_sets = load_cards(site.data_dir)
    except DataError as exc:
        problems.items.extend(exc.problems)
        return None
    sections = {game_id: set(game.sections) for game_id, game in site.games.items()}
    check_rule_refs(card_sets, sections, problems)
    for game_id, card_set in card_sets.items():     # [[term:...]] and [[chapter.slug]] in any card text
        data, located = load_yaml(card_set.file)
        check_file_refs(card_set.file, data, located, site, game_id, problems)
    return card_sets


MAX_CARD_LINKS = 4
"""Above this many cards, a rule section links the card page filtered on it instead of each card."""


def referenced_by(site: SiteData, game: Game, section: Section, lang: str, page: str) -> list[tuple[str, str]]:
    """Under a rule section: "Card: <name>" for every card of the game whose ``rules:`` lists it, or,
    for more than :data:`MAX_CARD_LINKS` cards, one link to the card page filtered on the section.
    The hrefs are relative ``.md`` paths, rendered as Markdown links that MkDocs resolves and checks."""
    card_set = site.get(CARD_SETS).get(game.id)
    if card_set is None:
        return []
    ui = UI[lang]
    href = relative(page, card_page(game.id))
    cards = [card for card in card_set.cards if section.id in card.rules]
    if len(cards) > MAX_CARD_LINKS:
        return [(ui["cards_for_rule"].format(n=len(cards)), f"{href}?rule={section.id}")]
    return [(f"{ui['card']}: {card.name[lang]}", f"{href}#{card.id}") for card in cards]


def mark_inferred_rows(site: SiteData, game: Game, section: Section, lang: str, page: str, body: str) -> str:
    """In a rule section's tables, a row naming a card with ``reconstructed: true`` gets, after the
    name, a link to that card ("inferred values"): the rules page says what the card database says."""
    card_set = site.get(CARD_SETS).get(game.id)
    if card_set is None or "|" not in body:
        return body
    names = {card.name["en"].upper().replace("MOUTHFUL", "MOUTHFULL"): card for card in card_set.cards
             if card.get("reconstructed") and section.id in card.rules}
    if not names:
        return body
    href = relative(page, card_page(game.id))
    out = []
    for line in body.splitlines():
        if line.startswith("|"):
            cells = line.split("|")
            for index, cell in enumerate(cells):
                card = names.get(cell.strip())
                if card is not None:
                    cells[index] = f" {cell.strip()} · [*{UI[lang]['inferred_mark']}*]({href}#{card.id}){{ .cellula-inferred }} "
                    break
            line = "|".join(cells)
        out.append(line)
    return "\n".join(out)


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: :func:`load` into the site's data."""
    site.put(CARD_SETS, load(site, problems) or {})


features.register(features.Feature(name="cards", loader=store, producers=(produce,),
                                   section_links=(referenced_by,), body_filters=(mark_inferred_rows,)))
