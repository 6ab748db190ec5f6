"""The message format of the catalogue (``data/i18n/<lang>.yaml``): one safe formatter, used by the
site (``generator.i18n.t``) and by the solver's own reader (:func:`solver.io.catalogue.catalogue_message`).

A catalogue text is written by translators, so it is untrusted: Python's ``str.format`` would let
``{n.__class__}`` or ``{lang[0]}`` read the objects passed in, ``{n:>999999999}`` exhaust memory,
and a lone brace raise. Here a text is literal characters and placeholders, nothing else:

* ``{name}``: a named placeholder (a Python identifier), filled with ``str(value)``;
* ``{name:SPEC}``: the same, aligned: SPEC is ``[<>^]`` (optional), a width 1..:data:`MAX_WIDTH`
  (optional) and ``.P`` a precision 0..:data:`MAX_PRECISION` (optional, numbers only);
* no positional ``{}`` / ``{0}``, no attribute or index access, no ``!r``/``!s`` conversion, no
  literal brace (``{{`` in Markdown is an attribute list: refused by the catalogue check).

:func:`placeholder_fault` says why a text is not of this form (the catalogue check reports it with
file, line and key); :func:`format_message` fills a text, never evaluating anything of it.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

MAX_WIDTH = 80
"""Widest alignment a placeholder may ask for (a column of the command line's table)."""
MAX_PRECISION = 6
"""Most decimals a placeholder may ask for."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SPEC = re.compile(r"(?P<align>[<>^])?(?P<width>[0-9]{1,3})?(?:\.(?P<precision>[0-9]{1,2}))?")


class MessageFormatError(ValueError):
    """A catalogue text that is not of the message format: ``reason`` and the ``placeholder`` at fault."""

    def __init__(self, reason: str, placeholder: str):
        super().__init__(f"{reason} (at {placeholder!r})")
        self.reason = reason
        self.placeholder = placeholder


@dataclass(frozen=True)
class Placeholder:
    """One ``{name:spec}`` of a text."""

    name: str
    align: str = ""
    width: int | None = None
    precision: int | None = None


Part = str | Placeholder


def parse(text: str) -> tuple[Part, ...]:
    """The literal runs and placeholders of ``text``; raises :class:`MessageFormatError` naming the
    offending placeholder (or brace) and what is expected."""
    parts: list[Part] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "}":
            raise MessageFormatError("a closing brace without its opening one (braces only around a "
                                     "placeholder: {name})", text[max(0, i - 10):i + 1])
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        end = text.find("}", i + 1)
        nested = text.find("{", i + 1)
        if end < 0 or (0 <= nested < end):
            raise MessageFormatError("an opening brace without its closing one, or a literal brace (braces "
                                     "only around a placeholder: {name})", text[i:i + 20])
        field = text[i + 1:end]
        shown = "{" + field + "}"
        parts.append("".join(literal))
        literal = []
        parts.append(_placeholder(field, shown))
        i = end + 1
    parts.append("".join(literal))
    return tuple(p for p in parts if p != "")


def _placeholder(field: str, shown: str) -> Placeholder:
    name, colon, spec = field.partition(":")
    if not name:
        raise MessageFormatError("a placeholder without a name (expected a plain {name}, not {} or {:...})", shown)
    if "!" in name:
        raise MessageFormatError("a conversion (!r, !s, !a): expected a plain {name}", shown)
    if not re.fullmatch(_NAME, name):
        if "." in name or "[" in name:
            raise MessageFormatError("attribute or index access: expected a plain {name}", shown)
        raise MessageFormatError("expected a plain {name} of letters, digits and _ (not starting with a "
                                 "digit: no positional {0})", shown)
    if not colon:
        return Placeholder(name)
    m = _SPEC.fullmatch(spec)
    if not spec or m is None:
        raise MessageFormatError(f"expected a format of alignment [<>^], a width 1..{MAX_WIDTH} and a precision "
                                 f".0..{MAX_PRECISION} (e.g. {{name:>5}}), got {spec!r}", shown)
    width = int(m["width"]) if m["width"] else None
    precision = int(m["precision"]) if m["precision"] else None
    if width is not None and not 1 <= width <= MAX_WIDTH:
        raise MessageFormatError(f"expected a width 1..{MAX_WIDTH}, got {width}", shown)
    if precision is not None and precision > MAX_PRECISION:
        raise MessageFormatError(f"expected a precision 0..{MAX_PRECISION}, got {precision}", shown)
    return Placeholder(name, m["align"] or "", width, precision)


def placeholders(text: str) -> frozenset[str]:
    """The names of ``text``'s placeholders (empty for a text that does not parse)."""
    try:
        return frozenset(p.name for p in parse(text) if isinstance(p, Placeholder))
    except MessageFormatError:
        return frozenset()


def placeholder_fault(text: str, allowed: frozenset[str] | set[str] | None = None) -> str | None:
    """Why ``text`` is not a catalogue text :func:`format_message` can fill (with only the names
    ``allowed``, when given), or None."""
    try:
        parts = parse(text)
    except MessageFormatError as exc:
        return f"malformed placeholder {exc.placeholder!r}: {exc.reason}; in {text!r}"
    if allowed is not None:
        for p in parts:
            if isinstance(p, Placeholder) and p.name not in allowed:
                return f"unknown placeholder {{{p.name}}}: expected only {sorted(allowed)}; in {text!r}"
    return None


def _fill(p: Placeholder, value: object) -> str:
    if p.precision is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = f"{float(value):.{p.precision}f}"
    else:
        shown = str(value)
    if p.width is not None and len(shown) < p.width:
        pad = p.width - len(shown)
        if p.align == ">" or (not p.align and isinstance(value, (int, float)) and not isinstance(value, bool)):
            shown = " " * pad + shown
        elif p.align == "^":
            shown = " " * (pad // 2) + shown + " " * (pad - pad // 2)
        else:
            shown = shown + " " * pad
    return shown


def format_message(text: str, params: Mapping[str, object] | None = None) -> str:
    """``text`` with its placeholders filled from ``params`` (each by ``str(value)``, aligned as
    asked). A malformed text raises :class:`MessageFormatError`; a placeholder with no value a
    KeyError naming it (a caller's mistake: the catalogue check declares each key's placeholders)."""
    if not params and "{" not in text and "}" not in text:
        return text
    values = params or {}
    out: list[str] = []
    for part in parse(text):
        if isinstance(part, str):
            out.append(part)
            continue
        try:
            value = values[part.name]
        except KeyError:
            raise KeyError(f"placeholder {{{part.name}}} has no value in {text!r}") from None
        out.append(_fill(part, value))
    return "".join(out)
