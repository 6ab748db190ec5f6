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
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .numbers import IGNORED, extract_numbers
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
    """Numbers found in it (normalised), without its enumeration marker."""
    terms: frozenset[str]
    """Ids of the glossary terms found in it."""
    words: frozenset[str]
    """Folded 4-letter prefixes of its longer words (cognates and names match across languages)."""
    length: int
    """Number of characters without markup."""
    marker: str = ""
    """Its enumeration marker ('3' for a step '3.', a heading '4. TAKING…'): where a step sits in its
    list, not what the rule says, so not one of its numbers (inline '(1)'…'(5)' are dropped too)."""


_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_ROW_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_CAPTION = re.compile(r"^\s*\*[^*].*\*\s*$")
_PROJECT_BOX = re.compile(r"^(?:!!!|\?\?\?\+?) cellula-")
"""The header line of a box the project draws around source text (``??? cellula-residue "…"``):
the project's words, not the source's (the box's indented lines are the source's and stay)."""


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
        if _PROJECT_BOX.match(line):
            flush()
        elif stripped.startswith("#"):
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


_MARKER = re.compile(r"^\s*(?:[-*+]\s+)?\(?(\d{1,2})[.)]\s+")
_INLINE_MARKER = re.compile(r"(?<![\w(])\((\d)\)(?!\w)")


def split_marker(text: str, kind: SegmentKind) -> tuple[str, str]:
    """(marker, text to take numbers from): the leading '3.' of a step or
    numbered heading, and inline '(1)'…'(5)' enumerators, which number items rather than count."""
    marker = ""
    if kind in (SegmentKind.ITEM, SegmentKind.HEADING, SegmentKind.PARAGRAPH):
        match = _MARKER.match(text)
        if match and (kind is not SegmentKind.PARAGRAPH or match.group(0).rstrip().endswith(".")):
            marker, text = match.group(1), text[match.end():]
    if len(_INLINE_MARKER.findall(text)) >= 2:  # an inline enumeration (1) … (2) …, not a lone count
        text = _INLINE_MARKER.sub(" ", text)
    return marker, text


def make_segments(title: str, body: str, lang: str, matcher: TermMatcher | None) -> list[Segment]:
    """The segments of one section text: its heading first, then its blocks."""
    blocks = [(SegmentKind.HEADING, title)] + split_blocks(body)
    segments = []
    for index, (kind, text) in enumerate(blocks):
        clean = plain(text)
        words = frozenset(fold(w)[:4] for _, _, w in tokens(clean) if len(w) >= 4 and not w.isdigit())
        terms = frozenset(t for h in matcher.find(clean) for t in h.terms) if matcher else frozenset()
        marker, counted = split_marker(clean, kind)
        segments.append(Segment(index, kind, text, tuple(extract_numbers(counted, lang)), terms, words, len(clean),
                                marker))
    return segments


# --- scoring -------------------------------------------------------------------------------------

LENGTH_RATIO = 1.1
"""Expected Italian/English length ratio (Italian runs longer)."""
THRESHOLD = 0.18
"""A pair is made only when its score beats this; below it both segments stay one-sided."""
MERGE_PENALTY = 0.04
"""Cost of a 2-1 or 1-2 pair, so a 1-1 pair is preferred when it scores as well."""


def _dice(a: Iterable[str], b: Iterable[str]) -> float | None:
    """Dice overlap of two collections (multisets for sequences), None when both are empty."""
    ca, cb = Counter(a), Counter(b)
    total = sum(ca.values()) + sum(cb.values())
    if not total:
        return None
    return 2 * sum((ca & cb).values()) / total


def pair_score(it: list[Segment] | tuple[Segment, ...], en: list[Segment] | tuple[Segment, ...]) -> float:
    """How likely the IT segments and the EN segments say the same thing (0-1)."""
    numbers = _dice([n for s in it for n in s.numbers if n not in IGNORED],
                    [n for s in en for n in s.numbers if n not in IGNORED])  # '1' is 'a'/'un' as often as one
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
    moved: bool = False
    """Made by the out-of-order pass (:func:`pair_moved`): a step or sentence the other edition
    placed elsewhere in the section."""

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


