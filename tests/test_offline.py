"""Whole games recorded offline (issue #15): a recording is written by a real planner run, read
back, replayed by the rules engine, and refused with one clear error when anything in it is off."""
import json
import re

import pytest

from solver import load_puzzle
from solver.benchmarks.deck_family import deck_puzzle
from solver.io.offline import (BoundSource, RecordingError, bound_proved_by, game_files, load_recording, record,
                                recorded_solution, result_path, write_recording)


@pytest.fixture(scope="module")
def small_recording(tmp_path_factory):
    """A real run on the 8-placement deck puzzle (proves its optimum within the limit)."""
    puzzle = deck_puzzle(8)
    rec = record(puzzle, time_limit=20.0, workers=1)
    path = tmp_path_factory.mktemp("rec") / "deck-8.result.json"
    write_recording(rec, path)
    return puzzle, rec, path


def test_a_recording_reads_back_and_replays(small_recording):
    puzzle, rec, path = small_recording
    again = load_recording(path, puzzle)
    assert again == rec and rec.health == rec.bound == 17 and rec.proven
    solution = recorded_solution(puzzle, again)
    assert solution.status == "optimal" and solution.health == 17 and len(solution.steps) >= 8
    assert solution.stats["recorded"]["workers"] == 1


def test_a_recording_carries_the_completions_cap_it_started_from(small_recording):
    """The cap goes into CP-SAT's model as a row, so the recorded bound is at most the cap; on this
    puzzle the run proves its optimum, which the cap cannot be below."""
    _, rec, _ = small_recording
    assert rec.cap is not None and rec.health <= rec.bound <= rec.cap
    assert rec.bound_by is (BoundSource.CAP if rec.bound == rec.cap else BoundSource.BELOW_CAP)


@pytest.mark.parametrize("bound, cap, source", [(88, 88, BoundSource.CAP), (80, 88, BoundSource.BELOW_CAP),
                                                (183, None, BoundSource.CPSAT)])
def test_one_function_says_what_proved_a_bound(bound, cap, source):
    assert bound_proved_by(bound, cap) is source


@pytest.mark.parametrize("cap, bound, key", [(88, 88, "proof_recorded_cap"), (88, 80, "proof_recorded_below_cap"),
                                              (None, 183, "proof_recorded_no_cap")])
def test_the_page_says_what_proved_a_recorded_bound(cap, bound, key):
    from generator.puzzles.proof import recorded_bound_line
    from generator.puzzles.texts import UI
    for lang in ("en", "it"):
        ui = UI[lang]
        line = recorded_bound_line({"cap": cap, "bound": bound, "health": 54}, ui)
        assert line == ui[key].format(bound=bound, cap=cap) and (cap is None or str(bound) in line)


def test_a_recording_from_an_earlier_one_never_records_a_worse_plan(small_recording):
    """``record --from``: the warm start improves the earlier plan when the beam's is worse, so the
    new recording's plan scores at least the earlier one's, and the recording says it had it."""
    puzzle, rec, _ = small_recording
    again = record(puzzle, time_limit=10.0, workers=1, earlier=rec)
    assert again.earlier == rec.health and again.health >= rec.health and again.warm_start >= rec.health


def test_a_run_stopped_before_cpsats_first_plan_keeps_the_warm_plan_and_the_bound(monkeypatch):
    """On a whole game CP-SAT may find no plan of its own within the run (``lb_tree_search`` seldom
    does): the recording keeps the warm start's plan with the bound CP-SAT proved, and names the
    workers' subsolvers."""
    from solver.optimise import planner
    puzzle = deck_puzzle(8)

    real = planner.solve_cpsat

    def stopped(pm, **kwargs):
        if "subsolvers" not in kwargs:         # the warm start's large-neighbourhood search
            return real(pm, **kwargs)
        assert kwargs["subsolvers"] == ("max_lp", "lb_tree_search")
        return planner.PlannerResult("unknown", [], None, 30, 1.0, "cpsat", {})
    monkeypatch.setattr(planner, "solve_cpsat", stopped)
    rec = record(puzzle, time_limit=10.0, workers=2)
    assert rec.warm_start is not None and rec.health == rec.warm_start and rec.bound == 30
    assert rec.subsolvers == ("max_lp", "lb_tree_search") and rec.bound_by is BoundSource.BELOW_CAP


def test_the_page_names_the_recorded_runs_subsolvers():
    from generator.puzzles.proof import subsolver_text
    from generator.puzzles.texts import UI
    assert subsolver_text(["max_lp", "lb_tree_search"], UI["en"]) == "max\\_lp, lb\\_tree\\_search"
    assert subsolver_text([], UI["it"]) == UI["it"]["proof_recorded_single_worker"]


