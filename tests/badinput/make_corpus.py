"""Write the named bad-input corpus: ``tests/badinput/cases/<name>/`` and ``manifest.json``.

Run ``python tests/badinput/make_corpus.py`` to regenerate (deterministic). Each case is one
command of a CLI (``solver`` or ``generator``) with its arguments, and what the documented
behaviour is: the exit code (0 answer, 1 illegal plan / no legal plan / open findings, 2 bad
input or usage) and the strings the message must contain (the file and the line or field).

Puzzle and plan cases are files derived from the shipped puzzles (committed, so that the
corpus keeps its meaning when the shipped puzzles change). Data cases are recipes applied by
the harness to a copy of the current ``data/`` (``ops``), so that they follow the data.
Placeholders in arguments: ``{case}`` the case folder, ``{data}`` the data copy, ``{root}`` the
repository root.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CASES = HERE / "cases"
PUZZLES = ROOT / "data" / "puzzles"

BASES = ("grey-rush-2e", "toxic-hoard-1e")
"""Shipped puzzles the puzzle cases mutate (one per edition)."""

GREY_RUSH_PLAN = [
    {"kind": "place", "spot": "smooth-er-lipids-3"},
    {"kind": "place", "spot": "smooth-er-detox", "card": "steroid-hormone-9", "grey": True},
    {"kind": "place", "spot": "nucleus-3"},
    {"kind": "place", "spot": "golgi-1", "card": "steroid-hormone-9"},
    {"kind": "place", "spot": "exocytosis-1", "card": "steroid-hormone-9"},
]
"""The proven optimal plan of grey-rush-2e (9 Health Points)."""

BOMB = ("lol_bomb:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)))
"""A "billion laughs": 9 ** 9 values once its aliases are expanded."""

cases: list[dict] = []


def add(name: str, about: str, cli: str, args: list[str], exit: int, mentions: list[str],
        files: dict[str, bytes | str | tuple] | None = None, ops: list[dict] | None = None,
        seconds: float = 10.0, absent: list[str] | None = None) -> None:
    """Register a case; ``files`` maps a name in the case folder to its bytes/text, or to
    ``("symlink", target)`` / ``("dir",)``."""
    assert not any(c["name"] == name for c in cases), name
    case = {"name": name, "about": about, "cli": cli, "args": args,
            "expect": {"exit": exit, "mentions": mentions, **({"absent": absent} if absent else {})}, "seconds": seconds}
    if ops:
        case["ops"] = ops
    cases.append(case)
    folder = CASES / name
    for rel, content in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, tuple):
            if content[0] == "symlink":
                os.symlink(content[1], path)
            else:
                path.mkdir()
        else:
            path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)


def base_text(base: str) -> str:
    return (PUZZLES / f"{base}.yaml").read_text(encoding="utf-8")


def base_data(base: str) -> dict:
    return yaml.safe_load(base_text(base))


def dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)


def set_path(data, path, value):
    target = data
    for part in path[:-1]:
        target = target[part]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value


_DELETE = object()


def puzzle_case(name, about, base, text, exit=2, mentions=(), command="validate", extra=(), seconds=10.0):
    file = f"{base}.yaml"
    add(name, about, "solver", [command, f"{{case}}/{file}", *extra], exit, [file, *mentions],
        files={file: text}, seconds=seconds)


def field_cases() -> None:
    """One wrong value per field: out of range, wrong type, unknown enum value."""
    wrong = [
        # (field path, value, slug, what)
        (("start", "atp"), 10_000_000_000, "atp-huge", "10 billion ATP (beyond the documented maximum)"),
        (("start", "atp"), 1000, "atp-1000", "1000 ATP, one above the documented maximum 999"),
        (("start", "atp"), -1, "atp-negative", "a negative amount"),
        (("start", "atp"), 8.0, "atp-float", "8.0: a float where an integer is expected"),
        (("start", "atp"), 2.5, "atp-fraction", "2.5 ATP"),
        (("start", "atp"), True, "atp-bool", "true as an amount"),
        (("start", "atp"), "8", "atp-string", "'8' as text"),
        (("start", "atp"), None, "atp-null", "null as an amount"),
        (("start", "atp"), [8], "atp-list", "a list as an amount"),
        (("start", "atp"), "1e3", "atp-exponent", "1e3, which YAML 1.1 reads as text"),
        (("start", "health"), 10 ** 30, "health-huge", "Health beyond any integer OR-Tools takes"),
        (("start", "gold"), 1, "start-unknown-resource", "an unknown resource in the stock"),
        (("rounds",), 0, "rounds-0", "zero rounds"),
        (("rounds",), 13, "rounds-13", "13 rounds, above the maximum 12"),
        (("rounds",), 2.0, "rounds-float", "2.0 rounds"),
        (("rounds",), True, "rounds-bool", "true rounds"),
        (("rounds",), "2", "rounds-string", "'2' rounds"),
        (("rounds",), 10 ** 20, "rounds-huge", "10^20 rounds"),
        (("flasks",), 5, "flasks-5", "5 flasks, above the maximum 4"),
        (("flasks",), 0, "flasks-0", "no flask"),
        (("flasks",), False, "flasks-bool", "false flasks"),
        (("grey_flasks",), 3, "grey-3", "3 grey flasks (at most 2)"),
        (("grey_flasks",), "2", "grey-string", "'2' grey flasks"),
        (("grey_flasks",), True, "grey-bool", "true grey flasks"),
        (("players",), 6, "players-6", "6 players"),
        (("players",), True, "players-bool", "true players"),
        (("grade",), 0, "grade-0", "grade 0"),
        (("grade",), 9.5, "grade-float", "grade 9.5"),
        (("seat",), "1", "seat-string", "seat '1'"),
        (("seat",), 6, "seat-6", "seat 6"),
        (("first_player",), "false", "first-player-string", "'false' as text where a boolean is expected"),
        (("first_player",), 1, "first-player-int", "1 where a boolean is expected"),
        (("edition",), "3e", "edition-3e", "an unknown edition"),
        (("edition",), 1, "edition-int", "edition 1 (an integer)"),
        (("board",), "4p", "board-4p", "an unknown board side"),
        (("objective",), "min-health", "objective-unknown", "an unknown objective"),
        (("events",), ["boost-foo"], "event-unknown", "an unknown event"),
        (("events",), "boost-nucleus", "events-string", "one event as text instead of a list"),
        (("events",), [1], "event-int", "an event given as a number"),
        (("hand",), "steroid-hormone-9", "hand-string", "the hand as text"),
        (("hand",), [1], "hand-int", "a card id given as a number"),
        (("hand",), ["Unknown Card"], "hand-bad-id", "an id with capitals and a space"),
        (("hand",), ["no-such-card"], "hand-unknown-card", "a card not under `cards:`"),
        (("deck",), [None], "deck-null", "null in the deck"),
        (("row",), ["a", "b", "c", "d", "e", "f"], "row-too-long", "more cards than row slots"),
        (("occupied",), {0: ["nucleus-3"]}, "occupied-round-0", "round 0"),
        (("occupied",), {99: ["nucleus-3"]}, "occupied-round-99", "a round past the last"),
        (("occupied",), {"x": []}, "occupied-round-text", "a round named x"),
        (("occupied",), {1: "nucleus-3"}, "occupied-not-list", "a spot instead of a list"),
        (("occupied",), {1: ["nowhere-9"]}, "occupied-unknown-spot", "an unknown spot"),
        (("occupied",), {10 ** 20: ["nucleus-3"]}, "occupied-round-huge", "round 10^20"),
        (("colour",), "red", "unknown-field", "an unknown top-level field"),
        (("rounds",), _DELETE, "missing-rounds", "the required field rounds missing"),
        (("title",), "Grey", "title-string", "a title without languages"),
        (("title",), {"en": "Only English"}, "title-no-it", "a title without Italian"),
        (("title", "en"), "", "title-empty", "an empty English title"),
        (("title", "en"), 42, "title-number", "a number as title"),
        (("id",), "Bad Id", "id-bad", "an id with capitals and a space"),
        (("id",), "another-id", "id-not-file", "an id that is not the file name"),
        (("expected",), {"health": "9"}, "expected-string", "expected health as text"),
        (("expected",), {"health": 10 ** 12}, "expected-huge", "expected health 10^12"),
        (("opponents",), {"detox": [{"amount": 10 ** 10, "cards": 1}]}, "detox-huge", "10^10 detoxified ATP"),
        (("opponents",), {"detox": [{"amount": 1.0, "cards": 1}]}, "detox-float", "1.0 detoxified ATP"),
        (("opponents",), {"disks": [{"area": "nowhere", "health": 1}]}, "disk-area-unknown", "an unknown disk area"),
        (("board_override",), {"row_prices": [10 ** 10, 1, 1, 1]}, "row-price-huge", "a row price of 10^10"),
        (("board_override",), {"row_prices": ["a", 1, 1, 1]}, "row-price-text", "a row price 'a'"),
        (("board_override",), {"spots": {"nucleus": 10 ** 9}}, "spots-huge", "a billion nucleus spots"),
        (("board_override",), {"vesicles": {"golgi": True}}, "vesicles-bool", "true budding locations"),
        (("goals",), [{"id": "g", "card_types": ["hormone"], "count": 1, "points": 1, "illustrative": True}],
         "goal-type-unknown", "a goal counting an unknown card type"),
        (("goals",), [{"id": "g", "count": 1, "points": 10 ** 15, "illustrative": True}], "goal-points-huge",
         "a goal worth 10^15 points"),
        (("goal_markers",), 3, "goal-markers-3", "3 goal markers"),
        (("epigenetic",), "telepathy", "epigenetic-unknown", "an Epigenetic card that does not exist"),
        (("epigenetic",), "early-placement", "epigenetic-not-modelled",
         "an Epigenetic card the engine does not model (2e: none at all)"),
    ]
    for base in BASES:
        edition = base[-2:]
        for path, value, slug, what in wrong:
            data = base_data(base)
            if slug.startswith("row-price") and edition == "2e":
                continue
            set_path(data, path, value)
            shown = ".".join(str(p) for p in path)
            mention = "id" if slug == "id-not-file" else shown.split(".")[0] if slug in (
                "missing-rounds",) else shown
            if slug in ("hand-unknown-card", "hand-bad-id", "hand-int"):
                mention = "hand[0]"
            if slug == "deck-null":
                mention = "deck[0]"
            if slug in ("event-unknown", "event-int"):
                mention = "events[0]"
            if slug.startswith("occupied"):
                mention = "occupied"
            if slug.startswith("goal-") and slug != "goal-markers-3":
                mention = "goals[0]"
            if slug in ("detox-huge", "detox-float"):
                mention = "opponents.detox[0].amount"
            if slug == "disk-area-unknown":
                mention = "opponents.disks[0].area"
            if slug.startswith("row-price"):
                mention = "board_override.row_prices[0]"
            if slug == "spots-huge":
                mention = "board_override.spots.nucleus"
            if slug == "vesicles-bool":
                mention = "board_override.vesicles.golgi"
            if slug == "expected-string" or slug == "expected-huge":
                mention = "expected.health"
            if slug == "missing-rounds":
                mention = "rounds"
            if slug == "row-too-long":
                mention = "row"
            puzzle_case(f"puzzle-{edition}-{slug}", f"{base}: {what}", base, dump(data), mentions=[mention])
    # validate and solve agree: the same bad values through `solve`
    for slug, path, value in (("atp-huge", ("start", "atp"), 10_000_000_000), ("atp-float", ("start", "atp"), 8.0),
                              ("health-huge", ("start", "health"), 10 ** 30), ("grey-string", ("grey_flasks",), "2")):
        data = base_data(BASES[0])
        set_path(data, path, value)
        puzzle_case(f"solve-2e-{slug}", f"solve (not only validate) refuses {slug}", BASES[0], dump(data),
                    mentions=[".".join(path)], command="solve")


def text_cases() -> None:
    """Malformed files: encodings, YAML features, file-system oddities."""
    for base in BASES:
        ed = base[-2:]
        text = base_text(base)
        file = f"{base}.yaml"
        puzzle_case(f"puzzle-{ed}-alias-bomb", "a billion-laughs alias bomb", base, text + BOMB, mentions=["lol_bomb"])
        puzzle_case(f"puzzle-{ed}-alias-bomb-solve", "solve on a billion-laughs alias bomb", base, text + BOMB,
                    mentions=["lol_bomb"], command="solve")
        puzzle_case(f"puzzle-{ed}-duplicate-key", "rounds given twice", base, text + "rounds: 1\n",
                    mentions=["duplicate key 'rounds'"])
        puzzle_case(f"puzzle-{ed}-duplicate-flow-key", "atp given twice in a flow mapping", base,
                    text.replace("start: {atp:", "start: {atp: 3, atp:"), mentions=["duplicate key 'atp'"])
        occupied = next(line for line in text.splitlines() if line.startswith("occupied:"))
        puzzle_case(f"puzzle-{ed}-mixed-keys", "occupied: {1: [...], '1': [...]}", base,
                    text.replace(occupied, "occupied: {1: [nucleus-3], '1': [golgi-1]}"), mentions=["occupied"])
        puzzle_case(f"puzzle-{ed}-latin1", "saved as Latin-1, not UTF-8", base,
                    text.encode("latin-1", errors="replace") if "è" in text or "à" in text
                    else text.encode() + "notes: {en: caf\u00e9, it: caf\u00e9}\n".encode("latin-1"),
                    mentions=["UTF-8"])
        puzzle_case(f"puzzle-{ed}-bad-byte", "a 0xff byte", base, text.encode() + b"# \xff\n", mentions=["UTF-8"])
        puzzle_case(f"puzzle-{ed}-utf16", "saved as UTF-16", base, text.encode("utf-16"), mentions=["UTF-8"])
        puzzle_case(f"puzzle-{ed}-nul", "a NUL byte", base, text.encode() + b"notes: \x00\n", mentions=[])
        puzzle_case(f"puzzle-{ed}-bom", "a UTF-8 byte-order mark: tolerated", base,
                    b"\xef\xbb\xbf" + text.encode(), exit=0, mentions=["ok"])
        puzzle_case(f"puzzle-{ed}-crlf", "Windows line endings: fine", base, text.replace("\n", "\r\n"),
                    exit=0, mentions=["ok"])
        puzzle_case(f"puzzle-{ed}-deep-1000", "a list nested 1000 deep", base,
                    text + "notes: " + "[" * 1000 + "]" * 1000 + "\n", mentions=["nested"])
        puzzle_case(f"puzzle-{ed}-deep-100000", "a list nested 100000 deep", base,
                    text + "notes: " + "[" * 100000 + "]" * 100000 + "\n", mentions=["nested"])
        puzzle_case(f"puzzle-{ed}-deep-mapping", "mappings nested 200 deep", base,
                    text + "notes: " + "{a: " * 200 + "1" + "}" * 200 + "\n", mentions=["nested"])
        puzzle_case(f"puzzle-{ed}-tab-indent", "a tab as indentation", base,
                    text.replace("\n  en:", "\n\ten:", 1), mentions=[":"])
        puzzle_case(f"puzzle-{ed}-unclosed-bracket", "an unclosed flow list", base,
                    text.replace("hand: [", "hand: [[", 1), mentions=["YAML syntax error"])
        puzzle_case(f"puzzle-{ed}-two-documents", "two YAML documents", base, text + "---\nid: x\n",
                    mentions=["document"])
        puzzle_case(f"puzzle-{ed}-python-tag", "a !!python/object/apply tag", base,
                    text + "notes: !!python/object/apply:os.system ['true']\n", mentions=["tag"])
        puzzle_case(f"puzzle-{ed}-binary-tag", "a !!binary value", base, text + "notes: !!binary aGVsbG8=\n",
                    mentions=["notes"])
        puzzle_case(f"puzzle-{ed}-set-tag", "a !!set value", base, text + "notes: !!set {a, b}\n", mentions=["notes"])
        puzzle_case(f"puzzle-{ed}-timestamp", "a date as ATP", base,
                    text.replace("start: {atp:", "start: {atp: 2024-01-01, x:"), mentions=["start"])
        puzzle_case(f"puzzle-{ed}-merge-key", "a merge key with an alias", base,
                    text.replace("start: {", "base: &b {atp: 1}\nstart: {<<: *b, ", 1), mentions=[file])
        puzzle_case(f"puzzle-{ed}-complex-key", "a list as a mapping key", base, text + "? [a, b]\n: 1\n",
                    mentions=["key"])
        puzzle_case(f"puzzle-{ed}-null-key", "null as a key", base, text + "~: 1\n", mentions=["key"])
        puzzle_case(f"puzzle-{ed}-bool-key", "a key YAML reads as true", base, text + "yes: 1\n", mentions=["key"])
        puzzle_case(f"puzzle-{ed}-int-key", "an integer top-level key", base, text + "7: 1\n", mentions=[])
        puzzle_case(f"puzzle-{ed}-empty", "an empty file", base, "", mentions=["mapping"])
        puzzle_case(f"puzzle-{ed}-only-comment", "only a comment", base, "# nothing\n", mentions=["mapping"])
        puzzle_case(f"puzzle-{ed}-top-list", "a list instead of a mapping", base, "- a\n- b\n", mentions=["mapping"])
        puzzle_case(f"puzzle-{ed}-top-scalar", "a bare word", base, "hello\n", mentions=["mapping"])
        puzzle_case(f"puzzle-{ed}-json", "the puzzle written as JSON: fine", base,
                    json.dumps(base_data(base), ensure_ascii=False), exit=0, mentions=["ok"])
        puzzle_case(f"puzzle-{ed}-long-line", "one line of 200 kB: a note ten times longer than a text may be "
                    "(issue #69; read as fine before)", base, text + "notes: {en: " + "x" * 200_000 + ", it: y}\n",
                    mentions=["notes.en", "at most 20000"])
        puzzle_case(f"puzzle-{ed}-long-note", "a note of 19,000 characters on one line: fine", base,
                    text + "notes: {en: " + "x" * 19_000 + ", it: y}\n", exit=0, mentions=["ok"])
    base = BASES[0]
    file = f"{base}.yaml"
    add("puzzle-symlink-loop", "a symlink pointing at itself", "solver", ["validate", f"{{case}}/{file}"], 2,
        [file], files={file: ("symlink", file)})
    add("puzzle-symlink-dangling", "a symlink to a missing file", "solver", ["validate", f"{{case}}/{file}"], 2,
        [file], files={file: ("symlink", "missing.yaml")})
    add("puzzle-symlink-loop-solve", "solve on a symlink loop", "solver", ["solve", f"{{case}}/{file}"], 2,
        [file], files={file: ("symlink", file)})
    add("puzzle-folder", "a folder named like a puzzle", "solver", ["validate", f"{{case}}/{file}"], 2, [file],
        files={file: ("dir",)})
    add("puzzle-missing", "a file that does not exist", "solver", ["validate", "{case}/nothing-here.yaml"], 2,
        ["nothing-here.yaml"], files={"README": "the puzzle file is missing on purpose\n"})
    add("puzzle-dev-null", "a device instead of a file", "solver", ["validate", "/dev/zero"], 2, ["/dev/zero"])
    add("puzzle-too-large", "a 3 MB puzzle (built by the harness)", "solver", ["validate", f"{{case}}/{file}"], 2,
        [file, "too large"], files={"recipe.txt": "the harness writes the puzzle followed by 3 MB of comment\n"})


def plan_cases() -> None:
    """Plan files for ``solver replay`` of grey-rush-2e."""
    base = BASES[0]
    puzzle = f"{{root}}/data/puzzles/{base}.yaml"

    def plan_case(name, about, content, exit=2, mentions=(), as_object=False):
        if not isinstance(content, (str, bytes)):
            content = json.dumps({"plan": content} if as_object else content, indent=1)
        named = ["plan.json", *mentions] if exit else ["Final score", *mentions]
        add(name, about, "solver", ["replay", puzzle, "{case}/plan.json"], exit, named,
            files={"plan.json": content})

    def with_step(index, **changes):
        plan = json.loads(json.dumps(GREY_RUSH_PLAN))
        for key, value in changes.items():
            if value is _DELETE:
                plan[index].pop(key, None)
            else:
                plan[index][key] = value
        return plan

    plan_case("plan-ok", "the optimal plan: an answer", GREY_RUSH_PLAN, exit=0, mentions=[])
    plan_case("plan-ok-object", "the optimal plan under `plan`", GREY_RUSH_PLAN, exit=0, mentions=[], as_object=True)
    for value, slug in (("false", "string-false"), ("true", "string-true"), (1, "int"), (0, "zero"), (None, "null"),
                        ([], "list")):
        plan_case(f"plan-grey-{slug}", f"grey: {value!r} (not a boolean)", with_step(1, grey=value),
                  mentions=["plan[1].grey"])
    for value, slug in (("2", "string"), (2.0, "float"), (True, "bool"), (10 ** 20, "huge"), (-1, "negative"),
                        (1e400, "infinite")):
        content = json.dumps(with_step(2, amount=value)) if slug != "infinite" else json.dumps(
            with_step(2, amount=1)).replace('"amount": 1', '"amount": 1e400')
        plan_case(f"plan-amount-{slug}", f"amount {value!r}", content, mentions=["plan[2].amount"])
    plan_case("plan-amount-nan", "amount NaN (not JSON)", json.dumps(with_step(2, amount=1)).replace(
        '"amount": 1', '"amount": NaN'), mentions=["NaN"])
    plan_case("plan-kind-unknown", "an unknown action kind", with_step(0, kind="teleport"),
              mentions=["plan[0].kind", "place"])
    plan_case("plan-kind-int", "kind 1", with_step(0, kind=1), mentions=["plan[0].kind"])
    plan_case("plan-resource-unknown", "exhaust for gold",
              [{"kind": "exhaust", "resource": "gold"}], mentions=["plan[0].resource", "atp"])
    plan_case("plan-spot-int", "spot 3", with_step(0, spot=3), mentions=["plan[0].spot"])
    plan_case("plan-spot-null", "a placement without a spot", with_step(0, spot=None), exit=2,
              mentions=["plan[0].spot"])
    plan_case("plan-spot-unknown", "a spot the board lacks: an illegal plan", with_step(0, spot="nowhere-9"), exit=1,
              mentions=["plan[0]"])
    plan_case("plan-card-int", "card 7", with_step(1, card=7), mentions=["plan[1].card"])
    plan_case("plan-card-unknown", "a card the puzzle lacks: illegal", with_step(1, card="no-such-card"), exit=1,
              mentions=["plan[1]"])
    plan_case("plan-unknown-field", "an unknown field", with_step(0, colour="red"), mentions=["plan[0]", "colour"])
    plan_case("plan-extra-text", "extra 'yes'", with_step(0, extra="yes"), mentions=["plan[0].extra"])
    plan_case("plan-order-text", "a peek whose order is a text", [{"kind": "peek", "order": "m1"}],
              mentions=["plan[0].order"])
    plan_case("plan-occupied-spot", "a spot another player holds: illegal", with_step(0, spot="smooth-er-detox"),
              exit=1, mentions=["plan[0]"])
    plan_case("plan-incomplete", "a legal but incomplete plan", GREY_RUSH_PLAN[:2], exit=1, mentions=["incomplete"])
    plan_case("plan-too-long", "actions after the end of the game", GREY_RUSH_PLAN + GREY_RUSH_PLAN, exit=1,
              mentions=["plan[5]"])
    plan_case("plan-empty-list", "no action at all", [], exit=1, mentions=["incomplete"])
    plan_case("plan-object-no-plan", "an object without `plan`", json.dumps({"steps": GREY_RUSH_PLAN}),
              mentions=["plan"])
    plan_case("plan-plan-object", "`plan` is an object", json.dumps({"plan": {"a": 1}}), mentions=["plan"])
    plan_case("plan-string", "a JSON string", json.dumps("place nucleus-3"), mentions=["list"])
    plan_case("plan-null", "JSON null", "null", mentions=["list"])
    plan_case("plan-number", "a number", "42", mentions=["list"])
    plan_case("plan-item-list", "an action written as a list", [["place", "nucleus-3"]], mentions=["plan[0]"])
    plan_case("plan-item-null", "null as an action", [None], mentions=["plan[0]"])
    plan_case("plan-duplicate-key", "spot given twice in one action",
              '[{"kind": "place", "spot": "nucleus-3", "spot": "golgi-1"}]', mentions=["duplicate key 'spot'"])
    plan_case("plan-trailing-comma", "a trailing comma", '[{"kind": "place", "spot": "nucleus-3"},]',
              mentions=["JSON syntax error"])
    plan_case("plan-single-quotes", "single quotes", "[{'kind': 'place'}]", mentions=["JSON syntax error"])
    plan_case("plan-comment", "a comment", '// my plan\n[]', mentions=["JSON syntax error"])
    plan_case("plan-empty-file", "an empty file", "", mentions=["JSON syntax error"])
    plan_case("plan-latin1", "Latin-1 text", '[{"kind": "place", "spot": "caf\u00e9"}]'.encode("latin-1"),
              mentions=["UTF-8"])
    plan_case("plan-bom", "a byte-order mark: tolerated", b"\xef\xbb\xbf" + json.dumps(GREY_RUSH_PLAN).encode(),
              exit=0, mentions=[])
    plan_case("plan-deep-1000", "arrays nested 1000 deep", "[" * 1000 + "]" * 1000, mentions=["nested"])
    plan_case("plan-deep-100000", "arrays nested 100000 deep", "[" * 100000 + "]" * 100000, mentions=["nested"])
    plan_case("plan-yaml", "a YAML plan where JSON is expected", "- kind: place\n  spot: nucleus-3\n",
              mentions=["JSON syntax error"])
    add("plan-symlink-loop", "the plan is a symlink loop", "solver",
        ["replay", puzzle, "{case}/plan.json"], 2, ["plan.json"], files={"plan.json": ("symlink", "plan.json")})
    add("plan-missing", "the plan file does not exist", "solver",
        ["replay", puzzle, "{case}/missing.json"], 2, ["missing.json"], files={"README": "no plan on purpose\n"})
    add("plan-folder", "the plan is a folder", "solver",
        ["replay", puzzle, "{case}/plan.json"], 2, ["plan.json"], files={"plan.json": ("dir",)})


def cli_cases() -> None:
    """Command-line arguments."""
    puzzle = "{root}/data/puzzles/grey-rush-2e.yaml"
    for value in ("-1", "0", "nan", "inf", "abc", "1e400", ""):
        add(f"cli-time-limit-{value or 'empty'}", f"--time-limit {value!r}", "solver",
            ["solve", puzzle, "--time-limit", value], 2, ["--time-limit"])
    for value in ("0", "9", "x", "1.5"):
        add(f"cli-workers-{value}", f"--workers {value}", "solver", ["solve", puzzle, "--workers", value], 2,
            ["--workers"])
    add("cli-seed-negative", "--seed -1", "solver", ["solve", puzzle, "--seed", "-1"], 2, ["--seed"])
    add("cli-engine-unknown", "--engine foo", "solver", ["solve", puzzle, "--engine", "foo"], 2, ["--engine"])
    add("cli-lang-unknown", "--lang de", "solver", ["solve", puzzle, "--lang", "de"], 2, ["--lang"])
    add("cli-no-command", "no subcommand", "solver", [], 2, ["command"])
    add("cli-unknown-command", "an unknown subcommand", "solver", ["sovle", puzzle], 2, ["sovle"])
    add("cli-missing-puzzle-arg", "solve without a puzzle", "solver", ["solve"], 2, ["puzzle"])
    add("cli-replay-missing-plan-arg", "replay without a plan", "solver", ["replay", puzzle], 2, ["plan"])
    add("cli-solve-missing-file", "solve a file that does not exist", "solver", ["solve", "/nonexistent/p.yaml"], 2,
        ["p.yaml"])
    add("cli-generator-unknown-command", "python -m generator frobnicate", "generator", ["frobnicate"], 2,
        ["frobnicate"])
    add("cli-generator-no-command", "python -m generator", "generator", [], 2, ["command"])
    add("cli-generator-data-missing", "--data pointing nowhere", "generator",
        ["--data", "/nonexistent/data", "validate"], 2, ["/nonexistent/data"])
    add("cli-generator-data-file", "--data pointing at a file", "generator",
        ["--data", "{root}/README.md", "validate"], 2, ["README.md"])
    # issue #33: the generator's folders and options, each refused before any data is read
    add("cli-generator-data-empty-path", "--data '' (read as the current folder before)", "generator",
        ["--data", "", "validate"], 2, ["--data", "empty path"])
    add("cli-generator-data-empty-folder", "--data naming an empty folder (a traceback before)", "generator",
        ["--data", "{case}", "validate"], 2, ["--data", "rules/"])
    add("cli-generator-docs-file", "generate --docs naming an existing file (a traceback before)", "generator",
        ["--data", "{root}/data", "generate", "--docs", "{root}/README.md"], 2, ["--docs", "README.md"])
    add("cli-generator-export-below-file", "check --export below a file (a traceback before)", "generator",
        ["check", "--export", "{root}/README.md/out"], 2, ["--export", "README.md"])
    add("cli-generator-check-unknown-game", "check --game naming no game (accepted before)", "generator",
        ["check", "--game", "cytosys"], 2, ["--game", "cytosys"], seconds=20.0)
    # time limits: every engine stops within about a second of --time-limit
    slow = base_text("long-game-1e").replace("deck: []", "deck: [detox-4, detox-5]").replace(
        "objective: max-health", "objective: max-health\nboard_override: {row_prices: [3, 2, 1, 0]}").replace(
        "  - {id: steroid-hormone-9", "  - {id: detox-4, type: detox, cost: {atp: 4}, illustrative: true}\n"
        "  - {id: detox-5, type: detox, cost: {atp: 5}, illustrative: true}\n  - {id: steroid-hormone-9").replace(
        "expected: {health: 29}\n", "")
    add("time-limit-cpsat-fallback", "a 1e puzzle with a deck and decreasing row prices CP-SAT cannot model, "
        "--time-limit 2: the exhaustive search runs, says so, and stops in time", "solver",
        ["solve", "{case}/long-game-1e.yaml", "--time-limit", "2"], 0, ["exhaustive", "CP-SAT"],
        files={"long-game-1e.yaml": slow}, seconds=6.0)
    add("time-limit-exhaustive", "--engine exhaustive --time-limit 1 on a 16-placement puzzle", "solver",
        ["solve", "{root}/data/puzzles/long-game-1e.yaml", "--engine", "exhaustive", "--time-limit", "1"], 0,
        ["exhaustive"], seconds=5.0)
    add("time-limit-exhaustive-json", "the same with --json", "solver",
        ["solve", "{root}/data/puzzles/long-game-1e.yaml", "--engine", "exhaustive", "--time-limit", "1", "--json"],
        0, ["exhaustive"], seconds=5.0)


def data_cases() -> None:
    """``generator validate`` on a copy of data/ with one file broken (recipes, see the harness)."""
    def data_case(name, about, ops, mentions, exit=2):
        add(name, about, "generator", ["--data", "{data}", "validate"], exit, mentions, ops=ops, seconds=20.0)

    g = "glossary.yaml"
    data_case("data-glossary-alias-bomb", "a billion-laughs alias bomb in the glossary",
              [{"file": g, "append": BOMB}], [g])
    data_case("data-glossary-duplicate-key", "terms: given twice", [{"file": g, "append": "terms: []\n"}],
              [g, "duplicate key 'terms'"])
    data_case("data-glossary-latin1", "the glossary re-encoded as Latin-1", [{"file": g, "encode": "latin-1"}],
              [g, "UTF-8"])
    data_case("data-glossary-bom", "a byte-order mark: tolerated", [{"file": g, "prepend_bytes": "efbbbf"}], [],
              exit=0)
    data_case("data-glossary-deep", "lists nested 100000 deep", [{"file": g, "append": "x: " + "[" * 100000 + "]" * 100000 + "\n"}],
              [g, "nested"])
    data_case("data-glossary-symlink-loop", "the glossary is a symlink loop", [{"file": g, "symlink": g}], [g])
    data_case("data-glossary-folder", "the glossary is a folder", [{"file": g, "folder": True}], [g])
    data_case("data-glossary-empty", "an empty glossary", [{"file": g, "write": ""}], [g])
    data_case("data-glossary-list", "a list at the top", [{"file": g, "write": "- a\n"}], [g])
    data_case("data-glossary-syntax", "an unclosed quote", [{"file": g, "append": "x: \"open\n"}], [g, "YAML"])
    data_case("data-glossary-terms-string", "terms: a text", [{"file": g, "write": "terms: hello\n"}], [g, "terms"])
    data_case("data-glossary-term-number", "a term that is a number",
              [{"file": g, "write": "terms:\n  - 42\n"}], [g, "terms[0]"])
    data_case("data-glossary-too-large", "a 3 MB glossary", [{"file": g, "append": "#" + "x" * 3_000_000 + "\n"}],
              [g, "too large"])
    u, ref = "i18n/en.yaml", "i18n/it.yaml"
    data_case("data-ui-number", "an interface string that is a number",
              [{"file": u, "set": ["core", "home_title", 5]}], [u, "core.home_title"])
    data_case("data-ui-bool", "an interface string YAML reads as false",
              [{"file": u, "replace": ["home_title: Cellula", "home_title: no"], "count": 1}], [u, "core.home_title"])
    data_case("data-ui-list", "an interface string that is a list", [{"file": ref, "set": ["core", "home_title", ["a"]]}],
              [ref, "core.home_title"])
    data_case("data-ui-duplicate-key", "core: given twice", [{"file": u, "append": "core: {}\n"}],
              [u, "duplicate key 'core'"])
    data_case("data-ui-mixed-keys", "keys of two kinds", [{"file": u, "append": "1: x\n"}], [u])
    data_case("data-ui-alias-bomb", "an alias bomb in the catalogue", [{"file": u, "append": BOMB}], [u])
    data_case("data-ui-nul", "a NUL byte", [{"file": u, "append_bytes": "2300"}], [u])
    c = "cards/cytosis.yaml"
    data_case("data-cards-duplicate-key", "game: given twice", [{"file": c, "append": "game: cytosis\n"}],
              [c, "duplicate key 'game'"])
    data_case("data-cards-latin1", "the cards re-encoded as UTF-16", [{"file": c, "encode": "utf-16"}], [c, "UTF-8"])
    data_case("data-cards-alias-bomb", "an alias bomb in the cards", [{"file": c, "append": BOMB}], [c])
    data_case("data-cards-flag-string", "pays_atp: 'false' (a text where true or false is expected)",
              [{"file": c, "replace": ["    pays_atp: true", "    pays_atp: 'false'"], "count": 1}], [c, "pays_atp"])
    data_case("data-cards-example-int", "example: 1", [{"file": c, "replace": ["  example: true", "  example: 1"],
                                                       "count": 1}], [c, "example"])
    data_case("data-cards-count-huge", "a component count of 10^10",
              [{"file": c, "replace": ["  - count: 10\n", "  - count: 10000000000\n"], "count": 1}], [c, "count"])
    data_case("data-cards-count-float", "a component count of 10.0",
              [{"file": c, "replace": ["  - count: 10\n", "  - count: 10.0\n"], "count": 1}], [c, "count"])
    r = "rules/cytosis/game.yaml"
    data_case("data-rules-duplicate-key", "title: given twice", [{"file": r, "append": "title: {it: x, en: y}\n"}],
              [r, "duplicate key 'title'"])
    data_case("data-rules-latin1", "the rules manifest with a 0xff byte", [{"file": r, "append_bytes": "23ff0a"}],
              [r, "UTF-8"])
    data_case("data-rules-deep", "nested 500 deep", [{"file": r, "append": "x: " + "[" * 500 + "]" * 500 + "\n"}],
              [r, "nested"])
    # issue #33: a rule text and a manifest's sources, strict as the solver's loader; catalogue markup
    data_case("data-rules-text-latin1", "a rule text with a 0xe9 byte (a traceback before)",
              [{"file": "rules/cytosis/it-1e.md", "append_bytes": "436166e90a"}],
              ["rules/cytosis/it-1e.md", "UTF-8", "0xe9"])
    data_case("data-rules-source-lang-list", "a source's lang: [it] (a traceback before)",
              [{"file": r, "replace": ["    lang: it\n", "    lang: [it]\n"], "count": 1}], [r, "sources[0].lang"])
    data_case("data-rules-source-rules-number", "a source's rules: 5 (a traceback before)",
              [{"file": r, "replace": ["    rules: it-1e.md\n", "    rules: 5\n"], "count": 1}], [r, "sources[0].rules"])
    for name, about, text, word in (
            ("html", "a script element", "Fatto con <script>alert(1)</script>", "HTML"),
            ("brace", "an attribute list", "Fatto con {: onclick=\"alert(1)\" }", "{name}"),
            ("image", "an image from another host", "Fatto con ![x](https://evil.example/p.png)", "image"),
            ("abbreviation", "an abbreviation definition", "Fatto con\n\n*[Cytosis]: relabelled", "abbreviation"),
            ("script-link", "a javascript: link", "Fatto con [x](javascript:alert(1))", "javascript:")):
        data_case(f"data-ui-{name}", f"a catalogue string with {about} (published on every page before)",
                  [{"file": ref, "set": ["core", "made_with", text]}], [ref, "core.made_with", word])
    p = "puzzles/grey-rush-2e.yaml"
    data_case("data-puzzle-atp-huge", "a puzzle with 10^10 ATP", [{"file": p, "replace": ["atp: 8", "atp: 10000000000"]}],
              [p, "start.atp"])
    data_case("data-puzzle-atp-float", "a puzzle with 8.0 ATP", [{"file": p, "replace": ["atp: 8", "atp: 8.0"]}],
              [p, "start.atp"])
    data_case("data-puzzle-alias-bomb", "an alias bomb in a puzzle", [{"file": p, "append": BOMB}], [p])
    data_case("data-puzzle-mixed-keys", "occupied with keys 1 and '1'",
              [{"file": p, "replace": ["occupied: {1: [smooth-er-detox, smooth-er-lipids-2], 2:",
                                       "occupied: {1: [smooth-er-detox], '1': [smooth-er-lipids-2], 2:"]}],
              [p, "occupied"])


HUGE_STOCK = {"atp": 999, "mrna": 999, "protein": 999, "carb": 999, "lipid": 999, "health": 0}
GROWABLE_AREAS = ("free-ribosome", "smooth-er-detox", "rough-er", "golgi", "exocytosis", "cytoplasm", "laureates")
"""The areas of identical spots, which a puzzle may grow (to 999 spots each: the documented maximum)."""


def _huge(kind: str) -> str:
    """grey-rush-2e grown to a largest legal input: 12 rounds of 4 flasks, 999 of everything in
    stock, and 999 detox cards in hand, 999 spots in every area that may grow, or 999 goals."""
    data = base_data("grey-rush-2e")
    data.update(id="grey-rush-2e", rounds=12, flasks=4, events=[], occupied={}, start=dict(HUGE_STOCK))
    data.pop("expected", None)
    if kind == "detox-hand":
        data["hand"] = [f"detox-{i}" for i in range(999)]
        data["cards"] = [{"id": f"detox-{i}", "type": "detox", "cost": {"atp": 1 + i % 5}, "illustrative": True}
                         for i in range(999)]
    elif kind == "spots":
        data["board_override"] = {"spots": {area: 999 for area in GROWABLE_AREAS}}
    else:
        data["goals"] = [{"id": f"g{i}", "count": 1 + i % 3, "points": 1 + i % 7, "illustrative": True}
                         for i in range(999)]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100_000)


def issue38_cases() -> None:
    """Issue #38: catalogue placeholders, plan fields per kind, recorded runs, paths and names,
    unprintable text, numeric ranges, huge legal puzzles under --time-limit."""
    ref = "i18n/it.yaml"

    def data_case(name, about, ops, mentions, exit=2):
        add(name, about, "generator", ["--data", "{data}", "validate"], exit, mentions, ops=ops, seconds=45.0)

    def plan_case(name, about, content, mentions, json_out=False):
        if not isinstance(content, str):
            content = json.dumps(content, indent=1)
        add(name, about, "solver", ["replay", "{root}/data/puzzles/grey-rush-2e.yaml", "{case}/plan.json",
                                    *(["--json"] if json_out else [])], 2, ["plan.json", *mentions],
            files={"plan.json": content})

    # 1. the catalogue's message format (each was evaluated, or a traceback, or a memory exhaustion)
    for slug, text, word in (
            ("attribute", "Gioca {card.__class__.__name__}", "{card.__class__.__name__}"),
            ("index", "Gioca {card[0]}", "{card[0]}"),
            ("width-huge", "Gioca {card:>999999}", "{card:>999999}"),
            ("width-giant", "Gioca {card:>999999999}", "{card:>999999999}"),
            ("lone-open", "Gioca { carta", "{"),
            ("lone-close", "Gioca } carta {card}", "}"),
            ("empty", "Gioca {} {card}", "{}"),
            ("conversion", "Gioca {card!z}", "{card!z}"),
            ("positional", "Gioca {0}", "{0}"),
            ("undeclared", "Gioca {card} a {lang}", "{lang}")):
        data_case(f"data-ui-placeholder-{slug}", f"steps.play_card = {text!r}",
                  [{"file": ref, "set": ["steps", "play_card", text]}], [ref, "steps.play_card", word])
    data_case("data-ui-placeholder-core-attribute", "a site text with {n.__class__}",
              [{"file": ref, "set": ["core", "made_with", "Fatto con {n.__class__}"]}],
              [ref, "core.made_with", "{n.__class__}"])
    # 2. plan fields that mean nothing for the step's kind
    for kind, extra in (("place", {"spot": "nucleus-3", "take": ["atp"]}), ("place", {"spot": "nucleus-3", "lose": "atp"}),
                        ("exhaust", {"resource": "atp", "disk": "steroid-hormone-9"}),
                        ("respond", {"lose": "health", "bump": "opp1"}), ("respond", {"lose": "health", "order": []}),
                        ("respond", {"lose": "health", "extra": True}), ("respond", {"lose": "health", "disk": "x"}),
                        ("vaccinate", {"amount": 0, "bump": "opp1"}), ("vaccinate", {"amount": 0, "order": []}),
                        ("vaccinate", {"amount": 0, "extra": True}), ("vaccinate", {"amount": 0, "disk": "x"}),
                        ("income", {"resource": "atp", "take": ["atp"]}), ("income", {"resource": "atp", "lose": "atp"}),
                        ("trade", {"resource": "lipid", "take": ["atp"]}), ("trade", {"resource": "lipid", "lose": "atp"}),
                        ("play-card", {"card": "steroid-hormone-9", "spot": "nucleus-3"}),
                        ("peek", {"order": [], "grey": True})):
        field = list(extra)[-1]
        plan_case(f"plan-{kind}-with-{field}", f"a {kind} step with `{field}`, a field it does not have",
                  [{"kind": kind, **extra}], mentions=[f"plan[0].{field}", kind])
    plan_case("plan-spot-surrogate", "a lone surrogate in a spot (a UnicodeEncodeError from replay --json before)",
              '[{"kind": "place", "spot": "nucleus-3\\ud800"}]', mentions=["spot", "surrogate"], json_out=True)
    plan_case("plan-card-escape", "ESC (a terminal colour code) in a card id",
              '[{"kind": "place", "spot": "nucleus-3", "card": "x\\u001b[31m"}]', mentions=["card", "U+001B"])
    # 3. recorded whole games, typed and ranged, each error with its line
    rec = "puzzles/games/whole-game-2e.result.json"
    shipped = json.loads((ROOT / "data" / rec).read_text(encoding="utf-8"))

    for slug, key, value in (
            ("workers-negative", "workers", "-2"), ("workers-0", "workers", "0"),
            ("seconds-negative", "seconds", "-601.9"), ("time-limit-0", "time_limit", "0"),
            ("recorded-text", "recorded", '"yesterday"'), ("recorded-impossible", "recorded", '"2026-02-30"'),
            ("cap-below-bound", "cap", str(shipped["bound"] - 1)), ("cap-text", "cap", '"high"'),
            ("earlier-negative", "earlier", "-1"), ("warm-start-above", "warm_start", "999"),
            ("warm-start-negative", "warm_start", "-1"), ("machine-nul", "machine", '"\\u0000"'),
            ("machine-surrogate", "machine", '"\\udc80"'), ("health-wrong", "health", "1"),
            ("subsolvers-text", "subsolvers", '"fast"'), ("subsolvers-bad-name", "subsolvers", '["Max LP", "pseudo_costs"]'),
            ("subsolvers-too-many", "subsolvers", '["a", "b", "c"]')):
        # the harness replaces the field as the recording writes it, whatever its value: a case
        # breaks one field and nothing else, so the relations are checked too
        data_case(f"data-recording-{slug}", f'whole-game-2e.result.json: "{key}": {value}',
                  [{"file": rec, "json_field": [key, value]}], ["whole-game-2e.result.json:", key])
    data_case("data-recording-subsolvers-one-worker", 'whole-game-2e.result.json: "workers": 1 beside two subsolvers',
              [{"file": rec, "json_field": ["workers", "1"]}],
              ["whole-game-2e.result.json:", "subsolvers: expected none for one worker"])
    data_case("data-recording-plan-empty", 'whole-game-2e.result.json: "plan": []',
              [{"file": rec, "replace": ['"plan": [', '"plan": [], "x_plan": ['], "count": 1}],
              ["whole-game-2e.result.json:", "plan: expected a non-empty list"])
    # 5. paths and names, checked before any work
    puzzle = "{root}/data/puzzles/grey-rush-2e.yaml"
    for slug, out, word in (("folder", "{case}", "existing folder"), ("missing-folder", "{case}/no/such/r.json", "does not exist"),
                            ("below-file", "{root}/README.md/r.json", "README.md"), ("empty", "", "empty path")):
        add(f"cli-record-out-{slug}", f"solver record --out {out!r} (a traceback after the run before)", "solver",
            ["record", puzzle, "--time-limit", "30", "--quiet", "--out", out], 2, ["--out", word], seconds=5.0)
    for slug, earlier, words in (("other-puzzle", "{root}/data/puzzles/games/whole-game-2e.result.json",
                                  ["whole-game-2e.result.json:", "puzzle: expected 'grey-rush-2e'"]),
                                 ("missing", "{case}/no-such.result.json", ["no-such.result.json", "no such file"])):
        add(f"cli-record-from-{slug}", f"solver record --from {earlier!r}: refused before the run", "solver",
            ["record", puzzle, "--time-limit", "30", "--quiet", "--out", "{case}/r.json", "--from", earlier], 2, words,
            seconds=5.0)
    add("cli-generator-export-empty", "check --export '' (wrote into the current folder before)", "generator",
        ["check", "--export", ""], 2, ["--export", "empty path"])
    add("cli-generator-docs-existing-file", "generate --docs naming an existing file (a traceback before)", "generator",
        ["--data", "{root}/data", "generate", "--docs", "{root}/pyproject.toml"], 2, ["--docs", "pyproject.toml"])
    # 4. every numeric option has a documented range
    for slug, args, word in (("bench-sizes-996", ["bench", "--sizes", "996"], "--sizes"),
                             ("seed-huge", ["solve", puzzle, "--seed", "99999999999"], "--seed"),
                             ("time-limit-1e9", ["solve", puzzle, "--time-limit", "1e9"], "--time-limit"),
                             ("record-time-limit-inf", ["record", puzzle, "--time-limit", "inf"], "--time-limit"),
                             ("bench-cap-0", ["bench", "--cap", "0"], "--cap"),
                             ("bench-whole-cap-huge", ["bench", "--whole-cap", "1e12"], "--whole-cap"),
                             ("bench-proof-det-0", ["bench", "--proofs", "--proof-det", "0"], "--proof-det"),
                             ("bench-proofs-sizes", ["bench", "--proofs", "--suite-sizes", "15"], "--suite-sizes")):
        add(f"cli-{slug}", " ".join(args[:1] + args[2:] if args[0] != "bench" else args), "solver", args, 2, [word])
    add("cli-generator-bench-runs-0", "generator bench --runs 0", "generator", ["bench", "--runs", "0"], 2, ["--runs"])
    # 6. text fields printable
    data = base_data("grey-rush-2e")
    text = base_text("grey-rush-2e").replace(f'  en: "{data["title"]["en"]}"', '  en: "Grey\\e[31m rush"')
    puzzle_case("puzzle-2e-title-escape", "ESC in a title (printed to the terminal before)", "grey-rush-2e", text,
                mentions=["title.en", "U+001B"])
    text = base_text("grey-rush-2e").replace(f'  en: "{data["title"]["en"]}"', '  en: "Grey\\0 rush"')
    puzzle_case("puzzle-2e-title-nul", "NUL in a title (accepted before)", "grey-rush-2e", text,
                mentions=["title.en", "U+0000"])
    # also: quick reference and glossary
    q = "rules/cytosis/quickref.yaml"
    data_case("data-quickref-duplicate-group", "two groups with the id players (accepted before)",
              [{"file": q, "replace": ["  - id: round\n", "  - id: players\n"], "count": 1}], [q, "groups[1].id", "duplicate"])
    data_case("data-quickref-group-id-form", "a group id with spaces and capitals (accepted before)",
              [{"file": q, "replace": ["  - id: round\n", "  - id: The Round\n"], "count": 1}], [q, "groups[1].id", "The Round"])
    g = "glossary.yaml"
    data_case("data-glossary-preferred-forbidden", "a term whose preferred form is also forbidden (accepted before)",
              [{"file": g, "replace": ["forbidden: {it: [Fiasca, Fiasche]}", "forbidden: {it: [Beuta, Fiasche]}"]}],
              [g, "forbidden.it", "Beuta"])
    vi = base_text("virus-influenza-2e") if (PUZZLES / "virus-influenza-2e.yaml").exists() else None
    if vi is not None:
        for key in ("round-02", "ebola-atack"):
            add(f"puzzle-virus-rolls-key-{key}", f"virus_rolls key {key!r}: the message quotes it", "solver",
                ["validate", "{case}/virus-influenza-2e.yaml"], 2, ["virus-influenza-2e.yaml", f"virus_rolls.{key}", key],
                files={"virus-influenza-2e.yaml": vi.replace("  round-2:", f"  {key}:", 1)})
    # 4. the largest legal inputs under --time-limit: an answer (or UNKNOWN) within the limit and a second.
    # A limit of 1 s takes each engine down the same path as 3 s did (CP-SAT stops while building its
    # model, the exhaustive search in its search) in a third of the time. 999 spots keep 3 s: both engines
    # set up for longer before they first look at the clock (the exhaustive search 3.2 s in all under a
    # 1 s limit; CP-SAT 3.7 s on a loaded machine), too close to the allowed limit + 4 s. Each case is
    # allowed its limit + 6 s: on a machine loaded to 10 by other jobs a 1 s case overran 5 s once.
    for kind in ("detox-hand", "spots", "goals"):
        for engine in ("cpsat", "exhaustive"):
            limit = 3 if kind == "spots" else 1
            add(f"time-limit-huge-{kind}-{engine}", f"999 {kind.replace('-', ' ')}, --engine {engine} --time-limit {limit} "
                "(still running after 20 s before)", "solver",
                ["solve", "{case}/grey-rush-2e.yaml", "--engine", engine, "--time-limit", str(limit), "--no-confirm"], 1,
                ["time limit"], files={"grey-rush-2e.yaml": _huge(kind)}, seconds=limit + 6.0)
    add("time-limit-whole-game-cpsat", "a whole game, CP-SAT, --time-limit 1 (model building counts)", "solver",
        ["solve", "{root}/data/puzzles/games/whole-game-2e.yaml", "--time-limit", "1", "--no-confirm"], 1,
        ["time limit"], seconds=7.0)
    add("time-limit-whole-game-exhaustive", "a whole game, exhaustive search, --time-limit 1", "solver",
        ["solve", "{root}/data/puzzles/games/whole-game-2e.yaml", "--engine", "exhaustive", "--time-limit", "1"], 0,
        ["NOT PROVEN"], seconds=7.0)


def issue69_cases() -> None:
    """Issue #69: every limit bounds the whole command; numbers past any field's range; closed sets
    (enzyme colours, seats at the table); output paths first; text lengths and invisible characters
    with line and column; the puzzle's claim checked; options an engine ignores; references in every
    data text. Each finding's case is another input of its kind than the one the issue quotes."""
    def data_case(name, about, ops, mentions, exit=2, absent=None):
        add(name, about, "generator", ["--data", "{data}", "validate"], exit, mentions, ops=ops, seconds=45.0,
            absent=absent)

    def plan_case(name, about, content, mentions):
        add(name, about, "solver", ["replay", "{root}/data/puzzles/grey-rush-2e.yaml", "{case}/plan.json"], 2,
            ["plan.json", *mentions], files={"plan.json": content})

    def mutated(base, path, value, marker=None, text=None):
        """The base puzzle with ``path`` set to ``value``; ``marker`` (a placeholder value) replaced by ``text``
        in the written YAML (a number too long for yaml.safe_dump, an escape written as such)."""
        data = base_data(base)
        set_path(data, path, value)
        written = dump(data)
        return written.replace(marker, text) if marker is not None else written

    # 1. --work-limit bounds the model's building (the largest legal puzzles, a whole game)
    for kind in ("detox-hand", "spots", "goals"):
        add(f"work-limit-huge-{kind}", f"999 {kind.replace('-', ' ')}, --work-limit 1 (model building ran for "
            "minutes before)", "solver", ["solve", "{case}/grey-rush-2e.yaml", "--work-limit", "1", "--no-confirm"], 1,
            ["work limit", "building"], files={"grey-rush-2e.yaml": _huge(kind)}, seconds=8.0)
    add("work-limit-whole-game", "a whole game under --work-limit 0.5: its model is larger than the limit's share",
        "solver", ["solve", "{root}/data/puzzles/games/whole-game-2e.yaml", "--work-limit", "0.5", "--no-confirm"], 1,
        ["work limit", "25,000 steps"], seconds=8.0)
    # 2. numbers past any field's range, refused before conversion, with file, line and field
    puzzle_case("puzzle-2e-atp-5000-digits", "start.atp of 5,000 digits", "grey-rush-2e",
                mutated("grey-rush-2e", ("start", "atp"), "HUGE", "HUGE", "7" * 5000), mentions=["start.atp", "digits"])
    puzzle_case("puzzle-1e-detox-amount-4400-digits", "a detox amount of 4,400 digits", "toxic-hoard-1e",
                mutated("toxic-hoard-1e", ("opponents",), {"detox": [{"amount": "HUGE", "cards": 1}]}, "HUGE",
                        "1" + "0" * 4399), mentions=["opponents.detox[0].amount", "digits"])
    plan_case("plan-amount-4400-digits", "amount of 4,400 digits (a ValueError escaped before)",
              '[{"kind": "place", "spot": "nucleus-3", "amount": ' + "9" * 4400 + "}]", ["[0].amount", "digits"])
    plan_case("plan-spot-number-6000-digits", "a spot written as a 6,000-digit number",
              '[\n {"kind": "place",\n  "spot": ' + "3" * 6000 + "}]", ["plan.json:3", "[0].spot", "digits"])
    plan_case("plan-amount-1e400", "amount 1e400 (no finite number)",
              '[{"kind": "place", "spot": "nucleus-3", "amount": 1e400}]', ["[0].amount", "finite"])
    rec = "puzzles/games/whole-game-2e.result.json"
    data_case("data-recording-seconds-5000-digits", "a recorded game's seconds with 5,000 digits (a traceback before)",
              [{"file": rec, "json_field": ["seconds", "6" * 5000]}], ["whole-game-2e.result.json:", "seconds", "digits"])
    data_case("data-recording-warm-start-4400-digits", "a recorded game's warm start with 4,400 digits",
              [{"file": rec, "json_field": ["warm_start", "2" + "0" * 4399]}],
              ["whole-game-2e.result.json:", "warm_start", "digits"])
    # 2. closed sets: enzyme colours, seats within the player count, resource kinds
    enzyme = {"id": "enzyme-x", "type": "enzyme", "cost": {"atp": 1, "protein": 1}, "health": 1, "color": "bleu",
              "illustrative": True}
    data = base_data("grey-rush-2e")
    data["cards"] = data["cards"] + [enzyme]
    puzzle_case("puzzle-2e-enzyme-colour-typo", "an enzyme colour 'bleu' (read as a new colour before)", "grey-rush-2e",
                dump(data), mentions=[f"cards[{len(data['cards']) - 1}].color", "bleu", "purple"])
    for base, changes, path, slug in (
            ("grey-rush-2e", {"players": 3, "seat": 4}, "seat", "seat-4-of-3"),
            ("grey-rush-2e", {"players": 4, "opponents": {"disks": [{"area": "golgi", "health": 1, "seat": 5}]}},
             "opponents.disks[0].seat", "disk-seat-5-of-4"),
            ("toxic-hoard-1e", {"first_player": False, "marker_seat": 4}, "marker_seat", "marker-seat-4-of-3")):
        data = base_data(base)
        data.update(changes)
        puzzle_case(f"puzzle-{base[-2:]}-{slug}", f"{path} beyond the table (accepted before)", base, dump(data),
                    mentions=[path, f"1..{data.get('players', 3)}"])
    data = base_data("toxic-hoard-1e")
    data["cards"] = [{"id": "detox-x", "type": "detox", "cost": {"atp": 2, "glucose": 1}, "illustrative": True}]
    puzzle_case("puzzle-1e-cost-unknown-resource", "a card cost in 'glucose', no resource", "toxic-hoard-1e",
                dump(data), mentions=["cards[0].cost", "glucose", "lipid"])
    # 3. output paths checked before any work, for every command that writes
    for slug, args, word in (("bench-out-existing-file", ["bench", "--quick", "--out", "{root}/pyproject.toml"], "existing file"),
                             ("bench-deck-out-below-file", ["bench", "--deck", "--out", "{root}/README.md/bench"], "is a file"),
                             ("bench-suite-out-empty", ["bench", "--suite", "--out", ""], "empty path")):
        add(f"cli-{slug}", " ".join(a.replace("{root}/", "") for a in args) + " (refused only after the run before)",
            "solver", args, 2, ["--out", word], seconds=5.0)
    # 4. text: a length per kind, invisible characters, every character problem with line and column
    puzzle_case("puzzle-2e-card-id-70000", "a card id of 70,000 characters (accepted before)", "grey-rush-2e",
                mutated("grey-rush-2e", ("hand",), []).replace("id: steroid-hormone-9", "id: " + "s" * 70000, 1)
                .replace("- steroid-hormone-9", "- " + "s" * 70000),
                mentions=["cards[0].id", "at most 64"])
    puzzle_case("puzzle-1e-title-8000", "an Italian title of 8,000 characters", "toxic-hoard-1e",
                mutated("toxic-hoard-1e", ("title", "it"), "x" * 8000), mentions=["title.it", "at most 1000"])
    puzzle_case("puzzle-2e-story-rli", "a right-to-left isolate written as an escape in the story", "grey-rush-2e",
                mutated("grey-rush-2e", ("story", "en"), "ESC", "ESC", '"Grey \\u2067rush"'),
                mentions=["story.en", "U+2067", "column"])
    puzzle_case("puzzle-1e-title-zero-width-only", "a title of zero-width joiners only", "toxic-hoard-1e",
                mutated("toxic-hoard-1e", ("title", "en"), "ESC", "ESC", '"\\u200c\\u200d"'),
                mentions=["title.en", "U+200C"])
    puzzle_case("puzzle-2e-title-spaces-only", "a title of an ideographic space and a space", "grey-rush-2e",
                mutated("grey-rush-2e", ("title", "en"), "ESC", "ESC", '"\\u3000 "'), mentions=["title.en", "only spaces"])
    text = base_text("grey-rush-2e")
    puzzle_case("puzzle-2e-noncharacter-literal", "U+FFFF written in a comment (reported by position before)",
                "grey-rush-2e", text + "# a note \uffff\n", mentions=[f"grey-rush-2e.yaml:{text.count(chr(10)) + 1}",
                                                                     "U+FFFF", "column 10"])
    text = base_text("toxic-hoard-1e")
    puzzle_case("puzzle-1e-rlo-literal", "a right-to-left override inside the English title", "toxic-hoard-1e",
                text.replace('  en: "Hoarding', '  en: "Hoar\u202eding', 1), mentions=["toxic-hoard-1e.yaml:3", "U+202E", "column 12"])
    plan_case("plan-card-pdf", "a card id holding a pop-directional-formatting control",
              '[{"kind": "place", "spot": "golgi-1", "card": "steroid-hormone-9\\u202c"}]', ["[0].card", "U+202C"])
    plan_case("plan-spot-30000-chars", "a spot of 30,000 characters",
              '[{"kind": "place", "spot": "' + "n" * 30000 + '"}]', ["[0].spot", "at most 20000"])
    g = "glossary.yaml"
    data_case("data-glossary-form-word-joiner", "a glossary form that is a word joiner only (accepted before)",
              [{"file": g, "replace": ["en: [Flask, Flasks, Workers]", 'en: [Flask, Flasks, "\\u2060"]'], "count": 1}],
              [g, "terms[0].en[2]", "U+2060"])
    data_case("data-glossary-form-spaces", "a glossary form of spaces only",
              [{"file": g, "replace": ["en: [Flask, Flasks, Workers]", 'en: [Flask, Flasks, "   "]'], "count": 1}],
              [g, "terms[0].en[2]", "only spaces"])
    ui = "i18n/en.yaml"
    data_case("data-ui-rlo-escape", "a UI string with a right-to-left override, escaped (reached every page's navigation)",
              [{"file": ui, "replace": ["  games: Games\n", '  games: "Ga\\u202emes"\n'], "count": 1}],
              [ui, "core.games", "U+202E"])
    data_case("data-ui-zero-width-literal", "a UI string of a zero-width space only, written as it is",
              [{"file": ui, "replace": ["  games: Games\n", "  games: \u200b\n"], "count": 1}],
              [ui + ":6", "U+200B", "column 10"])
    data_case("data-ui-markup-not-missing", "a UI string refused for its markup is not also 'missing' in the other file",
              [{"file": "i18n/it.yaml", "set": ["core", "games", "<b>Giochi</b>"]}], ["i18n/it.yaml", "core.games"],
              absent=["extra key", "missing"])
    data_case("data-noncharacter-bytes", "U+FDD0 (a noncharacter) appended to the glossary",
              [{"file": g, "append_bytes": "2320efb7900a"}], [g, "U+FDD0", "column 3"])
    data_case("data-card-id-200", "an Ursuppe card id of 200 characters",
              [{"file": "cards/ursuppe.yaml", "replace": ["- id: doris-frank-gene\n", "- id: " + "d" * 200 + "\n"],
                "count": 1}], ["cards/ursuppe.yaml", "cards[0].id", "at most 64"])
    data_case("data-game-title-3000", "a game title of 3,000 characters",
              [{"file": "rules/cytosis/game.yaml", "replace": ['title: {it: "Cytosis"', 'title: {it: "' + "C" * 3000 + '"'],
                "count": 1}], ["rules/cytosis/game.yaml", "title.it", "at most 1000"])
    data_case("data-rules-heading-lro", "a left-to-right override in a rule section's heading (reached the page's contents)",
              [{"file": "rules/cytosis/en-2e.md", "replace": ["\n## ", "\n## \u202d"], "count": 1}],
              ["rules/cytosis/en-2e.md:", "U+202D", "column 4"])
    # 5. references in every data text that renders them; the puzzle's claim; options an engine ignores
    data_case("data-ursuppe-card-term-missing", "[[term:...]] to no glossary term in an Ursuppe card text (accepted before)",
              [{"file": "cards/ursuppe.yaml", "replace": ["decides the next game to play.", "decides the next [[term:gaem]]."],
                "count": 1}], ["cards/ursuppe.yaml", "cards[0].text.en", "[[term:gaem]]"])
    data_case("data-cytosis-card-section-missing", "[[chapter.slug]] to no section in a Cytosis card text",
              [{"file": "cards/cytosis.yaml", "replace": ["Le Carte Enzima (in questo gioco)", "[[cards.nowhere]] Le Carte Enzima (in questo gioco)"],
                "count": 1}], ["cards/cytosis.yaml", "text.it", "[[cards.nowhere]]"])
    data_case("data-game-link-hosts-scheme", "a declared link host that is a script URL",
              [{"file": "rules/cytosis/game.yaml", "replace": ["compare_editions: true\n",
                                                             "compare_editions: true\nlink_hosts: ['javascript:alert(1)']\n"],
                "count": 1}], ["rules/cytosis/game.yaml", "link_hosts"])
    for base, health, engine in (("grey-rush-2e", 7, "cpsat"), ("toxic-hoard-1e", 5, "exhaustive")):
        text = base_text(base)
        if "expected:" in text:
            text = text.replace("expected: {health: 9}", f"expected: {{health: {health}}}")
        else:
            text += f"expected: {{health: {health}}}\n"
        line = text[:text.index("expected:")].count("\n") + 1
        optimum = {"grey-rush-2e": 9, "toxic-hoard-1e": 4}[base]
        puzzle_case(f"puzzle-{base[-2:]}-expected-{health}-{engine}", f"expected.health {health} where the optimum is "
                    f"{optimum} (--engine {engine}; no word of it before)", base, text, exit=1, command="solve",
                    extra=("--engine", engine) + (("--no-confirm",) if engine == "cpsat" else ()),
                    mentions=[f"{base}.yaml:{line}", "expected.health", f"optimum of {optimum}"])
    puzzle = "{root}/data/puzzles/grey-rush-2e.yaml"
    for slug, options, word in (("workers", ["--workers", "3"], "--workers 3"), ("seed", ["--seed", "11"], "--seed 11"),
                                ("progress", ["--progress"], "--progress"),
                                ("confirm-budget", ["--confirm-budget", "9"], "--confirm-budget 9")):
        add(f"cli-solve-exhaustive-{slug}", f"--engine exhaustive {' '.join(options)} (ignored silently before)", "solver",
            ["solve", puzzle, "--engine", "exhaustive", *options], 2, [word, "--engine exhaustive"], seconds=5.0)
    add("cli-solve-no-confirm-budget", "--no-confirm --confirm-budget 4: a budget for nothing", "solver",
        ["solve", puzzle, "--no-confirm", "--confirm-budget", "4"], 2, ["--confirm-budget 4", "--no-confirm"], seconds=5.0)
    for slug, args in (("validate", ["validate", ""]), ("solve", ["solve", ""]),
                       ("replay-plan", ["replay", puzzle, ""]),
                       ("record-from", ["record", puzzle, "--out", "{case}/r.json", "--from", ""])):
        add(f"cli-{slug}-empty-path", f"{slug.replace('-', ' ')} '' (read as the current folder before)", "solver",
            args, 2, ["empty path"], seconds=5.0)


def main() -> None:
    if CASES.exists():
        shutil.rmtree(CASES)
    CASES.mkdir()
    field_cases()
    text_cases()
    plan_cases()
    cli_cases()
    data_cases()
    issue38_cases()
    issue69_cases()
    for case in cases:
        (CASES / case["name"]).mkdir(exist_ok=True)
    manifest = {"about": "Named bad inputs: see tests/badinput/make_corpus.py (writes this file) and "
                         "tests/badinput/harness.py (runs them).", "cases": cases}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases written to {CASES.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
