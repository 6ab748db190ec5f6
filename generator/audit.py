"""The rules audit (``data/audit/<game>.yaml``): one row per rule that can change a single player's
plan, with its quotes, the engine code and planner block that carry it, its tests and a status.

:func:`load_audit` reads and validates the file into frozen dataclasses, reporting every problem at
once with file and line: unknown or unclassified sections, quotes not found verbatim in the cleaned
rules text, code references that do not import, test references that name no test function.
See ``data/README.md`` ("Rules audit").
"""
from __future__ import annotations

import ast
import importlib
import inspect
from functools import lru_cache
import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import CodeType, FrameType, ModuleType, TracebackType
from typing import TYPE_CHECKING

from .errors import Problems
from .languages import CONTENT_LANGUAGES, SITE_LANGUAGES
from .rules import Game, Label, SECTION_ID, SLUG
from .yamlio import Located, load_yaml, yaml_path
from .site_data import FeatureKey

if TYPE_CHECKING:
    from solver.game.model import Puzzle, Ruling

ROOT = Path(__file__).resolve().parent.parent
"""Repository root: test references (``tests/x.py::test_y``) are relative to it."""
CODE_PREFIX = "solver."
"""Engine and planner references must point into the solver package."""
PLANNER_BLOCK = re.compile(r"""lm\.section\(\s*["']([a-z0-9.-]+)["']""")
"""How the planner opens a constraint block: ``lm.section("spots.card-row")``."""
TEST_REF = re.compile(r"^(?P<file>tests/[A-Za-z0-9_/]+\.py)::(?P<name>test_[A-Za-z0-9_]+)$")
ROW_KEYS = {"id", "group", "sections", "quotes", "engine", "planner", "tests", "status", "explanation",
            "chosen", "other", "no_puzzle"}


class Status(str, Enum):
    """How the engine stands to a rule."""

    @property
    def takes_puzzle(self) -> bool:
        """Whether a row of this status gets a discriminating puzzle: the engine must play the
        row's reading, so ``implemented`` and ``ruling`` rows only (``wrong``: the engine contradicts
        the text; ``not-modelled``: it has no such rule; ``outside``: not about a single player)."""
        return self in (Status.IMPLEMENTED, Status.RULING)

    IMPLEMENTED = "implemented"
    """The engine and the planner follow the text."""
    RULING = "ruling"
    """The text allows more than one reading: the row states the chosen one and the other."""
    NOT_MODELLED = "not-modelled"
    """The engine does not have this rule (the row says why); puzzles cannot use it."""
    WRONG = "wrong"
    """The engine's current reading contradicts the text (the row says how); being fixed."""
    OUTSIDE = "outside"
    """Deliberately outside a single-player puzzle (other players' choices, setup, the winner)."""


STATUS_ORDER = (Status.IMPLEMENTED, Status.RULING, Status.WRONG, Status.NOT_MODELLED, Status.OUTSIDE)
"""Order of the statuses in summaries."""


@dataclass(frozen=True)
class Quote:
    """One sentence (or a few) of one official text."""

    source: str
    """Source id from ``rules/<game>/game.yaml`` (``it-1e``, ``en-2e``, ``en-virus``)."""
    section: str
    """Section id the sentence is in."""
    text: str
    """The words, verbatim from the cleaned rules (emphasis markers and line breaks aside)."""


@dataclass(frozen=True)
class PlannerRef:
    """A constraint block of the planner: a function and the rule-section label of the block."""

    function: str
    """Dotted path of the function building the model (``solver.optimise.model.build.build_model``)."""
    block: str | None
    """The ``lm.section(...)`` label of the block inside it, or None for the whole function."""

    def __str__(self) -> str:
        return self.function + (f"#{self.block}" if self.block else "")


