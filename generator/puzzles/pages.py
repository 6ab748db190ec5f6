"""The puzzle pages, in every site language: the graded index, one worked example per puzzle, the
board assumptions and the benchmark, produced from the loaded :class:`.PuzzleSet`."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from solver import ActionKind

from . import play_data  # issue #19 hook: interactive board
from .. import i18n
from .play_data import names_of
from . import why  # issue #19 items 3-4: why optimal, computed level
from ..languages import SITE_LANGUAGES
from ..refs import relative
from ..render import Asset, Page, render
from .analysis_page import analysis_page, analysis_spec, start_link
from .bench_page import bench_page
from .board import plan_assumptions
from .model import (ASSUMPTIONS_PAGE, BENCH_PAGE, GAME, INDEX_PAGE, RULES_COVERAGE_PAGE, STOCK_FIELDS, Link,
                    ProofStatus, PuzzleEntry, PuzzleSet, Provenance)
from .proof import proof_lines, proof_status, proof_summary, proven_text
from .statement import card_views, start_view, statement_rows
from .texts import UI, link_title, md_inline
from .views import (board_title, breakdown_lines, edition_label, greedy_view, item_row, other_readings_view,
                    rules_used, section_link, step_rows)
from .model import PUZZLES
from ..audit import AUDITS

if TYPE_CHECKING:
    from ..site_data import SiteData


def puzzle_page(site: SiteData, puzzle_set: PuzzleSet, entry: PuzzleEntry, lang: str, nav: tuple[str, ...]) -> Page:
    ui, puzzle, record = UI[lang], entry.puzzle, entry.record
    page = f"{GAME}/puzzles/{puzzle.id}.md"
    title = puzzle.text("title", lang)
    side_title = board_title(puzzle_set, puzzle.board.id, lang)
    solution = record["solution"]
    score_link = section_link(site, "scoring.final", lang, page)
    content = render(
        "puzzle.md.j2", ui=ui, lang=lang, title=title, story=puzzle.text("story", lang), puzzle_id=puzzle.id,
        index_href=relative(page, INDEX_PAGE),
        statement=statement_rows(site, entry, side_title, lang, page), start=start_view(puzzle, lang),
        stock_names=[ui["stock_names"][f] for f in STOCK_FIELDS],
        stock_short=[ui["stock_short"][f] for f in STOCK_FIELDS], cards=card_views(site, puzzle, lang, page),
        any_illustrative=any(c.illustrative for c in puzzle.cards) or bool(puzzle.goals),
        has_goals=bool(puzzle.goals),
        status=proof_status(record).value,
        rules_used=rules_used(site, solution.get("steps", []), lang, page),
        no_plan=ui["no_plan"] if proof_status(record) is ProofStatus.INFEASIBLE else ui["no_plan_unknown"],
        steps=step_rows(site, puzzle, solution.get("steps", []), lang, page),
        health=solution.get("health"),
        final_score=i18n.plural("puzzles.final_score", lang, solution["health"]) if solution.get("health") is not None else "",
        breakdown=breakdown_lines(solution.get("breakdown"), lang),
        score_link=score_link, proof=proof_lines(record, lang), proof_summary=proof_summary(record, lang), greedy=greedy_view(site, entry, lang, page),
        other_readings=other_readings_view(record, lang, names_of(puzzle, lang)),
        assumptions=[item_row(i, lang, names_of(puzzle, lang)) for i in plan_assumptions(puzzle, solution.get("plan", []))],
        side_title=side_title, assumptions_href=relative(page, ASSUMPTIONS_PAGE) + f"#board-{puzzle.board.id}",
        # issue #19 hook: the interactive board (generator/puzzles/play_data.py)
        board=play_data.board_block(puzzle, lang=lang, analysis=analysis_spec(entry), **play_arguments(entry)),
        analyse={"label": play_data.UI[lang]["analyse_here"], "title": link_title(play_data.UI[lang]["analyse_here_title"]),
                 "href": start_link(entry, page)},
        why={**why.why_view(entry.why, record, lang, names_of(puzzle, lang)), "level": why.level_text(entry.level, lang)},
    )
    return Page(lang, page, title, content, nav=nav)


def play_arguments(entry: PuzzleEntry) -> dict[str, Any]:
    """What the board and its play data are made from: the worked example's plan, its Health and
    whether that is the proven optimum."""
    solution = entry.record["solution"]
    return {"plan": solution.get("plan", []), "optimum": solution.get("health"),
            "proven": proof_status(entry.record) is ProofStatus.OPTIMAL,
            "table": play_data.has_table(entry.regret_values)}


def play_assets(site: SiteData) -> list[Asset]:
    """Feature asset producer: each puzzle's play data (:func:`generator.puzzles.play_data.play_data_asset`),
    shared by its pages in every language; none for a puzzle without a worked example to play from.
    The regret values come from the puzzle's record, and only against a proven optimum."""
    puzzle_set = site.get(PUZZLES)
    if puzzle_set is None:
        return []
    assets = []
    for entry in puzzle_set.entries:
        arguments = play_arguments(entry)
        if arguments["plan"]:
            regret = play_data.offers_regret(arguments["optimum"], arguments["proven"])
            assets.append(play_data.play_data_asset(entry.puzzle, entry.regret_values if regret else None))
            if regret and arguments["table"] and entry.regret_values is not None:
                for lang in SITE_LANGUAGES:
                    table = play_data.play_table(entry.puzzle, entry.regret_values, lang)
                    if table is not None:
                        assets.append(play_data.play_table_asset(entry.puzzle, table, lang))
    return assets


