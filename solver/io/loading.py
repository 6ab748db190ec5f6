"""The one loader for every file a person writes: YAML data, puzzles, boards, JSON plans.

Shared by :mod:`solver` and :mod:`generator` (the solver owns it because it must not import the
generator). What it guarantees, so that no malformed file reaches the code that uses the data:

* the file is a regular, readable file of at most :data:`MAX_BYTES` bytes (a symlink loop, a
  folder, a missing file: one clear error);
* UTF-8 text (a byte-order mark is tolerated and dropped), no NUL or other control characters;
* YAML: aliases bounded (a copy of their anchor's value; at most :data:`MAX_VALUES` values per
  file once expanded, so no "billion laughs"), a duplicate key is an error, the keys
  of one mapping are all strings or all integers (``{1: [...], '1': [...]}`` would silently lose
  a list), keys are strings or integers only, one document per file;
* JSON: the strict standard (no ``NaN``/``Infinity``), duplicate keys an error;
* nesting at most :data:`MAX_DEPTH` deep;
* a 1-based line number for every value (:class:`Located`).

Every problem raises :class:`LoadError` naming the file, the line when known, what was found and
what was expected. Callers turn it into their own error type (``PuzzleError``, ``DataError``).
"""
from __future__ import annotations

import copy
import json
import os
import re
import stat
from pathlib import Path
from typing import Any, NoReturn, Protocol

import yaml

from solver.game.errors import located_message

MAX_BYTES = 2_000_000
"""Largest file accepted (bytes). The biggest shipped data file is well under 200 kB."""
MAX_DEPTH = 32
"""Deepest nesting of lists and mappings accepted. Shipped files nest at most 6 deep."""
MAX_DIGITS = 30
"""Most digits a number in a file may have (an integer's, or a decimal's mantissa and exponent
together): far beyond any field's range (puzzle amounts stop at 999, a seed at 2**31), short of
Python's 4,300-digit conversion limit, and cheap to convert. Each field's own range is checked
after, by its schema or loader."""
MAX_VALUES = 200_000
"""Most values one file may hold once its aliases are expanded (a "billion laughs" file would
otherwise grow without end). The biggest shipped data file holds about 10,000."""

DataPath = tuple[Any, ...]
"""Where a value sits in a parsed file: mapping keys and list indexes, ``("terms", 3, "it")``."""

ROOT = Path(__file__).resolve().parents[2]
"""Repository root: file names in messages are relative to it when possible."""

_PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (same events, several times faster)."""
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Bidirectional controls: they reorder the text around them on screen (an id, a title or a menu
entry would read otherwise than it is written: "Trojan Source")."""
_INVISIBLE = "\u00ad\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
"""Characters that show nothing (zero-width spaces and joiners, the soft hyphen, fillers, invisible
operators, a byte-order mark inside the text): a text holding one differs from what the reader
sees; the project's texts (Italian and English) need none."""
_NONCHARACTER = "\ufdd0-\ufdef\ufffe\uffff"
"""Unicode noncharacters (never text: a byte order mark read the wrong way round is U+FFFE)."""
_UNPRINTABLE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_BIDI}{_INVISIBLE}{_NONCHARACTER}]")
"""What no text value may hold once escapes are read (``"\\e"`` in YAML, ``"\\u001b"`` in JSON):
control characters other than tab and newline (a NUL, a terminal's ESC colour codes, C1 controls),
lone surrogates (no UTF-8 writer can write them), bidirectional controls, invisible characters
and noncharacters."""
_UNWRITABLE = re.compile(f"[\\x80-\\x84\\x86-\\x9f{_BIDI}{_INVISIBLE}{_NONCHARACTER}]")
"""What a file may not hold anywhere, comments included, beyond :data:`_CONTROL` (the C1 controls but
NEL, which YAML reads as a line break; bidirectional controls, invisible characters, noncharacters)."""

MAX_ID_CHARS = 64
"""Longest id (a file's ``id``, a list entry's ``id``): the longest shipped is 37; a mapping key may
be twice as long."""
MAX_TITLE_CHARS = 1_000
"""Longest title, name or label (a value under ``title``, ``name`` or ``label``, in any language):
eight times the longest shipped (121); the hostile build's titles, which carry one payload of every
class (tests/hostile_site.py), take 531."""
MAX_TEXT_CHARS = 20_000
"""Longest text of any other field: the longest shipped (a card's rules text) is 1,892."""
_TITLE_KEYS = frozenset({"title", "name", "label"})


