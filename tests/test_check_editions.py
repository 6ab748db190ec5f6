"""The edition check end to end: synthetic corpus scores, notes/allowlist validation, stale entries."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.check.bench import load_corpus, score
from generator.check.checks import run_checks
from generator.check.editions import apply_allowlist, load_allowlist, load_notes
from generator.check.model import CheckId, Status
from generator.errors import Problems
from generator.rules import load_game
from generator.glossary import load_glossary
from generator.check.editions import EDITION_REPORTS

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def corpus():
    from generator.check.qa import project_words
    pairs, glossary, broader, implied, words = load_corpus()
    return pairs, run_checks(pairs, glossary, "synth", broader, implied, project_words(glossary, [], words))


def test_corpus_is_big_enough_and_covers_every_check(corpus):
    pairs, _ = corpus
    injected = [p for p in pairs if p.extra["expect"]]
    kinds = {c for p in pairs for c in p.extra["expect"]}
    assert len(injected) >= 20
    assert kinds == {c.value for c in CheckId} - {"EDITION_NOTE"}


def test_corpus_recall_and_precision(corpus):
    pairs, findings = corpus
    result = score(pairs, findings)
    assert result.recall == 1.0, sorted(result.expected - result.found)
    assert result.precision >= 0.9, sorted(result.found - result.expected)


def test_number_evidence_lists_both_directions(corpus):
    _, findings = corpus
    finding = next(f for f in findings if f.section == "num.table" and f.check is CheckId.NUM_MISMATCH)
    assert finding.evidence == {"it_only": ["11"], "en_only": ["12"]}


@pytest.fixture
def game():
    problems = Problems()
    game = load_game(FIXTURES / "data" / "rules" / "mini", FIXTURES / "data", problems)
    assert game is not None, problems.items
    return game


def _write(tmp_path: Path, name: str, text: str) -> Path:
    file = tmp_path / name
    file.write_text(textwrap.dedent(text), encoding="utf-8")
    return file


NOTE = """\
    game: mini
    notes:
      - id: rounds
        sections: [{section}]
        kind: {kind}
        title: {{it: "Round", en: "Rounds"}}
        text: {{it: "L'edizione italiana dice 3.", en: "The Italian edition says 3."}}
        follow: {{it: "Segui il tuo libro.", en: "Follow your book."}}
"""


@pytest.mark.parametrize("section, kind, message", [
    ("play.nowhere", "typo", "unknown section 'play.nowhere'"),
    ("play.place", "rumour", "expected one of"),
])
def test_bad_note_names_file_and_entry(tmp_path, game, section, kind, message):
    file = _write(tmp_path, "mini.yaml", NOTE.format(section=section, kind=kind))
    problems = Problems()
    assert load_notes(file, game, problems) == []
    text = "\n".join(str(p) for p in problems.items)
    assert "mini.yaml" in text and "note 'rounds'" in text and message in text


def test_good_note_loads(tmp_path, game):
    file = _write(tmp_path, "mini.yaml", NOTE.format(section="play.place", kind="edition-change"))
    problems = Problems()
    notes = load_notes(file, game, problems)
    assert not problems.items and notes[0].sections == ("play.place",)


@pytest.mark.parametrize("entry, message", [
    ("{fingerprint: 'zz', check: NUM_MISMATCH, section: play.place, status: typo}", "12-hex-digit"),
    ("{fingerprint: 0123456789ab, check: NUM_MISMATCH, section: play.place, status: open}", "expected one of"),
    ("{fingerprint: 0123456789ab, check: NUM_MISMATCH, section: play.gone, status: typo}", "unknown section"),
    ("{fingerprint: 0123456789ab, check: NUM_MISMATCH, section: play.place, status: typo, note: nope}", "unknown note"),
])
def test_bad_allowlist_entry_names_file_and_entry(tmp_path, game, entry, message):
    file = _write(tmp_path, "mini.allow.yaml", f"reviewed:\n  - {entry}\n")
    problems = Problems()
    load_allowlist(file, game, set(), problems)
    text = "\n".join(str(p) for p in problems.items)
    assert "mini.allow.yaml:2" in text and "reviewed[0]" in text and message in text


def test_allowlist_applies_and_reports_stale(tmp_path, game, corpus):
    _, findings = corpus
    target = findings[0]
    file = _write(tmp_path, "mini.allow.yaml", f"""\
        reviewed:
          - {{fingerprint: {target.fingerprint}, check: {target.check.value}, section: play.place, status: typo}}
          - {{fingerprint: 0123456789ab, check: NUM_MISMATCH, section: play.place, status: typo}}
        """)
    problems = Problems()
    entries = load_allowlist(file, game, set(), problems)
    assert not problems.items
    applied, stale = apply_allowlist(findings, entries)
    assert applied[0].status is Status.TYPO
    assert all(f.status is Status.OPEN for f in applied[1:] if f.fingerprint != target.fingerprint)
    assert [e.fingerprint for e in stale] == ["0123456789ab"]


def test_glossary_entry_with_empty_side_is_reported(tmp_path):
    file = _write(tmp_path, "glossary.yaml", """\
        terms:
          - {id: flask, games: [mini], it: [], en: [Flask]}
        """)
    problems = Problems()
    load_glossary(file, ["mini"], problems)
    assert any("glossary.yaml:2" in str(p) and "terms[0].it" in str(p) and "empty 'it' side" in str(p)
               for p in problems.items)


def test_real_allowlist_has_no_stale_entry_and_no_open_finding():
    """Every reviewed entry of data/editions matches a current finding, every finding is reviewed,
    and every reason is written for its finding (no shared bulk reason)."""
    from collections import Counter
    from generator.check.editions import load_editions
    from generator.paths import DATA_DIR
    from generator.site import load_site
    site = load_site(DATA_DIR)
    reports = site.get(EDITION_REPORTS) or load_editions(site, Problems())
    for report in reports.values():
        assert not report.stale, [(e.fingerprint, e.check, e.section, e.line) for e in report.stale]
        open_ = [f for f in report.findings if f.status is Status.OPEN]
        assert not open_, [(f.fingerprint, f.check.value, f.section) for f in open_]
        assert all(report.reasons.get(f.fingerprint) for f in report.findings if f.check is not CheckId.EDITION_NOTE)
        repeated = [why for why, n in Counter(report.reasons.values()).items() if n > 3]
        assert not repeated, repeated
