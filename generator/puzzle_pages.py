"""Worked examples on the site: a page per Cytosis puzzle, the puzzle index, the board
assumptions and the solver benchmark, in every site language.

Registers, when imported (see ``generator.features``):

- the ``puzzles`` loader: every ``data/puzzles/*.yaml`` loaded with :func:`solver.load_puzzle`
  and solved, through :mod:`generator.solution_cache` (``.cache/solutions``), so a warm build
  does not search again; every rule section a step links to must exist;
- the page producer: ``cytosis/puzzles/index.md`` (the graded list),
  ``cytosis/puzzles/<id>.md`` (statement, starting position, cards, the optimal sequence as a
  ``<table class="cellula-steps">``, score, proof status, the greedy contrast, assumptions),
  ``cytosis/assumptions.md`` (every board count, from the rulebook or assumed, per side) and
  ``cytosis/benchmark.md`` (``docs/assets/bench/`` when ``python -m solver bench`` wrote it).

The greedy contrast is the solver's policy (:func:`solver.greedy.greedy_plan`), played through
the engine API only. Card values the rulebooks do not print carry an "illustrative" badge wherever
they are shown. Data text is escaped on the way out (``attr`` in raw HTML, :func:`md_inline` in
Markdown cells and link texts, ``text``/``md`` elsewhere).
"""
from __future__ import annotations

import importlib.util
import inspect
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from solver import greedy_plan
from solver.loading import load_yaml

from . import features, i18n, solution_cache
from . import puzzle_play  # issue #19 hook: interactive board
from . import puzzle_why  # issue #19 items 3-4: why optimal, computed grade
from .errors import Problems
from .refs import relative
from .render import Page, render
from .step_texts import step_text

GAME = "cytosis"
INDEX_PAGE = "cytosis/puzzles/index.md"
ASSUMPTIONS_PAGE = "cytosis/assumptions.md"
BENCH_PAGE = "cytosis/benchmark.md"
RULES_COVERAGE_PAGE = "cytosis/rules-coverage.md"
"""The rules audit's page (:mod:`generator.audit_page`), linked from the index when the audit exists."""
BENCH_ASSETS = ("assets/bench/scale.svg", "assets/bench/bench.json")
"""What ``python -m solver bench`` writes under ``docs/`` (the chart and its numbers)."""
PLANNER_ENGINES = ("cpsat", "planner")
"""Names the CP-SAT planner may be registered under in ``solver.solve`` (first found is used)."""
BIG_PUZZLE_PLACEMENTS = 6
"""Puzzles with at least this many flask placements (rounds × flasks) go to the CP-SAT planner
when the solver offers it; smaller ones stay with the default engine."""
CACHE_DIR: Path | None = None
"""Where records are cached; None: :data:`generator.solution_cache.CACHE_DIR` (tests override)."""
STOCK_FIELDS = ("atp", "mrna", "protein", "carb", "lipid")
"""Stock columns of the step table, in order."""

UI = i18n.namespace("puzzles")
"""This feature's interface strings: ``puzzles.*`` of the catalogue (``data/i18n/<lang>.yaml``)."""

CARD_TYPES = i18n.labels("puzzles.card_types")
"""Card type names (the rulebooks' terms, as on the card pages)."""

AREAS = i18n.labels("puzzles.areas")
"""Board areas (and the three vesicle areas), by id."""

RESOURCES = i18n.labels("puzzles.resources")
"""Resource names, singular."""
RESOURCES_PLURAL = i18n.labels("puzzles.resources_plural")
"""Resource names after a number other than 1."""


def amount(n: int, resource: str, lang: str) -> str:
    """``3 lipidi``, ``1 carboidrato``."""
    return f"{n} {(RESOURCES if n == 1 else RESOURCES_PLURAL)[resource][lang]}"


def stock_text(stock, lang: str) -> str:
    """A cost or gain in words (``2 ATP, 2 proteine, 1 carboidrato``); ``-`` when empty."""
    parts = [amount(getattr(stock, r), r, lang) for r in STOCK_FIELDS if getattr(stock, r)]
    return ", ".join(parts) or "-"

EVENT_SECTIONS = {"reduce-atp-cost": "events.reduce-atp-cost", "toxicity": "events.toxicity",
                  "virus-ebola": "virus.event-cards", "virus-influenza": "virus.event-cards",
                  "virus-rhinovirus": "virus.event-cards"}
"""Rule section of each non-boost event (boosts: ``events.boost``)."""

# --------------------------------------------------------------------------- small types


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
    """Tooltip (the full target name), escaped for a Markdown link title."""


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


@dataclass(frozen=True)
class PuzzleEntry:
    """A loaded puzzle with its solved record."""

    puzzle: object
    """The :class:`solver.Puzzle`."""
    file: Path
    """Its data file."""
    record: dict
    """The cached record (see :func:`compute_record`)."""
    cache_hit: bool
    """Whether the record came from the cache in this build."""


@dataclass(frozen=True)
class PuzzleSet:
    """What the loader hands to the page producer."""

    entries: tuple[PuzzleEntry, ...]
    """Every puzzle, in file order."""
    boards: tuple[tuple[str, dict[str, str], tuple[str, ...], tuple[BoardItem, ...]], ...]
    """Per board side: id, title per language, editions, every value with its provenance."""


# --------------------------------------------------------------------------- escaping


def md_inline(text: str) -> str:
    """Data text inside a Markdown table cell or link text: markup, pipes and ``<`` escaped."""
    for ch in "\\[]*_`|":
        text = text.replace(ch, "\\" + ch)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --------------------------------------------------------------------------- engines


def default_engine() -> str:
    """The engine ``solver.solve`` uses when not told, else ``exhaustive``."""
    from solver.solution import solve  # the implementation (``solver.solve`` may be wrapped)
    param = inspect.signature(solve).parameters.get("engine")
    if param is not None and isinstance(param.default, str):
        return param.default
    return "exhaustive"


