"""One small exception hierarchy for bad data, and a collector that reports every problem at once.

Messages follow one shape: ``file:line: path: expected …, got …`` so a person can jump to the spot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from solver.game.errors import CellulaError, located_message  # one base class for both packages, defined on the solver's side

__all__ = ["CellulaError", "Problem", "DataError", "Problems", "display_path"]


@dataclass(frozen=True)
class Problem:
    """One problem found in a data file."""

    file: str
    """Path of the file, relative to the repository root when possible."""
    where: str
    """YAML path (``terms[3].it``), section id, or '' for the whole file."""
    message: str
    """What was expected and what was found, quoting the offending value."""
    line: int | None = None
    """1-based line number, when known."""

    def __str__(self) -> str:
        return located_message(self.file, self.line, self.where, self.message)


class DataError(CellulaError):
    """Raised with every problem found while loading and validating data."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in data:"
        super().__init__("\n".join([head, *("  " + str(p) for p in self.problems)]))


@dataclass
class Problems:
    """Collects problems so that validation reports all of them, not just the first."""

    items: list[Problem] = field(default_factory=list)

    def add(self, file: str | Path, where: str, message: str, line: int | None = None) -> None:
        self.items.append(Problem(display_path(file), where, message, line))

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise DataError(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)


def display_path(file: str | Path) -> str:
    """The path relative to the repository root (``data/glossary.yaml``) when it lies inside it."""
    from solver.io.loading import display_path as shared
    return shared(file)
