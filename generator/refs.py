"""Cross references inside data texts: ``[[chapter.slug]]`` links a rule section of the same game,
``[[term:id]]`` a glossary entry. Unknown targets are data errors; known ones become links."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import Problems
from .yamlio import Located, yaml_path

if TYPE_CHECKING:
    from .rules import Game
    from .site_data import SiteData

REF = re.compile(r"\[\[(?P<target>[^\]\s]+)\]\]")


def check_refs(site: SiteData, problems: Problems) -> None:
    """Report every reference in a section text whose target does not exist."""
    term_ids = {t.id for t in site.glossary}
    for game in site.games.values():
        for section in game.sections.values():
            for text in section.texts.values():
                for match in REF.finditer(text.body):
                    target = match.group("target")
                    if target.startswith("term:"):
                        if target[5:] not in term_ids:
                            problems.add(text.file, section.id, f"unknown glossary reference [[{target}]]: "
                                         "expected [[term:<id>]] with an id of data/glossary.yaml", text.line)
                    elif target not in game.sections:
                        problems.add(text.file, section.id, f"unknown section reference [[{target}]]: expected "
                                     f"[[chapter.slug]] naming a section of {game.id}", text.line)
        notes_file = f"data/rules/{game.id}/notes.yaml"
        for section_id, notes in game.notes.items():
            for note in notes:
                for lang in ("it", "en"):
                    for match in REF.finditer(note.text[lang]):
                        target = match.group("target")
                        known = target[5:] in term_ids if target.startswith("term:") else target in game.sections
                        if not known:
                            problems.add(notes_file, section_id, f"unknown reference [[{target}]] in the {lang} "
                                         "note: expected [[chapter.slug]] of this game or [[term:<id>]]")


def check_file_refs(file: str | Path, data: Any, located: Located, site: SiteData, game_id: str,
                    problems: Problems) -> None:
    """Report every reference in any text of a parsed data file (a card database: names, texts,
    notes, scoring, steps) whose target does not exist: a glossary term, or a section of
    ``game_id``'s rules; each with its line and field."""
    term_ids = {t.id for t in site.glossary}
    game = site.games.get(game_id)
    todo: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while todo:
        value, path = todo.pop()
        if isinstance(value, dict):
            todo.extend((v, path + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend((v, path + (i,)) for i, v in enumerate(value))
        elif isinstance(value, str) and "[[" in value:
            for match in REF.finditer(value):
                target = match.group("target")
                if target.startswith("term:"):
                    if target[5:] not in term_ids:
                        problems.add(file, yaml_path(*path), f"unknown glossary reference [[{target}]]: expected "
                                     "[[term:<id>]] with an id of data/glossary.yaml", located.line(path))
                elif game is None or target not in game.sections:
                    problems.add(file, yaml_path(*path), f"unknown section reference [[{target}]]: expected "
                                 f"[[chapter.slug]] naming a section of {game_id}'s rules", located.line(path))


def relative(from_page: str, to_page: str) -> str:
    """Link from one generated page to another (both paths under docs/<lang>/)."""
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def resolve_refs(body: str, site: SiteData, game: Game, lang: str, page_path: str) -> str:
    """Turn references into Markdown links relative to ``page_path``."""
    terms = {t.id: t for t in site.glossary}

    def link(match: re.Match[str]) -> str:
        target = match.group("target")
        if target.startswith("term:"):
            term = terms[target[5:]]
            return f"[{term.preferred(lang)}]({relative(page_path, 'glossary.md')}#{term.anchor})"
        section = game.sections[target]
        page = f"{game.id}/{section.chapter}.md"
        return f"[{section.texts[lang].title}]({relative(page_path, page)}#{section.anchor})"

    return REF.sub(link, body)
