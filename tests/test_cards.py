"""The card database agrees with the source texts, and bad card data is reported clearly."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.cards import CytosisType, ImmuneType, Limit, load_cards
from generator.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SOURCES = DATA / "sources"


def source_lines(name: str) -> list[str]:
    return (SOURCES / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def cards():
    return load_cards(DATA)


# --------------------------------------------------------------------------- Cytosis


def component_list(lines: list[str], start: int, end: int) -> dict[str, int]:
    """``- 10 Enzyme Cards`` lines in [start, end] (1-based) -> {"Enzyme Cards": 10}."""
    out = {}
    for line in lines[start - 1:end]:
        m = re.match(r"^- (\d+) (.+?)\s*$", line)
        if m:
            out[m.group(2)] = int(m.group(1))
    return out


CYTOSIS_IT_NAMES = {
    "enzyme": "Carte Enzima", "protein-hormone": "Carte Ormone Proteico", "steroid-hormone": "Carte Ormone Steroideo",
    "steroid-hormone-receptor": "Carte Recettore Ormone Steroideo",
    "protein-hormone-receptor": "Carte Recettore Ormone Proteico", "macromolecule": "Carte Risorse Aggiuntive",
    "alcohol-detoxification": "Carte Detossificazione",
}
CYTOSIS_EN_NAMES = {
    "enzyme": "Enzyme Cards", "protein-hormone": "Protein Hormone Cards", "steroid-hormone": "Steroid Hormone Cards",
    "steroid-hormone-receptor": "Steroid Hormone Receptor Cards",
    "protein-hormone-receptor": "Protein Hormone Receptor Cards", "macromolecule": "Macromolecule Cards",
    "alcohol-detoxification": "Alcohol Detoxification Cards",
}


def test_cytosis_counts_per_type_match_both_component_lists(cards):
    cy = cards["cytosis"]
    it_list = component_list(source_lines("cytosis-it-1e.txt"), 19, 27)
    en_list = component_list(source_lines("cytosis-en-2e.txt"), 51, 59)
    assert sum(it_list.values()) == 43 and sum(en_list.values()) == 43
    for card_id, it_name in CYTOSIS_IT_NAMES.items():
        counts = dict(cy.card(card_id)["counts"])
        assert counts["it-1e"] == it_list[it_name], card_id
        assert counts["en-2e"] == en_list[CYTOSIS_EN_NAMES[card_id]], card_id


def test_cytosis_event_counts_2nd_edition(cards):
    cy = cards["cytosis"]
    listed = component_list(source_lines("cytosis-en-2e.txt"), 98, 104)
    expected = {
        "event-glucose-transporter-boost": listed["Glucose Transporter Boost Cards"],
        "event-nucleus-boost": listed["Nucleus Boost Cards"],
        "event-respiration-boost": listed["Respiration Boost Cards"],
        "event-smooth-er-boost": listed["Smooth ER Boost Card"],
        "event-reduce-atp-cost": listed["Reduce ATP Cost Cards"],
    }
    for card_id, n in expected.items():
        assert dict(cy.card(card_id)["counts"])["en-2e"] == n
    total = sum(dict(c["counts"]).get("en-2e") or 0 for c in cy.cards
                if c.type.value.startswith("event-"))
    assert total == 12
    assert "We removed the three Toxicity event cards" in source_lines("cytosis-en-2e.txt")[14]
    assert dict(cy.card("event-toxicity")["counts"]) == {"it-1e": 3, "en-2e": 0}


def test_cytosis_virus_epigenetic_goal_counts(cards):
    cy = cards["cytosis"]
    it = source_lines("cytosis-it-1e.txt")
    virus = component_list(it, 73, 77)
    assert sum(dict(c["counts"])["it-1e"] for c in cy.of_type(CytosisType.VIRUS_ATTACK)) == sum(virus.values()) == 6
    assert len(cy.of_type(CytosisType.EVENT_VIRUS)) == 3 and it[84] == "### 3 CARTE EVENTO"
    assert it[66] == "### 7 CARTE MODIFICAZIONE EPIGENETICA"
    epi = cy.of_type(CytosisType.EPIGENETIC)
    assert len(epi) == 7 and all(c.name.by_project("it") and c.name.by_project("en") for c in epi)
    assert all(c.text.source("it") == "it-1e" and c.text.by_project("en") for c in epi)
    assert dict(cy.card("goal")["counts"]) == {"it-1e": 5, "en-2e": 6}
    assert it[30] == "### 5 CARTE OBIETTIVO" and source_lines("cytosis-en-2e.txt")[78] == "### 6 GOAL CARDS"


def test_cytosis_example_cards_match_the_rulebooks(cards):
    cy = cards["cytosis"]
    it = "\n".join(source_lines("cytosis-it-1e.txt")[363:386])
    blocks = re.findall(r"\*\*(ROUGH|SMOOTH) ER\*\*.*?\*\*(\d+) PUNTI SALUTE\*\*.*?\*\*(\d+) SEGNALINI ATP\*\*\s*\n"
                        r"\*\*(\d+) RISORSE (PROTEINA|LIPIDI)\*\*\s*\n\*\*(\d+) RISORSA CARBOIDRATO\*\*", it, re.S)
    assert len(blocks) == 2
    by_spot = {b[0]: b for b in blocks}
    protein = cy.card("example-protein-hormone")
    _, hp, atp, n, kind, carb = by_spot["ROUGH"]
    assert kind == "PROTEINA" and protein["hp"] == int(hp) == 7
    assert {k.value: v for k, v in protein["cost"]} == {"atp": int(atp), "protein": int(n), "carb": int(carb)} == \
        {"atp": 2, "protein": 2, "carb": 1}
    steroid = cy.card("example-steroid-hormone")
    _, hp, atp, n, kind, carb = by_spot["SMOOTH"]
    assert kind == "LIPIDI" and steroid["hp"] == int(hp) == 9
    assert {k.value: v for k, v in steroid["cost"]} == {"atp": int(atp), "lipid": int(n), "carb": int(carb)}
    en = "\n".join(source_lines("cytosis-en-2e.txt")[386:418])
    assert "Trade 2 black mRNA" in en and "Pay the 2 **ATP**" in en and "Gain 7 Health Points" in en


def test_cytosis_group_entries_have_no_invented_values(cards):
    for card in cards["cytosis"].cards:
        if not card["example"] and card.type.value in {"enzyme", "protein-hormone", "steroid-hormone",
                                                       "protein-hormone-receptor", "steroid-hormone-receptor"}:
            assert card["hp"] is None and card["cost"] == (), card.id


def test_cytosis_pipelines(cards):
    cy = cards["cytosis"]
    spots = lambda cid: [s.spot.value for s in cy.card(cid)["pipeline"]]
    assert spots("protein-hormone") == ["rough-er", "golgi", "exocytosis"]
    assert spots("steroid-hormone") == ["smooth-er", "golgi", "exocytosis"]
    assert spots("steroid-hormone-receptor") == ["rough-er", "golgi", "exocytosis"]
    assert [r.value for r in cy.card("steroid-hormone-receptor")["pipeline"][1].puts] == ["lipid"]
    assert spots("enzyme") == ["free-ribosome", "cytoplasm"]


# --------------------------------------------------------------------------- quoted rule texts


def official_texts(card):
    """(field, language, source id, text) of every official (non-project) text of a card."""
    from generator.cards import Text
    fields = [("text", card.text)] + [(k, v) for k, v in card.fields if isinstance(v, Text)]
    fields += [(f"pipeline[{i}]", step.text) for i, step in enumerate(card.get("pipeline") or ())]
    for field, text in fields:
        for lang, value in text.values:
            if not text.by_project(lang):
                yield field, lang, text.source(lang), value


def rules_markdown(game: str) -> dict[str, str]:
    """Source id -> the cleaned rules Markdown of that source (``rules/<game>/game.yaml``)."""
    manifest = yaml.safe_load((DATA / "rules" / game / "game.yaml").read_text(encoding="utf-8"))
    return {s["id"]: (DATA / "rules" / game / s["rules"]).read_text(encoding="utf-8") for s in manifest["sources"]}


def paragraphs_not_in(value: str, corpus: str) -> tuple[int, list[str]]:
    """How many paragraphs ``value`` has, and those that are not found verbatim in ``corpus``."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", value.strip())]
    return len(paragraphs), [p for p in paragraphs if p not in corpus]


