"""The planner's model of every shipped puzzle is the one recorded in ``tests/golden/model-digests.json``.

A restructuring of ``solver.optimise.planner.build_model`` must emit the same model (same variables by
name and bounds, same rows, same objective; the order they are built in aside): this test names
each puzzle whose model moved. After an intended model change, rewrite the file with
``python tools/model_digest.py write --shipped tests/golden/model-digests.json`` and say in the
commit why the model changed. The deck suite's models are checked by hand (``python
tools/model_digest.py check FILE`` on a file written before the change), to keep this test fast.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from solver.encoding.linear import LinearModel
from solver.io.puzzle import puzzle_files

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "python tools/model_digest.py write --shipped tests/golden/model-digests.json"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("model_digest_under_test", ROOT / "tools" / "model_digest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


md = _load_tool()


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return json.loads(md.GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", puzzle_files(), ids=lambda p: p.stem)
def test_shipped_puzzle_model_matches_golden_digest(path: Path, golden: dict[str, str]) -> None:
    now = md.digest(path)
    assert now == golden.get(path.stem), (
        f"{path.stem}: the planner's model changed ({(golden.get(path.stem) or 'not modelled')[:12]} -> "
        f"{(now or 'not modelled')[:12]}). A restructuring must not change the model; after an intended "
        f"change run '{REGENERATE}' and commit the file with the reason.")


def _small_model(order: int, ub: int = 3) -> LinearModel:
    """The same two-variable model, built in one order or the other."""
    lm = LinearModel()
    if order == 0:
        a, b = lm.bool("a"), lm.int("b", 0, ub)
        lm.le(a + b, 2)
        lm.eq(b, a)
    else:
        b, a = lm.int("b", 0, ub), lm.bool("a")
        lm.eq(b, a)
        lm.le(b + a, 2)
    lm.maximize(a + b)
    return lm


def test_canonical_form_ignores_build_order() -> None:
    assert md.canonical(_small_model(0)) == md.canonical(_small_model(1))


@pytest.mark.parametrize("change", ["bound", "row", "objective", "name"])
def test_canonical_form_sees_every_model_change(change: str) -> None:
    lm = _small_model(0, ub=4 if change == "bound" else 3)
    if change == "row":
        lm.ge(lm.vars[1], 1)
    elif change == "objective":
        lm.maximize(lm.vars[1])
    elif change == "name":
        lm.bool("unused")
    assert md.canonical(lm) != md.canonical(_small_model(0))


def test_variables_sharing_a_name_are_told_apart_by_rank() -> None:
    one, two = LinearModel(), LinearModel()
    for lm, bounds in ((one, [(0, 1), (0, 5)]), (two, [(0, 5), (0, 1)])):
        first, _ = (lm.int("v", lo, hi) for lo, hi in bounds)
        lm.le(first, 1)
    assert md.canonical(one) != md.canonical(two)


def test_changes_names_each_puzzle_whose_model_moved() -> None:
    assert md.changes({"a": "1" * 64, "b": "2" * 64}, {"a": "1" * 64, "b": "3" * 64, "c": "4" * 64}) == [
        "b: model changed (222222222222 -> 333333333333)", "c: model changed (absent -> 444444444444)"]


def test_check_refuses_a_file_that_is_not_digests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "digests.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert md.main(["check", "--shipped", str(bad)]) == 2
    assert "expected an object of puzzle id -> digest" in capsys.readouterr().err
    assert md.main(["check", str(tmp_path / "missing.json")]) == 2
    assert "python tools/model_digest.py write" in capsys.readouterr().err
