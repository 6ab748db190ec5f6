"""Interface strings: Italian is the reference language; every other language has exactly its keys."""
from __future__ import annotations

import importlib

import pytest

from generator.rules import SITE_LANGUAGES

MODULES_WITH_STRINGS = ["generator.puzzle_pages", "generator.card_pages", "generator.check.site_pages", "generator.audit_page"]


@pytest.mark.parametrize("module_name", MODULES_WITH_STRINGS)
def test_feature_strings_have_the_reference_keys(module_name):
    ui = importlib.import_module(module_name).UI
    reference = set(ui[SITE_LANGUAGES[0]])
    for lang in SITE_LANGUAGES[1:]:
        assert set(ui[lang]) == reference, (
            f"{module_name}.UI[{lang!r}] lacks {sorted(reference - set(ui[lang]))}, "
            f"has extra {sorted(set(ui[lang]) - reference)}")
        for key, value in ui[lang].items():
            assert value, f"{module_name}.UI[{lang!r}][{key!r}] is empty"
            if isinstance(value, dict):  # nested labels: same keys again
                assert set(value) == set(ui[SITE_LANGUAGES[0]][key]), f"{module_name}.UI[{lang!r}][{key!r}]"


def test_site_strings_match(real_site):
    assert set(real_site.ui["it"]) == set(real_site.ui["en"])
