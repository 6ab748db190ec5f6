"""Progress for the solver's long commands (``bench``, ``record``): a tqdm bar on a terminal, the
plain lines the command prints anyway elsewhere (a log, CI). Not used by anything that computes an
answer, so it stays out of the records' keys."""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

Item = TypeVar("Item")


def on_terminal() -> bool:
    return sys.stderr.isatty()


def over(items: Iterable[Item], what: str, total: int | None = None) -> Iterator[Item]:
    """``items``, with a bar named ``what`` on a terminal (how many done, elapsed, an estimate)."""
    listed = list(items)
    yield from tqdm(listed, desc=what, total=total if total is not None else len(listed), file=sys.stderr,
                    disable=not on_terminal(), dynamic_ncols=True, leave=False)


def note(line: str) -> None:
    """A line on stderr, printed above any bar (on its own line off a terminal)."""
    tqdm.write(line, file=sys.stderr)
    sys.stderr.flush()


class TimeBar:
    """A run against a time limit (``solver record``): elapsed over the limit, with the best plan
    and bound so far, on a terminal; each improvement as a line elsewhere."""

    def __init__(self, limit: float, what: str) -> None:
        self.limit = round(limit)
        self.bar = tqdm(total=self.limit, desc=what, unit="s", file=sys.stderr, disable=not on_terminal(),
                        dynamic_ncols=True, bar_format="{desc}: {n}/{total} s |{bar}| {postfix}")

    def __call__(self, objective: int | None, bound: int, seconds: float) -> None:
        self.bar.n = min(self.limit, round(seconds))
        self.bar.set_postfix_str(f"plan {objective}, bound {bound}")
        if self.bar.disable:
            note(f"  {seconds:7.1f} s  plan {objective}  bound {bound}")

    def close(self) -> None:
        self.bar.close()
