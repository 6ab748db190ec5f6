"""The solver's one small exception hierarchy.

Every message quotes the offending value, says what was expected and where, e.g.
``data/puzzles/p3.yaml: start.atp: expected an integer >= 0, got -1``.
"""
from __future__ import annotations

def located_message(file: str, line: int | None, where: str, message: str) -> str:
    """The one form of every data error: ``file[:line]: [where: ]message`` (``where`` a field path
    such as ``start.atp``; left out when empty)."""
    loc = file if line is None else f"{file}:{line}"
    return f"{loc}: {where}: {message}" if where else f"{loc}: {message}"


class CellulaError(Exception):
    """Base class of every error the project raises on purpose (the generator's ``DataError`` too).

    It lives here, in the solver, because the solver never imports the generator; the generator
    re-exports it from :mod:`generator.errors`."""


class SolverError(CellulaError):
    """Base class of every error raised by :mod:`solver`."""


class PuzzleError(SolverError):
    """A puzzle or board file is malformed: bad field, unknown id, bad amount.

    ``str(err)`` is ``<file>[:<line>]: <field>: expected …, got …``.
    """

    def __init__(self, file: str, where: str, message: str, line: int | None = None):
        self.file = file
        """The file (relative to the repository root when possible)."""
        self.where = where
        """The YAML path of the offending field (``start.atp``), or '' for the whole file."""
        self.line = line
        """1-based line number when known."""
        self.detail = message
        """What was expected and what was found."""
        super().__init__(located_message(file, line, where, message))


class IllegalActionError(SolverError):
    """``apply(state, action)`` was given an action the rules do not allow; the message says why."""

    def __init__(self, action: object, reason: str):
        self.action = action
        """The refused action."""
        self.reason = reason
        """Why the rules refuse it (names the rule section)."""
        self.step: int | None = None
        """The 1-based plan step it was given at, when a whole plan is replayed (set by the replay)."""
        super().__init__(f"illegal action {action}: {reason}")


class PlanError(SolverError):
    """A plan file (JSON) is malformed or names an action the engine cannot parse."""
