"""The glossary: enough Cytosis pairs, every listed form really used by its source, rendering."""
from __future__ import annotations

import re

import pytest

from generator.pages import annotate_terms

SOURCES = {
    "cytosis": {"it": ["cytosis-it-1e.txt"], "en": ["cytosis-en-2e.txt", "cytosis-en-virus.txt"]},
    "ursuppe": {"it": ["ursuppe-it.txt"]},
    "immune-response": {"ru": ["immune-response-ru.txt"]},
}


@pytest.fixture(scope="module")
def source_texts(real_site):
    return {name: (real_site.data_dir / "sources" / name).read_text(encoding="utf-8")
            for langs in SOURCES.values() for names in langs.values() for name in names}


def occurs(form: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(form) + r"(?!\w)", text, re.IGNORECASE) is not None


def test_at_least_60_official_cytosis_pairs(real_site):
    pairs = [t for t in real_site.glossary if "cytosis" in t.games and t.official]
    assert len(pairs) >= 60


def test_every_official_form_occurs_in_its_source(real_site, source_texts):
    """A form listed for a source language must really be printed there (variant spellings included)."""
    missing = []
    for term in real_site.glossary:
        for game in term.games:
            for lang, files in SOURCES[game].items():
                if not term.official and game == "cytosis":
                    continue  # one side is this project's translation
                forms = term.forms.get(lang, ())
                text = "\n".join(source_texts[f] for f in files)
                missing += [(term.id, lang, f) for f in forms if not occurs(f, text)]
    assert not missing, f"forms not found in their source: {missing[:20]}"


def test_one_sided_cytosis_terms_have_one_printed_side(real_site, source_texts):
    for term in (t for t in real_site.glossary if "cytosis" in t.games and not t.official):
        printed = [lang for lang, files in SOURCES["cytosis"].items()
                   if any(occurs(f, "\n".join(source_texts[n] for n in files)) for f in term.forms[lang])]
        assert printed, f"{term.id}: neither side occurs in the official texts"


def test_tooltips_and_hidden_counterparts_only_for_terms_used(real_site):
    page = "# Titolo\n\n## Uno\n\nPiazza una Beuta.\n\n## Due\n\nNiente qui.\n"
    out = annotate_terms(page, real_site.glossary, "it", {"cytosis"}, page_path="cytosis/setup.md")
    assert '[Beuta](../glossary.md#term-flask){ .cellula-term data-tip="EN: Flask' in out
    first, second = out.split("## Due")
    assert 'class="cellula-xlang" hidden>' in first and "Flask" in first
    assert "cellula-xlang" not in second
    assert "Golgi" not in out  # unused terms leave no trace


def test_glossary_marks_only_the_first_occurrence_per_section(real_site):
    page = ("## Uno\n\nUna Beuta, poi un'altra Beuta.\n\n| Beuta | x |\n|---|---|\n\n"
            "## Due\n\nLa [Beuta](x.md) linkata e una Beuta libera.\n")
    out = annotate_terms(page, real_site.glossary, "it", {"cytosis"}, page_path="cytosis/setup.md")
    first, second = out.split("## Due")
    assert first.count("cellula-term") == 1 and "un'altra Beuta." in first
    assert "| Beuta | x |" in first  # tables are left alone
    assert "[Beuta](x.md) linkata" in second and second.count("cellula-term") == 1


def test_tooltip_gives_the_definition(real_site):
    term = next(t for t in real_site.glossary if t.id == "flask")
    out = annotate_terms("## A\n\nUna Beuta.\n", real_site.glossary, "it", {"cytosis"})
    assert term.note["it"].split(".")[0] in out
