"""The published address, ``site_url`` (``CELLULA_SITE_URL``), checked before anything is built.

MkDocs writes it as it is into every page's canonical link, the sitemap and the 404 page's links:
a quote in it ends the attribute (``http://example.org/x"><script>`` was a live script on every
page), and MkDocs itself accepts any scheme with a host (``javascript://``). So the address must be
a plain ``http``/``https`` URL: an ASCII host (an internationalised one written in its ``xn--``
form), no user, query or fragment, no quote, space, angle bracket, backslash or control character;
a trailing slash is added (a folder). Empty means unset: no canonical links and no sitemap (the
offline build)."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

VARIABLE = "CELLULA_SITE_URL"
"""The environment variable mkdocs.yml reads ``site_url`` from."""

_UNSAFE = re.compile(r"[\"'<>\\`\s\x00-\x1f\x7f]")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"(?:{_LABEL}\.)*{_LABEL}\.?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")
"""A host name (dot-separated labels) or an IPv6 address (written in brackets in the URL)."""
EXAMPLE = "https://example.org/cellula/"


class SiteUrlError(ValueError):
    """``site_url`` is not an address the site can be published at (the message says why)."""


def _refuse(value: str, why: str) -> SiteUrlError:
    return SiteUrlError(f"{VARIABLE} (site_url): expected an http or https address such as {EXAMPLE}, "
                        f"got {value!r}: {why}")


def checked_site_url(value: str | None) -> str | None:
    """``value`` as the site's address (a trailing slash added), None when empty or unset; a
    :class:`SiteUrlError` naming the variable, the value and the fault otherwise."""
    if value is None or not value.strip():
        return None
    unsafe = _UNSAFE.search(value)
    if unsafe:
        raise _refuse(value, f"it holds {unsafe.group(0)!r} at position {unsafe.start()} "
                            "(quotes, spaces, angle brackets, backslashes and control characters are refused; "
                            "percent-encode them)")
    if not value.isascii():
        raise _refuse(value, "it holds non-ASCII characters (write an internationalised host in its xn-- form, "
                            f"e.g. {_punycode_hint(value)}, and percent-encode the path)")
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https"):
        raise _refuse(value, f"the scheme is {parts.scheme + ':' if parts.scheme else 'missing'}")
    if "@" in parts.netloc:
        raise _refuse(value, "it names a user (user@host)")
    try:
        parts.port  # noqa: B018 (reading it raises on a port that is not a number)
    except ValueError:
        raise _refuse(value, "the port is not a number from 0 to 65535")
    host = parts.hostname or ""
    if not _HOST.fullmatch(host):
        raise _refuse(value, f"the host {host or '(none)'!r} is not a host name")
    if parts.query or parts.fragment or value.endswith(("?", "#")):
        raise _refuse(value, "it has a query or a fragment (the address of a folder has neither)")
    return value if value.endswith("/") else value + "/"


def _punycode_hint(value: str) -> str:
    """``value`` with its host in the ASCII form browsers use (``xn--``), when it can be encoded."""
    parts = urlsplit(value)
    host = parts.hostname or ""
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return "https://xn--.../"
    return value.replace(host, ascii_host, 1)
