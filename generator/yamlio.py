"""YAML loading for the generator: the shared loader (:mod:`solver.io.loading`) with errors as
:class:`DataError`, and line numbers for every value (:class:`Located`).

A text parsed once is not parsed again in the same process: the values and lines of every text
read are kept, by the text itself, and each caller gets a copy of its own. The bad-input corpus
(``tests/badinput``) loads the real data once, then forks a child per broken copy of it, which now
parses only the file its case breaks: its 79 data cases took 90 processor seconds, 46 with this."""
from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from solver.io.loading import Located, LoadError, dotted, parse_yaml, read_text

from .errors import Problem, DataError

__all__ = ["Located", "load_yaml", "yaml_path"]

_PARSED: dict[str, tuple[bytes, dict[Any, int]]] = {}
"""Text -> its values (pickled: a copy is a fresh unpickling, 20 times faster than parsing) and lines."""
PARSED_TEXTS = 2048
"""Texts kept at most (``mkdocs serve`` parses every edited file anew): then the memory starts over."""


def load_yaml(file: str | Path) -> tuple[Any, Located]:
    """Read ``file`` with the shared loader; any problem becomes a :class:`DataError` naming file and line."""
    try:
        text = read_text(file)
        known = _PARSED.get(text)
        if known is None:
            value, located = parse_yaml(text, file)
            if len(_PARSED) >= PARSED_TEXTS:
                _PARSED.clear()
            _PARSED[text] = (pickle.dumps(value, pickle.HIGHEST_PROTOCOL), dict(located.lines))
            return value, located
    except LoadError as err:
        raise DataError([Problem(err.file, err.where, err.detail, err.line)]) from None
    return pickle.loads(known[0]), Located(file, dict(known[1]))


def yaml_path(*parts: Any) -> str:
    """Render a path tuple as ``terms[3].it``."""
    return dotted(parts)
