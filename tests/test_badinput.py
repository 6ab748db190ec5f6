"""The named bad-input corpus (``tests/badinput``): every case gets its documented exit code and
a message naming the file and the line or field: no traceback, no silent acceptance, no hang.

The cases run once per session, two at a time, each in a forked child with a wall-clock and
memory limit; a child that ends is held to its case's seconds in processor time (see
``tests/badinput/harness.py``); each case is then its own test.
"""
from __future__ import annotations

import pytest

from badinput import harness  # tests/ is on sys.path (rootdir conftest)

CASES = harness.manifest()


@pytest.fixture(scope="session")
def outcomes() -> dict:
    harness.preload()
    return {o.name: o for o in harness.run_all(CASES, jobs=2)}


def test_corpus_is_large_and_named():
    names = [c["name"] for c in CASES]
    assert len(names) >= 200 and len(set(names)) == len(names)
    for must in ("puzzle-2e-alias-bomb", "data-glossary-alias-bomb", "puzzle-2e-atp-huge", "puzzle-2e-atp-float",
                 "puzzle-2e-atp-bool", "plan-grey-string-false", "puzzle-2e-duplicate-key", "puzzle-2e-mixed-keys",
                 "puzzle-2e-latin1", "puzzle-2e-bom", "puzzle-2e-deep-100000", "puzzle-symlink-loop",
                 "puzzle-2e-edition-3e", "time-limit-exhaustive", "time-limit-cpsat-fallback",
                 # issue #38
                 "data-ui-placeholder-attribute", "data-ui-placeholder-width-giant", "plan-place-with-take",
                 "plan-exhaust-with-disk", "data-recording-workers-0", "data-recording-machine-nul",
                 "cli-record-out-folder", "cli-generator-export-empty", "plan-spot-surrogate",
                 "puzzle-2e-title-escape", "data-quickref-duplicate-group", "data-glossary-preferred-forbidden",
                 "time-limit-huge-spots-cpsat", "time-limit-huge-detox-hand-exhaustive", "time-limit-whole-game-cpsat"):
        assert must in names


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case, outcomes):
    outcome = outcomes[case["name"]]
    assert outcome.kind == "clear", f"{outcome.kind}: {outcome.why}\n{outcome.output}"


@pytest.mark.parametrize("wall,cpu,kind", [(30.0, 1.0, "clear"), (1.0, 6.0, "hang"), (6.0, 6.0, "hang")])
def test_case_limit_holds_processor_time(wall, cpu, kind):
    """A case's seconds hold the child's processor time: a busy machine stretches the wall clock
    (the select limit still stops a child that waits forever), a loop that ignores its limit does not."""
    case = {"name": "limit", "seconds": 5.0, "expect": {"exit": 2, "mentions": []}}
    outcome = harness.classify(case, 2, wall, "p.yaml:3: error", cpu)
    assert outcome.kind == kind and outcome.cpu_seconds == cpu
    if kind == "hang":
        assert f"{cpu:.1f} s of processor time" in outcome.why