@dataclass(frozen=True)
class AuditRow:
    """One audited rule."""

    id: str
    """Stable row id (``free-ribosome-any-number-1e``), the anchor on the page."""
    group: str
    """Id of the group the row is listed under."""
    sections: tuple[str, ...]
    """Rule section ids the row covers (the first is the one linked)."""
    quotes: tuple[Quote, ...]
    """The official sentences, one or more per edition that has the rule."""
    engine: tuple[str, ...]
    """Dotted paths of the engine code that implements the rule (empty when not modelled)."""
    planner: tuple[PlannerRef, ...]
    """Planner blocks that encode it (empty when not modelled)."""
    tests: tuple[str, ...]
    """Tests that prove it: ``tests/file.py::test_name``."""
    status: Status
    """How the engine stands to the rule."""
    explanation: Label
    """The project's explanation (for ``wrong``: how the engine contradicts the text; for
    ``not-modelled`` and ``outside``: why)."""
    chosen: Label | None
    """``ruling`` only: the reading the engine follows."""
    other: Label | None
    """``ruling`` only: the other reading."""
    no_puzzle: Label | None
    """Why no discriminating puzzle can exist for this row (for example: the other reading never
    scores better), or None; a row with a puzzle file has none."""
    line: int
    """Line of the row in the audit file."""


AUDITS: FeatureKey[dict[str, Audit]] = FeatureKey("audit", dict)
"""The rules audit of ``data/audit/<game>.yaml``, by game id (the ``audit`` feature's data)."""


@dataclass(frozen=True)
class AuditPuzzle:
    """A row's discriminating puzzle (``data/audit/puzzles/<row-id>.yaml``): a tiny puzzle whose
    optimum under the row's reading differs from its optimum under the other reading. Its figures
    are the hand derivations of the file's comment; ``tests/test_audit_puzzles.py`` checks that the
    engines reproduce them, so the site shows them without solving."""

    row: str
    """The audit row's id (the file name)."""
    file: Path
    """The puzzle file."""
    puzzle: Puzzle
    """The loaded puzzle (its ``title`` and ``story`` are the page's prose, in both languages)."""
    optimum: int
    """``# Optimum derived by hand: N``: the best final Health under the row's reading."""
    other_optimum: int
    """``# Under the other reading: M, because ...``: the best under the other reading."""
    because: str
    """The comment's reason for M (English, the maintainers' note)."""
    ruling: Ruling | None
    """The puzzle's one explicitly stated ruling (``rulings: {name: reading}``): then the other
    reading is that ruling's other value and the engines compute M too; where the puzzle states
    several (the others set the table), the comment line ``# Row's ruling: <name>`` says which.
    None: M is by hand."""

    @property
    def other_reading(self) -> str | None:
        """The other value of :attr:`ruling` (None without one)."""
        from solver.game.model import RULING_READINGS
        if self.ruling is None:
            return None
        return next(r for r in RULING_READINGS[self.ruling] if r != self.puzzle.reading(self.ruling))


@dataclass(frozen=True)
class Group:
    """A heading of the audit page."""

    id: str
    """Stable id (anchor)."""
    title: Label
    """Title in each site language."""


@dataclass(frozen=True)
class Exclusion:
    """A section of the game judged not plan-relevant."""

    id: str
    """Section id."""
    reason: Label
    """Why it cannot change a single player's plan."""


@dataclass(frozen=True)
class Audit:
    """A game's whole rules audit."""

    game: str
    """Game id."""
    groups: tuple[Group, ...]
    """Groups in page order."""
    rows: tuple[AuditRow, ...]
    """Rows in file order."""
    plan_relevant: tuple[str, ...]
    """Section ids that can change a single player's plan: each has at least one row."""
    excluded: tuple[Exclusion, ...]
    """The other section ids, each with its reason."""
    file: Path
    """The audit file."""
    puzzles: dict[str, AuditPuzzle] = field(default_factory=dict)
    """The discriminating puzzles, by row id (:func:`load_audit_puzzles`)."""

    def rows_of(self, group: str) -> tuple[AuditRow, ...]:
        return tuple(r for r in self.rows if r.group == group)

    def counts(self) -> dict[Status, int]:
        """Rows per status, every status present."""
        return {s: sum(1 for r in self.rows if r.status is s) for s in STATUS_ORDER}


