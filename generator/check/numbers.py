"""Numbers in rule texts: digits, Italian decimal commas, ranges and spelled numbers (IT/EN)."""
from __future__ import annotations

import re
from collections import Counter

WORDS = {
    "it": {"zero": 0, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8,
           "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13, "quindici": 15,
           "venti": 20, "trenta": 30},
    "en": {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fifteen": 15,
           "twenty": 20, "thirty": 30},
}
"""Spelled numbers. 'one'/'uno'/'una'/'un' are left out on purpose: they are articles as often as numbers."""

AMBIGUOUS = {"it": {"sei": re.compile(r"^[a-zà-ù]+[ie]$|^[A-Z]")}, "en": {}}
"""Words that are numbers only before a matching next word ('sei carte' yes, 'sei pronto' no)."""

_NUMBER = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)(?:\s*[-–]\s*(\d+(?:[.,]\d+)?))?(?![\w])|(?<![\w])(\d+)(?=x\b)")
_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")

IGNORED = frozenset({"1"})
"""Values left out of comparisons: 'one' is an article in both languages ('un ATP' = '1 ATP')."""


def _value(raw: str, lang: str) -> str:
    """'1,5' (it) -> '1.5'; '1,000' (en) -> '1000'; '12' -> '12'."""
    if "," in raw:
        raw = raw.replace(",", ".") if lang == "it" else raw.replace(",", "")
    elif "." in raw and lang == "it" and len(raw.split(".")[1]) == 3:
        raw = raw.replace(".", "")  # Italian thousands separator
    if "." in raw:
        raw = raw.rstrip("0").rstrip(".")
    return raw


def extract_numbers(text: str, lang: str) -> list[str]:
    """Every number of ``text`` as a normalised string, in order; a range yields both ends."""
    found: list[tuple[int, str]] = []
    for match in _NUMBER.finditer(text):
        if match.group(3):
            found.append((match.start(), match.group(3)))
            continue
        found.append((match.start(1), _value(match.group(1), lang)))
        if match.group(2):
            found.append((match.start(2), _value(match.group(2), lang)))
    words = WORDS.get(lang, {})
    ambiguous = AMBIGUOUS.get(lang, {})
    tokens = list(_WORD.finditer(text))
    for index, token in enumerate(tokens):
        word = token.group(0).lower()
        if word not in words:
            continue
        if word in ambiguous:
            following = tokens[index + 1].group(0) if index + 1 < len(tokens) else ""
            if not ambiguous[word].search(following):
                continue
        found.append((token.start(), str(words[word])))
    return [value for _, value in sorted(found)]


def number_counter(text: str, lang: str) -> Counter[str]:
    """The multiset of compared numbers (the ignored values removed)."""
    return Counter(n for n in extract_numbers(text, lang) if n not in IGNORED)


def multiset_difference(it: Counter[str], en: Counter[str]) -> tuple[list[str], list[str]]:
    """(numbers only in IT, numbers only in EN), each with multiplicity, sorted numerically."""
    def key(v: str) -> tuple[float, str]:
        return (float(v), v)
    return (sorted((it - en).elements(), key=key), sorted((en - it).elements(), key=key))


_FIGURE = re.compile(r"(?<![\w.,])(\d+)((?:\**\s+\**[A-Za-zÀ-ÿ]+){1,3})")


LINKING_WORDS = frozenset({"o", "e", "ed", "a", "di", "da", "in", "con", "per", "or", "and", "to", "of", "with",
                           "for", "from", "at", "on"})
"""Words after a number that name no thing counted ('2 o 3', '3 or 2'): no figure to repeat."""


def figures(text: str) -> list[tuple[str, str]]:
    """Each digit number with the words right after it naming what it counts (up to 3, up to a linking
    word or punctuation), as (value, folded words): '4 ATP' -> ('4', 'atp'); '3 Carte Evento Virus' ->
    ('3', 'carte evento virus'); '3 or 2' names nothing."""
    found = []
    for match in _FIGURE.finditer(text):
        words = []
        for word in re.findall(r"[A-Za-zÀ-ÿ]+", match.group(2)):
            if word.lower() in LINKING_WORDS:
                break
            words.append(word.lower())
        if words:
            found.append((match.group(1), " ".join(words)))
    return found


_PARENTHETICAL = re.compile(r"\([^()]*\)")


def _main_clause(text: str) -> str:
    """The text outside parentheses: a parenthesis adds a clause of its own ('6 ATP. (If 6 ATP are not
    available, fewer than 6 ATP)'), so a figure it repeats may be a new rule, not a restatement."""
    return _PARENTHETICAL.sub(" ", text)


def repeated_figures(texts: list[str], chart: bool = False) -> Counter[str]:
    """The extra copies of a figure (a number with the same words after it) that one paragraph outside
    its parentheses, or the rows of one chart (``chart``), state more than once: 'pay 4 ATP… after
    paying 4 ATP' says 4 ATP once."""
    seen = Counter(f for text in texts for f in figures(text if chart else _main_clause(text)))
    return Counter({value: count - 1 for (value, _), count in seen.items() if count > 1 and value not in IGNORED})


def sum_runs(numbers: list[str]) -> list[tuple[str, list[str]]]:
    """(total, parts) for each number followed, in the same text, by 2 or more numbers adding up to it:
    'six cards: 2 Ebola, 2 Influenza and 2 Rhinovirus' -> ('6', ['2', '2', '2'])."""
    runs = []
    for at, total in enumerate(numbers):
        acc = 0.0
        for end in range(at + 1, len(numbers)):
            acc += float(numbers[end])
            if acc > float(total):
                break
            if acc == float(total) and end - at >= 2:
                runs.append((total, numbers[at + 1:end + 1]))
                break
    return runs
