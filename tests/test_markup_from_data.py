"""Text from data never becomes markup in the built HTML, and front matter survives any title.

The pages are generated from the fixture data with hostile text in a rule and a chapter title,
then turned into HTML the way ``mkdocs build`` does: Markdown with the site's own extensions
(read from mkdocs.yml), then the hook's ``on_page_content`` (the sanitiser).
"""
from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

import markdown
import pytest
import yaml
from mkdocs.config import load_config

from generator.build import generate
from generator.sanitize import sanitize_html

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = ("Piazza una Beuta. <script>alert('tag')</script> <img src=x onerror=alert('img')>\n"
           "{: onclick=\"alert('attr')\" }\n\n"
           "Vedi [qui](javascript:alert('link')) e [là](JaVaScRiPt:alert('case')) e "
           "[dati](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==).\n\n"
           "Un paragrafo { #rubato .x onmouseover=\"alert('inline')\" }\n")
TITLE = {"it": "Gioco: fase #1 - 'apici' e \"virgolette\"", "en": "Play: phase #1 {: onclick=x }"}


@pytest.fixture(scope="module")
def hook():
    spec = importlib.util.spec_from_file_location("cellula_hook_under_test", ROOT / "generator" / "mkdocs_hook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def markdown_config():
    config = load_config(str(ROOT / "mkdocs.yml"))
    return config["markdown_extensions"], config["mdx_configs"]


@pytest.fixture
def built(data_dir, tmp_path, hook, markdown_config):
    rules = data_dir / "rules/mini/it-1e.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("Piazza una Beuta su uno spazio libero.", HOSTILE),
                     encoding="utf-8")
    game = data_dir / "rules/mini/game.yaml"
    text = game.read_text(encoding="utf-8").replace('title: {it: "Gioco", en: "Play"}',
                                                     "title: " + yaml.safe_dump(TITLE, default_flow_style=True,
                                                                                allow_unicode=True).strip())
    game.write_text(text, encoding="utf-8")
    generate(data_dir, tmp_path / "docs")
    pages = {}
    extensions, configs = markdown_config
    for lang in ("it", "en"):
        source = (tmp_path / "docs" / lang / "mini" / "play.md").read_text(encoding="utf-8")
        front, body = re.match(r"---\n(.*?)\n---\n(.*)", source, re.S).groups()
        md = markdown.Markdown(extensions=extensions, extension_configs=configs)
        # snippets would read files relative to the working folder: not needed for this page
        html = md.convert(body)
        pages[lang] = (yaml.safe_load(front), source, hook.on_page_content(html, page=None, config=None, files=None))
    return pages


def test_markdown_alone_would_make_markup(markdown_config):
    """The hazard is real: without the gate, Markdown turns this text into an event handler and a
    script link (so the checks below can fail)."""
    extensions, configs = markdown_config
    html = markdown.markdown("x\n{: onclick=\"alert(1)\" }\n\n[x](javascript:alert(1))", extensions=extensions,
                             extension_configs=configs)
    assert "onclick" in html and 'href="javascript:' in html
    clean = sanitize_html(html)
    assert "onclick" not in clean and "javascript:" not in clean


def test_no_script_element(built):
    for _front, _source, rendered in built.values():
        assert "<script" not in rendered.lower()
        assert "<img" not in rendered.lower()


def test_no_event_handler_attribute(built):
    for _front, _source, rendered in built.values():
        assert not re.search(r"<[^>]+\son\w+\s*=", rendered, re.I), rendered


def test_no_script_or_data_urls(built):
    for _front, _source, rendered in built.values():
        hrefs = re.findall(r"""(?:href|src)\s*=\s*["']?([^"' >]*)""", rendered, re.I)
        assert not [h for h in hrefs if h.lower().startswith(("javascript:", "data:", "vbscript:"))], hrefs


def test_hostile_text_stays_readable_text(built):
    _front, _source, html = built["it"]
    assert "&lt;script&gt;alert" in html or "&lt;script>alert" in html
    assert "onclick" in html  # as text, not as an attribute (checked above)
    assert 'id="rubato"' not in html


def test_front_matter_keeps_any_title(built):
    """The title survives as HTML text (Material writes it into <title> and the header as it is)."""
    for lang, (front, _source, _html) in built.items():
        assert front["title"].startswith(html.escape(TITLE[lang], quote=False)), front


def test_project_scripts_survive_the_sanitiser():
    from generator.sanitize import trusted_scripts
    body = next(iter(trusted_scripts()))
    html = f"<p>x</p><script>{body}</script><script>alert(1)</script>"
    clean = sanitize_html(html)
    assert f"<script>{body}</script>" in clean and "alert(1)" not in clean
