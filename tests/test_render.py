"""Rendering: data is escaped, templates are strict, both languages have the same pages."""
from __future__ import annotations

import jinja2
import pytest

from generator.build import all_pages, generate
from generator.render import render
from generator.site import load_site


def test_script_in_rule_text_renders_as_text(data_dir, tmp_path):
    path = data_dir / "rules/mini/it-1e.md"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "spazio libero.", "spazio libero. <script>alert(1)</script>"), encoding="utf-8")
    _site, _pages = generate(data_dir, tmp_path / "docs")
    page = (tmp_path / "docs/it/mini/play.md").read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script>alert(1)&lt;/script>" in page


def test_unknown_template_marker_fails():
    with pytest.raises(jinja2.UndefinedError):
        render("home.md.j2", ui={}, lang="it", games=[])


def test_same_pages_in_both_languages(data_dir):
    pages = all_pages(load_site(data_dir))
    assert {p.path for p in pages if p.lang == "it"} == {p.path for p in pages if p.lang == "en"}


def test_translated_section_is_labelled(data_dir, tmp_path):
    generate(data_dir, tmp_path / "docs")
    page = (tmp_path / "docs/it/mini/play.md").read_text(encoding="utf-8")
    exhaust = page.split("{ #play-exhaust ")[1]
    assert "cellula-prov--translation" in exhaust.split("\n\n")[1]
    assert "Traduzione del progetto Cellula da: Ufficiale EN" in exhaust


def test_section_reference_becomes_relative_link(data_dir, tmp_path):
    path = data_dir / "rules/mini/translations.en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("3 rounds.", "3 rounds (see [[play.place]])."),
                    encoding="utf-8")
    generate(data_dir, tmp_path / "docs")
    assert "(see [Rules](play.md#play-place))" in (tmp_path / "docs/en/mini/play.md").read_text(encoding="utf-8")
    compare = (tmp_path / "docs/it/mini/compare/play.md").read_text(encoding="utf-8")
    assert "[Rules](../play.md#play-place)" in compare
