"""The project's stylesheets and scripts joined into one file each (generator/asset_bundle.py)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from generator import asset_bundle, mkdocs_hook

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def docs(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets/a.css").write_text(".a { color: red }\n", encoding="utf-8")
    (tmp_path / "assets/b.css").write_text(".b { color: blue }", encoding="utf-8")
    (tmp_path / "assets/a.js").write_text("(function () { var x = 1 })()", encoding="utf-8")
    (tmp_path / "assets/b.js").write_text("(function () { var y = 2; })();\n", encoding="utf-8")
    return tmp_path


def test_only_plain_local_files_are_bundled(docs):
    module = object()   # an ExtraScriptValue with type/defer/async stays a script of its own
    found = asset_bundle.split(["assets/a.js", "https://example.org/x.js", module, "assets/missing.js",
                                "/abs/x.js", "assets/b.js"], docs)
    assert found.bundled == ("assets/a.js", "assets/b.js")
    assert found.kept == ("https://example.org/x.js", module, "assets/missing.js", "/abs/x.js")


def test_joined_keeps_order_names_sources_and_separates_scripts(docs):
    text = asset_bundle.joined(docs, ["assets/b.js", "assets/a.js"], "js")
    assert text.index("assets/b.js") < text.index("var y") < text.index("assets/a.js") < text.index("var x")
    # a script without a final semicolon cannot run into the next one
    assert "var x = 1 })()\n;\n" in text
    css = asset_bundle.joined(docs, ["assets/a.css", "assets/b.css"], "css")
    assert ".a { color: red }" in css and ".b { color: blue }" in css and ";\n" not in css


def test_import_in_a_stylesheet_is_refused_with_its_file(docs):
    (docs / "assets/c.css").write_text('@import "a.css";\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"docs/assets/c.css: @import"):
        asset_bundle.joined(docs, ["assets/c.css"], "css")


def test_unknown_kind_is_refused(docs):
    with pytest.raises(ValueError, match="expected 'css' or 'js', got 'html'"):
        asset_bundle.joined(docs, [], "html")


def test_hook_links_the_bundles_and_writes_them(docs, tmp_path, monkeypatch):
    monkeypatch.setattr(mkdocs_hook, "_state", {})
    site = tmp_path / "site"
    config = SimpleNamespace(docs_dir=str(docs), site_dir=str(site), extra_css=["assets/a.css", "assets/b.css"],
                             extra_javascript=["assets/a.js", "https://example.org/x.js", "assets/b.js"])
    mkdocs_hook.bundle_assets(config)   # type: ignore[arg-type]
    assert config.extra_css == [asset_bundle.BUNDLE_CSS]
    assert config.extra_javascript == [asset_bundle.BUNDLE_JS, "https://example.org/x.js"]
    mkdocs_hook.bundle_assets(config)   # type: ignore[arg-type]   # a second call (i18n) changes nothing
    assert config.extra_javascript == [asset_bundle.BUNDLE_JS, "https://example.org/x.js"]
    asset_bundle.write(site, docs, *mkdocs_hook._state["bundle"])
    assert "var y = 2" in (site / asset_bundle.BUNDLE_JS).read_text(encoding="utf-8")
    assert ".b { color: blue }" in (site / asset_bundle.BUNDLE_CSS).read_text(encoding="utf-8")


def test_the_sites_own_assets_bundle():
    """Every stylesheet and script mkdocs.yml lists is a plain file of docs/ (so all are joined)."""
    import yaml
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
    for key in ("extra_css", "extra_javascript"):
        found = asset_bundle.split(config[key], ROOT / "docs")
        assert found.bundled == tuple(config[key]) and not found.kept
    asset_bundle.joined(ROOT / "docs", config["extra_css"], "css")
