"""Curated edition notes and the reviewed-findings allowlist (``data/editions/``), and the loader that
runs the checks and applies both.

``data/editions/<game>.yaml``        notes: one per real difference, in both languages
``data/editions/<game>.allow.yaml``  reviewed: automatic findings by fingerprint, with their status
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import schema
from ..languages import FallbackTexts
from ..errors import Problems
from ..schema import Schema
from ..rules import Game
from ..yamlio import load_yaml, yaml_path
from .align import plain
from .model import REVIEWED, CheckId, Finding, SectionPair, Status, normalise
from .checks import run_checks
from ..site_data import FeatureKey

if TYPE_CHECKING:
    from solver.io.loading import DataPath

    from ..glossary import Term
    from ..rules import Section
    from ..site_data import SiteData

EDITIONS_DIR = "editions"


class NoteKind(str, Enum):
    """What a curated difference is."""

    EDITION_CHANGE = "edition-change"
    TRANSLATION_ERROR = "translation-error"
    TERMINOLOGY = "terminology"
    TYPO = "typo"
    ONE_SIDED = "one-sided"


NOTE_STATUS = {NoteKind.EDITION_CHANGE: Status.EDITION_CHANGE, NoteKind.TRANSLATION_ERROR: Status.TRANSLATION_ERROR,
               NoteKind.TERMINOLOGY: Status.TERMINOLOGY, NoteKind.TYPO: Status.TYPO,
               NoteKind.ONE_SIDED: Status.EDITION_CHANGE}
"""The review status an EDITION_NOTE finding carries (a one-sided rule is a difference of edition content)."""


@dataclass(frozen=True)
class Note:
    """A curated note on one real difference between the editions."""

    id: str
    """Stable id (a-z0-9-), the anchor on the differences page."""
    sections: tuple[str, ...]
    """Sections it is about; the first is where it is shown."""
    kind: NoteKind
    """What the difference is."""
    title: dict[str, str]
    """Short title per site language."""
    text: dict[str, str]
    """What each edition says, per site language."""
    follow: dict[str, str]
    """Which rule to follow when playing each edition, per site language."""
    line: int | None
    """Line in the notes file (None when the loader knows none)."""
    it_wording: tuple[str, ...] = ()
    """Phrases of the Italian (1st-edition) official text that state the rule as the 1st edition has it,
    where this note says the 2nd edition changed it: a paragraph holding one is not the 2nd edition's
    rule, so the Italian 2nd-edition draft cannot show it as unchanged official text
    (``tests/test_draft_page.py``). Each must occur in the game's Italian official text."""


@dataclass(frozen=True)
class Reviewed:
    """An allowlist entry: an automatic finding a person has classified."""

    fingerprint: str
    """Fingerprint of the finding (check + place + normalised texts)."""
    check: str
    """Check id, kept for readability and to catch a mismatched entry."""
    section: str
    """Section id, for readability."""
    status: Status
    """The classification."""
    note: str | None
    """Id of the curated note that explains it."""
    why: str
    """Free comment by the reviewer (English)."""
    why_it: str
    """The same comment in Italian, for the Italian page ('' when not given)."""
    line: int | None
    """Line in the allowlist file (None when the loader knows none)."""


@dataclass
class GameReport:
    """A game's findings with the allowlist applied."""

    game: str
    """Game id."""
    findings: list[Finding]
    """Automatic findings then EDITION_NOTE findings, with statuses."""
    notes: list[Note]
    """Curated notes."""
    stale: list[Reviewed] = field(default_factory=list)
    """Allowlist entries that match no finding any more."""
    allow_file: Path | None = None
    """The allowlist file (for messages)."""
    reasons: dict[str, str] = field(default_factory=dict)
    """The reviewer's reason for each reviewed finding, by fingerprint (English)."""
    reasons_it: dict[str, str] = field(default_factory=dict)
    """The same reasons in Italian, where the allowlist gives them."""


EDITION_REPORTS: FeatureKey[dict[str, GameReport]] = FeatureKey("editions", dict)
"""The edition check's report of every game whose Italian and English official texts are compared,
by game id (the ``check`` feature's data)."""


def official_pairs(game: Game) -> list[SectionPair]:
    """Each section's official Italian and English texts (None where a side is a project translation)."""
    def official(section: Section, lang: str) -> str | None:
        text = section.texts.get(lang)
        return None if text is None or text.translated else f"## {text.title}\n{text.body}"
    return [SectionPair(game.id, s, official(game.sections[s], "it"), official(game.sections[s], "en"), c.id)
            for c in game.chapters for s in c.sections]


def _both(what: str) -> Schema:
    return schema.in_languages(("it", "en"), f"{what} in both languages {{it: ..., en: ...}}")


