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
from generator.rules import SITE_LANGUAGES

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


# --- every page the site shows (issue #67) -----------------------------------------------------------

@pytest.fixture(scope="module")
def rendered(real_site):
    """Every generated page (the Markdown the build writes to docs/<lang>/), by language."""
    from generator.build import all_pages
    pages: dict[str, list] = {}
    for page in all_pages(real_site):
        if page.path.endswith(".md"):
            pages.setdefault(page.lang, []).append(page)
    return pages


def _vocabulary(real_site, lang):
    from generator import i18n
    from generator.check.vocabulary import VocabularyCheck, catalogue_plurals, glossary_plurals
    from generator.errors import Problems
    texts = i18n.read_catalogue(DATA, SITE_LANGUAGES, Problems())[lang]
    return VocabularyCheck(real_site.glossary, lang, glossary_plurals(real_site.glossary, lang) + catalogue_plurals(texts))


def _offences(rendered, real_site, lang, kind):
    from generator.check.vocabulary import visible_text
    check = _vocabulary(real_site, lang)
    return {page.path: found for page in rendered[lang]
            if (found := [o for o in check.find(visible_text(page.content)) if o.kind.value == kind])}


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_every_page_uses_the_official_vocabulary(rendered, real_site, lang):
    """No page shows a glossary term's forbidden rendering: rules, cards, puzzle pages (steps, captions,
    tooltips), the rules coverage, the differences page, the draft, the puzzles' stories."""
    found = _offences(rendered, real_site, lang, "forbidden")
    assert {p: [(o.surface, o.expected) for o in f] for p, f in found.items()} == {}


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_a_count_of_one_takes_the_singular_on_every_page(rendered, real_site, lang):
    found = _offences(rendered, real_site, lang, "agreement")
    assert {p: sorted({o.surface for o in f}) for p, f in found.items()} == {}


def test_the_vocabulary_check_finds_forbidden_forms_and_plural_counts():
    from generator.check.vocabulary import OffenceKind, Plural, VocabularyCheck, catalogue_plurals, visible_text
    from generator.glossary import Term
    terms = [Term("smooth-er", ("cytosis",), {"it": ("Reticolo Endoplasmatico Liscio",), "en": ("Smooth ER",)},
                  {"it": ("Reticolo Liscio", "RE Liscio")}, {}, True),
             Term("health-points", ("cytosis",), {"it": ("Punti Salute", "Punto Salute"), "en": ("Health Points",)}, {}, {}, True)]
    plurals = catalogue_plurals({"x.plans.one": "{count} piano migliore", "x.plans.other": "{count} piani migliori"})
    assert plurals == [Plural("piani migliori", "piano migliore", "catalogue:x.plans")]
    from generator.check.vocabulary import glossary_plurals
    check = VocabularyCheck(terms, "it", glossary_plurals(terms, "it") + plurals)
    page = ('<span title="resta indietro di 2, 1 piani migliori">x</span>\n| Ormone (1 Punti Salute) | 11 Punti Salute |\n'
            "Nel [RE Liscio](x.md){ .cellula-term } e nel Reticolo Endoplasmatico Liscio; 1,5 Punti Salute; 1 Punto Salute")
    found = [(o.kind, o.surface, o.expected) for o in check.find(visible_text(page))]
    assert sorted(found) == sorted([(OffenceKind.FORBIDDEN, "RE Liscio", "Reticolo Endoplasmatico Liscio"),
                                    (OffenceKind.AGREEMENT, "1 Punti Salute", "1 Punto Salute"),
                                    (OffenceKind.AGREEMENT, "1 piani migliori", "1 piano migliore")])
