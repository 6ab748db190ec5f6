"""Data from contributors is untrusted (issue #33): a hostile contributor's payloads, one class at
a time, in every place data enters a page, and the command line's corners.

The corpus is tests/hostile_site.py's: each payload class (a script element, an event handler, a
script link, a frame, an attribute list, a quote breaking out of an attribute, a ``</title>``, an
external image, an abbreviation definition, a snippet include, ...) against each region (page
body, navigation, ``<title>``/header through the front matter, the theme's footer and 404 page
through the catalogue, the canonical link and sitemap through ``site_url``). The last test builds
two sites of the fixture data, a fresh one and one with every payload in every text field and
catalogue key, and compares what their pages are made of.
"""
from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import markdown
import pytest
import yaml
from mkdocs.config import load_config

import hostile_site
from generator import __main__ as generator_cli
from generator.build import navigation
from generator.errors import Problems
from generator.i18n import read_catalogue
from generator.mkdocs_hook import theme_text
from generator.markdown_syntax import neutralise_markdown
from generator.render import Page, escape_md, escape_text, front_matter, html_text
from generator.sanitize import page_markup_faults, sanitize_html
from generator.site_url import SiteUrlError, checked_site_url
from hostile_site import BLOCK_PAYLOADS, CATALOGUE_ACCEPTS, PAYLOADS

ROOT = Path(__file__).resolve().parent.parent
ALL_PAYLOADS = PAYLOADS | BLOCK_PAYLOADS


@pytest.fixture(scope="module")
def to_html():
    """Markdown to HTML the way a page's content is built: the site's extensions, then the sanitiser."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    extensions, configs = config["markdown_extensions"], config["mdx_configs"]

    def convert(text: str) -> str:
        return sanitize_html(markdown.Markdown(extensions=extensions, extension_configs=configs).convert(text))
    return convert


def _acts(page: str) -> list[str]:
    """What of a payload acted in ``page`` (HTML): the markup it would have made."""
    acted = page_markup_faults(page)
    if re.search(r"<(?:script|iframe|img|abbr)\b", page):
        acted.append("an element from data")
    if re.search(r"<[^>]+\s(?:onclick|onerror|onmouseover)\s*=", page):
        acted.append("an attribute from data")
    if re.search(r"""href=["']?(?:javascript|data):""", page, re.I):
        acted.append("a script link")
    if "site_dir" in page:
        acted.append("a repository file included")
    return acted


# --- page body: data text enters the Markdown through escape_text / escape_md -----------------------

@pytest.mark.parametrize("name", sorted(ALL_PAYLOADS))
@pytest.mark.parametrize("escape", [escape_text, escape_md], ids=["text", "md"])
def test_payload_in_data_text_stays_text(to_html, name, escape):
    text = "Piazza una Beuta. " + ALL_PAYLOADS[name] + "\n\n*[Beuta]: relabelled\n"
    page = to_html("# Titolo\n\n" + escape(text) + "\n\n" + escape(ALL_PAYLOADS[name]) + "\n\nBeuta qui.\n")
    assert not _acts(page), (name, page)


@pytest.mark.parametrize("markdown_text, kept", [
    ("![x](https://evil.example/p.png)", "&#33;[x]"),
    ("*[Flask]: relabelled", "&#42;[Flask]"),
    ("    *[Flask]: inside an admonition", "    &#42;[Flask]"),
    ('--8<-- "mkdocs.yml"', '&#45;-8<-- "mkdocs.yml"'),
    (';--8<-- "mkdocs.yml"', ';&#45;-8<--'),
])
def test_markdown_constructs_data_must_not_trigger_are_neutralised(markdown_text, kept):
    assert kept in neutralise_markdown(markdown_text)


@pytest.mark.parametrize("text", [
    "**bold**, `code`, [a link](https://example.org/) and a list:\n\n- one *item*\n",
    "*[Board](../glossary.md#term-game-board){ .cellula-term } labels (emphasised, starting with a link):*",
    "* [a list item](x.md)", "a wink ;-) and an arrow -->",
])
def test_plain_markdown_is_left_alone(text):
    assert neutralise_markdown(text) == text


@pytest.mark.parametrize("src, kept", [("https://evil.example/p.png", False), ("//evil.example/p.png", False),
                                       ("data:image/png;base64,AA==", False), ("../assets/cards/x.webp", True)])