def available_engines() -> tuple[str, ...]:
    """Engine names the solver declares (``ENGINES`` of the package, its ``solution`` or ``cli``
    module), plus ``cpsat`` when ``solver/cpsat.py`` exists."""
    import solver
    names: list[str] = []
    for module in ("solver", "solver.solution", "solver.cli"):
        try:
            declared = getattr(importlib.import_module(module), "ENGINES", None)
        except ImportError:
            declared = None
        if declared:
            names += [str(n) for n in declared]
    if importlib.util.find_spec("solver.cpsat") is not None:
        names.append("cpsat")
    del solver
    return tuple(dict.fromkeys(names)) or ("exhaustive",)


def placements(puzzle) -> int:
    """The player's flask placements: rounds × flasks (the size that drives the search)."""
    return puzzle.rounds * puzzle.flasks


def engine_for(puzzle) -> str:
    """CP-SAT for big puzzles when the solver has it, the default engine otherwise."""
    if placements(puzzle) >= BIG_PUZZLE_PLACEMENTS:
        available = available_engines()
        for name in PLANNER_ENGINES:
            if name in available:
                return name
    return default_engine()


FALLBACK_ENGINE = "exhaustive"
"""The engine that needs nothing beyond the rules engine (answers when the planner cannot run)."""


def run_engine(puzzle, engine: str, confirm: bool = True):
    """``solve(puzzle, engine)``. Only when the engine cannot run at all (its library is missing)
    does the exhaustive search answer instead; a wrong or disputed answer (``VerificationError``
    and any other ``SolverError``) is raised, never hidden. ``confirm``: a proven optimum is also
    confirmed by a second engine (the worked example's; not needed for the other readings, which
    the page only compares). Returns (solution, fallback reason)."""
    from solver import solve
    options = {} if confirm else {"confirm": ()}
    try:
        return solve(puzzle, engine=engine, **options), None
    except ImportError as exc:
        if engine == FALLBACK_ENGINE:
            raise
        return solve(puzzle, engine=FALLBACK_ENGINE, **options), f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- greedy contrast


def greedy_record(puzzle) -> dict:
    """The greedy plan replayed through the engine (so every step is legal) and its score."""
    from solver import replay, score
    plan, complete = greedy_plan(puzzle)
    steps, final = replay(puzzle, plan)
    breakdown = score(final) if complete else None
    return {"complete": complete, "health": breakdown.total if breakdown else None,
            "breakdown": breakdown.to_dict() if breakdown else None,
            "plan": [a.to_dict() for a in plan], "steps": [s.to_dict() for s in steps]}


# --------------------------------------------------------------------------- solving (cached)


def compute_record(puzzle, engine: str, recording: Path | None = None) -> dict:
    """Solve ``puzzle`` and play the greedy policy: everything the page renders. With a
    ``recording`` (a whole game, ``solver.offline``) its plan is replayed instead of solving, and
    the other readings are not solved (a note says so)."""
    start = time.perf_counter()
    if recording is not None:
        from solver.offline import load_recording, recorded_solution
        solution, fallback = recorded_solution(puzzle, load_recording(recording, puzzle)), None
    else:
        solution, fallback = run_engine(puzzle, engine)
    seconds = time.perf_counter() - start
    stats = dict(getattr(solution, "stats", {}) or {})
    bound = getattr(solution, "bound", None)
    bound = bound if bound is not None else stats.get("bound")
    gap = getattr(solution, "gap", None)
    gap = gap if gap is not None else stats.get("gap")
    if gap is None and bound is not None and solution.health is not None:
        gap = bound - solution.health
    return {
        "puzzle": puzzle.id,
        "requested_engine": engine,
        "fallback": fallback,
        "solver_version": solution_cache.solver_version(),
        "solution": json.loads(json.dumps(solution.to_dict(), default=str)),
        "confirmed_by": list(getattr(solution, "confirmed_by", None) or ()),
        "bound": bound,
        "gap": gap,
        "seconds": round(seconds, 3),
        "greedy": greedy_record(puzzle),
        "other_readings": [] if recording is not None else other_readings_record(puzzle, engine, solution.health),
        "other_readings_skipped": recording is not None and bool(puzzle.rulings_in_play()),
    }


def other_readings_record(puzzle, engine: str, health: int | None) -> list[dict]:
    """The optimum under every other reading of each ruling in play (``Puzzle.rulings_in_play``):
    the worked example states the reading it uses and, where the optimum moves, shows the other."""
    from solver.model import RULING_READINGS
    out = []
    for ruling in puzzle.rulings_in_play():
        for reading in RULING_READINGS[ruling]:
            if reading == puzzle.reading(ruling):
                continue
            solution, _ = run_engine(puzzle.with_reading(ruling, reading), engine, confirm=False)
            record = {"ruling": ruling.value, "reading": reading, "status": solution.status,
                      "health": solution.health, "same": solution.health == health}
            if solution.health != health:
                record["steps"] = [{"events": [e.to_dict() for e in s.events], "round": s.round}
                                   for s in solution.steps]
            out.append(record)
    return out


def depends_on(puzzle) -> tuple[Path, ...]:
    """Data files besides the puzzle file that its solution depends on."""
    from solver.puzzle import RULEBOOK_CARDS, board_path
    return (board_path(puzzle.board.id), RULEBOOK_CARDS)


def solve_cached(puzzle, file: Path, recording: Path | None = None) -> solution_cache.Lookup:
    """The puzzle's record from the cache, or computed (or replayed from ``recording``) and stored."""
    engine = engine_for(puzzle)
    key = solution_cache.cache_key(file, engine, depends_on(puzzle) + ((recording,) if recording else ()))
    return solution_cache.cached(key, lambda: compute_record(puzzle, engine, recording), CACHE_DIR)


