"""Seeded fuzzing of every kind of file a person writes: the shipped puzzles, a plan, the data
files. Each mutant goes through its CLI (``solver validate``/``solve``/``replay``,
``generator validate``) in a forked child (``tests/badinput/harness.py``), or through the
shared loader for the bulk of the data-file mutants, and must give:

* no traceback and no hang (each case within a few seconds);
* a documented exit code: 0 (the mutant is still a fine file), 1 (a legal input with no answer:
  an illegal or incomplete plan, no legal plan), 2 (bad input);
* on exit 2, a message naming the file and the line or the field.

The seed is fixed (``CELLULA_FUZZ_SEED`` picks another) so a failure reproduces; every case's
name says which mutation made it.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
from pathlib import Path

import pytest

from badinput import harness
from solver.io.loading import LoadError, load_json, load_yaml

ROOT = Path(__file__).resolve().parent.parent
SEED = int(os.environ.get("CELLULA_FUZZ_SEED", "13"))
PUZZLES = sorted((ROOT / "data" / "puzzles").glob("*.yaml"))
DATA_FILES = [ROOT / "data" / name for name in ("glossary.yaml", "i18n/it.yaml", "cards/cytosis.yaml",
                                                  "rules/cytosis/game.yaml", "editions/cytosis.yaml")]
PLAN = [{"kind": "place", "spot": "smooth-er-lipids-3"},
        {"kind": "place", "spot": "smooth-er-detox", "card": "steroid-hormone-9", "grey": True},
        {"kind": "place", "spot": "nucleus-3"},
        {"kind": "place", "spot": "golgi-1", "card": "steroid-hormone-9"},
        {"kind": "place", "spot": "exocytosis-1", "card": "steroid-hormone-9"}]
"""The optimal plan of grey-rush-2e."""

HOSTILE_VALUES = ["10000000000", "1000", "-1", "8.0", "2.5", "true", "false", "'false'", "null", "~", "[]", "{}",
                  "1e3", "0x10", ".inf", ".nan", "yes", "2024-01-01", "!!binary aGk=", "&anchor x", "*nowhere",
                  "'", '"', "{", "[", ":", "- x", "'" + "x" * 300 + "'", "nucleus-3", "3e", "boost-foo",
                  "[1, '1']", "{1: [a], '1': [b]}", "!!python/object/apply:os.system ['true']"]
HOSTILE_BYTES = [b"\xff", b"\x00", b"\xef\xbb\xbf", b"\r", b"\t", b"\xc3", b"\x85", b"\xe2\x80\xa8", b"\x1b"]
HOSTILE_JSON = [None, True, False, "false", "true", 0, -1, 10 ** 20, 1.5, "", [], {}, "nucleus-3", "x" * 500, "1",
                "place", "exhaust", "atp", "gold"]


# --------------------------------------------------------------------------- mutations

def _lines(text: str) -> list[str]:
    return text.split("\n")


def mutate_yaml(text: str, rng: random.Random) -> tuple[str, bytes]:
    """One random mutation of a YAML text: (what was done, the mutant's bytes)."""
    lines = _lines(text)
    i = rng.randrange(len(lines))
    op = rng.choice(["value", "value", "value", "delete", "duplicate", "swap", "bytes", "truncate", "indent",
                     "key", "nest"])
    if op == "value":
        candidates = [n for n, line in enumerate(lines) if re.search(r":\s+\S", line)]
        i = rng.choice(candidates) if candidates else i
        value = rng.choice(HOSTILE_VALUES)
        line = lines[i]
        flow = list(re.finditer(r"(\w+):\s*([^,{}\[\]]+)", line))
        if flow and rng.random() < 0.6:  # a value inside a flow mapping, e.g. start: {atp: 8, ...}
            m = rng.choice(flow)
            lines[i] = line[:m.start(2)] + value + line[m.end(2):]
        else:
            lines[i] = re.sub(r":\s+.*$", ": " + value, line, count=1)
        return f"value line {i + 1} -> {value!r}", "\n".join(lines).encode()
    if op == "delete":
        del lines[i]
        return f"delete line {i + 1}", "\n".join(lines).encode()
    if op == "duplicate":
        lines.insert(i, lines[i])
        return f"duplicate line {i + 1}", "\n".join(lines).encode()
    if op == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return f"swap lines {i + 1} and {j + 1}", "\n".join(lines).encode()
    if op == "bytes":
        raw = text.encode()
        at = rng.randrange(len(raw) + 1)
        junk = rng.choice(HOSTILE_BYTES)
        return f"insert {junk!r} at byte {at}", raw[:at] + junk + raw[at:]
    if op == "truncate":
        raw = text.encode()
        at = rng.randrange(len(raw) + 1)
        return f"truncate at byte {at}", raw[:at]
    if op == "indent":
        lines[i] = (" " * rng.choice([1, 2, 3, 8])) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
        return f"re-indent line {i + 1}", "\n".join(lines).encode()
    if op == "key":
        key = rng.choice(["1", "yes", "~", "'1'", "? [a]", "<<", "1.5"])
        lines[i] = re.sub(r"^(\s*)[\w-]+:", lambda m: m.group(1) + key + ":", lines[i], count=1)
        return f"key of line {i + 1} -> {key!r}", "\n".join(lines).encode()
    depth = rng.choice([40, 1000])
    lines.insert(i, "zz: " + "[" * depth + "]" * depth)
    return f"nest {depth} deep at line {i + 1}", "\n".join(lines).encode()


def mutate_plan(rng: random.Random) -> tuple[str, bytes]:
    """One random mutation of the grey-rush-2e plan."""
    plan = json.loads(json.dumps(PLAN))
    op = rng.choice(["field", "field", "field", "drop", "extra", "reorder", "shape", "text"])
    i = rng.randrange(len(plan))
    if op == "field":
        key = rng.choice(["kind", "spot", "grey", "card", "amount", "resource", "goal", "bump"])
        value = rng.choice(HOSTILE_JSON)
        plan[i][key] = value
        return f"plan[{i}].{key} = {value!r}"[:80], json.dumps(plan).encode()
    if op == "drop":
        key = rng.choice(sorted(plan[i]))
        del plan[i][key]
        return f"drop plan[{i}].{key}", json.dumps(plan).encode()
    if op == "extra":
        plan[i][rng.choice(["colour", "Spot", "", "grey "])] = 1
        return f"unknown field in plan[{i}]", json.dumps(plan).encode()
    if op == "reorder":
        rng.shuffle(plan)
        return "shuffle the actions", json.dumps(plan).encode()
    if op == "shape":
        shape = rng.choice([{"plan": plan}, {"plan": {"0": plan[0]}}, plan[0], [plan], {"steps": plan}, None, 5])
        return f"reshape as {type(shape).__name__}", json.dumps(shape).encode()
    raw = json.dumps(plan, indent=1).encode()
    at = rng.randrange(len(raw) + 1)
    junk = rng.choice(HOSTILE_BYTES + [b",", b"]", b"{", b"NaN", b"Infinity", b"//", b"'"])
    return f"insert {junk!r} at byte {at}", raw[:at] + junk + raw[at:]


# --------------------------------------------------------------------------- cases

def _case(name: str, cli: str, args: list[str], files: dict[str, bytes] | None = None, ops=None,
          seconds: float = 5.0) -> dict:
    return {"name": name, "cli": cli, "args": args, "files": files or {}, "ops": ops, "seconds": seconds,
            "expect": {"exit": None, "mentions": []}}


def puzzle_cases(count: int, command: str = "validate", extra=(), seconds: float = 5.0, salt: str = "") -> list[dict]:
    rng = random.Random(f"{SEED}-puzzles-{command}{salt}")
    out = []
    for n in range(count):
        source = rng.choice(PUZZLES)
        what, mutant = mutate_yaml(source.read_text(encoding="utf-8"), rng)
        out.append(_case(f"{command}-{source.stem}-{n}: {what}", "solver",
                         [command, f"{{case}}/{source.name}", *extra], {source.name: mutant}, seconds=seconds))
    return out


def plan_cases(count: int) -> list[dict]:
    rng = random.Random(f"{SEED}-plans")
    puzzle = str(ROOT / "data" / "puzzles" / "grey-rush-2e.yaml")
    out = []
    for n in range(count):
        what, mutant = mutate_plan(rng)
        out.append(_case(f"replay-{n}: {what}", "solver", ["replay", puzzle, "{case}/plan.json"],
                         {"plan.json": mutant}))
    return out


def data_cli_cases(count: int) -> list[dict]:
    rng = random.Random(f"{SEED}-data-cli")
    out = []
    for n in range(count):
        source = DATA_FILES[n % len(DATA_FILES)]
        what, mutant = mutate_yaml(source.read_text(encoding="utf-8"), rng)
        rel = source.relative_to(ROOT / "data").as_posix()
        out.append(_case(f"generator-{rel}-{n}: {what}", "generator", ["--data", "{data}", "validate"],
                         ops=[{"file": rel, "write_hex": mutant.hex()}], seconds=25.0))
    return out


CLI_CASES = (puzzle_cases(90) + puzzle_cases(6, "solve", ("--time-limit", "1", "--no-confirm"), seconds=6.0)
             + plan_cases(60) + data_cli_cases(5))
"""Every forked case (about 160): mostly fast validations, a few time-limited solves and data builds."""


@pytest.fixture(scope="session")
def cli_outcomes() -> dict:
    harness.preload()
    return {o.name: o for o in harness.run_all(CLI_CASES, jobs=2)}


def _names_place(output: str, file_name: str) -> bool:
    """The message names the file with a line (``p.yaml:12``) or a field (``p.yaml: start.atp:``)."""
    name = re.escape(file_name)
    return bool(re.search(rf"{name}:\d+", output) or re.search(rf"{name}: [\w.\[\]-]+: ", output))


@pytest.mark.parametrize("case", CLI_CASES, ids=[c["name"][:90] for c in CLI_CASES])
def test_cli_mutant(case, cli_outcomes):
    outcome = cli_outcomes[case["name"]]
    assert outcome.kind not in ("traceback", "hang"), f"{outcome.kind}: {outcome.why}\n{outcome.output}"
    assert outcome.exit in (0, 1, 2), outcome.output
    if outcome.exit == 2:
        if case["cli"] == "generator":
            file_name = case["ops"][0]["file"]
        else:
            file_name = next(iter(case["files"]))
        assert _names_place(outcome.output, file_name), outcome.output
    if outcome.exit == 1 and case["args"][0] == "replay":
        assert "plan[" in outcome.output or "incomplete" in outcome.output, outcome.output
    if case["args"][0] == "solve":
        # processor time: the time limit holds for the solve, however busy the machine is
        assert outcome.cpu_seconds < case["seconds"], (outcome.cpu_seconds, outcome.seconds)


def loader_cases(count: int) -> list[tuple[str, Path, bytes]]:
    rng = random.Random(f"{SEED}-loader")
    out = []
    for n in range(count):
        source = rng.choice(DATA_FILES + PUZZLES)
        what, mutant = mutate_yaml(source.read_text(encoding="utf-8"), rng)
        out.append((f"{source.name}-{n}: {what}", source, mutant))
    return out


LOADER_CASES = loader_cases(300)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


@pytest.mark.parametrize("name,source,mutant", LOADER_CASES, ids=[c[0][:90] for c in LOADER_CASES])
def test_loader_mutant(name, source, mutant, tmp_path):
    """The shared loader on a mutated data file: values, or one LoadError naming file and line."""
    path = tmp_path / source.name
    path.write_bytes(mutant)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(5)
    try:
        load_yaml(path)
    except LoadError as err:
        assert err.file.endswith(source.name) and str(err).startswith(err.file)
        assert err.line is not None or "cannot read" in err.detail or "too large" in err.detail, str(err)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("n", range(40))
def test_json_loader_mutant(n, tmp_path):
    """The shared loader on a mutated plan: values, or one LoadError naming file and line."""
    what, mutant = mutate_plan(random.Random(f"{SEED}-json-{n}"))
    path = tmp_path / "plan.json"
    path.write_bytes(mutant)
    try:
        load_json(path)
    except LoadError as err:
        assert str(err).startswith(err.file) and err.file.endswith("plan.json"), (what, str(err))


# --------------------------------------------------------------------------- issue #38: per file kind,
# wrong-kind fields, control characters, huge values and malformed placeholders

from solver.game.engine import ActionKind  # noqa: E402
from solver.game.messages import MessageFormatError, format_message, placeholder_fault  # noqa: E402
from solver.io.plans import FIELDS as PLAN_FIELDS, kind_fields  # noqa: E402

CONTROL_CHARS = ["\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\r", "\x1b", "\x1b[31m", "\x7f", "\x85", "\x9b",
                 "\ud800", "\udfff"]
"""Control characters (other than tab and newline) and lone surrogates: refused in every text field."""
HUGE_VALUES = [1000, 10 ** 6, 10 ** 10, 10 ** 20, 2 ** 63, -(2 ** 63), 10 ** 400, 1e308, -1e308, 1e-308]


def _yaml_escape(char: str) -> str:
    """``char`` as a YAML double-quoted escape (how a person would type a control character)."""
    first = "\\x%02x" % ord(char[0]) if ord(char[0]) < 0x100 else "\\u%04x" % ord(char[0])
    return first + char[1:]


def wrong_kind_plan_cases(count: int) -> list[dict]:
    """Plans whose one step carries a field its kind does not have (a placement's ``take``, an
    exhausted flask's ``disk``...), or a control character in a text field."""
    rng = random.Random(f"{SEED}-wrong-kind")
    puzzle = str(ROOT / "data" / "puzzles" / "grey-rush-2e.yaml")
    base = {ActionKind.PLACE: {"spot": "nucleus-3"}, ActionKind.EXHAUST: {"resource": "atp"},
            ActionKind.PLAY_CARD: {"card": "steroid-hormone-9"}, ActionKind.TRADE: {"resource": "lipid"},
            ActionKind.INCOME: {"resource": "atp"}, ActionKind.PEEK: {"order": []},
            ActionKind.END_TURN: {}, ActionKind.VACCINATE: {"amount": 0}, ActionKind.RESPOND: {"lose": "health"}}
    samples = {"spot": "nucleus-3", "grey": True, "card": "steroid-hormone-9", "amount": 1, "resource": "atp",
               "goal": "g", "bump": "opp1", "disk": "steroid-hormone-9", "extra": True, "order": [],
               "take": ["atp"], "lose": "atp"}
    out = []
    for n in range(count):
        plan = json.loads(json.dumps(PLAN))
        i = rng.randrange(len(plan))
        if n % 3 == 2:          # a control character in a text field
            field = rng.choice(["spot", "card"])
            char = rng.choice(CONTROL_CHARS)
            plan[i][field] = "nucleus-3" + char
            what, must = f"plan[{i}].{field} with U+{ord(char[0]):04X}", field
        else:
            kind = rng.choice(list(ActionKind))
            wrong = sorted(set(PLAN_FIELDS) - kind_fields(kind) - {"kind"})
            field = rng.choice(wrong)
            plan[i] = {"kind": kind.value, **base[kind], field: samples[field]}
            what, must = f"plan[{i}] {kind.value} with {field}", f"plan[{i}].{field}"
        case = _case(f"replay-wrong-kind-{n}: {what}", "solver", ["replay", puzzle, "{case}/plan.json", "--json"],
                     {"plan.json": json.dumps(plan).encode()})
        case["expect"] = {"exit": 2, "mentions": [must]}
        out.append(case)
    return out


def hostile_puzzle_cases(count: int) -> list[dict]:
    """Puzzles with a control character in a text field (written as a YAML escape) or a huge value
    in an amount: ``solver validate`` refuses each, naming file, line and field."""
    rng = random.Random(f"{SEED}-hostile-puzzle")
    source = ROOT / "data" / "puzzles" / "grey-rush-2e.yaml"
    text = source.read_text(encoding="utf-8")
    out = []
    for n in range(count):
        if n % 2 == 0:
            char = rng.choice(CONTROL_CHARS)
            mutant = re.sub(r'(\n  en: ")', lambda m: m.group(1) + _yaml_escape(char), text, count=1)
            # YAML itself refuses a surrogate escape (a syntax error at the line): no field to name
            what, must = f"title.en with U+{ord(char[0]):04X}", "" if "\ud800" <= char[0] <= "\udfff" else "title.en"
        else:
            field = rng.choice(["atp", "mrna", "carb", "lipid", "health"])
            value = rng.choice(HUGE_VALUES)
            mutant = re.sub(rf"\b{field}: \d+", f"{field}: {value}", text, count=1)
            if mutant == text:
                mutant = text.replace("start: {", f"start: {{{field}: {value}, ", 1)
            what, must = f"start.{field} = {value}", f"start.{field}"
        case = _case(f"validate-hostile-{n}: {what}", "solver", ["validate", f"{{case}}/{source.name}"],
                     {source.name: mutant.encode()})
        case["expect"] = {"exit": 2, "mentions": [must] if must else []}
        out.append(case)
    return out


HOSTILE_CASES = wrong_kind_plan_cases(24) + hostile_puzzle_cases(16)


@pytest.fixture(scope="session")
def hostile_outcomes() -> dict:
    harness.preload(data_cases=False)
    return {o.name: o for o in harness.run_all(HOSTILE_CASES, jobs=2)}


@pytest.mark.parametrize("case", HOSTILE_CASES, ids=[c["name"][:90] for c in HOSTILE_CASES])
def test_hostile_field(case, hostile_outcomes):
    """A wrong-kind field, a control character or a huge value: exit 2 naming the file and field."""
    outcome = hostile_outcomes[case["name"]]
    assert outcome.kind not in ("traceback", "hang"), f"{outcome.kind}: {outcome.why}\n{outcome.output}"
    assert outcome.exit == 2, outcome.output
    file_name = next(iter(case["files"]))
    assert _names_place(outcome.output, file_name), outcome.output
    for must in case["expect"]["mentions"]:
        assert must in outcome.output, (must, outcome.output)


_PLACEHOLDER_JUNK = ["{", "}", "{}", "{0}", "{1}", "{ n}", "{n }", "{n.x}", "{n.__class__.__name__}", "{n[0]}",
                     "{lang[0]}", "{n!r}", "{n!s}", "{n!z}", "{n:>999999}", "{n:>999999999}", "{n:.999}",
                     "{n:{w}}", "{n:x}", "{n:,}", "{n:%}", "{n:0>5}", "{{n}}", "{n}}", "{{n}", "{é}", "{n-1}",
                     "{:>5}", "{n:}", "{\x00}", "{n:>81}", "{n:.7}"]


def placeholder_cases(count: int) -> list[tuple[str, str]]:
    rng = random.Random(f"{SEED}-placeholders")
    words = ["Gioca", "carta", "ATP", "{n}", "{card}", " ", "(", ")", "Health"]
    out = []
    for n in range(count):
        parts = [rng.choice(words) for _ in range(rng.randrange(0, 4))]
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_PLACEHOLDER_JUNK))
        out.append((f"placeholder-{n}", " ".join(parts)))
    return out


