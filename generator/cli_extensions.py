"""Subcommands contributed by features (the edition check, benchmarks)."""
from __future__ import annotations

COMMANDS: dict = {}
"""name -> (configure(subparser), run(args) -> exit code)."""


def register(sub) -> None:
    for name, (configure, _run) in COMMANDS.items():
        configure(sub.add_parser(name))


def run(args) -> int:
    return COMMANDS[args.command][1](args)