def join_lists(pairs: list[Pair]) -> list[Pair]:
    """A list left wholly unpaired after the pair that introduces it (its last segment ends in ':')
    joins that pair when the whole still scores above :data:`MOVED_THRESHOLD`: a procedure one edition
    writes as a paragraph and the other as 'do all of the following:' and numbered steps. A list with
    any step paired elsewhere stays as it is, so a step added to a list shared by both is still reported."""
    out = list(pairs)
    k = 0
    while k < len(out):
        unit = out[k]
        for lang in ("it", "en"):
            if not (unit.it and unit.en) or not plain(getattr(unit, lang)[-1].text).endswith(":"):
                continue
            end = k + 1
            while end < len(out) and not getattr(out[end], "en" if lang == "it" else "it") and \
                    getattr(out[end], lang) and all(s.kind is SegmentKind.ITEM for s in getattr(out[end], lang)):
                end += 1
            following = out[end] if end < len(out) else None
            if end == k + 1 or (following is not None and getattr(following, lang) and
                                getattr(following, lang)[0].kind is SegmentKind.ITEM):
                continue  # nothing left unpaired, or the list goes on with paired steps
            side = getattr(unit, lang) + tuple(s for u in out[k + 1:end] for s in getattr(u, lang))
            it, en = (side, unit.en) if lang == "it" else (unit.it, side)
            score = pair_score(it, en)
            if score > MOVED_THRESHOLD:
                out[k:end] = [Pair(it, en, score)]
                break
        k += 1
    return out


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


# --- out-of-order pass ---------------------------------------------------------------------------

MOVED_THRESHOLD = 0.35
"""An out-of-order pair is made only when its score beats this, well above :data:`THRESHOLD`: a
crossing pair needs strong anchors (shared numbers, glossary terms, cognates), not just plausibility."""


def _runs(segments: list[Segment]) -> list[tuple[Segment, ...]]:
    """Single leftover segments and runs of 2 consecutive ones (a step split in two elsewhere)."""
    runs: list[tuple[Segment, ...]] = [(s,) for s in segments]
    runs += [(a, b) for a, b in zip(segments, segments[1:]) if b.index == a.index + 1]
    return runs


def _scored(it: tuple[Segment, ...], en: tuple[Segment, ...]) -> bool:
    """Both sides carry content, not only captions or headings (those rarely move)."""
    return any(s.kind not in (SegmentKind.HEADING, SegmentKind.CAPTION) for s in it + en) and \
        all(s.kind is not SegmentKind.HEADING for s in it + en)


def pair_moved(pairs: list[Pair]) -> list[Pair]:
    """Second, out-of-order pass over the monotone alignment: the one-sided segments it left are paired
    with leftover segments anywhere on the other side (reordered steps, a moved sentence, a caption that
    crosses a paragraph), greedily by score above :data:`MOVED_THRESHOLD`; a leftover that scores
    better inside a made pair than that pair alone (a sentence merged into another) joins it. A moved
    pair takes the Italian segment's place; the content checks run on it like on any pair."""
    pairs = join_lists(pairs)
    left_it = [s for u in pairs if not u.en for s in u.it]
    left_en = [s for u in pairs if not u.it for s in u.en]
    if not left_it and not left_en:
        return pairs
    candidates = []
    for run_it in _runs(left_it):
        for run_en in _runs(left_en):
            if len(run_it) + len(run_en) > 3 or not _scored(run_it, run_en):
                continue
            score = pair_score(run_it, run_en)
            gain = score - MOVED_THRESHOLD - _penalty(len(run_it), len(run_en))
            if gain > 0:
                candidates.append((gain, score, run_it, run_en))
    used: set[tuple[str, int]] = set()
    made: list[Pair] = []
    for _, score, run_it, run_en in sorted(candidates, key=lambda c: -c[0]):
        keys = {("it", s.index) for s in run_it} | {("en", s.index) for s in run_en}
        if keys & used:
            continue
        used |= keys
        made.append(Pair(run_it, run_en, score, moved=True))
    units = [u for u in pairs if u.it and u.en] + made
    units += [Pair((s,), (), 0.0) for s in left_it if ("it", s.index) not in used]
    units += [Pair((), (s,), 0.0) for s in left_en if ("en", s.index) not in used]
    return _in_order(_repair(units))