def test_images_only_from_the_site(src, kept):
    assert ('src="' in sanitize_html(f'<img src="{src}" alt="x">')) is kept


@pytest.mark.parametrize("href, kept", [
    ("//evil.example/p.png", False), ("https://evil.example/more", False), ("HTTP://Evil.Example/", False),
    ("<javascript:alert(1)>", False), ("&lt;javascript:alert(1)&gt;", False), (" java\tscript:alert(1)", False),
    ("\\\\evil.example\\x", False), ("../glossary.md#term-flask", True), ("#top", True), ("mailto:a@b.org", True),
    ("https://www.gamesbusters.com/", True)])
def test_links_lead_only_into_the_site_or_to_a_declared_host(href, kept):
    """Issue #69: a link from data text to another host only when the data declares the host
    (``link_hosts`` of a game's ``game.yaml``); a script target hidden in angle brackets, never."""
    clean = sanitize_html(f'<a href="{html.escape(href)}">x</a>', frozenset({"www.gamesbusters.com"}))
    assert ("href=" in clean) is kept, clean


@pytest.mark.parametrize("text, shown", [
    ('!!! danger "Alarm"\n    text', False), ("??? failure\n    text", False), ('!!! cellula-residue danger "x"\n    t', False),
    ('!!! cellula-residue "Picture"\n    t', True), ('!!! cellula-note cellula-note--flag "Note"\n    t', True),
    ('!!! warning "Illustrative"\n    t', True)])
def test_admonitions_only_of_the_projects_kinds(to_html, text, shown):
    assert ('class="admonition' in to_html(escape_md(text))) is shown


@pytest.mark.parametrize("engine, shown", [("highs", "<code>highs</code>"), ("a<b>_c", "<code>a&lt;b&gt;_c</code>"),
                                           ("x`y", "<code>x`y</code>")])
def test_an_engine_name_from_a_record_is_escaped_once(to_html, engine, shown):
    from generator.puzzles.proof import code_span
    assert shown in to_html("Confirmed by " + code_span(engine) + ".")


# --- navigation, <title> and header: titles enter as HTML text --------------------------------------

@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_title_payload_is_text_in_navigation_and_front_matter(name):
    title = "Gioco " + PAYLOADS[name]
    pages = [Page("it", "mini/play.md", title, "", nav=("Mini " + PAYLOADS[name], "Regole"))]
    nav = navigation(pages, "it")
    section_title, children = next(iter(nav[0].items()))
    page_title = next(iter(children[0]["Regole"][0]))
    meta = yaml.safe_load(front_matter({"title": escape_text(title)}).strip("-\n"))
    for written in (section_title, page_title, meta["title"]):
        assert "<" not in written and html.unescape(written).endswith(html.unescape(PAYLOADS[name].strip())), written
        document = f"<html><head><title>{written}</title></head><body><nav>{written}</nav></body></html>"
        assert not page_markup_faults(document), document


@pytest.mark.parametrize("title, text", [("Setup & play", "Setup &amp; play"), ("a &lt;b&gt;", "a &lt;b&gt;"),
                                         ("{x}", "{x}"), ("&#123;x}", "{x}")])
def test_a_title_is_escaped_once(title, text):
    assert html_text(title) == text


def test_catalogue_strings_reach_the_theme_escaped(monkeypatch):
    monkeypatch.setattr("generator.mkdocs_hook.t", lambda key, lang, **params: PAYLOADS["title breakout"])
    written = str(theme_text("core.made_with", "it"))
    assert "<" not in written and html.unescape(written) == PAYLOADS["title breakout"]


# --- the interface catalogue: what a translator may write -------------------------------------------

@pytest.mark.parametrize("name", sorted(ALL_PAYLOADS))
def test_catalogue_refuses_markup(data_dir, name):
    catalogue = data_dir / "i18n" / "en.yaml"
    text = catalogue.read_text(encoding="utf-8")
    payload = ALL_PAYLOADS[name].replace("{", "{{").replace("}", "}}")
    separator = "\n\n" if name in BLOCK_PAYLOADS else " "  # a block payload acts on a line of its own
    catalogue.write_text(_with_payload(text, "made_with", separator + payload), encoding="utf-8")
    problems = Problems()
    read_catalogue(data_dir, ("it", "en"), problems)
    if name in CATALOGUE_ACCEPTS:
        assert not problems, problems.items
    else:
        assert [str(p) for p in problems.items if "core.made_with" in str(p) and "en.yaml" in str(p)], problems.items


