"""``python -m solver``: solve, validate, replay puzzles; benchmark; export the puzzle JSON Schema.

Exit codes: 0 an answer (a proven optimum, or with ``--time-limit`` the best plan found, labelled
not proven); 1 an illegal plan, no legal plan, no plan in time, or a plan the rules engine rejects;
2 bad input or usage.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, NoReturn

from solver.game.engine import Breakdown, State
from solver.game.errors import IllegalActionError, SolverError
from solver.io.paths import file_fault, folder_fault
from solver.io.plans import load_plan
from solver.io.puzzle import PUZZLE_SCHEMA, expected_claim, load_puzzle
from solver.game.replay import Step, replay
from .solution import ENGINES, Solution, VerificationError, search_fault, solve
from solver.game.engine import score
from solver.game.steps import Message
from solver.io.catalogue import catalogue_languages, catalogue_message, describe_events

if TYPE_CHECKING:   # the planner is imported when CP-SAT runs
    from solver.game.model import Puzzle
    from solver.optimise.planner import Progress

LANGS = catalogue_languages()
"""The command line's languages (``--lang``): those the message catalogue has a file for."""
HEAD_KEYS = ("round", "flask", "spot", "what_happens", "stock_after", "health")
"""The step table's columns (``cli.head.*``)."""


def _t(lang: str) -> Message:
    """The command line's words in ``lang`` (namespace ``cli`` of ``data/i18n/<lang>.yaml``)."""
    return catalogue_message(lang, namespace="cli")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors: exit 2 without a traceback
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _stock_text(state: State) -> str:
    s = state.stock
    return f"ATP {s.atp} mRNA {s.mrna} P {s.protein} C {s.carb} L {s.lipid}"


def _step_dict(step: Step) -> dict[str, object]:
    """A step as JSON: its events and, for reading, its text in each language of the command line."""
    return {**step.to_dict(), "text": {lang: describe_events(step.events, lang) for lang in LANGS}}


def _with_texts(data: dict[str, object], steps: Iterable[Step]) -> dict[str, object]:
    return {**data, "steps": [_step_dict(s) for s in steps]}


