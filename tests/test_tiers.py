"""The fast tier (``pytest -m "not slow"``) runs beside the builds in ``make test``, so it refuses to
read what they write (``tests/conftest.py`` ``BUILT_OUTPUT``): a test reading a half-written site
would pass or fail by chance."""
from __future__ import annotations

import os

import pytest

import tiers
from conftest import BUILT_OUTPUT, ROOT


@pytest.mark.parametrize("built", ["site/index.html", "site-offline/en/index.html", "docs/it/index.md",
                                   "docs/en/cytosis/setup.md", "docs/generated/play/x.json"])
def test_the_fast_tier_refuses_to_read_the_builds_output(built, monkeypatch):
    if tiers.SLOW_TIER:
        pytest.skip("the slow tier runs after the builds: it may read them")
    with pytest.raises(RuntimeError, match="belongs in tests/site/ or tests/browser/"):
        (ROOT / built).read_bytes()
    monkeypatch.chdir(ROOT)
    with pytest.raises(RuntimeError, match=built.split("/")[0]):
        open(built, "rb")           # a relative path too


@pytest.mark.parametrize("source", ["docs/assets/search.js", "mkdocs.yml", "data/i18n/it.yaml"])
def test_the_sources_beside_them_stay_readable(source):
    assert (ROOT / source).read_bytes()
    assert not os.path.abspath(ROOT / source).startswith(BUILT_OUTPUT)