NOTES_SCHEMA: Schema = {
    "type": "object", "required": ["notes"],
    "properties": {"notes": {"type": "array", "expected": "a list of notes under 'notes:'", "items": {
        "type": "object", "required": ["id", "sections", "kind", "title", "text", "follow"],
        "additionalProperties": False, "expected": "a mapping",
        "properties": {
            "id": {"type": "string", "pattern": r"\S", "expected": "a note id"},
            "sections": {"type": ["string", "array"], "minItems": 1, "items": {"type": "string"},
                         "expected": "sections: [chapter.slug, ...]"},
            "kind": {"enum": [k.value for k in NoteKind]},
            "title": _both("a title"), "text": _both("what each edition says"),
            "follow": _both("which rule to follow"),
            "it_wording": {"type": "array", "items": {"type": "string", "pattern": r"\S", "expected": "a phrase"},
                           "expected": "a list of phrases of the Italian official text"}}}}},
}
"""The shape of an edition-notes file; :func:`load_notes` checks the game, ids once and sections known."""


def _note_name(data: Any) -> Callable[[DataPath], str]:
    """How a message names the note a path lies in (``note 'rounds'``, ``note #3``)."""
    def name(path: DataPath) -> str:
        if len(path) < 2 or path[0] != "notes" or not isinstance(path[1], int):
            return ""
        raw = data["notes"][path[1]]
        note_id = raw.get("id") if isinstance(raw, dict) else None
        return f"note {note_id!r}" if isinstance(note_id, str) else f"note #{path[1] + 1}"
    return name


def load_notes(file: Path, game: Game, problems: Problems) -> list[Note]:
    """Curated notes of one game; every note names known sections and says everything in both languages."""
    data, located = load_yaml(file)
    name = _note_name(data)
    faults = schema.check(data, located, file, NOTES_SCHEMA, problems, name)
    if not faults.usable("notes"):
        return []
    if data.get("game") != game.id:
        problems.add(file, "game", f"expected the game id {game.id!r}, got {data.get('game')!r}", located.line("game"))
    notes, seen = [], set()
    for index, raw in enumerate(data["notes"]):
        where = ("notes", index)
        line = located.line(*where)
        if not faults.usable(*where, "id"):
            continue
        note_id = raw["id"]
        if note_id in seen:
            problems.add(file, yaml_path(*where, "id"), f"{name(where)}: duplicate note id {note_id!r}", line)
        seen.add(note_id)
        if not faults.usable(*where, "sections"):
            continue
        sections = [raw["sections"]] if isinstance(raw["sections"], str) else raw["sections"]
        unknown = [(i, s) for i, s in enumerate(sections) if s not in game.sections]
        for s_index, section in unknown:
            problems.add(file, yaml_path(*where, "sections", s_index), f"{name(where)}: unknown section {section!r}: "
                         f"expected a section id of {game.id} (listed in rules/{game.id}/game.yaml)",
                         located.line(*where, "sections", s_index))
        if faults.clean(*where) and not unknown:
            title, text, follow = (FallbackTexts({lang: raw[key][lang].strip() for lang in ("it", "en")})
                                   for key in ("title", "text", "follow"))  # another site language reads the fallback chain
            wording = tuple(phrase.strip() for phrase in raw.get("it_wording") or ())
            italian = _italian_official_text(game)
            for w_index, phrase in enumerate(wording):
                if _plain_words(phrase) not in italian:
                    problems.add(file, yaml_path(*where, "it_wording", w_index), f"{name(where)}: {phrase!r} is not "
                                 f"in the Italian official text of {game.id}: expected a phrase quoted from it "
                                 "(markup and case aside)", located.line(*where, "it_wording", w_index) or line)
            notes.append(Note(note_id, tuple(sections), NoteKind(raw["kind"]), title, text, follow, line, wording))
    return notes


def _plain_words(text: str) -> str:
    """Text compared as words: markup, case and line breaks aside."""
    return normalise(plain(text.replace("\n", " ")))


def _italian_official_text(game: Game) -> str:
    """Every Italian official section text of ``game``, as :func:`_plain_words`, one section a line."""
    return "\n".join(_plain_words(f"{t.title}\n{t.body}") for s in game.sections.values()
                     if (t := s.texts.get("it")) is not None and not t.translated)


