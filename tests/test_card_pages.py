"""The card database pages (generator/card_pages.py): pages, anchors, "not in the rulebooks", rule links
both ways, the filter form's hooks, escaping, and the loader's check of ``rules:`` references."""
from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import markdown
import pytest

from generator import card_pages
from generator.cards import GAMES, Text
from generator.errors import DataError
from generator.pages import game_pages
from generator.rules import SITE_LANGUAGES
from generator.site import load_site
from generator.cards import CARD_SETS

ROOT = Path(__file__).resolve().parent.parent
RULE_LINK = re.compile(r"\]\(\.\./(?P<game>[a-z0-9-]+)/(?P<chapter>[a-z0-9-]+)\.md#(?P<anchor>[a-z0-9-]+)\)")
MISSING = {"it": "non indicato nei regolamenti", "en": "not in the rulebooks"}


@pytest.fixture(scope="module")
def pages(real_site):
    """Every card page of the real data, by (language, path)."""
    return {(p.lang, p.path): p for lang in SITE_LANGUAGES for p in card_pages.produce(real_site, lang)}


@pytest.fixture
def real_data_copy(tmp_path: Path) -> Path:
    """A writable copy of the project's data folder."""
    target = tmp_path / "data"
    shutil.copytree(ROOT / "data", target)
    return target


def article(content: str, card_id: str) -> str:
    """The HTML of one card's article in a page's Markdown source."""
    start = content.index(f'<article class="cellula-card" id="{card_id}"')
    return content[start:content.index("</article>", start)]


def to_html(content: str) -> str:
    """The page's Markdown as HTML, with the site's HTML-related extensions."""
    body = content.split("---", 2)[2]
    return markdown.markdown(body, extensions=["md_in_html", "attr_list", "abbr", "tables"])


# --------------------------------------------------------------------------- pages and anchors


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("path", ["cards/index.md", *(f"cards/{g}.md" for g in GAMES)])
def test_card_pages_exist_in_every_language(pages, lang, path):
    page = pages[(lang, path)]
    assert page.nav == (card_pages.UI[lang]["nav"],)
    assert page.content.startswith("---\ntitle: ")


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_index_lists_every_game_with_its_entry_count(real_site, pages, lang):
    content = pages[(lang, "cards/index.md")].content
    for game, card_set in real_site.get(CARD_SETS).items():
        assert re.search(rf"\]\({re.escape(game)}\.md\) \| {len(card_set.cards)} \|", content), game


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_its_permalink_anchor(real_site, pages, game, lang):
    content = pages[(lang, f"cards/{game}.md")].content
    cards = real_site.get(CARD_SETS)[game].cards
    assert cards
    for card in cards:
        html = article(content, card.id)
        assert f'<a class="headerlink" href="#{card.id}"' in html
        assert content.count(f' id="{card.id}"') == 1, card.id


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("game, field, label", [
    ("cytosis", "hp", {"it": "Punti Salute", "en": "Health Points"}),
    ("ursuppe", "price", {"it": "Prezzo (BP)", "en": "Price (BP)"}),
    ("ursuppe", "mutation_points", {"it": "Punti Mutazione", "en": "Mutation points"}),
    ("immune-response", "extra_food", {"it": "Cibo in più", "en": "Extra food"}),
    ("immune-response", "copies", {"it": "Copie", "en": "Copies"}),
])
def test_null_values_say_not_in_the_rulebooks(real_site, pages, game, field, label, lang):
    nulls = [c for c in real_site.get(CARD_SETS)[game].cards if field in dict(c.fields) and c[field] is None
             and (game != "cytosis" or c.type in card_pages.CELL_COMPONENT_TYPES)]
    assert nulls, f"no {game} card without {field}: pick another field"
    for card in nulls:
        html = article(pages[(lang, f"cards/{game}.md")].content, card.id)
        assert f'<dt>{label[lang]}</dt><dd class="cellula-missing">{MISSING[lang]}</dd>' in html, card.id


@pytest.mark.parametrize("game", GAMES)
def test_no_page_shows_a_python_none(pages, game):
    for lang in SITE_LANGUAGES:
        assert "None" not in pages[(lang, f"cards/{game}.md")].content


@pytest.mark.parametrize("game", GAMES)
def test_filter_values_match_the_data(real_site, pages, game):
    """``data-cost``/``data-points`` carry the card's numbers (empty where the rulebooks give none)."""
    content = pages[("en", f"cards/{game}.md")].content
    given = 0
    for card in real_site.get(CARD_SETS)[game].cards:
        html = article(content, card.id)
        for metric in card_pages.Metric:
            value = card_pages.metric_value(game, card, metric)
            given += value is not None
            assert f'data-{metric.value}="{"" if value is None else value}"' in html, (card.id, metric)
            if value is not None:
                assert f"<dd>{value}</dd>" in html or f"{value} ATP" in html, (card.id, metric)
    assert given