def puzzle_sources(puzzles_dir: Path) -> list[tuple[Path, Path | None]]:
    """(puzzle file, recording) for every puzzle: those solved at build time, then the whole games
    of ``games/`` with the recorded run each must have beside it (``solver.offline``)."""
    from solver.offline import GAMES_DIR, result_path
    games = puzzles_dir / GAMES_DIR.name
    return ([(f, None) for f in sorted(puzzles_dir.glob("*.yaml"))]
            + [(f, result_path(f)) for f in sorted(games.glob("*.yaml"))])


# --------------------------------------------------------------------------- board values


def spot_value(spot, lang: str) -> str:
    """What a spot's printed number means, in ``lang``."""
    from solver import SpotKind
    kind = spot.kind
    if kind is SpotKind.NUCLEUS:
        return "+" + amount(spot.value, "mrna", lang)
    if kind is SpotKind.LIPID_SYNTHESIS:
        return "+" + amount(spot.value, "lipid", lang)
    if kind is SpotKind.MITOCHONDRIA:
        return UI[lang]["spot_atp"].format(n=spot.value)
    if kind is SpotKind.MITOCHONDRIA_CARB:
        return UI[lang]["spot_carb_to_atp"].format(carb=amount(1, "carb", lang), n=spot.value)
    if kind is SpotKind.GLUCOSE:
        return UI[lang]["spot_atp_to_carb"].format(n=spot.value, carb=amount(spot.value, "carb", lang))
    if kind is SpotKind.CARD_ROW:
        return UI[lang]["spot_slot"].format(slot=spot.slot + 1, price=spot.value)
    return UI[lang]["spot_other"]


def board_items(board) -> tuple[BoardItem, ...]:
    """Every value of a board side (after overrides) with its provenance."""
    items = [BoardItem(ItemKind.SPOT, f"spot:{s.id}", s.area.value, s.id,
                       {lang: spot_value(s, lang) for lang in UI}, Provenance(s.provenance))
             for s in board.spots]
    provenance = dict(board.vesicle_provenance)
    for area, count in board.vesicles:
        items.append(BoardItem(ItemKind.VESICLES, f"vesicles:{area.value}", area.value, area.value,
                               {lang: UI[lang]["vesicles_value"].format(count=count) for lang in UI},
                               Provenance(provenance.get(area, "assumed"))))
    for boost in board.boosts:
        items.append(BoardItem(ItemKind.BOOST, f"boost:{boost.event}", boost.areas[0].value, boost.event,
                               {lang: UI[lang]["boost_value"].format(
                                   resource=RESOURCES[boost.resource.value][lang],
                                   areas=", ".join(AREAS[a.value][lang] for a in boost.areas)) for lang in UI},
                               Provenance(boost.provenance)))
    return tuple(items)


VESICLE_AREA_OF_SPOT = {"rough-er": "rough-er", "golgi": "golgi", "smooth-er-detox": "smooth-er"}
"""Spot kind -> the vesicle area a disk is placed in (hormones and receptors only)."""


def plan_assumptions(puzzle, plan: list[dict]) -> tuple[BoardItem, ...]:
    """The non-rulebook board values the plan uses: the spots it places on, the budding locations
    of the areas its disks go to, and the boosts of the puzzle's events."""
    from solver import Action, ActionKind
    items = {item.key: item for item in board_items(puzzle.board)}
    used: dict[str, None] = {}
    for data in plan:
        action = Action.from_dict(data)
        if action.kind is not ActionKind.PLACE:
            continue
        spot = puzzle.board.spot(action.spot)
        used[f"spot:{spot.id}"] = None
        area = VESICLE_AREA_OF_SPOT.get(spot.kind.value)
        if area and action.card and puzzle.card(action.card).route is not None:
            used[f"vesicles:{area}"] = None
    for event in puzzle.events:
        if event and event.startswith("boost-"):
            used[f"boost:{event}"] = None
    return tuple(items[k] for k in used if k in items and items[k].provenance is not Provenance.RULEBOOK)


def load_boards(puzzles_dir: Path, problems: Problems | None = None) -> tuple:
    """Every board side with its title, editions and values; a malformed board side is a problem
    (or a :class:`~solver.PuzzleError` without ``problems``)."""
    from solver import PuzzleError, load_board
    from solver.puzzle import BOARDS_DIR
    out = []
    for file in sorted(BOARDS_DIR.glob("*.yaml")):
        try:
            board = load_board(file.stem)  # validates the file first (the shared loader, the schema)
        except PuzzleError as exc:
            if problems is None:
                raise
            problems.add(file, exc.where, exc.detail, exc.line)
            continue
        raw, _ = load_yaml(file)
        out.append((board.id, dict(raw["title"]), tuple(e.value for e in board.editions), board_items(board)))
    return tuple(out)


# --------------------------------------------------------------------------- loader


def step_sections(record: dict) -> list[str]:
    """Every rule section id the record's optimal and greedy steps link to."""
    steps = record["solution"].get("steps", []) + record["greedy"].get("steps", [])
    return [s for step in steps for s in step.get("sections", [])]


def linkable_sections(puzzle) -> list[str]:
    """Every rule section id a step of any plan of ``puzzle`` may link to (no solving needed)."""
    from solver import action_sections, all_actions
    return list(dict.fromkeys(s for action in all_actions(puzzle) for s in action_sections(puzzle, action)))


