"""Search (one index per site language, it/en/ru word handling; docs/assets/search.js) finds the
expected pages in the reader's language, labels them, and adds the other language on request."""
from __future__ import annotations


import pytest

from helpers import SITE
from helpers import COUNT_SHOWN, result_paths, search, search_count_text, switch_language

# (page the search starts from, query, a page that must be among the results)
CASES = [
    pytest.param("", "ribosoma", "cytosis/spots/", id="it-ribosoma"),
    pytest.param("", "beute", "cytosis/setup/", id="it-beute-plural"),
    pytest.param("en/", "ribosome", "en/cytosis/spots/", id="en-ribosome"),
    pytest.param("en/", "flasks", "en/cytosis/setup/", id="en-flasks"),
    # The Russian original of Immune Response is on the chapter pages (original-text tabs).
    pytest.param("", "Глюкоза", "immune-response/components/", id="ru-on-it-site"),
    pytest.param("en/", "фагоцитоз", "en/immune-response/intro/", id="ru-stemmed-on-en-site"),
    # Forgiving (issue 32): another number or inflection, a typo, a typo in a short word (relaxed query).
    pytest.param("", "ribosomi", "cytosis/spots/", id="it-plural-stemmed"),
    pytest.param("en/", "mitochondrion", "en/cytosis/spots/", id="en-other-number"),
    pytest.param("en/", "exocitosis", "en/cytosis/spots/", id="en-typo"),
    pytest.param("", "Tosicità", "cytosis/events/", id="it-typo"),
]


def _need(path: str) -> None:
    if not (SITE / path / "index.html").exists():
        pytest.fail(f"expected page {path} is not in the built site")


@pytest.mark.parametrize(("start", "query", "expected"), CASES)
def test_search_finds_expected_page(kept_tab, site_url, prefix, start, query, expected):
    _need(expected)
    # One tab per start page for all these cases (the index is built once): search() empties the box
    # and waits for the last query's results to go before it types the next.
    page = kept_tab(site_url + start)
    assert page.url == site_url + start, page.url
    results = search(page, query)
    assert prefix + expected in results, f"{query!r} from /{start}: {expected} not in {results}"


@pytest.mark.parametrize(("start", "query", "expected", "shown"), [
    # An English glossary term finds an Italian rules page that only shows the Italian form
    # (through the hidden counterpart text), and the other way round.
    pytest.param("", "Flask", "cytosis/setup/", "Beut", id="en-term-on-it-site"),
    pytest.param("en/", "Beuta", "en/cytosis/setup/", "Flask", id="it-term-on-en-site"),
    pytest.param("", "Exocytosis", "cytosis/spots/", "Esocitosi", id="en-term-on-it-site-2"),
])
def test_cross_language_search(page, site_url, prefix, start, query, expected, shown):
    _need(expected)
    page.goto(site_url + start)
    results = search(page, query)
    assert prefix + expected in results, f"{query!r} on /{start}: {expected} not in {results}"
    page.goto(site_url + expected)
    visible = page.locator("article").inner_text()
    assert shown in visible, f"{expected} does not show {shown!r}"
    assert query not in visible, f"{expected} shows {query!r} itself: not a cross-language match"


def test_no_results_offer_the_nearest_glossary_terms(kept_tab, site_url):
    page = kept_tab(site_url + "en/")
    assert search(page, "xqzqx") == []
    box = page.locator(".cellula-search-suggest")
    box.wait_for(state="visible")
    assert "No results. Nearest glossary terms:" in box.inner_text()
    assert box.locator("button.cellula-search-suggestion").count() >= 1


def test_a_mistyped_term_offers_did_you_mean_and_the_suggestion_searches_it(kept_tab, site_url, prefix):
    page = kept_tab(site_url)
    search(page, "Tossicta")
    box = page.locator(".cellula-search-suggest")
    box.wait_for(state="visible")
    assert "Forse cercavi:" in box.inner_text()
    box.locator("button.cellula-search-suggestion", has_text="Tossicità").click()
    page.wait_for_function("document.querySelector('input.md-search__input').value === 'Tossicità'")
    page.wait_for_function(
        "href => [...document.querySelectorAll('.md-search-result__item a.md-search-result__link')]"
        ".some(a => new URL(a.href).pathname === href)", arg=prefix + "cytosis/events/")
    page.wait_for_function("!document.querySelector('.cellula-search-suggest:not([hidden])')")  # a term as it is


def test_results_do_not_call_a_stemmed_word_missing(kept_tab, site_url):
    """Material marks a query word "missing" on a result when no indexed word starts with it; the index
    holds stems, so "ribosoma" (indexed "ribosom") would be marked missing on the results it found."""
    page = kept_tab(site_url)
    search(page, "ribosoma")
    assert page.locator(".md-search-result__item del").count() == 0


def test_search_highlight_lands_on_section(page, site_url, prefix):
    page.goto(site_url)
    search(page, "ribosoma")
    page.locator(".md-search-result__item a.md-search-result__link[href*='#']").first.click()
    page.wait_for_load_state()
    assert "h=ribosoma" in page.url
    page.locator("article mark").first.wait_for(state="attached", timeout=5_000)  # search.highlight