# --- text matching ------------------------------------------------------------------------------

def plain(text: str) -> str:
    """Text with Markdown emphasis markers dropped and whitespace collapsed, for quote matching."""
    return " ".join(text.replace("*", "").replace("\\", "").split())


def section_source_text(game: Game, section_id: str, source_id: str) -> str | None:
    """The cleaned official text of ``section_id`` from ``source_id``, or None if it has none."""
    section = game.sections.get(section_id)
    if section is None:
        return None
    for text in section.texts.values():
        if text.source == source_id and not text.translated:
            return text.title + "\n" + text.body
    return None


# --- code and test references -------------------------------------------------------------------

def resolve_code(path: str) -> object:
    """The object a dotted path names (``solver.game.engine.why_cannot_take``, ``solver.game.editions.Rules.events``):
    the longest importable module prefix, then attributes. Raises LookupError saying what is missing."""
    if not path.startswith(CODE_PREFIX):
        raise LookupError(f"expected a dotted path into the solver package ({CODE_PREFIX}…)")
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(module_name)
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                raise LookupError(f"{'.'.join(parts[:parts.index(attr)])} has no attribute {attr!r}")
            obj = getattr(obj, attr)
        return obj
    raise LookupError(f"no importable module in {path!r}")


@lru_cache(maxsize=None)
def planner_blocks(function: object) -> frozenset[str]:
    """The block labels a model-building function opens with ``lm.section(...)``, its own and those
    of the functions of its module it calls (a constraint family split into helpers opens its blocks
    in them). Cached: about 130 references read the same few functions, and ``inspect.getsource``
    is slow."""
    blocks: set[str] = set()
    pending, seen = [function], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if not (callable(current) or isinstance(current, (ModuleType, TracebackType, FrameType, CodeType))):
            continue  # what inspect.getsource refuses with TypeError
        try:
            source = inspect.getsource(current)
        except (OSError, TypeError):
            continue
        blocks.update(PLANNER_BLOCK.findall(source))
        scope = getattr(current, "__globals__", {})
        pending += [helper for name in sorted(_called_names(source)) if inspect.isfunction(helper := scope.get(name))
                    and helper.__module__ == getattr(function, "__module__", None)]
    return frozenset(blocks)


def _called_names(source: str) -> set[str]:
    """The plain names called in ``source`` (``helper(...)``, not ``obj.method(...)``)."""
    try:
        tree = ast.parse(inspect.cleandoc(source) if source[:1].isspace() else source)
    except SyntaxError:
        return set()
    return {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}


def test_functions(file: Path) -> frozenset[str]:
    """Names of the ``test_*`` functions (module level or in classes) of a test file."""
    return _test_names(file.read_text(encoding="utf-8"), str(file))