def load_broader(file: Path, term_ids: set[str], problems: Problems) -> dict[str, list[str]]:
    """The curated ``broader:`` relation of a notes file: term id -> the narrower term ids it renders
    where an edition generalises ('macromolecules' for 'Proteine e Carboidrati'); every id in the glossary."""
    data, located = load_yaml(file)
    raw = data.get("broader") if isinstance(data, dict) else None
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(v, list) for v in raw.values()):
        problems.add(file, "broader", f"expected 'broader: {{term: [narrower term, ...]}}', got {raw!r}"[:300],
                     located.line("broader"))
        return {}
    out = {}
    for wide, narrows in raw.items():
        unknown = [t for t in [wide, *narrows] if t not in term_ids]
        if unknown:
            problems.add(file, f"broader.{wide}", f"unknown glossary term ids {unknown}", located.line("broader", wide))
            continue
        out[wide] = list(narrows)
    return out


def load_implied(file: Path, game: Game, term_ids: set[str], problems: Problems) -> dict[str, set[str]]:
    """The curated ``implied:`` entries of a notes file: chapter -> glossary terms its sections imply
    where one edition leaves them out; each entry says why."""
    data, located = load_yaml(file)
    raw = data.get("implied") if isinstance(data, dict) else None
    if raw is None:
        return {}
    out: dict[str, set[str]] = {}
    chapters = {c.id for c in game.chapters}
    for index, entry in enumerate(raw if isinstance(raw, list) else [None]):
        where = f"implied[{index}]"
        line = located.line("implied", index) if isinstance(raw, list) else located.line("implied")
        if not isinstance(entry, dict) or set(entry) != {"terms", "chapters", "why"} or \
                not isinstance(entry["why"], str) or not entry["why"].strip():
            problems.add(file, where, "expected {terms: [term, ...], chapters: [chapter, ...], why: reason}", line)
            continue
        unknown = [t for t in entry["terms"] if t not in term_ids] + [c for c in entry["chapters"] if c not in chapters]
        if unknown:
            problems.add(file, where, f"unknown term or chapter ids {unknown}", line)
            continue
        for chapter in entry["chapters"]:
            out.setdefault(chapter, set()).update(entry["terms"])
    return out


def load_allowlist(file: Path, game: Game, note_ids: set[str], problems: Problems) -> list[Reviewed]:
    """Reviewed findings of one game."""
    data, located = load_yaml(file)
    raw_entries = data.get("reviewed") if isinstance(data, dict) else None
    if not isinstance(raw_entries, list):
        problems.add(file, "reviewed", "expected a list of reviewed findings under 'reviewed:'", located.line("reviewed"))
        return []
    entries: list[Reviewed] = []
    seen: dict[str, int | None] = {}
    checks = {c.value for c in CheckId}
    for index, raw in enumerate(raw_entries):
        where = ("reviewed", index)
        line = located.line(*where)
        if not isinstance(raw, dict):
            problems.add(file, yaml_path(*where), f"expected a mapping, got {raw!r}", line)
            continue
        fp = str(raw.get("fingerprint", ""))
        label = f"{yaml_path(*where)} ({fp})"
        unknown = set(raw) - {"fingerprint", "check", "section", "status", "note", "why", "why_it"}
        if unknown:
            problems.add(file, label, f"unknown keys {sorted(unknown)}: expected fingerprint, check, section, status, note, why, why_it", line)
        if len(fp) != 12 or any(c not in "0123456789abcdef" for c in fp):
            problems.add(file, label, f"expected a 12-hex-digit fingerprint (from 'check --format json'), got {fp!r}", line)
            continue
        if fp in seen:
            problems.add(file, label, f"duplicate fingerprint (first at line {seen[fp]})", line)
            continue
        seen[fp] = line
        if raw.get("check") not in checks:
            problems.add(file, f"{label}.check", f"expected one of {sorted(checks)}, got {raw.get('check')!r}", line)
        if raw.get("section") not in game.sections:
            problems.add(file, f"{label}.section", f"unknown section {raw.get('section')!r}: expected a section id of {game.id}", line)
        try:
            status = Status(raw.get("status"))
            if status is Status.OPEN:
                raise ValueError
        except ValueError:
            problems.add(file, f"{label}.status", f"expected one of {[s.value for s in REVIEWED]}, got {raw.get('status')!r}",
                         located.line(*where, "status"))
            continue
        note = raw.get("note")
        if note is not None and note not in note_ids:
            problems.add(file, f"{label}.note", f"unknown note {note!r}: expected a note id of editions/{game.id}.yaml", line)
        entries.append(Reviewed(fp, str(raw.get("check")), str(raw.get("section")), status, note, str(raw.get("why") or ""),
                                str(raw.get("why_it") or ""), line))
    return entries


