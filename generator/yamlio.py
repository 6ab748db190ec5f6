"""YAML loading that remembers where every value came from, for error messages with line numbers."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import Problem, DataError, display_path

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader when PyYAML was built with it (same results, several times faster)."""


class Located:
    """Maps YAML paths (tuples of keys and indexes) to 1-based line numbers."""

    def __init__(self, file: Path, lines: dict[tuple, int]):
        self.file = file
        self._lines = lines

    def line(self, *path: Any) -> int | None:
        """Line of the value at ``path``, or of its nearest known parent."""
        path = tuple(path)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return self._lines.get((), None)


def _walk(node: yaml.Node, path: tuple, out: dict[tuple, int]) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            out[path + (key,)] = key_node.start_mark.line + 1
            _walk(value_node, path + (key,), out)
            out[path + (key,)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), out)


def load_yaml(file: str | Path) -> tuple[Any, Located]:
    """Parse ``file``; a syntax error becomes a :class:`DataError` naming file and line."""
    file = Path(file)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError([Problem(display_path(file), "", f"cannot read file: {exc.strerror}")]) from None
    try:
        node = yaml.compose(text, Loader=_LOADER)
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc)
        raise DataError([Problem(display_path(file), "", f"YAML syntax error: {what}", line)]) from None
    lines: dict[tuple, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return data, Located(file, lines)


def yaml_path(*parts: Any) -> str:
    """Render a path tuple as ``terms[3].it``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
