"""``python -m generator bench-check``: run time on the real data, recall and precision on the
synthetic corpus (``tests/fixtures/check/corpus.yaml``: IT/EN pairs with injected errors); the
figures are written to ``data/figures/edition-check.json`` (:mod:`generator.figures`)."""
from __future__ import annotations

import time
from argparse import Namespace
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, Problems
from ..figures import Unit, figure, load_average, write_set
from ..paths import ROOT
from ..glossary import Term, load_glossary
from ..yamlio import load_yaml
from .checks import run_checks
from .model import CheckId, Finding, SectionPair, Status
from .editions import EDITION_REPORTS

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "check" / "corpus.yaml"
SYNTH_GAME = "synth"


@dataclass(frozen=True)
class Score:
    """Recall and precision of the checks on the synthetic corpus, at the (section, check) level."""

    expected: frozenset[tuple[str, str]]
    """(section, check) pairs the corpus expects."""
    found: frozenset[tuple[str, str]]
    """(section, check) pairs the checks reported."""

    @property
    def recall(self) -> float:
        return len(self.expected & self.found) / len(self.expected) if self.expected else 1.0

    @property
    def precision(self) -> float:
        return len(self.expected & self.found) / len(self.found) if self.found else 1.0

    def per_check(self) -> dict[str, tuple[int, int, int]]:
        """check -> (true positives, expected, found)."""
        out = {}
        for check in CheckId:
            exp = {e for e in self.expected if e[1] == check.value}
            fnd = {f for f in self.found if f[1] == check.value}
            if exp or fnd:
                out[check.value] = (len(exp & fnd), len(exp), len(fnd))
        return out


def load_corpus(file: Path = CORPUS) -> tuple[list[SectionPair], list[Term], dict[str, list[str]], dict[str, set[str]],
                                              dict[str, set[str]]]:
    """The corpus pairs (expected checks in ``extra``), its glossary (``glossary.yaml`` beside it), its
    curated ``broader:`` relation (term -> narrower terms), ``implied:`` terms (chapter -> terms) and
    ``words:`` (language -> the extra words of its spelling word list)."""
    data, _ = load_yaml(file)
    problems = Problems()
    glossary = load_glossary(file.parent / "glossary.yaml", [SYNTH_GAME], problems)
    problems.raise_if_any()
    broader = {wide: list(narrow) for wide, narrow in (data.get("broader") or {}).items()}
    implied = {chapter: set(ids) for chapter, ids in (data.get("implied") or {}).items()}
    words = {lang: set(ws) for lang, ws in (data.get("words") or {}).items()}
    pairs = [SectionPair(SYNTH_GAME, raw["id"], raw.get("it"), raw.get("en"), raw["id"].split(".")[0],
                         {"expect": list(raw.get("expect") or [])}) for raw in data["pairs"]]
    return pairs, glossary, broader, implied, words


def score(pairs: list[SectionPair], findings: list[Finding]) -> Score:
    expected = frozenset((p.section, c) for p in pairs for c in p.extra["expect"])
    found = frozenset((f.section, f.check.value) for f in findings)
    return Score(expected, found)


@dataclass(frozen=True)
class RealData:
    """The edition check on the real rulebooks: its size, its time and the reviewed findings."""

    games: int
    sections: int
    findings: int
    seconds: float
    by_status: dict[str, int]

    def __str__(self) -> str:
        return (f"real data: {self.games} game(s), {self.sections} sections, {self.findings} findings in "
                f"{self.seconds:.2f} s; reviewed: " + ", ".join(f"{n} {s}" for s, n in self.by_status.items()))


def _real_data() -> RealData | str:
    from ..paths import DATA_DIR
    from ..site import load_site
    from .editions import EDITIONS_DIR, compared_games, load_broader, load_implied, official_pairs
    try:
        site = load_site(DATA_DIR, solve_puzzles=False)
    except DataError as exc:
        return f"real data: not loadable ({len(exc.problems)} data problems), timing skipped"
    from .editions import spelling_words
    games = compared_games(site)
    words = spelling_words(site, DATA_DIR, Problems())
    start = time.perf_counter()
    count = 0
    for game in games:
        notes = DATA_DIR / EDITIONS_DIR / f"{game.id}.yaml"
        broader = load_broader(notes, {t.id for t in site.glossary}, Problems()) if notes.exists() else {}
        ids = {t.id for t in site.glossary}
        implied = load_implied(notes, game, ids, Problems()) if notes.exists() else {}
        count += len(run_checks(official_pairs(game), site.glossary, game.id, broader, implied, words))
    elapsed = time.perf_counter() - start
    sections = sum(len(g.sections) for g in games)
    # the curated notes (EDITION_NOTE) are the project's own, not findings of the checks
    statuses = Counter(f.status.value for report in site.get(EDITION_REPORTS).values() for f in report.findings
                       if f.check is not CheckId.EDITION_NOTE)
    return RealData(len(games), sections, count, elapsed, {s.value: statuses[s.value] for s in Status})


def run_benchmark(args: Namespace) -> int:
    from .qa import project_words
    pairs, glossary, broader, implied, words = load_corpus(Path(args.corpus) if args.corpus else CORPUS)
    start = time.perf_counter()
    findings = run_checks(pairs, glossary, SYNTH_GAME, broader, implied, project_words(glossary, [], words))
    elapsed = time.perf_counter() - start
    result = score(pairs, findings)
    load_before = load_average()
    real = _real_data()
    print(real)
    print(f"synthetic corpus: {len(pairs)} pairs, {len(result.expected)} injected errors, "
          f"{len(result.found)} findings in {elapsed * 1000:.0f} ms")
    print(f"recall {result.recall:.1%}  precision {result.precision:.1%}")
    for check, (tp, exp, fnd) in result.per_check().items():
        print(f"  {check:17} found {tp}/{exp} expected, {fnd - tp} spurious")
    if args.verbose:
        for section, check in sorted(result.expected - result.found):
            print(f"  missed   {check:17} {section}")
        for section, check in sorted(result.found - result.expected):
            print(f"  spurious {check:17} {section}")
    if not args.no_write and not args.corpus and isinstance(real, RealData):
        figures = [figure("games", real.games, Unit.COUNT), figure("sections", real.sections, Unit.COUNT),
                   figure("findings", real.findings, Unit.COUNT), figure("check.seconds", real.seconds, Unit.SECONDS)]
        total = sum(real.by_status.values())
        figures += [figure(f"findings.{status}", n, Unit.COUNT, of=total) for status, n in real.by_status.items()
                    if total and status != "open"]
        figures += [figure("corpus.pairs", len(pairs), Unit.COUNT),
                    figure("corpus.errors", len(result.expected), Unit.COUNT),
                    figure("recall", len(result.expected & result.found), Unit.COUNT, of=len(result.expected) or 1),
                    figure("precision", len(result.expected & result.found), Unit.COUNT, of=len(result.found) or 1)]
        written = write_set("edition-check", "python -m generator bench-check", load_before, figures)
        print(f"written: {written.relative_to(ROOT)}")
    return 0
