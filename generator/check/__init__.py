"""The edition check: aligned IT/EN comparison of official texts, curated notes, reviewed allowlist.

Importing this package registers it as the ``check`` feature (:mod:`generator.features`): the
edition reports and the draft translations (read in that order: the drafts are checked against the
reports), the differences and Italian 2nd-edition draft pages, the "≠ N differences" link under
each rule section, and the ``check`` and ``bench-check`` subcommands.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import features
from .cli import configure_bench, configure_check, run_bench, run_check
from .draft import draft_pages, load_drafts
from .editions import load_editions
from .site_pages import differences_links, differences_pages
from .editions import EDITION_REPORTS
from .draft import DRAFT_TRANSLATIONS

if TYPE_CHECKING:
    from ..errors import Problems
    from ..site_data import SiteData


def load(site: SiteData, problems: Problems) -> None:
    """The edition reports, then the draft translations that are checked against them."""
    site.put(EDITION_REPORTS, load_editions(site, problems))
    site.put(DRAFT_TRANSLATIONS, load_drafts(site, problems))


features.register(features.Feature(
    name="check",
    loader=load,
    producers=(differences_pages, draft_pages),
    section_links=(differences_links,),
    commands=(features.Command("check", configure_check, run_check),
              features.Command("bench-check", configure_bench, run_bench)),
))