@pytest.mark.parametrize("game", ["cytosis", "ursuppe", "immune-response"])
def test_official_card_texts_quote_the_cleaned_rules_with_their_layout(cards, game):
    """A card's official text is quoted from the cleaned rules paragraph by paragraph, lists,
    tables and icon gaps ([…]) included: a text flattened onto one line fails here."""
    rules = rules_markdown(game)
    quoted, misquoted = 0, []
    for card in cards[game].cards:
        for field, lang, source, value in official_texts(card):
            if source not in rules:
                continue
            count, missing = paragraphs_not_in(value, rules[source])
            quoted += count
            misquoted += [f"{card.id}.{field}.{lang}: {p[:80]!r}" for p in missing]
    assert not misquoted, "\n".join(misquoted)
    assert quoted > 0


def project_texts(card):
    """(field, language, text) of every text of a card translated by this project."""
    from generator.cards import Text
    for field, text in [("text", card.text)] + [(k, v) for k, v in card.fields if isinstance(v, Text)]:
        for lang, value in text.values:
            if text.by_project(lang):
                yield field, lang, value


@pytest.mark.parametrize("game, card_prefix", [
    ("immune-response", ""), ("cytosis", "epigenetic-"), ("cytosis", "event-toxicity"), ("ursuppe", ""),
])
def test_card_translations_are_the_rules_pages_translations(cards, game, card_prefix):
    """Where the rules pages carry this project's translation of a card's text, the card shows the
    same translation, paragraph by paragraph (one translation per source paragraph on the site)."""
    translations = {lang: path.read_text(encoding="utf-8") for lang in ("it", "en")
                    if (path := DATA / "rules" / game / f"translations.{lang}.md").exists()}
    checked, different = 0, []
    for card in cards[game].cards:
        if not card.id.startswith(card_prefix):
            continue
        for field, lang, value in project_texts(card):
            if field != "text" or lang not in translations:
                continue
            count, missing = paragraphs_not_in(value, translations[lang])
            checked += count
            different += [f"{card.id}.{field}.{lang}: {p[:80]!r}" for p in missing]
    assert not different, "\n".join(different)
    assert checked > 0