def _with_payload(catalogue: str, key: str, payload: str) -> str:
    """``catalogue`` (YAML text) with ``payload`` appended to the text of ``key``."""
    data = yaml.safe_load(catalogue)
    data["core"][key] = data["core"][key] + payload
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@pytest.mark.parametrize("text, fault", [("{count} beute", None), ("{} beute", "plain {name}"), ("{0}", "plain {name}"),
                                         ("{x.__class__}", "plain {name}"), ("{x!r}", "plain {name}"),
                                         ("a { b", "braces only"), ("{{literal}}", "literal brace")])
def test_catalogue_placeholders(data_dir, text, fault):
    for lang in ("it", "en"):
        catalogue = data_dir / "i18n" / f"{lang}.yaml"
        data = yaml.safe_load(catalogue.read_text(encoding="utf-8"))
        data["core"]["made_with"] = text
        catalogue.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    problems = Problems()
    read_catalogue(data_dir, ("it", "en"), problems)
    messages = " ".join(str(p) for p in problems.items)
    assert (fault in messages) if fault else not problems.items, messages


# --- site_url --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    (None, None), ("", None), ("  ", None),
    ("http://127.0.0.1:8000/cellula/", "http://127.0.0.1:8000/cellula/"),
    ("https://example.org/docs", "https://example.org/docs/"),
    ("https://[::1]:8000/c", "https://[::1]:8000/c/"),
])
def test_site_url_accepted(value, expected):
    assert checked_site_url(value) == expected


@pytest.mark.parametrize("value, why", [
    ('http://example.org/x"><script>alert(1)</script>', "'\"'"),
    ("javascript://example.org/%0aalert(1)", "scheme is javascript:"),
    ("ftp://example.org/", "scheme is ftp:"),
    ("example.org/cellula/", "scheme is missing"),
    ("https://exa mple.org/", "' '"),
    ("https://example.org/a\tb", "'\\t'"),
    ("https://exämple.org/", "xn--exmple-cua.org"),
    ("https://user@example.org/", "user"),
    ("https://example.org:99999/", "port"),
    ("https:///cellula/", "host"),
    ("https://ex_ample.org/", "host"),
    ("https://example.org/?q=1", "query"),
    ("https://example.org/#top", "fragment"),
    ("https://example.org/<x>", "'<'"),
])
def test_site_url_refused(value, why):
    with pytest.raises(SiteUrlError) as refused:
        checked_site_url(value)
    message = str(refused.value)
    assert message.startswith("CELLULA_SITE_URL (site_url): expected an http or https address") and why in message
    assert repr(value) in message


# --- the command line's corners: one clear line, exit 2, never a traceback ---------------------------

def _generator(capsys, *args: str) -> tuple[int, str]:
    try:
        code = generator_cli.main(list(args))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    return code, capsys.readouterr().err