@lru_cache(maxsize=256)
def _test_names(text: str, filename: str) -> frozenset[str]:
    """:func:`test_functions` of a file's text, parsed once per process (every audit file reads the
    same few test files, and every load of the data all of them)."""
    tree = ast.parse(text, filename=filename)
    return frozenset(node.name for node in ast.walk(tree)
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"))


# --- loading ------------------------------------------------------------------------------------

class _Reader:
    """Reads one audit file, collecting problems with their lines."""

    def __init__(self, file: Path, located: Located, problems: Problems, game: Game):
        self.file, self.located, self.problems, self.game = file, located, problems, game
        self._tests: dict[Path, frozenset[str] | None] = {}

    def fail(self, path: tuple[str | int, ...], message: str) -> None:
        self.problems.add(self.file, yaml_path(*path), message, self.located.line(*path))

    def label(self, value: object, path: tuple[str | int, ...]) -> Label | None:
        """A text in each content language, and optionally in the other site languages (a page in
        one the data does not give reads the fallback chain's text)."""
        if not isinstance(value, dict) or not set(value) <= set(CONTENT_LANGUAGES) | set(SITE_LANGUAGES) or not all(
                isinstance(value.get(k), str) and value[k].strip() for k in CONTENT_LANGUAGES) or not all(
                isinstance(v, str) and v.strip() for v in value.values()):
            self.fail(path, f"expected {{it: text, en: text}}, both non-empty (and optionally a text in another "
                      f"site language of {list(SITE_LANGUAGES)}), got {value!r}")
            return None
        return Label.of({lang: text.strip() for lang, text in value.items()})

    def strings(self, value: object, path: tuple[str | int, ...], what: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(path, f"expected a list of {what}, got {value!r}")
            return ()
        return tuple(value)

    def section_id(self, value: object, path: tuple[str | int, ...]) -> str | None:
        if not isinstance(value, str) or not SECTION_ID.match(value):
            self.fail(path, f"expected a section id like 'spots.golgi', got {value!r}")
            return None
        if value not in self.game.sections:
            self.fail(path, f"section {value!r} is not in rules/{self.game.id}/game.yaml")
            return None
        return value

    def quote(self, value: object, path: tuple[str | int, ...], row_sections: tuple[str, ...]) -> Quote | None:
        if not isinstance(value, dict) or set(value) != {"source", "section", "text"}:
            self.fail(path, f"expected {{source, section, text}}, got {value!r}")
            return None
        sources = [s.id for s in self.game.sources]
        ok = True
        if value["source"] not in sources:
            self.fail(path + ("source",), f"expected one of {sources}, got {value['source']!r}")
            ok = False
        section = self.section_id(value["section"], path + ("section",))
        if section is not None and section not in row_sections:
            self.fail(path + ("section",), f"section {section!r} is not one of the row's sections {list(row_sections)}")
        if not isinstance(value["text"], str) or not value["text"].strip():
            self.fail(path + ("text",), f"expected the quoted words, got {value['text']!r}")
            ok = False
        if not ok or section is None:
            return None
        text = section_source_text(self.game, section, value["source"])
        if text is None:
            self.fail(path + ("section",), f"section {section!r} has no official text from {value['source']!r}")
            return None
        if plain(value["text"]) not in plain(text):
            self.fail(path + ("text",), f"not found verbatim in {value['source']} section {section!r}: "
                                        f"{value['text'][:80]!r}")
            return None
        return Quote(value["source"], section, value["text"].strip())

    def code(self, value: str, path: tuple[str | int, ...]) -> str | None:
        try:
            resolve_code(value)
        except LookupError as exc:
            self.fail(path, f"{value!r} does not resolve: {exc}")
            return None
        return value

    def planner_ref(self, value: object, path: tuple[str | int, ...]) -> PlannerRef | None:
        if not isinstance(value, str) or not value:
            self.fail(path, f"expected 'solver.module.function#block', got {value!r}")
            return None
        function, _, block = value.partition("#")
        try:
            obj = resolve_code(function)
        except LookupError as exc:
            self.fail(path, f"{function!r} does not resolve: {exc}")
            return None
        if block and block not in planner_blocks(obj):
            self.fail(path, f"{function} opens no block lm.section({block!r}); it has {sorted(planner_blocks(obj))}")
            return None
        return PlannerRef(function, block or None)

    def test_ref(self, value: str, path: tuple[str | int, ...]) -> str | None:
        match = TEST_REF.match(value)
        if not match:
            self.fail(path, f"expected 'tests/file.py::test_name', got {value!r}")
            return None
        file = ROOT / match["file"]
        if file not in self._tests:
            self._tests[file] = test_functions(file) if file.is_file() else None
        names = self._tests[file]
        if names is None:
            self.fail(path, f"no test file {match['file']!r}")
            return None
        if match["name"] not in names:
            self.fail(path, f"{match['file']} has no function {match['name']!r}")
            return None
        return value

    def row(self, value: object, i: int, groups: set[str]) -> AuditRow | None:
        path = ("rows", i)
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {value!r}")
            return None
        for key in sorted(set(value) - ROW_KEYS):
            self.fail(path + (key,), f"unknown key {key!r}; expected some of {sorted(ROW_KEYS)}")
        for key in ("id", "group", "sections", "quotes", "engine", "planner", "tests", "status", "explanation"):
            if key not in value:
                self.fail(path, f"missing {key!r}")
        if any(key not in value for key in ("id", "group", "sections", "quotes", "status", "explanation")):
            return None
        row_id = value["id"]
        if not isinstance(row_id, str) or not SLUG.match(row_id):
            self.fail(path + ("id",), f"expected an id of a-z0-9 and '-', got {row_id!r}")
        if value["group"] not in groups:
            self.fail(path + ("group",), f"expected one of the groups {sorted(groups)}, got {value['group']!r}")
        try:
            status = Status(value["status"])
        except ValueError:
            self.fail(path + ("status",), f"expected one of {[s.value for s in Status]}, got {value['status']!r}")
            status = None
        raw_sections = self.strings(value["sections"], path + ("sections",), "section ids")
        if not raw_sections:
            self.fail(path + ("sections",), "expected at least one section id")
        sections = tuple(s for j, s in enumerate(raw_sections) if self.section_id(s, path + ("sections", j)))
        quotes_raw = value["quotes"]
        if not isinstance(quotes_raw, list) or not quotes_raw:
            self.fail(path + ("quotes",), f"expected a non-empty list of quotes, got {quotes_raw!r}")
            quotes_raw = []
        quotes = tuple(q for j, raw in enumerate(quotes_raw)
                       if (q := self.quote(raw, path + ("quotes", j), raw_sections)) is not None)
        engine = tuple(e for j, e in enumerate(self.strings(value.get("engine", []), path + ("engine",), "dotted paths"))
                       if self.code(e, path + ("engine", j)))
        planner_raw = value.get("planner", [])
        if not isinstance(planner_raw, list):
            self.fail(path + ("planner",), f"expected a list of 'solver.module.function#block', got {planner_raw!r}")
            planner_raw = []
        planner = tuple(p for j, raw in enumerate(planner_raw)
                        if (p := self.planner_ref(raw, path + ("planner", j))) is not None)
        tests = tuple(t for j, t in enumerate(self.strings(value.get("tests", []), path + ("tests",), "test references"))
                      if self.test_ref(t, path + ("tests", j)))
        if not value.get("tests"):
            self.fail(path + ("tests",), "expected at least one test: every row has a test")
        if status in (Status.IMPLEMENTED, Status.RULING, Status.WRONG):
            if not value.get("engine"):
                self.fail(path + ("engine",), f"a {status.value!r} row names the engine code that carries it")
            if not value.get("planner"):
                self.fail(path + ("planner",), f"a {status.value!r} row names the planner block that encodes it")
        explanation = self.label(value["explanation"], path + ("explanation",))
        chosen = other = None
        if status is Status.RULING:
            for key in ("chosen", "other"):
                if key not in value:
                    self.fail(path, f"a 'ruling' row states the chosen reading and the other one: missing {key!r}")
            chosen = self.label(value.get("chosen"), path + ("chosen",)) if "chosen" in value else None
            other = self.label(value.get("other"), path + ("other",)) if "other" in value else None
        else:
            for key in ("chosen", "other"):
                if key in value:
                    self.fail(path + (key,), f"{key!r} belongs to 'ruling' rows only (status is {value['status']!r})")
        no_puzzle = self.label(value["no_puzzle"], path + ("no_puzzle",)) if "no_puzzle" in value else None
        if no_puzzle is not None and status is not None and not status.takes_puzzle:
            self.fail(path + ("no_puzzle",), f"a {status.value!r} row takes no discriminating puzzle: "
                                             "'no_puzzle' is for implemented and ruling rows")
        if status is None or explanation is None:
            return None
        return AuditRow(row_id, value["group"], sections, quotes, engine, planner, tests, status, explanation,
                        chosen, other, no_puzzle, self.located.line(*path) or 0)


def load_audit(file: Path, game: Game, problems: Problems) -> Audit | None:
    """Read and validate ``file`` against ``game``; problems go to ``problems`` (all of them)."""
    data, located = load_yaml(file)
    reader = _Reader(file, located, problems, game)
    if not isinstance(data, dict):
        reader.fail((), f"expected a mapping with game, groups, plan_relevant, excluded, rows, got {type(data).__name__}")
        return None
    for key in sorted(set(data) - {"game", "groups", "plan_relevant", "excluded", "rows"}):
        reader.fail((key,), f"unknown key {key!r}")
    if data.get("game") != game.id:
        reader.fail(("game",), f"expected {game.id!r}, got {data.get('game')!r}")
    groups = []
    for i, g in enumerate(data.get("groups") or []):
        if not isinstance(g, dict) or not isinstance(g.get("id"), str) or not SLUG.match(g["id"]):
            reader.fail(("groups", i), f"expected {{id, title}}, got {g!r}")
            continue
        title = reader.label(g.get("title"), ("groups", i, "title"))
        if title:
            groups.append(Group(g["id"], title))
    group_ids = {g.id for g in groups}
    plan_relevant = reader.strings(data.get("plan_relevant"), ("plan_relevant",), "section ids")
    for i, s in enumerate(plan_relevant):
        reader.section_id(s, ("plan_relevant", i))
    excluded = []
    for i, e in enumerate(data.get("excluded") or []):
        if not isinstance(e, dict) or set(e) != {"id", "reason"}:
            reader.fail(("excluded", i), f"expected {{id, reason}}, got {e!r}")
            continue
        reason = reader.label(e["reason"], ("excluded", i, "reason"))
        if reader.section_id(e["id"], ("excluded", i, "id")) and reason:
            excluded.append(Exclusion(e["id"], reason))
    rows_raw = data.get("rows")
    if not isinstance(rows_raw, list):
        reader.fail(("rows",), f"expected a list of rows, got {rows_raw!r}")
        rows_raw = []
    rows = [r for i, raw in enumerate(rows_raw) if (r := reader.row(raw, i, group_ids)) is not None]

    # every row id once; every section classified once; every plan-relevant section has a row
    seen: dict[str, int] = {}
    for i, r in enumerate(rows):
        if r.id in seen:
            problems.add(file, f"rows[{i}].id", f"duplicate row id {r.id!r} (first at line {seen[r.id]})", r.line)
        seen.setdefault(r.id, r.line)
    classified: dict[str, str] = {}
    for where, ids in (("plan_relevant", plan_relevant), ("excluded", tuple(e.id for e in excluded))):
        for i, s in enumerate(ids):
            if s in classified:
                reader.fail((where, i), f"section {s!r} is classified twice ({classified[s]} and {where})")
            classified.setdefault(s, where)
    all_sections = [s for c in game.chapters for s in c.sections]
    for s in all_sections:
        if s not in classified:
            reader.fail(("plan_relevant",), f"section {s!r} of rules/{game.id}/game.yaml is not classified: "
                                            "list it under plan_relevant or excluded (with the reason)")
    covered = {s for r in rows for s in r.sections}
    for i, s in enumerate(plan_relevant):
        if s in game.sections and s not in covered:
            reader.fail(("plan_relevant", i), f"plan-relevant section {s!r} has no audit row")
    for r in rows:
        for s in r.sections:
            if classified.get(s) == "excluded":
                problems.add(file, f"rows.{r.id}.sections", f"section {s!r} is listed as excluded but has a row", r.line)
    used_groups = {r.group for r in rows}
    for i, g in enumerate(groups):
        if g.id not in used_groups:
            reader.fail(("groups", i), f"group {g.id!r} has no rows")
    return Audit(game.id, tuple(groups), tuple(rows), tuple(plan_relevant), tuple(excluded), file)


# --- discriminating puzzles ---------------------------------------------------------------------

PUZZLES_FOLDER = "puzzles"
"""``data/audit/puzzles/<row-id>.yaml``: the rows' discriminating puzzles (Cytosis puzzle files)."""
PUZZLE_GAME = "cytosis"
"""The game whose audit the puzzles belong to (the solver plays Cytosis only)."""
HAND_LINE = re.compile(r"^# Optimum derived by hand: (\d+)[ \t]*$", re.M)
"""The optimum under the row's reading, derived by hand."""
OTHER_LINE = re.compile(r"^# Under the other reading: (\d+), because (\S.*)$", re.M)
"""The optimum under the other reading, and why."""
ROW_RULING_LINE = re.compile(r"^# Row's ruling: ([a-z0-9-]+)[ \t]*$", re.M)
"""Which of several stated rulings is the row's (the others only set the table)."""
RULE_LINE = re.compile(r'^# Rule: .*"[^"\n]{12,}', re.M)
"""The rule the puzzle aims at, quoted."""


QUOTED = re.compile(r'"([^"]{12,})"')
"""A quotation of the rulebooks in a puzzle's ``# Rule:`` paragraph (``...`` marks a cut)."""


def rule_paragraph(text: str) -> str:
    """The ``# Rule:`` comment line and its indented continuation lines, joined."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# Rule: "))
    block = [lines[start][len("# Rule: "):]]
    for line in lines[start + 1:]:
        if not line.startswith("#   "):
            break
        block.append(line[4:])
    return " ".join(part.strip() for part in block)


def official_texts(game: Game) -> tuple[str, ...]:
    """Every official (not translated) section text of ``game``, :func:`plain`."""
    return tuple(plain(t.title + "\n" + t.body) for sec in game.sections.values() for t in sec.originals())


def unquoted(paragraph: str, official: tuple[str, ...]) -> list[str]:
    """The quotations of ``paragraph`` not found verbatim in any of the ``official`` texts
    (:func:`official_texts`; each piece between ``...`` cuts is looked for on its own)."""
    missing = []
    for quote in QUOTED.findall(paragraph):
        pieces = [plain(p) for p in quote.replace("…", "...").split("...") if p.strip()]
        if not all(any(piece in text for text in official) for piece in pieces):
            missing.append(quote)
    return missing


def puzzle_comment_figures(text: str) -> tuple[int, int, str] | str:
    """(N, M, because) from a discriminating puzzle's comment, or what is wrong with it."""
    hand, other = HAND_LINE.findall(text), OTHER_LINE.findall(text)
    if len(hand) != 1:
        return f"expected one comment line '# Optimum derived by hand: N', found {len(hand)}"
    if len(other) != 1:
        return f"expected one comment line '# Under the other reading: M, because ...', found {len(other)}"
    if not RULE_LINE.search(text):
        return "expected a comment line '# Rule: ...' quoting the rule (at least 12 characters in double quotes)"
    n, (m, because) = int(hand[0]), other[0]
    if int(m) == n:
        return (f"the optimum is {n} under both readings: a discriminating puzzle needs another optimum "
                f"under the other reading")
    return n, int(m), because.strip()


def load_audit_puzzle(file: Path, audit: Audit, game: Game, problems: Problems,
                      official: tuple[str, ...] | None = None) -> AuditPuzzle | None:
    """One discriminating puzzle, checked against its row and the rules of ``game`` (its ``# Rule:``
    quotations must be verbatim); problems name the file and the field."""
    from solver import SolverError
    from solver.game.model import Ruling

    from .puzzles.loading import load_puzzle_once
    rows = {r.id: r for r in audit.rows}
    row = rows.get(file.stem)
    if row is None:
        problems.add(file, "", f"the file name {file.stem!r} names no row of {display(audit.file)} "
                               f"(expected data/audit/{PUZZLES_FOLDER}/<row-id>.yaml)")
        return None
    if not row.status.takes_puzzle:
        problems.add(file, "", f"row {row.id!r} is {row.status.value!r}: only implemented and ruling rows take a "
                               "discriminating puzzle (the engine must play the row's reading)")
        return None
    if row.no_puzzle is not None:
        problems.add(file, "", f"row {row.id!r} says no discriminating puzzle can exist (no_puzzle, "
                               f"{display(audit.file)} line {row.line}): drop one or the other")
        return None
    try:
        puzzle = load_puzzle_once(file)
    except SolverError as exc:       # PuzzleError among them: names the field and line
        problems.add(file, "", f"puzzle not loaded: {exc}")
        return None
    if puzzle.id != file.stem:
        problems.add(file, "id", f"expected the file's name {file.stem!r}, got {puzzle.id!r}")
        return None
    text = file.read_text(encoding="utf-8")
    figures = puzzle_comment_figures(text)
    if isinstance(figures, str):
        problems.add(file, "", figures)
        return None
    optimum, other_optimum, because = figures
    missing = unquoted(rule_paragraph(text), official if official is not None else official_texts(game))
    if missing:
        problems.add(file, "", f"the '# Rule:' comment quotes words found in no official text of {game.id}: "
                               f"{missing[0][:80]!r} (copy them verbatim from data/rules/{game.id}/)")
        return None
    data, located = load_yaml(file)
    expected = ((data.get("expected") or {}).get("health"))
    if expected is not None and expected != optimum:
        problems.add(file, "expected.health", f"expected the hand optimum {optimum} of the comment, got {expected}",
                     located.line("expected", "health"))
        return None
    stated = sorted(data.get("rulings") or {})
    named = ROW_RULING_LINE.findall(text)
    if len(stated) > 1 and (len(named) != 1 or named[0] not in stated):
        problems.add(file, "rulings", f"the puzzle states the rulings {stated}: expected one comment line "
                                      f"\"# Row's ruling: <one of them>\" naming the row's, got {named}",
                     located.line("rulings"))
        return None
    ruling = Ruling(named[0] if len(stated) > 1 else stated[0]) if stated else None
    return AuditPuzzle(row.id, file, puzzle, optimum, other_optimum, because, ruling)


def load_audit_puzzles(folder: Path, audit: Audit, game: Game, problems: Problems) -> dict[str, AuditPuzzle]:
    """Every ``<row-id>.yaml`` of ``folder``, by row id (rows in file order); what does not load
    or does not fit its row is reported, and left out."""
    found = {}
    official = official_texts(game)
    for file in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        item = load_audit_puzzle(file, audit, game, problems, official)
        if item is not None:
            found[item.row] = item
    order = {r.id: i for i, r in enumerate(audit.rows)}
    return dict(sorted(found.items(), key=lambda kv: order[kv[0]]))


def display(file: Path) -> str:
    from .errors import display_path
    return display_path(file)


def load_audits(data_dir: Path, games: dict[str, Game], problems: Problems) -> dict[str, Audit]:
    """Every ``data/audit/<game>.yaml`` whose game exists."""
    audits: dict[str, Audit] = {}
    folder = data_dir / "audit"
    if not folder.is_dir():
        return audits
    for file in sorted(folder.glob("*.yaml")):
        game = games.get(file.stem)
        if game is None:
            problems.add(file, "", f"no game {file.stem!r} under rules/ (expected one of {sorted(games)})")
            continue
        audit = load_audit(file, game, problems)
        if audit is not None:
            if game.id == PUZZLE_GAME:
                audit.puzzles.update(load_audit_puzzles(folder / PUZZLES_FOLDER, audit, game, problems))
            audits[game.id] = audit
    return audits
