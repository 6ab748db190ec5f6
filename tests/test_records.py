"""The puzzles' committed records (generator/proofs): current and checked on every build, computed
only when missing, stale ones named with the command that refreshes them, re-proved field by field."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from generator.proofs import ledger as ledgers, pipeline, record as records, store
from generator.proofs.cli import SAMPLE_MAX_SECONDS
from generator.proofs.record import RecordState
from generator.puzzles.loading import load_sources, puzzle_sources
from generator.errors import Problems
from solver import load_puzzle
from solver.io.puzzle import PUZZLES_DIR

ROOT = Path(__file__).resolve().parent.parent
QUICK = ("rule-row-refresh-2e", "rulebook-protein-hormone-2e")
"""Puzzles computed in a few seconds, which these tests compute for real."""


@pytest.fixture(autouse=True)
def own_ledger(tmp_path, monkeypatch) -> Path:
    """Each test's ledger of re-proofs in its own folder (the committed one is never written here)."""
    path = tmp_path / "reproved.json"
    monkeypatch.setattr(ledgers, "PATH", path)
    return path


def source_of(file: Path, recording: Path | None = None) -> store.Source:
    return store.Source(load_puzzle(file), file, recording)


@pytest.fixture(scope="module")
def shipped() -> list[store.Status]:
    problems = Problems()
    sources = load_sources(PUZZLES_DIR, problems)
    assert not problems
    return [store.status_of(store.Source(s.puzzle, s.file, s.recording)) for s in sources]


@pytest.fixture
def quick(tmp_path) -> list[Path]:
    """Copies of the quick puzzles in a folder of their own (their records go beside them)."""
    folder = tmp_path / "puzzles"
    folder.mkdir()
    return [Path(shutil.copy(PUZZLES_DIR / f"{name}.yaml", folder)) for name in QUICK]


def refuse(*args, **kwargs):
    raise AssertionError("a record was computed although it was on disk")


@pytest.fixture
def no_computing(monkeypatch):
    """Computing fails the test (the pipeline's workers are fresh processes: refused where it starts)."""
    monkeypatch.setattr(store, "compute_records", refuse)


def read(files: list[Path]) -> tuple[dict[Path, store.Proof], list[tuple[Path, str]]]:
    reported: list[tuple[Path, str]] = []
    proofs = store.read_records([source_of(f) for f in files], lambda f, m: reported.append((f, m)), workers=1)
    return proofs, reported


# --------------------------------------------------------------------------- the committed records


def test_every_puzzle_has_a_committed_record():
    files = [f for f, _ in puzzle_sources(PUZZLES_DIR)]
    missing = [f.name for f in files if not records.record_path(f).is_file()]
    assert not missing, f"run `make records` and commit: {missing}"
    strays = {p.name for p in PUZZLES_DIR.rglob(f"*{records.SUFFIX}")} - {records.record_path(f).name for f in files}
    assert not strays, f"records of no puzzle: {sorted(strays)}"


def test_every_committed_record_is_current(shipped):
    stale = [f"{records.display(s.path)}: {s.state.value} ({s.detail})" for s in shipped
             if s.state is not RecordState.CURRENT]
    assert not stale, "refresh with `make records` and commit:\n" + "\n".join(stale)


def test_every_committed_record_checks_out_against_the_engine(shipped):
    for status in shipped:
        assert status.record is not None
        solution = store.check_record(status.source, status.record)
        assert solution.health == status.record["solution"]["solution"]["health"], status.source.puzzle.id


def test_a_build_reads_the_records_and_proves_nothing(shipped, no_computing):
    reported: list[tuple[Path, str]] = []
    proofs = store.read_records([s.source for s in shipped], lambda f, m: reported.append((f, m)))
    assert not reported and len(proofs) == len(shipped)
    assert not any(p.computed_now for p in proofs.values())