def _corner(data_dir: Path, tmp_path: Path, corner: str) -> tuple[list[str], list[str]]:
    """The arguments of one corner, and the words its message must hold."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    game = data_dir / "rules" / "mini" / "game.yaml"
    if corner == "data folder empty":
        (tmp_path / "empty").mkdir()
        return ["--data", str(tmp_path / "empty"), "validate"], ["--data", "rules/", "i18n/"]
    if corner == "data path empty":
        return ["--data", "", "validate"], ["--data", "empty path"]
    if corner == "rule text not UTF-8":
        rules = data_dir / "rules" / "mini" / "it-1e.md"
        rules.write_bytes(rules.read_bytes() + b"Caf\xe9\n")
        return ["--data", str(data_dir), "validate"], ["it-1e.md:", "UTF-8", "0xe9"]
    if corner == "source lang a list":
        game.write_text(game.read_text(encoding="utf-8").replace("lang: it,", "lang: [it],"), encoding="utf-8")
        return ["--data", str(data_dir), "validate"], ["game.yaml:", "sources[0].lang", "['it']"]
    if corner == "source rules a number":
        game.write_text(game.read_text(encoding="utf-8").replace("rules: it-1e.md", "rules: 5"), encoding="utf-8")
        return ["--data", str(data_dir), "validate"], ["game.yaml:", "sources[0].rules", "got 5"]
    if corner == "docs an existing file":
        return ["--data", str(data_dir), "generate", "--docs", str(a_file)], ["--docs", "existing file"]
    if corner == "docs below a file":
        return ["--data", str(data_dir), "generate", "--docs", str(a_file / "docs")], ["--docs", "is a file"]
    if corner == "docs empty":
        return ["--data", str(data_dir), "generate", "--docs", ""], ["--docs", "empty path"]
    if corner == "export below a file":
        return ["--data", str(data_dir), "check", "--export", str(a_file / "out")], ["--export", "is a file"]
    if corner == "export an existing file":
        return ["--data", str(data_dir), "check", "--export", str(a_file)], ["--export", "existing file"]
    if corner == "check an unknown game":
        return ["--data", str(data_dir), "check", "--game", "cytosys"], ["--game cytosys", "one of mini"]
    raise AssertionError(corner)


CORNERS = ("data folder empty", "data path empty", "rule text not UTF-8", "source lang a list", "source rules a number",
           "docs an existing file", "docs below a file", "docs empty", "export below a file", "export an existing file",
           "check an unknown game")


@pytest.mark.parametrize("corner", CORNERS)
def test_cli_corner_is_a_clear_error(data_dir, tmp_path, capsys, corner):
    args, words = _corner(data_dir, tmp_path, corner)
    code, err = _generator(capsys, *args)
    assert code == 2 and "Traceback" not in err, err
    assert all(word in err for word in words), (words, err)


def test_unwritable_export_folder_is_refused_before_reading_data(data_dir, tmp_path, capsys, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    monkeypatch.setattr("solver.io.paths.os.access", lambda path, mode: Path(path) != locked)
    monkeypatch.setattr("generator.site.load_site", _never)
    code, err = _generator(capsys, "--data", str(data_dir), "check", "--export", str(locked / "out"))
    assert code == 2 and "not writable" in err and str(locked) in err, err


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("the data was read before the output folder was checked")


# --- the whole build: a payload in every text field and catalogue key --------------------------------

GENERATOR_ELEMENTS = frozenset({"mark"})
"""Elements the generator writes only when the data calls for them: the differences page marks the
words two editions differ in (the payloads are such words)."""
GENERATOR_CLASSES = frozenset({"cellula-draft-english"})
"""Classes the generator writes only when the data calls for them: the draft page's label of a
paragraph left in English (a payload makes a paragraph the draft cannot translate)."""


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile-build")
    sites = {}
    for name, hostile in (("fresh", False), ("hostile", True)):
        data = hostile_site.data_copy(base / name / "data", hostile=hostile)
        result = hostile_site.build_site(data, base / name)
        assert result.returncode == 0, result.stderr[-3000:]
        sites[name] = base / name / "site"
    yield sites
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.slow
def test_hostile_build_gains_nothing(two_builds):
    """Every payload in every data text field and catalogue key: no page gains an element, attribute,
    URL scheme, resource or link host, class (an admonition's kind) or inline script beyond the
    fresh build's."""
    fresh = hostile_site.vocabulary(two_builds["fresh"])
    hostile = hostile_site.vocabulary(two_builds["hostile"])
    fresh.elements |= GENERATOR_ELEMENTS
    fresh.classes |= GENERATOR_CLASSES
    assert hostile.gained(fresh) == {}
    assert not [t for t in hostile.abbreviation_titles if hostile_site.HIJACKED in t]
    pages = list(two_builds["hostile"].rglob("*.html"))
    assert len(pages) == len(list(two_builds["fresh"].rglob("*.html")))
    assert not [p for p in pages if hostile_site.SECRET in p.read_text(encoding="utf-8")]


@pytest.mark.slow
def test_hostile_build_shows_the_payloads_as_text(two_builds):
    """The payloads are not dropped: a reader sees what the contributor wrote (so a reviewer sees it too)."""
    home = (two_builds["hostile"] / "en" / "mini" / "play" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert('script')&lt;/script&gt;" in home
    assert "evil.example/pixel.png" in home


@pytest.mark.slow
@pytest.mark.parametrize("value", ['http://example.org/x"><script>alert(1)</script>', "javascript://example.org/"])
def test_build_stops_on_a_bad_site_url_before_generating(tmp_path, value):
    data = hostile_site.data_copy(tmp_path / "data", hostile=False)
    result = hostile_site.build_site(data, tmp_path / "b", site_url=value)
    assert result.returncode == 1 and "CELLULA_SITE_URL (site_url)" in result.stderr
    assert "Traceback" not in result.stderr and "generated" not in result.stderr