def load(site, problems: Problems) -> PuzzleSet | None:
    """Load and solve every puzzle (cached); None when the data set has no Cytosis puzzles.
    When ``site.solve_puzzles`` is False (``generator validate``), every puzzle and board side is
    loaded and checked (every rule section any of its actions may link to must exist) without
    solving, and the answer is None: no puzzle page is produced."""
    puzzles_dir = Path(site.data_dir) / "puzzles"
    if GAME not in site.games or not puzzles_dir.is_dir():
        return None
    from solver import PuzzleError, SolverError, load_puzzle
    game = site.games[GAME]
    entries = []
    for file, recording in puzzle_sources(puzzles_dir):
        if recording is not None and not recording.is_file():
            problems.add(file, "", f"a whole game needs its recorded run {recording.name} "
                                   f"(python -m solver record {file.as_posix()})")
            continue
        if not getattr(site, "solve_puzzles", True):
            try:
                puzzle = load_puzzle(file)
                sections = linkable_sections(puzzle)
                if recording is not None:       # replayed, not solved: cheap enough to validate
                    from solver.offline import load_recording
                    load_recording(recording, puzzle)
            except (PuzzleError, SolverError) as exc:
                problems.add(file, "", f"puzzle not loaded: {exc}")
                continue
            for section in sections:
                if section not in game.sections:
                    problems.add(file, "", f"a plan step may link rule section {section!r}, which {GAME} does not have")
            continue
        try:
            puzzle = load_puzzle(file)
            lookup = solve_cached(puzzle, file, recording)
        except (PuzzleError, SolverError) as exc:
            problems.add(file, "", f"puzzle not loaded or not solved: {exc}")
            continue
        for section in dict.fromkeys(step_sections(lookup.record)):
            if section not in game.sections:
                problems.add(file, "", f"a plan step links rule section {section!r}, which {GAME} does not have")
        entries.append(PuzzleEntry(puzzle, file, lookup.record, lookup.hit))
    if not getattr(site, "solve_puzzles", True):
        load_boards(puzzles_dir, problems)
        return None
    if not entries:
        return None
    return PuzzleSet(tuple(entries), load_boards(puzzles_dir, problems))


# --------------------------------------------------------------------------- views


def section_link(site, section_id: str, lang: str, page: str) -> Link | None:
    """Link to a rule section on its chapter page (None if the game lacks it)."""
    section = site.games[GAME].sections.get(section_id)
    if section is None:
        return None
    target = f"{GAME}/{section.chapter}.md"
    title = section.texts[lang].title
    return Link(md_inline(title), f"{relative(page, target)}#{section.anchor}", link_title(title))


def link_title(text: str) -> str:
    """Text for a Markdown link title (``"..."``): quotes and markup-breaking characters escaped."""
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def rules_used(site, steps: list[dict], lang: str, page: str) -> tuple[Link, ...]:
    """Every rule section the steps link to, once, in order of first use."""
    ids = dict.fromkeys(s for step in steps for s in step["sections"])
    return tuple(link for link in (section_link(site, s, lang, page) for s in ids) if link)


def edition_label(edition: str, lang: str) -> str:
    return UI[lang][f"edition_{edition}"]


def flask_label(flask: str, lang: str) -> str:
    if flask == "grey":
        return UI[lang]["flask_grey"]
    if flask == "-":
        return UI[lang]["flask_card"]
    return flask


def spot_label(puzzle, action: dict, lang: str) -> str:
    """The spot (area name and id) or the non-placement action, escaped for Markdown."""
    kind = action.get("kind", "place")
    if kind == "exhaust":
        return md_inline(f"{UI[lang]['exhaust']}: {RESOURCES[action['resource']][lang]}")
    if kind == "play-card":
        return md_inline(f"{UI[lang]['play_card']}: {action.get('card', '')}")
    if kind in ("trade", "income"):
        return md_inline(f"{UI[lang]['epigenetic_' + kind]}: {RESOURCES[action['resource']][lang]}")
    if kind == "peek":
        return md_inline(UI[lang]["epigenetic_peek"] + (f": {action['card']}" if action.get("card") else ""))
    if kind in ("vaccinate", "respond"):
        return md_inline(UI[lang]["virus_" + kind])
    spot = puzzle.board.spot(action["spot"])
    return md_inline(f"{AREAS[spot.area.value][lang]} ({spot.id})")


def step_rows(site, puzzle, steps: list[dict], lang: str, page: str) -> tuple[StepRow, ...]:
    """Rows of a step table from a record's step dicts."""
    rows = []
    for step in steps:
        links = tuple(link for link in (section_link(site, s, lang, page) for s in step["sections"]) if link)
        stock = step["state"]["stock"]
        rows.append(StepRow(step["index"], step["round"], flask_label(step["flask"], lang),
                            spot_label(puzzle, step["action"], lang), links,
                            step_text(step["events"], lang),
                            tuple(int(stock[f]) for f in STOCK_FIELDS), int(step["state"]["health"]),
                            uses_illustrative(puzzle, step["action"])))
    return tuple(rows)


def uses_illustrative(puzzle, action: dict) -> bool:
    """True when the action is about a card (or a goal) whose values are illustrative."""
    card = action.get("card")
    if card and puzzle.card(card).illustrative:
        return True
    return bool(action.get("goal"))


def proof_status(record: dict) -> ProofStatus:
    try:
        return ProofStatus(record["solution"]["status"])
    except ValueError:
        return ProofStatus.UNKNOWN


def engine_label(record: dict, lang: str) -> str:
    """Which engine answered, in words."""
    engine = record["solution"].get("engine", "")
    if engine == "exhaustive":
        nodes = record["solution"].get("stats", {}).get("nodes", "?")
        return "`exhaustive`, " + UI[lang]["engine_exhaustive"].format(nodes=nodes)
    if engine in PLANNER_ENGINES:
        stats = record["solution"].get("stats", {})
        size = (UI[lang]["model_size"].format(variables=stats["variables"], constraints=stats["constraints"])
                if "variables" in stats and "constraints" in stats else "")
        return f"`{engine}`, " + UI[lang]["engine_cpsat"] + size
    return f"`{md_inline(str(engine))}`"


def confirm_label(engine: str, lang: str) -> str:
    """A confirming engine, named."""
    return f"`{md_inline(engine)}`" + (f" ({UI[lang]['confirm_' + engine]})" if f"confirm_{engine}" in UI[lang] else "")