def test_records_name_their_inputs_and_engines(shipped):
    for status in shipped:
        record = status.record
        assert record is not None
        files = set(record["inputs"]["files"])
        assert records.display(status.source.file) in files and "data/puzzles/cards/rulebook.yaml" in files
        assert any(f.startswith("data/boards/") for f in files)
        assert (status.source.recording is not None) == any(f.endswith(".result.json") for f in files)
        assert record["engines"]["versions"]["cp-sat"].startswith("OR-Tools ")
        assert record["engines"]["budgets"]["why"]["max_states"] > 0


# --------------------------------------------------------------------------- reading, computing, refusing


def test_a_new_puzzle_gets_its_record_computed_and_written_then_read(quick, monkeypatch):
    proofs, reported = read(quick)
    assert not reported
    assert all(proofs[f].computed_now and records.record_path(f).is_file() for f in quick)
    monkeypatch.setattr(store, "compute_records", refuse)
    again, reported = read(quick)
    assert not reported
    assert not any(p.computed_now for p in again.values())
    for file in quick:
        assert again[file].record["solution"] == proofs[file].record["solution"]


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory) -> tuple[list[Path], dict[Path, bytes]]:
    """The quick puzzles with their records computed once for the module, and the folder's bytes
    then (each test that edits or damages a file starts from them again)."""
    folder = tmp_path_factory.mktemp("recorded") / "puzzles"
    folder.mkdir()
    files = [Path(shutil.copy(PUZZLES_DIR / f"{name}.yaml", folder)) for name in QUICK]
    read(files)
    return files, {p: p.read_bytes() for p in folder.iterdir()}


@pytest.fixture
def recorded(recorded_once, monkeypatch) -> list[Path]:
    """The quick puzzles with their records computed (the module's, restored to their bytes);
    computing again fails the test."""
    files, snapshot = recorded_once
    for path in files[0].parent.iterdir():
        if path not in snapshot:
            path.unlink()
    for path, data in snapshot.items():
        path.write_bytes(data)
    monkeypatch.setattr(store, "compute_records", refuse)
    return files


def test_an_edited_puzzle_makes_its_record_stale_and_the_build_names_the_refresh(recorded):
    file = recorded[1]
    file.write_text(file.read_text(encoding="utf-8").replace("grade: 1", "grade: 2"), encoding="utf-8")  # an edit
    # of the play (a comment or a story is not: test_only_the_play_of_a_puzzle_file_is_an_input)
    proofs, reported = read(recorded)
    assert file not in proofs and recorded[0] in proofs
    [(where, message)] = reported
    assert where == file and "inputs changed" in message and file.name in message
    assert records.REFRESH in message and f"python -m generator records {records.display(file)}" in message


def _why_code_changed(monkeypatch) -> None:
    today = store.code()
    monkeypatch.setattr(store, "code", lambda: {**today, "why": "0" * 64})


def test_changed_code_makes_the_parts_it_computes_stale(recorded, monkeypatch):
    _why_code_changed(monkeypatch)
    proofs, reported = read(recorded)
    assert not proofs and len(reported) == len(recorded)
    assert all("stale (the why facts' search changed since it was recorded: why to recompute):" in m
               and records.REFRESH in m for _, m in reported)
    assert {tuple(store.status_of(source_of(f)).stale) for f in recorded} == {("why",)}


def test_a_changed_budget_makes_its_part_stale(recorded, monkeypatch):
    from generator.proofs import regret
    monkeypatch.setattr(regret, "LINE_STATES", regret.LINE_STATES + 1)
    status = store.status_of(source_of(recorded[0]))
    assert status.state is RecordState.CODE_CHANGED and status.stale == {"regret": ["budgets.regret"]}


def test_a_preview_uses_records_of_earlier_code_with_a_warning(recorded, monkeypatch, capsys):
    _why_code_changed(monkeypatch)
    monkeypatch.setenv(store.PREVIEW_VARIABLE, "1")
    proofs, reported = read(recorded)
    assert not reported and set(proofs) == set(recorded)
    assert capsys.readouterr().err.count("the why facts' search changed") == len(recorded)


