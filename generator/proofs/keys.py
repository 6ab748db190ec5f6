"""What a record's answers depend on, as digests: a record is stale when one of them changes, and
only then (issue #64). Not the identity of the code: its behaviour.

- **behaviour** (:func:`behaviour_digest`): the rules engine's transitions over a deterministic
  sample of the puzzle's game tree, perft-style (python-chess commits perft counts, OpenSpiel its
  playthroughs): a breadth-first slice from the start, the worked example's line and every move one
  step off it, the greedy line, seeded random playouts to the end (so the final scoring is
  covered), and smaller samples of the puzzle under its rulings' other readings and of the why
  facts' probes. Each state's key, its legal actions in the engine's order (their labels, never a
  message) and the states they lead to, each final score's breakdown, and the replayed steps of
  the two lines the record stores, go into one SHA-256. A refactor of the engine leaves it alone;
  a rules change moves it for exactly the puzzles whose sample meets the rule.
- **model** (:func:`model_digest`): the planner's model of the puzzle, of its other readings and
  with the prefix options the regret values use, in :func:`solver.encoding.linear.canonical_form`
  (as ``tests/golden/model-digests.json`` keeps the shipped ones).
- **code** (:func:`.fingerprint.narrow_fingerprint`): for what neither covers (the searches of the
  regret values and the why facts, the solution's assembly), the normalised syntax of just those
  modules, reduced to what their entry points reach; messages, docstrings, comments, annotations,
  the names of their own functions and unused functions are left out.

Each answer part of a record is keyed by the digests it depends on (:data:`PART_DEPENDS`); the
budgets are compared as the record states them (``engines.budgets``).

Computing the behaviour and model digests takes a few seconds a puzzle; they are kept in
``.cache/records/`` (not committed) under a digest of the bytes of every module they could depend
on (:func:`code_bytes_digest`), the puzzle's inputs and its plan, so a build with nothing changed
reads them back in milliseconds.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .fingerprint import ROOT, module_path, narrow_fingerprint

if TYPE_CHECKING:
    from solver.game.engine import Action, State
    from solver.game.model import Puzzle

FORMAT = "keys-1"
"""The layout and sampling of the keys: changed when :func:`behaviour_digest` samples otherwise."""
BFS_STATES = 60
"""States expanded breadth-first from the start (each with every legal move)."""
PLAYOUTS = 12
"""Seeded random playouts to the end of the game, per puzzle."""
VARIANT_BFS_STATES = 15
"""The same, for each other reading and each probe of the why facts."""
VARIANT_PLAYOUTS = 3
MAX_PLAYOUT_STEPS = 2_000
"""A playout longer than this is cut (no game is: a guard against an engine that never ends)."""

CODE_PARTS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "solution": (("generator.proofs.compute", "generator.proofs.solution", "solver.optimise.search"),
                 (("generator.proofs.compute", "compute"), ("generator.proofs.solution", "compute_solution"))),
    "regret": (("generator.proofs.compute", "generator.proofs.regret", "solver.optimise.regret", "solver.game.values"),
               (("generator.proofs.compute", "compute"), ("generator.proofs.regret", "compute_values"),
                ("generator.proofs.regret", "line_values"))),
    "why": (("generator.proofs.compute", "generator.proofs.why", "solver.optimise.explain", "generator.proofs.regret",
             "solver.optimise.regret", "solver.game.values"),
            (("generator.proofs.compute", "compute"), ("generator.proofs.why", "compute_why"),
             ("generator.proofs.why", "difficulty"))),
}
"""Per answer part, the modules whose narrow fingerprint keys it and their entry points: the
searches and the assembly the behaviour and model digests do not cover."""
PART_DEPENDS: dict[str, tuple[str, ...]] = {
    "solution": ("behaviour", "model", "code.solution"),
    "regret": ("behaviour", "model", "code.regret"),
    "why": ("behaviour", "model", "code.why"),
}
"""What each answer part depends on (the regret values and the why facts also on the solution:
recomputing it recomputes them). The level is recomputed from the facts on every build."""
DESCRIBED = {"behaviour": "the rules engine's behaviour on this puzzle or its recorded plans", "model": "the planner's model of it",
             "code.solution": "the code assembling its solution", "code.regret": "the regret values' search",
             "code.why": "the why facts' search"}
CACHE_DIR = ROOT / ".cache" / "records"
"""Where computed digests are kept between builds (gitignored)."""
CACHED_SOURCES = ("solver", "generator/proofs/keys.py", "generator/proofs/fingerprint.py")
"""Files and folders whose modules' bytes key the cache, with the modules of :data:`CODE_PARTS`: a
superset of what the digests can depend on (the solver's benchmarks and command line aside)."""
NOT_CACHED_SOURCES = ("solver/benchmarks", "solver/cli.py", "solver/__main__.py")


@dataclass(frozen=True)
class Keys:
    """A record's keys: what its answers depend on."""

    behaviour: str
    model: str
    code: dict[str, str]
    """Part -> narrow fingerprint."""

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "behaviour": self.behaviour, "model": self.model, "code": dict(sorted(self.code.items()))}

    def component(self, name: str) -> str | None:
        if name.startswith("code."):
            return self.code.get(name.split(".", 1)[1])
        return str(getattr(self, name))

    @staticmethod
    def component_of(recorded: Mapping[str, Any], name: str) -> Any:
        """Component ``name`` of a record's ``keys`` object as written (None when absent)."""
        if name.startswith("code."):
            code = recorded.get("code")
            return code.get(name.split(".", 1)[1]) if isinstance(code, dict) else None
        return recorded.get(name)


