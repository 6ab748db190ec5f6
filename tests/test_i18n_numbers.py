"""Counts and numbers in the interface's languages: the plural form a locale's rule gives a count
(``1 piano migliore``, ``2 piani migliori``) and the locale's number format (decimal comma and
thousands separator in Italian), through :func:`generator.i18n.plural` and :func:`generator.i18n.number`."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator import i18n
from generator.errors import Problems


@pytest.mark.parametrize(("value", "lang", "decimals", "expected"), [
    (12345.5, "it", None, "12.345,5"), (12345.5, "en", None, "12,345.5"),
    (1234, "it", None, "1.234"), (1234, "en", None, "1,234"),
    (0.26, "it", 1, "0,3"), (2.0, "it", 2, "2,00"), (7, "it", 0, "7"), (-1500.75, "it", 1, "-1.500,8"),
])
def test_numbers_follow_the_locale(value, lang, decimals, expected):
    assert i18n.number(value, lang, decimals) == expected


@pytest.mark.parametrize(("count", "lang", "category"), [
    (1, "it", "one"), (0, "it", "other"), (2, "it", "other"), (1.5, "it", "other"),
    (1, "en", "one"), (0, "en", "other"), (21, "en", "other"),
])
def test_plural_category_from_the_locale(count, lang, category):
    assert i18n.plural_category(count, lang) == category


def _catalogue(tmp_path: Path, it: str, en: str) -> Path:
    folder = tmp_path / i18n.CATALOGUE_FOLDER
    folder.mkdir()
    (folder / "it.yaml").write_text(it, encoding="utf-8")
    (folder / "en.yaml").write_text(en, encoding="utf-8")
    return tmp_path


@pytest.fixture
def plural_catalogue(tmp_path):
    data = _catalogue(tmp_path,
                      "x:\n  plans:\n    one: '{count} piano migliore'\n    other: '{count} piani migliori'\n",
                      "x:\n  plans:\n    one: '{count} better plan'\n    other: '{count} better plans'\n")
    problems = Problems()
    i18n.load(data, problems)
    assert not problems
    yield
    i18n.load(i18n.DATA_DIR, Problems())


@pytest.mark.parametrize(("count", "lang", "text"), [
    (1, "it", "1 piano migliore"), (2, "it", "2 piani migliori"), (0, "it", "0 piani migliori"),
    (1200, "it", "1.200 piani migliori"), (1, "en", "1 better plan"), (1200, "en", "1,200 better plans"),
])
def test_plural_picks_the_form_and_formats_the_count(plural_catalogue, count, lang, text):
    assert i18n.plural("x.plans", lang, count) == text


def test_plural_forms_need_other(tmp_path):
    data = _catalogue(tmp_path, "x:\n  plans:\n    one: '{count} piano'\n", "x:\n  plans:\n    one: '{count} plan'\n")
    problems = Problems()
    i18n.read_catalogue(data, ("it", "en"), problems)
    assert any("plural forms without 'other'" in str(p) for p in problems.items)
