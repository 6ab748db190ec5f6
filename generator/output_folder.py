"""Folders the command line writes into (``generate --docs``, ``check --export``), checked before
any data is read, so that a wrong path is reported at once rather than after the work."""
from __future__ import annotations

import os
from pathlib import Path


def folder_fault(folder: Path | str, option: str) -> str | None:
    """Why ``folder`` cannot be the output folder of ``option``, or None: it must be a folder or
    not exist yet, below a folder (not a file), where this user may create or write files. Give
    the argument as typed (a text): ``Path("")`` is ``.``, the current folder."""
    if not str(folder).strip():
        return f"{option}: expected a folder, got an empty path"
    folder = Path(folder)
    if folder.exists():
        if not folder.is_dir():
            return f"{option} {folder}: expected a folder, got an existing file"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"{option} {folder}: expected a folder this user may write into, got one without write permission"
        return None
    parent = folder.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{option} {folder}: expected a folder, but {parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{option} {folder}: expected a place this user may create a folder in, but {parent} is not writable"
    return None


def write_fault(error: OSError, option: str, folder: Path) -> str:
    """An error met while writing into ``folder`` (a disk full, a permission the check could not
    see), as one line naming the option, the folder and the file."""
    where = f" ({error.filename})" if error.filename else ""
    return f"{option} {folder}: cannot write the files: {error.strerror or error}{where}"
