"""The two reconstructions of the Ursuppe gene tables agree.

The gene card values were read twice from the interleaved extraction ``data/sources/ursuppe-it.txt``:
as the Markdown tables of the rules sections ``genes.normal`` / ``genes.superior`` (Italian in
``it.md``, English in ``translations.en.md``) and as data in ``data/cards/ursuppe.yaml``. Every row of
both tables, in both languages, must give the same name, price, mutation points, copies per player
count and replaced gene as the card data. A value the source cannot settle is ``null`` in the card
data and, in the tables, shown as ``value *(?)*`` with an editorial note of the section
(``rules/ursuppe/notes.yaml``, starting with ``*(?)*``) naming the gene.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.cards import load_cards
from generator.errors import Problems
from generator.rules import load_game

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SOURCE = DATA / "sources" / "ursuppe-it.txt"

UNCERTAIN = "*(?)*"
"""Marker after a table value the source cannot settle (and at the start of the line explaining it)."""

COLUMNS = {
    "it": {"Prezzo": "price", "Punti Mutazione": "mutation_points", "Nome del Gene": "name",
           "Gene da Dare In Cambio": "replaces", "N° Carte per 3 Giocatori": "3",
           "N° Carte per 4 Giocatori": "4", "N° Carte per 5-6 Giocatori": "5-6", "Descrizione": "text"},
    "en": {"Price": "price", "Mutation Points": "mutation_points", "Gene name": "name",
           "Gene to give in exchange": "replaces", "Cards with 3 players": "3",
           "Cards with 4 players": "4", "Cards with 5-6 players": "5-6", "Description": "text"},
}
"""Table header -> field, per language."""
OR = {"it": " o ", "en": " or "}
"""How the tables write "either of two genes" in the replaced-gene column."""
SECTIONS = {"normal": "genes.normal", "superior": "genes.superior"}
CELL = re.compile(r"^(?P<value>-?\d+)(?: \((?P<from_player>\d+)\))?(?P<mark> \*\(\?\)\*)?$")


@pytest.fixture(scope="module")
def genes():
    return load_cards(DATA)["ursuppe"]


@pytest.fixture(scope="module")
def game():
    problems = Problems()
    loaded = load_game(DATA / "rules" / "ursuppe", DATA, problems)
    assert not problems.items, "\n".join(map(str, problems.items))
    return loaded


def parse_table(body: str, lang: str) -> tuple[list[dict[str, str]], list[str]]:
    """The section's one Markdown table as rows {field: cell}, and the body lines after the table."""
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[start:end]]
    header, separator, *rows = cells
    assert all(re.fullmatch(r":?-+:?", c) for c in separator)
    fields = [COLUMNS[lang][h] for h in header]
    assert all(len(r) == len(fields) for r in rows)
    return [dict(zip(fields, r)) for r in rows], lines[end:]


def cell(value: str) -> tuple[int, int | None, bool]:
    """``"4"`` -> (4, None, False); ``"4 (2)"`` -> (4, 2, False); ``"5 *(?)*"`` -> (5, None, True)."""
    m = CELL.match(value)
    assert m, f"unreadable table value {value!r}"
    return int(m["value"]), int(m["from_player"]) if m["from_player"] else None, bool(m["mark"])


def same_name(printed: str, card) -> bool:
    """The table name is the card's name, or a misprint of it that the card's note quotes."""
    if printed.casefold() == card.name["en"].casefold():
        return True
    return card.note is not None and all(f'"{printed}"' in card.note[lang] for lang in ("it", "en"))


