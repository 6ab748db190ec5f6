"""The edition check: aligned IT/EN comparison of official texts, curated notes, reviewed allowlist.

Importing this package registers its parts: the ``editions`` and ``draft_translations`` data loaders,
the differences and Italian 2nd-edition draft page producers (``generator.features``), and the ``check`` and ``bench-check`` subcommands
(``generator.cli_extensions``).
"""
from __future__ import annotations

from .. import cli_extensions, features
from .cli import configure_bench, configure_check, run_bench, run_check
from .editions import load_editions
from .site_pages import differences_pages

if not any(name == "editions" for name, _ in features.LOADERS):
    features.LOADERS.append(("editions", load_editions))
if differences_pages not in features.PRODUCERS:
    features.PRODUCERS.append(differences_pages)
cli_extensions.COMMANDS.setdefault("check", (configure_check, run_check))
cli_extensions.COMMANDS.setdefault("bench-check", (configure_bench, run_bench))

from . import draft  # noqa: E402,F401  (registers its loader and page after the editions loader it reads)
