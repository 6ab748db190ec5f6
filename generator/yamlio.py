"""YAML loading for the generator: the shared loader (:mod:`solver.io.loading`) with errors as
:class:`DataError`, and line numbers for every value (:class:`Located`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.io.loading import Located, LoadError, dotted, load_yaml as _load_yaml

from .errors import Problem, DataError

__all__ = ["Located", "load_yaml", "yaml_path"]


def load_yaml(file: str | Path) -> tuple[Any, Located]:
    """Read ``file`` with the shared loader; any problem becomes a :class:`DataError` naming file and line."""
    try:
        return _load_yaml(file)
    except LoadError as err:
        raise DataError([Problem(err.file, err.where, err.detail, err.line)]) from None


def yaml_path(*parts: Any) -> str:
    """Render a path tuple as ``terms[3].it``."""
    return dotted(parts)
