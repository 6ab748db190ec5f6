"""The command line's reader of the message catalogue (``data/i18n/<lang>.yaml``): the words of
the step texts (``steps.*``) and of the command line itself (``cli.*``), read with the shared
loader, so that the command line shows the site's words without importing the generator.

The game (:mod:`solver.game.steps`) only renders events through a ``message`` function it is
given; this module is the file-reading side that makes one.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from solver.game.errors import SolverError
from solver.game.messages import format_message, placeholder_fault
from solver.game.steps import NAMESPACE, Message, StepEvent, catalogue_keys, declared_placeholders, render

from .loading import LoadError, display_path, load_yaml

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "data" / "i18n"
"""Where the catalogue files live (``<lang>.yaml``)."""


@lru_cache(maxsize=None)
def _namespace_texts(namespace: str, lang: str, folder: Path = CATALOGUE_DIR) -> dict[str, str]:
    file = folder / f"{lang}.yaml"
    try:
        data, located = load_yaml(file)
    except LoadError as exc:
        raise SolverError(str(exc)) from None
    texts: dict[str, str] = {}
    declared = declared_placeholders() if namespace == NAMESPACE else {}

    def flatten(value: object, prefix: str, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                flatten(v, f"{prefix}.{k}", path + (str(k),))
        elif isinstance(value, str):
            # a translator's text: only named placeholders, never evaluated (solver.game.messages)
            fault = placeholder_fault(value, declared.get(prefix))
            if fault:
                raise SolverError(f"{display_path(file)}:{located.line(path)}: {prefix}: {fault}")
            texts[prefix] = value
    flatten((data or {}).get(namespace, {}) if isinstance(data, dict) else {}, namespace, (namespace,))
    if namespace == NAMESPACE:
        missing = sorted(catalogue_keys() - set(texts))
        if missing:
            raise SolverError(f"{display_path(file)}: {NAMESPACE}: missing the step texts {missing}")
    return texts


def catalogue_message(lang: str, folder: Path = CATALOGUE_DIR, namespace: str = NAMESPACE) -> Message:
    """A ``message`` function reading one namespace (``steps``, the command line's ``cli``) of
    ``folder/<lang>.yaml``: the solver's own small reader of the catalogue, so that the command
    line's words are the site's and live in data, not in code. A key the file lacks is a
    :class:`SolverError` naming the file and the key (the catalogue check reports it first)."""
    texts = _namespace_texts(namespace, lang, folder)

    def message(key: str, **params: object) -> str:
        try:
            text = texts[key]
        except KeyError:
            raise SolverError(f"{display_path(folder / f'{lang}.yaml')}: missing the text {key!r}") from None
        return format_message(text, params) if params else text
    return message


def catalogue_languages(folder: Path = CATALOGUE_DIR) -> tuple[str, ...]:
    """The languages the catalogue has a file for (the command line's ``--lang`` choices)."""
    return tuple(sorted(f.stem for f in folder.glob("*.yaml")))


def describe_events(events: tuple[StepEvent, ...], lang: str) -> str:
    """The step's line in ``lang``, from the catalogue file of that language."""
    return render(events, catalogue_message(lang))
