"""Why a finding was reported, said in a site language from its evidence (the check's own
``message`` is English, for the command line)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from .. import i18n
from .model import CheckId, Finding

if TYPE_CHECKING:
    from ..glossary import Term

R = "check.reasons"
"""Where the reasons' texts live in the catalogue (``data/i18n/<lang>.yaml``)."""


def _t(key: str, lang: str, **params: object) -> str:
    return i18n.t(f"{R}.{key}", lang, **params)


def _q(text: str, lang: str) -> str:
    return _t("quote", lang, text=text)


def _side(side: str, lang: str) -> str:
    """One of the two texts named in a site language (as an adjective: 'testo italiano', 'Italian text')."""
    return _t(f"side.{side}", lang)


def _colour(colour: str, lang: str) -> str:
    return _t(f"colours.{colour}", lang) if i18n.has(f"{R}.colours.{colour}", lang) else colour


def _term(term_id: str, lang: str, terms: dict[str, Term]) -> str:
    """A glossary term by its preferred form in ``lang`` (never its internal id)."""
    term = terms.get(term_id)
    form = term.preferred(lang) if term is not None else None
    # the glossary's loader requires an English form of every term: preferred("en") is a string
    return form or (cast(str, term.preferred("en")) if term is not None else term_id.replace("-", " "))


def _num_mismatch(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    parts = [_t(f"num_{side}_only", lang, values=", ".join(ev[f"{side}_only"]))
             for side in ("it", "en") if ev.get(f"{side}_only")]
    return _t("num_mismatch", lang, parts="; ".join(parts))


def _term_missing(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    present, absent = ev["found_in"], "en" if ev["found_in"] == "it" else "it"
    expected = " / ".join(_q(e, lang) for e in ev.get("expected", [])[:2])
    return _t("term_missing", lang, found=_q(ev["found"], lang), present=_side(present, lang), expected=expected,
              absent=_side(absent, lang))


def _term_forbidden(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("term_forbidden", lang, found=_q(ev["found"], lang), expected=_q(ev["expected"], lang))


def _term_variants(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    listing = ", ".join(f"{_q(v, lang)} ×{d['count']}" for v, d in ev.get("variants", {}).items())
    return _t("term_variants", lang, name=_q(_term(ev["term"], lang, terms), lang),
              count=len(ev.get("variants", {})), side=_side(ev["lang"], lang), listing=listing)


def _align_only(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    side = "it" if f.check is CheckId.ALIGN_ONLY_IT else "en"
    scope = "section" if f.evidence.get("scope") == "section" else "paragraph"
    return _t(f"align_only_{scope}", lang, side=_side(side, lang))


def _inconsistent(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("inconsistent", lang, side=_side(ev["source_lang"], lang), count=ev["renderings"])


def _internal(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("internal", lang, side=_side(ev["lang"], lang), subject=ev["subject"], text="/".join(ev["text"]),
              captions="/".join(ev["captions"]))


def _spelling(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("spelling", lang, word=_q(ev["word"], lang), side=_side(ev["lang"], lang))


def _typo(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("typo", lang, word=_q(ev["word"], lang), neighbour=_q(ev["neighbour"], lang))


def _colours(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    it = ", ".join(_colour(c, lang) for c in ev.get("it_only", [])) or "–"
    en = ", ".join(_colour(c, lang) for c in ev.get("en_only", [])) or "–"
    return _t("colours_differ", lang, it=it, en=en)


def _names(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("names_differ", lang, it=_q(ev["it"], lang), en=_q(ev["en"], lang))


def _numword(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    other = "en" if ev["lang"] == "it" else "it"
    return _t("numword", lang, side=_side(ev["lang"], lang), value=ev["value"], other=_side(other, lang))


def _clause(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    ev = f.evidence
    return _t("clause", lang, kind=_t(f"clause_kind.{ev['kind']}", lang), side=_side(ev["lang"], lang),
              clause=_q(ev["clause"], lang))


def _pofilter(f: Finding, lang: str, terms: dict[str, Term]) -> str:
    return _t(f"pofilter.{f.check.value}", lang) + _t("pofilter_tool", lang)


REASONS: dict[CheckId, Callable[[Finding, str, dict[str, Term]], str]] = {
    CheckId.NUM_MISMATCH: _num_mismatch, CheckId.TERM_MISSING: _term_missing,
    CheckId.TERM_FORBIDDEN: _term_forbidden, CheckId.TERM_VARIANTS: _term_variants,
    CheckId.ALIGN_ONLY_IT: _align_only, CheckId.ALIGN_ONLY_EN: _align_only,
    CheckId.SEG_INCONSISTENT: _inconsistent, CheckId.INTERNAL: _internal,
    CheckId.SPELLING: _spelling, CheckId.TERM_TYPO: _typo, CheckId.COLOUR_MISMATCH: _colours,
    CheckId.NAME_MISMATCH: _names, CheckId.NUMWORD_MISMATCH: _numword, CheckId.CLAUSE_ONLY: _clause,
    CheckId.QA_BRACKETS: _pofilter, CheckId.QA_REPEATED_WORD: _pofilter, CheckId.QA_DOUBLE_SPACE: _pofilter,
}
"""One function per check: the finding's reason in a site language."""


def reason(finding: Finding, lang: str, terms: dict[str, Term]) -> str:
    """Why ``finding`` was reported, in ``lang`` (``terms``: glossary id -> Term)."""
    return REASONS[finding.check](finding, lang, terms)
