"""Segments and the anchor-scored aligner.

A section text is cut into segments (heading, paragraphs, list items, table rows, captions). The two
sides are aligned by dynamic programming over 1-1, 1-0, 0-1, 2-1, 1-2, 3-1 and 1-3 moves, and a
list move (a paragraph with the list items that follow it, or a whole list, against one segment: a
sentence rewritten as a list in the other edition); a pair scores by its
anchors (shared numbers, glossary terms, similar words) and its length ratio, and only pairs scoring
above a threshold are made, so a paragraph present on one side only is left unpaired instead of
shifting every pair after it (the failure of length-only aligners such as Gale-Church).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from .numbers import extract_numbers
from .terms import TermMatcher, fold, tokens


class SegmentKind(str, Enum):
    """What a segment is in its section."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    ITEM = "item"
    ROW = "row"
    CAPTION = "caption"


@dataclass(frozen=True)
class Segment:
    """One alignable unit of a section text, with its anchors precomputed."""

    index: int
    """Position in the section."""
    kind: SegmentKind
    """Heading, paragraph, list item, table row or caption."""
    text: str
    """The Markdown text of the segment."""
    numbers: tuple[str, ...]
    """Numbers found in it (normalised)."""
    terms: frozenset[str]
    """Ids of the glossary terms found in it."""
    words: frozenset[str]
    """Folded 4-letter prefixes of its longer words (cognates and names match across languages)."""
    length: int
    """Number of characters without markup."""


_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_ROW_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_CAPTION = re.compile(r"^\s*\*[^*].*\*\s*$")


def split_blocks(body: str) -> list[tuple[SegmentKind, str]]:
    """Cut Markdown into segments: each list item, table row, caption and heading alone."""
    out: list[tuple[SegmentKind, str]] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append((SegmentKind.PARAGRAPH, " ".join(p.strip() for p in paragraph)))
            paragraph.clear()

    for line in body.splitlines():
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        if stripped.startswith("#"):
            flush()
            out.append((SegmentKind.HEADING, stripped.lstrip("#").strip()))
        elif stripped.startswith("|"):
            flush()
            if not _ROW_RULE.match(stripped):
                out.append((SegmentKind.ROW, stripped))
        elif _LIST.match(line):
            flush()
            out.append((SegmentKind.ITEM, stripped))
        elif _CAPTION.match(stripped) and not stripped.startswith("**"):
            flush()
            out.append((SegmentKind.CAPTION, stripped))
        elif line.startswith(("   ", "\t")) and out and out[-1][0] is SegmentKind.ITEM and not paragraph:
            out.append((SegmentKind.PARAGRAPH, stripped))  # a list item's continuation paragraph
        else:
            paragraph.append(stripped)
    flush()
    return out


