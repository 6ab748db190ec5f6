"""``python -m generator bench``: wall time of generating the pages and building the whole site,
printed and written to ``data/figures/build.json`` (:mod:`generator.figures`)."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import features
from .paths import ROOT


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=_runs, default=3, help=f"builds to time, 1..{MAX_RUNS} (default: %(default)s)")
    parser.add_argument("--no-write", action="store_true", help="print the figures without writing data/figures/build.json")


MAX_RUNS = 100
"""Most builds ``bench --runs`` times."""


def _runs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_RUNS:
        raise argparse.ArgumentTypeError(f"expected an integer from 1 to {MAX_RUNS}, got {text!r}")
    return value


def _run(args: argparse.Namespace) -> int:
    from .build import generate
    from .figures import Unit, figure, load_average, write_set
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        _site, pages = generate(docs_dir=Path(tmp))
        gen = time.perf_counter() - start
    print(f"generate: {len(pages)} pages in {gen:.2f} s")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", out],
                           cwd=ROOT, env=env, check=True)
            times.append(time.perf_counter() - start)
    html = sum(1 for lang in ("it", "en") for _ in (ROOT / "docs" / lang).rglob("*.md"))
    print(f"generate + mkdocs build --strict (whole site, {html} Markdown pages): "
          f"best {min(times):.2f} s, median {sorted(times)[len(times) // 2]:.2f} s over {len(times)} runs "
          f"(target < 15 s)")
    if not args.no_write:
        written = write_set("build", f"python -m generator bench --runs {args.runs}", load_before, [
            figure("pages", html, Unit.COUNT),
            figure("generate", gen, Unit.SECONDS),
            figure("build.best", min(times), Unit.SECONDS),
            figure("build.median", sorted(times)[len(times) // 2], Unit.SECONDS),
            figure("runs", len(times), Unit.COUNT)])
        print(f"written: {written.relative_to(ROOT)}")
    return 0


features.register(features.Feature(name="bench", commands=(features.Command("bench", _configure, _run),)))