def compare_row(row: dict[str, str], card, by_name: dict[str, str], lang: str) -> list[str]:
    """Every disagreement between one table row and its card entry."""
    out = []
    if not same_name(row["name"], card):
        out.append(f"name {row['name']!r} vs {card.name['en']!r}")
    for key in ("price", "mutation_points"):
        value, from_player, uncertain = cell(row[key])
        expected = card[key]
        if uncertain and expected is not None:
            out.append(f"{key}: table marks {row[key]!r} uncertain, card data says {expected}")
        elif not uncertain and value != expected:
            out.append(f"{key}: table {row[key]!r}, card data {expected}")
        if key == "price" and from_player != card["price_from_player"]:
            out.append(f"price from a player: table {row[key]!r}, card data {card['price_from_player']}")
    copies = dict(card["copies"])
    for players in ("3", "4", "5-6"):
        value, _, uncertain = cell(row[players])
        if (None if uncertain else value) != copies[players]:
            out.append(f"copies for {players} players: table {row[players]!r}, card data {copies[players]}")
    if "replaces" in row:
        replaced = tuple(by_name[n.casefold()] for n in row["replaces"].split(OR[lang]))
        if replaced != card["replaces"]:
            out.append(f"replaces: table {row['replaces']!r} {replaced}, card data {card['replaces']}")
    elif card["replaces"]:
        out.append(f"replaces: not in the table, card data {card['replaces']}")
    return [f"{lang} {SECTIONS[card.type.value]} {card.id}: {p}" for p in out]


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("kind", ["normal", "superior"])
def test_gene_table_agrees_with_card_data(game, genes, kind, lang):
    rows, after = parse_table(game.sections[SECTIONS[kind]].texts[lang].body, lang)
    cards = genes.of_type(kind)
    assert len(rows) == len(cards), f"{lang} {kind}: {len(rows)} table rows, {len(cards)} card entries"
    by_name = {c.name["en"].casefold(): c.id for c in genes.cards}
    explained = after + [note.text[lang] for note in game.notes.get(SECTIONS[kind], ())]
    problems = []
    for row, card in zip(rows, cards):  # the card file lists the genes in table order
        problems += compare_row(row, card, by_name, lang)
        marked = any(UNCERTAIN in row[k] for k in ("price", "mutation_points", "3", "4", "5-6"))
        if marked and not any(l.startswith(UNCERTAIN) and row["name"] in l for l in explained):
            problems.append(f"{lang} {card.id}: uncertain value without a {UNCERTAIN} note naming {row['name']!r}")
        if marked and not (card["reconstructed"] and card.note):
            problems.append(f"{lang} {card.id}: uncertain value, but the card entry has no reconstruction note")
    assert not problems, "\n".join(problems)


def test_unsettled_values_are_explained(genes):
    """A null value in the card data is a reconstruction the note explains (possible readings)."""
    for card in genes.cards:
        if card["price"] is None or card["mutation_points"] is None:
            assert card["reconstructed"] and card.note, card.id
            assert re.search(r" (o|oppure) ", card.note["it"]) and " or " in card.note["en"], card.id  # the readings


# --------------------------------------------------------------------------- evidence used to settle values


def source() -> list[str]:
    return [line.strip() for line in SOURCE.read_text(encoding="utf-8").splitlines()]


def values(lines: list[str], first: int, last: int) -> Counter:
    """Numbers printed on source lines first..last (1-based), as a multiset ("4 (2)" counts as 4)."""
    return Counter(int(line.split()[0]) for line in lines[first - 1:last] if re.fullmatch(r"-?\d+( \(\d+\))?", line))


def test_copies_add_up_to_the_declared_card_totals(genes):
    """Base game: "33 Carte Gene (incluse 3 bianche)" (line 58); 5-6 expansion: "26 Geni aggiuntivi"
    (line 892). The 26 single-copy genes (1/1/1) are the new ones; the other 20 genes are the base game,
    and their 4-player copies add up to the 30 printed base cards."""
    lines = source()
    assert lines[57] == "33 Carte Gene (incluse 3 bianche)." and "26 Geni aggiuntivi" in lines[891]
    base = [g for g in genes.cards if tuple(dict(g["copies"]).values()) != (1, 1, 1)]
    assert len(genes.cards) - len(base) == 26
    assert sum(dict(g["copies"])["4"] for g in base) == 33 - 3
    # the superior genes the rules name as base-game genes (line 431) are among them
    assert {"persistence", "movement-2", "aggression", "armour"} <= {g.id for g in base}
    assert not {g.id for g in base} & {"phd", "environmental-sensing", "camouflage-2", "healing-2", "suction-2"}


def test_copies_grow_with_the_player_count(genes):
    for g in genes.cards:
        c = dict(g["copies"])
        assert c["3"] <= c["4"] <= c["5-6"], g.id


