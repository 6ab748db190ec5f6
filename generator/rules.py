"""Rulebook data: game manifests and sectioned rule texts, loaded into typed models.

A game (``data/rules/<game>/game.yaml``) lists its sources and chapters; each source's cleaned
text lives in a Markdown file cut into sections by ``<!-- section: id | lines: a-b -->`` markers,
and this project's translations live in ``translations.<lang>.md``. See ``data/README.md``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from solver.io.loading import Located, parse_line_ranges, unwritable_at

from .errors import Problems
from .schema import Faults, Schema, check, in_languages
from .yamlio import load_yaml, yaml_path

from .languages import SITE_LANGUAGES as SITE_LANGUAGES  # noqa: E402 (re-exported: the languages are defined in mkdocs.yml)
from .languages import CONTENT_LANGUAGES, FallbackTexts, in_chain

SECTION_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MARKER = re.compile(r"^<!--\s*section:(?P<body>.*?)-->\s*$")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
TRANSLATION_FILE = re.compile(r"^translations\.(?P<lang>[a-z]{2})\.md$")


class Lang(str, Enum):
    """Languages of texts: the two site languages and the Russian original of Immune Response."""

    IT = "it"
    EN = "en"
    RU = "ru"


@dataclass(frozen=True)
class Label:
    """A short text in each content language (:data:`~generator.languages.CONTENT_LANGUAGES`), and in
    any other site language the data gives it in; ``label[lang]`` reads it along the language's
    fallback chain (:func:`~generator.languages.fallback_chain`: a German page shows the English text
    until the data has a German one)."""

    it: str
    """Italian."""
    en: str
    """English."""
    more: tuple[tuple[str, str], ...] = ()
    """(language, text) in the other site languages the data gives."""

    @classmethod
    def of(cls, texts: Mapping[str, str]) -> Label:
        """The label of ``texts`` (language -> text, the content languages required); a text in a
        language that is not a site language is left out (the loaders refuse it first)."""
        more = tuple((lang, texts[lang]) for lang in SITE_LANGUAGES
                     if lang not in CONTENT_LANGUAGES and isinstance(texts.get(lang), str) and texts[lang].strip())
        return cls(it=texts["it"], en=texts["en"], more=more)

    def __getitem__(self, lang: str) -> str:
        return in_chain({"it": self.it, "en": self.en, **dict(self.more)}, lang)


@dataclass(frozen=True)
class Source:
    """One source text of a game (an official rulebook, or the original the project translates)."""

    id: str
    """Id used in provenance and ``from:`` markers (``it-1e``)."""
    file: Path
    """Raw extracted text, under ``data/sources/``."""
    rules: Path
    """The sectioned, cleaned Markdown of this source."""
    lang: str
    """Language of the text."""
    label: Label
    """Where the text comes from, said in each site language."""


@dataclass(frozen=True)
class SectionText:
    """One language's text of one section."""

    lang: str
    """Language of the text."""
    title: str
    """The section heading."""
    body: str
    """Markdown body, heading removed."""
    source: str
    """Id of the source this text is, or is translated from."""
    translated: bool
    """True when the text is this project's translation (of ``source``)."""
    lines: tuple[tuple[int, int], ...]
    """Source line ranges the text is cleaned from (official/original texts only)."""
    file: Path
    """The Markdown file holding the text."""
    line: int
    """Line of the section marker in ``file``."""
    project_heading: bool = False
    """True when the source prints no heading here and this one is the project's (``heading: project``)."""


@dataclass(frozen=True)
class Section:
    """A rule section: one stable id, a text per language."""

    id: str
    """Stable, language-independent id ``chapter.slug``."""
    chapter: str
    """Id of the chapter the section is listed in."""
    only: str | None
    """Language of the only official text that has this rule (one-sided rule), or None."""
    texts: dict[str, SectionText]
    """Texts by language (``it``, ``en`` and, for originals, ``ru``)."""
    also: tuple[str, ...] = ()
    """For a one-sided section: the sections where the other edition states the same rule in other
    words (``also:`` in game.yaml), so the rule is not shown as one edition's only."""

    @property
    def anchor(self) -> str:
        """HTML id of the section on its page."""
        return self.id.replace(".", "-")

    def originals(self) -> list[SectionText]:
        """The texts that are not this project's translations."""
        return [t for t in self.texts.values() if not t.translated]


