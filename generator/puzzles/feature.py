"""Worked examples on the site: a page per Cytosis puzzle, the puzzle index, the board
assumptions and the solver benchmark, in every site language.

Registers the ``puzzles`` feature when imported (see :mod:`generator.features`):

- its loader (:mod:`.loading`): every ``data/puzzles/*.yaml`` loaded with :func:`solver.load_puzzle`,
  with its committed record (:mod:`generator.proofs`: solution, regret values, why facts, level)
  read and checked, never proved again; every rule section a step links to must exist;
- its page producer (:mod:`.pages`): ``cytosis/puzzles/index.md`` (the graded list),
  ``cytosis/puzzles/<id>.md`` (statement, starting position, cards, the optimal sequence as a
  ``<table class="cellula-steps">``, score, proof status, the greedy contrast, assumptions),
  ``cytosis/assumptions.md`` (every board count, from the rulebook or assumed, per side) and
  ``cytosis/benchmark.md`` (:mod:`.bench_page`; ``docs/assets/bench/`` when ``python -m solver
  bench`` wrote it);
- its asset producer (:func:`.pages.play_assets`): ``generated/play/<id>.js``, what play mode
  loads when a reader starts playing (the puzzle for the engine and the regret values).

The greedy contrast is the solver's policy (:func:`solver.optimise.greedy.greedy_plan`), played through
the engine API only. Card values the rulebooks do not print carry an "illustrative" badge wherever
they are shown. Data text is escaped on the way out (``attr`` in raw HTML, :func:`md_inline` in
Markdown cells and link texts, ``text``/``md`` elsewhere).

The modules, each depending only on those above it: :mod:`.model` (page paths and the typed
values), :mod:`.texts` (interface strings, escaping), :mod:`.board` (board values and their provenance), :mod:`.loading` (the loader),
:mod:`.views`, :mod:`.statement` and :mod:`.proof` (what the templates are given),
:mod:`.bench_page`, :mod:`.pages` (the producer); for the interactive board and play mode
:mod:`.step_texts`, :mod:`.move_words`, :mod:`.play_runtime` (these three also run in the browser),
:mod:`.play_data`, :mod:`.why`, and the play assets copied into the built site by the MkDocs hook
(:mod:`.play_assets`, :mod:`.play_offline`). The names below are the package's public interface
(its ``__init__`` imports nothing: see :mod:`generator.puzzles`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import features
from ..proofs import cli as records_cli
from .bench_page import bench_page, bench_tables
from .board import load_boards, plan_assumptions
from .loading import linkable_sections, load, puzzle_sources
from .model import (ASSUMPTIONS_PAGE, BENCH_PAGE, GAME, INDEX_PAGE, STOCK_FIELDS, BoardItem, Link, Provenance,
                    PuzzleEntry, PuzzleSet)
from .pages import play_assets, produce, puzzle_page
from .proof import proof_lines
from .texts import UI, md_inline
from .views import section_link
from .model import PUZZLES

if TYPE_CHECKING:
    from ..errors import Problems
    from ..site_data import SiteData

__all__ = [
    "ASSUMPTIONS_PAGE", "BENCH_PAGE", "GAME", "INDEX_PAGE", "STOCK_FIELDS", "UI",
    "BoardItem", "Link", "Provenance", "PuzzleEntry", "PuzzleSet",
    "bench_page", "bench_tables", "linkable_sections", "load", "load_boards", "md_inline", "plan_assumptions",
    "play_assets", "produce", "proof_lines", "puzzle_page", "puzzle_sources", "section_link",
]


def store(site: SiteData, problems: Problems) -> None:
    """Feature loader: :func:`load` into the site's data."""
    site.put(PUZZLES, load(site, problems))


features.register(features.Feature(name="puzzles", loader=store, producers=(produce,), assets=(play_assets,),
                                   commands=(features.Command("records", records_cli.configure, records_cli.run),)))
