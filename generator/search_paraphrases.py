"""What a player asks, mapped to the words the rulebooks use (issue #66): the paraphrase table
``data/search/paraphrases.yaml``, and the counted words of a rule section.

The table is data (one part per site language); this module checks it and turns it into what the
search index ships (``config.cellula_paraphrases``, applied to queries by docs/assets/search.js). The
index side of the same idea is :func:`counted_words`: the words a section states a number of ("4
Beute", "2 OR 3 PLAYER GAME", "numero di giocatori"), in the section's ``counts`` field, so that a
question asking for a number ("quante beute", "how many flasks with 4 players") meets the section
that states it rather than every page that merely names the thing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .languages import CONTENT_LANGUAGES
from .errors import Problems
from .yamlio import load_yaml, yaml_path

PARAPHRASES = Path("search") / "paraphrases.yaml"
"""The table, relative to the data folder."""

NUMBER_SLOT = "{n}"
"""In a phrase: where a number stands; carried into the phrase's meaning."""


@dataclass(frozen=True)
class Phrase:
    """Typed phrases and the rulebook's words they mean."""
    asks: tuple[str, ...]
    means: str
    replace: bool
    """Whether the typed phrase goes (its words are not the rule's) or stays beside the meaning."""


@dataclass(frozen=True)
class Paraphrases:
    """One site language's part of the table."""
    frames: tuple[str, ...]
    counts: tuple[str, ...]
    numbers: dict[str, int]
    players: tuple[str, ...]
    phrases: tuple[Phrase, ...]

    @classmethod
    def none(cls) -> Paraphrases:
        """No paraphrases: a language searched by its own words alone."""
        return cls(frames=(), counts=(), numbers={}, players=(), phrases=())

    def for_client(self) -> dict[str, Any]:
        """The part as docs/assets/search.js reads it (lowercase; phrases longest first)."""
        phrases = sorted(((ask.lower(), p.means.lower(), p.replace) for p in self.phrases for ask in p.asks),
                         key=lambda item: -len(item[0]))
        return {"frames": sorted((f.lower() for f in self.frames), key=len, reverse=True),
                "counts": sorted((c.lower() for c in self.counts), key=len, reverse=True),
                "numbers": {k.lower(): v for k, v in self.numbers.items()},
                "players": [p.lower() for p in self.players],
                "phrases": [list(item) for item in phrases]}


def _strings(value: Any, file: Path, where: str, located: Any, problems: Problems) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        problems.add(file, where, f"expected a non-empty list of non-empty strings, got {value!r}",
                     located.line(*where.split(".")) if located else None)
        return ()
    return tuple(v.strip() for v in value)


