"""Shared fixtures: a small, valid data set that tests copy and break on purpose."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "data"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A writable copy of the fixture data set (one tiny game with both editions)."""
    target = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, target)
    shutil.copy(ROOT / "data" / "ui.yaml", target / "ui.yaml")  # interface strings are not test data
    return target


@pytest.fixture(scope="session")
def real_site():
    """The project's real data, loaded and validated once."""
    from generator.site import load_site
    return load_site(ROOT / "data")
