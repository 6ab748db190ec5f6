"""The core pages: home, each game's index and rules chapters, the side-by-side view, the glossary."""
from __future__ import annotations

import re
from typing import Any

from .glossary import Term
from . import features
from . import i18n
from .refs import relative, resolve_refs
from .render import Page, escape_md, render
from .rules import Game, Section, SectionText, rule_numbers
from .site_data import SiteData
from .quickref import QUICK_REFERENCES

LANG_NAMES = i18n.namespace("core.lang_names")
"""Language names, by interface language then language."""


def provenance(site: SiteData, game: Game, text: SectionText, lang: str) -> dict[str, Any]:
    """How a text's origin is shown: label, css class, and whether it is a translation."""
    source = game.source(text.source)
    ui = site.ui[lang]
    if text.translated:
        label = f"{ui['translation_of']}: {source.label[lang]}"
        kind = "translation"
    else:
        label = source.label[lang]
        kind = "official" if game.compare_editions else "original"
    return {"label": label, "kind": kind, "translated": text.translated}


def section_view(site: SiteData, game: Game, section: Section, lang: str, page: str,
                 ui_lang: str | None = None) -> dict[str, Any]:
    """What a template needs to show one section's ``lang`` text on the page ``page`` in ``ui_lang``."""
    text = section.texts[lang]
    ui_lang = ui_lang or lang

    def body_of(t: SectionText) -> str:
        # data text escaped first; the body filters then add the generator's own markup (links
        # with attribute lists), which must stay markup
        body = resolve_refs(escape_md(t.body), site, game, lang, page)
        for feature in features.registered():
            for body_filter in feature.body_filters:
                body = body_filter(site, game, section, ui_lang, page, body)
        return body
    originals = [t for t in section.originals() if t.lang != lang and not game.compare_editions]
    return {
        "id": section.id,
        "anchor": section.anchor,
        "title": text.title,
        "project_heading": text.project_heading,
        "lang_name": LANG_NAMES[ui_lang][text.lang],  # a third language's page shows its fallback's text
        "body": body_of(text),  # Markdown, data text escaped (see body_of)
        "prov": provenance(site, game, text, ui_lang),
        "only": section.only,
        "also": [(game.sections[a].texts[ui_lang].title, f"{relative(page, game.id + '/' + game.sections[a].chapter + '.md')}#{game.sections[a].anchor}")
                 for a in section.also],
        "originals": [{"lang": t.lang, "lang_name": LANG_NAMES[lang][t.lang], "title": t.title,
                       "body": body_of(t),
                       "prov": provenance(site, game, t, ui_lang)} for t in originals],
        "links": [link for feature in features.registered() for links in feature.section_links
                  for link in links(site, game, section, ui_lang, page)],
        "lines": ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in text.lines),
        "notes": editorial_notes(site, game, section, ui_lang, page),
    }


def editorial_notes(site: SiteData, game: Game, section: Section, lang: str, page: str) -> list[dict[str, Any]]:
    """The project's notes beside a section, in ``lang``: the kind's label and the Markdown text."""
    ui = site.ui[lang]
    return [{"kind": note.kind.value, "label": f"{ui['editorial_note']}: {ui['note_' + note.kind.value]}",
             "text": resolve_refs(escape_md(note.text[lang]), site, game, lang, page)}
            for note in game.notes.get(section.id, ())]