def test_tables_are_sorted_by_price_and_new_genes_by_points_and_name(genes):
    """Both tables are sorted by price. The 26 new genes were merged into the base table in
    (price, mutation points, name) order: every new gene with known values sits between neighbours
    that are not greater / not smaller. Only base genes keep an older order (Holding, Struggle for
    Survival, Aggression). This is what places the column-block values of lines 1214-1220."""
    for kind in ("normal", "superior"):
        rows = genes.of_type(kind)
        prices = [g["price"] for g in rows if g["price"] is not None]
        assert prices == sorted(prices), kind
        key = lambda g: (g["price"], g["mutation_points"], g.name["en"].casefold())  # noqa: E731
        known = [g for g in rows if g["price"] is not None and g["mutation_points"] is not None]
        for i, g in enumerate(known):
            if tuple(dict(g["copies"]).values()) != (1, 1, 1):
                continue
            if i > 0:
                assert key(known[i - 1]) <= key(g), (known[i - 1].id, g.id)
            if i + 1 < len(known):
                assert key(g) <= key(known[i + 1]), (g.id, known[i + 1].id)


@pytest.mark.parametrize("lines,gene_ids", [
    # price/points blocks printed apart from their rows, with the values displaced from other rows
    (((1163, 1163), (1214, 1220)), ("hard-crust", "highly-adaptable", "more-than-a-mouthful", "social-gene")),
    (((1234, 1241),), ("speed", "camouflage-1", "defence", "escape")),
    (((1375, 1378),), ("tentacle", "holding")),
    (((1473, 1473), (1495, 1495)), ("parasitism",)),
    (((1546, 1549),), ("persistence", "camouflage-2")),
    (((1621, 1626),), ("aggression", "armour", "suction-2")),
])
def test_reconstructed_blocks_use_exactly_the_printed_values(genes, lines, gene_ids):
    """Each column block's printed numbers are exactly the prices and points of its rows (a null
    value stands for one of the block's numbers; the note lists which)."""
    text = source()
    printed = sum((values(text, a, b) for a, b in lines), Counter())
    used = Counter(v for g in gene_ids for v in (genes.card(g)["price"], genes.card(g)["mutation_points"]) if v is not None)
    missing = sum(1 for g in gene_ids for k in ("price", "mutation_points") if genes.card(g)[k] is None)
    assert not used - printed and sum((printed - used).values()) == missing, (printed, used)


@pytest.mark.parametrize("lines,gene_ids", [
    ((1226, 1233), ("hard-crust", "highly-adaptable", "more-than-a-mouthful", "social-gene")),
    ((1246, 1253), ("speed", "camouflage-1", "defence", "escape")),
    ((1381, 1384), ("tentacle", "holding")),
    ((1496, 1497), ("parasitism",)),
    ((1556, 1559), ("persistence", "camouflage-2")),
    ((1635, 1640), ("aggression", "armour", "suction-2")),
])
def test_reconstructed_copy_blocks_use_exactly_the_printed_values(genes, lines, gene_ids):
    printed = values(source(), *lines)
    used = Counter(dict(genes.card(g)["copies"])[p] for g in gene_ids for p in ("3", "4"))
    assert printed == used, (printed, used)


def test_every_gene_that_loses_damage_points_has_a_correcting_note():
    """Amoebas receive damage points (DP); a gene row the source words as 'losing' DP ('perdere solo 1 DP')
    carries a correction note naming the gene, so the reader is not left with the source's slip."""
    root = Path(__file__).resolve().parent.parent / "data" / "rules" / "ursuppe"
    rows = [line for line in (root / "it.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("|") and re.search(r"\bpers[oa]? solo \d+ DP|\bperdere solo \d+ DP", line)]
    genes = [next(cell.strip() for cell in row.split("|") if re.fullmatch(r"[A-Z][A-Z ]{3,}", cell.strip())) for row in rows]
    assert len(genes) == 2
    notes = yaml.safe_load((root / "notes.yaml").read_text(encoding="utf-8"))["notes"]
    for gene in genes:
        assert any(n["kind"] == "correction" and n["text"]["it"].startswith(gene) and n["text"]["en"].startswith(gene)
                   for n in notes), gene