class NoteKind(str, Enum):
    """What an editorial note does to the source text it stands beside."""

    CORRECTION = "correction"
    """The source says something it evidently does not mean; the note gives the reading to follow."""
    INFERENCE = "inference"
    """Values or words the source lacks, supplied by this project and said to be inferred."""
    FLAG = "flag"
    """A contradiction, omission or ambiguity of the source, pointed out without choosing for the reader."""


@dataclass(frozen=True)
class EditorialNote:
    """A visible note of this project beside a section's text (``rules/<game>/notes.yaml``)."""

    section: str
    """Id of the section the note stands beside."""
    kind: NoteKind
    """Correction, inference or flag."""
    text: Label
    """The note in each site language (Markdown)."""


@dataclass(frozen=True)
class Chapter:
    """A page of a game's rules."""

    id: str
    """Page slug, same in every language."""
    title: Label
    """Title in each site language."""
    sections: tuple[str, ...]
    """Ids of the sections, in reading order."""


@dataclass(frozen=True)
class Game:
    """A game's whole rules reference."""

    id: str
    """Game id and URL folder (``cytosis``)."""
    title: Label
    """Title in each site language."""
    compare_editions: bool
    """Official texts exist in both site languages: one-sided sections must be declared."""
    sources: tuple[Source, ...]
    """The source texts, in manifest order."""
    chapters: tuple[Chapter, ...]
    """Chapters in reading order."""
    sections: dict[str, Section] = field(repr=False)
    """All sections by id."""
    notes: dict[str, tuple[EditorialNote, ...]] = field(default_factory=dict, repr=False)
    """This project's editorial notes by section id (``notes.yaml``), in file order."""
    link_hosts: tuple[str, ...] = ()
    """Hosts the game's texts may link to (``link_hosts`` of ``game.yaml``): the site's sanitiser
    drops a link to any other host (:func:`generator.sanitize.sanitize_html`)."""

    def source(self, source_id: str) -> Source:
        return next(s for s in self.sources if s.id == source_id)

    def chapter_of(self, section_id: str) -> Chapter:
        return next(c for c in self.chapters if section_id in c.sections)


# --- parsing the Markdown section files ---------------------------------------------------------

@dataclass(frozen=True)
class _RawSection:
    id: str
    attrs: dict[str, str]
    title: str
    body: str
    line: int


def parse_sections(file: Path, problems: Problems) -> list[_RawSection]:
    """Cut a rules Markdown file into sections at its marker comments."""
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        problems.add(file, "", f"cannot read file: {exc.strerror}")
        return []
    except UnicodeDecodeError as exc:
        raw = file.read_bytes()
        bad_line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        problems.add(file, "", f"expected UTF-8 text, got the byte 0x{raw[exc.start]:02x} at column {column} "
                     "(save the file as UTF-8)", bad_line)
        # read on with the byte replaced, so that the file's sections do not all count as missing too
        lines = raw.decode("utf-8", errors="replace").splitlines()
    unwritable = unwritable_at("\n".join(lines))
    if unwritable is not None:   # a bidirectional control or an invisible character in a heading or a text
        problems.add(file, "", unwritable[2], unwritable[0])
    starts: list[tuple[int, dict[str, str], str]] = []
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("<!--") and "section:" in line:
            match = MARKER.match(line.strip())
            if not match:
                problems.add(file, "", f"malformed section marker {line.strip()!r}: expected "
                             "'<!-- section: chapter.slug | key: value -->' on one line", number)
                continue
            fields = [f.strip() for f in match.group("body").split("|")]
            section_id, attrs = fields[0], {}
            for extra in fields[1:]:
                key, sep, value = extra.partition(":")
                if not sep or key.strip() not in ("lines", "from", "heading"):
                    problems.add(file, section_id, f"unknown marker field {extra!r}: expected "
                                 "'lines: a-b, c', 'from: source-id' or 'heading: project'", number)
                    continue
                if key.strip() == "heading" and value.strip() != "project":
                    problems.add(file, section_id, f"unknown marker value {extra!r}: expected 'heading: project' "
                                 "(the heading is this project's, the source prints none)", number)
                    continue
                attrs[key.strip()] = value.strip()
            starts.append((number, attrs, section_id))
    if not starts:
        problems.add(file, "", "no section markers found: expected '<!-- section: chapter.slug -->'")
        return []
    preamble = "\n".join(lines[: starts[0][0] - 1])
    stray = re.sub(r"<!--.*?-->", "", preamble, flags=re.S).strip()
    if stray:  # a file may open with a comment; any other text would belong to no section
        problems.add(file, "", f"text before the first section marker: {stray[:60]!r}: expected only "
                     "comments before it", 1)
    sections = []
    for index, (number, attrs, section_id) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines)
        chunk = lines[number:end]
        while chunk and not chunk[0].strip():
            chunk.pop(0)
        heading = HEADING.match(chunk[0]) if chunk else None
        if not heading:
            problems.add(file, section_id, "expected a Markdown heading ('## Title') as the first "
                         f"line of the section, got {chunk[0][:60]!r}" if chunk else
                         "empty section: expected a heading and a text", number)
            continue
        body = "\n".join(chunk[1:]).strip()
        if not body:
            problems.add(file, section_id, "empty text: expected the section's paragraphs after its heading", number)
        if not SECTION_ID.match(section_id):
            problems.add(file, section_id, f"bad section id {section_id!r}: expected 'chapter.slug' "
                         "(lowercase letters, digits and '-', one dot)", number)
        sections.append(_RawSection(section_id, attrs, heading.group("title"), body, number))
    return sections