def _table(steps: Iterable[Step], lang: str) -> str:
    t = _t(lang)
    rows = [tuple(t(f"cli.head.{key}") for key in HEAD_KEYS)]
    for st in steps:
        spot = st.action.spot or st.action.kind.value
        rows.append((str(st.round), st.flask, spot, describe_events(st.events, lang), _stock_text(st.state), str(st.state.health)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _print_breakdown(bd: Breakdown, lang: str) -> None:
    t = _t(lang)
    for k, v in bd.to_dict().items():
        if k == "total" or v:
            print(f"  {t(f'cli.breakdown.{k}')}: {v}")


_STARTED = time.monotonic()
"""When the command's process started (set by :func:`main`): ``--time-limit`` counts from here."""


def _time_left(time_limit: float | None) -> float | None:
    """What is left of ``--time-limit`` once the puzzle is read (a puzzle of 999 cards takes a
    second to load): the limit is the whole command's, reading included."""
    if time_limit is None:
        return None
    return max(0.05, time_limit - (time.monotonic() - _STARTED))


def _progress(lang: str) -> Progress:
    best: dict[str, int | None] = {"objective": None, "bound": None}
    t = _t(lang)

    def report(objective: int | None, bound: int, seconds: float) -> None:
        if objective is not None and objective != best["objective"]:
            best["objective"] = objective
            word = t("cli.progress_plan")
        elif objective is None and bound is not None and bound != best["bound"]:
            word = t("cli.progress_bound")
        else:
            return
        best["bound"] = bound
        plan = "-" if best["objective"] is None else best["objective"]
        print(f"  [{seconds:7.2f} s] " + t("cli.progress_line", word=f"{word:5}", plan=plan, bound=bound),
              file=sys.stderr, flush=True)
    return report


CPSAT_ONLY = ("--workers", "--seed", "--progress", "--confirm-budget")
"""Options of ``solve`` only CP-SAT uses: with ``--engine exhaustive`` each is refused by name
(``--work-limit`` and ``--search`` have messages of their own), not silently ignored. ``--no-confirm``
is not one: the exhaustive search's answer has no confirmation, as the option asks."""


def _ignored_options(args: argparse.Namespace) -> list[str]:
    """The options given that the chosen engine (and confirmation) would ignore, as typed."""
    given = {"--workers": None if args.workers is None else f"--workers {args.workers}",
             "--seed": None if args.seed is None else f"--seed {args.seed}",
             "--progress": "--progress" if args.progress else None,
             "--confirm-budget": None if args.confirm_budget is None else f"--confirm-budget {args.confirm_budget:g}"}
    if args.engine == "exhaustive":
        return [typed for option in CPSAT_ONLY if (typed := given[option]) is not None]
    if args.no_confirm and args.confirm_budget is not None:
        return [f"--confirm-budget {args.confirm_budget:g}"]
    return []


def _cmd_solve(args: argparse.Namespace) -> int:
    ignored = _ignored_options(args)
    args.workers = 1 if args.workers is None else args.workers
    args.seed = 0 if args.seed is None else args.seed
    if args.work_limit is not None and args.engine != "cpsat":
        print(f"error: --work-limit: expected with --engine cpsat (CP-SAT's deterministic work), "
              f"got --engine {args.engine}; the exhaustive search takes --time-limit", file=sys.stderr)
        return 2
    if args.search and search_fault(args.engine, args.workers, args.work_limit):
        print(f"error: --search: expected with --engine cpsat, --workers 2 or more and no --work-limit (the search "
              f"runs beside CP-SAT's workers, on the wall clock), got --engine {args.engine} --workers {args.workers}"
              + (f" --work-limit {args.work_limit:g}" if args.work_limit is not None else ""), file=sys.stderr)
        return 2
    if ignored:
        if args.engine == "exhaustive":
            why = ("expected without --engine exhaustive, which has one thread, no seed, no progress report and no "
                   "confirmation to budget (each option is CP-SAT's)")
        else:
            why = "expected without --no-confirm, which skips the confirmation it bounds"
        print(f"error: {', '.join(ignored)}: {why}; got both", file=sys.stderr)
        return 2
    puzzle = load_puzzle(args.puzzle)
    args.time_limit = _time_left(args.time_limit)
    if args.after is not None:
        return _solve_after(puzzle, args)
    started = time.perf_counter()
    try:
        sol = solve(puzzle, engine=args.engine, time_limit=args.time_limit, workers=args.workers, seed=args.seed,
                    progress=_progress(args.lang) if args.progress else None, confirm=(),
                    deterministic_time=args.work_limit, search=args.search)
        if sol.status == "optimal" and sol.engine == "cpsat" and not args.no_confirm:
            budget = args.confirm_budget or confirm_budget(time.perf_counter() - started)
            if args.time_limit is not None:      # the time limit holds for the confirmation too
                budget = min(budget, args.time_limit - (time.perf_counter() - started))
            if budget >= 0.05:
                sol = confirm_with_highs(puzzle, sol, budget)
    except VerificationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    code = _report(args, puzzle, sol)
    fault = _expected_fault(*expected_claim(args.puzzle), sol) if _declares_expected(args.puzzle) else None
    if fault:    # the answer is printed; the puzzle file's claim is what is wrong
        print(f"error: {fault}", file=sys.stderr)
        return 1
    return code


def _declares_expected(path: str) -> bool:
    """Whether the puzzle file has a top-level ``expected:`` (read again only then: a puzzle of
    999 cards takes a second to parse)."""
    from pathlib import Path
    try:
        return re.search(r"(?m)^expected\s*:", Path(path).read_text(encoding="utf-8-sig")) is not None
    except (OSError, UnicodeDecodeError):
        return False


def _report(args: argparse.Namespace, puzzle: Puzzle, sol: Solution) -> int:
    """Print ``sol`` (JSON or a table in ``--lang``); the exit code of the answer."""
    t = _t(args.lang)
    if args.json:
        if sol.stats.get("cpsat_unsupported"):
            print(f"note: CP-SAT cannot model this puzzle ({sol.stats['cpsat_unsupported']}): "
                  f"solved by the exhaustive search instead", file=sys.stderr)
        print(json.dumps(_with_texts(sol.to_dict(), sol.steps), ensure_ascii=False, indent=2))
        return 0 if sol.status in ("optimal", "feasible") else 1
    print(f"{puzzle.text('title', args.lang)} ({puzzle.id}, {puzzle.edition.value}, {sol.engine})")
    if sol.rulings:
        print(t("cli.rulings", rulings=", ".join(f"{k}={v}" for k, v in sol.rulings)))
    unsupported = sol.stats.get("cpsat_unsupported")
    if unsupported:  # never a silent engine switch
        print(t("cli.cpsat_unsupported", reason=unsupported))
    if sol.status == "infeasible":
        print(sol.reason or t("cli.infeasible"))
        return 1
    if sol.status == "unknown":
        print(t("cli.unknown") + (f" ({sol.reason})" if sol.reason else ""))
        return 1
    assert sol.breakdown is not None, "an optimal or feasible solution has its plan scored"
    print(_table(sol.steps, args.lang))
    print(t("cli.final_score", health=sol.health))
    _print_breakdown(sol.breakdown, args.lang)
    found_by = sol.stats.get("plan_found_by")
    if found_by == "search":
        cpsat = sol.stats.get("cpsat_health")
        print(t("cli.search_found", cpsat="-" if cpsat is None else cpsat))
    elif found_by == "cpsat":
        found = sol.stats.get("search_health")
        print(t("cli.search_beside", health="-" if found is None else found))
    seconds = f"{sol.wall_time:.1f}"
    if sol.proven:
        label = t("cli.proven")
        if sol.confirmed_by:
            label = t("cli.confirmed_by", label=label, engines=", ".join(sol.confirmed_by))
        print(f"{label} ({_engine_times(sol, t)})")
        return 0
    elif sol.bound is None:  # the exhaustive search stopped by the time limit knows no bound
        label = t("cli.not_proven_no_bound", seconds=seconds)
    else:
        label = t("cli.not_proven", seconds=seconds, bound=sol.bound, gap=sol.gap)
    print(f"{label} ({sol.engine}, {sol.wall_time:.2f} s)")
    return 0


def _expected_fault(expected: int | None, where: str, sol: Solution) -> str | None:
    """Why the puzzle's ``expected.health`` contradicts ``sol``, or None: a proven optimum other than
    it, or a plan found (proven or not) above it, or a proof that no plan exists."""
    if expected is None:
        return None
    if sol.status == "infeasible":
        return f"{where}: expected {expected} (the optimum this file claims), got no legal plan (proven)"
    if sol.health is None:
        return None
    if sol.proven and sol.health != expected:
        return f"{where}: expected {expected} (the optimum this file claims), got a proven optimum of {sol.health} ({sol.engine})"
    if sol.health > expected:
        return (f"{where}: expected {expected} (the optimum this file claims), got a legal plan scoring {sol.health} "
                f"({sol.engine}, not proven optimal: the claim is too low)")
    return None


def _solve_after(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """``solve --after MOVES``: the best continuation of the position the moves reach (issue #70,
    :func:`solver.optimise.position.solve_position`; what the pages' live solver answers too).
    The moves are a plan file's (``replay``'s format); the continuation is replayed by the rules
    engine before it is shown. Exit 0 with a plan (proven or not), 1 without one."""
    if args.engine != "cpsat" or args.search or args.workers != 1 or args.work_limit is not None:
        print("error: --after: expected the default engine (cpsat, one worker, no --search or --work-limit), got "
              f"--engine {args.engine} --workers {args.workers}" + (" --search" if args.search else "")
              + (f" --work-limit {args.work_limit:g}" if args.work_limit is not None else ""), file=sys.stderr)
        return 2
    from solver.optimise.position import solve_position
    moves = load_plan(args.after)
    position, answer = solve_position(puzzle, moves, time_limit=args.time_limit)
    steps, _final = replay(puzzle, list(position.moves) + list(answer.continuation))
    ahead = steps[len(position.moves):]
    t = _t(args.lang)
    if args.json:
        print(json.dumps({"status": answer.status, "health": answer.health, "bound": answer.bound,
                          "proven": answer.proven, "engine": answer.engine, "reason": answer.reason or None,
                          "moves": len(position.moves), "seconds": round(answer.seconds, 3),
                          "continuation": [a.to_dict() for a in answer.continuation],
                          "steps": [_step_dict(s) for s in ahead]}, ensure_ascii=False, indent=2))
        return 0 if answer.health is not None else 1
    print(f"{puzzle.text('title', args.lang)} ({puzzle.id}, {puzzle.edition.value}, {answer.engine}): "
          + t("cli.after_moves", moves=len(position.moves)))
    if answer.reason and answer.engine == "search":
        print(t("cli.after_search", reason=answer.reason))
    if answer.status == "infeasible":
        print(t("cli.after_dead_end"))
        return 1
    if answer.health is None:
        print(t("cli.unknown") + (f" ({answer.reason})" if answer.reason else ""))
        return 1
    if ahead:
        print(_table(ahead, args.lang))
    print(t("cli.final_score", health=answer.health))
    if answer.proven:
        print(f"{t('cli.proven')} ({answer.engine}, {answer.seconds:.2f} s)")
    else:
        label = (t("cli.not_proven_no_bound", seconds=f"{answer.seconds:.1f}") if answer.bound is None else
                 t("cli.not_proven", seconds=f"{answer.seconds:.1f}", bound=answer.bound, gap=answer.bound - answer.health))
        print(f"{label} ({answer.engine}, {answer.seconds:.2f} s)")
    return 0


MAX_SECONDS = 86_400.0
"""Longest time limit or cap any option takes (a day): ``--time-limit``, ``--cap``, ``--max-cap``, ``--whole-cap``."""
MAX_WORKERS = 8
"""Most CP-SAT workers (``--workers``)."""
MAX_SEED = 2**31 - 1
"""Largest CP-SAT random seed (``--seed``: CP-SAT's seed is a 32-bit integer)."""


CONFIRM_FACTOR = 2.0
"""The second engine's default budget: this many times the proof's seconds (issue #35: the answer
comes when it is ready, not after a fixed wait) ..."""
CONFIRM_FLOOR = 5.0
"""... and at least this many seconds (a proof of a few milliseconds still gets a real check)."""


def confirm_budget(proof_seconds: float) -> float:
    """Seconds the confirming engine may take after a proof of ``proof_seconds`` (``--confirm-budget``
    overrides it)."""
    return max(CONFIRM_FLOOR, CONFIRM_FACTOR * proof_seconds)


def confirm_with_highs(puzzle: Puzzle, sol: Solution, budget: float) -> Solution:
    """``sol`` (a proven CP-SAT optimum) confirmed by HiGHS on the same model within ``budget``
    seconds: listed in ``confirmed_by`` when HiGHS proves the same optimum (its plan replayed by the
    rules engine), a :class:`VerificationError` when it proves another, unconfirmed when it runs out
    of time; its seconds, status and budget in ``stats``."""
    from solver.optimise.deadline import OutOfTime, guard
    from solver.optimise.planner import build_model, solve_highs
    from .solution import _verified
    started = time.monotonic()
    try:
        with guard(started + budget):     # the budget holds for building HiGHS's copy of the model too
            pm = build_model(puzzle)
    except OutOfTime:
        spent = time.monotonic() - started
        return replace(sol, stats=dict(sol.stats, highs_seconds=round(spent, 3), highs_status="unknown",
                                       confirm_budget_seconds=round(budget, 3)))
    h = solve_highs(pm, time_limit=max(0.05, budget - (time.monotonic() - started)))
    stats = dict(sol.stats, highs_seconds=round(time.monotonic() - started, 3), highs_status=h.status,
                 confirm_budget_seconds=round(budget, 3))
    if h.status == "infeasible":
        raise VerificationError("CP-SAT found a plan but HiGHS says the model is infeasible")
    if h.status != "optimal":
        return replace(sol, stats=stats)
    if h.objective != sol.health:
        raise VerificationError(f"CP-SAT proves {sol.health} but HiGHS proves {h.objective} on the same model")
    _verified(puzzle, h.plan, h.objective, "highs")
    return replace(sol, stats=stats, confirmed_by=sol.confirmed_by + ("highs",))


def _engine_times(sol: Solution, t: Message) -> str:
    """Which engine took how long: the proof's engine, then each confirming engine (confirmed or
    stopped at its budget)."""
    parts = [t("cli.engine_seconds", engine=sol.engine, seconds=f"{sol.wall_time:.2f}")]
    for engine in ("highs", "exhaustive"):
        took = sol.stats.get(f"{engine}_seconds")
        if took is None:
            continue
        if engine in sol.confirmed_by:
            parts.append(t("cli.engine_seconds", engine=engine, seconds=f"{took:.2f}"))
        else:
            parts.append(t("cli.engine_unfinished", engine=engine, seconds=f"{took:.2f}",
                           budget=f"{sol.stats.get('confirm_budget_seconds', took):g}"))
    return "; ".join(parts)


def _positive_float(text: str) -> float:
    """A number of seconds in (0, MAX_SECONDS]: every time option's range."""
    expected = f"expected a number of seconds > 0 and <= {MAX_SECONDS:g}, got {text!r}"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(expected) from None
    if not 0 < value <= MAX_SECONDS:    # also refuses nan and inf
        raise argparse.ArgumentTypeError(expected)
    return value


def _bounded_int(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        expected = f"expected an integer from {low} to {high}, got {text!r}"
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(expected) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(expected)
        return value
    return parse


_workers = _bounded_int(1, MAX_WORKERS)
_seed = _bounded_int(0, MAX_SEED)


def _seed_list(text: str) -> list[int]:
    """``--proof-seeds``: distinct seeds separated by commas, each one a ``--seed``, in the order given."""
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() for p in parts) or len({int(p) for p in parts}) != len(parts):
        raise argparse.ArgumentTypeError(f"expected distinct whole numbers separated by commas (e.g. 0,1,2), "
                                         f"got {text!r}")
    return [_seed(p) for p in parts]


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.out is not None and (fault := folder_fault(args.out, "--out")):
        raise SolverError(fault)     # before the benchmark, which runs for hours
    # the one place the runtime reaches the benchmarks, and only when they run (tests/test_layering.py)
    from .benchmarks.cli import main as bench_main
    return bench_main(args)


def _cmd_validate(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.puzzle)
    print(f"{puzzle.source or args.puzzle}: ok ({puzzle.id}, {puzzle.edition.value}, board {puzzle.board.id}, "
          f"{puzzle.rounds} round(s) x {puzzle.flasks} flask(s))")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.puzzle)
    plan = load_plan(args.plan)
    try:
        steps, final = replay(puzzle, plan)
    except IllegalActionError as err:
        assert err.step is not None, "replay names the step"
        msg = f"{args.plan}: plan[{err.step - 1}] (step {err.step}): {err.reason}"
        if args.json:
            print(json.dumps({"status": "illegal", "step": err.step, "reason": err.reason, "health": None,
                              "plan": [a.to_dict() for a in plan]}, ensure_ascii=False, indent=2))
        else:
            print(msg)
        return 1
    complete = final.done
    bd = score(final)
    if args.json:
        print(json.dumps({"status": "complete" if complete else "incomplete", "health": bd.total if complete else None,
                          "plan": [a.to_dict() for a in plan], "steps": [_step_dict(s) for s in steps],
                          "breakdown": bd.to_dict()}, ensure_ascii=False, indent=2))
        return 0 if complete else 1
    print(_table(steps, args.lang))
    if not complete:
        print(f"{args.plan}: plan is legal but incomplete: round {final.round}, {final.flasks_left} flask(s) left")
        return 1
    print(_t(args.lang)("cli.final_score", health=bd.total))
    _print_breakdown(bd, args.lang)
    return 0


def _input_file(text: str) -> str:
    """A file to read (a puzzle, a plan, a recording): not an empty path (``Path('')`` is the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file, got an empty path")
    return text


def _cmd_record(args: argparse.Namespace) -> int:
    from pathlib import Path
    from solver.io.offline import BoundSource, record, result_path, write_recording
    from solver.io.progress import TimeBar
    if args.out is not None and (fault := file_fault(args.out, "--out")):
        raise SolverError(fault)
    puzzle = load_puzzle(args.puzzle)
    out = Path(args.out) if args.out is not None else result_path(Path(args.puzzle))
    if args.out is None and (fault := file_fault(str(out), "the recording")):
        raise SolverError(fault)
    earlier = None
    if args.from_recording is not None:
        from solver.io.offline import load_recording
        earlier = load_recording(Path(args.from_recording), puzzle)   # its errors name the file and field
    bar = TimeBar(args.time_limit, f"recording {puzzle.id}")
    try:
        rec = record(puzzle, args.time_limit, args.workers, bar if not args.quiet else None, earlier)
    finally:
        bar.close()
    try:
        write_recording(rec, out)
    except OSError as exc:   # a disk full, a permission the check could not see
        raise SolverError(f"--out {out}: cannot write the recording: {exc.strerror or exc}") from None
    proved_by = {BoundSource.CAP: "the completions cap (CP-SAT did not go below it)",
                 BoundSource.BELOW_CAP: f"CP-SAT, below the completions cap {rec.cap}",
                 BoundSource.CPSAT: "CP-SAT (no completions cap)"}[rec.bound_by]
    print(f"{puzzle.id}: {rec.health} Health Points, bound {rec.bound} proved by {proved_by} "
          f"(gap {rec.gap_percent} %), {rec.seconds} s; wrote {out}")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(PUZZLE_SCHEMA, indent=2, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m solver", description="Cytosis puzzles: solve, validate, replay.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("solve", help="find the best plan")
    p.add_argument("puzzle", type=_input_file)
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=sorted(LANGS), default="en")
    p.add_argument("--engine", choices=ENGINES, default="cpsat",
                   help="cpsat (default: proves optima, confirmed by HiGHS) or exhaustive (the baseline)")
    p.add_argument("--time-limit", type=_positive_float, default=None, metavar="SECONDS",
                   help=f"stop after this many seconds (0 < SECONDS <= {MAX_SECONDS:g}), model building included, "
                        "with the best plan found (labelled not proven)")
    p.add_argument("--work-limit", type=_positive_float, default=None, metavar="UNITS",
                   help=f"stop CP-SAT after this much deterministic work (0 < UNITS <= {MAX_SECONDS:g}; with one "
                        "worker the same plan and bound on every machine, however loaded), with the best plan "
                        "found (labelled not proven)")
    p.add_argument("--workers", type=_workers, default=None,
                   help=f"CP-SAT workers, 1..{MAX_WORKERS} (default 1: reproducible plans)")
    p.add_argument("--search", action="store_true",
                   help="run the beam and large-neighbourhood search beside CP-SAT's workers, as one thread more: "
                        "better plans on large puzzles, a slower bound (with --workers 2 or more, not with --work-limit)")
    p.add_argument("--seed", type=_seed, default=None, help=f"CP-SAT random seed, 0..{MAX_SEED} (default 0)")
    p.add_argument("--progress", action="store_true", help="print each improving plan and bound (stderr)")
    p.add_argument("--no-confirm", action="store_true", help="skip the HiGHS confirmation of the optimum")
    p.add_argument("--confirm-budget", type=_positive_float, default=None, metavar="SECONDS",
                   help=f"seconds HiGHS may take to confirm a proven optimum (default {CONFIRM_FACTOR:g} x the "
                        f"proof's time, at least {CONFIRM_FLOOR:g})")
    p.add_argument("--after", default=None, metavar="MOVES",
                   help="solve the position these moves reach (a plan file, as replay reads): the best continuation "
                        "from there, the moves held")
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("validate", help="check a puzzle file")
    p.add_argument("puzzle", type=_input_file)
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser("replay", help="check a plan step by step")
    p.add_argument("puzzle", type=_input_file)
    p.add_argument("plan", type=_input_file)
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=sorted(LANGS), default="en")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("bench", help="CP-SAT vs exhaustive search; scale curve (docs/assets/bench)")
    p.add_argument("--cap", type=_positive_float, default=60.0, metavar="SECONDS",
                   help="time cap per CP-SAT and HiGHS run, and the exhaustive search's shortest cap (default 60)")
    p.add_argument("--max-cap", type=_positive_float, default=600.0, metavar="SECONDS",
                   help="longest exhaustive run: its cap grows to 10x CP-SAT's time up to this (default 600)")
    p.add_argument("--sizes", default="4,8,12,16,20,24",
                   help="placements of the scale curve: multiples of 4 from 4 to 48 (12 rounds of 4 flasks)")
    p.add_argument("--out", default=None, help="output folder (default docs/assets/bench)")
    p.add_argument("--quick", action="store_true", help="shipped puzzles only, no scale curve")
    p.add_argument("--ablation", action="store_true",
                   help="only measure each model option (symmetry breaking, tight bounds, hints, 2 workers)")
    p.add_argument("--deck", action="store_true",
                   help="only the deck series (refilling card row) per engine, merged into bench.json (the sizes "
                        "run replace their earlier rows), and the methods tried when 16 placements are run")
    # the defaults are the benchmarks' constants, written out so that building this parser (for any
    # command) does not import the benchmarks; tests/test_bench.py checks they agree
    p.add_argument("--deck-sizes", default="8,16,24,32,44",
                   help="placements of the deck series (default 8,16,24,32,44: up to a whole game)")
    p.add_argument("--whole-cap", type=_positive_float, default=600.0, metavar="SECONDS",
                   help="time cap of the whole game (44 placements) in the deck series (default 600)")
    p.add_argument("--suite", action="store_true",
                   help="only the bounding methods on the deck suite (data/bench/deck), merged into bench.json")
    p.add_argument("--suite-sizes", default="16,24", help="placements of the suite's puzzles (default 16,24)")
    p.add_argument("--det", type=_positive_float, default=10.0, metavar="SECONDS",
                   help="CP-SAT deterministic seconds per suite run (default 10)")
    p.add_argument("--workers", type=int, choices=(1, 2), default=2, help="CP-SAT workers of the suite runs (default 2)")
    p.add_argument("--methods", default="", help="comma-separated suite methods (default all)")
    p.add_argument("--only", default="", help="suite puzzles whose name contains this")
    p.add_argument("--write-suite", action="store_true", help="regenerate the suite's puzzle files first")
    p.add_argument("--resume", action="store_true", help="keep the suite runs bench.json already has")
    p.add_argument("--proofs", action="store_true",
                   help="only the planner as it ships on the deck suite: seconds to each proof against issue #35's targets")
    p.add_argument("--proof-det", type=_positive_float, default=60.0, metavar="SECONDS",
                   help="CP-SAT deterministic seconds a worker of a --proofs run (default 60)")
    p.add_argument("--proof-seeds", type=_seed_list, default="0,1,2", metavar="SEEDS",
                   help="CP-SAT seeds of a --proofs run, each puzzle once per seed: two workers do not repeat "
                        "a run, so the targets are held to the median of the seeds' medians (default 0,1,2)")
    p.add_argument("--completion-sets", action="store_true",
                   help="only the bound by completion sets on the deck suite (a measured idea, not the planner's)")
    p.add_argument("--sets-det", type=_positive_float, default=300.0, metavar="SECONDS",
                   help="deterministic seconds of a --completion-sets proof (default 300)")
    p.set_defaults(func=_cmd_bench)
    p = sub.add_parser("record", help="a long run on a whole game: best plan and proven bound, written next to the puzzle")
    p.add_argument("puzzle", type=_input_file)
    p.add_argument("--time-limit", type=_positive_float, default=600.0, metavar="SECONDS",
                   help="the whole run, warm start included (default 600)")
    p.add_argument("--workers", type=_workers, default=2, help=f"CP-SAT workers, 1..{MAX_WORKERS} (default 2)")
    p.add_argument("--out", default=None, help="the recording (default: <puzzle>.result.json beside the puzzle)")
    p.add_argument("--from", dest="from_recording", type=_input_file, default=None, metavar="RECORDING",
                   help="an earlier recording of the puzzle: the warm start improves its plan when it beats the beam's")
    p.add_argument("--quiet", action="store_true",
                   help="no progress (by default: a bar on a terminal, each improving plan and bound elsewhere)")
    p.add_argument("--progress", action="store_true", help=argparse.SUPPRESS)     # the default now; kept for old scripts
    p.set_defaults(func=_cmd_record)
    p = sub.add_parser("schema", help="print the puzzle JSON Schema")
    p.set_defaults(func=_cmd_schema)
    return parser


def _robust_output() -> None:
    """No text makes the writer fail: a character the terminal's encoding cannot show is escaped
    (the loaders refuse unprintable input; this guards what slips past, e.g. a narrow locale)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _process_age() -> float:
    """Seconds since this process started (Linux: ``/proc``; elsewhere 0): the interpreter's start
    and the imports count against ``--time-limit`` too. A forked child's age is counted from the fork."""
    import os
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            started_ticks = int(handle.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as handle:
            uptime = float(handle.read().split()[0])
        return max(0.0, uptime - started_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def main(argv: list[str] | None = None) -> int:
    global _STARTED
    _STARTED = time.monotonic() - min(_process_age(), 5.0)
    _robust_output()
    args = build_parser().parse_args(argv)
    try:
        command: Callable[[argparse.Namespace], int] = args.func   # set by each subcommand's parser
        return command(args)
    except SolverError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
