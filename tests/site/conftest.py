"""The built site (``site/``), served on loopback under its ``site_url`` path, like a real host."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from site_server import SITE, serve_site, site_prefix  # noqa: E402,F401  (site_prefix: re-exported)


@pytest.fixture(scope="session")
def site_url():
    """Base URL of the built site served on 127.0.0.1 (a free port)."""
    if not (SITE / "index.html").exists():
        pytest.fail("site/ is not built: run `make site` (make test builds it before these tests)")
    with serve_site(SITE) as url:
        yield url