@pytest.mark.parametrize(("start", "query"), [pytest.param("", "quante beute con 4 giocatori", id="it"),
                                              pytest.param("en/", "how many flasks with 4 players", id="en")])
def test_a_page_entry_opens_at_its_best_section_highlighted(page, site_url, start, query):
    """Issue #66: Material links a result's page entry to the page top with nothing highlighted when
    the page itself did not match; it opens at the best-matching section (the first one listed)."""
    page.goto(site_url + start)
    search(page, query)
    item = page.locator(".md-search-result__item").first
    links = item.locator("a.md-search-result__link")
    page.wait_for_function("el => el.querySelector('a.md-search-result__link').dataset.cellulaSection === '1'",
                           arg=item.element_handle(), timeout=5_000)
    assert links.nth(0).get_attribute("href") == links.nth(1).get_attribute("href")
    links.nth(0).click()
    page.wait_for_load_state()
    assert "#" in page.url and "h=" in page.url
    page.locator("article mark").first.wait_for(state="attached", timeout=5_000)


INDEX_REQUESTED = "performance.getEntriesByType('resource').some(e => e.name.endsWith('/search/search_index.json'))"


def test_search_index_is_requested_only_when_the_reader_goes_to_search(page, site_url):
    """The index is most of a page's weight and a second of processor time to build: a page that
    is only read does not ask for it (theme override, main.html). Going to the search box asks for
    it, after the page has loaded, and search works."""
    page.goto(site_url + "en/cytosis/setup/")
    page.wait_for_load_state("networkidle")
    assert not page.evaluate(INDEX_REQUESTED)
    assert "en/cytosis/spots/" in " ".join(search(page, "ribosome"))
    index_start, load_start = page.evaluate(
        "[performance.getEntriesByType('resource').find(e => e.name.endsWith('/search/search_index.json')).startTime,"
        " performance.getEntriesByType('navigation')[0].loadEventStart]")
    assert load_start > 0 and index_start >= load_start, (index_start, load_start)


@pytest.mark.parametrize("how", ["pointer", "button"])
def test_pointing_at_search_starts_loading_the_index(page, site_url, how):
    """The index starts loading while the reader is on the way to the search box: the pointer over
    it (desktop), or the header's search button (narrow screens, which opens the dialog)."""
    if how == "button":
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + "cytosis/setup/")
    page.wait_for_load_state("networkidle")
    assert not page.evaluate(INDEX_REQUESTED)
    if how == "pointer":
        page.locator(".md-search").first.hover()
    else:
        page.locator("label.md-header__button[for=__search]").click()
    page.wait_for_function(INDEX_REQUESTED)


def test_an_address_with_a_query_searches_at_once(page, site_url):
    """An address with ?q= opens the search with that query (Material's deep link): the index is
    asked for without the reader touching anything."""
    page.goto(site_url + "en/?q=ribosome")
    page.wait_for_function(f"() => {COUNT_SHOWN}")
    paths = result_paths(page, ".md-search-result__item a.md-search-result__link")
    assert any(path.endswith("/en/cytosis/spots/") for path in paths), paths


# --- Reader's language first, language labels, the switch to the other language -------------------

OTHER_LANGUAGE_KEY = "cellula.search.other"


def _result_languages(page) -> list[str]:
    """The language label of every result page, in order."""
    return page.locator(".md-search-result__item > a.md-search-result__link:first-child .cellula-search-lang"
                        ).evaluate_all("tags => tags.map(t => t.textContent.trim())")


SWITCH_TIMEOUT_MS = 60_000
"""How long the other-language switch may take to re-index the search worker and re-run the query."""


@pytest.mark.parametrize(("start", "query", "mine", "other"), [
    pytest.param("", "ribosoma", "IT", "EN", id="it"),
    pytest.param("en/", "ribosome", "EN", "IT", id="en"),
])
def test_results_carry_language_labels_and_the_switch_adds_the_other_language(
        page, site_url, start, query, mine, other):
    page.goto(site_url + start)
    page.evaluate(f"localStorage.removeItem('{OTHER_LANGUAGE_KEY}')")
    try:
        search(page, query)
        labels = _result_languages(page)
        assert labels and set(labels) == {mine}, labels
        # The switch: the other language's pages come in, after the reader's language ones.
        count = search_count_text(page)
        page.locator(".cellula-search-other input[type=checkbox]").check()
        page.wait_for_function(
            "before => document.querySelector('.md-search-result__meta').textContent.trim() !== before",
            arg=count, timeout=SWITCH_TIMEOUT_MS)
        search(page, query)  # every result page, in order
        labels = _result_languages(page)
        assert mine in labels and other in labels, labels
        assert labels == sorted(labels, key=lambda tag: tag != mine), f"reader's language not first: {labels}"
        # Off again: the switch runs the query again on the reader's language alone.
        page.locator(".cellula-search-other input[type=checkbox]").uncheck()
        page.wait_for_function(
            "before => document.querySelector('.md-search-result__meta').textContent.trim() === before",
            arg=count, timeout=SWITCH_TIMEOUT_MS)
        search(page, query)
        assert search_count_text(page) == count
        assert set(_result_languages(page)) == {mine}
    finally:
        page.evaluate(f"localStorage.removeItem('{OTHER_LANGUAGE_KEY}')")