def _broken(path, tmp_path, change):
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / "broken.result.json"
    out.write_text(json.dumps(data))
    return out


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(puzzle="other"), "puzzle: expected 'deck-8-2e', got 'other'"),
    (lambda d: d.update(health=d["health"] + 1), "the rules engine scores its plan"),
    (lambda d: d.update(bound=d["health"] - 1), "bound: expected at least the plan's"),
    (lambda d: d.pop("bound"), "bound: missing"),
    (lambda d: d.update(workers="two"), "workers: expected an integer 1..8, got 'two'"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d.update(workers=0), "workers: expected an integer 1..8, got 0"),
    (lambda d: d.update(seconds=-601.9), "seconds: expected a number of seconds > 0"),
    (lambda d: d.update(time_limit=0), "time_limit: expected a number of seconds > 0"),
    (lambda d: d.update(recorded="yesterday"), "recorded: expected an ISO date"),
    (lambda d: d.update(warm_start=999), "warm_start: expected at most the plan's"),
    (lambda d: d.update(cap=d["bound"] - 1), "cap: expected at least the bound"),
    (lambda d: d.update(cap="high"), "cap: expected an integer"),
    (lambda d: d.pop("cap"), "cap: missing"),
    (lambda d: d.update(earlier=d["warm_start"] + 1), "earlier: expected at most the warm start's"),
    (lambda d: d.update(earlier=-3), "earlier: expected an integer"),
    (lambda d: d.update(machine="a\u0000b"), "machine: expected printable text"),
    (lambda d: d.update(subsolvers="max_lp"), "subsolvers: expected a list of at most 8 CP-SAT subsolver names"),
    (lambda d: d.update(subsolvers=["Max LP"]), "subsolvers: expected a list"),
    (lambda d: d.update(subsolvers=["max_lp"]), "subsolvers: expected none for one worker"),
    (lambda d: d.update(workers=2), "subsolvers: expected 1 to 2 names for 2 workers, got 0"),
    (lambda d: d.pop("subsolvers"), "subsolvers: missing"),
    (lambda d: d.update(plan=[]), "plan: expected a non-empty list"),
    (lambda d: d.update(gap_percent=12.5), "gap_percent: expected"),
    (lambda d: d.update(plan=d["plan"][:-1]), "incomplete"),
    (lambda d: d["plan"].insert(0, d["plan"][0]), "rejected by the rules engine at step 2"),
])
def test_a_recording_that_is_off_is_refused_with_its_reason(small_recording, tmp_path, change, message):
    puzzle, _, path = small_recording
    with pytest.raises(RecordingError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        load_recording(_broken(path, tmp_path, change), puzzle)
    assert re.search(r"broken\.result\.json:\d+: ", str(err.value)), str(err.value)   # the file and the line


def test_a_recording_that_is_not_json_is_refused(small_recording, tmp_path):
    puzzle, _, _ = small_recording
    bad = tmp_path / "bad.result.json"
    bad.write_text("{not json")
    with pytest.raises(RecordingError, match="bad.result.json"):
        load_recording(bad, puzzle)


@pytest.mark.parametrize("file", game_files(), ids=lambda f: f.stem)
def test_every_shipped_whole_game_has_a_recording_that_replays(file):
    puzzle = load_puzzle(file)
    rec = load_recording(result_path(file), puzzle)
    assert puzzle.rounds * puzzle.flasks == 44 and puzzle.deck
    assert rec.health <= rec.bound and rec.time_limit >= 60


def test_the_whole_games_cover_both_editions():
    assert sorted(load_puzzle(f).edition.value for f in game_files()) == ["1e", "2e"]


def test_the_page_replays_a_recording_and_names_the_run(small_recording):
    from generator.proofs.solution import compute_solution
    from generator.puzzles.feature import proof_lines
    puzzle, rec, path = small_recording
    record, _seconds = compute_solution(puzzle, path)
    assert record["solution"]["health"] == rec.health and record["other_readings"] == []
    for lang in ("en", "it"):
        text = " ".join(proof_lines(record, lang))
        assert "python -m solver record" in text and rec.recorded in text


def test_whole_games_are_listed_after_the_puzzles_with_their_recordings():
    from generator.puzzles.feature import puzzle_sources
    from solver.io.puzzle import PUZZLES_DIR
    sources = puzzle_sources(PUZZLES_DIR)
    games = [(f, r) for f, r in sources if r is not None]
    assert [f for f, _ in games] == game_files() and all(r.name.endswith(".result.json") for _, r in games)
    assert sources[-len(games):] == games
