"""Files and folders the command lines write into (``solver solve --out``, ``solver record``,
``solver bench --out``, ``generator generate --docs``, ``generator check --export``), checked before
any data is read or any work begins, so that a wrong path is reported at once, not after minutes of
computing and never as a traceback. One module for both command lines (the generator imports it)."""
from __future__ import annotations

import os
from pathlib import Path


def folder_fault(folder: Path | str, option: str) -> str | None:
    """Why ``folder`` cannot be the folder ``option`` writes into, or None: not empty, an existing
    folder this user may write into, or a new one below an existing folder (not a file) where this
    user may create it. Give the argument as typed (a text): ``Path("")`` is ``.``, the current
    folder."""
    text = str(folder)
    if not text.strip():
        return f"{option}: expected a folder, got an empty path"
    path = Path(text)
    if path.exists():
        if not path.is_dir():
            return f"{option} {text}: expected a folder, got an existing file"
        if not os.access(path, os.W_OK | os.X_OK):
            return f"{option} {text}: expected a folder this user may write into, got one without write permission"
        return None
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{option} {text}: expected a folder, but {parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{option} {text}: expected a place this user may create a folder in, but {parent} is not writable"
    return None


def file_fault(text: str, option: str) -> str | None:
    """Why ``text`` cannot be the file ``option`` writes, or None: not empty, not an existing
    folder, in an existing folder (not below a file) this user may write into, and if the file
    exists, writable."""
    if not text.strip():
        return f"{option}: expected a file name, got an empty path"
    path = Path(text)
    if path.is_dir():
        return f"{option} {text}: expected a file, got an existing folder"
    parent = path.parent
    if not parent.exists():
        return f"{option} {text}: expected a file in an existing folder, but {parent} does not exist"
    if not parent.is_dir():
        return f"{option} {text}: expected a file in a folder, but {parent} is a file, not a folder"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{option} {text}: expected a file this user may overwrite, got one without write permission"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"{option} {text}: expected a folder this user may write into, but {parent} is not writable"
    return None


def write_fault(error: OSError, option: str, folder: Path | str) -> str:
    """An error met while writing into ``folder`` (a disk full, a permission the check could not
    see), as one line naming the option, the folder and the file."""
    where = f" ({error.filename})" if error.filename else ""
    return f"{option} {folder}: cannot write the files: {error.strerror or error}{where}"