def computed_order(entries: Iterable[PuzzleEntry]) -> list[PuzzleEntry]:
    """Puzzles by computed level, then greedy gap, then id: the index's and the navigation's order."""
    def key(e: PuzzleEntry) -> tuple[int, int, str]:
        d = e.level
        return (d.grade, d.gap if d.gap is not None else 99, e.puzzle.id)
    return sorted(entries, key=key)


def index_page(site: SiteData, puzzle_set: PuzzleSet, lang: str, nav: tuple[str, ...]) -> Page:
    ui = UI[lang]
    rows = []
    for entry in computed_order(puzzle_set.entries):
        p = entry.puzzle
        d = entry.level
        rows.append({"grade": why.stars(d.grade), "grade_n": d.grade, "plain_title": p.text("title", lang),
                     "grade_why": why.level_reasons(d, lang), "id": p.id, "title": md_inline(p.text("title", lang)),
                     "href": f"{p.id}.md", "edition": ui[f"short_{p.edition.value}"],
                     "edition_title": link_title(edition_label(p.edition.value, lang)),
                     "board": md_inline(p.board.id), "board_title": link_title(board_title(puzzle_set, p.board.id, lang)),
                     "rounds_flasks": f"{p.rounds} × {p.flasks}",
                     "placements": sum(1 for a in entry.solution.plan if a.kind is ActionKind.PLACE),
                     "proven": proven_text(entry.record, lang)})
    audit = site.get(AUDITS)
    content = render("puzzle_index.md.j2", ui=ui, rows=rows, daily_data=why.daily_data(rows),
                     daily=why.build_day_pick(rows),
                     assumptions_href=relative(INDEX_PAGE, ASSUMPTIONS_PAGE), bench_href=relative(INDEX_PAGE, BENCH_PAGE),
                     coverage_href=relative(INDEX_PAGE, RULES_COVERAGE_PAGE) if GAME in audit else None)
    return Page(lang, INDEX_PAGE, ui["nav"], content, nav=nav)


def assumptions_page(puzzle_set: PuzzleSet, lang: str, nav: tuple[str, ...]) -> Page:
    ui = UI[lang]
    sides = []
    for side, title, editions, items in puzzle_set.boards:
        rows = [item_row(i, lang) for i in items]
        puzzles = [Link(md_inline(e.puzzle.text("title", lang)), relative(ASSUMPTIONS_PAGE, f"{GAME}/puzzles/{e.puzzle.id}.md"))
                   for e in computed_order(puzzle_set.entries) if e.puzzle.board.id == side]
        sides.append({"id": side, "title": title.get(lang) or title["en"], "puzzles": puzzles,
                      "editions": ", ".join(edition_label(e, lang) for e in editions), "rows": rows,
                      "summary": ui["side_summary"].format(
                          rulebook=sum(1 for i in items if i.provenance is Provenance.RULEBOOK),
                          assumed=sum(1 for i in items if i.provenance is not Provenance.RULEBOOK))})
    content = render("assumptions.md.j2", ui=ui, sides=sides, index_href=relative(ASSUMPTIONS_PAGE, INDEX_PAGE))
    return Page(lang, ASSUMPTIONS_PAGE, ui["assumptions_link"], content, nav=nav)


def produce(site: SiteData, lang: str) -> list[Page]:
    puzzle_set = site.get(PUZZLES)
    if puzzle_set is None:
        return []
    from ..paths import DOCS_DIR
    nav = (site.games[GAME].title[lang], UI[lang]["nav"])
    pages = [index_page(site, puzzle_set, lang, nav), analysis_page(site, puzzle_set, lang, nav)]
    pages += [puzzle_page(site, puzzle_set, e, lang, nav) for e in computed_order(puzzle_set.entries)]
    pages += [assumptions_page(puzzle_set, lang, nav),
              bench_page(DOCS_DIR, lang, nav, tuple(e.puzzle.id for e in puzzle_set.entries))]
    return pages