def test_cytosis_events_have_no_cost_or_health_rows(pages):
    html = article(pages[("en", "cards/cytosis.md")].content, "event-boost")
    assert "Health Points" not in html and "<dt>Cost</dt>" not in html


@pytest.mark.parametrize("lang, original", [("it", "Т-киллер"), ("en", "Т-киллер")])
def test_immune_response_cards_show_the_russian_original(pages, lang, original):
    html = article(pages[(lang, "cards/immune-response.md")].content, "t-killer")
    assert original in html
    assert "cellula-card__original" in html  # the Russian text, under the project's translation


def test_ursuppe_english_page_shows_the_italian_text_and_marks_the_translation(pages):
    html = article(pages[("en", "cards/ursuppe.md")].content, "glutton")
    assert "Original text (Italian)" in html
    assert "cellula-prov--translation" in html and "Translation by the Cellula project" in html


def test_names_coined_by_the_project_are_marked(pages):
    html = article(pages[("it", "cards/cytosis.md")].content, "epigenetic-atp-exchange")
    assert "Nome dato dal progetto Cellula" in html


def test_cytosis_pipeline_lists_the_spots_in_order(pages):
    html = article(pages[("en", "cards/cytosis.md")].content, "protein-hormone")
    assert "Completion: Rough ER → Golgi Apparatus → Exocytosis" in html


# --------------------------------------------------------------------------- rule links both ways


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_rule_links_point_at_existing_section_anchors(real_site, pages, game, lang):
    content = pages[(lang, f"cards/{game}.md")].content
    chapters = {c.id: {real_site.games[game].sections[s].anchor for s in c.sections}
                for c in real_site.games[game].chapters}
    links = RULE_LINK.findall(content)
    assert links
    for link_game, chapter, anchor in links:
        assert link_game == game
        assert anchor in chapters[chapter], (chapter, anchor)


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_every_rules_entry_of_a_card_is_linked(real_site, pages, lang):
    card = real_site.get(CARD_SETS)["cytosis"].card("enzyme")
    html = article(pages[(lang, "cards/cytosis.md")].content, "enzyme")
    for section_id in card.rules:
        assert f"#{section_id.replace('.', '-')})" in html


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_rule_links_of_a_card_have_distinct_labels(real_site, lang, game):
    """Two sections of one title (T-killer in the properties and in the special cases) are told
    apart by their chapter."""
    for card in real_site.get(CARD_SETS)[game].cards:
        labels = [link.label for link in card_pages.rule_links(real_site, game, card, lang)]
        assert len(labels) == len(set(labels)), (card.id, labels)


def sections_by_use(real_site, game: str) -> dict[str, list[str]]:
    """Section id -> ids of the cards whose ``rules:`` list it."""
    out: dict[str, list[str]] = {}
    for card in real_site.get(CARD_SETS)[game].cards:
        for section_id in card.rules:
            out.setdefault(section_id, []).append(card.id)
    return out


def chapter_content(real_site, game: str, section_id: str, lang: str) -> str:
    chapter = real_site.games[game].sections[section_id].chapter
    return next(p.content for p in game_pages(real_site, real_site.games[game], lang)
                if p.path == f"{game}/{chapter}.md")


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
@pytest.mark.parametrize("game", ["cytosis", "immune-response"])  # every Ursuppe section has many genes
def test_chapter_pages_link_back_to_the_cards(real_site, game, lang):
    few = [(s, cards) for s, cards in sections_by_use(real_site, game).items() if len(cards) <= card_pages.MAX_CARD_LINKS]
    section_id, cards = few[0]
    content = chapter_content(real_site, game, section_id, lang)
    label = card_pages.UI[lang]["card"]
    for card_id in cards:
        name = real_site.get(CARD_SETS)[game].card(card_id).name[lang]
        assert f'[{label}: {name}](../cards/{game}.md#{card_id})' in content
        assert name.replace("<", "&lt;") in content


@pytest.mark.parametrize("game", ["cytosis", "ursuppe"])
def test_sections_used_by_many_cards_link_the_filtered_list(real_site, game):
    many = [s for s, cards in sections_by_use(real_site, game).items() if len(cards) > card_pages.MAX_CARD_LINKS]
    assert many
    content = chapter_content(real_site, game, many[0], "en")
    assert f'](../cards/{game}.md?rule={many[0]})' in content
    card_page = card_pages.game_page(real_site, real_site.get(CARD_SETS)[game], "en").content
    assert f'<option value="{many[0]}">' in card_page


