"""Shared fixtures: a small, valid data set that tests copy and break on purpose."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_server import SITE, serve_site

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "data"


def pytest_configure(config):
    import tiers
    tiers.SLOW_TIER = tiers.runs_slow_tier(config.option.markexpr or "")


def pytest_collection_modifyitems(config, items):
    """Each test's tier marks (:mod:`tiers`): from where it lives and from the lists there, so that
    a test file owned by another change needs no edit to move between tiers."""
    import tiers
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
        for marker in tiers.tier_marks(where, item.nodeid.split("::", 1)[-1]):
            item.add_marker(marker)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A writable copy of the fixture data set (one tiny game with both editions)."""
    target = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, target)
    shutil.copytree(ROOT / "data" / "i18n", target / "i18n")  # interface strings are not test data
    return target


@pytest.fixture(scope="session")
def real_site():
    """The project's real data, loaded and validated once."""
    from generator.site import load_site
    return load_site(ROOT / "data")


@pytest.fixture(scope="session")
def site_url():
    """Base URL of the built site (``site/``) served on 127.0.0.1, ending with ``/cellula/``."""
    if not (SITE / "index.html").exists():
        pytest.fail("site/ is not built: run `make site` (make test builds it before these tests)")
    with serve_site(SITE) as url:
        yield url


@pytest.fixture(scope="session")
def game():
    """The real data's Cytosis game (sections and sources), loaded once."""
    from generator.errors import Problems
    from generator.paths import DATA_DIR
    from generator.rules import load_games
    problems = Problems()
    games = load_games(DATA_DIR, problems)
    assert not problems, problems.items
    return games["cytosis"]


@pytest.fixture(scope="session")
def audit(game):
    """The real rules audit (``data/audit/cytosis.yaml``), loaded once."""
    from generator.audit import load_audit
    from generator.errors import Problems
    from generator.paths import DATA_DIR
    problems = Problems()
    result = load_audit(DATA_DIR / "audit" / "cytosis.yaml", game, problems)
    assert not problems, "\n".join(str(p) for p in problems.items)
    return result
