"""The project's own stylesheets and scripts served as one file each.

MkDocs links every ``extra_css`` and ``extra_javascript`` entry of mkdocs.yml on its own: five
stylesheets and five scripts besides Material's. On Lighthouse's simulated slow phone those
requests queue behind each other (150 ms round trips) and hold back the first paint and time to
interactive. Measured on laureate-goal-2e (en), the same page with the ten files joined into two:
first contentful paint 1.7 s -> 1.4-1.5 s, time to interactive 2.1 s -> 1.8-1.9 s.

mkdocs.yml keeps listing the source files (``docs/assets/``), one per feature; the MkDocs hook
(:mod:`generator.mkdocs_hook`) swaps the lists for :data:`BUNDLE_CSS` and :data:`BUNDLE_JS` and
writes them into the built site. Entries that are not plain local files (an address, a module
script, ``defer``/``async``) are left as they are, after the bundle.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BUNDLE_CSS = "assets/cellula.bundle.css"
"""Where the joined stylesheets go in the site (relative to its root, like extra_css entries)."""
BUNDLE_JS = "assets/cellula.bundle.js"
"""Where the joined scripts go. The same folder as the sources, so a script that finds its own
folder from ``document.currentScript`` (board.js: Pyodide and the play data) still finds it."""


@dataclass(frozen=True)
class Split:
    """An extra_css or extra_javascript list divided for bundling."""

    bundled: tuple[str, ...]
    """Plain local files, in the order mkdocs.yml lists them (the order the bundle keeps)."""
    kept: tuple[Any, ...]
    """Everything else, linked as MkDocs would."""


def split(entries: Sequence[Any], docs_dir: Path) -> Split:
    """Which ``entries`` join the bundle: a plain string naming a file under ``docs_dir``."""
    bundled: list[str] = []
    kept: list[Any] = []
    for entry in entries:
        if isinstance(entry, str) and "://" not in entry and not entry.startswith("/") and (docs_dir / entry).is_file():
            bundled.append(entry)
        else:
            kept.append(entry)
    return Split(tuple(bundled), tuple(kept))


def joined(docs_dir: Path, paths: Sequence[str], kind: str) -> str:
    """The files' texts one after the other, each under a comment naming its source. ``kind``:
    ``css`` or ``js``; scripts are separated by ``;`` so that one ending without a semicolon
    cannot run into the next (each of the project's is its own function scope)."""
    if kind not in ("css", "js"):
        raise ValueError(f"kind: expected 'css' or 'js', got {kind!r}")
    parts = []
    for path in paths:
        text = (docs_dir / path).read_text(encoding="utf-8")
        if kind == "css" and "@import" in text:
            # @import is only valid at the top of a stylesheet: joined, it would be dropped
            raise ValueError(f"docs/{path}: @import cannot be bundled; list the imported file in extra_css instead")
        parts.append(f"/* ---- {path} ---- */\n{text.rstrip()}\n" + (";\n" if kind == "js" else ""))
    return "".join(parts)


def write(site_dir: Path, docs_dir: Path, css: Sequence[str], js: Sequence[str]) -> None:
    """Write :data:`BUNDLE_CSS` and :data:`BUNDLE_JS` into the built site (those with sources)."""
    for target, paths, kind in ((BUNDLE_CSS, css, "css"), (BUNDLE_JS, js, "js")):
        if paths:
            out = site_dir / target
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(joined(docs_dir, paths, kind), encoding="utf-8")