def stale_parts(recorded: Mapping[str, Any], today: Keys) -> dict[str, list[str]]:
    """Part -> the components it depends on that differ between a record's ``keys`` and today's
    (parts with none left out). A part depending on a stale solution is stale too."""
    if recorded.get("format") != FORMAT:
        return {part: ["format"] for part in PART_DEPENDS}
    out = {part: [c for c in depends if Keys.component_of(recorded, c) != today.component(c)]
           for part, depends in PART_DEPENDS.items()}
    if out["solution"]:
        for part in ("regret", "why"):
            out[part] = out[part] or ["solution"]
    return {part: changed for part, changed in out.items() if changed}


# --------------------------------------------------------------------------- behaviour


class _Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256(FORMAT.encode() + b"\0")

    def feed(self, *items: Any) -> None:
        self.hash.update(json.dumps(items, sort_keys=True, separators=(",", ":"), default=str).encode() + b"\n")


def _expand(out: _Digest, state: State) -> list[State]:
    """Feed one state's transitions (or its final score); its successors."""
    from solver.game.engine import apply_legal, is_terminal, legal_actions, score
    from solver.game.values import state_key
    if is_terminal(state):
        out.feed("end", state_key(state), score(state).to_dict())
        return []
    actions = legal_actions(state)
    children = [apply_legal(state, a) for a in actions]
    out.feed("node", state_key(state), [[str(a), state_key(c)] for a, c in zip(actions, children)])
    return children


def _sample(out: _Digest, puzzle: Puzzle, name: str, bfs_states: int, playouts: int) -> None:
    """A breadth-first slice from the start and seeded random playouts to the end."""
    from solver.game.engine import apply_legal, initial_state, is_terminal, legal_actions, score
    from solver.game.values import state_key
    out.feed("sample", name)
    start = initial_state(puzzle)
    queue, seen, expanded = deque([start]), {state_key(start)}, 0
    while queue and expanded < bfs_states:
        for child in _expand(out, queue.popleft()):
            key = state_key(child)
            if key not in seen:
                seen.add(key)
                queue.append(child)
        expanded += 1
    for index in range(playouts):
        rng = random.Random(f"{name}/{index}")
        state, moves = start, list[list[object]]()
        while not is_terminal(state) and len(moves) < MAX_PLAYOUT_STEPS:
            actions = legal_actions(state)
            if not actions:
                break
            action = actions[rng.randrange(len(actions))]
            moves.append([str(action), len(actions)])
            state = apply_legal(state, action)
        out.feed("playout", index, moves, state_key(state), score(state).to_dict() if is_terminal(state) else None)


def _line(out: _Digest, puzzle: Puzzle, name: str, plan: Iterable[Action], one_off: bool) -> None:
    """A plan's replayed steps (as a record stores them) and, with ``one_off``, every state one
    move off it."""
    from solver.game.engine import apply_legal, initial_state, is_terminal, score
    from solver.game.errors import SolverError
    from solver.game.replay import replay
    plan = list(plan)
    try:
        steps, final = replay(puzzle, plan)
    except SolverError as exc:     # a record whose plan no longer replays: its key says so
        out.feed("line", name, "does not replay", type(exc).__name__)
        return
    out.feed("line", name, [s.to_dict() for s in steps], score(final).to_dict() if is_terminal(final) else None)
    if one_off:
        state = initial_state(puzzle)
        for action in plan:
            for child in _expand(out, state):
                _expand(out, child)
            state = apply_legal(state, action)


def variants(puzzle: Puzzle) -> list[tuple[str, Puzzle]]:
    """The puzzle under each other reading of its rulings in play, and the why facts' probes
    (one more of each starting resource, one more flask a round)."""
    import dataclasses
    from solver.game.model import RULING_READINGS, STOCK_ORDER
    out: list[tuple[str, Puzzle]] = []
    for ruling in puzzle.rulings_in_play():
        for reading in RULING_READINGS[ruling]:
            if reading != puzzle.reading(ruling):
                out.append((f"{ruling.value}={reading}", puzzle.with_reading(ruling, reading)))
    for field in STOCK_ORDER:
        start = dataclasses.replace(puzzle.start, **{field: getattr(puzzle.start, field) + 1})
        out.append((f"probe:{field}", dataclasses.replace(puzzle, start=start)))
    out.append(("probe:flask", dataclasses.replace(puzzle, flasks=puzzle.flasks + 1)))
    return out