def proof_lines(record: dict, lang: str) -> list[str]:
    """The proof status paragraph(s), Markdown."""
    ui = UI[lang]
    status = proof_status(record)
    engine = engine_label(record, lang)
    lines = []
    if status is ProofStatus.OPTIMAL:
        lines.append(ui["proof_optimal"].format(engine=engine))
        confirmed = record.get("confirmed_by") or []
        tried = record["solution"].get("stats", {}).get("highs_seconds")
        if confirmed:
            lines.append(ui["proof_confirmed"].format(engines=", ".join(confirm_label(str(e), lang) for e in confirmed)))
        elif tried is not None:     # HiGHS ran out of its time: say so rather than leave it unsaid
            lines.append(ui["proof_one_engine"].format(seconds=tried))
        else:
            lines.append(ui["proof_unconfirmed"])
    elif status is ProofStatus.FEASIBLE:
        lines.append(ui["proof_feasible"].format(engine=engine, bound=record.get("bound", "?"),
                                                 gap=record.get("gap", "?")))
    elif status is ProofStatus.INFEASIBLE:
        lines.append(ui["proof_infeasible"].format(engine=engine))
    else:
        lines.append(ui["proof_unknown"].format(status=md_inline(str(record["solution"]["status"])), engine=engine))
    recorded = record["solution"].get("stats", {}).get("recorded")
    if isinstance(recorded, dict):
        lines.append(ui["proof_recorded"].format(
            seconds=recorded.get("seconds", "?"), workers=recorded.get("workers", "?"),
            machine=md_inline(str(recorded.get("machine", "?"))), date=recorded.get("recorded", "?"),
            gap_percent=recorded.get("gap_percent", "?"),
            warm_start="–" if recorded.get("warm_start") is None else recorded["warm_start"]))
    if record.get("other_readings_skipped"):
        lines.append(ui["other_readings_skipped"])
    reason = record["solution"].get("reason")
    if reason and status is not ProofStatus.OPTIMAL:
        lines.append(ui["proof_reason"].format(reason=md_inline(str(reason))))
    if record.get("fallback"):
        lines.append(ui["proof_fallback"].format(wanted=f"`{record['requested_engine']}`",
                                                 reason=md_inline(record["fallback"]), engine=engine))
    lines.append(ui["solve_time"].format(seconds=record.get("seconds", "?")))
    return lines


def greedy_view(site, entry: PuzzleEntry, lang: str, page: str) -> dict:
    """The greedy contrast: its score against the optimum, and its steps."""
    ui = UI[lang]
    greedy, optimum = entry.record["greedy"], entry.record["solution"].get("health")
    steps = step_rows(site, entry.puzzle, greedy["steps"], lang, page)
    if not greedy["complete"]:
        summary = ui["greedy_stuck"].format(n=len(steps))
    elif optimum is None:
        summary = ui["greedy_alone"].format(greedy=greedy["health"])
    else:
        diff = (ui["greedy_same"] if greedy["health"] == optimum
                else ui["greedy_less"].format(n=(optimum or 0) - greedy["health"]))
        summary = ui["greedy_score"].format(greedy=greedy["health"], optimum=optimum, diff=diff)
    return {"summary": summary, "steps": steps, "health": greedy["health"]}


def card_views(site, puzzle, lang: str, page: str) -> list[dict]:
    """The puzzle's cards with their values and badge (rulebook card or illustrative)."""
    rulebook = rulebook_card_sections()
    out = []
    for card in puzzle.cards:
        values = []
        if not card.gain.is_zero():
            values.append(f"{UI[lang]['gain']} {stock_text(card.gain, lang)}")
        if card.color:
            values.append(f"{UI[lang]['color']}: {card.color}")
        sections = rulebook.get((card.type.value, card.cost.as_tuple(), card.health), ())
        if card.strain is not None:     # a Virus Attack card: its strain, no values (virus.cell-component-cards)
            values.append(card.strain.value)
            sections = ("virus.cell-component-cards",)
        links = tuple(link for link in (section_link(site, s, lang, page) for s in sections) if link)
        out.append({"id": md_inline(card.id), "type": CARD_TYPES[card.type.value][lang],
                    "cost": md_inline(stock_text(card.cost, lang)), "health": card.health,
                    "extra": md_inline("; ".join(values)), "illustrative": card.illustrative, "links": links})
    return out


def rulebook_card_sections() -> dict[tuple, tuple[str, ...]]:
    """(type, cost tuple, health) of the rulebook's fully printed cards -> the sections printing them."""
    from solver import Stock
    from solver.puzzle import RULEBOOK_CARDS
    data = load_yaml(RULEBOOK_CARDS)[0] or {}
    return {(c["type"], Stock(**c["cost"]).as_tuple(), c["health"]): tuple(c.get("sections", ()))
            for c in data.get("cards", [])}


def event_text(site, puzzle, event: str | None, lang: str, page: str) -> str:
    """An event, linked to its rule section (boosts say what they add and where)."""
    if event is None:
        return UI[lang]["no_event"]
    if event.startswith("boost-"):
        link = section_link(site, "events.boost", lang, page)
        boost = puzzle.board.boost(event)
        extra = (" " + md_inline(UI[lang]["boost_value"].format(
            resource=RESOURCES[boost.resource.value][lang],
            areas=", ".join(AREAS[a.value][lang] for a in boost.areas)))) if boost else ""
        return (f"[{link.label}]({link.href})" if link else md_inline(event)) + extra
    link = section_link(site, EVENT_SECTIONS.get(event, ""), lang, page)
    if event.startswith("virus-"):      # the strain, with the Virus Event rules linked
        return f"`{md_inline(event)}`" + (f" ([{link.label}]({link.href}))" if link else "")
    return f"[{link.label}]({link.href})" if link else md_inline(event)


