"""Quick-reference pages: one per game and language, from ``data/rules/<game>/quickref.yaml``.

Each line of a quick reference states a fact in both languages and names the rule sections it comes
from (``refs``); the page links every line to its first section, beside that section's rule number.
No value is invented: every number written in digits in a line must occur in the text of its
sections in the same language, or loading fails naming file, line and the number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import features, schema
from .errors import Problems, display_path
from .render import Page, render
from .languages import CONTENT_LANGUAGES
from .rules import SITE_LANGUAGES, Game, Label, rule_numbers
from .schema import Schema
from .yamlio import load_yaml, yaml_path
from .site_data import FeatureKey

if TYPE_CHECKING:
    from .site_data import SiteData

FILE_NAME = "quickref.yaml"
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class QuickLine:
    """One fact of a quick reference."""
    refs: tuple[str, ...]
    """Rule section ids the fact comes from; the line links to the first."""
    text: Label
    """The fact in each site language."""


@dataclass(frozen=True)
class QuickGroup:
    """A heading of a quick reference (players and setup, the round, end of game, scoring)."""
    id: str
    """Anchor, the same in every language."""
    title: Label
    """Heading in each site language."""
    lines: tuple[QuickLine, ...]
    """Facts, in reading order."""


QUICK_REFERENCES: FeatureKey[dict[str, tuple[QuickGroup, ...]]] = FeatureKey("quickref", dict)
"""The quick reference of every game that has one, by game id (the ``quickref`` feature's data)."""


GROUP_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A group id: lower-case words joined by '-' (the group's anchor on the page)."""


def _numbers(text: str) -> set[str]:
    return set(_NUMBER.findall(text))


def _in_languages(expected: str) -> Schema:
    """A text in each content language, optionally in another site language."""
    body = schema.in_languages(CONTENT_LANGUAGES, expected, closed=True, member=None)
    body["properties"].update({lang: schema.NONEMPTY_TEXT for lang in SITE_LANGUAGES if lang not in CONTENT_LANGUAGES})
    return body


SCHEMA: Schema = {
    "type": "object", "required": ["groups"], "additionalProperties": False,
    "properties": {"groups": {
        "type": "array", "minItems": 1, "expected": "a non-empty list of groups",
        "items": {
            "type": "object", "required": ["id", "title", "lines"], "additionalProperties": False,
            "expected": "{id, title, lines: [...]}",
            "properties": {
                "id": {"type": "string", "pattern": f"^{GROUP_ID.pattern}$",
                       "expected": "a group id of a-z, 0-9 and '-' (it is the group's anchor on the page)"},
                "title": _in_languages(f"a text for each of {', '.join(CONTENT_LANGUAGES)}"),
                "lines": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["refs", *CONTENT_LANGUAGES], "additionalProperties": False,
                    "expected": f"{{refs: [...], {', '.join(CONTENT_LANGUAGES)}}} (and optionally another site language)",
                    "properties": {
                        "refs": {"type": "array", "minItems": 1, "items": {"type": "string"},
                                 "expected": "a list of rule section ids"},
                        **{lang: schema.NONEMPTY_TEXT for lang in SITE_LANGUAGES}}}}}}}},
}
"""The shape of a quick reference; :func:`load_quickref` checks ids once, refs and numbers against the rules."""


def _label(value: dict[str, str]) -> Label:
    return Label.of({lang: value[lang].strip() for lang in SITE_LANGUAGES if isinstance(value.get(lang), str)})


def load_quickref(file: Path, game: Game, problems: Problems) -> tuple[QuickGroup, ...]:
    """The groups of one game's quick reference, every line checked against its rule sections."""
    data, located = load_yaml(file)
    where = display_path(file)
    faults = schema.check(data, located, where, SCHEMA, problems)
    if not faults.usable("groups"):
        return ()
    groups = []
    seen: dict[str, int | None] = {}
    for g, group in enumerate(data["groups"]):
        path = ("groups", g)
        if not faults.usable(*path, "id"):
            continue
        group_id = group["id"]
        if group_id in seen:
            problems.add(where, yaml_path(*path, "id"), f"duplicate group id {group_id!r} (first on line "
                         f"{seen[group_id]}): expected each id once", located.line(*path, "id"))
            continue
        seen[group_id] = located.line(*path, "id")
        lines = []
        for n, line in enumerate(group["lines"] if faults.usable(*path, "lines") else []):
            lpath = path + ("lines", n)
            if not faults.usable(*lpath, "refs"):
                continue
            refs = line["refs"]
            unknown = [r for r in refs if r not in game.sections]
            if unknown:
                problems.add(where, yaml_path(*lpath, "refs"),
                             f"unknown rule sections {unknown} (expected ids from rules/{game.id}/game.yaml)",
                             located.line(*lpath, "refs"))
                continue
            if not faults.clean(*lpath):
                continue
            text = _label(line)
            for lang in (lang for lang in SITE_LANGUAGES if lang in line):
                source = " ".join(game.sections[r].texts[lang].title + " " + game.sections[r].texts[lang].body
                                  for r in refs)
                missing = sorted(_numbers(text[lang]) - _numbers(source), key=int)
                if missing:
                    problems.add(where, yaml_path(*lpath, lang),
                                 f"numbers {missing} do not occur in the {lang} text of {', '.join(refs)}: "
                                 "a quick reference only repeats the rules", located.line(*lpath, lang))
            lines.append(QuickLine(tuple(refs), text))
        if faults.clean(*path, "title"):
            groups.append(QuickGroup(group_id, _label(group["title"]), tuple(lines)))
    return tuple(groups)


def load(site: SiteData, problems: Problems) -> dict[str, tuple[QuickGroup, ...]]:
    """Quick references of the games that have one."""
    found = {}
    for game in site.games.values():
        file = site.data_dir / "rules" / game.id / FILE_NAME
        if file.exists():
            found[game.id] = load_quickref(file, game, problems)
    return found


def page_path(game_id: str) -> str:
    return f"{game_id}/quickref.md"


def produce(site: SiteData, lang: str) -> list[Page]:
    """The quick-reference page of every game that has one, in ``lang``."""
    pages = []
    ui = site.ui[lang]
    for game_id, groups in site.get(QUICK_REFERENCES).items():
        game = site.games[game_id]
        numbers = rule_numbers(game)
        chapter_of = {s: c.id for c in game.chapters for s in c.sections}
        view = [{"id": g.id, "title": g.title[lang], "lines": [
            {"text": line.text[lang],
             "links": [{"number": numbers[r], "title": game.sections[r].texts[lang].title,
                        "href": f"{chapter_of[r]}.md#{game.sections[r].anchor}"} for r in line.refs[:1]]}
            for line in g.lines]} for g in groups]
        title = ui["quickref"]
        pages.append(Page(lang, page_path(game_id), title, render(
            "quickref.md.j2", ui=ui, lang=lang, game=game, game_title=game.title[lang], title=title,
            groups=view), nav=(game.title[lang],)))
    return pages


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: :func:`load` into the site's data."""
    site.put(QUICK_REFERENCES, load(site, problems))


features.register(features.Feature(name="quickref", loader=store, producers=(produce,)))