def behaviour_digest(puzzle: Puzzle, plan: Iterable[Action]) -> str:
    """The engine's behaviour on ``puzzle`` (see the module docstring), with ``plan`` the worked
    example's."""
    from solver.optimise.greedy import greedy_plan
    out = _Digest()
    _sample(out, puzzle, puzzle.id, BFS_STATES, PLAYOUTS)
    _line(out, puzzle, "plan", plan, one_off=True)
    greedy, complete = greedy_plan(puzzle)
    out.feed("greedy", complete)
    _line(out, puzzle, "greedy", greedy, one_off=False)
    for name, variant in variants(puzzle):
        _sample(out, variant, f"{puzzle.id}/{name}", VARIANT_BFS_STATES, VARIANT_PLAYOUTS)
    return out.hash.hexdigest()


# --------------------------------------------------------------------------- the planner's model


def model_digest(puzzle: Puzzle) -> str:
    """The planner's models of ``puzzle``: its own, the one the regret values' prefix solves use,
    and each other reading's (``not modelled`` where the planner refuses one)."""
    from solver.encoding.linear import canonical_form
    from solver.optimise.planner import build_model, unsupported_reason
    from solver.optimise.regret import planner_options
    out = _Digest()
    for name, variant in [("own", puzzle), *((n, v) for n, v in variants(puzzle) if not n.startswith("probe:"))]:
        for options_name, options in (("default", None), ("prefix", planner_options())):
            if unsupported_reason(variant, options) is not None:
                out.feed(name, options_name, "not modelled")
                continue
            model = build_model(variant, options) if options is not None else build_model(variant)
            out.feed(name, options_name, hashlib.sha256(canonical_form(model.lm).encode()).hexdigest())
    return out.hash.hexdigest()


# --------------------------------------------------------------------------- the code


def code_keys(root: Path = ROOT) -> dict[str, str]:
    """Part -> narrow fingerprint of its modules (:data:`CODE_PARTS`)."""
    return {part: narrow_fingerprint(modules, entries, root) for part, (modules, entries) in CODE_PARTS.items()}


def code_bytes_digest(root: Path = ROOT) -> str:
    """A digest of the bytes of every module the keys could depend on (the cache's key: cheap to
    take, and any edit there, even a comment, only costs recomputing the cached digests)."""
    digest = hashlib.sha256(FORMAT.encode())
    files: set[Path] = set()
    for name in CACHED_SOURCES:
        base = root / name
        files.update(base.rglob("*.py") if base.is_dir() else [base])
    for modules, _ in CODE_PARTS.values():
        files.update(p for p in (module_path(m, root) for m in modules) if p is not None)
    for path in sorted(files):
        relative = path.relative_to(root).as_posix()
        if any(relative == x or relative.startswith(x + "/") for x in NOT_CACHED_SOURCES):
            continue
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class KeyCache:
    """Digests kept in ``.cache/records/<code bytes digest>.json``: by puzzle id, inputs and plan."""

    def __init__(self, folder: Path = CACHE_DIR, root: Path = ROOT) -> None:
        self.folder = folder
        self.code = code_bytes_digest(root)
        self.path = folder / f"{self.code[:32]}.json"
        self.entries: dict[str, Any] = {}
        self.dirty = False
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self.entries = loaded
        except (OSError, ValueError):
            pass

    def get(self, key: str) -> Any:
        return self.entries.get(key)

    def put(self, key: str, value: Any) -> None:
        self.entries[key] = value
        self.dirty = True

    def save(self) -> None:
        """Write the cache (best effort: a read-only checkout simply recomputes next time); older
        caches of other code are removed."""
        if not self.dirty:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.entries, out, sort_keys=True)
            os.replace(tmp, self.path)
            for old in self.folder.glob("*.json"):
                if old != self.path and old.stat().st_mtime < self.path.stat().st_mtime - 7 * 86400:
                    old.unlink(missing_ok=True)
            self.dirty = False
        except OSError:
            pass


def puzzle_cache_key(puzzle_id: str, inputs_digest: str, plan: list[dict[str, Any]]) -> str:
    text = json.dumps([puzzle_id, inputs_digest, plan], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def keys_of(puzzle: Puzzle, inputs_digest: str, plan: list[dict[str, Any]], cache: KeyCache | None = None,
            code: dict[str, str] | None = None) -> Keys:
    """Today's keys of a puzzle whose worked example plays ``plan`` (as a record writes it)."""
    from solver.game.engine import Action
    key = puzzle_cache_key(puzzle.id, inputs_digest, plan)
    found = cache.get(key) if cache is not None else None
    if not (isinstance(found, dict) and isinstance(found.get("behaviour"), str) and isinstance(found.get("model"), str)):
        actions = [Action.from_dict(a) for a in plan]
        found = {"behaviour": behaviour_digest(puzzle, actions), "model": model_digest(puzzle)}
        if cache is not None:
            cache.put(key, found)
    return Keys(found["behaviour"], found["model"], dict(code if code is not None else code_keys()))