def statement_rows(site, entry: PuzzleEntry, board_title: str, lang: str, page: str) -> list[tuple[str, str]]:
    """(label, Markdown value) rows of the statement table."""
    ui, puzzle = UI[lang], entry.puzzle
    assumptions = relative(page, ASSUMPTIONS_PAGE) + f"#board-{puzzle.board.id}"
    rows = [(ui["edition"], edition_label(puzzle.edition.value, lang)),
            (ui["board"], f"{md_inline(board_title)} ([{ui['assumptions_link']}]({assumptions}))"),
            (ui["players"], str(puzzle.players)), (ui["rounds"], str(puzzle.rounds)),
            (ui["flasks"], str(puzzle.flasks)), (ui["grey_flasks"], str(puzzle.grey_flasks))]
    events = [event_text(site, puzzle, puzzle.events[r] if r < len(puzzle.events) else None, lang, page)
              for r in range(puzzle.rounds)]
    rows.append((ui["events"], "; ".join(f"{ui['round_n'].format(n=r + 1)}: {e}" for r, e in enumerate(events))))
    occupied = [f"{ui['round_n'].format(n=r + 1)}: " + ", ".join(
                    md_inline(f"{AREAS[puzzle.board.spot(s).area.value][lang]} ({s})") for s in spots)
                for r, spots in enumerate(puzzle.occupied) if spots]
    rows.append((ui["occupied"], "; ".join(occupied) or ui["none"]))
    goals = []
    for goal in puzzle.goals:
        title = dict(goal.title).get(lang) or goal.id
        types = " / ".join(CARD_TYPES[t.value][lang] for t in goal.card_types)
        goals.append(md_inline(f"{title}: " + ui["goal_text"].format(points=goal.points, count=goal.count,
                                                                        types=types, markers=goal.markers))
                     + f' <span class="cellula-badge cellula-badge--illustrative">{ui["illustrative"]}</span>')
    rows.append((ui["goals"], "; ".join(goals) or ui["none"]))
    opponents = [ui["detox_figure_one" if d.cards == 1 else "detox_figure"].format(amount=d.amount, cards=d.cards)
                 for d in puzzle.detox_opponents]
    opponents += [ui["opp_disk"].format(area=AREAS[d.area.value][lang], health=d.health) for d in puzzle.opponent_disks]
    opponents += [ui["opp_hormones"].format(round=r + 1, types=", ".join(CARD_TYPES[t.value][lang] for t in types))
                  for r, types in enumerate(puzzle.opponent_hormones) if types]
    rows.append((ui["opponents"], md_inline("; ".join(opponents)) or ui["none"]))
    if puzzle.uses_virus:
        from solver.model import Strain
        rows.append((ui["antibodies"], ", ".join(f"{s.value} {n}" for s, n in zip(Strain, puzzle.antibodies))))
        rolls = []
        for source, roll in puzzle.virus_rolls:
            others = ", ".join(ui["virus_seat"].format(seat=o.seat if o.seat else ui["virus_dummy"], response=o.response)
                               for o in roll.others)
            rolls.append(md_inline(ui["virus_roll"].format(source=source, roll=roll.roll, others=others)))
        link = section_link(site, "virus.event-attack", lang, page)
        rows.append((ui["virus_rolls"], "; ".join(rolls) + (f" ([{link.label}]({link.href}))" if link else "")))
    if puzzle.epigenetic is not None:
        link = section_link(site, puzzle.epigenetic.section, lang, page)
        rows.append((ui["epigenetic_card"], f"[{link.label}]({link.href})" if link else md_inline(puzzle.epigenetic.value)))
    rows.append((ui["objective"], ui["objective_text"]))
    from solver.model import RULING_DEFAULTS, Ruling
    readings = [f"`{name}`: `{reading}`" + (f" ({ui['ruling_default']})" if reading == RULING_DEFAULTS[Ruling(name)] else "")
                for name, reading in puzzle.readings().items()]
    rows.append((ui["rulings"], "; ".join(readings) or ui["none"]))
    return rows


def start_view(puzzle, lang: str) -> dict:
    """The starting stock, hand, card row (with slot prices) and deck."""
    ui = UI[lang]
    row = []
    for slot, card in zip(puzzle.board.row_slots, puzzle.row):
        price = spot_value(slot, lang).split(": ", 1)[-1]
        if slot.provenance != "rulebook":
            price += f", {ui['prov_' + slot.provenance]}"
        row.append(md_inline(ui["slot"].format(n=slot.slot + 1, price=price) + ": " + (card or ui["empty"])))
    return {"stock": tuple(getattr(puzzle.start, f) for f in STOCK_FIELDS), "health": puzzle.health,
            "hand": ", ".join(md_inline(c) for c in puzzle.hand) or ui["none"],
            "row": "; ".join(row) or ui["none"],
            "deck": ", ".join(md_inline(c) for c in puzzle.deck) or ui["none"]}


def item_row(item: BoardItem, lang: str) -> dict:
    ui = UI[lang]
    return {"kind": ui[f"kind_{item.kind.value}"], "area": AREAS[item.area][lang], "name": item.name,
            "value": item.value[lang], "prov": item.provenance.value, "prov_label": ui[f"prov_{item.provenance.value}"]}


def breakdown_lines(breakdown: dict | None, lang: str) -> list[str]:
    if not breakdown:
        return []
    names = UI[lang]["breakdown"]
    return [f"{names[k]}: {breakdown[k]}" for k in names if k in breakdown and (breakdown[k] or k == "in_game")]


def board_title(puzzle_set: PuzzleSet, board_id: str, lang: str) -> str:
    for side, title, _editions, _items in puzzle_set.boards:
        if side == board_id:
            return title.get(lang) or title["en"]
    return board_id


