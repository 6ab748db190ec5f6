"""``python -m solver``: exit codes 0 / 1 / 2, JSON output, never a traceback."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "data/puzzles/rulebook-protein-hormone-2e.yaml"


def cli(*args):
    proc = subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_solve_table():
    proc = cli("solve", PUZZLE)
    assert proc.returncode == 0
    assert "rough-er" in proc.stdout and "Final score: 7" in proc.stdout


def test_solve_italian():
    proc = cli("solve", PUZZLE, "--lang", "it")
    assert proc.returncode == 0 and "Punteggio finale: 7" in proc.stdout and "Reticolo Endoplasmatico Rugoso" in proc.stdout


def test_solve_json():
    proc = cli("solve", PUZZLE, "--json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["status"] == "optimal" and data["health"] == 7 and len(data["plan"]) == 3
    assert data["steps"][0]["sections"][0] == "spots.rough-er"


def test_validate():
    assert cli("validate", PUZZLE).returncode == 0


@pytest.mark.parametrize("args", [("solve",), ("bogus",), ("solve", PUZZLE, "--lang", "fr"), ("solve", "missing.yaml"),
                                  ("solve", PUZZLE, "--engine", "magic")])
def test_usage_and_bad_input_exit_2(args):
    assert cli(*args).returncode == 2


def test_bad_puzzle_exit_2(tmp_path):
    bad = tmp_path / "rulebook-protein-hormone-2e.yaml"
    bad.write_text((ROOT / PUZZLE).read_text().replace("atp: 2, mrna", "atp: -1, mrna"))
    proc = cli("validate", str(bad))
    assert proc.returncode == 2 and "start.atp: expected an integer 0..999, got -1" in proc.stderr


def test_replay_ok_and_broken(tmp_path):
    good = [{"kind": "place", "spot": "rough-er-1", "card": "protein-hormone-7"},
            {"kind": "place", "spot": "golgi-1", "card": "protein-hormone-7"},
            {"kind": "place", "spot": "exocytosis-1", "card": "protein-hormone-7"}]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(good))
    proc = cli("replay", PUZZLE, str(plan))
    assert proc.returncode == 0 and "Final score: 7" in proc.stdout
    plan.write_text(json.dumps({"plan": [good[0], good[2], good[1]]}))
    proc = cli("replay", PUZZLE, str(plan))
    assert proc.returncode == 1 and "step 2" in proc.stdout and "Golgi" in proc.stdout
    plan.write_text(json.dumps(good[:2]))
    assert cli("replay", PUZZLE, str(plan)).returncode == 1            # legal but incomplete
    plan.write_text("[{")
    assert cli("replay", PUZZLE, str(plan)).returncode == 2
    plan.write_text(json.dumps([{"kind": "fly"}]))
    assert cli("replay", PUZZLE, str(plan)).returncode == 2


def test_replay_virus_plan(tmp_path):
    """A plan with Virus attack steps (vaccinate, respond with take or lose) replays like any other:
    the plan file reader knew neither their fields nor which one vaccinate needs (a KeyError)."""
    golden = json.loads((ROOT / "tests/golden/virus-influenza-2e.json").read_text(encoding="utf-8"))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps([step["action"] for step in golden["steps"]]))
    proc = cli("replay", "data/puzzles/virus-influenza-2e.yaml", str(plan))
    assert proc.returncode == 0 and f"Final score: {golden['health']}" in proc.stdout, proc.stdout + proc.stderr
    plan.write_text(json.dumps([{"kind": "vaccinate"}]))
    proc = cli("replay", "data/puzzles/virus-influenza-2e.yaml", str(plan))
    assert proc.returncode == 2 and "plan[0].amount: a vaccinate action needs `amount`" in proc.stderr
    plan.write_text(json.dumps([{"kind": "respond", "lose": "gold"}]))
    assert cli("replay", "data/puzzles/virus-influenza-2e.yaml", str(plan)).returncode == 2


def test_no_legal_plan_exit_1(tmp_path):
    text = (ROOT / PUZZLE).read_text().replace("occupied: {}", "occupied: {1: [laureates]}")
    text = text.replace("start: {atp: 2, mrna: 2, protein: 0, carb: 1", "start: {atp: 0, mrna: 0, protein: 0, carb: 0")
    text = text.replace("edition: 2e", "edition: 1e")
    text = text.replace("board: 3-5p", "board: 3-5p\nboard_override: {spots: {nucleus: 1, smooth-er-lipids: 1, mitochondria: 1}}")
    text = text.replace("occupied: {1: [laureates]}",
                        "occupied: {1: [laureates, nucleus-3, smooth-er-lipids-3, mitochondria-3]}")
    f = tmp_path / "rulebook-protein-hormone-2e.yaml"
    f.write_text(text)
    proc = cli("solve", str(f), "--json")
    assert proc.returncode == 1 and json.loads(proc.stdout)["status"] == "infeasible"


# --------------------------------------------------------------------------- CP-SAT planner (default engine)

BIG = "data/puzzles/long-game-2p-2e.yaml"


def test_solve_defaults_to_cpsat_proven_and_confirmed():
    proc = cli("solve", PUZZLE, "--json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["engine"] == "cpsat" and data["status"] == "optimal"
    assert data["proven"] is True and data["bound"] == data["health"] == 7 and data["gap"] == 0
    assert data["confirmed_by"] == ["highs"]


@pytest.mark.parametrize("engine", ["cpsat", "exhaustive"])
def test_both_engines_same_optimum(engine):
    data = json.loads(cli("solve", "data/puzzles/toxic-hoard-1e.yaml", "--json", "--engine", engine).stdout)
    assert data["engine"] == engine and data["health"] == 4


def test_time_out_gives_best_plan_labelled_not_proven():
    """A budget of CP-SAT's deterministic work (the same stop on every machine, however loaded; a
    wall-clock limit of 1 s proved this puzzle on a fast machine and not on a loaded one)."""
    proc = cli("solve", BIG, "--work-limit", "0.2", "--no-confirm")
    assert proc.returncode == 0, proc.stderr
    assert "NOT PROVEN" in proc.stdout and "gap" in proc.stdout
    data = json.loads(cli("solve", BIG, "--work-limit", "0.2", "--json").stdout)
    assert data["status"] == "feasible" and data["proven"] is False and data["gap"] > 0
    assert data["confirmed_by"] == []


def test_work_limit_is_cpsats():
    proc = cli("solve", BIG, "--work-limit", "1", "--engine", "exhaustive")
    assert proc.returncode == 2 and "--work-limit" in proc.stderr and "exhaustive" in proc.stderr


def test_progress_reports_plans_and_bounds_on_stderr():
    proc = cli("solve", "data/puzzles/market-day-2e.yaml", "--progress", "--no-confirm")
    assert proc.returncode == 0 and "best plan" in proc.stderr and "bound" in proc.stderr


def test_same_plan_every_run():
    a = json.loads(cli("solve", "data/puzzles/enzyme-workshop-2e.yaml", "--json", "--no-confirm").stdout)
    b = json.loads(cli("solve", "data/puzzles/enzyme-workshop-2e.yaml", "--json", "--no-confirm").stdout)
    assert a["plan"] == b["plan"]


@pytest.mark.parametrize("args", [("--time-limit", "0"), ("--time-limit", "-1"), ("--time-limit", "soon"),
                                  ("--work-limit", "0"), ("--work-limit", "nan"),
                                  ("--workers", "0"), ("--workers", "two"), ("--seed", "-3")])
def test_bad_solver_parameters_exit_2(args):
    proc = cli("solve", PUZZLE, *args)
    assert proc.returncode == 2 and "error: argument" in proc.stderr


def test_infeasible_says_why(tmp_path):
    text = (ROOT / PUZZLE).read_text().replace("edition: 2e", "edition: 1e")
    text = text.replace("start: {atp: 2, mrna: 2, protein: 0, carb: 1", "start: {atp: 0, mrna: 0, protein: 0, carb: 0")
    text = text.replace("board: 3-5p", "board: 3-5p\nboard_override: {spots: {nucleus: 1, smooth-er-lipids: 1, mitochondria: 1}}")
    text = text.replace("occupied: {}", "occupied: {1: [laureates, nucleus-3, smooth-er-lipids-3, mitochondria-3]}")
    f = tmp_path / "rulebook-protein-hormone-2e.yaml"
    f.write_text(text)
    proc = cli("solve", str(f))
    assert proc.returncode == 1 and "no legal sequence: round 1" in proc.stdout


def test_rejected_plan_is_an_error_not_an_answer(monkeypatch):
    """A plan the rules engine does not accept is never printed: VerificationError, exit 1."""
    import solver.optimise.run as run   # the planner's run stage reads its plans with decode
    from solver import load_puzzle, solve
    from solver.solution import VerificationError
    real = run.decode

    def broken(pm, values):
        plan = real(pm, values)
        return plan[1:] + plan[:1]              # same actions, wrong order
    monkeypatch.setattr(run, "decode", broken)
    with pytest.raises(VerificationError, match="rejected by the rules engine"):
        solve(load_puzzle(ROOT / PUZZLE))
    from solver.cli import main
    assert main(["solve", str(ROOT / PUZZLE)]) == 1


def test_bench_usage_error_exit_2():
    assert cli("bench", "--sizes", "5,7").returncode == 2


def test_the_command_lines_words_live_in_the_catalogue():
    """Every ``cli.*`` key the command line reads exists in every catalogue file, and ``--lang``
    offers exactly the catalogue's languages (no words or language list left in the code)."""
    import re
    from pathlib import Path

    from solver import cli
    from solver.io.catalogue import CATALOGUE_DIR, catalogue_message

    source = Path(cli.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(cli\.[a-z_]+)"', source)) | {f"cli.head.{k}" for k in cli.HEAD_KEYS}
    keys |= {f"cli.breakdown.{k}" for k in ("in_game", "macromolecules", "detox", "enzyme_sets", "goals", "total")}
    assert len(keys) > 20
    assert set(cli.LANGS) == {f.stem for f in CATALOGUE_DIR.glob("*.yaml")}
    for lang in cli.LANGS:
        t = catalogue_message(lang, namespace="cli")
        for key in sorted(keys):
            assert t(key, label="x", engines="y", seconds="1", bound=2, gap=3, health=4, reason="r", rulings="k=v",
                     word="plan", plan=5, engine="cpsat", budget="5", cpsat=6, moves=7), (lang, key)
    assert "Punteggio finale" not in source and "Final score" not in source


# --------------------------------------------------------------------------- issue #69: every limit bounds the whole command

@pytest.fixture(scope="module")
def detox_hand_puzzle():
    """grey-rush-2e with 999 detox cards in hand: the largest legal hand, whose model's building is
    quadratic in the cards (minutes unbounded)."""
    import yaml
    from solver.io.loading import Located
    from solver.io.puzzle import PUZZLE_SCHEMA, _normalise_round_keys, _schema_check, _Where, puzzle_from_data
    data = yaml.safe_load((ROOT / PUZZLE.replace("rulebook-protein-hormone-2e", "grey-rush-2e")).read_text(encoding="utf-8"))
    data.update(rounds=12, flasks=4, events=[], occupied={}, hand=[f"detox-{i}" for i in range(999)],
                cards=[{"id": f"detox-{i}", "type": "detox", "cost": {"atp": 1 + i % 5}, "illustrative": True}
                       for i in range(999)])
    data.pop("expected", None)
    where = _Where("<detox-hand>", Located("<detox-hand>"))
    _normalise_round_keys(data)
    _schema_check(data, where, PUZZLE_SCHEMA)
    return puzzle_from_data(data, where)


@pytest.mark.parametrize("limit", [{"deterministic_time": 1.0}, {"time_limit": 1.0}], ids=["work-limit", "time-limit"])
def test_a_limit_bounds_the_model_building(detox_hand_puzzle, limit):
    """Either limit stops the building of a model too large for it: an answer of no plan that says
    which limit ran out while building, in a few seconds (the work limit: the same stop everywhere)."""
    import time
    from solver.solution import solve
    started = time.process_time()
    sol = solve(detox_hand_puzzle, confirm=(), **limit)
    assert sol.status == "unknown" and "while building the CP-SAT model" in (sol.reason or "")
    assert ("work limit" if "deterministic_time" in limit else "time limit") in sol.reason
    assert time.process_time() - started < 10


def test_the_work_limits_build_budget_is_deterministic(detox_hand_puzzle):
    from solver.solution import BUILD_STEPS_PER_WORK_UNIT, solve
    runs = [solve(detox_hand_puzzle, confirm=(), deterministic_time=0.5) for _ in range(2)]
    assert {r.stats["build_steps"] for r in runs} == {BUILD_STEPS_PER_WORK_UNIT // 2 + 1}


def test_a_work_limit_large_enough_builds_the_same_model():
    """The budget only counts: a puzzle within it is solved as without it (same plan, proven)."""
    from solver.io.puzzle import load_puzzle
    from solver.solution import solve
    puzzle = load_puzzle(ROOT / "data/puzzles/grey-rush-2e.yaml")
    assert solve(puzzle, confirm=(), deterministic_time=5.0).health == solve(puzzle, confirm=()).health == 9


def test_the_confirmation_budget_bounds_highss_model_building(monkeypatch):
    """HiGHS builds its own copy of the model: the confirmation budget holds for that too (a whole
    game's model takes tens of seconds to build)."""
    import time
    from solver import cli as solver_cli
    from solver.io.puzzle import load_puzzle
    from solver.solution import solve

    puzzle = load_puzzle(ROOT / "data/puzzles/grey-rush-2e.yaml")
    sol = solve(puzzle, confirm=())

    def slow_build(_puzzle):
        time.sleep(30)
    monkeypatch.setattr("solver.optimise.planner.build_model", slow_build)
    started = time.monotonic()
    confirmed = solver_cli.confirm_with_highs(puzzle, sol, 0.5)
    assert time.monotonic() - started < 5
    assert confirmed.confirmed_by == () and confirmed.stats["highs_status"] == "unknown"


@pytest.mark.parametrize("name, claim, engine, said", [
    ("grey-rush-2e", 7, "cpsat", "29: expected.health: expected 7 (the optimum this file claims), got a proven optimum of 9 (cpsat)"),
    ("toxic-hoard-1e", 5, "exhaustive", "expected.health: expected 5 (the optimum this file claims), got a proven optimum of 4 (exhaustive)")])
def test_solve_says_when_the_puzzles_claim_is_wrong(tmp_path, capsys, name, claim, engine, said):
    from solver.cli import main
    text = (ROOT / f"data/puzzles/{name}.yaml").read_text(encoding="utf-8")
    text = text.replace("expected: {health: 9}", f"expected: {{health: {claim}}}") if "expected:" in text else \
        text + f"expected: {{health: {claim}}}\n"
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    extra = ["--no-confirm"] if engine == "cpsat" else []
    assert main(["solve", str(path), "--engine", engine, *extra]) == 1
    out, err = capsys.readouterr()
    assert "Final score:" in out and f"{name}.yaml:" in err and said in err


def test_solve_keeps_quiet_when_the_claim_holds(capsys):
    from solver.cli import main
    assert main(["solve", "data/puzzles/grey-rush-2e.yaml", "--no-confirm"]) == 0
    assert "expected.health" not in capsys.readouterr().err


@pytest.mark.parametrize("options, named", [
    (["--engine", "exhaustive", "--workers", "2"], "--workers 2"),
    (["--engine", "exhaustive", "--seed", "4", "--progress"], "--seed 4, --progress"),
    (["--engine", "exhaustive", "--confirm-budget", "3"], "--confirm-budget 3"),
    (["--no-confirm", "--confirm-budget", "3"], "--confirm-budget 3"),
])
def test_options_the_engine_would_ignore_are_refused(capsys, options, named):
    from solver.cli import main
    assert main(["solve", PUZZLE, *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {named}: expected without")


@pytest.mark.parametrize("args", [["solve", ""], ["validate", " "], ["replay", PUZZLE, ""]])
def test_an_empty_path_is_refused(capsys, args):
    from solver.cli import main
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2 and "expected a file, got an empty path" in capsys.readouterr().err


@pytest.mark.parametrize("out, said", [("pyproject.toml", "expected a folder, got an existing file"),
                                       ("README.md/bench", "is a file, not a folder"), ("", "empty path")])
def test_bench_checks_its_output_folder_before_running(capsys, monkeypatch, out, said):
    from solver import cli as solver_cli
    monkeypatch.setattr("solver.benchmarks.cli.main", lambda args: pytest.fail("the benchmark ran"))
    monkeypatch.chdir(ROOT)
    assert solver_cli.main(["bench", "--quick", "--out", out]) == 2
    assert said in capsys.readouterr().err
