"""One-off (issue #64): move the committed records from the code fingerprint to the new keys,
without recomputing their answers.

The answers were re-proved in the round before (``make reprove``: every field reproduced); only
what they are keyed by changes. For each record of the ``cellula-record-1`` layout this computes
today's keys for its plan (:mod:`generator.proofs.keys`), writes the record in the
``cellula-record-2`` layout (``keys`` in place of ``code``, every answer as it was) and enters its
answers in the ledger of re-proofs (:mod:`generator.proofs.ledger`).

    python tools/migrate_record_keys.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from generator.errors import Problems  # noqa: E402 - after the path above
from generator.proofs import record as records, store  # noqa: E402
from generator.proofs.ledger import Ledger  # noqa: E402
from generator.puzzles.loading import load_sources  # noqa: E402


def main() -> int:
    problems = Problems()
    sources = load_sources(ROOT / "data" / "puzzles", problems)
    problems.raise_if_any()
    ledger = Ledger.load()
    moved = 0
    for source in sources:
        path = records.record_path(source.file)
        old = json.loads(path.read_text(encoding="utf-8"))
        if old.get("format") == records.FORMAT:
            continue
        assert old.get("format") == "cellula-record-1", path
        inputs = records.Inputs.of(records.input_files(source.puzzle, source.file, source.recording))
        assert old["inputs"]["digest"] == inputs.digest, f"{path}: its inputs changed: recompute it instead"
        keys = store.today_keys(source, inputs, old["solution"]["solution"]["plan"])
        new = {k: v for k, v in old.items() if k != "code"}
        new.update({"format": records.FORMAT, "keys": keys.to_dict(), "engines": {**old["engines"],
                                                                               "budgets": records.budgets()}})
        assert old["engines"]["budgets"] == records.budgets(), f"{path}: its budgets changed: recompute it instead"
        records.write(path, new)
        ledger.proved(new)
        moved += 1
        print(f"{records.display(path)}: keyed by behaviour {keys.behaviour[:12]}, model {keys.model[:12]}")
    ledger.save()
    store.key_cache().save()
    print(f"{moved} records moved to the new keys, answers unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