@pytest.mark.parametrize("from_page, to_page, url", [
    ("cytosis/cards.md", "cards/cytosis.md", "../../cards/cytosis/"),
    ("cytosis/compare/cards.md", "cards/cytosis.md", "../../../cards/cytosis/"),
    ("cytosis/index.md", "cards/cytosis.md", "../cards/cytosis/"),
    ("index.md", "cards/ursuppe.md", "cards/ursuppe/"),
    ("cards/cytosis.md", "cards/index.md", "../"),
])
def test_served_url_follows_directory_urls(from_page, to_page, url):
    assert card_pages.served_url(from_page, to_page) == url


# --------------------------------------------------------------------------- filter form hooks


@pytest.mark.parametrize("hook", [
    '<form id="card-filters"', 'name="type"', 'name="q"', 'name="rule"', 'name="min_cost"', 'name="max_cost"',
    'name="min_points"', 'name="max_points"', 'name="sort"', 'id="card-count"', 'aria-live="polite"',
    '<div class="cellula-cards" id="card-list"',
])
@pytest.mark.parametrize("game", GAMES)
def test_filter_form_has_the_stable_hooks(pages, game, hook):
    assert hook in pages[("it", f"cards/{game}.md")].content


@pytest.mark.parametrize("game", GAMES)
def test_every_filter_control_has_a_label(pages, game):
    content = pages[("en", f"cards/{game}.md")].content
    form = content[content.index('<form id="card-filters"'):content.index("</form>")]
    ids = re.findall(r'<(?:input|select) [^>]*id="([^"]+)"', form)
    assert len(ids) >= 7
    for control in ids:
        assert f'<label for="{control}">' in form, control


def test_form_is_invisible_until_the_script_runs(pages):
    """Without JavaScript the controls would do nothing: they stay invisible (their space kept, so the
    page does not shift when the script shows them) and every card shows."""
    content = pages[("en", "cards/ursuppe.md")].content
    assert re.search(r'<form id="card-filters"[^>]* data-pending', content)
    assert "[data-pending] { visibility: hidden; }" in (ROOT / "docs/assets/cards.css").read_text(encoding="utf-8")
    assert not re.search(r'<article [^>]*hidden', content)


# --------------------------------------------------------------------------- escaping


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_data_text_is_escaped(real_site, lang):
    card_set = real_site.get(CARD_SETS)["ursuppe"]
    first = card_set.cards[0]
    evil = '<script>alert("x")</script> & "quoted" <b>bold</b>'
    langs = tuple(lang for lang, _ in first.name.values)
    hostile = dataclasses.replace(
        first, name=Text(tuple((l, evil) for l in langs), first.name.sources),
        text=Text(tuple((l, evil) for l in langs), first.text.sources))
    page = card_pages.game_page(real_site, dataclasses.replace(card_set, cards=(hostile,) + card_set.cards[1:]), lang)
    html = to_html(page.content)
    assert "<script>alert" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert" in html or "&lt;script>alert" in html
    assert 'data-name="&lt;script&gt;alert(&quot;x&quot;)' in page.content


def test_headings_in_card_texts_do_not_become_headings():
    assert card_pages.card_markdown("# Example\nText\n  ## Sub ##") == "**Example**\nText\n**Sub**"


# --------------------------------------------------------------------------- loader


def test_unknown_rule_section_is_reported_with_file_and_entry(real_data_copy):
    file = real_data_copy / "cards" / "ursuppe.yaml"
    text = file.read_text(encoding="utf-8")
    first = "rules: [genes.normal, phases.new-genes]"
    assert first in text
    file.write_text(text.replace(first, "rules: [genes.no-such-rule, phases.new-genes]", 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_site(real_data_copy)
    problems = [p for p in info.value.problems if "genes.no-such-rule" in p.message]
    assert len(problems) == 1
    problem = problems[0]
    assert problem.file.endswith("cards/ursuppe.yaml")
    assert problem.where == "cards[0].rules[0]"
    assert "entry 'doris-frank-gene'" in problem.message
    assert problem.line is not None


def test_bad_card_file_is_reported_with_the_other_problems(real_data_copy):
    file = real_data_copy / "cards" / "immune-response.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("type: property", "type: spell", 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_site(real_data_copy)
    assert any(p.file.endswith("cards/immune-response.yaml") and "'spell'" in p.message for p in info.value.problems)


def test_no_card_folder_means_no_card_pages(data_dir):
    site = load_site(data_dir)
    assert site.get(CARD_SETS) == {}
    assert card_pages.produce(site, "it") == []
