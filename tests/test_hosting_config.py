"""Hosting: site_url from the environment, relative internal links, phone-table labels (build hook)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.mkdocs_hook import on_post_page, relative_link
from generator.tables import label_table_cells
from site_server import site_prefix

ROOT = Path(__file__).resolve().parent.parent


def test_site_url_comes_from_the_environment_with_a_local_default():
    class EnvLoader(yaml.SafeLoader):
        pass
    EnvLoader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node))
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=EnvLoader)
    variable, default = config["site_url"]
    assert variable == "CELLULA_SITE_URL" and default.startswith("http://127.0.0.1:8000/")
    assert "CELLULA_SITE_URL" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("value", "prefix"), [(None, "/cellula/"), ("https://example.org/docs/cellula", "/docs/cellula/"),
                                               ("https://example.org/", "/")])
def test_site_prefix_follows_the_variable(monkeypatch, value, prefix):
    if value is None:
        monkeypatch.delenv("CELLULA_SITE_URL", raising=False)
    else:
        monkeypatch.setenv("CELLULA_SITE_URL", value)
    assert site_prefix() == prefix


@pytest.mark.parametrize(("target", "page", "expected"), [
    ("en/", "", "en/"),
    ("", "en/", "../"),
    ("", "", "./"),
    ("en/cytosis/setup/#x", "cytosis/setup/", "../../en/cytosis/setup/#x"),
    ("cytosis/setup/", "cytosis/setup/", "./"),
    ("assets/cellula.css", "en/cards/", "../../assets/cellula.css"),
    ("en/index.html", "cytosis/setup.html", "../en/index.html"),
])
def test_relative_link(target, page, expected):
    assert relative_link(target, page) == expected


def test_absolute_links_under_site_url_become_relative():
    class Page:
        url = "en/"
    html = '<a href="/cellula/" hreflang="it"><a href="/cellula/en/" hreflang="en"><a href="//cdn.example/x">'
    out = on_post_page(html, page=Page(), config={"site_url": "http://127.0.0.1:8000/cellula/"})
    assert out == '<a href="../" hreflang="it"><a href="./" hreflang="en"><a href="//cdn.example/x">'


def test_wide_tables_get_column_labels_narrow_ones_do_not():
    wide = ("<table><thead><tr><th>#</th><th>A</th><th><abbr title=\"proteine\">Prot.</abbr></th><th>B</th></tr></thead>"
            "<tbody><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></tbody></table>")
    out = label_table_cells(wide)
    assert "<table data-cellula-stack>" in out
    assert '<td data-label="#">1</td><td data-label="A">2</td><td data-label="proteine">3</td><td data-label="B">4</td>' in out
    narrow = "<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>"
    assert label_table_cells(narrow) == narrow