def char_name(char: str) -> str:
    """``U+202E (a bidirectional control)``: a character the reader cannot see, named."""
    code = f"U+{ord(char):04X}"
    if re.fullmatch(f"[{_BIDI}]", char):
        return f"{code} (a bidirectional control: it reorders the text around it on screen)"
    if re.fullmatch(f"[{_INVISIBLE}]", char):
        return f"{code} (an invisible character)"
    if re.fullmatch(f"[{_NONCHARACTER}]", char):
        return f"{code} (a Unicode noncharacter)"
    if "\ud800" <= char <= "\udfff":
        return f"{code} (a lone surrogate)"
    return f"{code} (a control character)"


def unwritable_at(text: str) -> tuple[int, int, str] | None:
    """The first character of a whole file's ``text`` no data file may hold (a control character
    other than tab and line breaks, a bidirectional control, an invisible character, a
    noncharacter): its 1-based line and column and the message; None if there is none. For the
    files read without :func:`read_text` (the rules' Markdown)."""
    bad = _CONTROL.search(text) or _UNWRITABLE.search(text)
    if bad is None:
        return None
    line = text.count("\n", 0, bad.start()) + 1
    column = bad.start() - text.rfind("\n", 0, bad.start())
    control = _CONTROL.match(bad.group()) is not None
    what = f"control character {bad.group()!r}" if control else char_name(bad.group())
    return line, column, f"expected {'text' if control else 'visible text'}, got {what} at column {column}"


def text_fault(value: str) -> str | None:
    """Why ``value`` is not printable text (a control character other than tab and newline, a lone
    surrogate, a bidirectional control, an invisible character, a noncharacter), or None."""
    bad = _UNPRINTABLE.search(value)
    if bad is None:
        return None
    char = bad.group()
    what = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "control character"
    if re.fullmatch(f"[{_BIDI}{_INVISIBLE}{_NONCHARACTER}]", char):
        what = char_name(char)
        return (f"expected visible text, got {what} at character {bad.start() + 1} of {value[:60]!r}")
    return (f"expected printable text (tab and newline are the only control characters allowed), got {what} "
            f"U+{ord(char):04X} at character {bad.start() + 1} of {value[:60]!r}")


def text_kind(path: DataPath) -> tuple[str, int]:
    """What kind of text sits at ``path`` (``id``, ``title`` or ``text``) and its longest length:
    the path says (``id`` and ``cards[3].id`` ids, ``title.en`` and ``chapters[0].title.it`` titles)."""
    keys = [p for p in path if isinstance(p, str)]
    if path and path[-1] == "id" and (len(path) == 1 or isinstance(path[-2], int)):
        return "id", MAX_ID_CHARS     # a file's or a list entry's id (a catalogue's key ``puzzles.id`` is a label)
    if keys and (keys[-1] in _TITLE_KEYS or len(keys) > 1 and keys[-2] in _TITLE_KEYS and len(keys[-1]) <= 3):
        return "title", MAX_TITLE_CHARS
    return "text", MAX_TEXT_CHARS


def length_fault(value: str, path: DataPath, *, key: bool = False) -> str | None:
    """Why the text ``value`` at ``path`` is too long for its kind, or is only spaces; None if fine.
    A mapping key (``key``) is held to an id's length."""
    kind, most = ("key", MAX_ID_CHARS * 2) if key else text_kind(path)
    if len(value) > most:
        return f"expected {'a' if kind != 'id' else 'an'} {kind} of at most {most} characters, got {len(value):,} ({value[:40]!r}...)"
    if value and not value.strip():
        return f"expected visible text, got only spaces {value!r}"
    return None


class LoadError(Exception):
    """A file cannot be read as data: ``file[:line]: message``."""

    def __init__(self, file: str, message: str, line: int | None = None, where: str = ""):
        self.file = file
        """The file, relative to the repository root when possible."""
        self.detail = message
        """What was found and what was expected."""
        self.line = line
        """1-based line, when known."""
        self.where = where
        """Path of the offending value (``terms[3].it``), or ''."""
        super().__init__(located_message(file, line, where, message))


def display_path(file: str | Path) -> str:
    """``file`` relative to the repository root when it lies inside it, else as given."""
    path = Path(file)
    try:
        return str(path.absolute().relative_to(ROOT))
    except ValueError:
        return str(path)