def other_readings_view(record: dict, lang: str) -> list[dict]:
    """The other readings' optima (:func:`other_readings_record`), in words, with the plan where
    the optimum moves."""
    ui, this = UI[lang], record["solution"].get("health")
    out = []
    for other in record.get("other_readings", []):
        if other["status"] == "infeasible":
            summary = ui["other_none"]
        elif other["status"] != "optimal":
            summary = ui["other_unproven"]
        elif other["same"]:
            summary = ui["other_same"].format(health=other["health"])
        else:
            summary = ui["other_differs"].format(health=other["health"], this=this)
        steps = [md_inline(step_text(s["events"], lang)) for s in other.get("steps", [])]
        out.append({"ruling": other["ruling"], "reading": other["reading"], "summary": summary, "steps": steps})
    return out


def puzzle_page(site, puzzle_set: PuzzleSet, entry: PuzzleEntry, lang: str, nav: tuple[str, ...]) -> Page:
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
        health=solution.get("health"), breakdown=breakdown_lines(solution.get("breakdown"), lang),
        score_link=score_link, proof=proof_lines(record, lang), greedy=greedy_view(site, entry, lang, page),
        other_readings=other_readings_view(record, lang),
        assumptions=[item_row(i, lang) for i in plan_assumptions(puzzle, solution.get("plan", []))],
        side_title=side_title, assumptions_href=relative(page, ASSUMPTIONS_PAGE) + f"#board-{puzzle.board.id}",
        # issue #19 hook: the interactive board (generator/puzzle_play.py)
        board=puzzle_play.board_block(puzzle, solution.get("plan", []), lang, solution.get("health")),
        why={**puzzle_why.why_view(why_record(entry), record, lang),
             "level": puzzle_why.level_text(computed_difficulty(entry), lang)},
    )
    return Page(lang, page, title, content, nav=nav)


def proven_text(record: dict, lang: str) -> str:
    status = proof_status(record)
    health = record["solution"].get("health")
    if status is ProofStatus.OPTIMAL:
        return f"**{health}** ✓"
    if status is ProofStatus.FEASIBLE:
        return f"≥ {health} ({UI[lang]['not_proven']})"
    return "–"


def why_record(entry: PuzzleEntry) -> dict:
    """The puzzle's "why it is optimal" facts (:mod:`generator.puzzle_why`, cached on disk)."""
    proven = entry.record["solution"].get("health") if proof_status(entry.record) is ProofStatus.OPTIMAL else None
    return puzzle_why.why_cached(entry.puzzle, entry.file, entry.record["solution"].get("plan", []), proven,
                                 None if CACHE_DIR is None else Path(CACHE_DIR) / "why")


def computed_difficulty(entry: PuzzleEntry) -> puzzle_why.Difficulty:
    """The grade computed from solver data (see :func:`generator.puzzle_why.difficulty`)."""
    return puzzle_why.difficulty(entry.record["solution"].get("health"), entry.record["greedy"].get("health"),
                                 why_record(entry))


def computed_order(entries) -> list[PuzzleEntry]:
    """Puzzles by computed grade, then greedy gap, then id."""
    def key(e):
        d = computed_difficulty(e)
        return (d.grade, d.gap if d.gap is not None else 99, e.puzzle.id)
    return sorted(entries, key=key)


