"""Serve a built site directory on loopback under the ``site_url`` path of mkdocs.yml, like a real host.

Shared by ``tests/site`` (the link crawl) and ``tests/browser`` (Chromium end-to-end tests).
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import os
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("CELLULA_SITE", ROOT / "site"))
"""The built site; ``CELLULA_SITE`` points elsewhere (e.g. a private build while others rebuild ``site/``)."""
OFFLINE_SITE = Path(os.environ.get("CELLULA_SITE_OFFLINE", ROOT / "site-offline"))


def site_prefix() -> str:
    """The path part of ``site_url`` (``/cellula/``): ``CELLULA_SITE_URL`` when set, else the default
    that mkdocs.yml gives (``site_url: !ENV [CELLULA_SITE_URL, default]``)."""
    url = os.environ.get("CELLULA_SITE_URL")
    if not url:
        config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
        url = config["site_url"]
        url = url[-1] if isinstance(url, list) else url
    path = urlsplit(url).path or "/"
    return path if path.endswith("/") else path + "/"


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"
    site = SITE

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        if not clean.startswith(self.prefix):
            return str(self.site / "__outside_site_url__")
        return super().translate_path("/" + clean[len(self.prefix):])

    compress = True
    _COMPRESSIBLE = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".map")
    _cache: dict = {}

    def do_GET(self):
        # Like a real static host (GitHub Pages, any CDN): text compressed with gzip when asked.
        if not (self.compress and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().do_GET()
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().do_GET()  # the redirect to the slash-terminated address
            path = path / "index.html"
        if not path.is_file() or path.suffix not in self._COMPRESSIBLE:
            return super().do_GET()
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        body = self._cache.get(key)
        if body is None:
            body = self._cache[key] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        # Like a real static host (and ``mkdocs serve``): the site's own 404 page for missing paths.
        page = self.site / "404.html"
        if code == 404 and page.exists() and self.command in ("GET", "HEAD"):
            body = page.read_bytes()
            self.send_response(404, message)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, *args) -> None:  # keep test output clean
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser that leaves a page closes the connections it was still reading (the test output
        # showed a BrokenPipeError traceback); a real host does not report that either.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


@contextlib.contextmanager
def serve_site(site: Path = SITE, prefix: str | None = None) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (a free port) under ``prefix`` (default: the ``site_url`` path of
    mkdocs.yml; ``"/"`` serves it at the web root); yields the base URL, ending with the prefix."""
    prefix = site_prefix() if prefix is None else prefix
    handler_class = type("H", (_Handler,), {"prefix": prefix, "site": site})
    handler = functools.partial(handler_class, directory=str(site))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
