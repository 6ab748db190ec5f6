"""Play from file:// (issue #19): the offline build ships Pyodide as classic scripts only, its core
module turned into one and the files it fetches as base64 of their gzip (generator/puzzles/play_offline.py);
the http build keeps the plain copy."""
from __future__ import annotations

import base64
import gzip
import json
import re

import pytest

from generator.puzzles import play_assets, play_offline

MODULE = ('async function _createPyodideModule(moduleArg={}){var _scriptName=import.meta.url;'
          'return new URL("x.wasm",import.meta.url).href}export default _createPyodideModule;\n')


def test_the_core_module_becomes_a_classic_script():
    script = play_offline.classic_asm_script(MODULE)
    assert "import.meta" not in script and "export" not in script
    assert script.count("cellulaScriptUrl") == 3   # defined once, used twice
    assert "window.CELLULA_PYODIDE_MODULE = _createPyodideModule;" in script
    assert script.startswith("(function () {\n\"use strict\";") and script.rstrip().endswith("})();")


@pytest.mark.parametrize(("text", "expected"), [
    (MODULE.replace("export default _createPyodideModule;", "export { _createPyodideModule };"),
     "expected it to end with 'export default _createPyodideModule;'"),
    (MODULE + "export default _createPyodideModule;", "(once)"),
    (MODULE.replace("import.meta.url;", "import.meta.resolve('a');", 1), "uses import.meta other than"),
])
def test_an_unexpected_core_module_is_named(text, expected):
    with pytest.raises(ValueError, match=re.escape(expected)) as info:
        play_offline.classic_asm_script(text, "node_modules/pyodide/pyodide.asm.mjs")
    assert str(info.value).startswith("node_modules/pyodide/pyodide.asm.mjs: ")


def test_a_memory_file_round_trips():
    data = bytes(range(256)) * 50
    script = play_offline.memory_file_script("pyodide.asm.wasm", data)
    match = re.fullmatch(r'\(window\.CELLULA_PYODIDE_FILES = window\.CELLULA_PYODIDE_FILES \|\| \{\}\)'
                         r'\["pyodide\.asm\.wasm"\] = "([A-Za-z0-9+/=]+)";\n', script)
    assert match, script[:200]
    assert gzip.decompress(base64.b64decode(match.group(1))) == data
    assert script == play_offline.memory_file_script("pyodide.asm.wasm", data), "not reproducible"


def _fake_pyodide(tmp_path, monkeypatch):
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in play_assets.PYODIDE_FILES:
        (folder / name).write_bytes(MODULE.encode() if name == "pyodide.asm.mjs" else name.encode() * 3)
    monkeypatch.setattr(play_assets, "PYODIDE_DIR", folder)


def _bundle(site):
    text = (site / "assets" / "play-engine.js").read_text(encoding="utf-8")
    match = re.search(r"^window\.CELLULA_PYODIDE_BUNDLE = (.*);$", text, re.M)
    return json.loads(match.group(1)) if match else None


def test_the_offline_build_gets_classic_scripts_only(tmp_path, monkeypatch):
    _fake_pyodide(tmp_path, monkeypatch)
    site = tmp_path / "site-offline"
    (site / "search").mkdir(parents=True)
    (site / "search" / "search_index.js").write_text("var __index = {};", encoding="utf-8")
    play_assets.write_play_assets(site)
    bundle = _bundle(site)
    assert bundle == ["pyodide-offline/pyodide.asm.js", "pyodide-offline/pyodide-lock.json.js",
                      "pyodide-offline/python_stdlib.zip.js", "pyodide-offline/pyodide.asm.wasm.js"]
    assert all((site / "assets" / src).is_file() for src in bundle)
    # No file that only fetch()/import() could read: the loader is a classic script already.
    assert sorted(p.name for p in (site / "assets" / "pyodide").iterdir()) == ["pyodide.js"]


def test_the_http_build_keeps_the_plain_copy(tmp_path, monkeypatch):
    _fake_pyodide(tmp_path, monkeypatch)
    site = tmp_path / "site"
    play_assets.write_play_assets(site)
    assert _bundle(site) is None
    assert sorted(p.name for p in (site / "assets" / "pyodide").iterdir()) == sorted(play_assets.PYODIDE_FILES)
    assert not (site / "assets" / play_offline.OFFLINE_DIR).exists()
