"""The puzzles feature's data: page paths, the loaded and solved puzzles, and the small typed
values its views hand to the templates (links, board values, step rows)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from solver import Puzzle
from solver.solution import Solution

from ..proofs.store import Source
from ..proofs.why import STOCK_FIELDS as STOCK_FIELDS, Difficulty  # the step tables' stock columns: the probes' order
from ..site_data import FeatureKey

GAME = "cytosis"
INDEX_PAGE = "cytosis/puzzles/index.md"
ASSUMPTIONS_PAGE = "cytosis/assumptions.md"
BENCH_PAGE = "cytosis/benchmark.md"
RULES_COVERAGE_PAGE = "cytosis/rules-coverage.md"
"""The rules audit's page (:mod:`generator.audit_page`), linked from the index when the audit exists."""




class Provenance(str, Enum):
    """Where a board value comes from."""

    RULEBOOK = "rulebook"
    """The rulebook text gives it."""
    ASSUMED = "assumed"
    """The project's guess (the board images were lost)."""
    PUZZLE = "puzzle"
    """Set by the puzzle's ``board_override``."""


class ItemKind(str, Enum):
    """The kinds of board value."""

    SPOT = "spot"
    """A flask placement spot (its existence and printed value)."""
    VESICLES = "vesicles"
    """How many Budding Transport Vesicle Locations an area has."""
    BOOST = "boost"
    """Where a Boost event puts its resource."""


class ProofStatus(str, Enum):
    """What the solver proved."""

    OPTIMAL = "optimal"
    """The score is the proven optimum."""
    FEASIBLE = "feasible"
    """A legal plan, optimality not proven (bound and gap given)."""
    INFEASIBLE = "infeasible"
    """No complete legal plan exists."""
    UNKNOWN = "unknown"
    """Any other status a future engine reports (shown verbatim)."""


@dataclass(frozen=True)
class Link:
    """A link from a generated page."""

    label: str
    """Link text, already escaped for Markdown (:func:`md_inline`)."""
    href: str
    """Relative target."""
    title: str = ""
    """Tooltip (the full target name), escaped for a quoted attribute value (:func:`link_title`);
    written as the link's ``data-tip``, not a title (assets/tips.js says why)."""


@dataclass(frozen=True)
class BoardItem:
    """One board value and where it comes from."""

    kind: ItemKind
    """Spot, vesicle count or boost."""
    key: str
    """Stable identity (``spot:nucleus-3``, ``vesicles:golgi``, ``boost:boost-nucleus``)."""
    area: str
    """Board area id."""
    name: str
    """Spot id, area id or event id."""
    value: dict[str, str]
    """The value, said in each site language."""
    provenance: Provenance
    """Rulebook, assumed or set by the puzzle."""


@dataclass(frozen=True)
class StepRow:
    """One row of a step table."""

    index: int
    """1-based step number."""
    round: int
    """Round of the step."""
    flask: str
    """Which flask, in the page language."""
    spot: str
    """Spot or action, escaped for a Markdown cell."""
    links: tuple[Link, ...]
    """The rule sections the step uses."""
    text: str
    """What happens, in the page language (plain text)."""
    stock: tuple[int, ...]
    """Stock after the step, in :data:`STOCK_FIELDS` order."""
    health: int
    """Health Points after the step (before end-game scoring)."""
    illustrative: bool = False
    """The step's card has values the rulebooks do not print (badge in the row)."""


PuzzleSource = Source
"""A puzzle file loaded and checked, with its recorded run for a whole game: what the records are
about (:class:`generator.proofs.store.Source`)."""


@dataclass(frozen=True)
class PuzzleEntry:
    """A loaded puzzle with its committed record (:mod:`generator.proofs.record`), checked."""

    puzzle: Puzzle
    """The :class:`solver.Puzzle`."""
    file: Path
    """Its data file."""
    record: dict[str, Any]
    """The record's ``solution`` part, as the views read it (with the solving's ``seconds``)."""
    computed_now: bool
    """Whether this build computed the record (a new puzzle's, written for its author to commit)."""
    solution: Solution
    """The record's solution, typed: its plan replayed in the rules engine when read back."""
    why: dict[str, Any]
    """The record's "why it is optimal" facts (:func:`generator.proofs.why.compute_why`)."""
    level: Difficulty
    """The level computed from the facts and the greedy contrast."""
    regret_values: dict[str, Any] | None
    """The best reachable scores play mode measures moves against (None: none offered)."""


@dataclass(frozen=True)
class PuzzleSet:
    """What the loader hands to the page producer."""

    entries: tuple[PuzzleEntry, ...]
    """Every puzzle, in file order."""
    boards: tuple[tuple[str, dict[str, str], tuple[str, ...], tuple[BoardItem, ...]], ...]
    """Per board side: id, title per language, editions, every value with its provenance."""


PUZZLES: FeatureKey[PuzzleSet | None] = FeatureKey("puzzles", lambda: None)
"""The Cytosis puzzles, solved, with the board sides' values (the ``puzzles`` feature's data); None
when there are none or they were only checked (``SiteData.solve_puzzles`` False)."""


