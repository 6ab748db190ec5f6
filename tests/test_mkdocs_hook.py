"""The MkDocs hook under ``serve``: a data error reaches the page instead of stalling the
server, the next save that fixes it recovers, and the generated folders are not watched (one
rebuild per save). Under ``build`` a data error fails the build."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from generator import serving

ROOT = Path(__file__).resolve().parent.parent


class _Plugins(dict):
    pass


@pytest.fixture
def hook(data_dir, tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("cellula_hook_serve_test", ROOT / "generator" / "mkdocs_hook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "DATA_DIR", data_dir)
    monkeypatch.setattr(serving, "STATE", {})
    monkeypatch.setattr(module, "_state", serving.STATE)
    return module


def _config(docs: Path):
    """The config the hook reads: the pages go to its ``docs_dir``."""
    return SimpleNamespace(plugins=_Plugins(), docs_dir=str(docs), extra_css=[], extra_javascript=[], site_url=None)


def _break(data_dir: Path) -> None:
    glossary = data_dir / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "terms: []\n", encoding="utf-8")


def test_serve_shows_the_error_and_recovers(hook, data_dir, tmp_path):
    hook.on_startup(command="serve")
    hook.on_config(_config(tmp_path / "docs"))
    assert "<p>x</p>" == hook.on_page_content("<p>x</p>", page=None, config=None, files=None)
    original = (data_dir / "glossary.yaml").read_text(encoding="utf-8")
    _break(data_dir)
    hook.on_config(_config(tmp_path / "docs"))  # no exception: the server must not wait for a build that never comes
    html = hook.on_page_content("<p>x</p>", page=None, config=None, files=None)
    assert "Data error" in html and "glossary.yaml" in html and "duplicate key" in html and html.endswith("<p>x</p>")
    (data_dir / "glossary.yaml").write_text(original, encoding="utf-8")
    hook.on_config(_config(tmp_path / "docs"))
    assert hook.on_page_content("<p>x</p>", page=None, config=None, files=None) == "<p>x</p>"


def test_build_fails_on_a_data_error(hook, data_dir, tmp_path):
    hook.on_startup(command="build")
    _break(data_dir)
    with pytest.raises(PluginError, match="duplicate key"):
        hook.on_config(_config(tmp_path / "docs"))


def test_generated_folders_are_not_watched(tmp_path):
    docs = tmp_path / "docs"
    for name in ("it", "en", "assets"):
        (docs / name).mkdir(parents=True)
    calls = []
    server = SimpleNamespace(watch=lambda p: calls.append(("watch", Path(p).name)),
                             unwatch=lambda p: calls.append(("unwatch", Path(p).name)))
    serving.watch_sources_only(server, str(docs), ("it", "en"))
    assert calls == [("unwatch", "docs"), ("watch", "assets")]
