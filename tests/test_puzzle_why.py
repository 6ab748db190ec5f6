"""The "why it is optimal" facts and the computed level (issue #19, items 3-4)."""
from __future__ import annotations

import pytest

from generator.puzzles import why as puzzle_why
from generator.proofs import why as why_facts
from solver import load_puzzle, solve
from solver.optimise.explain import line_facts, optimal_plans
from solver.optimise.search import exhaustive
from solver.io.puzzle import PUZZLES_DIR


@pytest.mark.parametrize("why, optimum, greedy, expected", [
    ({"plans": 8, "branching": [2, 3]}, 7, 7, 1),
    ({"plans": 8, "branching": [2, 3]}, 7, 5, 2),
    ({"plans": 8, "branching": [2, 3]}, 7, 3, 3),
    ({"plans": 8, "branching": [2, 3]}, 7, None, 3),
    ({"plans": 1, "branching": [2, 3]}, 7, 7, 2),
    ({"plans": 3, "branching": [4, 5]}, 7, 7, 2),
    ({"plans": None, "branching": None, "over_budget": True}, 7, 2, 5),
    # past the budget: a proven bound of 3 or more optimal plans settles P = 0, a smaller one does not
    ({"plans": None, "branching": [2, 3], "over_budget": True, "plans_at_least": 3}, 7, 7, 1),
    ({"plans": None, "branching": [2, 3], "over_budget": True, "plans_at_least": 2}, 7, 7, 2),
    ({"plans": None, "branching": [2, 3], "over_budget": True, "plans_at_least": None}, 7, 7, 2),
    # a search without a count and within its budget (no proven optimum) adds nothing
    ({"plans": None, "branching": [2, 3]}, 7, 7, 1),
])
def test_grade_formula(why, optimum, greedy, expected):
    assert why_facts.difficulty(optimum, greedy, why).grade == expected


@pytest.mark.parametrize("lang", ["en", "it"])
def test_level_figures_say_the_bound_past_the_budget(lang):
    past = why_facts.difficulty(7, 7, {"plans": None, "branching": [2], "over_budget": True, "plans_at_least": 12})
    assert "≥ 12" in puzzle_why.level_reasons(past, lang)
    counted = why_facts.difficulty(7, 7, {"plans": 12, "branching": [2]})
    assert "12" in puzzle_why.level_reasons(counted, lang) and "≥" not in puzzle_why.level_reasons(counted, lang)


@pytest.mark.parametrize("pid", ["rulebook-protein-hormone-2e", "steroid-no-lipids-2e", "rule-row-refresh-1e"])
def test_line_facts_agree_with_the_search(pid):
    puzzle = load_puzzle(PUZZLES_DIR / f"{pid}.yaml")
    solution = solve(puzzle, engine="exhaustive")
    facts = line_facts(puzzle, list(solution.plan))
    counted = optimal_plans(puzzle)
    assert len(facts.only) == len(facts.branching) == len(solution.plan)
    assert all(b >= 1 for b in facts.branching)
    if counted.count == 1:
        assert all(facts.only)
    if facts.deviation is not None:
        from solver import replay, score
        _, final = replay(puzzle, list(facts.deviation.plan))
        assert score(final).total == facts.deviation.health == counted.best - facts.deviation.loss
        assert facts.deviation.loss >= 1
        assert list(facts.deviation.plan[:facts.deviation.step - 1]) == list(solution.plan[:facts.deviation.step - 1])


def test_over_budget_is_said_not_guessed():
    puzzle = load_puzzle(PUZZLES_DIR / "rulebook-protein-hormone-2e.yaml")
    old = why_facts.MAX_STATES
    why_facts.MAX_STATES = 10
    try:
        solution = solve(puzzle, engine="exhaustive")
        record = why_facts.compute_why(puzzle, [a.to_dict() for a in solution.plan], solution.health)
    finally:
        why_facts.MAX_STATES = old
    # plans are not counted; only moves, branching and the best departure come from the proven
    # values one move off the line (solver.optimise.regret), here all of them: the search's facts exactly
    from solver.optimise.explain import line_facts
    facts = line_facts(puzzle, list(solution.plan))
    assert facts is not None
    assert record["over_budget"] and record["plans"] is None and record["source"] == "line"
    assert record["only"] == list(facts.only) and record["branching"] == list(facts.branching)
    assert record["unvalued"] == 0
    assert record["plans_at_least"] >= 1
    assert record["plans_at_least"] <= facts.plans.count
    assert (record["deviation"] or {}).get("health") == (facts.deviation.health if facts.deviation else None)
    for lang in ("it", "en"):
        view = puzzle_why.why_view(record, {"bound": None}, lang)
        assert "10" in view["plans"] and view["source"] == puzzle_why.UI[lang]["why_source_line"]
        assert "{" not in view["only"] + view["plans"] + view["bound"]