def game_pages(site: SiteData, game: Game, lang: str) -> list[Page]:
    ui = site.ui[lang]
    game_title = game.title[lang]
    pages = [Page(lang, f"{game.id}/index.md", game_title, render(
        "game_index.md.j2", ui=ui, lang=lang, game=game, title=game_title,
        quickref=game.id in site.get(QUICK_REFERENCES),
        chapters=[{"id": c.id, "title": c.title[lang],
                   "sections": [(game.sections[s].texts[lang].title, game.sections[s].anchor) for s in c.sections]}
                  for c in game.chapters],
        sources=[{"label": s.label[lang], "file": s.file.name} for s in game.sources],
    ), nav=(game_title,))]
    numbers = rule_numbers(game)
    for chapter in game.chapters:
        page = f"{game.id}/{chapter.id}.md"
        sections = [section_view(site, game, game.sections[s], lang, page) | {"number": numbers[s]}
                    for s in chapter.sections]
        pages.append(Page(lang, f"{game.id}/{chapter.id}.md", chapter.title[lang], render(
            "chapter.md.j2", ui=ui, lang=lang, game=game, chapter_title=chapter.title[lang], chapter=chapter,
            sections=sections, compare=game.compare_editions, game_title=game_title,
        ), nav=(game_title, ui["rules"])))
    if game.compare_editions:
        for chapter in game.chapters:
            rows = []
            for section_id in chapter.sections:
                section = game.sections[section_id]
                rows.append({"anchor": section.anchor, "id": section_id,
                             "title": section.texts[lang].title,
                             "sides": [section_view(site, game, section, side, f"{game.id}/compare/{chapter.id}.md", lang)
                                       | {"side": side}
                                       for side in ("it", "en")]})
            pages.append(Page(lang, f"{game.id}/compare/{chapter.id}.md", chapter.title[lang], render(
                "compare.md.j2", ui=ui, lang=lang, game=game, chapter=chapter, chapter_title=chapter.title[lang],
                rows=rows, game_title=game_title,
            ), nav=(game_title, ui["compare"])))
    return pages


HOME_TOOLS = ("cytosis/puzzles/index.md", "cytosis/differences.md", "cards/index.md", "glossary.md",
              "cytosis/assumptions.md", "cytosis/benchmark.md")
"""Pages the home page points to when they exist, in this order."""


def home_page(site: SiteData, lang: str, others: list[Page]) -> Page:
    """The home page, made last so that it links only pages that exist."""
    ui = site.ui[lang]
    titles = {p.path: p.title for p in others}
    return Page(lang, "index.md", ui["home_title"], render(
        "home.md.j2", ui=ui, lang=lang,
        games=[{"id": g.id, "title": g.title[lang], "chapters": [(c.id, c.title[lang]) for c in g.chapters],
                "sources": [s.label[lang] for s in g.sources], "compare": g.compare_editions,
                "differences": f"{g.id}/differences.md" in titles}
               for g in site.games.values()],
        tools=[(path, titles[path]) for path in HOME_TOOLS if path in titles],
    ))


def core_pages(site: SiteData, lang: str) -> list[Page]:
    """Each game's rules pages and the glossary (the home page comes last, see home_page)."""
    ui = site.ui[lang]
    pages = []
    for game in site.games.values():
        pages.extend(game_pages(site, game, lang))
    groups = []
    for game in site.games.values():
        terms = [t for t in site.glossary if game.id in t.games]
        if terms:
            groups.append({"title": game.title[lang], "id": game.id, "terms": terms})
    pages.append(Page(lang, "glossary.md", ui["glossary"], render(
        "glossary.md.j2", ui=ui, lang=lang, groups=groups, show_ru=any(t.forms.get("ru") for t in site.glossary),
    )))
    return pages


# --- glossary terms on pages: tooltips and cross-language search text ---------------------------

def _forms_used(chunk: str, forms: tuple[str, ...]) -> set[str]:
    """The forms that occur in ``chunk`` as whole words; a plain substring test first, since most
    forms do not occur at all and the word-boundary search is the slow part."""
    found = set()
    for form in forms:
        if form in chunk and re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", chunk):
            found.add(form)
    return found


SKIPPED_LINE = re.compile(r"^\s*(?:#|<|!!!|\?\?\?|===|\*\[|\||\{|---|:|```|title:)")
"""Lines where no glossary mark goes: headings, raw HTML, admonition and tab titles, tables,
abbreviation and attribute lines, front matter, code fences."""

PROTECTED = re.compile(r"\[[^\]]*\]\([^)]*\)(?:\{[^}]*\})?|`[^`]*`|<[^>]*>|\{[^}]*\}|\x00\d+\x00")
"""Spans of a line a mark may not enter: links, code, HTML tags, attribute lists, marks placed."""


MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def term_tip(term: Term, lang: str) -> str:
    """A term's tooltip on a ``lang`` page: its other-language forms, then its glossary note."""
    other = "en" if lang == "it" else "it"
    tip = f"{other.upper()}: {term.preferred(other)}"
    if term.forms.get("ru"):
        tip += f" · RU: {term.preferred('ru')}"
    if term.note.get(lang):
        tip += f" — {term.note[lang]}"
    # the tip sits in an attribute list, whose line Markdown reads first: a link or image in a note
    # keeps its text only (an image would be loaded, a link would break the list)
    tip = MARKDOWN_LINK.sub(r"\1", tip)
    # straight quotes become typographic pairs (“...”): an attribute value cannot hold them as they are
    tip = re.sub(r'"([^"]*)"', "“\\1”", " ".join(tip.split()))
    return tip.replace('"', "”").replace("{", "(").replace("}", ")").replace("<", "‹")


def _mark_first_occurrences(chunk: str, terms: list[Term], lang: str, glossary_href: str) -> str:
    """Link the first occurrence of each term in a section to its glossary entry, with the term's
    tooltip; later occurrences stay plain text."""
    forms = sorted(((form, term) for term in terms for form in term.own_forms(lang)),
                   key=lambda pair: -len(pair[0]))
    placed: list[str] = []
    marked: set[str] = set()
    lines = chunk.split("\n")
    in_fence = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line.strip() or SKIPPED_LINE.match(line):
            continue
        for form, term in forms:
            if term.id in marked or form not in line:
                continue
            free = PROTECTED.sub(lambda m: "\x01" * len(m.group(0)), line)
            match = re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", free)
            if not match:
                continue
            marked.add(term.id)
            placed.append(f'[{form}]({glossary_href}#{term.anchor}){{ .cellula-term data-tip="{term_tip(term, lang)}" }}')
            line = line[:match.start()] + f"\x00{len(placed) - 1}\x00" + line[match.end():]
        lines[index] = line
    out = "\n".join(lines)
    return re.sub(r"\x00(\d+)\x00", lambda m: placed[int(m.group(1))], out)


def annotate_terms(content: str, terms: list[Term], lang: str, game_ids: set[str] | None,
                   tooltips: bool = True, page_path: str = "index.md") -> str:
    """Link the first occurrence per ``##`` section of each glossary term a page uses to its glossary
    entry, with a tooltip (the other language's forms and the term's note; ``assets/tips.js`` shows
    it on hover and keyboard focus, Escape hides it); and, at the end of each section, add the other
    language's counterparts of the terms that section uses as hidden text, so a search in either
    language lands on the right section."""
    relevant = [t for t in terms if game_ids is None or game_ids.intersection(t.games)]
    glossary_href = relative(page_path, "glossary.md")
    chunks = re.split(r"(?m)^(?=## )", content)
    out = []
    for chunk in chunks:
        counterparts: dict[str, None] = {}
        present = _forms_used(chunk, tuple(f for t in relevant for f in t.forms.get(lang, ())))
        used_terms = [t for t in relevant if any(form in present for form in t.forms.get(lang, ()))]
        for term in used_terms:
            for form in (term.preferred("en" if lang == "it" else "it"), term.preferred("ru")):
                if form:
                    counterparts[form.replace("<", "&lt;")] = None
        if tooltips and used_terms and page_path != "glossary.md":
            body_start = 0
            if chunk.startswith("---\n"):  # front matter: leave it as it is
                end = chunk.find("\n---", 3)
                body_start = end + 4 if end >= 0 else 0
            chunk = chunk[:body_start] + _mark_first_occurrences(chunk[body_start:], used_terms, lang, glossary_href)
        if counterparts:
            chunk = chunk.rstrip("\n") + f'\n\n<div class="cellula-xlang" hidden>{" · ".join(counterparts)}</div>\n\n'
        out.append(chunk)
    return "".join(out)
