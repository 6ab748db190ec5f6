"""A hostile contributor's data set, and the markup vocabulary of a site built from it (issue #33).

Every text field of the fixture data (game, chapter and source titles, rule headings and bodies,
editorial notes, glossary notes) and every key of the interface catalogue gets one payload of each
class in :data:`PAYLOADS`; :func:`build_site` builds it with the project's own ``mkdocs.yml`` (a
config of its own that inherits it, pointing ``docs_dir``/``site_dir`` at a temporary folder and
``CELLULA_DATA`` at the data), and :func:`vocabulary` lists what a built site's pages are made of:
elements, attributes, URL schemes, hosts resources are loaded from, inline script bodies. A
hostile build may hold no more of any of these than a fresh build of the same data.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "data"

# No digits in any payload: the edition check and the quick reference compare the figures of texts.
PAYLOADS: dict[str, str] = {
    "script element": "<script>alert('script')</script>",
    "event handler": "<img src=x onerror=alert('handler')>",
    "frame": '<iframe src="https://evil.example/frame"></iframe>',
    "script link": "[link](javascript:alert('link'))",
    "data link": "[data](data:text/html;base64,PHNjcmlwdD4=)",
    "attribute breakout": "x\" onmouseover=\"alert('quote')\" y='",
    "attribute list": "{: onclick=\"alert('attr')\" }",
    "title breakout": "</title><script>alert('title')</script>",
    "external image": "![pixel](https://evil.example/pixel.png)",
    "autolink script": "<javascript:alert('autolink')>",
    "encoded script": "&lt;script&gt;alert('entity')&lt;/script&gt;",
    "protocol-relative image": "![pixel](//evil.example/tracker.png)",
    "link elsewhere": "[more](https://evil.example/more)",
    "angle script link": "[angle](<javascript:alert('angle')>)",
}
"""One payload per class, each written inline (the whole of it fits on a title's one line)."""

BLOCK_PAYLOADS: dict[str, str] = {
    "snippet include": '--8<-- "mkdocs.yml"',
    "abbreviation": "*[Mini]: hijacked",
    "block attribute list": "{: onclick=\"alert('block')\" }",
    "raw html block": "<div onclick=\"alert('div')\">block</div>",
    "danger admonition": '!!! danger "Alarm"\n    raised by data',
}
"""Payloads that act only as a line of their own (a multi-line text field, a catalogue string
written on its own line by a template)."""

CATALOGUE_ACCEPTS = ("attribute breakout", "encoded script")
"""The payload classes a catalogue text may carry (:func:`generator.i18n.read_catalogue` refuses
the others, each a data error naming the key: tests/test_hostile_data.py)."""

INLINE = " " + " ".join(PAYLOADS.values())
BLOCK = INLINE + "\n\n" + "\n\n".join(BLOCK_PAYLOADS.values()) + "\n\n"
SECRET = "site_dir:"
"""A line of mkdocs.yml: a snippet include that worked would publish it."""
HIJACKED = "hijacked"
"""The abbreviation payload's title: an ``abbr`` carrying it relabels a word of the page."""


def _poison_strings(value: object, payload: str, skip: frozenset[str], key: str = "") -> object:
    """``value`` with ``payload`` appended to every text leaf whose key is not in ``skip``."""
    if isinstance(value, dict):
        return {k: _poison_strings(v, payload, skip, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison_strings(v, payload, skip, key) for v in value]
    if isinstance(value, str) and key not in skip:
        return value + payload
    return value


def _rewrite_yaml(file: Path, payload: str, skip: frozenset[str]) -> None:
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    file.write_text(yaml.safe_dump(_poison_strings(data, payload, skip), allow_unicode=True, sort_keys=False),
                    encoding="utf-8")


_IDS = frozenset({"id", "file", "rules", "lang", "source", "section", "kind", "games", "only", "sections",
                  "chapters", "also", "refs"})
"""Keys whose values name things (ids, files, languages): a payload there is a plain data error."""


def poison(data_dir: Path) -> None:
    """Put every payload into every text field of the data set at ``data_dir`` and every key of its
    interface catalogue."""
    game = data_dir / "rules" / "mini" / "game.yaml"
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    data["title"] = {lang: text + INLINE for lang, text in data["title"].items()}
    for chapter in data["chapters"]:
        chapter["title"] = {lang: text + INLINE for lang, text in chapter["title"].items()}
    for source in data["sources"]:
        source["label"] = {lang: text + INLINE for lang, text in source["label"].items()}
    game.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for rules in (data_dir / "rules" / "mini").glob("*.md"):
        text = rules.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^(## .*)$", lambda m: m.group(1) + INLINE, text)  # section headings
        text = re.sub(r"(?m)^(?!<!--|## )(\S.*)$", lambda m: m.group(1) + BLOCK.rstrip("\n"), text)
        rules.write_text(text, encoding="utf-8")
    for extra in EXTRA_FILES:  # editorial notes, quick reference: every text leaf
        _rewrite_yaml(data_dir / "rules" / "mini" / extra, BLOCK, _IDS)
    glossary = data_dir / "glossary.yaml"
    terms = yaml.safe_load(glossary.read_text(encoding="utf-8"))
    for term in terms["terms"]:
        term["note"] = {"it": "Nota." + INLINE, "en": "Note." + INLINE}
    glossary.write_text(yaml.safe_dump(terms, allow_unicode=True, sort_keys=False), encoding="utf-8")
    catalogue_payload = " " + " ".join(PAYLOADS[name] for name in CATALOGUE_ACCEPTS)
    for catalogue in (data_dir / "i18n").glob("*.yaml"):
        _rewrite_yaml(catalogue, catalogue_payload, frozenset())


EXTRA_FILES = {
    "notes.yaml": {"notes": [{"section": "play.place", "kind": "flag", "text": {"it": "Nota.", "en": "Note."}}]},
    "quickref.yaml": {"groups": [{"id": "basics", "title": {"it": "Basi", "en": "Basics"},
                                  "lines": [{"refs": ["play.place"], "it": "Piazza una Beuta.", "en": "Place a Flask."}]}]},
}
"""Data files of the real games the fixture lacks, added to both builds (the hostile one poisoned)."""


def data_copy(target: Path, *, hostile: bool) -> Path:
    """A copy of the fixture data (with the project's catalogue and :data:`EXTRA_FILES`) at
    ``target``, poisoned if ``hostile``."""
    shutil.copytree(FIXTURE_DATA, target)
    shutil.copytree(ROOT / "data" / "i18n", target / "i18n")
    for name, content in EXTRA_FILES.items():
        (target / "rules" / "mini" / name).write_text(yaml.safe_dump(content, allow_unicode=True), encoding="utf-8")
    if hostile:
        poison(target)
    return target


def build_site(data_dir: Path, work: Path, *, site_url: str | None = None) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the project's config on ``data_dir``, into ``work/site``."""
    (work / "docs").mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "docs" / "assets", work / "docs" / "assets", dirs_exist_ok=True)
    config = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "docs_dir": str(work / "docs"),
        "site_dir": str(work / "site"),
        "hooks": [str(ROOT / "generator" / "mkdocs_hook.py")],
        "theme": {"name": "material", "custom_dir": str(ROOT / "generator" / "templates" / "overrides")},
        "watch": [],
    }
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    env = {**os.environ, "CELLULA_DATA": str(data_dir), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("CELLULA_SITE_URL", None)
    if site_url is not None:
        env["CELLULA_SITE_URL"] = site_url
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(work / "mkdocs.yml")],
                          cwd=work, env=env, capture_output=True, text=True, timeout=300)


URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "poster", "data", "srcset", "xlink:href"})


@dataclass
class Vocabulary:
    """What a site's pages are made of (not their text)."""

    elements: set[str] = field(default_factory=set)
    attributes: set[tuple[str, str]] = field(default_factory=set)
    """(element, attribute name)."""
    schemes: set[str] = field(default_factory=set)
    """URL schemes of every link and resource ('' for relative)."""
    resource_hosts: set[str] = field(default_factory=set)
    """Hosts that ``src`` attributes load from ('' for the site itself)."""
    link_hosts: set[str] = field(default_factory=set)
    """Hosts that ``href`` attributes lead to ('' for the site itself)."""
    classes: set[str] = field(default_factory=set)
    """Class names (an admonition's kind is one: ``danger``)."""
    scripts: set[str] = field(default_factory=set)
    """Bodies of inline scripts, page-specific paths and numbers blurred."""
    abbreviation_titles: set[str] = field(default_factory=set)
    where: dict[object, str] = field(default_factory=dict)
    """One page where each item was seen (for the failure message)."""

    def gained(self, fresh: Vocabulary) -> dict[str, list[tuple[object, str]]]:
        """What this vocabulary has beyond ``fresh``'s, with a page for each item."""
        gains: dict[str, list[tuple[object, str]]] = {}
        for name in ("elements", "attributes", "schemes", "resource_hosts", "link_hosts", "classes", "scripts"):
            extra = getattr(self, name) - getattr(fresh, name)
            if extra:
                gains[name] = sorted(((item, self.where[item]) for item in extra), key=str)
        return gains


class _Collector(HTMLParser):
    def __init__(self, vocabulary: Vocabulary, page: str):
        super().__init__(convert_charrefs=True)
        self.vocabulary, self.page = vocabulary, page
        self.in_script = False
        self.in_abbr: str | None = None

    def _note(self, kind: set[object], item: object) -> None:
        kind.add(item)
        self.vocabulary.where.setdefault(item, self.page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        v = self.vocabulary
        self._note(v.elements, tag)  # type: ignore[arg-type]
        for name, value in attrs:
            self._note(v.attributes, (tag, name))  # type: ignore[arg-type]
            if name in URL_ATTRIBUTES and value is not None:
                url = urlsplit(value.strip())
                self._note(v.schemes, url.scheme.lower())  # type: ignore[arg-type]
                if name == "src":
                    self._note(v.resource_hosts, url.netloc.lower())  # type: ignore[arg-type]
                if name == "href":
                    self._note(v.link_hosts, url.netloc.lower())  # type: ignore[arg-type]
            if name == "class" and value:
                for token in value.split():
                    self._note(v.classes, token)  # type: ignore[arg-type]
            if tag == "abbr" and name == "title" and value:
                v.abbreviation_titles.add(value)
        self.in_script = tag == "script" and not any(name == "src" for name, _ in attrs)

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            blurred = re.sub(r"\d+", "N", re.sub(r'"(?:[^"\\]|\\.)*"', '""', data.strip()))
            self._note(self.vocabulary.scripts, blurred)  # type: ignore[arg-type]


def vocabulary(site: Path) -> Vocabulary:
    """The vocabulary of every HTML page under ``site``."""
    found = Vocabulary()
    for page in sorted(site.rglob("*.html")):
        collector = _Collector(found, str(page.relative_to(site)))
        collector.feed(page.read_text(encoding="utf-8"))
        collector.close()
    return found
