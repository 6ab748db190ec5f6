"""The rules-coverage page ("Copertura delle regole" / "Rules coverage"): the rules audit of
``data/audit/<game>.yaml`` (see :mod:`generator.audit`) shown per rule group, with the official
quotes and their provenance, the project's explanations, the engine code, the planner blocks, the
tests and a status badge; linked from the puzzles index.

Registers the ``audit`` loader and the page producer with :mod:`generator.features`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import features, i18n
from .audit import STATUS_ORDER, Audit, AuditPuzzle, AuditRow, Status, load_audits
from .puzzles.texts import AREAS, CARD_TYPES, UI as PUZZLE_UI, md_inline, stock_text
from .puzzles.views import section_link
from .refs import relative
from .render import Page, render
from .audit import AUDITS

if TYPE_CHECKING:
    from .errors import Problems
    from .rules import Game, Section
    from .site_data import SiteData

GAME = "cytosis"
PAGE = "cytosis/rules-coverage.md"
"""Where the page lives, next to the assumptions and benchmark pages of the puzzles."""

UI = i18n.namespace("audit")
"""This feature's interface strings: ``audit.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""


def status_view(status: Status, lang: str) -> dict[str, Any]:
    return {"id": status.value, "label": UI[lang][f"status_{status.value}"],
            "help": UI[lang][f"status_help_{status.value}"]}


def puzzle_facts(site: SiteData, item: AuditPuzzle, lang: str) -> list[tuple[str, str]]:
    """(label, Markdown value) lines of a discriminating puzzle for the reader: the table (edition,
    rounds, flasks), what the player holds, the cards' values, the spots left free each round
    (the other players took the rest), events, other players' figures, the readings stated."""
    from .puzzles.statement import event_text, start_view
    from .puzzles.views import edition_label
    from .puzzles.play_data import names_of
    ui, pui, puzzle = UI[lang], PUZZLE_UI[lang], item.puzzle
    names = names_of(puzzle, lang)
    table = ui["puzzle_table"].format(edition=edition_label(puzzle.edition.value, lang), players=puzzle.players,
                                      rounds=puzzle.rounds, flasks=puzzle.flasks)
    if puzzle.grey_flasks:
        table += "; " + ui["puzzle_grey"].format(n=puzzle.grey_flasks)
    facts = [(ui["puzzle_setup"], table)]
    start = stock_text(puzzle.start, lang)
    if puzzle.health:
        start += "; " + ui["puzzle_health"].format(n=puzzle.health)
    facts.append((ui["puzzle_stock"], md_inline(start)))
    view = start_view(puzzle, lang)
    for key in ("hand", "row", "deck"):
        if view[key] != pui["none"] and (key != "row" or any(puzzle.row)):
            facts.append((pui[key], view[key]))
    cards = [md_inline(ui["puzzle_card"].format(name=names[c.id], cost=stock_text(c.cost, lang), health=c.health))
             + (f" ({pui['illustrative']})" if c.illustrative else "") for c in puzzle.cards]
    if cards:
        facts.append((ui["puzzle_cards"], "; ".join(cards)))
    free = []
    for r in range(puzzle.rounds):
        taken = set(puzzle.occupied[r]) if r < len(puzzle.occupied) else set()
        spots = [md_inline(f"{AREAS[s.area.value][lang]}{names.get(s.id, '')}") for s in puzzle.board.spots
                 if s.id not in taken]
        free.append(f"{pui['round_n'].format(n=r + 1)}: {' · '.join(spots) or pui['none']}")
    facts.append((ui["puzzle_free"], "; ".join(free)))
    if any(puzzle.events):
        facts.append((pui["events"], "; ".join(
            f"{pui['round_n'].format(n=r + 1)}: {event_text(site, puzzle, e, lang, PAGE)}"
            for r, e in enumerate(puzzle.events) if e)))
    opponents = [pui["detox_figure_one" if d.cards == 1 else "detox_figure"].format(amount=d.amount, cards=d.cards)
                 for d in puzzle.detox_opponents]
    opponents += [pui["opp_disk"].format(area=AREAS[d.area.value][lang], health=d.health) for d in puzzle.opponent_disks]
    opponents += [pui["opp_hormones"].format(round=r + 1, types=", ".join(CARD_TYPES[t.value][lang] for t in types))
                  for r, types in enumerate(puzzle.opponent_hormones) if types]
    if opponents:
        facts.append((pui["opponents"], md_inline("; ".join(opponents))))
    if puzzle.epigenetic is not None:
        link = section_link(site, puzzle.epigenetic.section, lang, PAGE)
        facts.append((pui["epigenetic_card"], f"[{link.label}]({link.href})" if link else md_inline(puzzle.epigenetic.value)))
    if puzzle.rulings:
        facts.append((pui["rulings"], "; ".join(md_inline(f"{pui['ruling_names'][r.value]['name']}: "
                                                          f"{pui['ruling_names'][r.value][reading]}")
                                                for r, reading in puzzle.rulings)))
    return facts