def load_paraphrases(data_dir: Path, languages: tuple[str, ...]) -> dict[str, Paraphrases]:
    """The table of ``data_dir`` for each of ``languages`` (the site's), checked: every problem is
    reported at once, naming the file, the field and the value found."""
    file = data_dir / PARAPHRASES
    if not file.exists():
        # a data set without the table (a test's minimal data): searched without paraphrases
        return {lang: Paraphrases.none() for lang in languages}
    problems = Problems()
    raw, located = load_yaml(file)
    table = raw.get("languages") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        problems.add(file, "languages", f"expected a mapping of site languages, got {table!r}")
        problems.raise_if_any()
        return {}
    out: dict[str, Paraphrases] = {}
    for lang in languages:
        part = table.get(lang)
        where = yaml_path("languages", lang)
        if part is None and lang not in CONTENT_LANGUAGES:
            # a site language added by its two files (CONTRIBUTING): searched without paraphrases until
            # the table has its own (another language's words would not match its pages)
            out[lang] = Paraphrases.none()
            continue
        if not isinstance(part, dict):
            problems.add(file, where, f"expected the site language {lang!r}'s paraphrases (frames, counts, numbers, "
                                      f"players, phrases), got {part!r}", located.line("languages"))
            continue
        unknown = set(part) - {"frames", "counts", "numbers", "players", "phrases"}
        if unknown:
            problems.add(file, where, f"unknown field(s) {', '.join(sorted(unknown))}: expected frames, counts, "
                                      f"numbers, players, phrases", located.line("languages", lang))
        numbers = part.get("numbers")
        if not isinstance(numbers, dict) or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                                    and v > 0 for k, v in numbers.items()):
            problems.add(file, f"{where}.numbers", f"expected number words mapped to whole numbers above 0, got {numbers!r}",
                         located.line("languages", lang, "numbers"))
            numbers = {}
        phrases: list[Phrase] = []
        for i, item in enumerate(part.get("phrases") or []):
            at = f"{where}.phrases[{i}]"
            line = located.line("languages", lang, "phrases", i)
            if not isinstance(item, dict) or not isinstance(item.get("means"), str) or not item["means"].strip():
                problems.add(file, at, f"expected {{asks: [...], means: \"...\", replace: true|false}}, got {item!r}", line)
                continue
            asks = _strings(item.get("asks"), file, f"{at}.asks", None, problems)
            replace = item.get("replace", False)
            if not isinstance(replace, bool):
                problems.add(file, f"{at}.replace", f"expected true or false, got {replace!r}", line)
            bad = [a for a in asks if a.count(NUMBER_SLOT) > 1 or (NUMBER_SLOT in item["means"]) != (NUMBER_SLOT in a)]
            if bad:
                problems.add(file, f"{at}.asks", f"a phrase with {NUMBER_SLOT} needs it once, and in `means` too "
                                                 f"(and only then): got {bad!r} -> {item['means']!r}", line)
            phrases.append(Phrase(asks, item["means"].strip(), bool(replace)))
        out[lang] = Paraphrases(
            frames=_strings(part.get("frames"), file, f"{where}.frames", None, problems),
            counts=_strings(part.get("counts"), file, f"{where}.counts", None, problems),
            numbers=dict(numbers), players=_strings(part.get("players"), file, f"{where}.players", None, problems),
            phrases=tuple(phrases))
    problems.raise_if_any()
    return out


_TOKEN = re.compile(r"\d+|[^\W\d_]+(?:['’][^\W\d_]+)?")
_CONNECTORS = frozenset({"o", "e", "or", "and", "to", "a"})
"""Words joining the numbers of a list ("2 o 3 giocatori", "2 or 3 player game", "3 to 5 players")."""
COUNTED_WORDS = 2
"""Words after a number (stop words skipped) taken as what it counts: "3 Carte Obiettivo", "4 Flasks"."""


def counted_words(text: str, paraphrases: Paraphrases, stopwords: frozenset[str]) -> str:
    """The ``counts`` field of a rule section's plain ``text``: for every number (or list of numbers,
    "2 o 3"), the words it counts (:data:`COUNTED_WORDS`, stop words skipped) and each joined to the
    number ("4 Beute" -> "beute 4beute"); and the words after a count phrase of the table ("numero di
    giocatori" -> "giocatori"). Empty for a text that counts nothing."""
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    words: list[str] = []
    counts = [tuple(c.lower().split()) for c in paraphrases.counts]
    i = 0
    while i < len(tokens):
        numbers: list[str] = []
        j = i
        while j < len(tokens) and tokens[j].isdigit():
            numbers.append(tokens[j])
            j += 1
            if j + 1 < len(tokens) and tokens[j] in _CONNECTORS and tokens[j + 1].isdigit():
                j += 1
        phrase = next((c for c in counts if tuple(tokens[i:i + len(c)]) == c), None) if not numbers else None
        if not numbers and phrase is None:
            i += 1
            continue
        if phrase is not None:
            j = i + len(phrase)
        counted = [t for t in tokens[j:j + COUNTED_WORDS + 2] if t not in stopwords and not t.isdigit()][:COUNTED_WORDS]
        for k in range(1, len(counted) + 1):
            joined = "".join(counted[:k])
            words.append(joined)
            words.extend(n + joined for n in numbers)
        i = max(j, i + 1)
    return " ".join(dict.fromkeys(words))
