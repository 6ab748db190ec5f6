"""The message catalogue (data/i18n/<lang>.yaml): Italian is the reference language; every other
language has exactly its keys; no key is unused; every problem is reported at once, naming file and key."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator import i18n
from generator.build import all_pages
from generator.errors import Problems
from generator.mkdocs_hook import client_strings
from generator.rules import SITE_LANGUAGES
from generator.site import load_site

ROOT = Path(__file__).resolve().parent.parent
FEATURE_NAMESPACES = {"generator.puzzles.feature": "puzzles", "generator.card_pages": "cards",
                      "generator.check.site_pages": "check", "generator.check.draft": "draft",
                      "generator.audit_page": "audit"}


def test_real_catalogue_has_the_same_keys_in_every_language():
    problems = Problems()
    texts = i18n.read_catalogue(ROOT / "data", SITE_LANGUAGES, problems)
    assert not problems, "\n".join(map(str, problems.items))
    assert len(texts[SITE_LANGUAGES[0]]) > 300


def test_placeholders_match_across_languages():
    """A placeholder the reference text fills must be fillable in every translation (and no more)."""
    texts = i18n.read_catalogue(ROOT / "data", SITE_LANGUAGES, Problems())
    reference = texts[SITE_LANGUAGES[0]]
    for lang in SITE_LANGUAGES[1:]:
        for key, text in reference.items():
            assert set(re.findall(r"\{(\w+)\}", texts[lang][key])) == set(re.findall(r"\{(\w+)\}", text)), (lang, key)


@pytest.fixture
def catalogue_copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "data" / "i18n", tmp_path / "i18n")
    return tmp_path


def _edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text, old
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_missing_extra_and_empty_keys_are_all_reported_with_file_and_key(catalogue_copy):
    _edit(catalogue_copy / "i18n/en.yaml", "  glossary: Glossary\n", "")
    _edit(catalogue_copy / "i18n/en.yaml", "  nav: Puzzles\n", "  nav: Puzzles\n  navv: Puzzles\n")
    _edit(catalogue_copy / "i18n/en.yaml", "  chapters: Chapters\n", "  chapters: ''\n")
    _edit(catalogue_copy / "i18n/en.yaml", "  grade_of: level {n} of 5\n", "  grade_of: level {m} of 5\n")
    problems = Problems()
    i18n.read_catalogue(catalogue_copy, SITE_LANGUAGES, problems)
    report = "\n".join(map(str, problems.items))
    assert "i18n/en.yaml: core.glossary: missing: it.yaml has this key, en.yaml lacks it" in report
    assert re.search(r"i18n/en.yaml:\d+: puzzles.navv: extra key: not in the reference catalogue it.yaml", report)
    assert re.search(r"i18n/en.yaml:\d+: core.chapters: expected a non-empty text, got ''", report)
    assert re.search(r"i18n/en.yaml:\d+: puzzles.grade_of: expected the placeholders \['n'\] of it.yaml, got \['m'\]",
                     report)


def test_missing_language_file_is_reported(catalogue_copy):
    (catalogue_copy / "i18n/en.yaml").unlink()
    problems = Problems()
    i18n.read_catalogue(catalogue_copy, SITE_LANGUAGES, problems)
    assert "en.yaml: missing: the catalogue of site language 'en'" in str(problems.items[0])


def test_t_fills_placeholders_and_names_an_unknown_key():
    assert i18n.t("puzzles.grade_of", "en", n=3) == "level 3 of 5"
    with pytest.raises(KeyError, match="puzzles.no_such_key"):
        i18n.t("puzzles.no_such_key", "it")


@pytest.mark.parametrize("module_name, namespace", FEATURE_NAMESPACES.items())
def test_feature_strings_come_from_the_catalogue(module_name, namespace):
    import importlib
    ui = importlib.import_module(module_name).UI
    assert list(ui) == list(SITE_LANGUAGES)
    for lang in SITE_LANGUAGES:
        names = i18n.keys(namespace, lang)
        assert names and list(ui[lang]) == names
        assert ui[lang][names[0]] == i18n.t(f"{namespace}.{names[0]}", lang)


def test_every_key_is_used():
    """Rendering every page (and the scripts' strings) reads every key, or the code names it."""
    site = load_site(ROOT / "data")
    all_pages(site)
    for lang in SITE_LANGUAGES:
        client_strings(lang)
    problems = Problems()
    i18n.unused_problems(ROOT / "data", problems)
    assert not problems, "\n".join(map(str, problems.items))


def test_an_unused_key_is_reported(catalogue_copy, monkeypatch):
    _edit(catalogue_copy / "i18n/it.yaml", "  glossary: Glossario\n", "  glossary: Glossario\n  never_read_anywhere: x\n")
    _edit(catalogue_copy / "i18n/en.yaml", "  glossary: Glossary\n", "  glossary: Glossary\n  never_read_anywhere: x\n")
    problems = Problems()
    i18n.load(catalogue_copy, problems)
    try:
        assert not problems
        i18n.unused_problems(catalogue_copy, problems)
        report = "\n".join(map(str, problems.items))
        assert "i18n/it.yaml: core.never_read_anywhere: unused" in report
    finally:
        i18n.load(ROOT / "data", Problems())
