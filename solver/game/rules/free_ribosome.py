"""Free Ribosome, mRNA Translation (``spots.free-ribosome``).

1e: "I giocatori che piazzano una beuta nello spazio Traduzione mRNA, possono scambiare qualsiasi
numero di risorse mRNA nere ... in altrettante risorse Proteina rosse": any number, zero included.
2e: "they must return any number of black mRNA ... and collect the same number of red Proteins":
at least one by default; the ruling ``free-ribosome-zero: zero-allowed`` reads zero as allowed.
The edition object decides (:meth:`solver.game.editions.Rules.ribosome_min_amount`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..editions import rules_for
from ..model import Puzzle, Resource, Stock

if TYPE_CHECKING:   # the planner's types (the engine, also run in the browser, needs no planner code)
    from solver.encoding.linear import Expr, LinearModel, Var

SECTION = "spots.free-ribosome"


def min_amount(puzzle: Puzzle) -> int:
    """Fewest mRNA one placement translates under ``puzzle``'s edition and readings."""
    return rules_for(puzzle.edition).ribosome_min_amount(puzzle.readings())


def why_not(puzzle: Puzzle, stock: Stock, amount: int | None) -> str | None:
    """Why translating ``amount`` mRNA from ``stock`` is refused, or None."""
    least = min_amount(puzzle)
    if amount is None or amount < least:
        return (f"amount: expected the number of mRNA to translate (>= {least}, {puzzle.edition.value}), "
                f"got {amount!r} ({SECTION})")
    if amount > stock.mrna:
        return f"cannot translate {amount} mRNA, stock has {stock.mrna} ({SECTION})"
    return None


def apply(stock: Stock, amount: int) -> Stock:
    """The stock after translating ``amount`` mRNA into as many proteins."""
    return stock - Stock(mrna=amount) + Stock(protein=amount)


def amounts(puzzle: Puzzle, most: int) -> range:
    """Every amount worth trying when at most ``most`` mRNA can be held."""
    return range(min_amount(puzzle), most + 1)


def encode_amount(lm: LinearModel, puzzle: Puzzle, amount: Var, placed: Expr, most: int) -> None:
    """Planner: ``amount`` (integer variable of a slot) is at least the edition's minimum when the
    slot's action is the Free Ribosome (``placed``, a 0/1 expression) and 0 otherwise."""
    lm.section(SECTION)
    lm.ge(amount, placed * min_amount(puzzle))
    lm.le(amount, placed * max(1, most))


def encode_trade(cost: dict[Resource, Expr], gain: dict[Resource, Expr], amount: Var, mrna: Resource,
                 protein: Resource) -> None:
    """Planner: the slot pays ``amount`` mRNA and gains as many proteins (``cost``/``gain`` are
    the slot's per-resource expressions, keyed by :class:`solver.game.model.Resource`)."""
    cost[mrna] = cost[mrna] + amount
    gain[protein] = gain[protein] + amount