def index_page(site, puzzle_set: PuzzleSet, lang: str, nav: tuple[str, ...]) -> Page:
    ui = UI[lang]
    rows = []
    for entry in computed_order(puzzle_set.entries):
        p = entry.puzzle
        d = computed_difficulty(entry)
        rows.append({"grade": puzzle_why.stars(d.grade), "grade_n": d.grade, "plain_title": p.text("title", lang),
                     "grade_why": puzzle_why.level_reasons(d, lang), "id": p.id, "title": md_inline(p.text("title", lang)),
                     "href": f"{p.id}.md", "edition": ui[f"short_{p.edition.value}"],
                     "edition_title": link_title(edition_label(p.edition.value, lang)),
                     "board": md_inline(p.board.id), "board_title": link_title(board_title(puzzle_set, p.board.id, lang)),
                     "rounds_flasks": f"{p.rounds} × {p.flasks}",
                     "placements": sum(1 for a in entry.record["solution"].get("plan", []) if a.get("kind") == "place"),
                     "proven": proven_text(entry.record, lang)})
    audit = site.extras.get("audit") or {}
    content = render("puzzle_index.md.j2", ui=ui, rows=rows, daily_data=puzzle_why.daily_data(rows),
                     daily=puzzle_why.build_day_pick(rows),
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


BENCH_LABELS = i18n.labels("puzzles.bench_labels")
"""Names of the known ``bench.json`` fields (see ``solver/bench.py``); others are shown as they are."""


@dataclass(frozen=True)
class BenchTable:
    """One list of results of ``bench.json``."""

    title: str
    """Heading (the list's key, named)."""
    headers: tuple[str, ...]
    """Column names, escaped for Markdown."""
    rows: tuple[tuple[str, ...], ...]
    """Cells, escaped for Markdown."""


def bench_cell(value, lang: str = "en") -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return UI[lang]["yes"] if value else UI[lang]["no"]
    if isinstance(value, list) and all(isinstance(v, (int, float, str)) for v in value):
        return md_inline(" / ".join(str(v) for v in value))     # per-seed times: 0.03 / 0.02 / 0.04
    if isinstance(value, (list, dict)):
        return md_inline(json.dumps(value, ensure_ascii=False))
    return md_inline(str(value))


def bench_label(key: str, lang: str) -> str:
    return md_inline(BENCH_LABELS.get(key, {}).get(lang, key))


def bench_link(value, links: dict[str, str]) -> str:
    """A puzzle id, linked to its page when the site has one."""
    text = bench_cell(value)
    return f"[{text}]({links[value]})" if isinstance(value, str) and value in links else text


def _seconds_with_range(item: dict) -> str | None:
    """CP-SAT's median time with the range over seeds: ``1.439 (0.653–1.667)``."""
    median, seeds = item.get("cpsat_seconds"), item.get("cpsat_seconds_seeds")
    if median is None:
        return None
    numbers = [v for v in seeds if isinstance(v, (int, float)) and not isinstance(v, bool)] if isinstance(seeds, list) else []
    return f"{median} ({min(numbers)}–{max(numbers)})" if len(numbers) > 1 else str(median)


def _exhaustive_time(item: dict) -> str | None:
    """The exhaustive search's time, or ``> cap`` when it was stopped there."""
    if item.get("exhaustive_capped") is True:
        return f"> {item.get('exhaustive_cap_seconds', item.get('exhaustive_seconds')) or '?'}"
    return None if item.get("exhaustive_seconds") is None else str(item["exhaustive_seconds"])


def _speed_ratio(item: dict) -> str | None:
    """Exhaustive / CP-SAT, ``≥`` when the exhaustive run was stopped (a lower bound)."""
    if item.get("ratio") is None:
        return None
    return ("≥ " if item.get("ratio_is_lower_bound") is True else "") + f"{item['ratio']}×"


BENCH_COMPOSITES = (
    ("cpsat_seconds", ("cpsat_seconds", "cpsat_seconds_seeds"), _seconds_with_range,
     "cpsat_seconds"),
    ("exhaustive_seconds", ("exhaustive_seconds", "exhaustive_capped", "exhaustive_cap_seconds"), _exhaustive_time,
     "exhaustive_seconds"),
    ("ratio", ("ratio", "ratio_is_lower_bound"), _speed_ratio,
     "ratio"),
)
"""Fields of ``bench.json`` read together in one cell: (main field, fields it takes in, cell, column
name's key under ``puzzles.bench_composites`` in the catalogue).
A table without the main field shows the other fields as they are."""


def bench_columns(columns: list[str], lang: str, links: dict[str, str]) -> list[tuple[str, Callable[[dict], str]]]:
    """(header, cell of an item) per column of a results table: puzzle ids linked to their pages,
    composite cells in place of the fields they take in, other fields as they are."""
    composites = {main: (cell, label) for main, _, cell, label in BENCH_COMPOSITES}
    taken = {f for main, fields, _, _ in BENCH_COMPOSITES if main in columns for f in fields}
    out: list[tuple[str, Callable[[dict], str]]] = []
    for column in columns:
        if column == "id":
            out.append((bench_label(column, lang), lambda item: bench_link(item.get("id"), links)))
        elif column in composites:
            cell, label = composites[column]
            out.append((md_inline(UI[lang]['bench_composites'][label]), lambda item, cell=cell: md_inline(cell(item) or "–")))
        elif column not in taken:
            out.append((bench_label(column, lang), lambda item, column=column: bench_cell(item.get(column), lang)))
    return out


def bench_tables(data, lang: str = "en", links: dict[str, str] | None = None) -> tuple[list[tuple[str, str]], list[BenchTable]]:
    """``bench.json`` as facts (top-level values, nested objects flattened one level: ``machine.cores``)
    and one table per list of objects (or a single table for a top-level list)."""
    links = links or {}
    lists = {"": data} if isinstance(data, list) else {}
    facts: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lists[key] = value
            elif isinstance(value, dict):
                facts += [(md_inline(f"{key}.{k}"), bench_cell(v, lang)) for k, v in value.items()]
            else:
                facts.append((bench_label(key, lang), bench_cell(value, lang)))
    tables = []
    for key, items in lists.items():
        items = [i for i in items if isinstance(i, dict)]
        columns = bench_columns(list(dict.fromkeys(k for item in items for k in item)), lang, links)
        tables.append(BenchTable(bench_label(key, lang) if key else "",
                                 tuple(header for header, _ in columns),
                                 tuple(tuple(cell(item) for _, cell in columns) for item in items)))
    return facts, tables


def inline_svg(path: Path) -> str:
    """The plot's SVG markup, put in the page itself: an image file outside the language folders is
    not published for the English build by mkdocs-static-i18n (no fallback), and inline it works
    the same online, offline and in print. The file is the project's own ``solver bench`` output."""
    markup = path.read_text(encoding="utf-8")
    markup = re.sub(r"<\?xml[^>]*\?>", "", markup)
    return " ".join(line.strip() for line in markup.splitlines() if line.strip())


def bench_page(docs_dir: Path, lang: str, nav: tuple[str, ...], puzzle_ids: tuple[str, ...] = ()) -> Page:
    ui = UI[lang]
    svg, data_file = (docs_dir / p for p in BENCH_ASSETS)
    facts, tables = [], []
    if data_file.exists():
        try:
            links = {pid: relative(BENCH_PAGE, f"{GAME}/puzzles/{pid}.md") for pid in puzzle_ids}
            facts, tables = bench_tables(json.loads(data_file.read_text(encoding="utf-8")), lang, links)
        except ValueError:
            facts, tables = [], []
    content = render("bench.md.j2", ui=ui, svg=inline_svg(svg) if svg.exists() else None,
                     facts=facts, tables=tables, ran=svg.exists() or bool(tables) or bool(facts))
    return Page(lang, BENCH_PAGE, ui["bench_title"], content, nav=nav)


def produce(site, lang: str) -> list[Page]:
    puzzle_set = site.extras.get("puzzles")
    if not isinstance(puzzle_set, PuzzleSet):
        return []
    from .site import DOCS_DIR
    nav = (site.games[GAME].title[lang], UI[lang]["nav"])
    pages = [index_page(site, puzzle_set, lang, nav)]
    pages += [puzzle_page(site, puzzle_set, e, lang, nav) for e in computed_order(puzzle_set.entries)]
    pages += [assumptions_page(puzzle_set, lang, nav),
              bench_page(DOCS_DIR, lang, nav, tuple(e.puzzle.id for e in puzzle_set.entries))]
    return pages


if not any(name == "puzzles" for name, _ in features.LOADERS):
    features.LOADERS.append(("puzzles", load))
if produce not in features.PRODUCERS:
    features.PRODUCERS.append(produce)