def test_a_preview_still_refuses_an_edited_puzzle(recorded, monkeypatch):
    monkeypatch.setenv(store.PREVIEW_VARIABLE, "1")
    file = recorded[1]
    file.write_text(file.read_text(encoding="utf-8").replace("grade: 1", "grade: 2"), encoding="utf-8")
    proofs, reported = read(recorded)
    assert file not in proofs and [where for where, _ in reported] == [file]


def test_make_test_never_previews():
    assert store.PREVIEW_VARIABLE not in (ROOT / "Makefile").read_text(encoding="utf-8")
    assert store.PREVIEW_VARIABLE not in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("garbage, says", [
    ("{not json", "line 1: not JSON"),
    ('{"format": "cellula-record-1"}', "format 'cellula-record-1', expected 'cellula-record-2'"),
    ("[]", "format 'list'"),
    ('{"format": "cellula-record-2", "inputs": {}, "keys": {}, "engines": {}, "seconds": {}, "solution": 3}',
     "field 'solution' is int"),
    ("[" * 100_000 + "]" * 100_000, "nested deeper than"),
    ('{"format": "cellula-record-2", "a": ' + "[" * 30 + "]" * 30 + "}", "nested deeper than 24 levels"),
])
def test_a_damaged_record_is_named_never_silently_recomputed(recorded, garbage, says):
    records.record_path(recorded[0]).write_text(garbage, encoding="utf-8")
    proofs, reported = read(recorded)
    assert recorded[0] not in proofs
    [(where, message)] = reported
    assert "damaged" in message and says in message


def _set(path: str, value):
    """A tamper: the field at dotted ``path`` set to ``value`` (a callable gets the record)."""
    def tamper(record):
        *parents, last = path.split(".")
        node = record
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value(record) if callable(value) else value
    return tamper


def _greedy_as_optimum(record):
    """The issue's doctored record: the greedy plan shown as the optimum, every figure made to agree."""
    greedy, solution = record["solution"]["greedy"], record["solution"]["solution"]
    for field in ("plan", "steps", "breakdown", "health"):
        solution[field] = greedy[field]
    solution["bound"] = record["solution"]["bound"] = greedy["health"]
    record["why"]["optimum"] = greedy["health"]
    record["regret"] = {"values": None, "stats": {}}


def _first_step_state(record):
    state = record["solution"]["solution"]["steps"][0]["state"]
    state["stock"]["atp"] = 999
    return state


def _regret_off_by_one(record):
    best = record["regret"]["values"]["best"]
    record["regret"]["values"]["best"] = {k: (v + 1 if v is not None else v) for k, v in best.items()}


def _deeply_nested(record):
    record["why"]["deep"] = json.loads("[" * 40 + "]" * 40)


TAMPERS = {
    # the solution and its figures
    "greedy shown as the optimum": (_greedy_as_optimum, "solution.solution"),
    "a score the plan misses": (_set("solution.solution.health", lambda r: r["solution"]["solution"]["health"] + 1), "solution.solution"),
    "a plan cut short": (_set("solution.solution.plan", lambda r: r["solution"]["solution"]["plan"][:-1]), "solution.solution"),
    "not a status": (_set("solution.solution.status", "best"), "solution.solution"),
    "a step's state": (_set("solution.solution.steps.0.state", _first_step_state), "solution.solution.steps"),
    "the score breakdown": (_set("solution.solution.breakdown.macromolecules", 99), "solution.solution.breakdown"),
    "proven although feasible": (_set("solution.solution.proven", False), "solution.solution.proven"),
    "a bound below the value": (_set("solution.solution.bound", 0), "solution.solution.bound"),
    "the outer bound": (_set("solution.bound", 99), "solution.bound"),
    "the puzzle's expected value": (None, "solution.solution.health"),
    "the greedy contrast": (_set("solution.greedy.health", 0), "solution.greedy"),
    "an other reading's Health": (_set("solution.other_readings.0.same", False), "solution.other_readings[0].same"),
    "a confirming engine the project lacks": (_set("solution.solution.confirmed_by", ["gurobi"]), "solution.solution.confirmed_by"),
    "the named engine versions": (_set("engines.versions", {"cp-sat": "OR-Tools 9", "gurobi": "11"}), "engines.versions"),
    "the puzzle field": (_set("puzzle", "another-puzzle"), "puzzle: names"),
    "the solution's puzzle field": (_set("solution.puzzle", "another-puzzle"), "solution.puzzle"),
    # the regret values
    "regret values edited": (_regret_off_by_one, "regret.values.best"),
    "regret values deleted": (_set("regret", {"values": None, "stats": {}}), "regret.values: missing"),
    "the root's value": (None, "regret.values.best"),
    # the why facts and the level
    "the why facts' optimum": (_set("why.optimum", 0), "why.optimum"),
    "the level": (_set("level.grade", 1), "level"),
    "the why facts' only moves": (_set("why.only", [True]), "why.only"),
    # reading
    "a field of the wrong kind": (_set("why", 3), "field 'why' is int"),
    "nested past the limit": (_deeply_nested, "nested deeper than"),
    "a plan that is not moves": (_set("solution.solution.plan", [{"kind": 3}]), "solution.solution.plan"),
    "a field of the wrong kind deep inside": (_set("why.deviation", {"step": "two", "health": 1}), "why: not readable"),
}