# --- loading a game ------------------------------------------------------------------------------

def _label(value: object, file: Path, located: Located, path: tuple[str | int, ...], problems: Problems) -> Label | None:
    if not isinstance(value, dict) or not all(isinstance(value.get(l), str) and value[l].strip()
                                              for l in CONTENT_LANGUAGES):
        problems.add(file, yaml_path(*path), f"expected a text in each of {list(CONTENT_LANGUAGES)} "
                     f"({{it: ..., en: ...}}), got {value!r}", located.line(*path))
        return None
    return Label.of(value)


def _text(what: str) -> Schema:
    return {"type": "string", "minLength": 1, "pattern": r"\S", "expected": f"a text ({what})"}


def _label_schema() -> Schema:
    """Text in every content language (``{it: ..., en: ...}``), optionally in another site language."""
    schema = in_languages(CONTENT_LANGUAGES, f"a text in each of {list(CONTENT_LANGUAGES)} ({{it: ..., en: ...}})",
                          text=lambda lang: _text(f"the {lang} wording"))
    schema["properties"].update({lang: _text(f"the {lang} wording") for lang in SITE_LANGUAGES
                                 if lang not in CONTENT_LANGUAGES})
    return schema


def manifest_schema() -> Schema:
    """The shape of a ``game.yaml`` (what needs other files, the folder or the whole list, such as
    the id matching the folder, source files existing and duplicate ids, stays in :func:`load_game`)."""
    slug = {"type": "string", "pattern": SLUG.pattern, "expected": "a slug of a-z, 0-9 and '-'"}
    section_id = {"type": "string", "pattern": SECTION_ID.pattern, "expected": "a section id 'chapter.slug'"}
    declared_section = {
        "if": {"type": "string"}, "then": section_id,
        "else": {"type": "object", "required": ["id", "only"], "additionalProperties": False,
                 "expected": "a section id 'chapter.slug', or {id, only, also} for a one-sided section",
                 "properties": {"id": section_id,
                                "only": {"enum": list(CONTENT_LANGUAGES), "expected": "'it' or 'en'"},
                                "also": {"type": "array", "items": section_id,
                                         "expected": "a list of section ids"}}}}
    source = {"type": "object", "required": ["id", "file", "rules", "lang", "label"], "additionalProperties": False,
              "properties": {"id": _text("the source's id, e.g. it-1e"),
                             "file": _text("a path under data/, e.g. sources/cytosis-it.txt"),
                             "rules": _text("the game folder's Markdown file of its texts, e.g. it-1e.md"),
                             "lang": {"enum": [lang.value for lang in Lang],
                                      "expected": "a language code: it, en or ru"},
                             "label": _label_schema()}}
    chapter = {"type": "object", "required": ["id", "title", "sections"], "additionalProperties": False,
               "properties": {"id": slug, "title": _label_schema(),
                              "sections": {"type": "array", "minItems": 1, "items": declared_section,
                                           "expected": "a non-empty list of section ids"}}}
    return {"type": "object", "required": ["id", "title", "sources", "chapters"], "additionalProperties": False,
            "expected": "a mapping with id, title, compare_editions, sources, chapters",
            "properties": {"id": slug, "title": _label_schema(), "compare_editions": {"type": "boolean"},
                           "link_hosts": {"type": "array", "items": {"type": "string",
                                                                     "pattern": r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$"},
                                          "expected": "a list of host names its texts may link to, "
                                                      "e.g. [www.example.org]"},
                           "sources": {"type": "array", "minItems": 1, "items": source,
                                       "expected": "a non-empty list of sources"},
                           "chapters": {"type": "array", "minItems": 1, "items": chapter,
                                        "expected": "a non-empty list of chapters"}}}


MANIFEST_SCHEMA = manifest_schema()


def _as_label(value: dict[str, str]) -> Label:
    return Label.of(value)


@dataclass(frozen=True)
class _Manifest:
    """A game's ``game.yaml`` as read, with what its checks need to report a problem at its line."""
    file: Path
    data: dict[str, Any]
    located: Located
    faults: Faults
    problems: Problems

    def add(self, where: tuple[Any, ...] | str, message: str, line: int | None) -> None:
        self.problems.add(self.file, yaml_path(*where) if isinstance(where, tuple) else where, message, line)


@dataclass(frozen=True)
class _Declared:
    """The section list the chapters declare: each section's chapter, one-sidedness and line; the
    sections' ``also:`` links; the chapters."""
    sections: dict[str, tuple[str, str | None, int | None]]
    also_of: dict[str, tuple[tuple[str, ...], int | None]]
    chapters: tuple[Chapter, ...]


def load_game(game_dir: Path, data_dir: Path, problems: Problems) -> Game | None:
    """Load and validate one game; problems are collected, not raised: the manifest's shape
    against :data:`MANIFEST_SCHEMA`, then what the shape cannot say (its sources, its chapters'
    section list, the texts of every section, the editorial notes)."""
    file = game_dir / "game.yaml"
    before = len(problems.items)
    data, located = load_yaml(file)
    faults = check(data, located, file, MANIFEST_SCHEMA, problems)
    if not faults.usable():
        return None
    manifest = _Manifest(file, data, located, faults, problems)
    game_id = data.get("id")
    if faults.clean("id") and game_id != game_dir.name:
        manifest.add(("id",), f"expected the folder name {game_dir.name!r}, got {game_id!r}", located.line("id"))
    title = _as_label(data["title"]) if faults.clean("title") else None
    compare = bool(data.get("compare_editions", False))
    sources = _game_sources(manifest, game_dir, data_dir)
    declared = _declared_sections(manifest)
    texts = _section_texts(manifest, game_dir, sources, declared)
    sections = {section_id: _checked_section(manifest, section_id, texts.get(section_id, {}), declared, compare)
                for section_id in declared.sections}
    notes = load_notes(game_dir / "notes.yaml", set(declared.sections), problems)
    if len(problems.items) > before or not title:
        return None
    assert isinstance(game_id, str), "a game id that is not a slug was reported above, so no game is returned"
    hosts = data.get("link_hosts") if faults.usable("link_hosts") else None
    return Game(game_id, title, compare, tuple(sources), declared.chapters, sections, notes, tuple(hosts or ()))


def _game_sources(manifest: _Manifest, game_dir: Path, data_dir: Path) -> list[Source]:
    """The manifest's sources: each one's Markdown holds the official or original texts."""
    sources: list[Source] = []
    for index, raw in enumerate(manifest.data["sources"] if manifest.faults.usable("sources") else []):
        where = ("sources", index)
        if not manifest.faults.clean(*where):
            continue
        file = data_dir / raw["file"]
        if not file.is_file():
            manifest.add((*where, "file"), f"source file {raw['file']!r} not found under data/",
                         manifest.located.line(*where, "file"))
        if any(s.id == raw["id"] for s in sources):
            manifest.add((*where, "id"), f"duplicate source id {raw['id']!r}", manifest.located.line(*where, "id"))
        sources.append(Source(raw["id"], file, game_dir / raw["rules"], raw["lang"], _as_label(raw["label"])))
    return sources


def _declared_sections(manifest: _Manifest) -> _Declared:
    """The chapters and the section list they declare, each section once."""
    faults, located = manifest.faults, manifest.located
    declared: dict[str, tuple[str, str | None, int | None]] = {}
    also_of: dict[str, tuple[tuple[str, ...], int | None]] = {}
    chapters: list[Chapter] = []
    for index, raw in enumerate(manifest.data["chapters"] if faults.usable("chapters") else []):
        where = ("chapters", index)
        if not faults.usable(*where) or not faults.clean(*where, "id"):
            continue
        ids = []
        for s_index, item in enumerate(raw["sections"] if faults.usable(*where, "sections") else []):
            line = located.line(*where, "sections", s_index)
            if not faults.clean(*where, "sections", s_index):
                continue
            only = None
            if isinstance(item, dict):
                only = item["only"]
                if item.get("also"):
                    also_of[item["id"]] = (tuple(item["also"]), line)
                item = item["id"]
            if item in declared:
                manifest.add((*where, "sections", s_index),
                             f"duplicate section id {item!r} (first listed at line {declared[item][2]})", line)
                continue
            declared[item] = (raw["id"], only, line)
            ids.append(item)
        if any(c.id == raw["id"] for c in chapters):
            manifest.add((*where, "id"), f"duplicate chapter id {raw['id']!r}", located.line(*where))
        if faults.clean(*where, "title"):
            chapters.append(Chapter(raw["id"], _as_label(raw["title"]), tuple(ids)))
    return _Declared(declared, also_of, tuple(chapters))


def _section_texts(manifest: _Manifest, game_dir: Path, sources: list[Source],
                   declared: _Declared) -> dict[str, dict[str, SectionText]]:
    """Every section's texts by language: the originals from each source's file, the project's
    translations from ``translations.<lang>.md``; each a section the manifest lists, once per
    language."""
    problems = manifest.problems
    texts: dict[str, dict[str, SectionText]] = {}

    def put(raw: _RawSection, file: Path, text: SectionText) -> None:
        if raw.id not in declared.sections:
            problems.add(file, raw.id, f"section {raw.id!r} is not listed in any chapter of {manifest.file.name}", raw.line)
            return
        by_lang = texts.setdefault(raw.id, {})
        if text.lang in by_lang:
            other = by_lang[text.lang]
            problems.add(file, raw.id, f"duplicate section id {raw.id!r} in language {text.lang!r} "
                         f"(also at {other.file.name}:{other.line})", raw.line)
            return
        by_lang[text.lang] = text

    source_ids = {s.id for s in sources}
    for source in sources:
        for raw in parse_sections(source.rules, problems):
            if "from" in raw.attrs:
                problems.add(source.rules, raw.id, "'from:' belongs in translation files; an original "
                             "text gives 'lines:'", raw.line)
            ranges = parse_line_ranges(raw.attrs.get("lines", ""))
            if ranges is None:
                problems.add(source.rules, raw.id, f"expected 'lines: a-b, c' (1-based source line ranges), "
                             f"got {raw.attrs.get('lines')!r}", raw.line)
                ranges = ()
            put(raw, source.rules, SectionText(source.lang, raw.title, raw.body, source.id, False,
                                               ranges, source.rules, raw.line, "heading" in raw.attrs))
    for file in sorted(game_dir.glob("translations.*.md")):
        match = TRANSLATION_FILE.match(file.name)
        if not match or match.group("lang") not in SITE_LANGUAGES:
            problems.add(file, "", f"expected translations.it.md or translations.en.md, got {file.name!r}")
            continue
        for raw in parse_sections(file, problems):
            origin = raw.attrs.get("from")
            if origin not in source_ids:
                problems.add(file, raw.id, f"expected 'from:' naming a source of {manifest.file.name} "
                             f"{sorted(source_ids)}, got {origin!r}", raw.line)
                continue
            if "lines" in raw.attrs:
                problems.add(file, raw.id, "'lines:' belongs to original texts; a translation gives 'from:'", raw.line)
            put(raw, file, SectionText(match.group("lang"), raw.title, raw.body, origin, True, (), file, raw.line))
    return texts


def _checked_section(manifest: _Manifest, section_id: str, by_lang: dict[str, SectionText], declared: _Declared,
                     compare: bool) -> Section:
    """One declared section, checked: a text in each content language, its one-sidedness declared
    as found (games whose editions are compared), its ``also:`` links to listed sections."""
    chapter_id, only, line = declared.sections[section_id]
    for lang in CONTENT_LANGUAGES:
        if lang not in by_lang:
            manifest.add(section_id, f"no {lang!r} text: expected the section in an official "
                         f"{lang} source or in translations.{lang}.md", line)
    if compare and by_lang:
        official = sorted(l for l, t in by_lang.items() if not t.translated and l in CONTENT_LANGUAGES)
        if len(official) == 1 and only != official[0]:
            manifest.add(section_id, f"found in the official {official[0]!r} text only: "
                         f"declare it as {{id: {section_id}, only: {official[0]}}}", line)
        elif len(official) == 2 and only:
            translated = [t.file.name for t in by_lang.values() if t.translated]
            manifest.add(section_id, f"declared only: {only} but found in both official texts"
                         + (f" (and translated in {translated})" if translated else ""), line)
        elif only and only not in official:
            manifest.add(section_id, f"declared only: {only} but not found in the official {only!r} text", line)
    if not compare and only:
        manifest.add(section_id, "'only:' is for games with official texts in both languages "
                     "(compare_editions: true)", line)
    also, also_line = declared.also_of.get(section_id, ((), None))
    for other in also:
        if other not in declared.sections:
            manifest.add(section_id, f"also: {other!r} is not a section listed in {manifest.file.name}", also_line)
    if also and not only:
        manifest.add(section_id, "'also:' is for one-sided sections (with 'only:')", also_line)
    return Section(section_id, chapter_id, only, FallbackTexts(by_lang), also)


def load_notes(file: Path, section_ids: set[str], problems: Problems) -> dict[str, tuple[EditorialNote, ...]]:
    """A game's editorial notes (optional file): ``notes: [{section, kind, text: {it, en}}]``."""
    if not file.is_file():
        return {}
    data, located = load_yaml(file)
    if not isinstance(data, dict) or set(data) != {"notes"} or not isinstance(data["notes"], list):
        problems.add(file, "", f"expected a mapping with one key 'notes' holding a list, got {data!r}"[:200])
        return {}
    kinds = [k.value for k in NoteKind]
    notes: dict[str, list[EditorialNote]] = {}
    for index, raw in enumerate(data["notes"]):
        where = ("notes", index)
        if not isinstance(raw, dict):
            problems.add(file, yaml_path(*where), f"expected a mapping with section, kind, text; got {raw!r}"[:200],
                         located.line(*where))
            continue
        unknown = sorted(set(raw) - {"section", "kind", "text"})
        if unknown:
            problems.add(file, yaml_path(*where), f"unknown keys {unknown}: expected section, kind, text",
                         located.line(*where))
        section = raw.get("section")
        if section not in section_ids:
            problems.add(file, yaml_path(*where, "section"), f"expected a section id listed in game.yaml, "
                         f"got {section!r}", located.line(*where, "section"))
        kind = raw.get("kind")
        if kind not in kinds:
            problems.add(file, yaml_path(*where, "kind"), f"expected one of {kinds}, got {kind!r}",
                         located.line(*where, "kind"))
        text = _label(raw.get("text"), file, located, (*where, "text"), problems)
        if section in section_ids and kind in kinds and text:
            notes.setdefault(section, []).append(EditorialNote(section, NoteKind(kind), text))
    return {k: tuple(v) for k, v in notes.items()}


def load_games(data_dir: Path, problems: Problems) -> dict[str, Game]:
    """Every game under ``data/rules/``, in a fixed order (Cytosis first)."""
    order = {"cytosis": 0, "ursuppe": 1, "immune-response": 2}
    games = {}
    for game_dir in sorted((data_dir / "rules").iterdir(), key=lambda p: (order.get(p.name, 9), p.name)):
        if game_dir.is_dir() and (game_dir / "game.yaml").is_file():
            game = load_game(game_dir, data_dir, problems)
            if game:
                games[game.id] = game
    return games


def rule_numbers(game: Game) -> dict[str, str]:
    """Each rule section's short number, ``chapter.section`` in the order of the game's manifest
    (``3.2``): the same in both languages. tests/golden/rule_numbers.json pins them, so a
    renumbering is a deliberate change."""
    return {section: f"{c}.{s}" for c, chapter in enumerate(game.chapters, 1)
            for s, section in enumerate(chapter.sections, 1)}
