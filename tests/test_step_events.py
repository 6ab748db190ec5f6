"""The solver's step events: language-neutral, serialisable, and rendered through the catalogue
(``steps.*``) the same way by the command line and the site."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from solver import load_puzzle, puzzle_files, replay
from solver.game.engine import Action
from solver.game.model import Resource, SpotKind, Stock
from solver.game.steps import StepEvent, StepEventKind, catalogue_keys, event, render
from solver.io.catalogue import CATALOGUE_DIR, catalogue_message, describe_events

GOLDEN = Path(__file__).resolve().parent / "golden"
LANGS = ("en", "it")


def _flat(value, prefix=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(item, f"{prefix}.{key}" if prefix else key)
    else:
        yield prefix


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_has_exactly_the_step_keys(lang):
    data = yaml.safe_load((CATALOGUE_DIR / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert set(_flat(data["steps"], "steps")) == catalogue_keys()


SAMPLES = [
    event(StepEventKind.PLACE, spot=SpotKind.GOLGI, spot_id="golgi-1"),
    event(StepEventKind.TRADE, price=2, resource=Resource.LIPID),
    event(StepEventKind.PAY, stock=Stock(atp=4, lipid=3)),
    event(StepEventKind.END_TRADES, amounts=((2, Resource.CARB),)),
    event(StepEventKind.PEEK_ORDER, cards=("a", "b")),
    event(StepEventKind.END_OF_ROUND),
]


@pytest.mark.parametrize("ev", SAMPLES, ids=[e.kind.value for e in SAMPLES])
def test_an_event_survives_its_dict(ev):
    assert StepEvent.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev


@pytest.mark.parametrize("kind, values", [(StepEventKind.PLACE, {"spot": SpotKind.GOLGI}),
                                          (StepEventKind.END_OF_ROUND, {"points": 1})])
def test_an_event_needs_exactly_its_values(kind, values):
    with pytest.raises(ValueError, match=kind.value):
        event(kind, **values)


def test_render_puts_the_effects_in_brackets_through_the_message_function():
    calls = []

    def message(key, **params):
        calls.append(key)
        return f"<{key.split('.')[-1]}{''.join(f' {v}' for v in params.values())}>"
    text = render((event(StepEventKind.PLAY_CARD, card="x"), event(StepEventKind.HEALTH, points=3),
                   event(StepEventKind.END_OF_ROUND)), message)
    assert text == "<with_effects <play_card x> <health 3><separator><end_of_round>>"
    assert all(key.startswith("steps.") for key in calls)


FILES = [p for p in puzzle_files() if (GOLDEN / f"{p.stem}.json").exists()][:6]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_site_and_the_command_line_say_the_same(path):
    """The site renders through ``generator.i18n.t``, the command line through the solver's own
    reader: on the shipped catalogue both give the same line."""
    from generator.puzzles.step_texts import step_text
    puzzle = load_puzzle(path)
    plan = [Action.from_dict(s["action"]) for s in json.loads((GOLDEN / f"{path.stem}.json").read_text())["steps"]]
    steps, _ = replay(puzzle, plan)
    for step in steps:
        stored = json.loads(json.dumps(step.to_dict()))["events"]
        for lang in LANGS:
            assert step_text(stored, lang) == describe_events(step.events, lang) == step.describe(catalogue_message(lang))


@pytest.mark.parametrize("content, expected", [
    (None, "no such file"),
    ("steps:\n  with_effects: '{action} ({effects})'\n", "missing the step texts"),
    ("steps: [", "en.yaml"),
])
def test_the_solvers_reader_names_the_file_and_the_problem(tmp_path, content, expected):
    from solver.game.errors import SolverError
    from solver.io.catalogue import catalogue_message
    if content is not None:
        (tmp_path / "en.yaml").write_text(content, encoding="utf-8")
    with pytest.raises(SolverError, match=expected):
        catalogue_message("en", tmp_path)