@pytest.mark.parametrize(("at_least", "key"), [(None, "why_plans_over"), (1, "why_plans_over"),
                                                (5, "why_plans_at_least")])
def test_plans_past_the_budget_are_a_lower_bound_or_not_counted(at_least, key):
    record = {"budget": 30000, "optimum": 7, "plans": None, "capped": False, "over_budget": True,
              "plans_at_least": at_least}
    for lang in ("it", "en"):
        text = puzzle_why.plans_text(record, lang)
        budget = {"it": "30.000", "en": "30,000"}[lang]       # as each language writes numbers
        assert text == puzzle_why.UI[lang][key].format(n=at_least if key == "why_plans_at_least" else budget,
                                                       budget=budget)
        assert ("5" in text) == (at_least == 5)


def test_undecided_only_moves_and_unvalued_departures_are_said():
    record = {"budget": 10, "optimum": 7, "plans": None, "capped": False, "over_budget": True, "source": "line",
              "only": [True, None, False, None], "branching": [3, 3, 2, 2], "unvalued": 4, "limits": [],
              "deviation": {"step": 2, "health": 5, "loss": 2, "events": []}}
    for lang in ("it", "en"):
        ui = puzzle_why.UI[lang]
        view = puzzle_why.why_view(record, {"bound": None}, lang)
        assert view["only"] == ui["why_only_one"].format(steps="1") + " " + ui["why_only_open"].format(steps="2, 4")
        assert view["only_steps"] == [1]
        assert view["runner"]["summary"].endswith(ui["why_runner_up_partial"].format(n=4))
        none = puzzle_why.why_view({**record, "only": [None, False], "deviation": None}, {"bound": None}, lang)
        assert none["only"].startswith(ui["why_only_none_proven"])
        assert none["no_runner"] == ui["why_runner_up_unvalued"].format(n=4)


@pytest.mark.parametrize("pid", ["rulebook-protein-hormone-2e", "steroid-no-lipids-2e"])
def test_probe_optimum_is_the_same_by_either_engine(pid):
    puzzle = load_puzzle(PUZZLES_DIR / f"{pid}.yaml")
    for name, changed in why_facts._probes(puzzle):
        by_search = why_facts.probe_optimum(changed, searchable=True)
        assert by_search == (optimal_plans(changed).best, "optimal"), name
        assert why_facts.probe_optimum(changed, searchable=False) == by_search, name


@pytest.mark.parametrize("searchable", [True, False])
def test_a_probe_with_no_legal_plan_is_unplayable_not_unproven(searchable):
    """1st edition, one flask more than the free spots allow: no legal sequence (not a time-out)."""
    puzzle = load_puzzle(PUZZLES_DIR / "rule-grey-bought-slot-1e.yaml")   # (rule-row-refresh-1e's row now
    flask = dict(why_facts._probes(puzzle))["flask"]                     # refills from a one-card pile)
    assert why_facts.probe_optimum(flask, searchable) == (None, "unplayable")
    for lang in ("it", "en"):
        text = puzzle_why.limit_text({"optimum": 3, "limits": [{"resource": "flask", "optimum": None,
                                                                 "status": "unplayable"}]}, {}, lang)
        assert puzzle_why.UI[lang]["why_bound_flask_unplayable"] in text


