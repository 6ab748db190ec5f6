"""The browser's puzzle files (docs/assets/puzzle-file.js, issue #70) against the Python writer and
loader: the same text for every shipped puzzle, every shipped file read to the loader's data, and a
link's fragment decoded back to its text. Run in Node (the browser's APIs it uses are Node's too)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from solver.io.loading import load_yaml
from solver.io.puzzle import puzzle_files
from solver.io.writer import puzzle_text

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docs" / "assets" / "puzzle-file.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")


def run_node(program: str, payload: object) -> object:
    source = (f"global.window = global; {SCRIPT.read_text(encoding='utf-8')}\n"
              f"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n{program}")
    done = subprocess.run(["node", "-e", source], input=json.dumps(payload), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_same_text_as_the_python_writer() -> None:
    cases = {p.stem: load_yaml(p)[0] for p in puzzle_files()}
    written = run_node("const out = {}; for (const k in input) out[k] = CellulaPuzzleFile.text(input[k]);"
                       "console.log(JSON.stringify(out));", cases)
    assert isinstance(written, dict)
    for name, data in cases.items():
        assert written[name] == puzzle_text(data), name


def test_reads_shipped_files_and_written_ones() -> None:
    files = {p.stem: p.read_text(encoding="utf-8") for p in puzzle_files()}
    written = {f"{p.stem}.written": puzzle_text(load_yaml(p)[0]) for p in puzzle_files()}
    read = run_node("const out = {}; for (const k in input) out[k] = CellulaPuzzleFile.read(input[k]);"
                    "console.log(JSON.stringify(out));", {**files, **written})
    assert isinstance(read, dict)
    for path in puzzle_files():
        data = json.loads(json.dumps(load_yaml(path)[0]))     # integer keys as JSON has them
        assert read[path.stem] == data, path.stem
        assert read[f"{path.stem}.written"] == data, path.stem


@pytest.mark.parametrize(("text", "line"), [("id: x\n  rounds: 2\n", 2), ("id: [a, b\n", 1), ("id: x\nid: y\n", 2),
                                            ("- a\n", 1), ("title: 'open\n", 1)])
def test_unreadable_text_names_its_line(text: str, line: int) -> None:
    out = run_node("try { CellulaPuzzleFile.read(input); console.log('null'); }"
                   "catch (e) { console.log(JSON.stringify({line: e.line, message: e.message})); }", text)
    assert isinstance(out, dict) and out["line"] == line and out["message"]


def test_link_round_trip_and_damaged_links() -> None:
    text = (ROOT / "data/puzzles/market-day-2e.yaml").read_text(encoding="utf-8")
    out = run_node("""(async () => {
      const link = await CellulaPuzzleFile.encode(input);
      const back = await CellulaPuzzleFile.decode('#' + link);
      const steps = [];
      for (const bad of ['#nothing', '#puzzle=***', '#puzzle=AAAA', '#' + link.slice(0, 40)]) {
        try { await CellulaPuzzleFile.decode(bad); steps.push('accepted'); } catch (e) { steps.push(e.step); }
      }
      console.log(JSON.stringify({same: back === input, size: link.length, steps}));
    })();""", text)
    assert isinstance(out, dict)
    assert out["same"] and out["size"] < len(text)
    assert out["steps"][:3] == ["prefix", "base64", "deflate"] and out["steps"][3] in ("base64", "deflate")
