"""The official Italian vocabulary everywhere the project writes Italian: a glossary term's non-official
renderings (the ``forbidden: {it: [...]}`` forms of ``data/glossary.yaml``: "fiasca" where the official
1st-edition term is "beuta") appear in no Italian text of the interface, the draft, the puzzles, the
card database, the audit or the project's translations. The deny-list is the glossary's, never a list
kept here: a term given a forbidden form is checked everywhere at once."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from generator.check.align import plain
from generator.check.terms import TermMatcher

DATA = Path(__file__).resolve().parent.parent / "data"


def _italian(value: object, path: str, italian: bool = False) -> Iterator[tuple[str, str]]:
    """(YAML path, text) of every Italian text in a YAML value: the values under an ``it`` key, or the
    whole file when it is Italian (``italian``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _italian(item, f"{path}.{key}", italian or key == "it")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _italian(item, f"{path}[{index}]", italian)
    elif isinstance(value, str) and italian:
        yield path, value


def _yaml_texts(pattern: str, italian: bool = False) -> list[tuple[str, str]]:
    out = []
    for file in sorted(DATA.glob(pattern)):
        out += _italian(yaml.safe_load(file.read_text(encoding="utf-8")), file.relative_to(DATA).as_posix(), italian)
    return out


def _markdown_texts(pattern: str) -> list[tuple[str, str]]:
    return [(f"{file.relative_to(DATA).as_posix()}:{number}", line)
            for file in sorted(DATA.glob(pattern))
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)]


SOURCES = {
    "interface catalogue (steps, puzzle pages)": lambda: _yaml_texts("i18n/it.yaml", italian=True),
    "draft translations": lambda: _yaml_texts("editions/*.draft-it.yaml"),
    "edition notes and reviews": lambda: _yaml_texts("editions/*.yaml"),
    "puzzles": lambda: _yaml_texts("puzzles/**/*.yaml"),
    "card database": lambda: _yaml_texts("cards/*.yaml"),
    "rules audit": lambda: _yaml_texts("audit/*.yaml"),
    "quick references and editorial notes": lambda: _yaml_texts("rules/*/*.yaml"),
    "project translations": lambda: _markdown_texts("rules/*/translations.it.md"),
}


@pytest.fixture(scope="module")
def deny(real_site):
    """A matcher for the glossary's Italian terms, and the forbidden forms it reports."""
    forms = sorted({form for term in real_site.glossary for form in term.forbidden.get("it", ())})
    return TermMatcher(real_site.glossary, "it"), forms


def test_the_deny_list_comes_from_the_glossary(deny):
    _, forms = deny
    assert {"Fiasca", "Fiasche", "Carte Macromolecola"} <= set(forms)


@pytest.mark.parametrize("source", SOURCES)
def test_italian_texts_use_the_official_vocabulary(deny, source):
    matcher, _ = deny
    texts = SOURCES[source]()
    assert texts, f"no Italian text found for {source}"
    wrong = [(where, hit.surface, hit.term) for where, text in texts for hit in matcher.find(plain(text)) if hit.forbidden]
    assert not wrong, f"non-official Italian forms (glossary 'forbidden'): {wrong}"


def test_the_draft_page_uses_the_official_vocabulary(real_site, deny):
    from generator.check import draft
    matcher, _ = deny
    for page in draft.draft_pages(real_site, "it"):
        wrong = [hit.surface for hit in matcher.find(plain(page.content)) if hit.forbidden]
        assert not wrong, (page.path, wrong)


def test_a_forbidden_form_is_caught():
    """The check itself: a glossary term's forbidden form is found in a sentence, inflected."""
    from generator.glossary import Term
    term = Term("flask", ("cytosis",), {"it": ("Beuta", "Beute"), "en": ("Flask",)}, {"it": ("Fiasca", "Fiasche")}, {}, True)
    hits = TermMatcher([term], "it").find("Con una fiasca in più; tutte le fiasche; una beuta")
    assert [(h.surface.lower(), h.forbidden) for h in hits] == [("fiasca", True), ("fiasche", True), ("beuta", False)]