@pytest.mark.parametrize("lang", ["it", "en"])
def test_limit_text_names_the_raising_probes_only(lang):
    why = {"optimum": 7, "limits": [{"resource": "atp", "optimum": 9, "status": "optimal"},
                                    {"resource": "mrna", "optimum": 7, "status": "optimal"},
                                    {"resource": "protein", "optimum": None, "status": "unproven"},
                                    {"resource": "flask", "optimum": 8, "status": "optimal"}]}
    text = puzzle_why.limit_text(why, {}, lang)
    names = puzzle_why.i18n.labels("puzzles.resources")
    assert names["atp"][lang] in text and "9" in text and "8" in text
    assert names["mrna"][lang] not in text
    # a probe not proven is named as such, never given a value
    unproven = puzzle_why.UI[lang]["why_bound_unproven"].split("{")[0]
    assert unproven in text and names["protein"][lang] in text.split(unproven)[1]
    assert names["protein"][lang] not in text.split(unproven)[0]
    flat = puzzle_why.limit_text({"optimum": 7, "limits": [{"resource": "atp", "optimum": 7, "status": "optimal"},
                                                           {"resource": "flask", "optimum": 7, "status": "optimal"}]},
                                 {}, lang)
    ui = puzzle_why.UI[lang]
    assert flat == ui["why_bound_flat"].format(optimum=7) + " " + ui["why_bound_flask_same"]


def test_nothing_is_probed_without_a_proven_optimum():
    puzzle = load_puzzle(PUZZLES_DIR / "rulebook-protein-hormone-2e.yaml")
    old = why_facts.MAX_STATES
    why_facts.MAX_STATES = 10
    try:
        plan = [a.to_dict() for a in solve(puzzle, engine="exhaustive").plan]
        assert why_facts.compute_why(puzzle, plan, None)["limits"] == []
        probed = why_facts.compute_why(puzzle, plan, 7)["limits"]
    finally:
        why_facts.MAX_STATES = old
    assert [x["resource"] for x in probed] == [*why_facts.STOCK_FIELDS, "flask"]


def test_an_unproven_plan_is_not_explained():
    puzzle = load_puzzle(PUZZLES_DIR / "rulebook-protein-hormone-2e.yaml")
    plan = [a.to_dict() for a in solve(puzzle, engine="exhaustive").plan]
    record = why_facts.compute_why(puzzle, plan, None)
    assert record["unproven"] and record["limits"] == [] and record["only"] is None
    for lang in ("it", "en"):
        view = puzzle_why.why_view(record, {"bound": 99}, lang)
        assert view == {"unproven": True, "plans": puzzle_why.UI[lang]["why_unproven"], "only_steps": [],
                        "only": None, "bound": None, "runner": None, "no_runner": None, "source": None}


def test_every_view_has_the_same_keys():
    """The template reads every key of the section's view (StrictUndefined): the unproven view
    and the explained one must offer the same keys."""
    explained = {"budget": 10, "optimum": 7, "plans": 2, "capped": False, "over_budget": False, "source": "search",
                 "only": [True], "branching": [2], "unvalued": 0, "limits": [], "deviation": None}
    unproven = {"unproven": True, "only": None, "limits": []}
    for lang in ("it", "en"):
        assert set(puzzle_why.why_view(explained, {"bound": None}, lang)) == \
            set(puzzle_why.why_view(unproven, {"bound": None}, lang))


def test_a_probe_the_planner_cannot_model_is_searched_within_a_state_budget(monkeypatch):
    """The Virus expansion: the probe goes to the exhaustive search, bounded by states (the same
    answer on every machine), and a search the budget stops is "unproven", never a guess."""
    puzzle = load_puzzle(PUZZLES_DIR / "virus-influenza-2e.yaml")   # its ATP probe: about 8,000 states
    atp = dict(why_facts._probes(puzzle))["atp"]
    monkeypatch.setattr(why_facts, "PROBE_NODES", 100)
    assert why_facts.probe_optimum(atp, searchable=False) == (None, "unproven")
    monkeypatch.setattr(why_facts, "PROBE_NODES", 20_000)
    best, _plan, stats = exhaustive(atp)
    assert stats.complete and stats.nodes <= 20_000
    assert why_facts.probe_optimum(atp, searchable=False) == (best, "optimal")


def test_a_cpsat_probe_is_bounded_by_deterministic_time(monkeypatch):
    """Past the search's budget a probe goes to CP-SAT on one worker within a deterministic time:
    too little of it leaves the probe unproven; the answer never depends on the machine's load."""
    puzzle = load_puzzle(PUZZLES_DIR / "deck-season-2e.yaml")
    flask = dict(why_facts._probes(puzzle))["flask"]
    monkeypatch.setattr(why_facts, "PROBE_DETERMINISTIC_TIME", 0.05)
    assert why_facts.probe_optimum(flask, searchable=False) == (None, "unproven")