SWAP_GAIN = 0.05
"""A repair (a segment moved to another pair, or two pairs exchanging one) is made only when the
alignment's value rises by at least this."""
SWAP_REACH = 8
"""Units further apart than this (in reading order) are not considered for a repair."""
DISTANCE_COST = 0.02
"""Extra gain a repair needs per unit between the two units: nearby moves are the likely ones."""


def _value(unit: Pair) -> float:
    """What a unit adds to the alignment: score less threshold and merging cost; one-sided units 0."""
    if not unit.it or not unit.en:
        return 0.0
    return unit.score - THRESHOLD - _penalty(len(unit.it), len(unit.en))


def _rebuilt(unit: Pair, lang: str, side: tuple[Segment, ...]) -> Pair | None:
    """``unit`` with its ``lang`` side replaced; None when it would be empty or score too low (a new pair
    out of a one-sided unit needs :data:`MOVED_THRESHOLD`)."""
    side = tuple(sorted(side, key=lambda s: s.index))
    it, en = (side, unit.en) if lang == "it" else (unit.it, side)
    if not it and not en:
        return None
    if not it or not en:
        return Pair(it, en, 0.0)
    score = pair_score(it, en)
    was_pair = bool(unit.it and unit.en)
    if score <= (THRESHOLD if was_pair else MOVED_THRESHOLD) or not _scored(it, en):
        return None
    return Pair(it, en, score, moved=True)


def _repair(units: list[Pair]) -> list[Pair]:
    """Local repair of the alignment, one best step at a time while the value rises by SWAP_GAIN:
    a segment moves from one unit to another (a leftover sentence the other edition merged into a
    step; a step taken from a 2-1 pair by the leftover it really matches), or two pairs exchange one
    segment of the same side (IT steps 1 and 2 swapped in EN)."""
    key = lambda u: (u.it or u.en)[0].index + (0 if u.it else 0.5)
    units = sorted(units, key=key)
    for _ in range(30):
        best = None
        for a in range(len(units)):
            for b in range(len(units)):
                if a == b or abs(a - b) > SWAP_REACH:
                    continue
                u, v = units[a], units[b]
                old = _value(u) + _value(v) + DISTANCE_COST * (abs(a - b) - 1)
                for lang in ("it", "en"):
                    side_u, side_v = getattr(u, lang), getattr(v, lang)
                    for x in side_u:
                        # move x from u to v (u keeps its pairing, or was a leftover)
                        if not (v.it or v.en) or (u.it and u.en and len(side_u) == 1):
                            continue
                        nu = _rebuilt(u, lang, tuple(s for s in side_u if s is not x))
                        nv = _rebuilt(v, lang, side_v + (x,))
                        if nv is not None and (nu is not None or not (u.it and u.en)) and nv.it and nv.en:
                            gain = _value(nv) + (_value(nu) if nu else 0.0) - old
                            if gain >= SWAP_GAIN and (best is None or gain > best[0]):
                                best = (gain, a, b, nu, nv)
                    if a < b and u.it and u.en and v.it and v.en:  # an exchange between two pairs
                        for x in side_u:
                            for y in side_v:
                                nu = _rebuilt(u, lang, tuple(s for s in side_u if s is not x) + (y,))
                                nv = _rebuilt(v, lang, tuple(s for s in side_v if s is not y) + (x,))
                                if nu is None or nv is None:
                                    continue
                                gain = _value(nu) + _value(nv) - old
                                if gain >= SWAP_GAIN and (best is None or gain > best[0]):
                                    best = (gain, a, b, nu, nv)
        if best is None:
            break
        _, a, b, nu, nv = best
        work: list[Pair | None] = list(units)  # a leftover moved whole leaves no unit (None)
        work[a], work[b] = nu, nv
        units = sorted((u for u in work if u is not None and (u.it or u.en)), key=key)
    return units


def _in_order(units: list[Pair]) -> list[Pair]:
    """Units in reading order: by their first Italian segment; an English-only unit after the unit
    that holds the English segment before it."""
    placed = sorted((u for u in units if u.it), key=lambda u: u.it[0].index)
    for unit in sorted((u for u in units if not u.it), key=lambda u: u.en[0].index):
        before = [k for k, p in enumerate(placed) if p.en and p.en[0].index < unit.en[0].index]
        position = (max(before, key=lambda k: placed[k].en[0].index) + 1) if before else 0
        placed.insert(position, unit)
    return placed
