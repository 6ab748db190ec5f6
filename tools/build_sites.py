"""Build several MkDocs configurations, strictly, in one process: ``make test`` builds the site and
its offline copy this way.

Both configurations read the same pages, which the hook (``generator/mkdocs_hook.py``) generates
from data/ when its fingerprint of data/, generator/ and solver/ changes. One process keeps that
fingerprint, so the second build reuses the pages the first generated instead of paying the
generator again (about a third of a build). Warnings are printed, information is not (as
``mkdocs build --strict --quiet``, but a strict failure shows what failed).

Usage: .venv/bin/python tools/build_sites.py mkdocs.yml mkdocs-offline.yml
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def build_site(config_file: Path) -> None:
    """One strict build, as ``mkdocs build --strict`` runs it (startup and shutdown events included)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(config_file), strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config, dirty=False)
    finally:
        config.plugins.on_shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("configs", nargs="+", type=Path, help="MkDocs configuration files, built in this order")
    args = parser.parse_args(argv)
    faults = [f"{c}: expected a MkDocs configuration file, got {'a folder' if c.is_dir() else 'nothing (no such file)'}"
              for c in args.configs if not c.is_file()]
    if faults:  # every one, before anything is built
        print("\n".join(f"build_sites: {fault}" for fault in faults), file=sys.stderr)
        return 2
    from mkdocs.exceptions import Abort, ConfigurationError

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s - %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.WARNING)
    for config_file in args.configs:
        try:
            build_site(config_file)
        except (Abort, ConfigurationError) as exc:
            print(f"build_sites: {config_file}: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