def note_findings(game: Game, notes: list[Note], lang: str = "en") -> list[Finding]:
    """Curated notes as EDITION_NOTE findings (reviewed by construction)."""
    out = []
    for note in notes:
        section = game.sections[note.sections[0]]
        texts = {l: (section.texts[l].body if l in section.texts and not section.texts[l].translated else "")
                 for l in ("it", "en")}
        out.append(Finding(CheckId.EDITION_NOTE, game.id, note.sections[0], texts["it"][:400], texts["en"][:400],
                           {"note": note.id, "kind": note.kind.value, "sections": list(note.sections)},
                           note.title[lang], key=note.id, status=NOTE_STATUS[note.kind], note=note.id))
    return out


def apply_allowlist(findings: list[Finding], entries: list[Reviewed]) -> tuple[list[Finding], list[Reviewed]]:
    """Findings with their reviewed statuses; the entries that matched nothing (stale)."""
    by_fp = {e.fingerprint: e for e in entries}
    used = set()
    out = []
    for finding in findings:
        entry = by_fp.get(finding.fingerprint)
        if entry and entry.check == finding.check.value:
            used.add(entry.fingerprint)
            finding = replace(finding, status=entry.status, note=entry.note)
        out.append(finding)
    return out, [e for e in entries if e.fingerprint not in used]


WORDS_FILE = "words.yaml"


def load_words(file: Path, problems: Problems) -> dict[str, set[str]]:
    """The reviewed extra words of the spelling check (``data/editions/words.yaml``): language -> words."""
    data, located = load_yaml(file)
    out: dict[str, set[str]] = {}
    if not isinstance(data, dict):
        problems.add(file, "", f"expected {{it: [word, ...], en: [...], ru: [...]}}, got {data!r}"[:200], 1)
        return out
    for lang, words in data.items():
        if lang not in ("it", "en", "ru") or not isinstance(words, list) or \
                not all(isinstance(w, str) and w.strip() and " " not in w.strip() for w in words):
            problems.add(file, str(lang), f"expected a language (it, en, ru) with a list of single words, "
                         f"got {lang!r}: {words!r}"[:200], located.line(lang))
            continue
        out[lang] = {w.strip() for w in words}
    return out


def spelling_words(site: SiteData, data_dir: Path, problems: Problems) -> dict[str, set[str]]:
    """The project's word list: glossary forms, game names, reviewed extra words."""
    from .qa import project_words
    file = data_dir / EDITIONS_DIR / WORDS_FILE
    extra = load_words(file, problems) if file.exists() else {}
    names = [g.title[lang] for g in site.games.values() for lang in ("it", "en")]
    return project_words(site.glossary, names, extra)


def game_report(game: Game, glossary: list[Term], data_dir: Path, problems: Problems,
                words: dict[str, set[str]] | None = None) -> GameReport:
    """Run the checks on one game and apply its notes and allowlist."""
    folder = data_dir / EDITIONS_DIR
    notes_file, allow_file = folder / f"{game.id}.yaml", folder / f"{game.id}.allow.yaml"
    notes = load_notes(notes_file, game, problems) if notes_file.exists() else []
    entries = load_allowlist(allow_file, game, {n.id for n in notes}, problems) if allow_file.exists() else []
    broader = load_broader(notes_file, {t.id for t in glossary}, problems) if notes_file.exists() else {}
    implied = load_implied(notes_file, game, {t.id for t in glossary}, problems) if notes_file.exists() else {}
    findings = run_checks(official_pairs(game), glossary, game.id, broader, implied, words)
    findings, stale = apply_allowlist(findings, entries)
    return GameReport(game.id, findings + note_findings(game, notes), notes, stale,
                      allow_file if allow_file.exists() else None, {e.fingerprint: e.why for e in entries},
                      {e.fingerprint: e.why_it for e in entries if e.why_it})


def compared_games(site: SiteData) -> list[Game]:
    """Games with official texts in both site languages."""
    out = []
    for game in site.games.values():
        langs = {t.lang for s in game.sections.values() for t in s.texts.values() if not t.translated}
        if game.compare_editions and {"it", "en"} <= langs:
            out.append(game)
    return out


def load_editions(site: SiteData, problems: Problems) -> dict[str, GameReport]:
    """Feature loader: every compared game's report, by game id."""
    words = spelling_words(site, site.data_dir, problems)
    return {game.id: game_report(game, site.glossary, site.data_dir, problems, words) for game in compared_games(site)}


def stale_problems(report: GameReport) -> Problems:
    """Allowlist entries that no longer match a finding, as problems naming file, line and entry."""
    problems = Problems()
    if not report.stale:
        return problems
    assert report.allow_file is not None, "stale entries come from the allowlist file, so it exists"
    for entry in report.stale:
        problems.add(report.allow_file, f"reviewed ({entry.fingerprint}, {entry.check}, {entry.section})",
                     "stale: no current finding has this fingerprint (the texts changed or the finding is gone); "
                     "expected it removed or re-reviewed", entry.line)
    return problems