_WORKER_MESSAGES = """
(() => {
  // Counts what the page asks the search worker and what it answers (set before the page's scripts).
  const Real = window.Worker;
  window.__searchTraffic = { asked: 0, answered: 0 };
  function Counted(url, options) {
    const worker = new Real(url, options);
    if (!/search/.test(String(url))) return worker;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = message => { window.__searchTraffic.asked++; return post(message); };
    worker.addEventListener("message", () => { window.__searchTraffic.answered++; });
    window.__searchWorker = worker;
    return worker;
  }
  Counted.prototype = Real.prototype;
  window.Worker = Counted;
})();
"""


@pytest.mark.parametrize(("start", "query"), [pytest.param("", "ribosoma", id="it"),
                                              pytest.param("en/", "ribosome", id="en")])
def test_an_earlier_querys_empty_result_does_not_relax_the_next_query(page, site_url, start, query):
    """The worker answers queries in order. When the box is cleared and a word typed before the
    answer to the cleared box arrives (as under load), that empty answer belongs to the empty query:
    the word's own results are shown, not the relaxed (fuzzy) ones its retry would find."""
    page.add_init_script(_WORKER_MESSAGES)
    page.goto(site_url + start)
    assert search(page, query)
    expected = search_count_text(page)
    settled = "() => window.__searchTraffic.asked === window.__searchTraffic.answered"
    page.wait_for_function(settled)
    # Both messages go out before either answer can come back (one task of the page).
    page.evaluate("""q => { const w = window.__searchWorker;
                           w.postMessage({ type: 2, data: "" }); w.postMessage({ type: 2, data: q }); }""", query)
    page.wait_for_function(settled)
    assert search_count_text(page) == expected


def test_stop_words_do_not_match(kept_tab, site_url):
    """Material appends a wildcard to every word: "a" would match every word starting with a. The
    stop words are dropped from the query, so a question finds what its content words find ("how
    many" is no stop word: it asks for a count, data/search/paraphrases.yaml)."""
    page = kept_tab(site_url + "en/")
    question = search(page, "how many flasks in a 4-player game")
    plain = search(page, "how many flasks 4-player game")  # without "in", "a"
    assert question[:3] == plain[:3], (question[:3], plain[:3])
    assert question[0].endswith("/en/cytosis/setup/"), question[:3]  # the rule stating the count


# --- Permanent links: rule numbers, copy-link, the language switch keeping the place -------------

def test_rule_numbers_are_the_same_in_both_languages():
    import re
    for chapter in ("setup", "spots", "scoring"):
        numbers = {}
        for lang in ("", "en/"):
            html = (SITE / lang / "cytosis" / chapter / "index.html").read_text(encoding="utf-8")
            numbers[lang] = re.findall(r'<h2 data-rule-number="([\d.]+)" id="([^"]+)"', html)
        assert numbers[""] and numbers[""] == numbers["en/"], chapter


def test_copy_link_copies_the_sections_permanent_link(page, context, site_url):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url.split("/cellula/")[0])
    page.goto(site_url + "cytosis/setup/")
    head = page.locator("h2#setup-player-pieces")
    assert head.get_attribute("data-rule-number")
    head.locator(".cellula-copy-link").click()
    head.locator(".cellula-copy-status").filter(has_text="Link copiato").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == site_url + "cytosis/setup/#setup-player-pieces"


@pytest.mark.parametrize(("start", "hreflang", "expected"), [
    pytest.param("cytosis/setup/#setup-player-pieces", "en", "en/cytosis/setup/#setup-player-pieces", id="anchor-it-en"),
    pytest.param("en/cytosis/spots/#spots-golgi", "it", "cytosis/spots/#spots-golgi", id="anchor-en-it"),
    pytest.param("cards/cytosis/?q=Enzima", "en", "en/cards/cytosis/?q=Enzima", id="filters-it-en"),
])
def test_language_switch_keeps_anchor_and_filters(page, site_url, start, hreflang, expected):
    page.goto(site_url + start)
    switch_language(page, hreflang)
    page.wait_for_url(site_url + expected)


def test_language_switch_keeps_filters_changed_on_the_page(page, site_url):
    """Card filters rewrite the address as the reader types; the switch takes the current one."""
    page.goto(site_url + "en/cards/cytosis/")
    page.locator("#card-filters").wait_for(state="visible")
    page.fill("#card-q", "Golgi")
    page.wait_for_function("() => new URLSearchParams(location.search).get('q') === 'Golgi'")
    switch_language(page, "it")
    page.wait_for_url(site_url + "cards/cytosis/?q=Golgi")
    assert page.input_value("#card-q") == "Golgi"
