"""Which records each kind of edit makes stale (issue #64's closing figures): each edit applied to
a copy of the code, ``python -m generator records --check`` run there from an empty cache.

    python tools/measure_record_edits.py [EDIT ...]
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDITS: dict[str, list[tuple[str, str, str]]] = {
    "comment": [("solver/game/engine.py", "\ndef apply(", "\n# why: a comment changes no answer\ndef apply("),
                ("solver/optimise/model/build.py", "\ndef build_model(", "\n# a comment\ndef build_model(")],
    "message": [("solver/game/values.py", '"memo inconsistent: no move keeps the value"',
                 '"the memo is inconsistent: no move keeps its value"'),
                ("generator/proofs/why.py", "", "")],
    "rename": [("solver/game/values.py", "_toxicity_ahead", "_toxicity_to_come"),
               ("solver/game/engine.py", "_remove_one", "_without_one")],
    "unused": [("solver/game/engine.py", "\ndef apply(", "\ndef unused_helper(state):\n    return state.round + 1\n\n\ndef apply("),
               ("solver/optimise/model/build.py", "\ndef build_model(", "\ndef unused_helper(x):\n    return x * 2\n\n\ndef build_model(")],
    "rules": [("solver/game/rules/free_ribosome.py", "Stock(protein=amount)", "Stock(protein=amount + 1)")],
}


def apply_edit(root: Path, module: str, old: str, new: str) -> None:
    if not old:
        return
    path = root / module
    text = path.read_text(encoding="utf-8")
    assert old in text, (module, old)
    path.write_text(text.replace(old, new) if re.fullmatch(r"\w+", old) else text.replace(old, new, 1), encoding="utf-8")


def main(names: list[str]) -> int:
    for name in names or list(EDITS):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp)
            for package in ("solver", "generator", "data"):
                shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
            for linked in ("docs", "mkdocs.yml", "tools", "tests", "Makefile", "pyproject.toml"):
                if (ROOT / linked).exists():
                    (copy / linked).symlink_to(ROOT / linked)
            for edit in EDITS[name]:
                apply_edit(copy, *edit)
            start = time.perf_counter()
            cpu = os.times()
            done = subprocess.run([sys.executable, "-m", "generator", "records", "--check"], cwd=copy, text=True,
                                  capture_output=True, env={**os.environ, "PYTHONPATH": str(copy)})
            after = os.times()
            stale = [line for line in done.stdout.splitlines() if ": current" not in line and line.startswith("data/")]
            print(f"{name}: {len(stale)} stale ({time.perf_counter() - start:.0f} s wall, "
                  f"{after.children_user - cpu.children_user:.0f} s CPU for the keys from an empty cache)")
            for line in stale:
                print(f"  {line}")
            if done.returncode not in (0, 1):
                print(done.stderr[-2000:])
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
