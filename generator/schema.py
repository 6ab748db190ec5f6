"""Data files checked against declared JSON Schemas: every problem at once, each one located with
the loader's line numbers (:class:`solver.io.loading.Located`) and worded in the one error format
(``file:line: field: expected …, got …``, :func:`solver.game.errors.located_message`).

A schema states the shape of a file (types, required and unknown keys, enumerations, id forms,
both languages present); what needs other files or the whole file (cross-references, duplicates,
numbers found in the rules) stays code in the loader, which runs it on the values that have their
declared shape (:meth:`Faults.usable`, :meth:`Faults.clean`).

Any subschema may carry ``"expected"``, the words a person reads after "expected" when a value is
refused there (``"a group id of a-z, 0-9 and '-'"``): validators ignore the keyword, and without
it the message is built from the failing keyword (``expected an integer, got 'x'``). ``"member"``
names what a missing required key is (``"translation"``: "missing translation 'en'"; "field" without it).
"""
from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from solver.io.loading import DataPath, Located, dotted

from .errors import Problems

Schema = dict[str, Any]
"""A JSON Schema (draft 2020-12) as a Python mapping."""

NONEMPTY_TEXT: Schema = {"type": "string", "pattern": r"\S", "expected": "a non-empty text"}
"""A text holding at least one character that is not a space."""


def in_languages(langs: Iterable[str], expected: str, *, text: Callable[[str], Schema] = lambda lang: NONEMPTY_TEXT,
                 closed: bool = False, member: str | None = "translation") -> Schema:
    """A text in each of ``langs`` (``{it: ..., en: ...}``): ``text(lang)`` is each one's schema,
    ``closed`` refuses other keys, ``member`` names a missing language ("missing translation 'en'";
    "missing field 'en'" when None)."""
    langs = list(langs)
    body: Schema = {"type": "object", "required": langs}
    if closed:
        body["additionalProperties"] = False
    body["properties"] = {lang: text(lang) for lang in langs}
    body["expected"] = expected
    if member is not None:
        body["member"] = member
    return body

_repr = reprlib.Repr()
_repr.maxstring, _repr.maxother, _repr.maxlist, _repr.maxdict, _repr.maxlevel = 80, 80, 6, 6, 3

_KINDS = {"integer": "an integer", "number": "a number", "string": "a text", "object": "a mapping",
          "array": "a list", "boolean": "true or false", "null": "nothing (null)"}


def shown(value: Any) -> str:
    """``repr`` of a data value, cut to a readable length (a whole mapping can be pages long)."""
    return _repr.repr(value)


def _is_integer(checker: object, value: object) -> bool:
    """Strict: ``8.0`` is a float and ``true`` a boolean, neither is an integer."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(checker: object, value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}))
"""Draft 2020-12 with strict numbers (the standard counts ``8.0`` as an integer, YAML ``true`` is no number)."""

_validators: dict[int, tuple[Schema, Any]] = {}
"""Validators by schema (the schema kept with it, so that its id is not reused)."""


@dataclass
class Faults:
    """The places (data paths) where a file broke its schema."""

    paths: set[DataPath] = field(default_factory=set)

    def usable(self, *path: Any) -> bool:
        """The value at ``path`` and every value above it have their declared type and keys (values
        below it may still be faulty)."""
        return not any(path[:n] in self.paths for n in range(len(path) + 1))

    def clean(self, *path: Any) -> bool:
        """Nothing at, above or below ``path`` broke the schema: the value is what the schema declares."""
        return self.usable(*path) and not any(p[:len(path)] == path for p in self.paths)

    def __bool__(self) -> bool:
        return bool(self.paths)


def check(data: Any, located: Located, file: str | Path, schema: Schema, problems: Problems,
          entry: Callable[[DataPath], str] | None = None) -> Faults:
    """Check ``data`` (read from ``file`` with lines ``located``) against ``schema``; every problem
    goes to ``problems`` (one per value and expectation, in file order); returns where they are.

    ``entry`` names the entry a path lies in (``entry 'speed'``), put before its messages."""
    cached = _validators.get(id(schema))
    if cached is None or cached[0] is not schema:
        _Validator.check_schema(schema)
        cached = _validators[id(schema)] = (schema, _Validator(schema, format_checker=_Validator.FORMAT_CHECKER))
    validator = cached[1]
    found: dict[tuple[DataPath, str], None] = {}
    for error in validator.iter_errors(data):
        for path, message in _describe(error):
            found.setdefault((path, message))
    faults = Faults()
    for path, message in sorted(found, key=lambda pm: (located.line(pm[0]) or 0, pm[0].__repr__())):
        faults.paths.add(path)
        named = entry(path) if entry is not None else ""
        problems.add(file, dotted(path), f"{named}: {message}" if named else message, located.line(path))
    return faults


def _expected(error: jsonschema.ValidationError) -> str | None:
    schema = error.schema
    return schema.get("expected") if isinstance(schema, Mapping) else None


def _describe(error: jsonschema.ValidationError) -> Iterable[tuple[DataPath, str]]:
    """The located messages of one schema error."""
    path: DataPath = tuple(error.absolute_path)
    # set on every error a validator reports (the stubs allow them unset, as on a hand-made error)
    keyword, want = error.validator, error.validator_value
    wanted: Any = want
    value: Any = error.instance
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if keyword == "additionalProperties" and isinstance(value, Mapping):
        allowed = sorted(schema.get("properties", {}))
        for key in sorted((k for k in value if k not in allowed), key=str):
            yield (*path, key), f"unknown field {key!r}: expected one of {', '.join(allowed)}"
        return
    if keyword == "required" and isinstance(value, Mapping):
        for key in wanted:
            if key not in value:
                yield path, f"missing {schema.get('member', 'field')} {key!r}"
        return
    if keyword == "dependentRequired" and isinstance(value, Mapping):
        for key, needs in wanted.items():
            for need in needs if key in value else ():
                if need not in value:
                    yield path, f"missing field {need!r} (given with {key!r})"
        return
    expected = _expected(error)
    if expected is None:
        expected = _fallback(str(keyword), want, value, schema, error)
    yield path, f"expected {expected}, got {shown(value)}"


def _fallback(keyword: str, want: Any, value: Any, schema: Mapping[str, Any],
              error: jsonschema.ValidationError) -> str:
    """What a keyword asks for, in words, when its schema says nothing itself."""
    if keyword == "type":
        kinds = want if isinstance(want, list) else [want]
        return " or ".join(_KINDS.get(k, str(k)) for k in kinds)
    if keyword in ("enum", "const"):
        options = want if keyword == "enum" else [want]
        return "one of " + ", ".join(repr(o) for o in options) if len(options) > 1 else repr(options[0])
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum")
        kind = "an integer" if schema.get("type") == "integer" else "a number"
        if low is not None and high is not None:
            return f"{kind} from {low} to {high}"
        return f"{kind} > {low}" if "exclusiveMinimum" in schema else f"{kind} >= {low}" if low is not None \
            else f"{kind} <= {high}"
    if keyword in ("minItems", "maxItems"):
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        return f"a list of {low} to {high} items" if high is not None else f"a list of at least {low} item(s)"
    if keyword == "minLength":
        return "a non-empty text"
    if keyword == "maxLength":
        return f"a text of at most {want} characters"
    if keyword == "pattern":
        return f"a text matching {want}"
    if keyword == "format":
        return {"date": "an ISO date (2026-11-27)"}.get(str(want), f"a {want}")
    return error.message
