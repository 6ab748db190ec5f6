"""Pseudo-localisation: every interface string of the catalogue, in every site language, replaced
by a transformed copy (accented and wrapped in ⟦ ⟧), in a temporary copy of the configuration,
code and data; the site is built there, and every page must show interface text only in its
transformed form. A text on a page that is neither transformed, nor data (rules, cards, glossary,
puzzles: the files of data/ other than the catalogue), nor the theme's own strings, is an interface
string that escaped the catalogue: the test names the page and the text. Limits: a text counts as
data when it occurs in data/ as it is, or when it has two words or more and every one of them
occurs in data/ (source passages and tables are joined differently on the pages), so an escaped
string made only of words the rulebooks use may go unseen; single words and phrases with any
word of their own are caught.

Nothing of it is shipped: the copy lives in pytest's tmp_path. It builds a whole site (about a
minute on an idle machine), so it runs once; ``make test`` builds it beforehand, beside the real
site's builds (:data:`PREBUILT`).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import html as lxml_html

from generator.rules import SITE_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
OPEN, CLOSE = "⟦", "⟧"
ACCENTS = str.maketrans("aeiouAEIOU", "áéíóúÁÉÍÓÚ")
PROTECTED = re.compile(r"(\{\w+\}|`[^`]*`)")
"""Placeholders and code spans stay as they are (the code fills them; commands are not translated)."""


def pseudo(text: str, tag: str = "") -> str:
    """A text transformed so that it is recognisable on a page and still reads; ``tag`` marks the
    language it stands for (the third language's texts are tagged, :data:`THIRD_TAG`)."""
    parts = PROTECTED.split(text)
    return OPEN + tag + "".join(p if PROTECTED.fullmatch(p) else p.translate(ACCENTS) for p in parts) + CLOSE


def _transform(value, tag: str = ""):
    if isinstance(value, dict):
        return {k: _transform(v, tag) for k, v in value.items()}
    return pseudo(value, tag) if isinstance(value, str) else value


THIRD = "de"
"""The third site language the copy adds the way CONTRIBUTING says a contributor does (an entry in
``mkdocs.yml``, a catalogue file ``data/i18n/de.yaml``, nothing else): German, its texts
machine-marked placeholders (the English catalogue transformed and tagged), so that a German page
showing an Italian or English interface string, or missing its search or its language switch, fails."""
THIRD_TAG = "ᴰᴱ·"
"""The mark at the start of every third-language text (inside the transformed text's brackets)."""
THIRD_CONFIG = f"""      - locale: {THIRD}
        name: Deutsch
        build: true
        site_description: "{OPEN}{THIRD_TAG}site description{CLOSE}"
        copyright: "{OPEN}{THIRD_TAG}copyright{CLOSE}"
"""


WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
PLAIN_VOWEL = re.compile(r"[aeiouAEIOU]")
"""A transformed text has none (Markdown may split it over several elements, brackets apart)."""
CODE_NAME = re.compile(r"^[\w.-]*[_.][\w.-]*\.?$")
"""Identifiers and file names the pages cite (``Rules.exhaust_after_grey``, ``test_engine.py``,
the draft's ``cytosis.it-2e.changed.xlf``)."""
SKIPPED_ELEMENTS = {"script", "style", "code", "pre", "svg", "title"}
"""Not page text (titles are checked through the headings they repeat); the text after one is."""


def _data_corpus(data_dir: Path) -> str:
    """Every text of data/ other than the catalogue (and the benchmark's figures), as one string,
    with and without Markdown emphasis."""
    parts = []
    files = [*sorted(data_dir.rglob("*")), *sorted((ROOT / "docs" / "assets" / "bench").glob("*.json"))]
    for file in files:
        if file.is_file() and file.suffix in (".yaml", ".md", ".txt", ".json") and "i18n" not in file.parts:
            parts.append(file.read_text(encoding="utf-8", errors="replace"))
    text = "\n".join(parts)
    return _normal(text + "\n" + re.sub(r"[*_]{1,2}", "", text))


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _theme_corpus() -> str:
    """Material's own interface strings (search box, footer, navigation) and the configuration's texts."""
    import material
    languages = Path(material.__file__).parent / "templates" / "partials" / "languages"
    texts = [(languages / f"{lang}.html").read_text(encoding="utf-8") for lang in (*SITE_LANGUAGES, THIRD)
             if (languages / f"{lang}.html").exists()]
    texts.append((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    texts.append(THIRD_CONFIG)  # the copy's configuration: the third language's name
    texts.append("Material for MkDocs")  # the theme's credit: a product name
    return "\n".join(texts)


def _page_texts(root):
    """The text of every element of the page's tree but a skipped one (nor anything inside it), and
    the tail of every element inside the root: the text after a skipped element (an inline ``code``)
    is its parent's, page text. One walk that does not enter a skipped element."""
    stack = [(root, False)]
    while stack:
        element, has_parent = stack.pop()
        if has_parent:
            yield element.tail
        if isinstance(element.tag, str) and element.tag not in SKIPPED_ELEMENTS:
            yield element.text
            stack.extend((child, True) for child in reversed(element))


def _escaped_texts(page: Path, corpus: str, corpus_words: set[str], in_corpus: dict[str, bool]) -> list[str]:
    """``in_corpus``: ``chunk in corpus`` of every chunk met so far, on any page (the navigation and
    the data texts repeat from page to page; a substring search of the whole corpus is the cost)."""
    found = []
    for text in _page_texts(lxml_html.fromstring(page.read_bytes())):
        if not text or not WORD.search(text):
            continue
        # what is left once the transformed strings are taken out must be data, theme or config
        rest = text
        while OPEN in rest:  # innermost first: a transformed text may hold another
            before = rest
            rest = re.sub(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", rest)
            if rest == before:
                break
        for chunk in re.split(r"\s*[·|:;,()\[\]–—→×/⟦⟧›\"]\s*|\n", _normal(rest)):
            # numbers, list and heading marks and section numbers around data text are the page's
            chunk = re.sub(r"^(§[\d.]+\s*|[\d+=×x-]+\.?\s+|#+\s+)+", "", chunk.strip(" .!?«»“”'"))
            chunk = re.sub(r"(\s+[\d+=×-]+)+$", "", chunk)
            if not WORD.search(chunk) or not PLAIN_VOWEL.search(chunk) or CODE_NAME.match(chunk):
                continue
            words = WORD.findall(chunk)
            if chunk not in in_corpus:
                in_corpus[chunk] = chunk in corpus
            if in_corpus[chunk] or (len(words) >= 2 and all(w in corpus_words for w in words)):
                continue  # data (a source passage or table may be joined differently on the page)
            found.append(chunk)
    return found


PREBUILT = "CELLULA_PSEUDO_SITE"
"""A folder where ``python tests/test_pseudo_locale.py FOLDER`` has just built the pseudo-localised
site: ``make test`` builds it beside the real site's builds, on a processor they leave idle, and
hands it to this test (a person running pytest by hand leaves it unset: the test builds its own)."""


def build_pseudo_site(copy: Path) -> Path:
    """The pseudo-localised copy of the configuration, code and data in ``copy`` (emptied first),
    with its site built in ``copy/site``."""
    env = make_pseudo_copy(copy)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"], cwd=copy, env=env,
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-4000:]
    (copy / "BUILT").write_text("pseudo-localised site built\n", encoding="utf-8")
    return copy


def make_pseudo_copy(copy: Path) -> dict[str, str]:
    """The pseudo-localised copy of the configuration, code and data in ``copy`` (emptied first), with
    the third language added; the environment that builds it."""
    if copy.exists():
        shutil.rmtree(copy)
    copy.mkdir(parents=True)
    for name in ("generator", "solver", "data", "tools", "tests"):  # tests: the rules audit cites them
        shutil.copytree(ROOT / name, copy / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copytree(ROOT / "docs" / "assets", copy / "docs" / "assets")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    anchor = "\nmarkdown_extensions:"
    assert anchor in config, "mkdocs.yml: expected the i18n plugin's languages right before markdown_extensions"
    (copy / "mkdocs.yml").write_text(config.replace(anchor, "\n" + THIRD_CONFIG.rstrip("\n") + "\n" + anchor, 1),
                                     encoding="utf-8")
    # the puzzles' committed records come with data/: the copy's build reads them, proves nothing
    catalogue = copy / "data" / "i18n"
    english = yaml.safe_load((catalogue / "en.yaml").read_text(encoding="utf-8"))
    for lang in SITE_LANGUAGES:
        file = catalogue / f"{lang}.yaml"
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        file.write_text(yaml.safe_dump(_transform(data), allow_unicode=True, sort_keys=False), encoding="utf-8")
    (catalogue / f"{THIRD}.yaml").write_text(
        yaml.safe_dump(_transform(english, THIRD_TAG), allow_unicode=True, sort_keys=False), encoding="utf-8")
    env = dict(os.environ, CELLULA_DATA=str(copy / "data"), CELLULA_CONFIG=str(copy / "mkdocs.yml"),
               NO_MKDOCS_2_WARNING="1", CELLULA_CACHE_DIR=str(ROOT / ".cache"), PYTHONPATH=str(copy))
    return env


@pytest.fixture(scope="module")
def pseudo_site(tmp_path_factory) -> Path:
    prebuilt = os.environ.get(PREBUILT)
    if prebuilt:
        copy = Path(prebuilt)
        assert (copy / "BUILT").is_file() and (copy / "site" / "index.html").is_file(), (
            f"{PREBUILT}={prebuilt}: expected a pseudo-localised site built by "
            f"`python tests/test_pseudo_locale.py {prebuilt}`")
        return copy
    return build_pseudo_site(tmp_path_factory.mktemp("pseudo") / "copy")


def test_every_page_shows_only_transformed_interface_strings(pseudo_site):
    corpus = _data_corpus(ROOT / "data") + "\n" + _normal(_theme_corpus())
    corpus_words = set(WORD.findall(corpus))
    pages = sorted((pseudo_site / "site").rglob("*.html"))
    assert len(pages) > 100
    escaped = {}
    in_corpus: dict[str, bool] = {}
    for page in pages:
        texts = _escaped_texts(page, corpus, corpus_words, in_corpus)
        if texts:
            escaped[str(page.relative_to(pseudo_site / "site"))] = sorted(set(texts))
    report = json.dumps(escaped, ensure_ascii=False, indent=1)
    if os.environ.get("CELLULA_PSEUDO_REPORT"):
        Path(os.environ["CELLULA_PSEUDO_REPORT"]).write_text(report, encoding="utf-8")
    assert not escaped, "interface text outside data/i18n:\n" + report[:6000]


def test_the_transformed_strings_reach_the_pages(pseudo_site):
    """The check above means something: the pages do carry the transformed catalogue."""
    home = (pseudo_site / "site" / "index.html").read_text(encoding="utf-8")
    assert pseudo(yaml.safe_load((ROOT / "data/i18n/it.yaml").read_text(encoding="utf-8"))["core"]["games"]) in home


def _left_over(text: str) -> str:
    """What of ``text`` is not inside a transformed string (numbers and punctuation are fine)."""
    rest = text
    while OPEN in rest:
        before = rest
        rest = re.sub(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", rest)
        if rest == before:
            break
    return " ".join(WORD.findall(rest))


def test_play_mode_run_time_texts_are_transformed(pseudo_site):
    """Play mode's texts made at run time come from the catalogue too (issue #36): every move of
    every build-time move table, and the moves, the move played and the best continuation the
    browser's engine (generator/puzzles/play_runtime.py, the code Pyodide runs) tells from the words the
    page hands it."""
    from html import unescape

    from generator.puzzles import play_runtime
    from solver import load_puzzle
    tables = sorted((pseudo_site / "site" / "generated" / "play").glob("*.table.js"))
    assert tables, "no move table in the pseudo-localised site"
    escaped: dict[str, list[str]] = {}
    for file in tables:
        text = file.read_text(encoding="utf-8")
        table = json.loads(text[text.index("] = ") + 4:].rstrip().rstrip(";"))
        shown = {table["labels"][move[0]] for state in table["states"] for move in state[3]}
        bad = sorted(label for label in shown if _left_over(label))
        if bad:
            escaped[file.name] = bad[:5]
    # the engine's path: a puzzle past the table's size, in each language
    puzzle_id = "deck-refill-2e"
    puzzle = load_puzzle(ROOT / "data" / "puzzles" / f"{puzzle_id}.yaml")
    record = json.loads((ROOT / "data" / "puzzles" / f"{puzzle_id}.record.json").read_text(encoding="utf-8"))
    for lang in SITE_LANGUAGES:
        prefix = "" if lang == "it" else f"{lang}/"
        html = (pseudo_site / "site" / prefix / "cytosis" / "puzzles" / puzzle_id / "index.html").read_text(encoding="utf-8")
        start = html.index('data-board="') + len('data-board="')
        words = json.loads(unescape(html[start:html.index('"', start)]))["words"]
        session = play_runtime.Session(play_runtime.pack(puzzle), json.dumps(record["regret"]["values"]), json.dumps(words))
        view = json.loads(session.view())
        for index in range(len(view["actions"])):      # a first move that loses shows a continuation
            after = json.loads(session.play(index))
            if after["continuation"]:
                break
            session.undo()
        said = [a["label"] for a in view["actions"]] + after["moves"] + after["continuation"]
        bad = sorted(label for label in said if _left_over(label))
        if bad:
            escaped[f"{puzzle_id} ({lang}, engine)"] = bad[:5]
    assert not escaped, "play mode text outside data/i18n:\n" + json.dumps(escaped, ensure_ascii=False, indent=1)


# --- the third language ---------------------------------------------------------------------------

TRANSFORMED = re.compile(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def _third_pages(site: Path) -> list[Path]:
    return sorted((site / THIRD).rglob("*.html"))


def _relative_pages(site: Path, prefix: str) -> set[str]:
    """The pages of the language whose pages live under ``prefix`` ('' for the default language),
    relative to that folder (other languages' folders left out)."""
    root = site / prefix if prefix else site
    others = {f"{lang}/" for lang in (*SITE_LANGUAGES, THIRD)}
    return {page.relative_to(root).as_posix() for page in root.rglob("*.html")
            if prefix or not any(page.relative_to(site).as_posix().startswith(o) for o in others)}


def test_the_third_language_has_every_page(pseudo_site):
    """A language added by its two files gets the whole site: every page the English site has."""
    site = pseudo_site / "site"
    english = _relative_pages(site, "en")
    assert len(english) > 100
    assert _relative_pages(site, THIRD) == english


def test_every_third_language_page_shows_its_own_strings(pseudo_site):
    """Every interface string on a German page is the German catalogue's (tagged): none of the
    Italian or English catalogue's, which a page written for two languages would show."""
    foreign: dict[str, list[str]] = {}
    untagged_pages = []
    for page in _third_pages(pseudo_site / "site"):
        root = lxml_html.fromstring(page.read_bytes())
        texts = " ".join(text for text in _page_texts(root) if text)
        strings = TRANSFORMED.findall(texts)
        wrong = sorted({s for s in strings if not s.startswith(OPEN + THIRD_TAG)})
        name = str(page.relative_to(pseudo_site / "site"))
        if wrong:
            foreign[name] = wrong[:5]
        if not any(s.startswith(OPEN + THIRD_TAG) for s in strings):
            untagged_pages.append(name)
    assert not foreign, "Italian or English interface strings on German pages:\n" + json.dumps(foreign, ensure_ascii=False, indent=1)[:6000]
    assert not untagged_pages, f"German pages without a German interface string: {untagged_pages[:20]}"


def test_the_third_language_has_its_search(pseudo_site):
    """The German pages have their own search index, holding the German pages (the pages the
    English index holds for the English ones), and the search script is told the site's languages,
    so that a German reader searches the German index."""
    site = pseudo_site / "site"
    indexes = {lang: json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
               for lang in ("en", THIRD)}
    pages = {lang: {doc["location"].split("#")[0] for doc in index["docs"]} for lang, index in indexes.items()}
    assert pages[THIRD] and all(location.startswith(f"{THIRD}/") for location in pages[THIRD])
    assert {p.removeprefix(f"{THIRD}/") for p in pages[THIRD]} == {p.removeprefix("en/") for p in pages["en"]}
    home = (site / THIRD / "index.html").read_text(encoding="utf-8")
    opening = '<script id="cellula-ui" type="application/json">'
    start = home.index(opening) + len(opening)
    ui = json.loads(home[start:home.index("</script>", start)])
    assert ui["languages"] == [*SITE_LANGUAGES, THIRD]
    assert ui["search_include_other"].startswith(OPEN + THIRD_TAG)


def test_every_page_switches_to_every_language(pseudo_site):
    """Every page of every language has the language switch, with a link to the same page in each
    of the three languages."""
    site = pseudo_site / "site"
    missing: dict[str, list[str]] = {}
    languages = (*SITE_LANGUAGES, THIRD)
    for page in sorted(site.rglob("*.html")):
        root = lxml_html.fromstring(page.read_bytes())
        offered = set(root.xpath("//a[@hreflang]/@hreflang"))
        lacking = [lang for lang in languages if lang not in offered]
        if lacking:
            missing[str(page.relative_to(site))] = lacking
    assert not missing, f"pages whose language switch lacks a language: {dict(list(missing.items())[:20])}"


if __name__ == "__main__":     # make test: python tests/test_pseudo_locale.py FOLDER
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/test_pseudo_locale.py FOLDER (the pseudo-localised copy and its site)")
    print(f"pseudo-localised site built in {build_pseudo_site(Path(sys.argv[1]).resolve()) / 'site'}")
