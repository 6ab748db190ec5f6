"""The rules-coverage page ("Copertura delle regole" / "Rules coverage"): the rules audit of
``data/audit/<game>.yaml`` (see :mod:`generator.audit`) shown per rule group, with the official
quotes and their provenance, the project's explanations, the engine code, the planner blocks, the
tests and a status badge; linked from the puzzles index.

Registers the ``audit`` loader and the page producer with :mod:`generator.features`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import features, i18n
from .audit import STATUS_ORDER, Audit, AuditRow, Status, load_audits
from .puzzle_pages.texts import UI as PUZZLE_UI, md_inline
from .puzzle_pages.views import section_link
from .refs import relative
from .render import Page, render

if TYPE_CHECKING:
    from .errors import Problems
    from .rules import Game, Section
    from .site import SiteData

GAME = "cytosis"
PAGE = "cytosis/rules-coverage.md"
"""Where the page lives, next to the assumptions and benchmark pages of the puzzles."""

UI = i18n.namespace("audit")
"""This feature's interface strings: ``audit.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def status_view(status: Status, lang: str) -> dict[str, Any]:
    return {"id": status.value, "label": UI[lang][f"status_{status.value}"],
            "help": UI[lang][f"status_help_{status.value}"]}


def row_view(site: SiteData, audit: Audit, row: AuditRow, lang: str) -> dict[str, Any]:
    game = site.games[audit.game]
    sources = {s.id: s for s in game.sources}
    links = [link for link in (section_link(site, s, lang, PAGE) for s in row.sections) if link]
    return {
        "id": row.id,
        "title": links[0].label if links else md_inline(row.id),
        "status": status_view(row.status, lang),
        "sections": links,
        "quotes": [{"label": sources[q.source].label[lang], "text": md_inline(q.text),
                    "lang": sources[q.source].lang} for q in row.quotes],
        "explanation": md_inline(row.explanation[lang]),
        "chosen": md_inline(row.chosen[lang]) if row.chosen else None,
        "other": md_inline(row.other[lang]) if row.other else None,
        "engine": list(row.engine),
        "planner": [{"function": p.function, "block": p.block} for p in row.planner],
        "tests": list(row.tests),
    }


def coverage_page(site: SiteData, audit: Audit, lang: str, nav: tuple[str, ...]) -> Page:
    ui = UI[lang]
    counts = audit.counts()
    groups = [{"id": g.id, "title": g.title[lang], "rows": [row_view(site, audit, r, lang) for r in audit.rows_of(g.id)]}
              for g in audit.groups]
    excluded = [{"link": section_link(site, e.id, lang, PAGE), "reason": md_inline(e.reason[lang])}
                for e in audit.excluded]
    content = render("rules_coverage.md.j2", ui=ui, groups=groups, excluded=excluded,
                     summary=[status_view(s, lang) | {"count": counts[s]} for s in STATUS_ORDER],
                     total=len(audit.rows), index_href=relative(PAGE, "cytosis/puzzles/index.md"))
    return Page(lang, PAGE, ui["title"], content, nav=nav)


def audit_links(site: SiteData, game: Game, section: Section, lang: str, page: str) -> list[tuple[str, str]]:
    """Under a rule section: one link to its first row on the rules-coverage page, naming the
    statuses of the rows that cover it (nothing for sections with no row)."""
    audit = site.audit.get(game.id)
    if audit is None or game.id != GAME:
        return []
    rows = [r for r in audit.rows if section.id in r.sections]
    if not rows:
        return []
    statuses = [s for s in STATUS_ORDER if any(r.status is s for r in rows)]
    label = f"{UI[lang]['title']}: " + ", ".join(UI[lang][f"status_{s.value}"] for s in statuses)
    return [(label, f"{relative(page, PAGE)}#{rows[0].id}")]


def load(site: SiteData, problems: Problems) -> dict[str, Audit] | None:
    audits = load_audits(site.data_dir, site.games, problems)
    return audits or None


def produce(site: SiteData, lang: str) -> list[Page]:
    audits = site.audit
    if not audits or GAME not in audits or GAME not in site.games:
        return []
    nav = (site.games[GAME].title[lang], PUZZLE_UI[lang]["nav"])
    return [coverage_page(site, audits[GAME], lang, nav)]


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: :func:`load` into the site's data."""
    site.audit = load(site, problems) or {}


features.register(features.Feature(name="audit", loader=store, producers=(produce,), section_links=(audit_links,)))