def plain(text: str) -> str:
    """Text without Markdown markup characters."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`#|>\\]", " ", text)).strip()


def make_segments(title: str, body: str, lang: str, matcher: TermMatcher | None) -> list[Segment]:
    """The segments of one section text: its heading first, then its blocks."""
    blocks = [(SegmentKind.HEADING, title)] + split_blocks(body)
    segments = []
    for index, (kind, text) in enumerate(blocks):
        clean = plain(text)
        words = frozenset(fold(w)[:4] for _, _, w in tokens(clean) if len(w) >= 4 and not w.isdigit())
        terms = frozenset(t for h in matcher.find(clean) for t in h.terms) if matcher else frozenset()
        segments.append(Segment(index, kind, text, tuple(extract_numbers(clean, lang)), terms, words, len(clean)))
    return segments


# --- scoring -------------------------------------------------------------------------------------

LENGTH_RATIO = 1.1
"""Expected Italian/English length ratio (Italian runs longer)."""
THRESHOLD = 0.18
"""A pair is made only when its score beats this; below it both segments stay one-sided."""
MERGE_PENALTY = 0.04
"""Cost of a 2-1 or 1-2 pair, so a 1-1 pair is preferred when it scores as well."""


def _dice(a, b) -> float | None:
    """Dice overlap of two collections (multisets for sequences), None when both are empty."""
    ca, cb = Counter(a), Counter(b)
    total = sum(ca.values()) + sum(cb.values())
    if not total:
        return None
    return 2 * sum((ca & cb).values()) / total


def pair_score(it: list[Segment], en: list[Segment]) -> float:
    """How likely the IT segments and the EN segments say the same thing (0-1)."""
    numbers = _dice([n for s in it for n in s.numbers], [n for s in en for n in s.numbers])
    terms = _dice([t for s in it for t in s.terms], [t for s in en for t in s.terms])
    words = _dice(set().union(*(s.words for s in it)), set().union(*(s.words for s in en)))
    length_it = sum(s.length for s in it) + 1
    length_en = sum(s.length for s in en) + 1
    length = math.exp(-abs(math.log(length_it / (LENGTH_RATIO * length_en))))
    parts = [(numbers, 0.3), (terms, 0.3), (words, 0.25), (length, 0.15)]
    weight = sum(w for value, w in parts if value is not None)
    score = sum(value * w for value, w in parts if value is not None) / weight
    kinds_it, kinds_en = {s.kind for s in it}, {s.kind for s in en}
    if (SegmentKind.HEADING in kinds_it) != (SegmentKind.HEADING in kinds_en):
        score *= 0.6  # a heading pairs with a heading far more often than with a paragraph
    if (SegmentKind.CAPTION in kinds_it) != (SegmentKind.CAPTION in kinds_en):
        score *= 0.6  # a picture caption survives in one extraction only more often than it pairs with text
    return score


@dataclass(frozen=True)
class Pair:
    """One aligned unit: Italian segments with English segments (either side empty when one-sided)."""

    it: tuple[Segment, ...]
    """Italian segments (empty: English-only)."""
    en: tuple[Segment, ...]
    """English segments (empty: Italian-only)."""
    score: float
    """The pair's anchor score (0 for one-sided units)."""

    def text(self, lang: str) -> str:
        return "\n".join(s.text for s in getattr(self, lang))


MOVES = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2), (3, 1), (1, 3))
MAX_LIST = 12
"""Longest run of list items a list move takes."""


def _list_runs(segments: list[Segment], start: int) -> list[int]:
    """Sizes (beyond 3) of the list moves starting at ``start``: the segment there followed by 3 or
    more consecutive list items, up to the end of the run."""
    sizes = []
    end = start + 1
    while end < len(segments) and segments[end].kind is SegmentKind.ITEM and end - start < MAX_LIST:
        end += 1
        if end - start > 3:
            sizes.append(end - start)
    return sizes


def _penalty(di: int, dj: int) -> float:
    """Merging cost: one MERGE_PENALTY per segment merged beyond a 1-1 pair; a list move (a paragraph
    with its list) costs one merge only, being the natural unit of a sentence rewritten as a list."""
    if di + dj > 4:
        return MERGE_PENALTY
    return MERGE_PENALTY * (di + dj - 2)


def align(it: list[Segment], en: list[Segment]) -> list[Pair]:
    """The best monotone alignment of two segment lists (maximising the sum of score - threshold)."""
    n, m = len(it), len(en)
    best = [[-math.inf] * (m + 1) for _ in range(n + 1)]
    back: dict[tuple[int, int], tuple[int, int, float]] = {}
    best[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if best[i][j] == -math.inf:
                continue
            moves = list(MOVES)
            if i < n and j < m:
                moves += [(k, 1) for k in _list_runs(it, i)] + [(1, k) for k in _list_runs(en, j)]
            for di, dj in moves:
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                if di and dj:
                    score = pair_score(it[i:ni], en[j:nj])
                    gain = score - THRESHOLD - _penalty(di, dj)
                    if gain <= 0:
                        continue
                else:
                    score, gain = 0.0, 0.0
                if best[i][j] + gain > best[ni][nj]:
                    best[ni][nj] = best[i][j] + gain
                    back[(ni, nj)] = (i, j, score)
    pairs: list[Pair] = []
    i, j = n, m
    while (i, j) != (0, 0):
        pi, pj, score = back[(i, j)]
        pairs.append(Pair(tuple(it[pi:i]), tuple(en[pj:j]), score))
        i, j = pi, pj
    pairs.reverse()
    return pairs
