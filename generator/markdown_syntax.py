"""Markdown constructs that text from data must never trigger, and the one function that turns
them into plain characters (:func:`neutralise_markdown`). A module of its own: the page renderer
(:mod:`generator.render`) applies it to data text and to every written page, and the catalogue's
check (:mod:`generator.i18n`) refuses the same constructs in a catalogue text."""
from __future__ import annotations

import re

IMAGE = re.compile(r"!(?=\[)")
"""An image's ``!`` (``![x](https://...)``, ``![x][ref]``)."""
ABBREVIATION_DEFINITION = re.compile(r"(?m)^([ \t]*)\*(?=\[[^\]\n]*\] ?:)")
"""The start of an abbreviation definition, ``*[Flask]: ...`` (Python-Markdown's syntax); an
emphasised line starting with a link, ``*[Flask](glossary.md)...*``, is not one."""
SNIPPET = re.compile(r"(?m)^([ \t]*)(;?-+8<-+)")
"""A pymdownx.snippets include line (``--8<-- "file"``): the extension is off; if it came back, data
text would still not include a file."""


ADMONITION = re.compile(r'(?m)^([ \t]*)(!!!|\?\?\?\+?)([ \t]+)([^\n"]*)')
"""An admonition's opening line (``!!! kind "Title"``, ``??? kind`` a collapsible one): its marker
and the classes before the title."""
ADMONITION_KINDS = frozenset({"cellula-residue", "cellula-note", "example", "warning"})
"""The admonition kinds the project writes (the data's residue boxes, the templates' notes,
examples and warnings); a text from data opening another (``!!! danger``) shows its characters."""
ADMONITION_CLASS_PREFIXES = ("cellula-note--",)
"""Classes an admonition may add after its kind (a note's kind: ``cellula-note--flag``)."""


def _admonition_kept(match: re.Match[str]) -> str:
    classes = match.group(4).split()
    if classes and classes[0] in ADMONITION_KINDS and all(
            c in ADMONITION_KINDS or c.startswith(ADMONITION_CLASS_PREFIXES) for c in classes[1:]):
        return match.group(0)
    marker = match.group(2)
    return match.group(1) + ("&#33;" if marker[0] == "!" else "&#63;") + marker[1:] + match.group(3) + match.group(4)


def neutralise_markdown(text: str) -> str:
    """``text`` without the Markdown constructs that data text must never trigger, whoever wrote it:
    an image (``![x](https://...)``: a resource loaded from any host by every reader), an
    abbreviation definition (``*[Flask]: ...`` relabels a word on the whole page), a snippet
    include (``--8<-- "file"``: a file of the repository published) and an admonition of a kind the
    project does not write (``!!! danger``: an alarm the project never raised). Each keeps its characters,
    the first one as a character reference (which no Markdown parser reads as syntax)."""
    text = ADMONITION.sub(_admonition_kept, text)
    text = IMAGE.sub("&#33;", text)
    text = ABBREVIATION_DEFINITION.sub(r"\1&#42;", text)
    return SNIPPET.sub(lambda m: m.group(1) + m.group(2).replace("-", "&#45;", 1), text)