def puzzle_view(site: SiteData, item: AuditPuzzle, lang: str) -> dict[str, Any]:
    """A row's discriminating puzzle as the page shows it: title, facts, the two optima and the
    derivation (the puzzle's ``story``). The optima are the file's hand figures, which
    ``tests/test_audit_puzzles.py`` has the engines reproduce (M only where a named ruling lets the
    engine play the other reading; otherwise the page says M is by hand)."""
    ui, puzzle = UI[lang], item.puzzle
    if item.ruling is not None:
        names = PUZZLE_UI[lang]["ruling_names"][item.ruling.value]
        other_name = md_inline(names[item.other_reading or ""])
        other = ui["puzzle_other_ruling"].format(reading=other_name, m=item.other_optimum)
    else:
        other = ui["puzzle_other_hand"].format(m=item.other_optimum)
    return {"title": md_inline(puzzle.text("title", lang)), "facts": puzzle_facts(site, item, lang),
            "optimum": ui["puzzle_optimum"].format(n=item.optimum), "other": other,
            "derivation": md_inline(" ".join(puzzle.text("story", lang).split())),
            "file": f"data/audit/puzzles/{item.file.name}"}


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
        "puzzle": puzzle_view(site, audit.puzzles[row.id], lang) if row.id in audit.puzzles else None,
        "needs_puzzle": row.status.takes_puzzle,
        "no_puzzle": md_inline(row.no_puzzle[lang]) if row.no_puzzle else None,
    }


def coverage_page(site: SiteData, audit: Audit, lang: str, nav: tuple[str, ...]) -> Page:
    ui = UI[lang]
    counts = audit.counts()
    groups = [{"id": g.id, "title": g.title[lang], "rows": [row_view(site, audit, r, lang) for r in audit.rows_of(g.id)]}
              for g in audit.groups]
    excluded = [{"link": section_link(site, e.id, lang, PAGE), "reason": md_inline(e.reason[lang])}
                for e in audit.excluded]
    puzzled = sum(1 for r in audit.rows if r.id in audit.puzzles)
    eligible = [r for r in audit.rows if r.status.takes_puzzle]
    impossible = sum(1 for r in eligible if r.no_puzzle is not None)
    content = render("rules_coverage.md.j2", ui=ui, groups=groups, excluded=excluded,
                     puzzle_summary=ui["puzzle_summary"].format(n=puzzled, eligible=len(eligible),
                                                                impossible=impossible,
                                                                others=len(audit.rows) - len(eligible)),
                     summary=[status_view(s, lang) | {"count": counts[s]} for s in STATUS_ORDER],
                     total=len(audit.rows), index_href=relative(PAGE, "cytosis/puzzles/index.md"))
    return Page(lang, PAGE, ui["title"], content, nav=nav)


def audit_links(site: SiteData, game: Game, section: Section, lang: str, page: str) -> list[tuple[str, str]]:
    """Under a rule section: one link to its first row on the rules-coverage page, naming the
    statuses of the rows that cover it (nothing for sections with no row)."""
    audit = site.get(AUDITS).get(game.id)
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
    audits = site.get(AUDITS)
    if not audits or GAME not in audits or GAME not in site.games:
        return []
    nav = (site.games[GAME].title[lang], PUZZLE_UI[lang]["nav"])
    return [coverage_page(site, audits[GAME], lang, nav)]


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: :func:`load` into the site's data."""
    site.put(AUDITS, load(site, problems) or {})


features.register(features.Feature(name="audit", loader=store, producers=(produce,), section_links=(audit_links,)))
