"""What the MkDocs hook keeps between rebuilds of ``mkdocs serve``, and its helpers."""
from __future__ import annotations

import html
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .paths import GENERATED_DIR

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

STATE: dict[str, Any] = {}
"""``fingerprint`` of the sources last generated, ``nav`` per language, ``error`` (the last data
error, while it stands) and ``serving`` (True under ``mkdocs serve``)."""


def fingerprint(data_dir: Path, root: Path) -> tuple[tuple[str, int], ...]:
    """Modification times of every file the pages are generated from."""
    roots = [data_dir, root / "generator", root / "solver"]
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for base in roots if base.exists()
                        for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts))


def watch_sources_only(server: LiveReloadServer, docs_dir: str, languages: Collection[str]) -> None:
    """Watch ``docs_dir`` except its generated folders (the languages' and ``generated/``): the hook
    rewrites those from the data (watched on its own), and watching them too made every save
    rebuild twice."""
    docs = Path(docs_dir)
    server.unwatch(str(docs))
    for child in sorted(docs.iterdir()):
        if child.name not in languages and child.name != GENERATED_DIR:
            server.watch(str(child))


def error_banner(message: str) -> str:
    """The data error as the first thing on the page (HTML, escaped)."""
    return ('<div class="admonition failure cellula-data-error" role="alert"><p class="admonition-title">'
            "Data error: the pages below are from the last valid data (fix the file and save)</p>"
            f"<pre><code>{html.escape(message)}</code></pre></div>\n")


def placeholder_pages(docs_dir: Path, languages: Collection[str]) -> None:
    """A home page per language when none was ever generated (a first ``serve`` on broken data),
    so that there is a page to show the error on."""
    for lang in languages:
        home = docs_dir / lang / "index.md"
        if not home.exists():
            home.parent.mkdir(parents=True, exist_ok=True)
            home.write_text("# Cellula\n\nThe data has an error: see the message above.\n", encoding="utf-8")