PLACEHOLDER_CASES = placeholder_cases(120)


@pytest.mark.parametrize("name,text", PLACEHOLDER_CASES, ids=[c[0] for c in PLACEHOLDER_CASES])
def test_malformed_placeholder(name, text):
    """A malformed placeholder is refused by the catalogue check and never evaluated or expanded
    by the formatter (no attribute or index access, no megabyte of padding)."""
    fault = placeholder_fault(text)
    assert fault is not None and "placeholder" in fault, text
    with pytest.raises(MessageFormatError):
        format_message(text, {"n": 3, "card": "x", "lang": "it", "w": 9})


@pytest.mark.parametrize("n", range(60))
def test_wellformed_placeholders_are_bounded(n):
    """Any well-formed text fills in, its output no longer than the text plus the values and the
    widest allowed padding."""
    rng = random.Random(f"{SEED}-fine-{n}")
    specs = ["", ":5", ":>80", ":<3", ":^7", ":.2", ":>9.3"]
    text = " ".join(rng.choice(["a", "{n}", "{v}", "b c"]) .replace("}", rng.choice(specs) + "}")
                    for _ in range(rng.randrange(1, 6)))
    assert placeholder_fault(text) is None, text
    values = {"n": rng.choice([1, 2.5, "x", True]), "v": "y" * rng.randrange(0, 5)}
    out = format_message(text, values)
    assert len(out) <= len(text) + text.count("{") * 90