def dotted(path: DataPath) -> str:
    """Render a path tuple as ``terms[3].it``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class Located:
    """1-based line numbers of the values of one file, by path (tuple of keys and indexes)."""

    def __init__(self, file: Path | str, lines: dict[DataPath, int] | None = None):
        self.file = Path(file)
        """The file the lines belong to."""
        self.lines: dict[DataPath, int] = lines if lines is not None else {}
        """Path -> line of the value (for a mapping entry: the line of its key)."""

    def line(self, *path: Any) -> int | None:
        """Line of the value at ``path``, or of its nearest known parent.

        Accepts the path as separate parts (``line("terms", 3)``) or as one tuple or list."""
        if len(path) == 1 and isinstance(path[0], (tuple, list)):
            path = tuple(path[0])
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())


# --------------------------------------------------------------------------- reading bytes

def read_text(file: str | Path, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of ``file``: a regular file, at most ``max_bytes``, UTF-8 (BOM dropped)."""
    path = Path(file)
    shown = display_path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise LoadError(shown, "cannot read file: no such file") from None
    except OSError as exc:  # ELOOP (symlink loop), EACCES, ENAMETOOLONG...
        raise LoadError(shown, f"cannot read file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise LoadError(shown, "cannot read file: expected a file, got a folder")
    if not stat.S_ISREG(info.st_mode):
        raise LoadError(shown, "cannot read file: expected a regular file (not a device, pipe or socket)")
    if info.st_size > max_bytes:
        raise LoadError(shown, f"file too large: expected at most {max_bytes} bytes, got {info.st_size}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise LoadError(shown, f"cannot read file: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise LoadError(shown, f"file too large: expected at most {max_bytes} bytes")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise LoadError(shown, f"expected UTF-8 text, got byte 0x{raw[exc.start]:02x} "
                               f"(save the file as UTF-8)", line) from None
    fault = unwritable_at(text)
    if fault:
        line, _, message = fault
        raise LoadError(shown, message, line)
    return text


# --------------------------------------------------------------------------- YAML

_RESOLVER = yaml.resolver.Resolver()
_PLAIN_TAGS = {None, "!", *(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null"))}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class _LongNumber(Exception):
    """A number with more than :data:`MAX_DIGITS` digits (refused before it is converted)."""

    def __init__(self, text: str):
        self.text = text


def number_fault(text: str) -> str:
    """The message for a number written with too many digits, or beyond a float's range (quoting
    its start and its length)."""
    digits = sum(ch.isdigit() for ch in text)
    shown = text if len(text) <= 40 else f"{text[:20]}...{text[-8:]}"
    if digits <= MAX_DIGITS:
        return f"expected a finite number, got {shown} (beyond the largest number a file may hold)"
    return f"expected a number of at most {MAX_DIGITS} digits, got one of {digits} digits ({shown})"


def _scalar(event: yaml.ScalarEvent) -> Any:
    tag = event.tag
    if tag is None or tag == "!":
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and sum(ch.isdigit() for ch in event.value) > MAX_DIGITS:
        raise _LongNumber(event.value)
    # libyaml's marks (CSafeLoader) serve a node as well as pure Python's; types-PyYAML types them apart
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)  # type: ignore[arg-type]
    return _CONSTRUCTOR.construct_object(node)


def _key_kind(key: Any) -> str:
    return "integer" if isinstance(key, int) else "text"


class _Frame:
    """A list or mapping being built."""

    __slots__ = ("value", "path", "key", "key_line", "key_kind", "is_map", "anchor", "first_value")

    def __init__(self, value: Any, path: DataPath, is_map: bool, anchor: str | None, first_value: int):
        self.value, self.path, self.is_map = value, path, is_map
        self.anchor, self.first_value = anchor, first_value
        self.key: object = _NO_KEY
        self.key_line: int | None = None
        self.key_kind: str | None = None


class _Mark(Protocol):
    """Where a YAML event starts (pure Python's and libyaml's marks alike)."""

    @property
    def line(self) -> int: ...


_NO_KEY = object()


def parse_yaml(text: str, file: str | Path = "<text>", *, max_depth: int = MAX_DEPTH,
               max_values: int = MAX_VALUES, printable: bool = True) -> tuple[Any, Located]:
    """Parse YAML ``text`` into plain values and their lines (see the module docstring); with
    ``printable`` (the default), a text value holding a control character is refused."""
    shown = display_path(file) if file != "<text>" else file
    lines: dict[DataPath, int] = {}
    stack: list[_Frame] = []
    root: list[Any] = []
    documents = 0

    def fail(message: str, mark: _Mark | None, path: DataPath = ()) -> NoReturn:
        raise LoadError(shown, message, mark.line + 1 if mark is not None else None, dotted(path))

    def place(value: Any, event: yaml.Event) -> DataPath | None:
        """Attach ``value`` to the open container; return its path (None for a mapping key)."""
        start = event.start_mark
        assert start is not None, "the parser marks every event"
        if not stack:
            root.append(value)
            lines[()] = start.line + 1
            return ()
        top = stack[-1]
        if top.is_map:
            if top.key is _NO_KEY:  # this value is a key
                if isinstance(value, (list, dict)):
                    fail("expected a text or integer key, got a list or mapping", start, top.path)
                if isinstance(value, bool) or not isinstance(value, (str, int)):
                    fail(f"expected a text or integer key, got {value!r} (quote it to make it a text)",
                         start, top.path)
                kind = _key_kind(value)
                if top.key_kind is not None and kind != top.key_kind:
                    fail(f"key {value!r} is {'an' if kind == 'integer' else 'a'} {kind}, the keys before it are "
                         f"{top.key_kind}s: expected keys of one kind (write all of them as {top.key_kind}s)",
                         start, top.path)
                if value in top.value:
                    fail(f"duplicate key {value!r} (first on line {lines.get(top.path + (value,))}): "
                         f"expected each key once", start, top.path)
                top.key_kind = kind
                top.key = value
                top.key_line = start.line + 1
                return None
            path = top.path + (top.key,)
            top.value[top.key] = value
            assert top.key_line is not None, "set with the key"
            lines[path] = top.key_line
            top.key = _NO_KEY
            return path
        path = top.path + (len(top.value),)
        top.value.append(value)
        lines[path] = start.line + 1
        return path

    anchors: dict[str, tuple[Any, int]] = {}
    count = 0

    def where() -> DataPath:
        """Path of the value being read (its key's inside a mapping, its index inside a list)."""
        if not stack:
            return ()
        top = stack[-1]
        if top.is_map:
            return top.path + (top.key,) if top.key is not _NO_KEY else top.path
        return top.path + (len(top.value),)    # the list item being read

    try:
        for event in yaml.parse(text, Loader=_PARSER):
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    fail("expected one YAML document, got a second one (a line `---`)", event.start_mark)
            elif isinstance(event, yaml.AliasEvent):
                if event.anchor not in anchors:
                    fail(f"YAML alias *{event.anchor} used before its anchor is complete", event.start_mark, where())
                value, size = anchors[event.anchor]
                count += size
                if count > max_values:
                    fail(f"too many values once the YAML aliases are expanded: expected at most {max_values} "
                         f"(write the values out instead of *{event.anchor})", event.start_mark, where())
                place(copy.deepcopy(value), event)
            elif isinstance(event, yaml.ScalarEvent):
                if event.tag not in _PLAIN_TAGS:
                    fail(f"expected a plain value, got the YAML tag {event.tag!r}", event.start_mark, where())
                try:
                    value = _scalar(event)
                except _LongNumber as long:
                    fail(number_fault(long.text), event.start_mark, where())
                except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
                    fail(f"cannot read value {event.value!r}: {exc}", event.start_mark, where())
                if isinstance(value, (bytes, set)):
                    fail(f"expected a text, number or true/false, got {type(value).__name__}", event.start_mark,
                         where())
                if printable and isinstance(value, str) and (fault := text_fault(value)):
                    fail(fault + _escape_column(text, event), event.start_mark, where())
                if isinstance(value, str):
                    is_key = bool(stack) and stack[-1].is_map and stack[-1].key is _NO_KEY
                    if fault := length_fault(value, where(), key=is_key):
                        fail(fault, event.start_mark, where())
                count += 1
                if count > max_values:
                    fail(f"too many values: expected at most {max_values}", event.start_mark, where())
                place(value, event)
                if event.anchor is not None:
                    anchors[event.anchor] = (value, 1)
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if event.tag not in (None, "!", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"):
                    fail(f"expected a plain list or mapping, got the YAML tag {event.tag!r}", event.start_mark,
                         where())
                is_map = isinstance(event, yaml.MappingStartEvent)
                if len(stack) >= max_depth:
                    fail(f"nested too deeply: expected at most {max_depth} levels of lists and mappings",
                         event.start_mark, where()[:3])
                if stack and stack[-1].is_map and stack[-1].key is _NO_KEY:
                    fail("expected a text or integer key, got a list or mapping", event.start_mark, where())
                container: Any = {} if is_map else []
                count += 1
                path = place(container, event)
                assert path is not None, "a list or mapping is never a key (refused above)"
                stack.append(_Frame(container, path, is_map, event.anchor, count))
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                frame = stack.pop()
                if frame.anchor is not None:
                    anchors[frame.anchor] = (frame.value, count - frame.first_value + 1)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or str(exc)
        raise LoadError(shown, f"YAML syntax error: {what}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise LoadError(shown, f"YAML syntax error: {exc}") from None
    except RecursionError:
        raise LoadError(shown, f"nested too deeply: expected at most {max_depth} levels") from None
    return (root[0] if root else None), Located(file, lines)


def _escape_column(text: str, event: yaml.ScalarEvent) -> str:
    """`` at column N``: where in its line the escape that wrote an unprintable character starts
    (``"\\u202e"``), or the value itself when the escape is not found."""
    start, end = event.start_mark, event.end_mark
    if start is None or end is None:
        return ""
    index = getattr(start, "index", None)
    source = text[index:getattr(end, "index", index)] if index is not None else ""
    escape = re.search(r"\\(?:[xuU][0-9a-fA-F]+|[0abtnvfre \"/\\N_LP])", source)
    found = escape.group() if escape else ""
    offset = (source[:escape.start()] if escape else "").rsplit("\n", 1)
    column = (len(offset[-1]) + 1 if len(offset) > 1 else start.column + len(offset[0]) + 1) if escape else start.column + 1
    return f" (written {found!r} at column {column})" if found else f" (the value starts at column {column})"


def load_yaml(file: str | Path, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> tuple[Any, Located]:
    """Read and parse a YAML file a person writes; raises :class:`LoadError`."""
    text = read_text(file, max_bytes=max_bytes)
    return parse_yaml(text, file, max_depth=max_depth)


# --------------------------------------------------------------------------- JSON

class _Constant(Exception):
    def __init__(self, name: str):
        self.name = name


def _no_constant(name: str) -> NoReturn:
    raise _Constant(name)


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (list, dict)):
            depth += 1
            deepest = max(deepest, depth)
            todo.extend((v, depth) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(text: str, file: str | Path = "<text>", *, max_depth: int = MAX_DEPTH) -> tuple[Any, Located]:
    """Parse strict JSON ``text``; lines come from the YAML parser (JSON is YAML flow syntax)."""
    shown = display_path(file) if file != "<text>" else file

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise _Duplicate(key)
            out[key] = value
        return out

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=_no_constant, parse_int=_json_int,
                          parse_float=_json_float)
    except _LongNumber as long:     # before Python converts it (past 4,300 digits: a ValueError)
        data, located = _parse_json_shape(text, file, max_depth)
        path = _first_long_number(data)
        raise LoadError(shown, number_fault(long.text), located.line(path) if path is not None else
                        _text_line(text, long.text), dotted(path or ())) from None
    except _Duplicate as dup:
        line = _json_key_line(text, dup.key)
        raise LoadError(shown, f"duplicate key {dup.key!r}: expected each key once", line) from None
    except json.JSONDecodeError as exc:
        raise LoadError(shown, f"JSON syntax error: {exc.msg}", exc.lineno) from None
    except _Constant as const:
        found = re.search(rf"(?<![\w\"]){re.escape(const.name)}(?![\w\"])", text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        raise LoadError(shown, f"expected a number, got {const.name} (not valid JSON)", line) from None
    except RecursionError:
        data = None
    if data is None and text.count("[") + text.count("{") > max_depth or _depth(data) > max_depth:
        line = _json_deep_line(text, max_depth)
        if line is not None or data is not None:
            raise LoadError(shown, f"nested too deeply: expected at most {max_depth} levels of lists and objects",
                            line)
    try:
        _, located = parse_yaml(text.replace("\t", " "), file, max_depth=max_depth, printable=False)
    except LoadError:  # a JSON corner YAML reads differently: no lines, the values stand
        located = Located(file, {(): 1})
    unprintable = _first_unprintable(data, ())
    if unprintable is not None:
        path, fault = unprintable
        raise LoadError(shown, fault, located.line(path), dotted(path))
    return data, located


class _Number(str):
    """A number's text, kept unconverted (only while a refused file is located)."""


def _json_int(text: str) -> int:
    if sum(ch.isdigit() for ch in text) > MAX_DIGITS:
        raise _LongNumber(text)
    return int(text)


def _json_float(text: str) -> float:
    if sum(ch.isdigit() for ch in text) > MAX_DIGITS:
        raise _LongNumber(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):     # 1e999: no finite number
        raise _LongNumber(text)
    return value


def _parse_json_shape(text: str, file: str | Path, max_depth: int) -> tuple[Any, Located]:
    """The values of a JSON ``text`` whose numbers are kept as :class:`_Number` texts, and their
    lines: where a refused number sits."""
    def keep(number: str) -> _Number:
        return _Number(number)
    try:
        data = json.loads(text, parse_int=keep, parse_float=keep, parse_constant=_no_constant)
    except (ValueError, RecursionError, _Constant):
        data = None
    try:
        _, located = parse_yaml(re.sub(r"-?\d[\d.eE+-]*", "0", text.replace("\t", " ")), file, max_depth=max_depth,
                                printable=False)
    except LoadError:
        located = Located(file, {(): 1})
    return data, located


def _first_long_number(value: Any) -> DataPath | None:
    """The path of the first number of a parsed JSON value with too many digits (or beyond a float's range)."""
    todo: list[tuple[Any, DataPath]] = [(value, ())]
    while todo:
        item, where = todo.pop(0)
        if isinstance(item, _Number):
            try:
                _json_float(item) if any(ch in item for ch in ".eE") else _json_int(item)
            except _LongNumber:
                return where
        elif isinstance(item, dict):
            todo.extend((child, where + (key,)) for key, child in item.items())
        elif isinstance(item, list):
            todo.extend((child, where + (n,)) for n, child in enumerate(item))
    return None


def _text_line(text: str, needle: str) -> int | None:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def _first_unprintable(value: Any, path: DataPath) -> tuple[DataPath, str] | None:
    """The first text (key or value) of a parsed JSON value that is not printable, with its path."""
    todo: list[tuple[Any, DataPath]] = [(value, path)]
    while todo:
        item, where = todo.pop(0)
        if isinstance(item, str):
            fault = text_fault(item) or length_fault(item, where)
            if fault:
                return where, fault
        elif isinstance(item, dict):
            for key, child in item.items():
                fault = text_fault(key) or length_fault(key, where, key=True)
                if fault:
                    return where, f"key: {fault}"
                todo.append((child, where + (key,)))
        elif isinstance(item, list):
            todo.extend((child, where + (n,)) for n, child in enumerate(item))
    return None


def _json_deep_line(text: str, max_depth: int) -> int | None:
    """Line where the JSON ``text`` first nests deeper than ``max_depth`` (strings skipped)."""
    depth, in_string, escaped, line = 0, False, False, 1
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return line
        elif char in "]}":
            depth -= 1
    return None


class _Duplicate(Exception):
    def __init__(self, key: str):
        self.key = key


def _json_key_line(text: str, key: str) -> int | None:
    needle = json.dumps(key)
    first = text.find(needle)
    second = text.find(needle, first + 1) if first >= 0 else -1
    return text.count("\n", 0, second) + 1 if second >= 0 else None


def load_json(file: str | Path, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> tuple[Any, Located]:
    """Read and parse a JSON file a person writes; raises :class:`LoadError`."""
    text = read_text(file, max_bytes=max_bytes)
    return parse_json(text, file, max_depth=max_depth)


def expect_int(value: Any, low: int, high: int) -> str | None:
    """None when ``value`` is an integer in ``low..high`` (not a boolean, not 8.0), else the message."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return f"expected an integer {low}..{high}, got {value!r}"
    return None


# --------------------------------------------------------------------------- line ranges

LINE_RANGE = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?$")


def parse_line_ranges(value: Any) -> tuple[tuple[int, int], ...] | None:
    """``"12-20, 25"`` (or an int) -> ((12, 20), (25, 25)): 1-based source line ranges, each
    start <= end; None when malformed (the caller reports it with its file and field)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    ranges = []
    for part in value.split(","):
        match = LINE_RANGE.match(part.strip())
        if not match:
            return None
        start = int(match.group(1))
        end = int(match.group(2) or start)
        if start < 1 or end < start:
            return None
        ranges.append((start, end))
    return tuple(ranges)
