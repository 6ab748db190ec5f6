"""Source coverage: every non-blank line of every source text ends up in exactly one section.

Line ranges say where a section's text comes from; a word count then shows that cleaning
dropped nothing: the words of a section's source lines must be found in its text.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .errors import Problems
from .rules import Game

MIN_WORD_COVERAGE = 0.85
"""Share of a section's source words that must appear in its cleaned text."""

WORD = re.compile(r"[^\W_]+", re.UNICODE)


TAG = re.compile(r"</?[A-Za-z][^>]*>")


def words(text: str) -> Counter[str]:
    """Lowercased words (letters and digits) as a multiset; extraction markup (``<b>``) is not a word."""
    return Counter(w.lower() for w in WORD.findall(TAG.sub(" ", text)))


@dataclass(frozen=True)
class SourceCoverage:
    """What the coverage check measured for one source."""

    game: str
    """Game id."""
    source: str
    """Source id."""
    lines: int
    """Non-blank lines in the source."""
    covered: int
    """Non-blank lines claimed by exactly one section."""
    sections: int
    """Sections cut from this source."""
    word_share: float
    """Share of the source's words found in the sections' texts."""


def check_coverage(game: Game, problems: Problems) -> list[SourceCoverage]:
    """Report lines claimed by no section or by several, and sections whose text lost words."""
    report = []
    for source in game.sources:
        source_lines = source.file.read_text(encoding="utf-8").splitlines()
        owners: dict[int, list[str]] = {}
        found = total = 0
        section_count = 0
        for section in game.sections.values():
            text = section.texts.get(source.lang)
            if text is None or text.translated or text.source != source.id:
                continue
            section_count += 1
            claimed: Counter[str] = Counter()
            for start, end in text.lines:
                if end > len(source_lines):
                    problems.add(text.file, section.id, f"lines {start}-{end}: the source "
                                 f"{source.file.name} has only {len(source_lines)} lines", text.line)
                for number in range(start, min(end, len(source_lines)) + 1):
                    owners.setdefault(number, []).append(section.id)
                    claimed += words(source_lines[number - 1])
            have = words(text.title + "\n" + text.body)
            hit = sum(min(n, have[w]) for w, n in claimed.items())
            want = sum(claimed.values())
            found, total = found + hit, total + want
            if want and hit / want < MIN_WORD_COVERAGE:
                missing = sorted((claimed - have).keys())[:12]
                problems.add(text.file, section.id, f"only {hit}/{want} words of its source lines are in the "
                             f"text (expected at least {MIN_WORD_COVERAGE:.0%}); missing e.g. {missing}", text.line)
        blank = {i for i, line in enumerate(source_lines, start=1) if not line.strip()}
        unclaimed = [i for i in range(1, len(source_lines) + 1) if i not in blank and i not in owners]
        for start, end in _runs(unclaimed):
            snippet = source_lines[start - 1].strip()[:60]
            problems.add(source.file, f"lines {start}-{end}" if end > start else f"line {start}",
                         f"dropped: not in any section of {source.rules.name} (starts {snippet!r})", start)
        for number, ids in sorted(owners.items()):
            if len(ids) > 1 and number not in blank:
                problems.add(source.file, f"line {number}", f"claimed by several sections {ids}: "
                             "expected exactly one", number)
        nonblank = len(source_lines) - len(blank)
        covered = sum(1 for n, ids in owners.items() if len(ids) == 1 and n not in blank)
        report.append(SourceCoverage(game.id, source.id, nonblank, covered, section_count,
                                     found / total if total else 1.0))
    return report


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs
