"""The features' shared generated files (``docs/generated/``): written once for every language,
rewritten only when changed, pruned with their data."""
from __future__ import annotations

import pytest

from generator import build, features
from generator.render import Asset


def test_write_folder_keeps_unchanged_files_and_prunes_stale_ones(tmp_path):
    folder = tmp_path / "generated"
    kept, changed, stale = folder / "play/a.js", folder / "play/b.js", folder / "old/c.js"
    build.write_folder(folder, {kept: "a", changed: "b", stale: "c"})
    mtime = kept.stat().st_mtime_ns
    build.write_folder(folder, {kept: "a", changed: "b2"})
    assert kept.stat().st_mtime_ns == mtime, "an unchanged file is not rewritten (mkdocs serve would rebuild)"
    assert changed.read_text(encoding="utf-8") == "b2"
    assert not stale.exists() and not stale.parent.exists(), "a stale file and its emptied folder go"


def test_write_folder_of_nothing_leaves_no_folder(tmp_path):
    build.write_folder(tmp_path / "generated", {})
    assert not (tmp_path / "generated").exists()


@pytest.fixture
def two_features(monkeypatch):
    def registered(*paths: str) -> None:
        feature = [features.Feature(name=f"f{i}", assets=(lambda _site, p=p: [Asset(p, p)],))
                   for i, p in enumerate(paths)]
        monkeypatch.setattr(features, "registered", lambda: tuple(feature))
    return registered


def test_all_assets_collects_every_feature(two_features):
    two_features("play/a.js", "play/b.js")
    assert [a.path for a in build.all_assets(None)] == ["play/a.js", "play/b.js"]   # type: ignore[arg-type]


def test_two_features_may_not_write_one_path(two_features):
    two_features("play/a.js", "play/a.js")
    with pytest.raises(RuntimeError, match="play/a.js"):
        build.all_assets(None)   # type: ignore[arg-type]


def test_site_without_puzzles_has_no_generated_folder(data_dir, tmp_path):
    """The fixture data has no puzzles: no shared files, and no folder for them."""
    build.generate(data_dir, tmp_path / "docs")
    assert not (tmp_path / "docs" / "generated").exists()
    assert (tmp_path / "docs" / "it").is_dir() and (tmp_path / "docs" / "en").is_dir()