# --------------------------------------------------------------------------- Ursuppe


def ursuppe_row(name: str) -> tuple[int, int, int, int, int]:
    """A clean table row reads: price, mutation points, NAME, copies 3, 4, 5-6 (one value per line)."""
    lines = [l.strip() for l in source_lines("ursuppe-it.txt")]
    i = lines.index(name, 1090)
    before = lines[i - 2:i]
    j = i + 1
    while not re.fullmatch(r"-?\d+", lines[j]):  # names printed on two lines (DORIS & FRANK / GENE)
        j += 1
    return int(before[0]), int(before[1]), *map(int, lines[j:j + 3])


@pytest.mark.parametrize("gene_id,printed", [
    ("doris-frank-gene", "DORIS & FRANK"), ("glutton", "GLUTTON"), ("movement-1", "MOVEMENT 1"),
    ("spores", "SPORES"), ("substitution", "SUBSTITUTION"), ("streamline", "STREAMLINE"),
    ("frugality", "FRUGALITY"), ("division-rate", "DIVISION RATE"), ("energy-conservation", "ENERGY"),
    ("healing-2", "HEALING 2"), ("movement-2", "MOVEMENT 2"),
])
def test_ursuppe_clean_rows_match_the_table(cards, gene_id, printed):
    gene = cards["ursuppe"].card(gene_id)
    if gene.type.value == "superior":  # superior rows: price, points, NAME, REPLACED GENE, copies
        lines = [l.strip() for l in source_lines("ursuppe-it.txt")]
        i = lines.index(printed, 1500)
        row = (int(lines[i - 2]), int(lines[i - 1]), *map(int, lines[i + 2:i + 5]))
    else:
        row = ursuppe_row(printed)
    assert (gene["price"], gene["mutation_points"], *dict(gene["copies"]).values()) == row


def test_ursuppe_mutation_example(cards):
    """Lines 613-624: Streamline + Division Rate + Speed = 12; giving back Speed and 3 BP balances 6."""
    text = " ".join(source_lines("ursuppe-it.txt")[612:624])
    assert "= 12" in text and "“Speed” e 3 BP" in text
    u = cards["ursuppe"]
    assert sum(u.card(g)["mutation_points"] for g in ("streamline", "division-rate", "speed")) == 12
    assert u.card("speed")["mutation_points"] + 3 == 6


def test_ursuppe_superior_genes_and_reconstructions(cards):
    u = cards["ursuppe"]
    assert u.card("movement-2")["replaces"] == ("movement-1",)
    assert u.card("armour")["replaces"] == ("defence", "escape")
    assert u.card("social-gene")["price"] == 4 and u.card("social-gene")["price_from_player"] == 2
    assert u.card("glutton")["mutation_points"] < 0 and u.card("ray-protection")["mutation_points"] == -2
    for gene in u.cards:  # 3-player decks are a subset of 4-player decks
        copies = dict(gene["copies"])
        assert copies["3"] <= copies["4"], gene.id
        if gene["price"] is None or gene["mutation_points"] is None:
            assert gene["reconstructed"] and gene.note is not None, gene.id
    normal = [g for g in u.cards if g.type.value == "normal"]
    prices = [g["price"] for g in normal if g["price"] is not None]
    assert prices == sorted(prices)  # the table is sorted by price: used to place displaced values
    assert len(normal) == 37 and len(u.cards) - len(normal) == 9