@pytest.mark.parametrize("kind", list(TAMPERS))
def test_a_hand_edited_record_is_refused_by_the_build(recorded, kind, tmp_path):
    tamper, says = TAMPERS[kind]
    file = recorded[1]
    path = records.record_path(file)
    data = json.loads(path.read_text(encoding="utf-8"))
    if kind == "the puzzle's expected value":        # the puzzle file's own expected value disagrees
        text = file.read_text(encoding="utf-8")
        assert "expected: {health: 7}" in text
        file.write_text(text.replace("expected: {health: 7}", "expected: {health: 8}"), encoding="utf-8")
        # the inputs changed too: the build names the edited file first
        proofs, reported = read(recorded)
        assert file not in proofs and "inputs changed" in reported[0][1]
        data["inputs"] = records.Inputs.of_puzzle(source_of(file).puzzle, file, None).to_dict()
    elif kind == "the root's value":
        values = data["regret"]["values"]
        root = next(k for k, v in values["best"].items() if v == data["solution"]["solution"]["health"])
        values["best"][root] -= 1
    else:
        tamper(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    proofs, reported = read(recorded)
    assert file not in proofs and recorded[0] in proofs
    [(where, message)] = reported
    assert where == file and says in message, message
    assert f"python -m generator records {records.display(file)}" in message or records.REFRESH in message


def test_a_record_of_no_puzzle_is_an_error(recorded):
    """A record beside no puzzle file is named (the committed set: test_every_puzzle_has_a_committed_record)."""
    stray = recorded[0].with_name("no-such-puzzle" + records.SUFFIX)
    shutil.copy(records.record_path(recorded[0]), stray)
    assert store.stray_records([recorded[0].parent], recorded) == [stray]


def test_the_ledger_vouches_only_for_answers_it_saw_proved(recorded, own_ledger):
    statuses = [store.status_of(source_of(f)) for f in recorded]
    assert own_ledger.is_file() is False or not store.unproved(statuses)
    ledger = ledgers.Ledger.load()
    for status in statuses:
        ledger.proved(status.record)
    ledger.save()
    assert store.unproved(statuses) == []
    path = records.record_path(recorded[1])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["why"]["plans"] += 1               # consistent with every other field: only a re-proof tells
    data["seconds"]["why"] = 1.0            # a timing: no answer
    path.write_text(json.dumps(data), encoding="utf-8")
    assert [s.source.file for s in store.unproved([store.status_of(source_of(f)) for f in recorded])] == [recorded[1]]


def test_line_endings_do_not_change_the_inputs(quick):
    first = records.Inputs.of((quick[0],))
    quick[0].write_bytes(quick[0].read_bytes().replace(b"\n", b"\r\n"))
    assert records.Inputs.of((quick[0],)).digest == first.digest


# --------------------------------------------------------------------------- computing and re-proving


def test_processes_compute_what_one_process_computes(quick):
    jobs = [store.job_of(source_of(f)) for f in quick]
    serial = {o.job.puzzle_id: o.computed for o in pipeline.run(jobs, "serial", workers=1)}
    parallel = {o.job.puzzle_id: o.computed for o in pipeline.run(jobs, "parallel", workers=2)}
    assert set(serial) == set(QUICK)
    for name in QUICK:
        assert serial[name] is not None and parallel[name] is not None
        assert list(records.differences(serial[name].answers, parallel[name].answers)) == []   # timings aside


def test_progress_is_plain_lines_off_a_terminal(quick, capsys):
    list(pipeline.run([store.job_of(source_of(f)) for f in quick], "computing", workers=1))
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert lines[0] == "cellula: computing: 2 puzzles in 1 process"
    # largest first, each started and finished on a line of its own, with the time and an estimate
    assert lines[1] == "cellula: started rulebook-protein-hormone-2e (elapsed 0:00, no estimate yet)"
    assert lines[2].startswith("cellula: [1/2] rulebook-protein-hormone-2e: optimal, Health 7, ")
    assert "elapsed 0:" in lines[2] and "left)" in lines[2]
    assert lines[3].startswith("cellula: started rule-row-refresh-2e")
    assert lines[4].startswith("cellula: [2/2] rule-row-refresh-2e: ")


def test_the_estimate_follows_the_recorded_times():
    jobs = [pipeline.Job(name, Path(name), None, (1, 0), expected) for name, expected in (("a", 100.0), ("b", 50.0))]
    progress = pipeline.Progress(jobs, "estimating", processes=1)
    assert progress.left(0.0) == pytest.approx(150.0, abs=1)
    progress.finished("a", "done", 200.0)         # twice as slow as recorded: so will b be
    assert progress.left(200.0) == pytest.approx(100.0, abs=1)
    progress.close()


def test_reprove_reproduces_every_field_and_names_a_difference(quick):
    read(quick)
    assert store.reprove([store.status_of(source_of(f)) for f in quick], workers=1) == []
    path = records.record_path(quick[1])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["why"]["plans"] += 1
    data["seconds"]["why"] = 999.0      # a timing: never compared
    path.write_text(json.dumps(data), encoding="utf-8")
    lines = store.reprove([store.status_of(source_of(f)) for f in quick], workers=1)
    assert len(lines) == 1 and "why.plans: committed" in lines[0] and quick[1].stem in lines[0]
    assert not ledgers.Ledger.load().vouches_for(data)          # not reproduced: not entered


@pytest.mark.parametrize("committed, fresh, paths", [
    ({"a": 1, "seconds": 3}, {"a": 1, "seconds": 4}, []),
    ({"a": {"b_seconds": 1, "c": [1, 2]}}, {"a": {"b_seconds": 2, "c": [1, 3]}}, ["a.c[1]"]),
    ({"a": [1, 2]}, {"a": [1]}, ["a"]),
    ({"a": 1}, {"b": 1}, ["a", "b"]),
    ({"a": 1}, {"a": 1.0}, ["a"]),
])
def test_differences_are_named_field_by_field(committed, fresh, paths):
    assert [where for where, _, _ in records.differences(committed, fresh)] == paths


def test_the_sample_has_the_quickest_and_varies_with_the_commit(shipped):
    one = store.sample(shipped, 3, 2, SAMPLE_MAX_SECONDS, seed="a")
    assert store.sample(shipped, 3, 2, SAMPLE_MAX_SECONDS, seed="a") == one
    quickest = sorted(shipped, key=lambda s: (store.recorded_seconds(s), s.source.puzzle.id))[:3]
    assert one[:3] == quickest and len(one) == 5
    assert all(store.recorded_seconds(s) <= SAMPLE_MAX_SECONDS for s in one[3:])
    drawn = {tuple(s.source.puzzle.id for s in store.sample(shipped, 3, 2, SAMPLE_MAX_SECONDS, seed=str(n))[3:])
             for n in range(10)}
    assert len(drawn) > 1


# --------------------------------------------------------------------------- the command


def run_main(argv: list[str]) -> int:
    from generator.__main__ import main
    try:
        return main(argv)
    except SystemExit as exc:       # argparse's own refusals
        return int(exc.code or 0)


@pytest.mark.parametrize("argv, says", [
    (["records", "no-such-puzzle"], "unknown puzzle 'no-such-puzzle': expected an id or file of"),
    (["records", "--sample"], "--sample goes with --reprove"),
    (["records", "--workers", "0"], "expected a whole number of processes from 1 to 64, got 0"),
    (["records", "--workers", "two"], "expected a whole number of processes from 1 to 64, got 'two'"),
    (["records", "--check", "--reprove"], "not allowed with argument"),
])
def test_bad_records_arguments_are_refused_with_exit_2(argv, says, capsys):
    assert run_main(argv) == 2
    assert says in capsys.readouterr().err


def test_check_says_every_record_is_current(capsys):
    assert run_main(["records", "--check"]) == 0
    assert capsys.readouterr().out.strip().endswith("records current")


def test_the_edition_check_and_its_exports_read_no_record(monkeypatch, tmp_path):
    """``generator check --export DIR`` once started the whole puzzle computation: it loads the
    site without the puzzles' records now."""
    import generator.site
    asked: list[bool] = []

    class Stop(Exception):
        pass

    def load_site(data_dir, solve_puzzles=True):
        asked.append(solve_puzzles)
        raise Stop
    monkeypatch.setattr(generator.site, "load_site", load_site)
    with pytest.raises(Stop):
        run_main(["check", "--export", str(tmp_path)])
    assert asked == [False]


def test_workers_hash_strings_alike_on_every_run():
    """Every worker starts with the same string hashing seed (ties between equally good
    continuations are met in the same order on every run) and the caller's environment is left
    as it was."""
    import os
    import subprocess
    import sys
    before = os.environ.get("PYTHONHASHSEED")
    seen = set()
    for _ in range(2):
        with pipeline.hash_seed_for_workers():
            done = subprocess.run([sys.executable, "-c", "print(hash('cellula'))"], capture_output=True, text=True,
                                  check=True)
        seen.add(done.stdout)
    assert len(seen) == 1 and os.environ.get("PYTHONHASHSEED") == before


def test_a_confirmation_decided_by_the_clock_is_a_note_not_a_difference(quick):
    read(quick)
    path = records.record_path(quick[1])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["solution"]["confirmed_by"] = []       # as when HiGHS runs out of its 60 s on a loaded machine
    path.write_text(json.dumps(data), encoding="utf-8")
    notes: list[str] = []
    assert store.reprove([store.status_of(source_of(f)) for f in quick], workers=1, notes=notes) == []
    assert len(notes) == 1 and "solution.confirmed_by" in notes[0] and "wall-clock" in notes[0]


@pytest.mark.parametrize("field, stale", [("story", False), ("title", False), ("notes", False), ("flasks", True)])
def test_only_the_play_of_a_puzzle_file_is_an_input(quick, field, stale):
    """A record is keyed by what its answers read: an edit of a reader's text (a story translated
    again, a title, a note) leaves it current; an edit of the play (here the flasks per round)
    makes it stale."""
    file = quick[0]
    before = records.Inputs.of_puzzle(source_of(file).puzzle, file, None)
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    data[field] = (data.get(field) or 1) + 1 if field == "flasks" else {"en": "Edited.", "it": "Modificato."}
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    after = records.Inputs.of_puzzle(source_of(file).puzzle, file, None)
    assert (after.digest != before.digest) is stale


def test_a_comment_or_the_layout_of_a_puzzle_file_is_not_an_input(quick):
    file = quick[0]
    before = records.Inputs.of_puzzle(source_of(file).puzzle, file, None)
    file.write_text("# a contributor's comment\n" + file.read_text(encoding="utf-8").replace(": ", ":   "), encoding="utf-8")
    assert records.Inputs.of_puzzle(source_of(file).puzzle, file, None).digest == before.digest
