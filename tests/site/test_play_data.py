"""Every puzzle board of both builds finds its play data (generator/puzzles/play_data.py play_data_asset):
one shared file per puzzle under ``generated/``, and none of it in the pages themselves."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from play_data import play_data
from site_server import OFFLINE_SITE, SITE

BOARD = re.compile(r'<div class="cellula-board" data-puzzle="([^"]+)"[^>]*? data-play="([^"]+)"')


def boards(site: Path) -> list[tuple[Path, str, str]]:
    found = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        found += [(page, html.unescape(pid), html.unescape(src)) for pid, src in BOARD.findall(text)]
    return found


@pytest.mark.parametrize("site", [SITE, OFFLINE_SITE], ids=["site", "site-offline"])
def test_every_board_has_its_play_data(site):
    if not (site / "index.html").exists():
        pytest.skip(f"{site} not built")
    found = boards(site)
    assert len({pid for _page, pid, _src in found}) >= 10, "the puzzle pages carry boards"
    for page, pid, src in found:
        script = site / src
        assert script.is_file(), f"{page.relative_to(site)}: data-play={src!r} is not in the build"
        data = play_data(script.read_text(encoding="utf-8"), pid)
        assert set(data) == {"play", "values"} and data["play"]
        assert 'data-values=' not in page.read_text(encoding="utf-8")


def test_play_data_is_written_once_for_every_language():
    if not (SITE / "index.html").exists():
        pytest.skip("site not built")
    sources = {src for _page, _pid, src in boards(SITE)}
    assert all(src.startswith("generated/play/") for src in sources)
    assert not list(SITE.glob("*/generated")), "a copy per language"
