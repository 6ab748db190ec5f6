"""The built site (issue #33): every page, theme regions included, holds only markup its templates
write (the build checks each page as it writes it; this reads the pages the build left), and the
sitemap lists absolute addresses."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.sanitize import page_markup_faults

ROOT = Path(__file__).resolve().parents[2]
SITES = [ROOT / "site", ROOT / "site-offline"]


@pytest.mark.parametrize("site", SITES, ids=lambda p: p.name)
def test_every_page_holds_only_template_markup(site):
    pages = sorted(site.rglob("*.html"))
    if not pages:
        pytest.skip(f"{site.name}/ is not built")
    faults = {str(p.relative_to(site)): f for p in pages if (f := page_markup_faults(p.read_text(encoding="utf-8")))}
    assert not faults, dict(list(faults.items())[:5])


def test_sitemap_lists_absolute_addresses():
    sitemap = ROOT / "site" / "sitemap.xml"
    if not sitemap.exists():
        pytest.skip("site/ is not built")
    text = sitemap.read_text(encoding="utf-8")
    assert "<loc>None" not in text and "<loc>http" in text


def test_no_sitemap_without_an_address():
    """The offline build has no site_url: a sitemap without absolute addresses is no sitemap."""
    if not (ROOT / "site-offline" / "index.html").exists():
        pytest.skip("site-offline/ is not built")
    assert not (ROOT / "site-offline" / "sitemap.xml").exists()
