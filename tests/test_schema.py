"""Declared schemas for data files (generator/schema.py): every problem at once, each with its file,
line, field, value and expectation, in the one error format."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator import schema
from generator.errors import Problems
from solver.io.loading import parse_yaml

SCHEMA: schema.Schema = {
    "type": "object", "required": ["id", "items"], "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z]+$", "expected": "an id of a-z"},
        "count": {"type": "integer", "minimum": 0, "maximum": 9},
        "kind": {"enum": ["a", "b"]},
        "note": {"type": "object", "required": ["it", "en"], "member": "translation",
                 "properties": {"it": {"type": "string"}, "en": {"type": "string"}}},
        "items": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["name"], "additionalProperties": False,
            "dependentRequired": {"text": ["text_source"]},
            "properties": {"name": {"type": "string", "minLength": 1}, "text": {}, "text_source": {}}}},
    },
}


def check(text: str) -> tuple[list[str], schema.Faults]:
    data, located = parse_yaml(text, "data/x.yaml")
    problems = Problems()
    faults = schema.check(data, located, Path("data/x.yaml"), SCHEMA, problems,
                          entry=lambda path: f"item #{path[1] + 1}" if path[:1] == ("items",) and len(path) > 1 else "")
    return [str(p) for p in problems.items], faults


def test_a_good_file_has_no_fault():
    messages, faults = check("id: abc\ncount: 3\nitems:\n  - {name: x, text: t, text_source: s}\n")
    assert messages == [] and not faults and faults.clean("items", 0)


@pytest.mark.parametrize("text, says", [
    ("id: ABC\nitems: [{name: x}]\n", "data/x.yaml:1: id: expected an id of a-z, got 'ABC'"),
    ("id: abc\ncount: 10\nitems: [{name: x}]\n", "data/x.yaml:2: count: expected an integer from 0 to 9, got 10"),
    ("id: abc\ncount: 3.0\nitems: [{name: x}]\n", "data/x.yaml:2: count: expected an integer, got 3.0"),
    ("id: abc\ncount: true\nitems: [{name: x}]\n", "data/x.yaml:2: count: expected an integer, got True"),
    ("id: abc\nkind: c\nitems: [{name: x}]\n", "data/x.yaml:2: kind: expected one of 'a', 'b', got 'c'"),
    ("id: abc\nextra: 1\nitems: [{name: x}]\n", "data/x.yaml:2: extra: unknown field 'extra': expected one of "
                                                 "count, id, items, kind, note"),
    ("items: [{name: x}]\n", "data/x.yaml:1: missing field 'id'"),
    ("id: abc\nnote: {it: x}\nitems: [{name: x}]\n", "data/x.yaml:2: note: missing translation 'en'"),
    ("id: abc\nitems: []\n", "data/x.yaml:2: items: expected a list of at least 1 item(s), got []"),
    ("id: abc\nitems:\n  - {name: ''}\n", "data/x.yaml:3: items[0].name: item #1: expected a non-empty text, got ''"),
    ("id: abc\nitems:\n  - {name: x, text: t}\n",
     "data/x.yaml:3: items[0]: item #1: missing field 'text_source' (given with 'text')"),
    ("- a\n", "data/x.yaml:1: expected a mapping, got ['a']"),
])
def test_each_problem_names_file_line_field_value_and_expectation(text, says):
    messages, _ = check(text)
    assert says in messages, messages


def test_every_problem_is_reported_at_once_in_file_order():
    messages, faults = check("id: ABC\ncount: -1\nitems:\n  - {name: x}\n  - {name: 3, wings: 2}\n")
    assert [m.split(": ")[0] for m in messages] == ["data/x.yaml:1", "data/x.yaml:2", "data/x.yaml:5", "data/x.yaml:5"]
    assert faults.clean("items", 0) and not faults.clean("items", 1) and faults.usable("items", 1)
    assert not faults.usable("items", 1, "name") and not faults.usable("id")


def test_a_long_value_is_cut_in_the_message():
    messages, _ = check("id: abc\ncount: [" + ", ".join(["1234567890"] * 40) + "]\nitems: [{name: x}]\n")   # ids are short now
    assert len(messages[0]) < 200 and "..." in messages[0]