def test_solver_reader_refuses_a_malformed_catalogue_text(tmp_path):
    """The solver's own catalogue reader (``python -m solver``) refuses what the site's check does,
    naming the file, the line, the key and the placeholder."""
    from solver.game.errors import SolverError
    from solver.io.catalogue import catalogue_message
    source = (ROOT / "data" / "i18n" / "en.yaml").read_text(encoding="utf-8")
    for n, bad in enumerate( ("{card.__class__}", "{card:>999999999}", "{", "{card!r}", "{lang}")):
        folder = tmp_path / f"c{n}"
        folder.mkdir()
        import yaml
        data = yaml.safe_load(source)
        data["steps"]["play_card"] = "Play " + bad
        (folder / "en.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        with pytest.raises(SolverError) as err:
            catalogue_message("en", folder=folder, namespace="steps")
        message = str(err.value)
        assert re.search(r"en\.yaml:\d+: steps\.play_card: ", message), message
        assert bad in message, message


RECORDING = ROOT / "data" / "puzzles" / "games" / "whole-game-2e.result.json"
RECORDING_FIELDS = ["puzzle", "health", "bound", "gap_percent", "seconds", "time_limit", "workers", "warm_start",
                    "recorded", "machine", "solver_version", "plan"]


def recording_mutants(count: int) -> list[tuple[str, dict]]:
    rng = random.Random(f"{SEED}-recordings")
    data = json.loads(RECORDING.read_text(encoding="utf-8"))
    out = []
    for n in range(count):
        mutant = json.loads(json.dumps(data))
        field = rng.choice(RECORDING_FIELDS)
        op = rng.choice(["wrong-kind", "control", "huge", "drop"])
        if op == "wrong-kind":
            value: object = rng.choice([None, True, "2", [], {}, 1.5, "", -1, 0])
        elif op == "control":
            value = "x" + rng.choice(CONTROL_CHARS) + "y"
        elif op == "huge":
            value = rng.choice(HUGE_VALUES)
        if op == "drop":
            del mutant[field]
        else:
            mutant[field] = value
        out.append((f"recording-{n}: {op} {field}", mutant))
    return out


RECORDING_MUTANTS = recording_mutants(60)


@pytest.fixture(scope="module")
def whole_game():
    from solver.io.puzzle import load_puzzle
    return load_puzzle(RECORDING.with_name("whole-game-2e.yaml"))


@pytest.mark.parametrize("name,mutant", RECORDING_MUTANTS, ids=[c[0] for c in RECORDING_MUTANTS])
def test_recording_mutant(name, mutant, whole_game, tmp_path):
    """A recorded run with a wrong-kind, unprintable, huge or missing field: one RecordingError
    naming the file, the line and the field (or accepted when the value still means the same)."""
    from solver.io.offline import RecordingError, load_recording
    path = tmp_path / RECORDING.name
    path.write_text(json.dumps(mutant, indent=1), encoding="utf-8")
    try:
        load_recording(path, whole_game)
    except RecordingError as err:
        message = str(err)
        assert re.search(rf"{re.escape(RECORDING.name)}:\d+: ", message), message
        field = name.split()[-1]
        assert field in message or "plan[" in message, (field, message)