# --------------------------------------------------------------------------- Immune Response


def test_immune_response_properties_match_the_rules(cards):
    ir = cards["immune-response"]
    text = "\n".join(source_lines("immune-response-ru.txt"))
    assert "«Гигантская» (+1) и «Инфекция» (+2)" in text
    assert ir.card("giant")["extra_food"] == 1 and ir.card("infection")["extra_food"] == 2
    assert ir.card("t-killer")["extra_food"] is None  # amount not in the rules text
    for prop_id, ru in (("infection", "Инфекция"), ("t-killer", "Т-киллер"), ("giant", "Гигантская")):
        m = re.search(rf"«{ru}» \+ (\d) очк", text)
        assert m and ir.card(prop_id)["extra_points"] == int(m.group(1)), prop_id
    assert "**1 очко** за каждое свойство" in text and all(c["points"] == 1 for c in ir.cards)
    once = re.search(r"Свойства «Т-киллер», «Облегчённая диффузия» и «Мимикрия» могут быть использованы лишь один раз", text)
    assert once
    assert {c.id for c in ir.cards if c["limit"] is Limit.ONCE_PER_TURN} == {"t-killer", "facilitated-diffusion", "mimicry"}
    assert ir.card("g0-phase")["limit"] is Limit.EVERY_OTHER_TURN
    paired = {c.id for c in ir.cards if "Сыграть одновременно на пару" in c.text["ru"]}
    assert paired == {c.id for c in ir.of_type(ImmuneType.PAIRED_PROPERTY)} == {"nexus", "bilayer", "synapse"}
    assert len(ir.cards) == 19
    assert all(c.name.by_project("en") and c.name.by_project("it") and not c.name.by_project("ru") for c in ir.cards)


# --------------------------------------------------------------------------- bad input


GOOD_GENE = {
    "id": "speed", "type": "normal", "name": {"it": "Speed", "en": "Speed"}, "name_source": {"it": "s", "en": "s"},
    "text": {"it": "Testo.", "en": "Text."}, "text_source": {"it": "s", "en": "project"},
    "price": 4, "mutation_points": 3, "copies": {"3": 1, "4": 2, "5-6": 4}, "rules": ["genes.normal"],
    "source_lines": {"s": "1-2"},
}


def write_cards(tmp_path: Path, entries: list[dict]) -> Path:
    data = tmp_path / "data"
    (data / "sources").mkdir(parents=True)
    (data / "cards").mkdir()
    (data / "sources" / "s.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    doc = {"game": "ursuppe", "sources": {"s": "sources/s.txt"}, "cards": entries}
    (data / "cards" / "ursuppe.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return data


def problems_for(tmp_path: Path, entries: list[dict]) -> str:
    with pytest.raises(DataError) as info:
        load_cards(write_cards(tmp_path, entries))
    return str(info.value)


def test_good_minimal_file_loads(tmp_path):
    assert load_cards(write_cards(tmp_path, [GOOD_GENE]))["ursuppe"].card("speed")["price"] == 4


def test_unknown_type(tmp_path):
    msg = problems_for(tmp_path, [{**GOOD_GENE, "type": "mega"}])
    assert "cards/ursuppe.yaml:" in msg and "cards[0].type: entry 'speed': expected one of 'normal', 'superior', got 'mega'" in msg


def test_missing_translation(tmp_path):
    msg = problems_for(tmp_path, [{**GOOD_GENE, "text": {"it": "Testo."}}])
    assert "cards/ursuppe.yaml:" in msg and "cards[0].text: entry 'speed': missing translation 'en'" in msg


def test_negative_count(tmp_path):
    msg = problems_for(tmp_path, [{**GOOD_GENE, "copies": {"3": -1, "4": 2, "5-6": 4}}])
    assert "cards/ursuppe.yaml:" in msg and "entry 'speed'" in msg and "copies.3" in msg and "-1" in msg


def test_duplicate_id(tmp_path):
    msg = problems_for(tmp_path, [GOOD_GENE, dict(GOOD_GENE)])
    assert "cards/ursuppe.yaml:" in msg and "entry 'speed': duplicate id 'speed'" in msg


def test_all_problems_reported_at_once(tmp_path):
    msg = problems_for(tmp_path, [{**GOOD_GENE, "type": "mega"}, {**GOOD_GENE, "id": "b", "price": -2},
                                  {**GOOD_GENE, "id": "c", "source_lines": {"s": "2-9"}}])
    assert msg.startswith("3 problems") and "entry 'b'" in msg and "entry 'c'" in msg and "past the end" in msg
